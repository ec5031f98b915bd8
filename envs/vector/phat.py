"""Native vector env for Phat (``trickgym/Phat-v0`` through ``make_vec``)."""

from __future__ import annotations

from numba import njit

from trickgym.engine.episode_hooks import MATCH_GOES_ON, deal_payoff
from trickgym.games.phat import rules

from ..phat import PhatEnv
from .base import TrickVectorEnv

__all__ = ["PhatVectorEnv"]


@njit(cache=True)
def start_match(state, seed, opts):
    """A new match (``opts``: ``[match goes on, target, games_in_match]``)."""
    rules.init_match(state, seed, opts[1], opts[2], -1)


# opts[0] (the match goes on across episodes) is episode="deal": every deal is an episode.


@njit(cache=True)
def episode_over(states, i, opts):
    """A deal ends a ``"deal"`` episode; a won game ends a ``"game"`` one."""
    return opts[0] == MATCH_GOES_ON or states[i].game_over


@njit(cache=True)
def episode_reward(states, i, seat, opts):
    """The deal's payoff, or +1/-1 for the seat's team winning/losing the game."""
    if opts[0] == MATCH_GOES_ON:
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

    def option_row(self, game) -> list[int]:
        """``[target, games_in_match]``."""
        o = game.options
        return [o.target, o.games_in_match]
