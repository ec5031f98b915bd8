"""Built-in Pinochle agents, dispatched by kind inside compiled loops."""

from __future__ import annotations

from numba import njit

from trickgym.games.pinochle.constants import CALL_BASE, HAND_OVER
from trickgym.games.pinochle.rules import apply_action, legal_sets

from .random import random_action

__all__ = ["act_pinochle", "play_builtin_until"]


@njit(cache=True)
def act_pinochle(kind, state, seat, rng):
    """Action of built-in agent ``kind`` for ``seat`` (to move) in ``state``.

    The random agent reads only the legal sets, part of the seat's observation.
    """
    low, high = legal_sets(state)
    return random_action(low, high, CALL_BASE, rng)


@njit(cache=True)
def play_builtin_until(states, i, kinds, agent_rngs):
    """Let built-in agents play ``states[i]`` until a seat with ``kinds[seat] < 0`` must act.

    Returns that seat, or -1 once the hand is over (see the Solo Whist twin).
    """
    state = states[i]
    while state.phase != HAND_OVER:
        p = state.to_move
        if kinds[p] < 0:
            return p
        apply_action(state, act_pinochle(kinds[p], state, p, agent_rngs[p]))
    return -1
