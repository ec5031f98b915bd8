"""The simulators' parallel block of independent deals, written once over the game protocol.

Deal ``k`` of seed ``s`` is seeded by ``derive_seed(s, k, 0)`` (cards and
dealer) and ``derive_seed(s, k, 1 + seat)`` (each seat's agent), so a
deal's row does not depend on threads, chunk size or which other deals
run. A game brings ``start_deal`` (a one-deal match from a seed and its
``int64`` simulation options) and ``write_row``; see :mod:`trickgym.protocol`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from trickgym import protocol
from trickgym.engine.loops import play_until
from trickgym.rng import derive_seed, seed_agents

__all__ = ["clear_rows", "deal_block"]


@njit(cache=True, parallel=True, nogil=True)
def deal_block(template, seed, first, kinds, params, oracle, opts, chunk, rows):
    """Fill ``rows`` with deals ``first .. first+len(rows)-1``, ``chunk`` deals a work item.

    ``template`` is a one-record state array of the game (its dtype selects
    the game's kernels), ``kinds`` the built-in kind per seat, ``params``
    the rule parameters per seat, ``oracle`` ``None`` unless a seat is the
    oracle (:func:`trickgym.engine.loops.oracle_flag`), ``opts`` the game's
    simulation options. Work items run in parallel (numba ``prange``), each
    reusing one state record.
    """
    count = rows.shape[0]
    n_seats = kinds.shape[0]
    n_chunks = (count + chunk - 1) // chunk
    for c in prange(n_chunks):
        states = protocol.new_states(template[0])  # start_deal sets every field read
        agent_rngs = np.zeros((n_seats, 1), dtype=np.uint64)
        for i in range(c * chunk, min(count, (c + 1) * chunk)):
            deal = first + i
            protocol.start_deal(states[0], derive_seed(seed, deal, 0), opts)
            seed_agents(agent_rngs, seed, deal)
            play_until(states, 0, kinds, agent_rngs, params, oracle)
            protocol.write_row(rows[i], states[0], deal)


@njit(cache=True)
def clear_rows(rows, first, count):
    """Mark ``rows[first : first + count]`` unused (``deal == -1``) until a deal is written."""
    for k in range(first, first + count):
        rows[k].deal = -1
