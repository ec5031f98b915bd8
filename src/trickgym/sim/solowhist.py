"""Compiled Solo Whist simulation: many independent deals, in parallel.

Deal ``k`` of seed ``s`` is seeded by ``derive_seed(s, k, 0)`` (cards and
dealer) and ``derive_seed(s, k, 1 + seat)`` (each seat's agent), so a deal's
row does not depend on threads, chunk size or which other deals run.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from trickgym.agents.solowhist import act_solowhist
from trickgym.games.solowhist.constants import DEAL_OVER, MAX_CALLS
from trickgym.games.solowhist.rules import apply_action, init_match
from trickgym.games.solowhist.state import STATE_DTYPE
from trickgym.rng import derive_seed

__all__ = ["ROW_DTYPE", "play_deal", "simulate_block"]

ROW_DTYPE = np.dtype(
    [
        ("deal", np.int64),
        ("dealer", np.int8),
        ("turn_up", np.int8),
        ("contract", np.int8),
        ("declarer", np.int8),
        ("partner", np.int8),
        ("trumps", np.int8),
        ("declarer_tricks", np.int8),
        ("made", np.bool_),
        ("n_calls", np.int8),
        ("calls", np.int8, (MAX_CALLS,)),
        ("call_seats", np.int8, (MAX_CALLS,)),
        ("payoffs", np.int32, (4,)),
        ("hands", np.uint64, (4,)),
    ],
    align=True,
)


@njit(cache=True)
def play_deal(state, seed, deal, kinds, agent_rngs, unit, early_stop):
    """Deal ``deal`` of ``seed`` played to the end by agents of ``kinds`` (per seat)."""
    init_match(state, derive_seed(seed, deal, 0), unit, 1, True, early_stop, -1)
    for s in range(4):
        agent_rngs[s, 0] = derive_seed(seed, deal, 1 + s)
    while state.phase != DEAL_OVER:
        p = state.to_move
        apply_action(state, act_solowhist(kinds[p], state, p, agent_rngs[p]))


@njit(cache=True)
def _write_row(row, state, deal):
    row.deal = deal
    row.dealer = state.dealer
    row.turn_up = state.turn_up
    row.contract = state.contract
    row.declarer = state.declarer
    row.partner = state.partner
    row.trumps = state.trumps
    row.declarer_tricks = state.declarer_tricks
    row.made = state.made
    row.n_calls = state.n_calls
    for i in range(MAX_CALLS):
        row.calls[i] = state.calls[i] if i < state.n_calls else -1
        row.call_seats[i] = state.call_seats[i] if i < state.n_calls else -1
    for s in range(4):
        row.payoffs[s] = state.payoffs[s]
        row.hands[s] = state.initial_hands[s]


@njit(cache=True, parallel=True)
def simulate_block(seed, first, kinds, unit, early_stop, chunk, rows):
    """Fill ``rows`` (``ROW_DTYPE``) with deals ``first .. first+len(rows)-1``.

    Chunks of ``chunk`` deals run in parallel (numba ``prange``); each chunk
    reuses one state record.
    """
    count = rows.shape[0]
    n_chunks = (count + chunk - 1) // chunk
    for c in prange(n_chunks):
        states = np.empty(1, dtype=STATE_DTYPE)  # init_match sets every field read
        agent_rngs = np.zeros((4, 1), dtype=np.uint64)
        state = states[0]
        for i in range(c * chunk, min(count, (c + 1) * chunk)):
            play_deal(state, seed, first + i, kinds, agent_rngs, unit, early_stop)
            _write_row(rows[i], state, first + i)
