"""Stochastic rule-agent playouts over the game protocol: the Monte Carlo searches' default
leaf value, and the oracle's above its solve line.

The rule agents never draw from their generator, so a playout of one deal
would be the same every time and ``rollouts > 1`` would repeat it. In a
playout each decision of the card play is instead, with probability
``PLAYOUT_DEVIATION``, a legal card drawn uniformly (the rule's own choice
included): many playouts of one deal then differ, and their mean values an
action by how it fares over plausible lines of play rather than by the one
line the rules pick. The auction, discards, exchanges and partner calls stay
the rule agent's: a random bid or discard changes the contract, not the play.
Every draw comes from the playout's ``rng``, so the same generator state
gives the same playout.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym import protocol
from trickgym.cards.bits import popcount, select_kth
from trickgym.engine.loops import rule_act
from trickgym.rng import below
from trickgym.solvers.points_payoff import deal_payoff

__all__ = [
    "PLAYOUT_DEVIATION",
    "no_call_legal",
    "play_out",
    "playout_act",
    "playout_mean",
    "rule_leaf",
    "rule_play_out",
]

# Chance, per card decision of a playout, of a uniformly drawn legal card instead of the
# rule agent's, as a fraction of 2**16: 1/8, so that a playout of a 10-card hand keeps
# most of the rule agents' line and still differs from the next one in a card or two.
PLAYOUT_DEVIATION = 8192
_ONE = 65536
# Odd multiplier of the playout index in each playout's generator start (playout_mean).
STRIDE = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def no_call_legal(state):
    """Whether no call is legal: the card play of a game that does not bind
    ``protocol.in_card_play`` (the hook's default)."""
    return protocol.legal_sets(state)[1] == 0


@njit(cache=True)
def playout_act(state, seat, rng, obs_scratch, params):
    """``seat``'s action in a playout: the rule agent's, or now and then another legal card."""
    action = rule_act(state, seat, rng, obs_scratch, params)
    if not protocol.in_card_play(state):
        return action
    low = protocol.legal_sets(state)[0]
    n = popcount(low)
    if n > 1 and below(rng, _ONE) < PLAYOUT_DEVIATION:
        return select_kth(low, below(rng, n))
    return action


@njit(cache=True)
def play_out(state, rng, obs_scratch, params):
    """Rule agents, with random deviations in the card play, play ``state`` to the deal's end."""
    while not protocol.deal_over(state):
        p = state.to_move
        protocol.apply_action(state, playout_act(state, p, rng, obs_scratch, params))


@njit(cache=True)
def rule_play_out(state, rng, obs_scratch, params):
    """The rule agents, without deviations, play ``state`` to the deal's end (the advisor's
    ``play="rule"``: what the simulator's rule seats would play)."""
    while not protocol.deal_over(state):
        p = state.to_move
        protocol.apply_action(state, rule_act(state, p, rng, obs_scratch, params))


@njit(cache=True)
def rule_leaf(state, rng, obs_scratch, params, table, dd_cards):
    """The ``leaf`` hook of a game that values search leaves by rule-agent playouts."""
    play_out(state, rng, obs_scratch, params)


@njit(cache=True)
def playout_mean(state, action, seat, rng, obs_scratch, params, n, trial):
    """``seat``'s mean payoff over ``n`` playouts of ``state`` after ``action``.

    Playout ``k`` draws from ``rng[0] + (k + 1) * STRIDE`` (``rng`` is left
    as it is), so every action of one decision is played out on the same
    draws: actions are compared on the same deviations, not on the luck of
    their own. ``trial`` is a one-record state scratch array.
    """
    sub = np.empty(1, dtype=np.uint64)
    total = 0.0
    for k in range(n):
        sub[0] = rng[0] + np.uint64(k + 1) * STRIDE
        trial[0] = state
        protocol.apply_action(trial[0], action)
        play_out(trial[0], sub, obs_scratch, params)
        total += deal_payoff(trial[0], seat)
    return total / n
