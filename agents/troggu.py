"""Troggu's oracle: which decisions it solves (the rest is :mod:`.oracle`, written once)."""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.games.troggu.constants import MISERE, PLAY

from .solved_points import ORACLE_SOLVE_CARDS, hand_size, solve_cards

__all__ = ["oracle_solves"]

# Cards in hand from which the oracle solves the card play exactly, per table size.
_ORACLE_CARDS = np.array([solve_cards(ORACLE_SOLVE_CARDS, "troggu", n) for n in range(9)])


@njit(cache=True)
def oracle_solves(state):
    """Whether the oracle solves this decision (Misère has no side to solve for)."""
    if state.phase != PLAY or state.contract == MISERE:
        return False
    return hand_size(state) <= _ORACLE_CARDS[state.n_players]
