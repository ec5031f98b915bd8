"""Native vector env for Phat (``trickgym/Phat-v0`` through ``make_vec``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.games.phat import rules

from ..phat import PhatEnv
from .base import TrickVectorEnv
from .hooks import deal_payoff
from .pcg64 import draw_seed

__all__ = ["PhatVectorEnv"]

EPISODE_DEAL, EPISODE_GAME = 0, 1


@njit(cache=True)
def new_episode(states, i, gen, seed_given, live, opts):
    """As ``PhatEnv._new_episode``: the live match's next deal, or a new match.

    ``opts`` is ``[target, games_in_match, episode]``.
    """
    if opts[2] == EPISODE_DEAL and live and not seed_given:
        deal_over, match_over, _ = rules.status_at(states, i)
        if deal_over and not match_over:
            rules.next_deal_at(states, i)
            return
    rules.init_match(states[i], draw_seed(gen), opts[0], opts[1], -1)


@njit(cache=True)
def episode_over(states, i, opts):
    """A deal ends a ``"deal"`` episode; a won game ends a ``"game"`` one."""
    return opts[2] == EPISODE_DEAL or states[i].game_over


@njit(cache=True)
def episode_reward(states, i, seat, opts):
    """The deal's payoff, or +1/-1 for the seat's team winning/losing the game."""
    if opts[2] == EPISODE_DEAL:
        return deal_payoff(states, i, seat, opts)
    return 1.0 if states[i].winner == seat % 2 else -1.0


class PhatVectorEnv(TrickVectorEnv):
    """Phat as a native vector env: :class:`trickgym.envs.phat.PhatEnv` x N.

    ``gymnasium.make_vec("trickgym/Phat-v0", num_envs=N,
    vectorization_mode="vector_entry_point", episode="deal")``; with
    ``episode="deal"`` each sub-env's match goes on across its episodes, as
    in the single env. See :class:`TrickVectorEnv` for autoreset and seeding.
    """

    single_env_cls = PhatEnv

    def __init__(self, num_envs: int = 1, seat: int = 0, opponents="random", **kwargs):
        self.episode = kwargs.get("episode", "deal")
        super().__init__(num_envs, seat=seat, opponents=opponents, **kwargs)

    def option_row(self, game) -> np.ndarray:
        """``[target, games_in_match, episode]`` (0 ``"deal"``, 1 ``"game"``)."""
        o = game.options
        episode = EPISODE_GAME if self.episode == "game" else EPISODE_DEAL
        return np.array([o.target, o.games_in_match, episode], dtype=np.int64)
