"""Fixed-shape array form of a Pinochle information set.

Seats are absolute (NS = 0, 2; EW = 1, 3). Bids in ``auction`` are values
(0 for a pass).

==================  ==============  ==============================================
key                 shape, dtype    meaning
==================  ==============  ==============================================
``seat``            (), int64       the observing seat
``mode``            (), int64       0 kitty, 1 exchange
``dealer``          (), int64       the dealer
``phase``           (), int64       0 auction, 1 trump, 2 discard, 3 pass to
                                    declarer, 4 pass back, 5 play, 6 hand over
``declarer``        (), int64       -1 until the auction is won
``trumps``          (), int64       0 not named, 1..4 for ♠ ♥ ♦ ♣
``trick_leader``    (), int64       leader of the current trick, -1 if none
``hand``            (48,), int8     own cards
``kitty``           (48,), int8     the kitty, shown to all after the auction
``discards``        (48,), int8     the declarer's buried cards (declarer only)
``passed_in``       (48,), int8     cards the partner passed to the declarer
                                    (the two partners only)
``passed_back``     (48,), int8     cards passed back (the two partners only)
``meld_cards``      (4, 48), int8   the cards each seat laid down in meld
``played``          (4, 48), int8   every card each seat has played
``trick``           (4,), int8      card each seat played to the current trick
``last_trick``      (4,), int8      the previous trick, per seat
``tricks_won``      (4,), int8      tricks won per seat
``voids``           (4, 4), int8    suits each seat has shown out of
``auction``         (96, 2), int32  ``[seat, bid]`` per call (bid 0 = Pass),
                                    ``-1`` padding
``meld``            (4,), int32     meld points per seat
``bids``            (2,), int32     the standing bid and the contract's bid
``scores``          (2,), int32     match scores (NS, EW)
``action_mask``     (n_actions,)    legal actions for this seat now
==================  ==============  ==============================================
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..encoding import ObsLayout, play_features, put_bits, put_seat_rows, put_tricks, trick_shapes
from .constants import CALL_BASE, MAX_ACTIONS, MAX_BID, N_CARDS, PHASE_NAMES
from .state import MAX_CALLS

__all__ = ["LAYOUT", "OBS_SHAPES", "encode_kernel"]

OBS_SHAPES = {
    "seat": ((), np.int64, 0, 3),
    "mode": ((), np.int64, 0, 1),
    "dealer": ((), np.int64, 0, 3),
    "phase": ((), np.int64, 0, 6),
    "declarer": ((), np.int64, -1, 3),
    "trumps": ((), np.int64, 0, 4),
    "trick_leader": ((), np.int64, -1, 3),
    "hand": ((N_CARDS,), np.int8, 0, 1),
    "kitty": ((N_CARDS,), np.int8, 0, 1),
    "discards": ((N_CARDS,), np.int8, 0, 1),
    "passed_in": ((N_CARDS,), np.int8, 0, 1),
    "passed_back": ((N_CARDS,), np.int8, 0, 1),
    "meld_cards": ((4, N_CARDS), np.int8, 0, 1),
    "played": ((4, N_CARDS), np.int8, 0, 1),
    **trick_shapes(4, N_CARDS),
    "tricks_won": ((4,), np.int8, 0, 12),
    "voids": ((4, 4), np.int8, 0, 1),
    "auction": ((MAX_CALLS, 2), np.int32, -1, MAX_BID),
    "meld": ((4,), np.int32, 0, 2**14),
    "bids": ((2,), np.int32, 0, MAX_BID),
    "scores": ((2,), np.int32, -(2**30), 2**30),
    "action_mask": ((MAX_ACTIONS,), np.int8, 0, 1),
}


# How each key becomes columns of the network-ready vector
# (:mod:`trickgym.games.obs_features`; seats and teams relative to the observer).
FEATURES = (
    ("hand", "bits", None),
    ("kitty", "bits", None),
    ("discards", "bits", None),
    ("passed_in", "bits", None),
    ("passed_back", "bits", None),
    ("meld_cards", "bits", "seats"),
    *play_features(N_CARDS, 12),
    ("auction", "last_bid", 500),
    ("meld", "scaled", (500, "seats")),
    ("bids", "scaled", 500),
    ("scores", "scaled", (1000, "teams")),
    ("mode", "onehot", (0, 1)),
    ("phase", "onehot", (0, 6)),
    ("trumps", "onehot", (0, 4)),
    ("dealer", "seat", None),
    ("declarer", "seat", None),
    ("trick_leader", "seat", None),
)
FEATURE_LABELS = {
    "voids": ("S", "H", "D", "C"),
    "mode": ("kitty", "exchange"),
    "phase": PHASE_NAMES,
    "trumps": ("none", "S", "H", "D", "C"),
}

# Where each int8 array starts in the flat buffer the encode kernel fills.
LAYOUT = ObsLayout(OBS_SHAPES)
(HAND, KITTY, DISCARDS, PASSED_IN, PASSED_BACK, MELD_CARDS, PLAYED, TRICK, LAST_TRICK) = (
    LAYOUT.offsets[k] for k in LAYOUT.int8_keys[:9]
)
TRICKS_WON, VOIDS, MASK = (LAYOUT.offsets[k] for k in LAYOUT.int8_keys[9:])


@njit(cache=True)
def encode_kernel(observations, j, buf, scalars, auction, meld, bids, scores):
    """Write ``observations[j]`` into the flat int8 ``buf`` and the other arrays.

    The action mask always has ``MAX_ACTIONS`` (128) entries; the game's
    ``n_actions`` first ones are real.
    """
    obs = observations[j]
    put_bits(buf, HAND, obs.hand, N_CARDS)
    put_bits(buf, KITTY, obs.kitty, N_CARDS)
    put_bits(buf, DISCARDS, obs.discards, N_CARDS)
    put_bits(buf, PASSED_IN, obs.passed_in, N_CARDS)
    put_bits(buf, PASSED_BACK, obs.passed_back, N_CARDS)
    put_tricks(buf, TRICK, LAST_TRICK, obs, 4, 4)
    put_seat_rows(buf, PLAYED, TRICKS_WON, VOIDS, obs, N_CARDS, 4, 4)
    for s in range(4):
        put_bits(buf, MELD_CARDS + N_CARDS * s, obs.meld_cards[s], N_CARDS)
        meld[s] = obs.meld[s]
    put_bits(buf, MASK, obs.legal_low, CALL_BASE)
    put_bits(buf, MASK + CALL_BASE, obs.legal_high, MAX_ACTIONS - CALL_BASE)
    for i in range(MAX_CALLS):
        auction[i, 0] = obs.call_seats[i] if i < obs.n_calls else -1
        auction[i, 1] = obs.calls[i] if i < obs.n_calls else -1
    bids[0] = obs.high
    bids[1] = obs.bid
    scores[0] = obs.scores[0]
    scores[1] = obs.scores[1]
    scalars[0] = obs.seat
    scalars[1] = obs.mode
    scalars[2] = obs.dealer
    scalars[3] = obs.phase
    scalars[4] = obs.declarer
    scalars[5] = obs.trumps + 1
    scalars[6] = obs.leader if obs.phase == 5 else -1
