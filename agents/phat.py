"""Built-in Phat agents, dispatched by kind inside compiled loops."""

from __future__ import annotations

from numba import njit

from trickgym.games.phat.constants import CALL_BASE, DEAL_OVER
from trickgym.games.phat.rules import apply_action, legal_sets

from .random import random_action

__all__ = ["act_phat", "play_builtin_until"]


@njit(cache=True)
def act_phat(kind, state, seat, rng):
    """Action of built-in agent ``kind`` for ``seat`` (to move) in ``state``.

    The random agent reads only the legal cards, part of the seat's observation.
    """
    cards, calls = legal_sets(state)
    return random_action(cards, calls, CALL_BASE, rng)


@njit(cache=True)
def play_builtin_until(states, i, kinds, agent_rngs):
    """Let built-in agents play ``states[i]`` until a seat with ``kinds[seat] < 0`` must act.

    Returns that seat, or -1 once the deal is over (see the Solo Whist twin).
    """
    state = states[i]
    while state.phase != DEAL_OVER:
        p = state.to_move
        if kinds[p] < 0:
            return p
        apply_action(state, act_phat(kinds[p], state, p, agent_rngs[p]))
    return -1
