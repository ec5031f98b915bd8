"""The Troggu state: one numpy structured record holds a whole match.

Per-seat arrays have room for the largest table (8); only the first
``n_players`` entries are used.
"""

from __future__ import annotations

import numpy as np

from ...records import fields_of
from ..fields import observed_play_fields
from .constants import MAX_PLAYERS

__all__ = ["OBS_DTYPE", "STATE_DTYPE"]

P = MAX_PLAYERS

STATE_DTYPE = np.dtype(
    [
        ("rng", np.uint64, (1,)),
        # Table.
        ("n_players", np.int8),
        ("hand_size", np.int8),
        ("tapp_size", np.int8),
        ("num_deals", np.int32),
        # Match progress.
        ("deal_index", np.int32),  # deals completed in the match
        ("scores", np.int32, (P,)),
        # The deal.
        ("dealer", np.int8),
        ("initial_hands", np.uint64, (P,)),
        ("initial_tapp", np.uint64),
        ("hands", np.uint64, (P,)),
        ("phase", np.int8),
        ("to_move", np.int8),
        # Auction: each seat's call (-1 not yet spoken, else action - CALL_BASE).
        ("calls", np.int8, (P,)),
        ("tappist", np.int8),  # who said Tapp, or -1
        # Contract.
        ("contract", np.int8),
        ("declarer", np.int8),
        ("called_card", np.int8),  # the partner's trump named in the call, or -1
        ("partner", np.int8),  # holder of the called card (hidden until it is played), or -1
        ("partner_revealed", np.bool_),
        ("discards", np.uint64),
        ("n_discarded", np.int8),
        ("kings_discarded", np.int8),
        # Play.
        ("won", np.uint64, (P,)),  # each seat's pile: tricks, plus Tapp/discards for the declarer
        ("tricks_won", np.int8, (P,)),
        ("trick_no", np.int8),
        ("leader", np.int8),
        ("trick_n", np.int8),
        ("trick_cards", np.int8, (P,)),
        ("led_mask", np.uint64),  # cards of the led suit; 0 until a live card leads
        ("held_back_pos", np.int8),  # position of a held-back Fool in the trick, or -1
        ("held_back", np.uint8),  # seats that have held back the Fool (at most one)
        ("last_trick_cards", np.int8, (P,)),
        ("last_leader", np.int8),
        ("played", np.uint64, (P,)),
        ("voids", np.uint8, (P,)),  # suits each seat has failed to follow (suit index bits)
        # Result.
        ("fool_held_back_by", np.int8),
        ("fool_exchange_card", np.int8),  # card given to the last-trick winner, or -1
        ("points", np.int16, (P,)),  # card points per seat after the Fool exchange
        ("declarer_points", np.int16),
        ("made", np.bool_),
        ("payoffs", np.int32, (P,)),
    ],
    align=True,
)

OBS_DTYPE = np.dtype(
    [
        ("seat", np.int8),
        *fields_of(STATE_DTYPE, ("n_players", "dealer", "phase", "to_move")),
        ("hand", np.uint64),
        # The other fields the seat sees as the state holds them (names and types).
        *fields_of(
            STATE_DTYPE,
            (
                "calls",
                "contract",
                "declarer",
                "called_card",
                "partner",  # known partner: once revealed, or to the partner itself
            ),
        ),
        ("tapp", np.uint64),  # the Tapp, seen only by the Tappist (TR-D14)
        *fields_of(STATE_DTYPE, ("discards",)),  # seen only by the Tappist
        ("held_back", np.bool_),  # own Fool hold-back
        *observed_play_fields(P),
        ("trick_points", np.int16, (P,)),  # points in the tricks each seat has won
        ("legal_cards", np.uint64),
        ("legal_calls", np.uint64),
        *fields_of(STATE_DTYPE, ("scores",)),
    ],
    align=True,
)
