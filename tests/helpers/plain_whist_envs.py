"""Plain whist's Gymnasium envs: the package's generic env classes told the game.

The description names them (``GameDescription.envs``), so
``gymnasium.make("plainwhist/PlainWhist-v0")`` and ``make_vec`` find them
once the game is registered; every step runs the package's env code.
"""

from __future__ import annotations

from trickgym.envs.base import TrickEnv
from trickgym.envs.vector.base import TrickVectorEnv

from .plain_whist import OBS_SHAPES

__all__ = ["PlainWhistEnv", "PlainWhistVectorEnv"]


class PlainWhistEnv(TrickEnv):
    """Plain whist, one deal per episode, from one seat."""

    game_name = "plainwhist"
    obs_shapes = OBS_SHAPES


class PlainWhistVectorEnv(TrickVectorEnv):
    """Plain whist as a native vector env: :class:`PlainWhistEnv` x N."""

    single_env_cls = PlainWhistEnv

    def option_row(self, game) -> list[int]:
        """No options: the episode's match has one deal."""
        return []
