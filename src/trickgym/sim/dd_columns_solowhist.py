"""Double-dummy columns of Solo Whist simulation rows (``simulate(..., dd=True)``).

Every declared row gets what the declaring side could have taken with
perfect play by all four hands in the contract it played, from the first
lead: the dealt hands (``hands``), the contract's trumps (``trumps``), the
declarer and, in Prop & Cop, the partner; eldest (the dealer's left) leads,
the declarer in Abundance Declared (rules SW-D9).

- ``dd_made`` (int8 here, a nullable boolean in the DataFrame): 1 when the
  contract is makeable double dummy (the declaring side reaches its goal
  against best defence; a misère declarer can be held to no trick), 0 when
  not.
- ``dd_tricks`` (int8): the declaring side's tricks with best play by all,
  the exact count (:func:`~trickgym.solvers.dd_search.dd_tricks`; in a
  misère the declarer plays for as few as possible, the defenders for many).
- ``-1`` in both: no contract (a passed-out deal), or the solver ran out of
  its node budget (``dd_max_nodes``, per solver call) for that answer.

How, at the least cost: the all-or-nothing contracts (Misère, Misère
Ouverte, Abundance Declared) are first asked the made-or-beaten question
(one null-window probe, :func:`~trickgym.solvers.dd_search.dd_reaches`); a
made one has ``dd_tricks`` 0 (13), a beaten one is counted exactly (the
count is often far dearer than the probe, so it is the one flagged). Other
contracts are counted exactly first, which settles ``dd_made``; only when
the count runs out of budget does a probe at the goal decide ``dd_made``
alone. A row takes at most two solver calls.

The columns are computed by a compiled parallel kernel over the rows
(:func:`dd_block`) after the rule kernels have played them, in the same
chunk, on any backend. Each row is solved on a table cleared for it
(:func:`~trickgym.solvers.dd_search.reset_table`), so its values, budget
flags included, depend on the row alone: not on threads, chunk size,
backend or the rows solved before it.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from trickgym.games.solowhist.constants import (
    ABUNDANCE_DECLARED,
    GOAL,
    MISERE,
    MISERE_OUVERTE,
    NO_CONTRACT,
)
from trickgym.solvers.dd_search import META_ABORTED, dd_reaches, dd_tricks, make_table, reset_table

from .solowhist import DD_ROW_DTYPE, ROW_DTYPE

__all__ = ["DD_DEFAULT_MAX_NODES", "DD_ROW_DTYPE", "add_dd", "dd_block", "dd_row"]


#: Node budget of each solver call of a row (about 70 ns a node): a row takes at
#: most two calls, so at most about half a second; the rare one-against-three
#: deals that take 5-40 s unbounded are flagged (-1) instead.
DD_DEFAULT_MAX_NODES = 4_000_000

# 1024 buckets of 64 entries of 48 bytes: 3 MB per work item (the Python solver's default
# table is 24 MB).
DD_TABLE_LOG2 = 10
# Rows per parallel work item, each with its own table: few enough that a slow
# row does not leave the other threads idle for long.
DD_WORK_ROWS = 16

_GOAL = np.array(GOAL, dtype=np.int64)


@njit(cache=True)
def dd_row(hands, contract, declarer, partner, trumps, dealer, table, trick):
    """``(dd_tricks, dd_made)`` of one deal, from its first lead (see the module docstring).

    Parameters
    ----------
    hands : uint64[4]
        The dealt hands of seats 0..3.
    contract, declarer, partner, trumps, dealer : int
        As in the simulation row (``partner`` -1 but in Prop & Cop,
        ``trumps`` -1 for none).
    table : tuple
        A solver table (:func:`~trickgym.solvers.dd_search.make_table`)
        whose ``meta`` holds the node budget; cleared here first.
    trick : int64[4]
        Scratch for the solver's (empty) current trick.

    Returns
    -------
    tuple of int
        ``(-1, -1)`` without a contract; ``-1`` for an answer past the budget
        (``dd_made`` is known whenever ``dd_tricks`` is).
    """
    if contract == NO_CONTRACT or declarer < 0:
        return -1, -1
    leader = np.int64(declarer if contract == ABUNDANCE_DECLARED else (dealer + 1) % 4)
    side = np.int64(1) << np.int64(declarer)
    if partner >= 0:
        side |= np.int64(1) << np.int64(partner)
    misere = contract == MISERE or contract == MISERE_OUVERTE
    strain = np.int64(trumps)
    n_trick = np.int64(0)
    goal = _GOAL[contract]
    reset_table(table)
    if not misere and contract != ABUNDANCE_DECLARED:
        # The exact count first: it settles dd_made too, in less time than a
        # probe and a count (the probe's entries save the count little).
        tricks = dd_tricks(hands, trick, n_trick, leader, strain, side, False, table)
        if tricks >= 0:
            return tricks, 1 if tricks >= goal else 0
        made = dd_reaches(hands, trick, n_trick, leader, strain, side, False, goal, table)
        if table[1][META_ABORTED]:
            return -1, -1
        return -1, 1 if made else 0
    # All or nothing (a misère is beaten when the defenders can force one trick
    # on the declarer): one probe, far cheaper than the count, and a made
    # contract's count is known (0, or all 13).
    target = np.int64(1) if misere else goal
    reached = dd_reaches(hands, trick, n_trick, leader, strain, side, misere, target, table)
    if table[1][META_ABORTED]:
        return -1, -1
    if reached != misere:
        return (0 if misere else 13), 1
    return dd_tricks(hands, trick, n_trick, leader, strain, side, misere, table), 0


@njit(cache=True, parallel=True, nogil=True)
def dd_block(hands, contract, declarer, partner, trumps, dealer, node_limit, chunk, out):
    """Fill ``out`` (int8[n, 2]: ``dd_tricks``, ``dd_made``) for ``n`` rows given by columns.

    ``hands`` is uint64[n, 4], the others int64[n]; ``node_limit`` the
    budget of each solver call (0: none). Chunks of ``chunk`` rows run in
    parallel (numba ``prange``), each with one solver table made once and
    cleared for every row.
    """
    n = hands.shape[0]
    n_chunks = (n + chunk - 1) // chunk
    for c in prange(n_chunks):
        table = make_table(DD_TABLE_LOG2, node_limit)
        trick = np.full(4, -1, dtype=np.int64)
        h = np.empty(4, dtype=np.uint64)
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            for s in range(4):
                h[s] = hands[i, s]
            t, m = dd_row(
                h, contract[i], declarer[i], partner[i], trumps[i], dealer[i], table, trick
            )
            out[i, 0] = t
            out[i, 1] = m


def add_dd(rows: np.ndarray, max_nodes: int | None = DD_DEFAULT_MAX_NODES) -> np.ndarray:
    """``rows`` (``ROW_DTYPE``) as ``DD_ROW_DTYPE`` records with their double-dummy columns.

    ``max_nodes`` is the node budget of each solver call (``None``: none).
    Runs on all numba threads (:func:`dd_block`).
    """
    n = len(rows)
    out = np.zeros((n, 2), dtype=np.int8)
    if n:
        column = {
            name: np.ascontiguousarray(rows[name], dtype=np.int64)
            for name in ("contract", "declarer", "partner", "trumps", "dealer")
        }
        work = max(1, min(DD_WORK_ROWS, -(-n // (4 * numba.get_num_threads()))))
        dd_block(
            np.ascontiguousarray(rows["hands"]),
            column["contract"],
            column["declarer"],
            column["partner"],
            column["trumps"],
            column["dealer"],
            0 if max_nodes is None else int(max_nodes),
            work,
            out,
        )
    result = np.zeros(n, dtype=DD_ROW_DTYPE)
    for name in ROW_DTYPE.names:
        result[name] = rows[name]
    result["dd_tricks"] = out[:, 0]
    result["dd_made"] = out[:, 1]
    return result
