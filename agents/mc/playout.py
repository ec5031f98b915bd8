"""Rule-agent playouts over the game protocol: the Monte Carlo searches' default leaf value."""

from __future__ import annotations

from numba import njit
from trickgym.agents.loops import rule_act

from trickgym import protocol

__all__ = ["play_out", "rule_leaf"]


@njit(cache=True)
def play_out(state, rng, obs_scratch, params):
    """Rule agents play ``state`` to the end of the deal."""
    while not protocol.deal_over(state):
        p = state.to_move
        protocol.apply_action(state, rule_act(state, p, rng, obs_scratch, params))


@njit(cache=True)
def rule_leaf(state, rng, obs_scratch, params, table, dd_cards):
    """The ``leaf`` hook of a game that values search leaves by rule-agent playouts."""
    play_out(state, rng, obs_scratch, params)
