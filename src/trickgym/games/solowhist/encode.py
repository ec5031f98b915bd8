"""Fixed-shape array form of a Solo Whist information set.

The same dict is what ``State.observe(seat)`` returns, what a Python agent's
``act(observation, action_mask)`` receives and what the Gymnasium env emits,
so every consumer sees one encoding. Seats are absolute (0..3); ``seat`` says
whose view it is.

======================  ==============  ==========================================
key                     shape, dtype    meaning
======================  ==============  ==========================================
``seat``                (), int64       the observing seat
``dealer``              (), int64       the dealer
``turn_up``             (), int64       the exposed card (card id, 0..51)
``phase``               (), int64       0 auction .. 5 deal over
``hand``                (52,), int8     own cards
``auction``             (16, 2), int8   ``[seat, call]`` per call in order (call =
                                        action - 52), ``-1`` padding
``contract``            (), int64       0 none/passed out, 1 Prop & Cop .. 7
``declarers``           (4,), int8      seats of the declaring side
``trumps``              (), int64       0 no trumps, 1..4 for ♠ ♥ ♦ ♣
``trick``               (4,), int8      card each seat played to the current
                                        trick, ``-1`` if none
``trick_leader``        (), int64       leader of the current trick (-1 none)
``last_trick``          (4,), int8      the previous trick, per seat
``played``              (4, 52), int8   every card each seat has played
``tricks_won``          (4,), int8      tricks won per seat this deal
``voids``               (4, 4), int8    suits each seat has shown out of
``exposed``             (52,), int8     the Misère Ouverte declarer's cards once
                                        exposed (rules §6)
``scores``              (4,), int32     match scores before this deal ends
``action_mask``         (66,), int8     legal actions for this seat now
======================  ==============  ==========================================
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..encoding import ObsLayout, put_bits, put_seat_rows, put_tricks, seat_shapes
from .constants import CALL_BASE, CONTRACT_NAMES, MAX_CALLS, N_ACTIONS, N_CARDS, PHASE_NAMES

__all__ = ["LAYOUT", "OBS_SHAPES", "encode_kernel"]

OBS_SHAPES = {
    "seat": ((), np.int64, 0, 3),
    "dealer": ((), np.int64, 0, 3),
    "turn_up": ((), np.int64, 0, 51),
    "phase": ((), np.int64, 0, 5),
    "hand": ((N_CARDS,), np.int8, 0, 1),
    "auction": ((MAX_CALLS, 2), np.int8, -1, 13),
    "contract": ((), np.int64, 0, 7),
    "declarers": ((4,), np.int8, 0, 1),
    "trumps": ((), np.int64, 0, 4),
    "trick": ((4,), np.int8, -1, 51),
    "trick_leader": ((), np.int64, -1, 3),
    "last_trick": ((4,), np.int8, -1, 51),
    **seat_shapes(4, N_CARDS, 4, 13),
    "exposed": ((N_CARDS,), np.int8, 0, 1),
    "scores": ((4,), np.int32, -(2**30), 2**30),
    "action_mask": ((N_ACTIONS,), np.int8, 0, 1),
}


# How each key becomes columns of the network-ready vector
# (:mod:`trickgym.games.obs_features`; seats relative to the observer).
FEATURES = (
    ("hand", "bits", None),
    ("played", "bits", "seats"),
    ("trick", "onehot", (0, N_CARDS - 1, "seats")),
    ("last_trick", "onehot", (0, N_CARDS - 1, "seats")),
    ("exposed", "bits", None),
    ("voids", "bits", "seats"),
    ("declarers", "scaled", (1, "seats")),
    ("tricks_won", "scaled", (13, "seats")),
    ("phase", "onehot", (0, 5)),
    ("contract", "onehot", (0, 7)),
    ("trumps", "onehot", (0, 4)),
    ("turn_up", "onehot", (0, N_CARDS - 1)),
    ("dealer", "seat", None),
    ("trick_leader", "seat", None),
    ("auction", "calls", N_ACTIONS - CALL_BASE - 1),
    ("scores", "scaled", (100, "seats")),
)
FEATURE_LABELS = {
    "voids": ("S", "H", "D", "C"),
    "phase": PHASE_NAMES,
    "contract": CONTRACT_NAMES,
    "trumps": ("none", "S", "H", "D", "C"),
}

# Where each int8 array starts in the flat buffer the encode kernel fills.
LAYOUT = ObsLayout(OBS_SHAPES)
(HAND, AUCTION, DECLARERS, TRICK, LAST_TRICK, PLAYED, TRICKS_WON, VOIDS, EXPOSED, MASK) = (
    LAYOUT.offsets[k] for k in LAYOUT.int8_keys
)


@njit(cache=True)
def encode_kernel(observations, j, buf, scalars, scores):
    """Write ``observations[j]`` into the flat int8 ``buf``, ``scalars`` and ``scores``.

    ``buf`` holds the int8 arrays of the module table back to back
    (``LAYOUT.buffer_size`` bytes); ``scalars`` the scalar entries in table order.
    """
    obs = observations[j]
    put_bits(buf, HAND, obs.hand, N_CARDS)
    for i in range(MAX_CALLS):
        in_auction = i < obs.n_calls
        buf[AUCTION + 2 * i] = obs.call_seats[i] if in_auction else -1
        buf[AUCTION + 2 * i + 1] = obs.calls[i] - CALL_BASE if in_auction else -1
    put_bits(buf, DECLARERS, obs.declarers, 4)
    put_tricks(buf, TRICK, LAST_TRICK, obs, 4, 4)
    put_seat_rows(buf, PLAYED, TRICKS_WON, VOIDS, obs, N_CARDS, 4, 4)
    for s in range(4):
        scores[s] = obs.scores[s]
    put_bits(buf, EXPOSED, obs.exposed_hand, N_CARDS)
    put_bits(buf, MASK, obs.legal_cards, CALL_BASE)
    put_bits(buf, MASK + CALL_BASE, obs.legal_calls, N_ACTIONS - CALL_BASE)
    scalars[0] = obs.seat
    scalars[1] = obs.dealer
    scalars[2] = obs.turn_up
    scalars[3] = obs.phase
    scalars[4] = obs.contract
    scalars[5] = obs.trumps + 1
    scalars[6] = obs.leader if obs.phase == 4 else -1
