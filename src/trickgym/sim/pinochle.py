"""Compiled Pinochle simulation: independent hands or whole matches, in parallel.

Hand ``k`` of seed ``s`` is seeded by ``derive_seed(s, k, 0)`` (cards and
dealer) and ``derive_seed(s, k, 1 + seat)`` (each seat's agent). A whole
match (the race to ``target``) is seeded the same way by its match index
``m``, so match ``m`` depends only on ``(s, m)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from trickgym.engine.loops import play_until
from trickgym.games.auction import copy_calls
from trickgym.games.pinochle.rules import init_match, match_over, next_deal
from trickgym.games.pinochle.state import MAX_CALLS, STATE_DTYPE
from trickgym.records import copy_fields, fields_of
from trickgym.rng import derive_seed, seed_agents

from .blocks import clear_rows
from .features import (
    FEATURE_COLUMNS,
    feature_fields,
    no_features,
    pinochle_features,
    put_features,
)

__all__ = [
    "MAX_HANDS",
    "ROW_DTYPE",
    "deal_options",
    "default_slots",
    "simulate_match_block",
    "start_deal",
    "write_row",
]

# A match still going after this many hands is abandoned (agents that never
# let a team reach the target), rather than looping for ever.
MAX_HANDS = 10_000


def default_slots(target: int) -> int:
    """Row slots first reserved per match (a longer match is rerun with exact room)."""
    return 8 + 2 * -(-target // 250)


# The row's columns that are the state's fields as they are (names and types).
_MATCH_FIELDS = ("scores", "game_over", "winner")  # after the hand
_HAND_FIELDS = ("mode", "dealer", "declarer", "bid", "trumps", "passed_out")
_SCORE_FIELDS = ("counters", "saved", "made", "hand_scores", "n_calls", "calls", "call_seats")
# The cards buried (kitty mode) or passed each way (exchange mode): with the dealt hands,
# the auction and trumps they rebuild the first lead (simulate(..., dd=True)).
_MOVED_FIELDS = ("discards", "passed_in", "passed_back")
_FEATURES = FEATURE_COLUMNS["pinochle"]

ROW_DTYPE = np.dtype(
    [
        ("deal", np.int64),  # hand index: of the seed, or within its match
        ("match", np.int64),
        *fields_of(STATE_DTYPE, _MATCH_FIELDS),
        *fields_of(STATE_DTYPE, _HAND_FIELDS),
        ("meld", np.int32, (2,)),  # per team
        *fields_of(STATE_DTYPE, _SCORE_FIELDS),
        ("hands", np.uint64, (4,)),  # as dealt
        ("kitty", np.uint64),
        *fields_of(STATE_DTYPE, _MOVED_FIELDS),
        # of the declarer's dealt hand, before the kitty or exchange
        *feature_fields("pinochle", wide=("hf_meld",)),
    ],
    align=True,
)


@njit(cache=True)
def write_row(row, state, deal):
    """Copy the result of the hand in ``state`` into the ``ROW_DTYPE`` record ``row``."""
    row.deal = deal
    row.match = deal
    copy_fields(row, state, _MATCH_FIELDS)
    copy_fields(row, state, _HAND_FIELDS)
    row.meld[:] = state.team_meld
    copy_fields(row, state, ("counters", "saved", "made", "hand_scores"))
    copy_calls(row, state, MAX_CALLS)
    row.hands[:] = state.initial_hands
    row.kitty = state.kitty
    copy_fields(row, state, _MOVED_FIELDS)
    if state.declarer >= 0 and state.trumps >= 0:
        hand = state.initial_hands[state.declarer]
        put_features(row, _FEATURES, pinochle_features(hand, state.trumps))
    else:
        no_features(row, _FEATURES)


@njit(cache=True)
def start_deal(state, seed, opts):
    """A one-hand match of ``seed``; ``opts`` is :func:`deal_options`'s row."""
    _start_match(state, seed, opts, 1 << 30)  # no target within one hand


@njit(cache=True)
def _start_match(state, seed, opts, target):
    """A match of ``seed`` to ``target`` with the rule options ``opts`` (:func:`deal_options`)."""
    rule_args = (opts[0], opts[1], opts[2], opts[3], opts[4] != 0, opts[5] != 0, opts[6] != 0)
    init_match(state, seed, rule_args, target, -1)


def deal_options(game) -> np.ndarray:
    """The game's ``rule_args()`` as the ``int64`` row :func:`start_deal` reads."""
    return np.array(game.rule_args(), dtype=np.int64)


@njit(cache=True, parallel=True, nogil=True)
def simulate_match_block(
    seed,
    first_match,
    kinds,
    params,
    oracle,
    opts,
    target,
    slots,
    rows,
    counts,
):
    """Fill ``rows`` with the hands of matches ``first_match ..`` (``slots`` rows each).

    ``opts`` is the game's :func:`deal_options` row.

    ``counts[m]`` gets the number of hands match ``m`` took; when it exceeds
    ``slots`` only the first ``slots`` rows are written (the caller reruns
    that match with more room), and past ``MAX_HANDS`` the match is
    abandoned. Unused slots keep ``deal == -1``.
    """
    n_matches = counts.shape[0]
    for m in prange(n_matches):
        match = first_match + m
        states = np.empty(1, dtype=STATE_DTYPE)  # init_match sets every field read
        agent_rngs = np.zeros((4, 1), dtype=np.uint64)
        _start_match(states[0], derive_seed(seed, match, 0), opts, target)
        seed_agents(agent_rngs, seed, match)
        clear_rows(rows, m * slots, slots)
        k = 0
        while True:
            play_until(states, 0, kinds, agent_rngs, params, oracle)
            if k < slots:
                write_row(rows[m * slots + k], states[0], k)
                rows[m * slots + k].match = match
            k += 1
            if match_over(states[0]) or k > MAX_HANDS:
                break
            next_deal(states[0])
        counts[m] = k
