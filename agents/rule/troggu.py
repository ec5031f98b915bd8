"""Rule-based Troggu agent: classic heuristics on the seat's observation record only.

Named rules (each a module-level compiled function):

* :func:`hand_strength` / :func:`bid_call` - bidding. The hand is valued
  card by card (Fool, XXI, high trumps, Kings, guarded honours, voids and
  singletons when holding trumps) relative to an average hand of the same
  size; Tapp and Solo need a ratio that grows with the number of players
  (the declarer plays alone against more opponents with fewer own cards).
* :func:`discard_choice` - after taking the Tapp: keep trumps and Kings,
  discard from the shortest plain suits first (creating voids) and bank the
  highest-point cards of those suits in the discard.
* :func:`partner_call` - 7-8 players: name the highest trump II-XX the
  Tappist neither holds nor discarded.
* :func:`fool_hold_back` - when the Fool is the only trump and a trump is
  required: play it to win a valuable trick of the other side, else hold it
  back (always in Misère).
* :func:`lead_card` - lead: draw trumps from the top when the declarer side
  holds a large share of them, cash boss plain cards (Kings first) while no
  opponent is known void, else lead low from a long suit.
* :func:`follow_card` - follow: smear points (the I included) onto a trick
  the own side is surely winning, win as cheaply as possible (last hand; a
  sure winner elsewhere), spend a high trump on a valuable trick, else
  discard the cheapest card.
* :func:`misere_lead` / :func:`misere_follow` - Misère: duck with the
  highest non-winning card (shedding points onto other players' tricks),
  never play the Fool unless forced, lead low cards that many unseen cards
  outrank.

Card counting uses the unseen cards (everything not in hand, played, or
discarded by oneself) and the public voids.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from trickgym.cards.bits import highest_bit, lowest_bit, popcount
from trickgym.cards.decks import TAROT
from trickgym.games.troggu.constants import (
    AUCTION,
    CALL,
    CALL_BASE,
    DISCARD,
    FOOL,
    HAND_SIZE,
    MISERE,
    N_CARDS,
    NO_PARTNER,
    PASS,
    SOLO_CALL,
    TAPP_CALL,
    TRUMP_I,
    TRUMP_XXI,
)

__all__ = [
    "P_DRAW_SHARE",
    "P_FOOL_TRICK_MIN",
    "P_PARTNER_DISCOUNT",
    "P_SOLO_BASE",
    "P_SOLO_PER_PLAYER",
    "P_TAPP_BASE",
    "P_TAPP_PER_PLAYER",
    "P_VOID_BONUS",
    "P_WIN_MIN_POINTS",
    "RuleOptions",
    "bid_call",
    "discard_choice",
    "follow_card",
    "fool_hold_back",
    "hand_strength",
    "lead_card",
    "misere_follow",
    "misere_lead",
    "partner_call",
    "rule_action",
]


@dataclass(frozen=True)
class RuleOptions:
    """Thresholds of the Troggu rule agent's heuristics (fields in ``params`` order).

    tapp_base:
        Hand-strength ratio (own hand value / average hand value, see
        :func:`hand_strength`) needed to bid Tapp at 3 players.
    tapp_per_player:
        Added to the Tapp threshold for each player above 3.
    partner_discount:
        Subtracted from the Tapp threshold at 7-8 players, where the Tappist
        calls a partner.
    solo_base:
        Hand-strength ratio needed to bid Solo at 3 players.
    solo_per_player:
        Added to the Solo threshold for each player above 3.
    void_bonus:
        Hand value of a void plain suit when holding 3+ trumps (half for a
        singleton).
    fool_trick_min:
        Card points already in a trick of the other side for which the Fool
        (only trump, hold-back possible) is played to win it.
    win_min_points:
        Card points in a trick of the other side for which a non-sure high
        trump is spent to try and win it (not last to play).
    draw_share:
        The declarer side leads trumps when it holds at least this share of
        the trumps still unseen.
    """

    tapp_base: float = 0.8
    tapp_per_player: float = 0.22
    partner_discount: float = 0.65
    solo_base: float = 1.6
    solo_per_player: float = 0.4
    void_bonus: float = 0.8
    fool_trick_min: float = 4.0
    win_min_points: float = 5.0
    draw_share: float = 0.6


P_TAPP_BASE = 0
P_TAPP_PER_PLAYER = 1
P_PARTNER_DISCOUNT = 2
P_SOLO_BASE = 3
P_SOLO_PER_PLAYER = 4
P_VOID_BONUS = 5
P_FOOL_TRICK_MIN = 6
P_WIN_MIN_POINTS = 7
P_DRAW_SHARE = 8

# ------------------------------------------------------------------ card tables

_U1 = np.uint64(1)
_ALL = np.uint64((1 << N_CARDS) - 1)
_SUIT_OF = TAROT.suit_of.astype(np.int64)
_SUIT_MASKS = TAROT.suit_masks.astype(np.uint64)
_POINTS = TAROT.points.astype(np.int64)
_TRUMPS = np.uint64(int(TAROT.suit_masks[0]))
_FOOL_BIT = np.uint64(1 << FOOL)
_I_BIT = np.uint64(1 << TRUMP_I)
_XXI_BIT = np.uint64(1 << TRUMP_XXI)
_HAND_SIZE = np.array([HAND_SIZE.get(n, 0) for n in range(9)], dtype=np.int64)
_KINGS = np.uint64(sum(1 << c for c in range(N_CARDS) if TAROT.rank_names[c] == "K"))
_QUEENS = np.uint64(sum(1 << c for c in range(N_CARDS) if TAROT.rank_names[c] == "Q"))
_KNIGHTS = np.uint64(sum(1 << c for c in range(N_CARDS) if TAROT.rank_names[c] == "N"))
_JACKS = np.uint64(sum(1 << c for c in range(N_CARDS) if TAROT.rank_names[c] == "J"))
# Plain cards worth one point (pips), the one-point trumps II..XX, plain suit bases.
_PIPS = np.uint64(
    sum(1 << c for c in range(N_CARDS) if TAROT.suit_of[c] != 0 and TAROT.points[c] == 1)
)
_MID_TRUMPS = np.uint64(sum(1 << c for c in range(TRUMP_I + 1, TRUMP_XXI)))
_SUIT_BASE = np.array(
    [min(c for c in range(N_CARDS) if TAROT.suit_of[c] == s) for s in range(5)], dtype=np.int64
)


def _card_values() -> np.ndarray:
    """Bidding value of each card (trumps by rank, honours by rank)."""
    v = np.zeros(N_CARDS, dtype=np.float64)
    for c in range(N_CARDS):
        r = TAROT.rank_names[c]
        if TAROT.suit_of[c] == 0:
            v[c] = 0.6 + 0.07 * c
        elif r == "K":
            v[c] = 2.5
        elif r == "Q":
            v[c] = 1.2
        elif r == "N":
            v[c] = 0.6
        elif r == "J":
            v[c] = 0.3
    v[FOOL], v[TRUMP_XXI], v[TRUMP_I] = 3.5, 3.0, 1.0
    return v


_VALUE = _card_values()
_VALUE_MEAN = float(_VALUE.mean())  # value of an average card

NO_CARD = -1


@njit(cache=True, inline="always")
def _b(c):
    return _U1 << np.uint64(c)


@njit(cache=True, inline="always")
def _above(c):
    """Cards with a higher index than card ``c``."""
    return ~((_b(c) << _U1) - _U1)


@njit(cache=True, inline="always")
def _rank(c):
    """Rank inside the suit (trumps: 0 for I up to 21 for the Fool; plain: 0..9)."""
    return c if c <= FOOL else (c - FOOL - 1) % 10


@njit(cache=True, inline="always")
def beats(a, b):
    """Whether card ``a`` beats the current winning card ``b`` (``b`` set the suit or trumped)."""
    ta = _SUIT_OF[a] == 0
    tb = _SUIT_OF[b] == 0
    if ta and tb:
        return a > b
    if ta:
        return True
    if tb:
        return False
    return _SUIT_OF[a] == _SUIT_OF[b] and a > b


@njit(cache=True, inline="always")
def _trick_state(obs):
    """(position, card) winning the current trick so far, and the trick's card points.

    Trumps win by index, else the highest card of the led suit: one pass, no
    pairwise comparisons. Position -1 for an empty trick.
    """
    best, best_key, pts = -1, -1, 0
    led = _SUIT_OF[obs.trick_cards[0]] if obs.trick_n else 0
    for i in range(obs.trick_n):
        c = obs.trick_cards[i]
        pts += _POINTS[c]
        if c <= FOOL:
            key = 100 + c
        elif _SUIT_OF[c] == led:
            key = c
        else:
            key = -1
        if key > best_key:
            best, best_key = i, key
    card = obs.trick_cards[best] if best >= 0 else NO_CARD
    return best, card, pts


@njit(cache=True, inline="always")
def trick_winner_pos(obs):
    """Position of the card winning the current trick so far (-1 if empty)."""
    return _trick_state(obs)[0]


@njit(cache=True, inline="always")
def beating(cards, w):
    """Subset of ``cards`` that beat the winning card ``w``."""
    if w <= FOOL:
        return cards & _TRUMPS & _above(w)
    return (cards & _SUIT_MASKS[_SUIT_OF[w]] & _above(w)) | (cards & _TRUMPS)


@njit(cache=True, inline="always")
def unseen_cards(obs):
    """Cards not in hand, not played, and not discarded by this seat."""
    known = obs.hand | obs.discards
    for s in range(obs.n_players):
        known |= obs.played[s]
    return _ALL & ~known


@njit(cache=True, inline="always")
def is_ally(obs, other):
    """Whether ``other`` plays on this seat's side (defenders are one side; Misère: alone)."""
    me = obs.seat
    if other == me:
        return True
    if obs.contract == MISERE or obs.declarer < 0:
        return False
    if obs.declarer == me:
        return obs.partner >= 0 and other == obs.partner
    if obs.partner == me:
        return other == obs.declarer
    return other != obs.declarer and other != obs.partner


