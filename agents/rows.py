"""Batched decisions: the hooks of an agent that decides many deals at once, and their kernels.

An agent that can decide a batch defines, beside ``act_record`` and
``start_deal`` (:mod:`trickgym.agents`):

``deal_rng(seeds, seat) -> uint64[k]``
    The generator words ``start_deal(seed, seat)`` would set for each deal
    seed of ``seeds`` (``uint64[k]``): the agent's per-deal state is that
    one word, held by the caller per deal and seat.
``act_rows(states, rows, seats, rngs) -> int64[k]``
    The actions of seat ``seats[j]`` in ``states[rows[j]]`` for every ``j``,
    each read from that seat's observation only. ``rngs`` is
    ``uint64[n, n_seats, 1]``, the words of ``deal_rng`` per state and seat,
    advanced in place as the agent draws. The decision for one row is the
    one ``act_record`` makes on that seat's record after ``start_deal``:
    rows are identical however many deals are decided together.

:func:`batched` says whether an agent has both. The simulator
(:mod:`trickgym.sim.lockstep`) and the vector env then decide every deal
where such an agent's seat is to move with one call per round. The
kernels below observe and run the rule agent for a batch of rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym import protocol
from trickgym.rng import derive_seed

__all__ = [
    "apply_rows",
    "batched",
    "encode_records",
    "legal_masks",
    "observe_rows",
    "record_features",
    "rule_actions",
    "rule_rows",
    "seen_rows",
    "stream_seeds",
]


def batched(agent) -> bool:
    """Whether ``agent`` (a Python agent object) decides batches (``act_rows``, ``deal_rng``)."""
    return callable(getattr(agent, "act_rows", None)) and callable(getattr(agent, "deal_rng", None))


@njit(cache=True)
def observe_rows(states, rows, seats, records):
    """``records[j]``: seat ``seats[j]``'s observation of ``states[rows[j]]``."""
    for j in range(rows.shape[0]):
        protocol.observe(states[rows[j]], seats[j], records[j])


@njit(cache=True)
def rule_rows(records, params, rngs, rows, seats, out):
    """``out[j]``: the rule agent's action on ``records[j]`` (seat ``seats[j]``'s), drawing
    from ``rngs[rows[j], seats[j]]``; ``params``: the rule parameters per seat."""
    for j in range(rows.shape[0]):
        out[j] = protocol.rule_policy(records[j], params[seats[j]].values, rngs[rows[j], seats[j]])


@njit(cache=True)
def legal_masks(states, rows, out):
    """``out[j]`` (0/1 over the game's actions): the legal actions in ``states[rows[j]]``."""
    one = np.uint64(1)
    for j in range(rows.shape[0]):
        state = states[rows[j]]
        low, high = protocol.legal_sets(state)
        base = protocol.call_base(state)
        for a in range(out.shape[1]):
            bits, at = (low, a) if a < base else (high, a - base)
            out[j, a] = (bits >> np.uint64(at)) & one


@njit(cache=True)
def apply_rows(states, rows, actions):
    """Play ``actions[j]`` in ``states[rows[j]]`` for every ``j``; the index of the first
    illegal one (nothing played from there on), or -1."""
    for j in range(rows.shape[0]):
        state = states[rows[j]]
        if not protocol.is_legal(state, actions[j]):
            return j
        protocol.apply_action(state, actions[j])
    return -1


@njit(cache=True)
def encode_records(records, buf, scalars, wide):
    """Encode every observation record into its row of the batch arrays (``obs_layout``)."""
    for j in range(records.shape[0]):
        protocol.encode(records, j, buf, scalars, wide)


@njit(cache=True)
def stream_seeds(seeds, indices, stream):
    """``derive_seed(seeds[j], indices[j], stream)`` for every ``j`` (``uint64[k]``): the
    deal seeds ``start_deal`` gives an agent, from each run's (or env's) seed and the deal's
    index."""
    out = np.empty(indices.shape[0], dtype=np.uint64)
    for j in range(indices.shape[0]):
        out[j] = derive_seed(seeds[j], indices[j], stream)
    return out


def seen_rows(game, states, rows, seats) -> tuple[np.ndarray, np.ndarray]:
    """``(records, legal)``: seat ``seats[j]``'s observation record of ``states[rows[j]]``
    and its legal actions (``bool[k, n_actions]``), for every ``j``."""
    rows = np.asarray(rows, dtype=np.int64)
    records = np.empty(len(rows), dtype=game.obs_dtype)
    observe_rows(states, rows, np.asarray(seats, dtype=np.int64), records)
    masks = np.zeros((len(rows), game.n_actions), dtype=np.int8)
    legal_masks(states, rows, masks)
    return records, masks.astype(bool)


def record_features(game, plan, records: np.ndarray) -> np.ndarray:
    """The feature vectors (``float32[k, plan.size]``) of observation records."""
    buf, scalars, wide = game.obs_layout.empty_batch(len(records))
    encode_records(records, buf, scalars, wide)
    return plan.encode(buf, scalars, wide)


def rule_actions(game, records: np.ndarray, params, rngs, rows, seats) -> np.ndarray:
    """The rule agent's actions (``int64[k]``) on a batch of observation records."""
    out = np.empty(len(records), dtype=np.int64)
    rule_rows(records, params, rngs, rows, seats, out)
    return out
