"""Meld counting (rules §6): points and the cards shown, for one hand and trump.

A card may serve in one meld of each class (A: run, marriages, dix; B:
arounds; C: pinochle) but never twice within a class.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .constants import (
    ACE,
    DIX,
    DOUBLE_PINOCHLE,
    DOUBLE_RUN,
    JACK,
    KING,
    MARRIAGE,
    NINE,
    PINOCHLE,
    QUEEN,
    ROYAL_MARRIAGE,
    RUN,
    TEN,
)

__all__ = ["HAND_MELD_MAX", "meld"]

# The most meld one hand holds, by its size when the hands meld (kitty 11, exchange 12
# cards): a double run with both jacks of diamonds (trumps spades) or both queens of
# spades (trumps diamonds), 1800 with 12 cards, and 1540 with 11. Found by trying every
# hand of the cards meld reads (experiments/pinochle_meld_max.py).
HAND_MELD_MAX = {11: 1540, 12: 1800}

_SPADES, _DIAMONDS = 0, 2
_AROUND_SINGLE = np.array([0, 40, 60, 80, 0, 100], dtype=np.int64)  # by rank
_AROUND_DOUBLE = np.array([0, 400, 600, 800, 0, 1000], dtype=np.int64)
_PINOCHLE_POINTS = np.array([0, PINOCHLE, DOUBLE_PINOCHLE], dtype=np.int64)


@njit(cache=True, inline="always")
def _count(hand, suit, rank):
    """Copies (0, 1 or 2) of one card kind in ``hand``."""
    pair = (np.uint64(hand) >> np.uint64(12 * suit + 2 * rank)) & np.uint64(3)
    return np.int64((pair & np.uint64(1)) + (pair >> np.uint64(1)))


@njit(cache=True)
def meld(hand, trumps):
    """``(points, shown)``: the meld of ``hand`` with ``trumps`` (suit 0..3).

    ``shown`` is the set of cards laid down: for each kind, as many copies
    as the meld that uses it most needs.
    """
    need = np.zeros((4, 6), dtype=np.int64)  # copies of each kind shown
    t = trumps
    run = _count(hand, t, ACE)
    for r in (TEN, KING, QUEEN, JACK):
        run = min(run, _count(hand, t, r))
    points = DOUBLE_RUN if run == 2 else RUN * run
    for r in (ACE, TEN, KING, QUEEN, JACK):
        need[t, r] = run
    royal = min(_count(hand, t, KING) - run, _count(hand, t, QUEEN) - run)
    points += ROYAL_MARRIAGE * royal
    need[t, KING] = run + royal
    need[t, QUEEN] = run + royal
    for s in range(4):
        if s != t:
            married = min(_count(hand, s, KING), _count(hand, s, QUEEN))
            points += MARRIAGE * married
            need[s, KING] = married
            need[s, QUEEN] = married
    nines = _count(hand, t, NINE)
    points += DIX * nines
    need[t, NINE] = nines
    for r in (ACE, KING, QUEEN, JACK):  # class B: a card may also serve here
        around = _count(hand, 0, r)
        for s in range(1, 4):
            around = min(around, _count(hand, s, r))
        if around == 2:
            points += _AROUND_DOUBLE[r]
        elif around == 1:
            points += _AROUND_SINGLE[r]
        for s in range(4):
            need[s, r] = max(need[s, r], around)
    pinochles = min(_count(hand, _SPADES, QUEEN), _count(hand, _DIAMONDS, JACK))
    points += _PINOCHLE_POINTS[pinochles]
    need[_SPADES, QUEEN] = max(need[_SPADES, QUEEN], pinochles)
    need[_DIAMONDS, JACK] = max(need[_DIAMONDS, JACK], pinochles)
    shown = np.uint64(0)
    for s in range(4):
        for r in range(6):
            held = np.uint64(hand) & (np.uint64(3) << np.uint64(12 * s + 2 * r))
            for _ in range(need[s, r]):
                low = held & (~held + np.uint64(1))
                shown |= low
                held &= ~low
    return points, shown