@njit(cache=True, inline="always")
def on_declarer_side(obs):
    """Whether this seat is the declarer or its known-to-itself partner."""
    return obs.declarer == obs.seat or (obs.partner == obs.seat and obs.declarer >= 0)


@njit(cache=True, inline="always")
def _lowest_rank(pips):
    """The plain card of lowest rank in ``pips`` (ties: the lowest suit), -1 if none."""
    lanes = np.uint64(0)
    for s in range(1, 5):
        lanes |= pips >> np.uint64(_SUIT_BASE[s])
    lanes &= np.uint64(0x3FF)
    if not lanes:
        return NO_CARD
    r = lowest_bit(lanes)
    for s in range(1, 5):
        c = _SUIT_BASE[s] + r
        if (pips >> np.uint64(c)) & _U1:
            return c
    return NO_CARD


@njit(cache=True, inline="always")
def cheapest(cards):
    """Cheapest card to give up: fewest points, then plain before trump, then lowest rank."""
    pips = cards & _PIPS
    if pips:
        return _lowest_rank(pips)
    for cls in (_MID_TRUMPS, _JACKS, _KNIGHTS, _QUEENS, _KINGS):
        x = cards & cls
        if x:
            return lowest_bit(x)
    if cards:
        return lowest_bit(cards)  # I, XXI, Fool in this order
    return NO_CARD


