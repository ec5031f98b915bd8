"""Troggu's oracle: which decisions it solves (the rest is :mod:`.oracle`, written once)."""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.games.troggu.constants import MISERE, PLAY

from .solved_points import ORACLE_ROLLOUT_CARDS, ORACLE_SOLVE_CARDS, hand_size, solve_cards

__all__ = ["oracle_solves", "rollout_cards", "side_play"]

# Cards in hand from which the oracle solves the card play exactly, per table size.
_ORACLE_CARDS = np.array([solve_cards(ORACLE_SOLVE_CARDS, "troggu", n) for n in range(9)])
# ...and from which its rollouts solve the rest of the deal.
_ROLLOUT_CARDS = np.array([solve_cards(ORACLE_ROLLOUT_CARDS, "troggu", n) for n in range(9)])


@njit(cache=True)
def oracle_solves(state):
    """Whether the oracle solves this decision (Misère has no side to solve for)."""
    if state.phase != PLAY or state.contract == MISERE:
        return False
    return hand_size(state) <= _ORACLE_CARDS[state.n_players]


@njit(cache=True)
def rollout_cards(state):
    """The oracle's rollout solve line (cards in the hand to move) at this table size."""
    return _ROLLOUT_CARDS[state.n_players]


@njit(cache=True)
def side_play(state):
    """Whether the deal is in its card play with a declaring side (Misère has none)."""
    return state.phase == PLAY and state.contract != MISERE
