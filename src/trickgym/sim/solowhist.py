"""Compiled Solo Whist simulation: independent deals or whole matches, in parallel.

Deal ``k`` of seed ``s`` is seeded by ``derive_seed(s, k, 0)`` (cards and
dealer) and ``derive_seed(s, k, 1 + seat)`` (each seat's agent), so a deal's
row does not depend on threads, chunk size or which other deals run. In
match mode the same holds per match: match ``m`` is seeded by
``derive_seed(s, m, ...)`` and its deals follow BGA's dealing (dealer
rotation, gather-and-cut unless the last contract was Abundance or higher).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from trickgym.engine.loops import play_until
from trickgym.games.auction import copy_calls
from trickgym.games.solowhist.constants import MAX_CALLS, NO_CONTRACT
from trickgym.games.solowhist.rules import init_match, match_over, next_deal
from trickgym.games.solowhist.state import STATE_DTYPE
from trickgym.records import copy_fields, fields_of
from trickgym.rng import derive_seed, seed_agents

from .blocks import clear_rows
from .features import (
    FEATURE_COLUMNS,
    feature_fields,
    no_features,
    put_features,
    whist_features,
)

__all__ = [
    "DD_ROW_DTYPE",
    "MAX_PASSED_OUT",
    "ROW_DTYPE",
    "deal_options",
    "play_deal",
    "simulate_match_block",
    "start_deal",
]

# A match whose agents pass out this many deals in a row is abandoned (its rows
# keep deal = -1) rather than looping for ever.
MAX_PASSED_OUT = 10_000

# The row's columns that are the state's fields as they are (names and types).
_DEAL_FIELDS = (
    "shuffled",
    "dealer",
    "turn_up",
    "contract",
    "declarer",
    "partner",
    "trumps",
    "declarer_tricks",
    "made",
)
_FEATURES = FEATURE_COLUMNS["solowhist"]

ROW_DTYPE = np.dtype(
    [
        ("deal", np.int64),
        ("match", np.int64),
        ("deal_in_match", np.int32),  # scored deals before this one in its match
        ("passed_out_before", np.int32),  # passed-out deals just before this one
        *fields_of(STATE_DTYPE, _DEAL_FIELDS),
        *fields_of(STATE_DTYPE, ("n_calls", "calls", "call_seats", "payoffs")),
        ("hands", np.uint64, (4,)),  # as dealt
        ("scores", np.int32, (4,)),  # match scores after this deal
        *feature_fields("solowhist"),  # of the declarer's dealt hand
    ],
    align=True,
)

#: Rows of a run with ``dd=True``: ``ROW_DTYPE``'s fields, then ``dd_tricks``
#: and ``dd_made`` (int8, see the module docstring).
DD_ROW_DTYPE = np.dtype(
    [*fields_of(ROW_DTYPE), ("dd_tricks", np.int8), ("dd_made", np.int8)], align=True
)


@njit(cache=True)
def play_deal(states, i, seed, deal, kinds, agent_rngs, params, oracle, unit, early_stop):
    """Deal ``deal`` of ``seed`` played in ``states[i]`` by built-in agents of ``kinds``."""
    init_match(states[i], derive_seed(seed, deal, 0), unit, 1, True, early_stop, -1)
    seed_agents(agent_rngs[:4], seed, deal)
    play_out(states, i, kinds, agent_rngs, params, oracle)


@njit(cache=True)
def play_out(states, i, kinds, agent_rngs, params, oracle):
    """Play the current deal of ``states[i]`` to its end with built-in agents."""
    play_until(states, i, kinds, agent_rngs, params, oracle)


@njit(cache=True)
def write_row(row, state, deal):
    """Copy the result of the deal in ``state`` into the ``ROW_DTYPE`` record ``row``."""
    row.deal = deal
    row.match = deal
    row.deal_in_match = 0
    row.passed_out_before = 0
    copy_fields(row, state, _DEAL_FIELDS)
    copy_calls(row, state, MAX_CALLS)
    copy_fields(row, state, ("payoffs", "scores"))
    row.hands[:] = state.initial_hands
    if state.declarer >= 0:
        hand = state.initial_hands[state.declarer]
        put_features(row, _FEATURES, whist_features(hand, state.trumps))
    else:
        no_features(row, _FEATURES)


@njit(cache=True)
def start_deal(state, seed, opts):
    """A one-deal match of ``seed``, shuffled; ``opts`` is :func:`deal_options`'s row."""
    init_match(state, seed, opts[0], 1, True, opts[1] != 0, -1)


def deal_options(game) -> np.ndarray:
    """``[unit, early_stop]``: the options :func:`start_deal` reads."""
    o = game.options
    return np.array([o.unit, o.early_stop], dtype=np.int64)


@njit(cache=True, parallel=True, nogil=True)
def simulate_match_block(
    seed, first_match, kinds, params, oracle, unit, num_deals, always_shuffle, early_stop, rows
):
    """Fill ``rows`` with the scored deals of matches ``first_match ..``, in order.

    ``rows`` holds ``num_deals`` rows per match; passed-out deals get no row
    but are counted in the next row's ``passed_out_before``. Matches run in
    parallel, one per work item.
    """
    n_matches = rows.shape[0] // num_deals
    for m in prange(n_matches):
        match = first_match + m
        states = np.empty(1, dtype=STATE_DTYPE)  # init_match sets every field read
        state = states[0]
        agent_rngs = np.zeros((4, 1), dtype=np.uint64)
        init_match(
            state, derive_seed(seed, match, 0), unit, num_deals, always_shuffle, early_stop, -1
        )
        seed_agents(agent_rngs, seed, match)
        passed_out = 0
        clear_rows(rows, m * num_deals, num_deals)
        while True:
            play_out(states, 0, kinds, agent_rngs, params, oracle)
            if state.contract == NO_CONTRACT:
                passed_out += 1
                if passed_out >= MAX_PASSED_OUT:
                    break
            else:
                k = m * num_deals + state.deals_played - 1
                write_row(rows[k], state, first_match * num_deals + k)
                rows[k].match = match
                rows[k].deal_in_match = state.deals_played - 1
                rows[k].passed_out_before = passed_out
                passed_out = 0
            if match_over(state):
                break
            next_deal(state)
