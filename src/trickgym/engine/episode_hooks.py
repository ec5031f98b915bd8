"""The vector env's episode hooks shared by the games, and its option row's first entry.

A game's episode hooks (``start_match``, ``episode_over``,
``episode_reward``: see :mod:`trickgym.protocol`) tell the vector env how
an episode starts and when it ends; its bindings module registers them.
They read the env's option row ``opts``: ``opts[0]`` says whether a match
goes on across episodes (the generic new episode, in
:mod:`trickgym.envs.vector.kernels`, reads it), the game's options follow from ``opts[1]``
(each game's ``option_row``).
"""

from __future__ import annotations

from numba import njit

__all__ = ["MATCH_GOES_ON", "NEW_MATCH", "deal_episode_over", "deal_payoff"]

# opts[0]: every episode starts a new match, or (Phat's deal episodes) the match goes on
# with its next deal unless it is over or a seed was given.
NEW_MATCH, MATCH_GOES_ON = 0, 1


@njit(cache=True)
def deal_episode_over(states, i, opts):
    """Episode hook: every deal is an episode."""
    return True


@njit(cache=True)
def deal_payoff(states, i, seat, opts):
    """Episode hook: the seat's payoff for the deal."""
    return float(states[i].payoffs[seat])
