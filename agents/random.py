"""The random agent: a uniformly random legal action, in every phase of every game."""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.cards.bits import popcount, select_kth
from trickgym.rng import below, seed_rng

__all__ = ["RandomAgent", "random_action"]


@njit(cache=True)
def random_action(cards, calls, call_base, rng):
    """A uniformly random action among the legal ``cards`` and ``calls`` bit sets.

    ``cards`` has bit ``c`` for card action ``c``; ``calls`` has bit ``i`` for
    action ``call_base + i``; ``rng`` is the agent's ``uint64[1]`` generator.
    """
    n_cards = popcount(cards)
    k = below(rng, n_cards + popcount(calls))
    if k < n_cards:
        return select_kth(cards, k)
    return call_base + select_kth(calls, k - n_cards)


class RandomAgent:
    """Python-side random agent: ``act(observation, action_mask) -> int``.

    Draws from its own seeded generator, so a run is reproducible from ``seed``.
    """

    kind = 0

    def __init__(self, seed: int | None = None):
        self._rng = np.random.default_rng(seed_rng(seed))

    def act(self, observation, action_mask) -> int:
        """A uniformly random index among the true entries of ``action_mask``."""
        legal = np.flatnonzero(np.asarray(action_mask))
        if legal.size == 0:
            raise ValueError("action_mask has no legal action")
        return int(self._rng.choice(legal))