@njit(cache=True, inline="always")
def lowest_winner(cards):
    """Lowest-ranked card of a set of winners: plain ones before trumps."""
    plain = cards & ~_TRUMPS
    if plain:
        return lowest_bit(plain)
    return lowest_bit(cards)


@njit(cache=True, inline="always")
def _suit_trumpable(obs, s, remaining):
    """Whether a later player (of ``remaining``) is void in plain suit ``s`` but not in trumps."""
    n = obs.n_players
    p = obs.leader + obs.trick_n + 1  # below 2n: no division needed
    if p >= n:
        p -= n
    for _ in range(remaining):
        v = obs.voids[p]
        p += 1
        if p == n:
            p = 0
        if (v >> s) & 1 and not (v & 1):
            return True
    return False


@njit(cache=True, inline="always")
def is_sure(c, obs, unseen, remaining):
    """Whether card ``c`` (now winning) stays winning against the ``remaining`` later players."""
    if remaining == 0 or c == FOOL:
        return True
    s = _SUIT_OF[c]
    out = unseen & _SUIT_MASKS[s]
    if out & _above(c):
        return False
    if s == 0:
        return True
    if (unseen & _TRUMPS) == 0:
        return True
    # A later player void in the suit may trump; so may one when few cards remain out.
    if _suit_trumpable(obs, s, remaining):
        return False
    return popcount(out) >= remaining


