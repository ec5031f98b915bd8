"""Episode hooks shared by games whose episode is one deal, rewarded by its payoff.

A game's episode hooks (``new_episode``, ``episode_over``,
``episode_reward``: see :mod:`trickgym.protocol`) tell the vector env when
an episode starts and ends; its bindings module registers them.
"""

from __future__ import annotations

from numba import njit

__all__ = ["deal_episode_over", "deal_payoff"]


@njit(cache=True)
def deal_episode_over(states, i, opts):
    """Episode hook: every deal is an episode."""
    return True


@njit(cache=True)
def deal_payoff(states, i, seat, opts):
    """Episode hook: the seat's payoff for the deal."""
    return float(states[i].payoffs[seat])
