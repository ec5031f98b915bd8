"""Native vector env for Pinochle (``trickgym/Pinochle-v0`` through ``make_vec``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.games.pinochle import rules

from ..pinochle import PinochleEnv
from .base import TrickVectorEnv
from .pcg64 import draw_seed

__all__ = ["PinochleVectorEnv"]


@njit(cache=True)
def new_episode(states, i, gen, seed_given, live, opts):
    """A new match's first hand, as ``TrickEnv._new_episode`` (``opts``: see ``option_row``)."""
    rules.init_match(
        states[i],
        draw_seed(gen),
        opts[0],
        opts[1],
        opts[2],
        opts[3],
        opts[4] != 0,
        opts[5] != 0,
        opts[6] != 0,
        opts[7],
        -1,
    )


class PinochleVectorEnv(TrickVectorEnv):
    """Pinochle as a native vector env: :class:`trickgym.envs.pinochle.PinochleEnv` x N.

    ``gymnasium.make_vec("trickgym/Pinochle-v0", num_envs=N,
    vectorization_mode="vector_entry_point", mode="kitty")``; see
    :class:`TrickVectorEnv` for autoreset and seeding.
    """

    single_env_cls = PinochleEnv

    def option_row(self, game) -> np.ndarray:
        """``[mode, pass_count, min_bid, max_bid, redeal, must_head, twenty, target]``."""
        return np.array([*game.rule_args(), game.options.target], dtype=np.int64)
