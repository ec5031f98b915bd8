"""Pinochle's oracle: which decisions it solves (the rest is :mod:`.oracle`, written once)."""

from __future__ import annotations

from numba import njit

from trickgym.games.pinochle.constants import PLAY

from .solved_points import ORACLE_ROLLOUT_CARDS, ORACLE_SOLVE_CARDS, hand_size, solve_cards

__all__ = ["oracle_solves", "rollout_cards"]

# Cards in hand from which the oracle solves the card play exactly.
ORACLE_CARDS = solve_cards(ORACLE_SOLVE_CARDS, "pinochle", 4)
# ...and from which its rollouts solve the rest of the deal.
ROLLOUT_CARDS = solve_cards(ORACLE_ROLLOUT_CARDS, "pinochle", 4)


@njit(cache=True)
def oracle_solves(state):
    """Whether the oracle solves this decision."""
    return state.phase == PLAY and hand_size(state) <= ORACLE_CARDS


@njit(cache=True)
def rollout_cards(state):
    """The oracle's rollout solve line (cards in the hand to move)."""
    return ROLLOUT_CARDS
