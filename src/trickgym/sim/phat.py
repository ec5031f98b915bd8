"""Compiled Phat simulation: whole matches (races to 181), one row per deal.

A Phat game has no fixed number of deals, so the unit of work is a match:
match ``m`` of seed ``s`` is seeded by ``derive_seed(s, m, 0)`` (cards and
first pitcher) and ``derive_seed(s, m, 1 + seat)`` (each seat's agent).
Every completed deal hands out all 80 phat, so after ``d`` deals one team
has at least ``40 d`` and a game lasts at most ``ceil(target / 40)`` deals;
each match gets that many row slots per game and unused slots
(``deal == -1``) are dropped.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from trickgym.engine.loops import play_until
from trickgym.games.phat.rules import init_match, match_over, next_deal
from trickgym.games.phat.state import STATE_DTYPE
from trickgym.records import copy_fields, fields_of
from trickgym.rng import derive_seed, seed_agents

from .blocks import clear_rows
from .features import FEATURE_COLUMNS, feature_fields, put_features, whist_features

__all__ = ["ROW_DTYPE", "simulate_match_block", "slots_per_match", "write_row"]

# The row's columns that are the state's fields as they are (names and types).
_PITCH_FIELDS = ("pitcher", "trumps")
_DEAL_FIELDS = ("phat", "muck", "bonus_to", "bonus", "carry", "scores", "game_over", "winner")
_FEATURES = FEATURE_COLUMNS["phat"]

ROW_DTYPE = np.dtype(
    [
        ("match", np.int64),
        ("game", np.int32),
        ("deal", np.int32),  # deal index within the game
        *fields_of(STATE_DTYPE, _PITCH_FIELDS),
        ("tricks", np.int8),  # tricks played (fewer when the game ended mid-deal)
        # phat and muck of the deal, the muck bonus, then the carry and game
        # scores after it
        *fields_of(STATE_DTYPE, _DEAL_FIELDS),
        ("hands", np.uint64, (4,)),  # as dealt
        *feature_fields("phat"),  # of the pitcher's dealt hand
    ],
    align=True,
)


def slots_per_match(games_in_match: int, target: int) -> int:
    """Row slots reserved for one match: the most deals its games can take."""
    return games_in_match * -(-target // 40)


@njit(cache=True)
def write_row(row, state, match):
    """Copy the deal just finished in ``state`` into the ``ROW_DTYPE`` record ``row``."""
    row.match = match
    row.game = state.game_index
    row.deal = state.deal_in_game
    row.tricks = state.trick_no
    copy_fields(row, state, _PITCH_FIELDS)
    copy_fields(row, state, _DEAL_FIELDS)
    row.hands[:] = state.initial_hands
    trump_len, _, hcp, voids, _, _ = whist_features(
        state.initial_hands[state.pitcher], state.trumps
    )
    put_features(row, _FEATURES, (trump_len, hcp, voids))


@njit(cache=True, parallel=True, nogil=True)
def simulate_match_block(
    seed, first_match, kinds, params, oracle, target, games_in_match, slots, rows
):
    """Fill ``rows`` with the deals of matches ``first_match ..``; unused slots get deal -1.

    Each match owns ``slots`` consecutive rows (see :func:`slots_per_match`).
    """
    n_matches = rows.shape[0] // slots
    for m in prange(n_matches):
        match = first_match + m
        states = np.empty(1, dtype=STATE_DTYPE)  # init_match sets every field read
        agent_rngs = np.zeros((4, 1), dtype=np.uint64)
        init_match(states[0], derive_seed(seed, match, 0), target, games_in_match, -1)
        seed_agents(agent_rngs, seed, match)
        clear_rows(rows, m * slots, slots)
        k = 0
        while True:
            play_until(states, 0, kinds, agent_rngs, params, oracle)
            write_row(rows[m * slots + k], states[0], match)
            k += 1
            if match_over(states[0]):
                break
            next_deal(states[0])
