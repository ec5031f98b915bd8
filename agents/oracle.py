"""The oracle of the point-trick games (Phat, Pinochle, Troggu), written once.

It cheats: it sees every hand (the Tapp, kitty and widow included). An
upper bound for measurement only, never a fair player.

- **Cards at the solve line** (``protocol.oracle_solves``: from
  ``ORACLE_SOLVE_CARDS`` cards in hand down): the card the point-trick
  solver values best on the true deal
  (:func:`trickgym.agents.solved_points.solved_card`).
- **Everything else** (cards above the line, bids, discards, Tapp
  exchanges, partner calls): each legal action is applied to the true
  deal and valued by ``ORACLE_ROLLOUTS`` stochastic playouts
  (:func:`rollout_value`): the rule agents settle the rest of the auction
  and exchange as they would and play the cards with random deviations
  (:mod:`trickgym.engine.playout`), and a playout that reaches the
  rollouts' solve line (``ORACLE_ROLLOUT_CARDS``, lower: a decision
  solves once, its rollouts many times) is solved from there. The action
  paying the oracle's seat most on average is played; every action is
  played out on the same draws.

Full-deal solves are the design: once the solver is fast enough, raising
both lines to the hand size makes each candidate's value the solved value
of the deal from the first lead, and the oracle's cards full-deal solves.
A solve past the node budget (``NODE_LIMIT``) falls back to the
playouts, averaged over ``ORACLE_ROLLOUTS``. This module is imported
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
from trickgym.engine.playout import STRIDE, playout_act, playout_mean
from trickgym.solvers.points_payoff import deal_payoff

from .solved_points import (
    MAX_PAY,
    hand_size,
    no_table,
    oracle_table,
    rollout_cards,
    solved_card,
    solved_payoff,
)

__all__ = [
    "N_COUNTS",
    "ORACLE_ROLLOUTS",
    "oracle_counts",
    "points_no_table",
    "points_oracle",
    "points_table",
    "rollout_oracle",
    "rollout_value",
    "solved_rollout_oracle",
    "solved_value",
]

# Stochastic playouts per candidate action (trickgym.engine.playout), each solved exactly once
# it reaches the solve line. One used to be enough (the rule agents' playouts were all the
# same); 8 keep a 300-deal tournament against rule within tens of minutes.
ORACLE_ROLLOUTS = 8


# The oracle's counters, per deal (the third array of its table; see oracle_counts):
COUNT_SOLVES = 0  # card decisions at the solve line
COUNT_SOLVES_PAST = 1  # ... whose solve ran past the node budget (valued by rollouts)
COUNT_ROLLOUTS = 2  # stochastic rollouts played
COUNT_ROLLOUT_SOLVES = 3  # rollouts that reached the solve line and were solved there
COUNT_ROLLOUT_PAST = 4  # solves in rollouts past the node budget (the rollout played on)
N_COUNTS = 5


@njit(cache=True)
def solved_value(root, seat, table):
    """``seat``'s payoff of ``root[0]`` with best play by every hand (the payoff's question:
    :func:`~trickgym.agents.solved_points.solved_payoff`); nan past the node budget."""
    return solved_payoff(root, seat, table)


@njit(cache=True)
def rollout_value(trial, seat, rng, obs, params, table):
    """``seat``'s payoff of one stochastic playout of ``trial[0]``, solved from the solve line.

    Rule agents settle the auction and exchanges and play the cards with
    random deviations (:func:`trickgym.engine.playout.playout_act`) until
    the position is one the oracle solves (``protocol.oracle_solves``) with
    at most ``ORACLE_ROLLOUT_CARDS`` in the hand to move; that position is
    then valued by the solver, or played on past its node budget.
    ``table`` is the oracle's ``(entries, meta, counts)``.
    """
    solver = (table[0], table[1])
    counts = table[2]
    counts[COUNT_ROLLOUTS] += 1
    while not protocol.deal_over(trial[0]):
        if protocol.oracle_solves(trial[0]) and hand_size(trial[0]) <= rollout_cards(trial[0]):
            v = solved_value(trial, seat, solver)
            if not np.isnan(v):
                counts[COUNT_ROLLOUT_SOLVES] += 1
                return v
            counts[COUNT_ROLLOUT_PAST] += 1
        p = trial[0].to_move
        protocol.apply_action(trial[0], playout_act(trial[0], p, rng, obs, params))
    return deal_payoff(trial[0], seat)


@njit(cache=True)
def _legal_actions(state, out):
    """The legal action ids of ``state`` into ``out``; returns their number."""
    low, high = protocol.legal_sets(state)
    base = protocol.call_base(state)
    n = 0
    for word in range(2):
        bits = low if word == 0 else high
        for a in range(64):
            if (bits >> np.uint64(a)) & np.uint64(1):
                out[n] = a + word * base
                n += 1
    return n


@njit(cache=True)
def rollout_oracle(state, seat, rng, obs, params):
    """The legal action whose ``ORACLE_ROLLOUTS`` stochastic playouts of the true state pay
    ``seat`` most, ties to the lowest id: the oracle of a game without a solver."""
    actions = np.empty(128, dtype=np.int64)
    trial = protocol.new_states(state)
    best, best_value = -1, -1e300
    for i in range(_legal_actions(state, actions)):
        v = playout_mean(state, actions[i], seat, rng, obs, params, ORACLE_ROLLOUTS, trial)
        if v > best_value:
            best, best_value = actions[i], v
    rng[0] += np.uint64(ORACLE_ROLLOUTS + 1) * STRIDE  # the next decision draws anew
    return best


@njit(cache=True)
def solved_rollout_oracle(state, seat, rng, obs, params, table):
    """:func:`rollout_oracle` with each rollout solved from the solve line on
    (:func:`rollout_value`); ``table`` is the oracle's ``(entries, meta, counts)``."""
    actions = np.empty(128, dtype=np.int64)
    trial = protocol.new_states(state)
    sub = np.empty(1, dtype=np.uint64)
    best, best_value = -1, -1e300
    for i in range(_legal_actions(state, actions)):
        total = 0.0
        for k in range(ORACLE_ROLLOUTS):
            sub[0] = rng[0] + np.uint64(k + 1) * STRIDE  # the same draws for every action
            trial[0] = state
            protocol.apply_action(trial[0], actions[i])
            total += rollout_value(trial, seat, sub, obs, params, table)
        if total > best_value:
            best, best_value = actions[i], total
    rng[0] += np.uint64(ORACLE_ROLLOUTS + 1) * STRIDE
    return best


