"""Pinochle's hooks for the point-trick solver (named by ``trickgym.games.pinochle.description``).

The value is the declaring team's **counters**: 10 for every A, 10 and K
in its tricks, 10 for the last trick, and in kitty mode the counters the
declarer buried (rules §8); meld is not card play and is left out. The
two identical copies of a card are one move wherever that is exact: both
in one hand, or with nothing between them and a neighbour that another
seat holds (see ``p_span``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards.bits import bit, popcount
from ..games.pinochle.constants import HAND_OVER, LAST_TRICK_POINTS
from ..games.pinochle.rules import SUIT_MASKS, SUIT_OF, counter_points
from ..tricks.pinochle import pinochle_beats
from .points_common import masters, point_hooks, quick_tricks, relative_key, span, whist_winner

__all__ = ["POINT_HOOKS", "TOTAL_COUNTERS"]

TOTAL_COUNTERS = 250  # 24 counters and the last trick (PN-D17)
_COUNTERS = np.array([sum(1 << c for c in range(48) if counter_points(np.uint64(1 << c)))],
                     dtype=np.uint64)  # fmt: skip
_TEN = np.array([10], dtype=np.int64)


@njit(cache=True)
def _in_side(st, seat):
    return seat % 2 == st.declarer % 2


@njit(cache=True)
def _side_points(st):
    dc = st.declarer % 2
    pts = counter_points(st.won[dc]) + counter_points(st.discards)
    if st.phase == HAND_OVER and st.leader % 2 == dc:  # the last trick's winner leads no more
        pts += LAST_TRICK_POINTS
    return np.int64(pts)


@njit(cache=True)
def _bounds(st):
    taken = counter_points(st.won[0] | st.won[1] | st.discards)
    last = 0 if st.phase == HAND_OVER else LAST_TRICK_POINTS
    left = np.int64(TOTAL_COUNTERS - LAST_TRICK_POINTS - taken + last)
    # Master trumps: their counters are their side's whatever is played.
    s = st.declarer % 2
    side = st.hands[s] | st.hands[s + 2]
    other = st.hands[1 - s] | st.hands[3 - s]
    mine, theirs = masters(side | _played(st, s), other | _played(st, 1 - s), st.trump_mask, 1)
    mine &= side
    theirs &= other
    sure = 10 * popcount(mine & _COUNTERS[0])
    lost = 10 * popcount(theirs & _COUNTERS[0])
    p = st.to_move
    if st.trick_n == 0:
        # Quick tricks: the leader's side cashes its top cards (its masters counted once); all
        # the tricks left bring the last trick's 10 too.
        leads = p % 2 == s
        gain, k = quick_tricks(st.hands, 4, p, np.uint64(0), (SUIT_MASKS, _COUNTERS, _TEN, True),
                               st.trumps, mine if leads else theirs, np.uint64(0))  # fmt: skip
        if k > 0 and k == popcount(st.hands[p]):
            gain += LAST_TRICK_POINTS
    else:
        # The trick in progress, when no seat still to play can beat its winning card for the
        # other side: its counters, and a counter from each seat still to play holding
        # nothing else (that side's masters, counted already, worth 0).
        w = (st.leader + st.win_pos) % 4
        leads = w % 2 == s
        beat = _beaters(st, -1)
        gain = 0
        fixed = True  # no seat at all can beat the winning card
        for i in range(st.trick_n, 4):
            h = st.hands[(st.leader + i) % 4]
            if h & beat:
                if (st.leader + i) % 2 != w % 2:
                    return np.int64(sure), left - lost
                fixed = False
            if not (h & ~(_COUNTERS[0] & ~(mine if leads else theirs))):
                gain += 10
        for i in range(st.trick_n):
            if _COUNTERS[0] & bit(st.trick_cards[i]):
                gain += 10
        if popcount(st.hands[p]) == 1:
            gain += LAST_TRICK_POINTS
        elif fixed:
            # The winning card's seat leads next and cashes its quick tricks. The seats
            # still to play hold a card more (the trick's) and, if they follow, one more of
            # the led suit: looser, never wrong.
            played = 0
            for i in range(st.trick_n):
                played |= 1 << ((st.leader + i) % 4)
            more, k = quick_tricks(st.hands, 4, w, np.uint64(0),
                                   (SUIT_MASKS, _COUNTERS, _TEN, True), st.trumps,
                                   mine if leads else theirs, np.uint64(0),
                                   SUIT_OF[st.trick_cards[0]], played)  # fmt: skip
            if k > 0 and k == popcount(st.hands[w]):
                more += LAST_TRICK_POINTS
            gain += more
    if leads:
        sure += gain
    else:
        lost += gain
    return np.int64(sure), left - lost


@njit(cache=True, inline="always")
def _played(st, team):
    # The trick's cards of one team: they contest the trick the hands' cards may join.
    out = np.uint64(0)
    for i in range(st.trick_n):
        if (st.leader + i) % 2 == team:
            out |= bit(st.trick_cards[i])
    return out


@njit(cache=True)
def _key(st):
    info = st.leader | (st.trumps + 1) << 4 | (st.declarer % 2) << 8 | np.int64(st.must_head) << 9
    return relative_key(st.hands, 4, info | 2 << 12, SUIT_MASKS, _COUNTERS, np.uint64(0), True)


@njit(cache=True)
def _points(st, card):
    return counter_points(bit(card))


@njit(cache=True)
def _suit(st, card):
    return SUIT_MASKS[SUIT_OF[card]]


@njit(cache=True)
def _wins_now(st, card):
    return st.trick_n == 0 or pinochle_beats(
        card, st.trick_cards[st.win_pos], SUIT_OF, st.trump_mask
    )


@njit(cache=True)
def _beaters(st, card):
    # Cards that would beat ``card`` (-1: the trick's winning card) played after it: higher
    # kinds of its suit (an identical copy does not), and trumps if it is none.
    if card < 0:
        card = st.trick_cards[st.win_pos]
    top = np.uint64(card | 1)
    above = SUIT_MASKS[SUIT_OF[card]] & ~(((np.uint64(1) << top) << np.uint64(1)) - np.uint64(1))
    if (st.trump_mask >> np.uint64(card)) & np.uint64(1):
        return above
    return above | st.trump_mask


@njit(cache=True)
def _unit(st):
    return 10


@njit(cache=True)
def _span(st, low_card, high_card):
    # Both copies of each end's kind: a copy held elsewhere ranks equal (the earlier wins).
    return span(low_card & ~1, high_card | 1)


#: The point-trick solver's hooks of the game protocol (see :mod:`trickgym.protocol`).
POINT_HOOKS = point_hooks(
    _in_side,
    _side_points,
    _bounds,
    _key,
    _points,
    _suit,
    _wins_now,
    _unit,
    _span,
    _beaters,
    winner=whist_winner,
)
