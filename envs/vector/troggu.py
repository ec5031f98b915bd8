"""Native vector env for Troggu (``trickgym/Troggu-v0`` through ``make_vec``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.games.troggu import rules

from ..troggu import TrogguEnv
from .base import TrickVectorEnv
from .pcg64 import draw_seed

__all__ = ["TrogguVectorEnv"]


@njit(cache=True)
def new_episode(states, i, gen, seed_given, live, opts):
    """A new one-deal match of ``opts[0]`` players, as ``TrickEnv._new_episode``."""
    rules.init_match(states[i], draw_seed(gen), opts[0], 1, -1)


class TrogguVectorEnv(TrickVectorEnv):
    """Troggu as a native vector env: :class:`trickgym.envs.troggu.TrogguEnv` x N.

    ``gymnasium.make_vec("trickgym/Troggu-v0", num_envs=N,
    vectorization_mode="vector_entry_point", players=5)``; see
    :class:`TrickVectorEnv` for autoreset and seeding.
    """

    single_env_cls = TrogguEnv

    def option_row(self, game) -> np.ndarray:
        """``[players]``."""
        return np.array([game.n_seats], dtype=np.int64)
