"""Fixed-shape array form of a Phat information set.

Seats are absolute (0..3; teams NS = 0, 2 and EW = 1, 3); ``seat`` says
whose view it is.

==================  =============  ===============================================
key                 shape, dtype   meaning
==================  =============  ===============================================
``seat``            (), int64      the observing seat
``pitcher``         (), int64      the pitcher of this deal
``phase``           (), int64      0 play, 1 deal over
``trumps``          (), int64      0 not yet pitched, 1..4 for ♠ ♥ ♦ ♣
``trick_leader``    (), int64      leader of the current trick, -1 if none
``hand``            (52,), int8    own cards
``trick``           (4,), int8     card each seat played to the current trick,
                                   -1 if none
``last_trick``      (4,), int8     the previous trick, per seat
``played``          (4, 52), int8  every card each seat has played
``tricks_won``      (4,), int8     tricks won per seat this deal
``voids``           (4, 4), int8   suits each seat has shown out of
``scores``          (2,), int32    the game's team scores (NS, EW), phat included
``phat``            (2,), int32    phat won this deal per team
``muck``            (2,), int32    muck won so far this deal per team
``carry``           (), int64      muck bonus carried from 40-40 ties
``games_won``       (2,), int32    games won in the match per team
``action_mask``     (52,), int8    legal cards for this seat now
==================  =============  ===============================================
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import encoding
from ..encoding import ObsLayout, put_bits, put_seat_rows, put_tricks
from .constants import N_CARDS, PHASE_NAMES

__all__ = ["LAYOUT", "OBS_SHAPES", "encode_kernel"]

OBS_SHAPES = {
    "seat": ((), np.int64, 0, 3),
    "pitcher": ((), np.int64, 0, 3),
    "phase": ((), np.int64, 0, 1),
    "trumps": ((), np.int64, 0, 4),
    "trick_leader": ((), np.int64, -1, 3),
    "hand": ((N_CARDS,), np.int8, 0, 1),
    **encoding.trick_shapes(4, N_CARDS),
    **encoding.seat_shapes(4, N_CARDS, 4, 13),
    "scores": ((2,), np.int32, 0, 2**20),
    "phat": ((2,), np.int32, 0, 80),
    "muck": ((2,), np.int32, 0, 80),
    "carry": ((), np.int64, 0, 2**20),
    "games_won": ((2,), np.int32, 0, 2**20),
    "action_mask": ((N_CARDS,), np.int8, 0, 1),
}


# How each key becomes columns of the network-ready vector
# (:mod:`trickgym.games.obs_features`; seats and teams relative to the observer).
FEATURES = (
    ("hand", "bits", None),
    *encoding.play_features(N_CARDS, 13),
    ("phase", "onehot", (0, 1)),
    ("trumps", "onehot", (0, 4)),
    ("pitcher", "seat", None),
    ("trick_leader", "seat", None),
    ("scores", "scaled", (181, "teams")),
    ("phat", "scaled", (80, "teams")),
    ("muck", "scaled", (80, "teams")),
    ("carry", "scaled", 80),
    ("games_won", "scaled", (2, "teams")),
)
FEATURE_LABELS = {
    "voids": ("S", "H", "D", "C"),
    "phase": PHASE_NAMES,
    "trumps": ("none", "S", "H", "D", "C"),
}

# Where each int8 array starts in the flat buffer the encode kernel fills.
LAYOUT = ObsLayout(OBS_SHAPES)
(HAND, TRICK, LAST_TRICK, PLAYED, TRICKS_WON, VOIDS, MASK) = (
    LAYOUT.offsets[k] for k in LAYOUT.int8_keys
)


@njit(cache=True)
def encode_kernel(observations, j, buf, scalars, scores, phat, muck, games_won):
    """Write ``observations[j]`` into the flat int8 ``buf`` and the other arrays."""
    obs = observations[j]
    put_bits(buf, HAND, obs.hand, N_CARDS)
    put_tricks(buf, TRICK, LAST_TRICK, obs, 4, 4)
    put_seat_rows(buf, PLAYED, TRICKS_WON, VOIDS, obs, N_CARDS, 4, 4)
    put_bits(buf, MASK, obs.legal_cards, N_CARDS)
    for t in range(2):
        scores[t] = obs.scores[t]
        phat[t] = obs.phat[t]
        muck[t] = obs.muck[t]
        games_won[t] = obs.games_won[t]
    scalars[0] = obs.seat
    scalars[1] = obs.pitcher
    scalars[2] = obs.phase
    scalars[3] = obs.trumps + 1
    scalars[4] = obs.leader if obs.phase == 0 else -1
    scalars[5] = obs.carry
