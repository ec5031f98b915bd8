"""Phat's hooks for the point-trick solver (registered by ``trickgym.bindings.phat``).

The value is the **phat** the pitcher's team takes (80 in a deal). Left
out of the search, as the issue allows: the muck bonus (decided after the
last trick by a threshold on another count) and the race to 181 (a game
that ends mid-deal): a prepared copy plays every deal to its end.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards.bits import popcount
from ..games.phat.constants import PHAT_PLAIN, PHAT_TRUMP
from ..games.phat.rules import SUIT_MASKS, SUIT_OF, phat_value
from ..tricks.whist import whist_beats
from .points_common import masters, point_hooks, position_key, relative_key, whist_winner

__all__ = ["POINT_HOOKS", "TOTAL_PHAT"]

TOTAL_PHAT = 80
_NO_TARGET = 1 << 30


def _point_classes():
    # Row t: the cards of each nonzero phat value when suit t is trumps (one mask a value).
    values = sorted(set(PHAT_TRUMP) | set(PHAT_PLAIN) - {0})
    out = np.zeros((4, len(values)), dtype=np.uint64)
    for t in range(4):
        for c in range(len(PHAT_TRUMP)):
            v = PHAT_TRUMP[c] if SUIT_OF[c] == t else PHAT_PLAIN[c]
            if v:
                out[t, values.index(v)] |= np.uint64(1 << c)
    return out


_CLASSES = _point_classes()
_VALUES = np.array(sorted(set(PHAT_TRUMP) | set(PHAT_PLAIN) - {0}), dtype=np.int64)


@njit(cache=True)
def _in_side(st, seat):
    return seat % 2 == st.pitcher % 2


@njit(cache=True)
def _side_points(st):
    return np.int64(st.phat[st.pitcher % 2])


@njit(cache=True)
def _bounds(st):
    left = np.int64(TOTAL_PHAT - st.phat[0] - st.phat[1])
    if st.trumps < 0 or st.trick_n > 0:  # masters at trick boundaries only: cheap nodes
        return np.int64(0), left
    # Master trumps: their phat is their side's whatever is played.
    s = st.pitcher % 2
    side = st.hands[s] | st.hands[s + 2]
    other = st.hands[1 - s] | st.hands[3 - s]
    mine, theirs = masters(side | _played(st, s), other | _played(st, 1 - s), st.trump_mask, 0)
    return _phat_of(mine & side, st.trumps), left - _phat_of(theirs & other, st.trumps)


@njit(cache=True, inline="always")
def _played(st, team):
    # The trick's cards of one team: they contest the trick the hands' cards may join.
    out = np.uint64(0)
    for i in range(st.trick_n):
        if (st.leader + i) % 2 == team:
            out |= np.uint64(1) << np.uint64(st.trick_cards[i])
    return out


@njit(cache=True, inline="always")
def _phat_of(cards, trumps):
    total = np.int64(0)
    for i in range(_VALUES.shape[0]):
        total += _VALUES[i] * popcount(cards & _CLASSES[trumps, i])
    return total


@njit(cache=True)
def _key(st):
    info = st.leader | (st.trumps + 1) << 4 | (st.pitcher % 2) << 8 | 1 << 12
    if st.trumps < 0:  # before the pitch a card's points are not known yet
        return position_key(st.hands, 4, info)
    return relative_key(st.hands, 4, info, SUIT_MASKS, _CLASSES[st.trumps], np.uint64(0), False)


@njit(cache=True)
def _points(st, card):
    # Before the pitch a card is valued as the trump it would make.
    return phat_value(card, st.trumps if st.trumps >= 0 else SUIT_OF[card])


@njit(cache=True)
def _suit(st, card):
    return SUIT_MASKS[SUIT_OF[card]]


@njit(cache=True)
def _wins_now(st, card):
    return st.trick_n == 0 or whist_beats(card, st.trick_cards[st.win_pos], SUIT_OF, st.trump_mask)


@njit(cache=True)
def _beaters(st, card):
    # Cards that would beat ``card`` (-1: the trick's winning card) played after it.
    if card < 0:
        card = st.trick_cards[st.win_pos]
    above = SUIT_MASKS[SUIT_OF[card]] & ~((np.uint64(2) << np.uint64(card)) - np.uint64(1))
    if (st.trump_mask >> np.uint64(card)) & np.uint64(1):
        return above
    return above | st.trump_mask


@njit(cache=True)
def _prepare(st):
    st.target = _NO_TARGET


#: The point-trick solver's hooks of the game protocol (see :mod:`trickgym.protocol`).
POINT_HOOKS = point_hooks(
    _in_side,
    _side_points,
    _bounds,
    _key,
    _points,
    _suit,
    _wins_now,
    _prepare,
    _beaters,
    winner=whist_winner,
)
