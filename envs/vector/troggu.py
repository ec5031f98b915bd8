"""Native vector env for Troggu (``trickgym/Troggu-v0`` through ``make_vec``)."""

from __future__ import annotations

from numba import njit

from trickgym.games.troggu import rules

from ..troggu import TrogguEnv
from .base import TrickVectorEnv

__all__ = ["TrogguVectorEnv"]


@njit(cache=True)
def start_match(state, seed, opts):
    """A new one-deal match of ``opts[1]`` players, as ``TrickEnv._new_episode``."""
    rules.init_match(state, seed, opts[1], 1, -1)


class TrogguVectorEnv(TrickVectorEnv):
    """Troggu as a native vector env: :class:`trickgym.envs.troggu.TrogguEnv` x N.

    ``gymnasium.make_vec("trickgym/Troggu-v0", num_envs=N,
    vectorization_mode="vector_entry_point", players=5)``; see
    :class:`TrickVectorEnv` for autoreset and seeding.
    """

    single_env_cls = TrogguEnv

    def option_row(self, game) -> list[int]:
        """``[players]``."""
        return [game.n_seats]
