"""Compiled Troggu simulation: independent deals for 3 to 8 players, in parallel.

Deal ``k`` of seed ``s`` is seeded by ``derive_seed(s, k, 0)`` (cards and
dealer) and ``derive_seed(s, k, 1 + seat)`` (each seat's agent).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.games.troggu.rules import init_match
from trickgym.records import copy_fields

from .features import FEATURE_COLUMNS, no_features, put_features, troggu_features

__all__ = ["ROW_DTYPE", "deal_options", "start_deal", "write_row"]

ROW_DTYPE = np.dtype(
    [
        ("deal", np.int64),
        ("players", np.int8),
        ("dealer", np.int8),
        ("contract", np.int8),
        ("declarer", np.int8),
        ("partner", np.int8),
        ("called_card", np.int8),
        ("declarer_points", np.int16),
        ("declarer_tricks", np.int8),
        ("made", np.bool_),
        ("fool_held_back_by", np.int8),
        ("calls", np.int8, (8,)),
        ("payoffs", np.int32, (8,)),
        ("points", np.int16, (8,)),
        ("hands", np.uint64, (8,)),
        ("tapp", np.uint64),
        # Features of the declarer's dealt hand, before the Tapp exchange.
        ("hf_trumps", np.int8),
        ("hf_high_trumps", np.int8),
        ("hf_fool", np.int8),
        ("hf_kings", np.int8),
    ],
    align=True,
)

# The row's fields copied from the state as they are.
_DEAL_FIELDS = (
    "dealer",
    "contract",
    "declarer",
    "partner",
    "called_card",
    "declarer_points",
    "made",
    "fool_held_back_by",
)
_FEATURES = FEATURE_COLUMNS["troggu"]


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
    row.calls[:] = state.calls
    row.payoffs[:] = state.payoffs
    row.points[:] = state.points
    row.hands[:] = state.initial_hands
    row.tapp = state.initial_tapp
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
