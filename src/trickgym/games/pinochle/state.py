"""The Pinochle state: one numpy structured record holds a whole match to the target."""

from __future__ import annotations

import numpy as np

from ...records import fields_of
from ..fields import observed_play_fields, seat_play_fields, whist_trick_fields

__all__ = ["MAX_CALLS", "OBS_DTYPE", "STATE_DTYPE"]

MAX_CALLS = 96  # at most 75 raises and 4 passes in an auction

STATE_DTYPE = np.dtype(
    [
        ("rng", np.uint64, (1,)),
        # Options (§9).
        ("mode", np.int8),  # 0 kitty, 1 exchange
        ("pass_count", np.int8),
        ("min_bid", np.int32),
        ("max_bid", np.int32),
        ("all_pass_redeal", np.bool_),
        ("must_head", np.bool_),
        ("meld_save_twenty", np.bool_),
        ("target", np.int32),
        # Match.
        ("hand_index", np.int32),
        ("scores", np.int32, (2,)),
        ("game_over", np.bool_),
        ("winner", np.int8),  # team that won the match, -1 while it goes on
        # The hand.
        ("dealer", np.int8),
        ("n_tricks", np.int8),
        ("initial_hands", np.uint64, (4,)),
        ("kitty", np.uint64),
        ("hands", np.uint64, (4,)),
        ("phase", np.int8),
        ("to_move", np.int8),
        # Auction (§4).
        ("high", np.int32),  # standing bid, 0 if none
        ("holder", np.int8),
        ("passed", np.uint8),
        ("n_calls", np.int16),
        ("calls", np.int32, (MAX_CALLS,)),  # bid value, or 0 for a pass
        ("call_seats", np.int8, (MAX_CALLS,)),
        ("passed_out", np.bool_),  # all passed and the hand is redealt (option)
        # Contract and exchange (§5).
        ("declarer", np.int8),
        ("bid", np.int32),
        ("trumps", np.int8),
        ("trump_mask", np.uint64),
        ("discards", np.uint64),
        ("n_moved", np.int8),  # cards discarded or passed in the current phase
        ("passed_in", np.uint64),  # partner -> declarer
        ("passed_back", np.uint64),  # declarer -> partner
        ("meld", np.int32, (4,)),
        ("meld_cards", np.uint64, (4,)),
        # Play (§7).
        *whist_trick_fields(4),
        *seat_play_fields(4),
        ("won", np.uint64, (2,)),  # cards in each team's tricks
        # Result (§8).
        ("counters", np.int32, (2,)),
        ("team_meld", np.int32, (2,)),
        ("saved", np.uint8, (2,)),  # 0/1: numba records hold no bool arrays
        ("made", np.bool_),
        ("hand_scores", np.int32, (2,)),
        ("payoffs", np.int32, (4,)),
    ],
    align=True,
)

OBS_DTYPE = np.dtype(
    [
        ("seat", np.int8),
        *fields_of(STATE_DTYPE, ("mode", "dealer", "phase", "to_move")),
        ("hand", np.uint64),
        # The other fields the seat sees as the state holds them (names and types).
        *fields_of(
            STATE_DTYPE,
            (
                "kitty",  # shown to all once the auction is over (PN-D4)
                "high",
                "holder",
                "passed",
                "n_calls",
                "calls",  # only the first n_calls entries are meaningful
                "call_seats",
                "declarer",
                "bid",
                "trumps",
                "discards",  # the declarer's only
                "passed_in",  # the partners' only
                "passed_back",
                "meld",
                "meld_cards",
            ),
        ),
        *observed_play_fields(4),
        *fields_of(STATE_DTYPE, ("scores",)),
        ("legal_low", np.uint64),
        ("legal_high", np.uint64),
    ],
    align=True,
)
