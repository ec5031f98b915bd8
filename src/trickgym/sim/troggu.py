"""Compiled Troggu simulation: independent deals for 3 to 8 players, in parallel.

Deal ``k`` of seed ``s`` is seeded by ``derive_seed(s, k, 0)`` (cards and
dealer) and ``derive_seed(s, k, 1 + seat)`` (each seat's agent).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.games.troggu.rules import init_match
from trickgym.games.troggu.state import STATE_DTYPE
from trickgym.records import copy_fields, fields_of

from .features import (
    FEATURE_COLUMNS,
    feature_fields,
    no_features,
    put_features,
    troggu_features,
)

__all__ = ["ROW_DTYPE", "deal_options", "start_deal", "write_row"]

# The row's columns that are the state's fields as they are (names and types).
_DEAL_FIELDS = ("dealer", "contract", "declarer", "partner", "called_card", "declarer_points")
_RESULT_FIELDS = ("made", "fool_held_back_by", "calls", "payoffs", "points")
_FEATURES = FEATURE_COLUMNS["troggu"]

ROW_DTYPE = np.dtype(
    [
        ("deal", np.int64),
        ("players", np.int8),
        *fields_of(STATE_DTYPE, _DEAL_FIELDS),
        ("declarer_tricks", np.int8),  # of the declarer and any partner
        *fields_of(STATE_DTYPE, _RESULT_FIELDS),
        ("hands", np.uint64, (8,)),  # as dealt
        ("tapp", np.uint64),
        # the Tappist's discards: with the dealt hands and calls they rebuild the first lead
        # (simulate(..., dd=True))
        *fields_of(STATE_DTYPE, ("discards",)),
        *feature_fields("troggu"),  # of the declarer's dealt hand, before the Tapp exchange
    ],
    align=True,
)


@njit(cache=True)
def write_row(row, state, deal):
    """Copy the result of the deal in ``state`` into the ``ROW_DTYPE`` record ``row``."""
    row.deal = deal
    row.players = state.n_players
    copy_fields(row, state, _DEAL_FIELDS)
    tricks = 0
    if state.declarer >= 0:
        tricks = state.tricks_won[state.declarer]
        if state.partner >= 0:
            tricks += state.tricks_won[state.partner]
    row.declarer_tricks = tricks
    copy_fields(row, state, _RESULT_FIELDS)
    row.hands[:] = state.initial_hands
    row.tapp = state.initial_tapp
    row.discards = state.discards
    if state.declarer >= 0:
        put_features(row, _FEATURES, troggu_features(state.initial_hands[state.declarer]))
    else:
        no_features(row, _FEATURES)


@njit(cache=True)
def start_deal(state, seed, opts):
    """A one-deal match of ``seed``; ``opts`` is :func:`deal_options`'s row."""
    init_match(state, seed, opts[0], 1, -1)


def deal_options(game) -> np.ndarray:
    """``[n_players]``: the options :func:`start_deal` reads."""
    return np.array([game.n_seats], dtype=np.int64)
