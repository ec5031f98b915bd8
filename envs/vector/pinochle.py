"""Native vector env for Pinochle (``trickgym/Pinochle-v0`` through ``make_vec``)."""

from __future__ import annotations

from numba import njit

from trickgym.games.pinochle import rules

from ..pinochle import PinochleEnv
from .base import TrickVectorEnv

__all__ = ["PinochleVectorEnv"]


@njit(cache=True)
def start_match(state, seed, opts):
    """A new match's first hand, as ``TrickEnv._new_episode`` (``opts``: see ``option_row``)."""
    rule_args = (opts[1], opts[2], opts[3], opts[4], opts[5] != 0, opts[6] != 0, opts[7] != 0)
    rules.init_match(state, seed, rule_args, opts[8], -1)


class PinochleVectorEnv(TrickVectorEnv):
    """Pinochle as a native vector env: :class:`trickgym.envs.pinochle.PinochleEnv` x N.

    ``gymnasium.make_vec("trickgym/Pinochle-v0", num_envs=N,
    vectorization_mode="vector_entry_point", mode="kitty")``; see
    :class:`TrickVectorEnv` for autoreset and seeding.
    """

    single_env_cls = PinochleEnv

    def option_row(self, game) -> list[int]:
        """``[mode, pass_count, min_bid, max_bid, redeal, must_head, twenty, target]``."""
        return [*game.rule_args(), game.options.target]
