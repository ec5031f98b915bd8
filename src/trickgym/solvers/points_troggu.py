"""Troggu's hooks for the point-trick solver (named by ``trickgym.games.troggu.description``).

The value is the **card points** of the declaring side (declarer and any
partner; 114 in the pack) after the Fool's exchange, its Tapp or discards
included, at any table size 3-8. With every hand visible the hidden partner
is simply a seat of the side. Misère (everybody for themselves) has no side
and is not searched: :func:`trickgym.solvers.solve` refuses it.

The Fool's exchange is the one rule that makes the rest of a deal depend on
the past: a held-back Fool's holder gives the last-trick winner a card of
the lowest value in their pile. So the table key holds, besides the hands,
who has held back the Fool and the lowest point value in the pile of the
seat holding the Fool (0 for an empty pile). The exchange never costs the
holder's side points: the Fool (5) joins its pile, which gives a card of at
most 5; the bounds never count the Fool but where it is played now.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards.decks import TAROT
from ..games.troggu.constants import FOOL, TOTAL_POINTS
from ..games.troggu.rules import _POINT_CLASSES, SUIT_OF, card_points
from ..tricks.troggu import troggu_trick_winner
from .points_common import masters, point_hooks, quick_tricks, relative_key

__all__ = ["POINT_HOOKS"]

_SUIT_MASKS = TAROT.suit_masks.copy()
_POINTS = TAROT.points.copy()
_TRUMPS = np.uint64(TAROT.suit_masks[0])
_FOOL_BIT = np.uint64(1 << FOOL)
_CLASSES = _POINT_CLASSES[2:].copy()  # every card has at least 1 point
_QCLASSES = _POINT_CLASSES[1:].copy()  # the cards worth 1, 2, .. 5 points
_QVALUES = np.arange(1, 6, dtype=np.int64)


@njit(cache=True)
def _in_side(st, seat):
    return seat == st.declarer or (seat == st.partner and seat >= 0)


@njit(cache=True)
def _side_points(st):
    pts = card_points(st.won[st.declarer])
    if st.partner >= 0 and st.partner != st.declarer:
        pts += card_points(st.won[st.partner])
    return np.int64(pts)


@njit(cache=True)
def _fool_in_play(st):
    for s in range(st.n_players):
        if st.hands[s] & _FOOL_BIT:
            return s
    return -1


@njit(cache=True)
def _bounds(st):
    taken = 0
    for s in range(st.n_players):
        taken += card_points(st.won[s])
    # The exchange moves a card out of a pile, but never costs the holder's side: the Fool
    # (5 points, never counted below) joins the pile that gives a card of at most 5. The
    # side can gain at most what is in play: a card it receives stands for the Fool's 5.
    holder = _fool_in_play(st)
    # Master trumps: their points are their side's whatever is played. The Fool counts
    # as a trump that beats (it may) but never as a sure card (it may be held back):
    # its points come back to its holder, paying for the exchange.
    hidden = _FOOL_BIT if holder >= 0 and (st.held_back >> holder) & 1 else np.uint64(0)
    side = np.uint64(0)
    other = np.uint64(0)
    for s in range(st.n_players):
        h = st.hands[s] & ~hidden  # a held-back Fool is no trump and never wins
        if _in_side(st, s):
            side |= h
        else:
            other |= h
    # The trick's cards contest the trick the hands' cards may join (a held-back Fool never).
    in_side, in_other = side, other
    for i in range(st.trick_n):
        c = st.trick_cards[i]
        if c >= 0 and i != st.held_back_pos:
            if _in_side(st, (st.leader + i) % st.n_players):
                side |= np.uint64(1) << np.uint64(c)
            else:
                other |= np.uint64(1) << np.uint64(c)
    mine, theirs = masters(side, other, _TRUMPS, 0)
    mine &= in_side & ~_FOOL_BIT
    theirs &= in_other & ~_FOOL_BIT
    sure = card_points(mine)
    lost = card_points(theirs)
    if st.trick_n == 0:
        # Quick tricks: the leader's side cashes its top cards (its masters counted once). A
        # follower's Fool counts for nobody (a held-back one returns to its holder) and the
        # leader's cashed Fool for its side: no exchange follows once it is played.
        p = st.to_move
        leads = _in_side(st, p)
        gain, _ = quick_tricks(st.hands, st.n_players, p, hidden,
                               (_SUIT_MASKS, _QCLASSES, _QVALUES, False), 0,
                               mine if leads else theirs, _FOOL_BIT)  # fmt: skip
        if leads:
            sure += gain
        else:
            lost += gain
    else:
        gain, wins, w = _settled_trick(st, hidden, mine, theirs)
        if w >= 0 and st.hands[w]:
            # No seat at all can beat the winning card: its seat leads next and cashes its
            # quick tricks. The seats still to play hold a card more (the trick's) and, if
            # they follow, one more of the led suit: looser, never wrong.
            played = 0
            for i in range(st.trick_n):
                played |= 1 << ((st.leader + i) % st.n_players)
            led = 0
            for i in range(_SUIT_MASKS.shape[0]):
                if _SUIT_MASKS[i] == st.led_mask:
                    led = i
            more, _ = quick_tricks(st.hands, st.n_players, w, hidden,
                                   (_SUIT_MASKS, _QCLASSES, _QVALUES, False), 0,
                                   mine if wins > 0 else theirs, _FOOL_BIT, led,
                                   played)  # fmt: skip
            gain += more
        if wins > 0:
            sure += gain
        elif wins < 0:
            lost += gain
    return np.int64(sure), np.int64(TOTAL_POINTS - taken - lost)


@njit(cache=True)
def _settled_trick(st, hidden, mine, theirs):
    """The trick in progress when no seat still to play can beat its winning card for the
    other side: ``(points, +1, seat)`` for the side, ``(points, -1, seat)`` for its opponents,
    ``(0, 0, -1)`` when it is open; ``seat`` is the winning card's when no seat still to play
    can beat it at all (-1 otherwise). Its cards but a held-back Fool (it returns to its
    holder), and from each seat still to play its cheapest card (that side's masters,
    counted already, and a follower's Fool worth 0)."""
    n = st.n_players
    w = _winning_pos(st, st.trick_n, st.held_back_pos)
    if w < 0:
        return 0, 0, -1
    seat = (st.leader + w) % n
    wside = _in_side(st, seat)
    beat = _beaters(st, -1)
    for i in range(st.trick_n, n):
        s = (st.leader + i) % n
        if st.hands[s] & ~hidden & beat:
            if _in_side(st, s) != wside:
                return 0, 0, -1
            seat = -1
    pts = 0
    for i in range(st.trick_n):
        c = st.trick_cards[i]
        if c >= 0 and i != st.held_back_pos:
            pts += _POINTS[c]
    counted = (mine if wside else theirs) | _FOOL_BIT
    for i in range(st.trick_n, n):
        h = st.hands[(st.leader + i) % n]
        pts += _cheapest(h, counted)
    return pts, 1 if wside else -1, seat


@njit(cache=True, inline="always")
def _cheapest(hand, zero):
    """The points of the hand's cheapest card, one of ``zero`` worth 0 (0 for an empty hand)."""
    if hand & zero or hand == 0:
        return 0
    for v in range(1, 6):
        if hand & _POINT_CLASSES[v]:
            return v
    return 0


@njit(cache=True)
def _pile_low(pile):
    """Lowest point value in a pile without the Fool (0 if empty): what an exchange would give."""
    return _cheapest(pile & ~_FOOL_BIT, np.uint64(0))


@njit(cache=True)
def _key(st):
    n = st.n_players
    side = 0
    for s in range(n):
        if _in_side(st, s):
            side |= 1 << s
    holder = _fool_in_play(st)
    low = _pile_low(st.won[holder]) if holder >= 0 else 0
    info = st.leader | n << 4 | side << 8 | np.int64(st.held_back) << 16 | low << 24
    return relative_key(
        st.hands, n, info | np.int64(3) << 32, _SUIT_MASKS, _CLASSES, _FOOL_BIT, False
    )


@njit(cache=True)
def _points(st, card):
    return _POINTS[card]


@njit(cache=True)
def _suit(st, card):
    return _SUIT_MASKS[SUIT_OF[card]]


@njit(cache=True)
def _fixed(st):
    return _FOOL_BIT


@njit(cache=True)
def _unequal_ok(st):
    # The Fool's exchange gives a card of the lowest value in its holder's pile: which one
    # depends on where cheap cards go, unless the pile holds a 1-point card already (then
    # it gives 1 point whatever is played) or the Fool is out of the hands.
    holder = _fool_in_play(st)
    return holder < 0 or (st.won[holder] & ~_FOOL_BIT & _POINT_CLASSES[1]) != 0


@njit(cache=True)
def _winning_pos(st, n, held_back_pos):
    return troggu_trick_winner(st.trick_cards, n, SUIT_OF, _TRUMPS, held_back_pos)


@njit(cache=True)
def _wins_now(st, card):
    if st.trick_n == 0:
        return True
    pos = st.trick_n
    held = (st.held_back >> st.to_move) & 1 != 0
    hb = pos if (card == FOOL and held) else st.held_back_pos
    st.trick_cards[pos] = card  # restored below: the trick is read in place
    w = _winning_pos(st, pos + 1, hb)
    st.trick_cards[pos] = -1
    return w == pos


@njit(cache=True)
def _beaters(st, card):
    # Cards that would beat ``card`` (-1: the trick's winning card) played after it: higher
    # cards of its suit (the Fool tops the trumps; a held-back one never wins, but counting
    # it only makes fewer tricks look settled), and every trump if it is none.
    if card < 0:
        pos = _winning_pos(st, st.trick_n, st.held_back_pos)
        if pos < 0:
            return np.uint64(0xFFFFFFFFFFFFFFFF)
        card = st.trick_cards[pos]
    above = _SUIT_MASKS[SUIT_OF[card]] & ~((np.uint64(2) << np.uint64(card)) - np.uint64(1))
    if (_TRUMPS >> np.uint64(card)) & np.uint64(1):
        return above
    return above | _TRUMPS


@njit(cache=True)
def _winner(st):
    if st.trick_n == 0:
        return -1
    w = _winning_pos(st, st.trick_n, st.held_back_pos)
    return -1 if w < 0 else (st.leader + w) % st.n_players


#: The point-trick solver's hooks of the game protocol (see :mod:`trickgym.protocol`).
POINT_HOOKS = point_hooks(
    _in_side,
    _side_points,
    _bounds,
    _key,
    _points,
    _suit,
    _fixed,
    _unequal_ok,
    _wins_now,
    _winner,
    _beaters,
)
