"""Native vector env for Solo Whist (``trickgym/SoloWhist-v0`` through ``make_vec``)."""

from __future__ import annotations

from numba import njit

from trickgym.games.solowhist import rules

from ..solowhist import SoloWhistEnv
from .base import TrickVectorEnv

__all__ = ["SoloWhistVectorEnv"]


@njit(cache=True)
def start_match(state, seed, opts):
    """A new one-deal match, as ``TrickEnv._new_episode`` (``opts``: see ``option_row``)."""
    rules.init_match(state, seed, opts[1], 1, opts[2] != 0, opts[3] != 0, -1)


class SoloWhistVectorEnv(TrickVectorEnv):
    """Solo Whist as a native vector env: :class:`trickgym.envs.solowhist.SoloWhistEnv` x N.

    ``gymnasium.make_vec("trickgym/SoloWhist-v0", num_envs=N,
    vectorization_mode="vector_entry_point", seat=0, opponents="rule")``.
    Observations, actions, rewards and episodes are the single env's (see
    its docstring), batched; see :class:`TrickVectorEnv` for autoreset and
    seeding.
    """

    single_env_cls = SoloWhistEnv

    def option_row(self, game) -> list[int]:
        """``[unit, always_shuffle, early_stop]``."""
        o = game.options
        return [o.unit, o.always_shuffle, o.early_stop]