@njit(cache=True)
def first_sure(cands, obs, unseen, remaining):
    """Lowest card of ``cands`` (Fool excluded) for which :func:`is_sure` holds, -1 if none.

    Only the lowest card above every unseen card of its suit can be the one;
    the trump threat to a plain suit does not depend on the card.
    """
    if not cands:
        return NO_CARD
    if remaining == 0:
        return lowest_bit(cands)
    out_t = unseen & _TRUMPS
    t = cands & _TRUMPS
    if t:
        if out_t:
            t &= _above(highest_bit(out_t))
        if t:
            return lowest_bit(t)
    for s in range(1, 5):
        mine = cands & _SUIT_MASKS[s]
        if not mine:
            continue
        out = unseen & _SUIT_MASKS[s]
        if out:
            mine &= _above(highest_bit(out))
        if not mine:
            continue
        if not out_t:
            return lowest_bit(mine)
        if not _suit_trumpable(obs, s, remaining) and popcount(out) >= remaining:
            return lowest_bit(mine)
    return NO_CARD


# ---------------------------------------------------------------------- bidding


@njit(cache=True, inline="always")
def hand_strength(hand, n, void_bonus):
    """Hand value over the value of an average hand of the same size (1.0 = average)."""
    total = 0.0
    bits = hand
    while bits:
        c = lowest_bit(bits)
        bits &= bits - _U1
        total += _VALUE[c]
    trumps = popcount(hand & _TRUMPS)
    if trumps >= 3:
        for s in range(1, 5):
            k = popcount(hand & _SUIT_MASKS[s])
            if k == 0:
                total += void_bonus
            elif k == 1:
                total += 0.5 * void_bonus
    # A guarded Queen (with its King or 3+ cards) plays like a second winner.
    for s in range(1, 5):
        suit = hand & _SUIT_MASKS[s]
        if suit & _QUEENS and (suit & _KINGS or popcount(suit) >= 3):
            total += 0.4
    return total / (_VALUE_MEAN * _HAND_SIZE[n])


@njit(cache=True)
def bid_call(obs, params):
    """Solo, Tapp or Pass from the hand strength against thresholds scaled by player count."""
    return _bid_call(obs, _bid_values(params))


@njit(cache=True, inline="always")
def _bid_values(params):
    """The bidding thresholds of a parameter row, as scalars in :func:`_bid_call`'s order."""
    return (
        params[P_TAPP_BASE],
        params[P_TAPP_PER_PLAYER],
        params[P_PARTNER_DISCOUNT],
        params[P_SOLO_BASE],
        params[P_SOLO_PER_PLAYER],
        params[P_VOID_BONUS],
    )


# The rules proper take the thresholds as scalars (the bidding ones as one tuple of
# them): passing the ``params`` array down the calls costs a reference-count update
# per call.


@njit(cache=True, inline="always")
def _bid_call(obs, bid):
    tapp_base, tapp_per_player, partner_discount, solo_base, solo_per_player, void_bonus = bid
    n = obs.n_players
    ratio = hand_strength(obs.hand, n, void_bonus)
    tapp_at = tapp_base + tapp_per_player * (n - 3)
    if n >= 7:
        tapp_at -= partner_discount
    solo_at = solo_base + solo_per_player * (n - 3)
    calls = obs.legal_calls
    if ratio >= solo_at and (calls >> np.uint64(SOLO_CALL - CALL_BASE)) & _U1:
        return SOLO_CALL
    if ratio >= tapp_at and (calls >> np.uint64(TAPP_CALL - CALL_BASE)) & _U1:
        return TAPP_CALL
    return PASS


# ---------------------------------------------------------------- Tapp and call


