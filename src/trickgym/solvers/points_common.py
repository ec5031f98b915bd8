"""What the games' point-trick solver hooks share: position keys, rank spans, default hooks."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards.bits import highest_bit, pext, popcount
from ..rng import _GOLDEN, _M2, mix64

__all__ = [
    "DEFAULT_HOOKS",
    "hash_word",
    "masters",
    "point_hooks",
    "position_key",
    "quick_tricks",
    "relative_key",
    "span",
    "whist_winner",
]

# Two independent hash chains: a table entry must match both (128 bits). The first
# seed and the second chain's step are splitmix64's own constants.
KEY_SEED_1 = _GOLDEN
KEY_SEED_2 = np.uint64(0xD1B54A32D192ED03)
_STEP_2 = _M2


@njit(cache=True, inline="always")
def hash_word(k1, k2, word):
    """Fold one 64-bit word into both hash chains."""
    w = np.uint64(word)
    return mix64(k1 ^ w), mix64((k2 + _STEP_2) ^ (w * _STEP_2))


@njit(cache=True, inline="always")
def position_key(hands, n_seats, info):
    """The table key of a position: the ``n_seats`` hands, then ``info``.

    ``info`` is one word of what else decides the rest of the deal (the
    leader, trumps, the side, and a tag telling the games apart).
    """
    k1, k2 = KEY_SEED_1, KEY_SEED_2
    for s in range(n_seats):
        k1, k2 = hash_word(k1, k2, hands[s])
    return hash_word(k1, k2, info)


@njit(cache=True, inline="always")
def _above(mine, theirs, kind_shift):
    if theirs == 0:
        return mine
    first = ((highest_bit(theirs) >> kind_shift) + 1) << kind_shift  # the next kind up
    if first >= 64:
        return np.uint64(0)
    return mine & ~((np.uint64(1) << np.uint64(first)) - np.uint64(1))


@njit(cache=True, inline="always")
def masters(side_cards, other_cards, trumps, kind_shift):
    """The trumps of each side that no trump of the other side can beat: ``(side's, other's)``.

    A trump always takes part in the contest for its trick (led, followed or
    ruffing), so such a card wins its trick for its side whatever is played:
    its points are that side's for sure (a sure-trick bound). Kinds are
    ``card >> kind_shift`` (1 for Pinochle's two copies: equal kinds beat
    neither way, the earlier wins). A non-trump top card is not sure: it
    may have to be discarded on another suit's trick.
    """
    tx = side_cards & trumps
    ty = other_cards & trumps
    return _above(tx, ty, kind_shift), _above(ty, tx, kind_shift)


@njit(cache=True, inline="always")
def _class_points(cards, zero, classes, values, k, richest):
    """The points of the ``k`` cheapest (``richest``: dearest) of ``cards``, all of them if
    fewer; a card of ``zero`` or of no class is worth 0. ``classes[i]`` holds the cards worth
    ``values[i] > 0``, ascending."""
    n_cls = classes.shape[0]
    total = np.int64(0)
    if not richest:
        nothing = cards & zero
        rest = cards & ~zero
        for i in range(n_cls):
            rest &= ~classes[i]
        k -= popcount(nothing | rest)
    cards &= ~zero
    for j in range(n_cls):
        if k <= 0:
            break
        i = n_cls - 1 - j if richest else j
        m = min(k, popcount(cards & classes[i]))
        total += m * values[i]
        k -= m
    return total


@njit(cache=True)
def quick_tricks(hands, n_seats, leader, hidden, suit_masks, trump_suit, classes, values, counted,
                 free, paired, short_suit=-1, exact_seats=0):  # fmt: skip
    """Points the leader's side takes for sure by cashing top cards from the lead: ``(gain, k)``.

    The leader (to lead at a trick boundary) holds cards of a suit that no
    other seat can beat: above every other seat's card of the suit (a trump
    suit: above every other seat's trump; ``paired``: no other seat holds a
    strictly higher kind, a copy played later never beats). Led one a trick,
    each wins its trick as long as every other seat holding a trump still
    follows suit, so a plain suit gives as many tricks as the leader's top
    cards and the shortest holding among the other seats that hold trumps
    (a seat without trumps cannot beat a top card: it follows or discards).
    The leader wins and leads again; the other suits' tricks add up, since
    the seats with trumps only ever follow (and keep their other suits),
    the others never win. ``k`` tricks in all bring the leader's cashed
    cards (its richest of each suit) and from each other seat at least its
    ``k`` cheapest cards (all of them if fewer).

    ``hidden`` is removed from every hand (Troggu's held-back Fool: no trump,
    never wins, not the trick winner's); a card in ``counted`` is worth 0
    (its points are counted elsewhere already, e.g. master trumps) and one in
    ``free`` is worth 0 from a follower. Points are by ``classes``/``values``
    (see :func:`_class_points`). Exact as a bound whatever the game's
    obligations to beat or trump: only following suit is relied on.

    Mid-trick, for the seat that will lead next (the trick's winner whom no
    seat can beat): ``short_suit`` is the led suit, and every seat but those
    of ``exact_seats`` (a bit per seat: the ones that have played to the
    trick) still plays a card to it, one of ``short_suit`` if it holds one:
    its hand here holds a card more (the top threshold and the cheapest cards
    are only looser) and its count there is taken one less. A seat without
    that suit plays a trump if it holds one (cannot beat, but must trump), so
    its counts in the other plain suits stand.
    """
    lead = hands[leader] & ~hidden
    others = np.uint64(0)
    armed = 0  # seats other than the leader that hold a trump
    trumps = suit_masks[trump_suit] if trump_suit >= 0 else np.uint64(0)
    for s in range(n_seats):
        if s != leader:
            h = hands[s] & ~hidden
            others |= h
            if h & trumps:
                armed |= 1 << s
    k_all = 0
    gain = np.int64(0)
    for i in range(suit_masks.shape[0]):
        x = suit_masks[i]
        mine = lead & x
        if not mine:
            continue
        oth = others & x
        cash = mine
        if oth:
            h = highest_bit(oth)
            floor = (h >> 1) << 1 if paired else h + 1
            if floor >= 64:
                continue
            cash = mine & ~((np.uint64(1) << np.uint64(floor)) - np.uint64(1))
        if not cash:
            continue
        k = popcount(cash)
        if i != trump_suit:
            for s in range(n_seats):
                if (armed >> s) & 1:
                    cnt = popcount(hands[s] & x)
                    if i == short_suit and cnt > 0 and not (exact_seats >> s) & 1:
                        cnt -= 1
                    k = min(k, cnt)
        if k <= 0:
            continue
        k_all += k
        gain += _class_points(cash, counted, classes, values, k, True)
    if k_all == 0:
        return np.int64(0), 0
    for s in range(n_seats):
        if s != leader:
            h = hands[s] & ~hidden
            gain += _class_points(h, counted | free, classes, values, k_all, False)
    return gain, k_all


_EVEN = np.uint64(0x5555555555555555)


@njit(cache=True)
def relative_key(hands, n_seats, info, suit_masks, classes, special, paired):
    """The table key of a trick boundary by **relative ranks** (partition search, exact).

    Every card still in a hand is numbered by its place among the cards
    still in play (``pext`` over their union), so positions that differ only
    in which cards are gone share a key when what the rest of the deal
    depends on is equal: who holds each remaining place, how many places
    each suit has, the points of each place (``classes``: disjoint card
    sets of equal points, one word each), which place is a ``special``
    card (Troggu's Fool) and, if ``paired`` (Pinochle's two copies on bits
    ``2k``, ``2k+1``), which places are the lower of two identical copies;
    then ``info``. Needs ids that run weakest to strongest inside a suit
    (as every trick rule here compares them) and suits on contiguous ids.
    """
    rem = np.uint64(0)
    for s in range(n_seats):
        rem |= hands[s]
    k1, k2 = KEY_SEED_1, KEY_SEED_2
    for s in range(n_seats):
        k1, k2 = hash_word(k1, k2, pext(hands[s], rem))
    counts = np.uint64(0)
    for i in range(suit_masks.shape[0]):
        counts |= np.uint64(popcount(rem & suit_masks[i])) << np.uint64(7 * i)
    k1, k2 = hash_word(k1, k2, counts)
    for i in range(classes.shape[0]):
        k1, k2 = hash_word(k1, k2, pext(classes[i], rem))
    if special:
        k1, k2 = hash_word(k1, k2, pext(special, rem))
    if paired:
        k1, k2 = hash_word(k1, k2, pext(rem & (rem >> np.uint64(1)) & _EVEN, rem))
    return hash_word(k1, k2, info)


@njit(cache=True, inline="always")
def span(low_card, high_card):
    """The cards with ids ``low_card..high_card`` inclusive."""
    one = np.uint64(1)
    hi = np.uint64(high_card)
    top = np.uint64(0xFFFFFFFFFFFFFFFF) if hi >= np.uint64(63) else (one << (hi + one)) - one
    return top & ~((one << np.uint64(low_card)) - one)


@njit(cache=True)
def whist_winner(st):
    """The seat winning the trick so far in a four-seat game that keeps ``win_pos``; -1 if none."""
    return -1 if st.trick_n == 0 else (st.leader + st.win_pos) % 4


# Default solver hooks (see trickgym.protocol) for a game that does not give its own.
@njit(cache=True)
def _no_fixed(st):
    return np.uint64(0)


@njit(cache=True)
def _no_prepare(st):
    pass


@njit(cache=True)
def _unit_one(st):
    return 1


@njit(cache=True)
def _ids_span(st, low_card, high_card):
    return span(low_card, high_card)


@njit(cache=True)
def _every_card(st, card):
    return np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def _always(st):
    return True


#: Every card mergeable, nothing to prepare, points in ones, ranks equal to card ids, any
#: card may beat any (``beaters``: no trick is settled before its last card) and a chain of
#: unequal points one move wherever the trick's taking side is settled (``unequal_ok``).
DEFAULT_HOOKS = {
    "fixed": _no_fixed,
    "prepare": _no_prepare,
    "unit": _unit_one,
    "span": _ids_span,
    "beaters": _every_card,
    "unequal_ok": _always,
}


def point_hooks(*kernels, **named) -> dict:
    """The point-trick solver's hooks of a game (see :mod:`trickgym.protocol`).

    Each of ``kernels`` is the hook its name says without the leading
    underscore (``_key`` is ``key``); ``named`` gives hooks whose kernel is
    named otherwise. Hooks a game does not give take the defaults.
    """
    hooks = dict(DEFAULT_HOOKS)
    hooks.update({k.__name__.removeprefix("_"): k for k in kernels})
    hooks.update(named)
    return hooks
