"""The Solo Whist state: one numpy structured record holds a whole match.

A single game is ``states[i]`` of an array of ``STATE_DTYPE``; a batch is the
array. The record holds the deal (hands, pack, turn-up), the auction, the
play, the scores of the match and the state's own random generator, so the
kernels need nothing else.
"""

from __future__ import annotations

import numpy as np

from ...records import fields_of
from ..fields import observed_play_fields, seat_play_fields, whist_trick_fields
from .constants import MAX_CALLS, N_CARDS, N_SEATS

__all__ = ["OBS_DTYPE", "STATE_DTYPE"]

STATE_DTYPE = np.dtype(
    [
        # Random generator (splitmix64) for shuffles and cuts.
        ("rng", np.uint64, (1,)),
        # Table options, fixed for the match.
        ("unit", np.int32),
        ("num_deals", np.int32),
        ("always_shuffle", np.bool_),
        ("early_stop", np.bool_),
        # Match progress.
        ("deal_index", np.int32),  # deals dealt so far in the match, passed-out ones included
        ("deals_played", np.int32),  # deals played to a score (SW-D10)
        ("scores", np.int32, (N_SEATS,)),
        # The deal.
        ("dealer", np.int8),
        ("shuffled", np.bool_),  # whether this deal's pack was shuffled (else gathered and cut)
        ("pack", np.uint8, (N_CARDS,)),  # the pack as dealt, top card first
        ("initial_hands", np.uint64, (N_SEATS,)),
        ("hands", np.uint64, (N_SEATS,)),
        ("turn_up", np.int8),
        ("phase", np.int8),
        ("to_move", np.int8),
        # Auction (rules §5).
        ("high", np.int8),  # highest contract called so far (NO_CONTRACT if none)
        ("holders", np.uint8),  # seats bound to `high`, as a bit set
        ("passed", np.uint8),  # seats that have passed, as a bit set
        ("copped", np.bool_),
        ("proposer", np.int8),
        ("n_calls", np.int8),
        ("calls", np.int8, (MAX_CALLS,)),  # action ids of the calls, in order
        ("call_seats", np.int8, (MAX_CALLS,)),
        # Contract.
        ("contract", np.int8),
        ("declarer", np.int8),  # the bidder (the proposer in Prop & Cop)
        ("partner", np.int8),  # the accepter in Prop & Cop, else -1
        ("declarers", np.uint8),  # bit set of the declaring side
        ("trumps", np.int8),  # suit index, -1 for no trumps
        ("trump_mask", np.uint64),
        # Play.
        *whist_trick_fields(N_SEATS),
        ("last_winner", np.int8),
        *seat_play_fields(N_SEATS),
        ("exposed", np.bool_),  # Misère Ouverte hand face up
        ("play_order", np.uint8, (N_CARDS,)),
        # Result of the deal.
        ("declarer_tricks", np.int8),
        ("made", np.bool_),
        ("payoffs", np.int32, (N_SEATS,)),
    ],
    align=True,
)

OBS_DTYPE = np.dtype(
    [
        ("seat", np.int8),
        *fields_of(STATE_DTYPE, ("dealer", "turn_up", "phase", "to_move")),
        ("hand", np.uint64),
        # The auction and contract as the state holds them (names and types).
        *fields_of(
            STATE_DTYPE,
            ("n_calls", "calls", "call_seats", "high", "contract", "declarers", "trumps"),
        ),
        *observed_play_fields(N_SEATS),
        ("exposed_hand", np.uint64),  # the Misère Ouverte declarer's cards once exposed, else 0
        ("legal_cards", np.uint64),
        ("legal_calls", np.uint64),  # bit i: action CALL_BASE + i
        *fields_of(STATE_DTYPE, ("scores",)),
    ],
    align=True,
)