@njit(cache=True, inline="always")
def discard_choice(obs):
    """Next discard: shortest plain suit first (voids), its highest-point card banked."""
    hand = obs.hand
    legal = obs.legal_cards
    # Per plain suit the best non-King card: most points banked, a Queen under
    # its King last (a second winner); the suit with the fewest cards first.
    best, best_key = NO_CARD, 1 << 30
    for s in range(1, 5):
        mine = legal & _SUIT_MASKS[s] & ~_KINGS
        if not mine:
            continue
        suit = hand & _SUIT_MASKS[s]
        guarded = (suit & _KINGS) != 0
        if mine & _QUEENS and not guarded:
            c, key = lowest_bit(mine & _QUEENS), -4
        elif mine & _KNIGHTS:
            c, key = lowest_bit(mine & _KNIGHTS), -3
        elif mine & _JACKS:
            c, key = lowest_bit(mine & _JACKS), -2
        elif mine & _PIPS:
            c, key = lowest_bit(mine & _PIPS), -1
        else:
            c, key = lowest_bit(mine), 21  # the Queen under its King
        key += 10 * popcount(suit)
        if key < best_key:
            best, best_key = c, key
    if best >= 0:
        return best
    if legal & _KINGS:
        return lowest_bit(legal & _KINGS)
    if legal:
        return lowest_bit(legal)
    return NO_CARD


@njit(cache=True, inline="always")
def partner_call(obs):
    """7-8 players: the highest trump II-XX the Tappist does not hold or discard."""
    free = obs.legal_cards & _MID_TRUMPS & ~(obs.hand | obs.discards)
    if free:
        return highest_bit(free)
    return NO_PARTNER


# ------------------------------------------------------------------------- play


@njit(cache=True)
def fool_hold_back(obs, params):
    """Fool as only trump, trump required: 1 play it, 0 hold it back, -1 not this case.

    The Fool is played to win a trick of the other side worth at least
    ``fool_trick_min`` points; held back otherwise (always in Misère).
    """
    return _fool_hold_back(obs, params[P_FOOL_TRICK_MIN])


@njit(cache=True, inline="always")
def _fool_hold_back(obs, fool_trick_min):
    legal = obs.legal_cards
    if obs.trick_n == 0 or not (legal & _FOOL_BIT) or legal == _FOOL_BIT:
        return -1
    if (obs.hand & _TRUMPS) != _FOOL_BIT:
        return -1
    led = _SUIT_OF[obs.trick_cards[0]]
    if led != 0 and obs.hand & _SUIT_MASKS[led]:
        return -1
    if obs.contract == MISERE:
        return 0
    w, _, pts = _trick_state(obs)
    wseat = obs.leader + w
    if wseat >= obs.n_players:
        wseat -= obs.n_players
    if is_ally(obs, wseat):
        return 0
    return 1 if pts >= fool_trick_min else 0


@njit(cache=True)
def lead_card(obs, params):
    """Lead: draw trumps when strong, cash boss cards, else lead low from a long suit."""
    return _lead_card(obs, params[P_DRAW_SHARE])


