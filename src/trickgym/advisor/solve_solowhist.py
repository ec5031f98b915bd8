"""Solo Whist's contracts solved double dummy for the hand advisor (``play="dd"``).

Registered for the protocol's ``advise_solver`` and ``advise_solve`` by
name (``"module:kernel"``): imported only when a kernel solving deals is
first compiled, so rule and PIMC advice never load the solver.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games.solowhist.constants import ABUNDANCE_DECLARED, GOAL, MISERE, MISERE_OUVERTE, SOLO
from ..games.solowhist.rules import deal_payoffs
from ..solvers.dd_search import META_ABORTED, META_NODE_LIMIT, dd_reaches, dd_tricks, make_table
from .codes import EXACT, EXACT_NODES, LOG2_BUCKETS, NODE_LIMIT, PROBED, UNSOLVED

__all__ = ["dd_outcome", "new_solver", "solve"]

_GOAL = np.array(GOAL, dtype=np.int64)


@njit(cache=True)
def new_solver(obs, limits):
    """One thread's workspace: a solver table of ``2**limits[LOG2_BUCKETS]`` buckets, payoffs."""
    return make_table(limits[LOG2_BUCKETS], limits[NODE_LIMIT]), np.zeros(4, dtype=np.int32)


@njit(cache=True)
def dd_outcome(t, table, node_limit, exact_nodes):
    """``(status, tricks)`` of the contract of state ``t`` (first lead) by double-dummy play.

    Misère and Misère Ouverte: one probe "held to no trick" (tricks 0 or 1,
    i.e. "a trick"); Abundance Declared: one probe at 13 (13 or 12). The
    others: the exact count within ``exact_nodes`` search nodes (0: not
    tried), else one probe at the goal, scored as the goal made exactly or
    missed by one (status ``PROBED``). ``node_limit`` bounds each probe
    (0: none); a probe past it gives ``UNSOLVED``.
    """
    hands = np.empty(4, dtype=np.uint64)
    trick = np.full(4, -1, dtype=np.int64)
    for s in range(4):
        hands[s] = t.hands[s]
    meta = table[1]
    c = t.contract
    args = (hands, trick, 0, t.leader, t.trumps, t.declarers)
    # Exact counts from the first lead only for Solo: an Abundance's (goal 9) costs about
    # ten times as much, and a Prop & Cop's (two against two) rarely fits a small budget.
    if c == SOLO and exact_nodes > 0:
        meta[META_NODE_LIMIT] = exact_nodes
        v = dd_tricks(*args, False, table)
        if meta[META_ABORTED] == 0:
            return EXACT, v
    meta[META_NODE_LIMIT] = node_limit
    if c == MISERE or c == MISERE_OUVERTE:
        r = dd_reaches(*args, True, 1, table)
        tricks = 1 if r else 0
    elif c == ABUNDANCE_DECLARED:
        r = dd_reaches(*args, False, 13, table)
        tricks = 13 if r else 12
    else:
        r = dd_reaches(*args, False, _GOAL[c], table)
        tricks = _GOAL[c] if r else _GOAL[c] - 1
    if meta[META_ABORTED] != 0:
        return UNSOLVED, -1
    if (c == MISERE or c == MISERE_OUVERTE) and tricks == 0:
        return EXACT, 0
    if c == ABUNDANCE_DECLARED and tricks == 13:
        return EXACT, 13
    return PROBED, tricks


@njit(cache=True)
def solve(t, seat, solver, limits, rng, obs_scratch, params):
    """``(status, tricks, made, payoff)`` of the settled deal ``t`` solved from the first lead.

    ``solver`` is :func:`new_solver`'s workspace; the payoff is ``seat``'s,
    by the rules' ``deal_payoffs``. ``rng``, ``obs_scratch`` and ``params``
    (the rule agents', for follow-ups) are not needed: ``settle`` leaves the
    deal at its first lead.
    """
    table, pay = solver
    st, k = dd_outcome(t, table, limits[NODE_LIMIT], limits[EXACT_NODES])
    if st == UNSOLVED:
        return UNSOLVED, -1, False, 0
    ok = deal_payoffs(t.contract, t.declarers, k, t.unit, pay)
    return st, k, ok, pay[seat]
