"""The Phat state: one numpy structured record holds a whole match of races to 181."""

from __future__ import annotations

import numpy as np

from ...records import fields_of
from ..fields import observed_play_fields, seat_play_fields, whist_trick_fields

__all__ = ["OBS_DTYPE", "STATE_DTYPE"]

STATE_DTYPE = np.dtype(
    [
        ("rng", np.uint64, (1,)),
        ("target", np.int32),
        ("games_in_match", np.int32),
        # Match and game progress.
        ("game_index", np.int32),  # games finished in the match
        ("games_won", np.int32, (2,)),
        ("deal_index", np.int32),  # deals dealt in the match
        ("deal_in_game", np.int32),
        ("scores", np.int32, (2,)),  # the current game's team scores
        ("carry", np.int32),  # muck bonus carried over from 40-40 ties (PH-D3)
        # The deal.
        ("pitcher", np.int8),
        ("initial_hands", np.uint64, (4,)),
        ("hands", np.uint64, (4,)),
        ("phase", np.int8),
        ("to_move", np.int8),
        ("trumps", np.int8),  # set by the pitcher's first card, -1 before
        ("trump_mask", np.uint64),
        *whist_trick_fields(4),
        *seat_play_fields(4),
        ("won", np.uint64, (2,)),  # cards won per team this deal
        # Result of the deal.
        ("phat", np.int32, (2,)),  # phat scored per team this deal
        ("muck", np.int32, (2,)),  # muck per team (complete deals only)
        ("bonus_to", np.int8),  # team given the muck bonus, -1 if none
        ("bonus", np.int32),  # its size
        ("game_over", np.bool_),  # the game ended in this deal
        ("winner", np.int8),  # winning team of the game, -1 while it goes on
        ("payoffs", np.int32, (4,)),  # per seat: own team's deal points minus the other's
    ],
    align=True,
)

OBS_DTYPE = np.dtype(
    [
        ("seat", np.int8),
        *fields_of(STATE_DTYPE, ("pitcher", "phase", "to_move")),
        ("hand", np.uint64),
        *fields_of(STATE_DTYPE, ("trumps",)),
        *observed_play_fields(4),
        # Everything else is public (muck too: it is in the played cards).
        *fields_of(STATE_DTYPE, ("scores", "carry", "phat", "muck", "games_won")),
        ("legal_cards", np.uint64),
    ],
    align=True,
)