@njit(cache=True, inline="always")
def _lead_card(obs, draw_share):
    legal = obs.legal_cards
    unseen = unseen_cards(obs)
    n = obs.n_players
    declaring = on_declarer_side(obs)
    mine_t = legal & _TRUMPS & ~_I_BIT
    out_t = unseen & _TRUMPS
    # Draw trumps (declarer side): from the top when holding the boss, else low.
    if declaring and mine_t and out_t:
        if popcount(legal & _TRUMPS) >= draw_share * popcount(out_t):
            top = highest_bit(mine_t)
            if top > highest_bit(out_t):
                return top
            low = mine_t & ~_FOOL_BIT & ~_XXI_BIT
            if low:
                return lowest_bit(low)
    # Cash a boss plain card while the suit is still out and no opponent is void.
    opp_voids = 0
    for p in range(n):
        if not is_ally(obs, p):
            opp_voids |= obs.voids[p]
    best, best_key = NO_CARD, -1
    for s in range(1, 5):
        suit = legal & _SUIT_MASKS[s]
        if not suit or (opp_voids >> s) & 1:
            continue
        top = highest_bit(suit)
        out = unseen & _SUIT_MASKS[s]
        if out and top > highest_bit(out):
            k = popcount(out)
            if k >= n - 1:
                key = _POINTS[top] * 10 + k
                if key > best_key:
                    best, best_key = top, key
    if best >= 0:
        return best
    # Otherwise lead low from the longest plain suit (defenders: where the declarer follows).
    dvoids = obs.voids[obs.declarer] if not declaring and obs.declarer >= 0 else 0
    best, best_key = NO_CARD, -(1 << 30)
    for s in range(1, 5):
        suit = legal & _SUIT_MASKS[s]
        if not suit:
            continue
        c = lowest_bit(suit)
        key = 10 * popcount(suit) - 3 * _POINTS[c]
        if (dvoids >> s) & 1:
            key -= 50
        if key > best_key:
            best, best_key = c, key
    if best >= 0:
        return best
    plain_free = legal & ~_FOOL_BIT & ~_I_BIT & ~_XXI_BIT
    if plain_free:
        return lowest_bit(plain_free)
    return highest_bit(legal)


@njit(cache=True, inline="always")
def _smear(cards):
    """The card to smear: the most points that will not be wasted.

    Order: I, Kings, Queens, Knights, XXI, Fool, Jacks, the lowest pip, else
    the lowest trump.
    """
    if cards & _I_BIT:
        return TRUMP_I
    for cls in (_KINGS, _QUEENS, _KNIGHTS, _XXI_BIT, _FOOL_BIT, _JACKS):
        x = cards & cls
        if x:
            return lowest_bit(x)
    pips = cards & _PIPS
    if pips:
        return _lowest_rank(pips)
    return lowest_bit(cards)


@njit(cache=True)
def follow_card(obs, params):
    """Follow: smear on a safe own-side trick, win cheaply, else discard cheaply."""
    return _follow_card(obs, params[P_FOOL_TRICK_MIN], params[P_WIN_MIN_POINTS])


@njit(cache=True, inline="always")
def _follow_card(obs, fool_trick_min, win_min_points):
    legal = obs.legal_cards
    n = obs.n_players
    unseen = unseen_cards(obs)
    remaining = n - 1 - obs.trick_n
    w, wcard, pts = _trick_state(obs)
    wseat = obs.leader + w
    if wseat >= n:
        wseat -= n
    winners = beating(legal, wcard)
    if is_ally(obs, wseat):
        if is_sure(wcard, obs, unseen, remaining):
            # Smear: the most points that will not be wasted (keep Fool and XXI as winners).
            smear = legal & ~_FOOL_BIT & ~_XXI_BIT
            if not smear:
                smear = legal
            return _smear(smear)
        sure = first_sure(winners & ~_FOOL_BIT, obs, unseen, remaining)
        if sure >= 0:
            return sure
        return cheapest(legal & ~_FOOL_BIT) if legal & ~_FOOL_BIT else lowest_bit(legal)
    if winners:
        if remaining == 0:
            cand = winners & ~_FOOL_BIT
            if cand:
                return lowest_winner(cand)
            if pts >= fool_trick_min or legal == _FOOL_BIT:
                return FOOL
        else:
            c = first_sure(winners & ~_FOOL_BIT & ~_I_BIT, obs, unseen, remaining)
            if c >= 0:
                return c
            if winners & _FOOL_BIT and pts >= fool_trick_min:
                return FOOL
            if pts >= win_min_points:
                cand = winners & ~_FOOL_BIT & ~_I_BIT
                if cand:
                    return highest_bit(cand)
    rest = legal & ~_FOOL_BIT
    if rest:
        return cheapest(rest)
    return lowest_bit(legal)


@njit(cache=True, inline="always")
def misere_lead(obs):
    """Misère lead: the low card that the most unseen cards of its suit outrank."""
    legal = obs.legal_cards
    unseen = unseen_cards(obs)
    cand = legal & ~_FOOL_BIT
    if not cand:
        return lowest_bit(legal)
    best, best_key = NO_CARD, -1e18
    for s in range(5):
        suit = cand & _SUIT_MASKS[s]
        if not suit:
            continue
        c = lowest_bit(suit)
        above = popcount(unseen & _SUIT_MASKS[s] & ~((_b(c) << _U1) - _U1))
        key = 10.0 * above - _POINTS[c]
        if key > best_key:
            best, best_key = c, key
    return best


