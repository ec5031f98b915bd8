"""Fixed-shape array form of a Troggu information set.

One layout serves every table size: per-seat arrays have 8 rows and seats
``>= n_players`` are padding (``-1`` or ``0``). Seats are absolute; ``seat``
says whose view it is.

====================  ==============  ============================================
key                   shape, dtype    meaning
====================  ==============  ============================================
``seat``              (), int64       the observing seat
``n_players``         (), int64       3..8
``dealer``            (), int64       the dealer
``phase``             (), int64       0 auction, 1 discard, 2 partner call,
                                      3 play, 4 deal over
``contract``          (), int64       0 none yet, 1 Misère, 2 Tapp, 3 forced
                                      Tapp, 4 Solo
``declarer``          (), int64       Tappist or Soloist, -1 if none
``called_card``       (), int64       the partner's trump named, -1 if none
``partner``           (), int64       the partner once known to this seat
                                      (revealed, or the seat itself), else -1
``trick_leader``      (), int64       leader of the current trick, -1 if none
``held_back``         (), int64       1 if this seat has held back the Fool
``hand``              (62,), int8     own cards
``tapp``              (62,), int8     the Tapp: seen only by the Tappist
``discards``          (62,), int8     the Tappist's discards: seen only by them
``auction``           (8,), int8      each seat's call: -1 not spoken, 0 Pass,
                                      1 Tapp, 2 Solo
``trick``             (8,), int8      card each seat played to the current
                                      trick, -1 if none
``last_trick``        (8,), int8      the previous trick, per seat
``played``            (8, 62), int8   every card each seat has played
``tricks_won``        (8,), int8      tricks won per seat
``voids``             (8, 5), int8    suits (trumps, C, D, S, B) each seat has
                                      failed to follow (a Fool may be held back)
``trick_points``      (8,), int16     card points in each seat's won tricks
``scores``            (8,), int32     match scores before this deal ends
``action_mask``       (66,), int8     legal actions for this seat now
====================  ==============  ============================================
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import encoding
from ..encoding import ObsLayout, put_bits, put_seat_rows, put_tricks
from .constants import CALL_BASE, CONTRACT_NAMES, MAX_PLAYERS, N_ACTIONS, N_CARDS, PHASE_NAMES

__all__ = ["LAYOUT", "OBS_SHAPES", "encode_kernel"]

P = MAX_PLAYERS
OBS_SHAPES = {
    "seat": ((), np.int64, 0, P - 1),
    "n_players": ((), np.int64, 3, P),
    "dealer": ((), np.int64, 0, P - 1),
    "phase": ((), np.int64, 0, 4),
    "contract": ((), np.int64, 0, 4),
    "declarer": ((), np.int64, -1, P - 1),
    "called_card": ((), np.int64, -1, N_CARDS - 1),
    "partner": ((), np.int64, -1, P - 1),
    "trick_leader": ((), np.int64, -1, P - 1),
    "held_back": ((), np.int64, 0, 1),
    "hand": ((N_CARDS,), np.int8, 0, 1),
    "tapp": ((N_CARDS,), np.int8, 0, 1),
    "discards": ((N_CARDS,), np.int8, 0, 1),
    "auction": ((P,), np.int8, -1, 2),
    **encoding.trick_shapes(P, N_CARDS),
    **encoding.seat_shapes(P, N_CARDS, 5, 18),
    "trick_points": ((P,), np.int16, 0, 114),
    "scores": ((P,), np.int32, -(2**30), 2**30),
    "action_mask": ((N_ACTIONS,), np.int8, 0, 1),
}


# How each key becomes columns of the network-ready vector
# (:mod:`trickgym.games.obs_features`; seats relative to the observer).
FEATURES = (
    ("hand", "bits", None),
    ("tapp", "bits", None),
    ("discards", "bits", None),
    *encoding.play_features(N_CARDS, 18),
    ("trick_points", "scaled", (114, "seats")),
    ("auction", "onehot", (0, 2, "seats")),
    ("n_players", "onehot", (3, P)),
    ("phase", "onehot", (0, 4)),
    ("contract", "onehot", (0, 4)),
    ("dealer", "seat", None),
    ("declarer", "seat", None),
    ("partner", "seat", None),
    ("trick_leader", "seat", None),
    ("called_card", "onehot", (0, N_CARDS - 1)),
    ("held_back", "scaled", 1),
    ("scores", "scaled", (100, "seats")),
)
FEATURE_LABELS = {
    "voids": ("trumps", "C", "D", "S", "B"),
    "phase": PHASE_NAMES,
    "contract": CONTRACT_NAMES,
    "auction": ("pass", "tapp", "solo"),
    "n_players": {v: str(v) for v in range(3, P + 1)},
}

# Where each int8 array starts in the flat buffer the encode kernel fills.
LAYOUT = ObsLayout(OBS_SHAPES)
(HAND, TAPP, DISCARDS, AUCTION, TRICK, LAST_TRICK, PLAYED, TRICKS_WON, VOIDS, MASK) = (
    LAYOUT.offsets[k] for k in LAYOUT.int8_keys
)


@njit(cache=True)
def encode_kernel(observations, j, buf, scalars, points, scores):
    """Write ``observations[j]`` into the flat int8 ``buf`` and the other arrays."""
    obs = observations[j]
    n = obs.n_players
    put_bits(buf, HAND, obs.hand, N_CARDS)
    put_bits(buf, TAPP, obs.tapp, N_CARDS)
    put_bits(buf, DISCARDS, obs.discards, N_CARDS)
    put_tricks(buf, TRICK, LAST_TRICK, obs, n, P)
    put_seat_rows(buf, PLAYED, TRICKS_WON, VOIDS, obs, N_CARDS, 5, P)
    for s in range(P):
        buf[AUCTION + s] = obs.calls[s]
        points[s] = obs.trick_points[s]
        scores[s] = obs.scores[s]
    put_bits(buf, MASK, obs.legal_cards, CALL_BASE)
    put_bits(buf, MASK + CALL_BASE, obs.legal_calls, N_ACTIONS - CALL_BASE)
    scalars[0] = obs.seat
    scalars[1] = n
    scalars[2] = obs.dealer
    scalars[3] = obs.phase
    scalars[4] = obs.contract
    scalars[5] = obs.declarer
    scalars[6] = obs.called_card
    scalars[7] = obs.partner
    scalars[8] = obs.leader if obs.phase == 3 else -1
    scalars[9] = obs.held_back
