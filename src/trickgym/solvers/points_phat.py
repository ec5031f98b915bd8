"""Phat's hooks for the point-trick solver (registered by ``trickgym.bindings.phat``).

The value is the **phat** the pitcher's team takes (80 in a deal). Left
out of the search, as the issue allows: the muck bonus (decided after the
last trick by a threshold on another count) and the race to 181 (a game
that ends mid-deal): a prepared copy plays every deal to its end.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games.phat.rules import SUIT_MASKS, SUIT_OF, phat_value
from ..tricks.whist import whist_beats
from .points_common import DEFAULT_HOOKS, KEY_SEED_1, KEY_SEED_2, hash_word

__all__ = ["POINT_HOOKS", "TOTAL_PHAT"]

TOTAL_PHAT = 80
_NO_TARGET = 1 << 30


@njit(cache=True)
def _in_side(st, seat):
    return seat % 2 == st.pitcher % 2


@njit(cache=True)
def _side_points(st):
    return np.int64(st.phat[st.pitcher % 2])


@njit(cache=True)
def _bounds(st):
    return np.int64(0), np.int64(TOTAL_PHAT - st.phat[0] - st.phat[1])


@njit(cache=True)
def _key(st):
    k1, k2 = KEY_SEED_1, KEY_SEED_2
    for s in range(4):
        k1, k2 = hash_word(k1, k2, st.hands[s])
    k1, k2 = hash_word(k1, k2, st.leader | (st.trumps + 1) << 4 | (st.pitcher % 2) << 8 | 1 << 12)
    return k1, k2


@njit(cache=True)
def _points(st, card):
    # Before the pitch a card is valued as the trump it would make.
    return phat_value(card, st.trumps if st.trumps >= 0 else SUIT_OF[card])


@njit(cache=True)
def _suit(st, card):
    return SUIT_MASKS[SUIT_OF[card]]


@njit(cache=True)
def _wins_now(st, card):
    if st.trick_n == 0:
        return True
    return whist_beats(card, st.trick_cards[st.win_pos], SUIT_OF, st.trump_mask)


@njit(cache=True)
def _winner(st):
    return -1 if st.trick_n == 0 else (st.leader + st.win_pos) % 4


@njit(cache=True)
def _prepare(st):
    st.target = _NO_TARGET


#: The point-trick solver's hooks of the game protocol (see :mod:`trickgym.protocol`).
POINT_HOOKS = {
    **DEFAULT_HOOKS,
    "in_side": _in_side,
    "side_points": _side_points,
    "bounds": _bounds,
    "key": _key,
    "points": _points,
    "suit": _suit,
    "wins_now": _wins_now,
    "winner": _winner,
    "prepare": _prepare,
}