@njit(cache=True, inline="always")
def misere_follow(obs):
    """Misère follow: duck with the highest-point non-winning card; forced, win low-point."""
    legal = obs.legal_cards
    cand = legal & ~_FOOL_BIT
    if not cand:
        return lowest_bit(legal)
    wcard = _trick_state(obs)[1]
    winners = beating(cand, wcard)
    ducks = cand & ~winners
    if ducks:
        best, best_key = NO_CARD, -1e18
        bits = ducks
        while bits:
            c = lowest_bit(bits)
            bits &= bits - _U1
            key = _POINTS[c] * 100.0 + _rank(c)
            if key > best_key:
                best, best_key = c, key
        return best
    remaining = obs.n_players - 1 - obs.trick_n
    if remaining == 0:
        # The trick is ours: add the fewest points, shedding the highest such card.
        best, best_key = NO_CARD, -1e18
        bits = cand
        while bits:
            c = lowest_bit(bits)
            bits &= bits - _U1
            key = -_POINTS[c] * 100.0 + _rank(c)
            if key > best_key:
                best, best_key = c, key
        return best
    return cheapest(cand)


@njit(cache=True)
def play_card(obs, params):
    """Card play in any contract."""
    return _play_card(obs, params[P_FOOL_TRICK_MIN], params[P_WIN_MIN_POINTS], params[P_DRAW_SHARE])


@njit(cache=True, inline="always")
def _play_card(obs, fool_trick_min, win_min_points, draw_share):
    legal = obs.legal_cards
    if popcount(legal) == 1:
        return lowest_bit(legal)
    fool = _fool_hold_back(obs, fool_trick_min)
    if fool == 1:
        return FOOL
    if obs.contract == MISERE:
        if obs.trick_n == 0:
            return misere_lead(obs)
        return misere_follow(obs)
    if fool == 0:
        return cheapest(legal & ~_FOOL_BIT)
    if obs.trick_n == 0:
        return _lead_card(obs, draw_share)
    return _follow_card(obs, fool_trick_min, win_min_points)


@njit(cache=True, inline="always")
def _is_legal(obs, action):
    if 0 <= action < CALL_BASE:
        return (obs.legal_cards >> np.uint64(action)) & _U1 != 0
    if CALL_BASE <= action < CALL_BASE + 64:
        return (obs.legal_calls >> np.uint64(action - CALL_BASE)) & _U1 != 0
    return False


@njit(cache=True, inline="always")
def rule_action(obs, params, rng):
    """The rule agent's action from the seat's observation record ``obs``.

    Dispatches on the phase to the named rules; an illegal or missing
    choice falls back to the lowest legal action. Inlined into its caller
    and handing only scalars on, so that no array crosses a call (each such
    crossing costs reference-count updates); ``rng`` is unused.
    """
    return _rule_action(
        obs,
        _bid_values(params),
        params[P_FOOL_TRICK_MIN],
        params[P_WIN_MIN_POINTS],
        params[P_DRAW_SHARE],
    )


@njit(cache=True)
def _rule_action(obs, bid, fool_trick_min, win_min_points, draw_share):
    # ``bid``: the bidding thresholds (:func:`_bid_values`), a tuple of scalars.
    phase = obs.phase
    legal = obs.legal_cards
    if phase == AUCTION:
        action = _bid_call(obs, bid)
    elif phase == DISCARD:
        action = discard_choice(obs)
    elif phase == CALL:
        action = partner_call(obs)
    elif legal & (legal - _U1) == 0:  # a single legal card (or none)
        action = lowest_bit(legal)
    else:
        action = _play_card(obs, fool_trick_min, win_min_points, draw_share)
    if _is_legal(obs, action):
        return action
    if legal:
        return lowest_bit(legal)
    return CALL_BASE + lowest_bit(obs.legal_calls)
