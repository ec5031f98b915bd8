"""Solo Whist's oracle: it sees the whole state and plays and bids by the double-dummy solver.

An upper bound for measurement, never a fair player. Imported only when a
loop with an oracle seat is compiled (the ``oracle_*`` hooks of
:mod:`trickgym.protocol`), so rule and random runs never load the solver.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.engine.playout import STRIDE, playout_mean
from trickgym.games.solowhist.constants import CALL_BASE, N_ACTIONS, PLAY
from trickgym.games.solowhist.rules import legal_sets
from trickgym.games.solowhist.state import STATE_DTYPE
from trickgym.solvers.dd_search import make_table

from .solved_solowhist import EXACT_CARDS, auction_values, card_payoffs
from .solved_solowhist import act_rule as _act_rule

__all__ = ["oracle_action", "oracle_move", "oracle_no_table", "oracle_table"]

# The oracle's table: 2**12 buckets (12 MB), made per deal by the simulation loop
# (per decision by act_solowhist, whose callers have no table to lend); smaller
# tables made full-deal solves several times slower.
ORACLE_TABLE_LOG2 = 12
# Node budget per solver call (a few seconds at worst): rare positions the solver
# cannot settle within it are played by the rule agent instead.
ORACLE_NODE_LIMIT = 5_000_000
# The oracle's cards are valued by exact trick counts from this many cards in hand
# down (one solve per decision, not per sample as in PIMC); calls by probes.
ORACLE_EXACT_CARDS = 10
# Stochastic playouts (trickgym.engine.playout) per action the solver leaves unvalued.
ORACLE_ROLLOUTS = 8


@njit(cache=True)
def oracle_action(state, seat, rng, obs, params):
    """The legal action worth most to ``seat`` by the double-dummy solver on the true deal.

    Sees every hand: an upper bound for measurement only, never a fair player.
    Cards: the solver's value of each legal card to ``seat``'s payoff
    (:func:`trickgym.agents.solved_solowhist.card_payoffs`: best play by all
    four hands afterwards; exact trick counts from ``ORACLE_EXACT_CARDS``
    cards in hand down). Calls and the Abundance trump choice: the
    payoff of the contract each leads to once the rule agents finish the
    auction, solved from the first lead
    (:func:`trickgym.agents.solved_solowhist.auction_values`; a passed-out deal
    pays 0). Ties go to the rule agent's action, and so does the decision
    when the solver runs out of its node budget (for any legal call, in the
    auction). Makes a table per call;
    the simulation loop keeps one per deal (:func:`oracle_move`), so a decision
    whose solve reaches the node budget may differ there from this one
    (see :mod:`trickgym.agents.oracle`).
    """
    return oracle_move(
        state, seat, rng, obs, params, make_table(ORACLE_TABLE_LOG2, ORACLE_NODE_LIMIT)
    )


@njit(cache=True)
def oracle_move(state, seat, rng, obs, params, table):
    """:func:`oracle_action` with a solver ``table`` kept by the caller."""
    rule = _act_rule(state, seat, rng, obs, params)
    values = np.full(N_ACTIONS, -1e9)
    unsolved = 0
    if state.phase == PLAY:
        # Exact counts (over- and under-tricks) where a solve is affordable for
        # one decision; probes at the goal when the exact count runs out of nodes.
        if card_payoffs(state, seat, table, ORACLE_EXACT_CARDS, values) == 0:
            if card_payoffs(state, seat, table, 0, values) == 0:
                unsolved = 1
    else:
        unsolved = auction_values(state, seat, rng, obs, params, table, EXACT_CARDS, values)
    if unsolved > 0:
        # A call left unsolved may be the best one (the best solved call was often a
        # sure-loser Misère when Pass, Prop and Solo ran out of nodes): value it too.
        _playout_unsolved(state, seat, rng, obs, params, values)
    best = rule
    for a in range(N_ACTIONS):
        if values[a] > values[best]:
            best = a
    return best


@njit(cache=True)
def _playout_unsolved(state, seat, rng, obs, params, values):
    """Each legal action left unvalued in ``values`` valued by its mean over
    ``ORACLE_ROLLOUTS`` stochastic playouts of the true deal."""
    low, high = legal_sets(state)
    trial = np.empty(1, dtype=STATE_DTYPE)
    for a in range(N_ACTIONS):
        bits, i = (low, a) if a < CALL_BASE else (high, a - CALL_BASE)
        if i < 64 and (bits >> np.uint64(i)) & np.uint64(1) and values[a] < -1e8:
            values[a] = playout_mean(state, a, seat, rng, obs, params, ORACLE_ROLLOUTS, trial)
    rng[0] += np.uint64(ORACLE_ROLLOUTS + 1) * STRIDE  # the next decision draws anew


@njit(cache=True)
def oracle_no_table(state):
    """A placeholder table: the loops make the real one at the oracle's first decision."""
    return (np.zeros(0, dtype=np.uint64), np.zeros(8, dtype=np.int64))


@njit(cache=True)
def oracle_table(state, table):
    """``table``, or a fresh one at the deal's first oracle decision."""
    if table[0].size == 0:  # one table per deal: later positions hit earlier searches
        return make_table(ORACLE_TABLE_LOG2, ORACLE_NODE_LIMIT)
    return table
