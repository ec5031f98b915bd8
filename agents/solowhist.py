"""Built-in Solo Whist agents, dispatched by kind inside compiled loops."""

from __future__ import annotations

from numba import njit

from trickgym.games.solowhist.constants import CALL_BASE
from trickgym.games.solowhist.rules import legal_sets

from .random import random_action

__all__ = ["act_solowhist"]


@njit(cache=True)
def act_solowhist(kind, state, seat, rng):
    """Action of built-in agent ``kind`` for ``seat`` (to move) in ``state``.

    ``rng`` is the agent's ``uint64[1]`` generator. The random agent reads
    only the legal sets, which are part of the seat's observation.
    """
    cards, calls = legal_sets(state)
    return random_action(cards, calls, CALL_BASE, rng)
