"""The random agent from Python: a uniformly random legal action, in every phase of every game.

The compiled loops' random agent is :func:`trickgym.engine.loops.random_action`.
"""

from __future__ import annotations

import numpy as np

from trickgym.rng import seed_rng

__all__ = ["RandomAgent"]


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
