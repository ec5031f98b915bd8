"""The batch entry points of every game's rules, written once over the game protocol.

numba dispatches an array argument about ten times faster than a record, so
the Python API and the envs call the rules with ``(states, index)``. Each
entry point is compiled per game, for its state dtype, and reaches the
game's kernels through :mod:`trickgym.protocol`.
"""

from __future__ import annotations

from numba import njit

from trickgym import protocol

__all__ = [
    "apply_action_at",
    "is_legal_at",
    "legal_sets_at",
    "next_deal_at",
    "observe_at",
    "status_at",
]


@njit(cache=True)
def legal_sets_at(states, i):
    """``legal_sets`` of ``states[i]``."""
    return protocol.legal_sets(states[i])


@njit(cache=True)
def is_legal_at(states, i, action):
    """``is_legal`` of ``states[i]``."""
    return protocol.is_legal(states[i], action)


@njit(cache=True)
def apply_action_at(states, i, action):
    """``apply_action`` on ``states[i]``."""
    protocol.apply_action(states[i], action)


@njit(cache=True)
def observe_at(states, i, seat, observations, j):
    """``observe`` of ``states[i]`` for ``seat`` into ``observations[j]``."""
    protocol.observe(states[i], seat, observations[j])


@njit(cache=True)
def status_at(states, i):
    """``(deal_over, match_over, to_move)`` of ``states[i]``."""
    state = states[i]
    return protocol.deal_over(state), protocol.match_over(state), state.to_move


@njit(cache=True)
def next_deal_at(states, i):
    """``next_deal`` on ``states[i]``."""
    protocol.next_deal(states[i])
