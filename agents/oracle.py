"""The oracle of the point-trick games (Phat, Pinochle, Troggu), written once.

It sees every hand: an upper bound for measurement only, never a fair
player. Near the end of the deal (``protocol.oracle_solves``) it plays the
card the point-trick solver values best on the true deal
(:func:`trickgym.agents.solved_points.solved_card`); elsewhere, and when a
solve runs out of its node budget, the legal action whose rule-agent
playout from the true state pays its seat most. This module is imported
only when a loop with an oracle seat is compiled.

A simulation keeps one solver table per deal (later positions hit earlier
searches), so a decision whose solve would run out of the node budget on a
fresh table can be settled in a run by what the deal's earlier solves left
there: asked alone (``act``, a fresh table) it may then differ. Runs stay
reproducible (the deal's decisions come in the same order every time).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym import protocol

from .loops import rule_act
from .solved_points import no_table, oracle_table, solved_card

__all__ = ["points_no_table", "points_oracle", "points_table", "rollout_oracle"]

# Rule-agent playouts per candidate action: one, since the rule agents never draw from
# their generator (8 played the same playout 8 times: same decisions, 8x the time).
ORACLE_ROLLOUTS = 1


@njit(cache=True)
def rollout_oracle(state, seat, rng, obs, params):
    """The legal action whose rule-agent playouts from the true state pay ``seat`` most."""
    low, high = protocol.legal_sets(state)
    base = protocol.call_base(state)
    best, best_value = -1, -1e300
    trial = protocol.new_states(state)
    for word in range(2):
        bits = low if word == 0 else high
        while bits:
            b = np.uint64(bits & (~bits + np.uint64(1)))
            bits &= ~b
            action = word * base
            while b > np.uint64(1):
                b >>= np.uint64(1)
                action += 1
            total = 0.0
            for _ in range(ORACLE_ROLLOUTS):
                trial[0] = state
                protocol.apply_action(trial[0], action)
                while not protocol.deal_over(trial[0]):
                    p = trial[0].to_move
                    protocol.apply_action(trial[0], rule_act(trial[0], p, rng, obs, params))
                total += trial[0].payoffs[seat]
            if total > best_value:
                best, best_value = action, total
    return best


@njit(cache=True)
def points_oracle(state, seat, rng, obs, params, table):
    """The oracle's action for ``seat`` (the ``oracle_action`` hook of the point-trick games)."""
    if protocol.oracle_solves(state):
        root = protocol.new_states(state)
        root[0] = state
        card = solved_card(root, seat, table, np.empty(64, dtype=np.float64))
        if card >= 0:
            return card
    return rollout_oracle(state, seat, rng, obs, params)


@njit(cache=True)
def points_no_table(state):
    """A placeholder table: the loops make the real one at the deal's first solve."""
    return no_table()


@njit(cache=True)
def points_table(state, table):
    """``table``, or a fresh one when this decision is the deal's first solve."""
    if table[0].size <= 6 and protocol.oracle_solves(state):
        return oracle_table()  # one table per deal: later positions hit earlier searches
    return table