@njit(cache=True)
def points_oracle(state, seat, rng, obs, params, table):
    """The oracle's action for ``seat`` (the ``oracle_action`` hook of the point-trick games);
    ``table`` is ``(entries, meta, counts)`` (:func:`points_table`)."""
    if protocol.oracle_solves(state):
        root = protocol.new_states(state)
        root[0] = state
        table[2][COUNT_SOLVES] += 1
        card = solved_card(root, seat, (table[0], table[1]), np.empty(MAX_PAY, dtype=np.float64))
        if card >= 0:
            return card
        table[2][COUNT_SOLVES_PAST] += 1
    return solved_rollout_oracle(state, seat, rng, obs, params, table)


@njit(cache=True)
def points_no_table(state):
    """A placeholder table: the loops make the real one at the deal's first oracle decision."""
    entries, meta = no_table()
    return entries, meta, np.zeros(N_COUNTS, dtype=np.int64)


@njit(cache=True)
def points_table(state, table):
    """``table``, or a fresh one (the counters kept) at the deal's first oracle decision."""
    if table[0].size <= 6:
        # One table per deal, from its first oracle decision (whose rollouts solve too):
        # later positions hit earlier searches.
        entries, meta = oracle_table()
        return entries, meta, table[2]
    return table


@njit(cache=True)
def oracle_counts(state, seat, rng, obs, params, counts):
    """The oracle's action for ``seat`` on a fresh table, its counters added to ``counts``
    (``N_COUNTS`` int64: solves and rollouts, and how many ran past the node budget)."""
    table = points_table(state, points_no_table(state))
    action = points_oracle(state, seat, rng, obs, params, table)
    counts += table[2]
    return action
