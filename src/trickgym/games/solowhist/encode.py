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

from .constants import CALL_BASE, MAX_CALLS, N_ACTIONS, N_CARDS

__all__ = ["OBS_SHAPES", "action_mask", "bits_to_array", "encode_observation"]

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
    "played": ((4, N_CARDS), np.int8, 0, 1),
    "tricks_won": ((4,), np.int8, 0, 13),
    "voids": ((4, 4), np.int8, 0, 1),
    "exposed": ((N_CARDS,), np.int8, 0, 1),
    "scores": ((4,), np.int32, -(2**30), 2**30),
    "action_mask": ((N_ACTIONS,), np.int8, 0, 1),
}

_SHIFTS = np.arange(64, dtype=np.uint64)


def bits_to_array(mask, n: int) -> np.ndarray:
    """0/1 ``int8`` array of the low ``n`` bits of ``mask`` (scalar or array of uint64)."""
    mask = np.asarray(mask, dtype=np.uint64)
    return ((mask[..., None] >> _SHIFTS[:n]) & np.uint64(1)).astype(np.int8)


def action_mask(legal_cards, legal_calls) -> np.ndarray:
    """0/1 ``int8`` mask over all actions from the two legal bit sets."""
    return np.concatenate(
        [bits_to_array(legal_cards, CALL_BASE), bits_to_array(legal_calls, N_ACTIONS - CALL_BASE)]
    )


def _by_seat(cards, leader) -> np.ndarray:
    out = np.full(4, -1, dtype=np.int8)
    for pos, card in enumerate(cards):
        if card >= 0:
            out[(leader + pos) % 4] = card
    return out


def encode_observation(obs) -> dict[str, np.ndarray]:
    """Dict of fixed-shape arrays (see the module table) from an ``OBS_DTYPE`` record."""
    auction = np.full((MAX_CALLS, 2), -1, dtype=np.int8)
    n = int(obs["n_calls"])
    auction[:n, 0] = obs["call_seats"][:n]
    auction[:n, 1] = obs["calls"][:n] - CALL_BASE
    leader = int(obs["leader"])
    return {
        "seat": np.int64(obs["seat"]),
        "dealer": np.int64(obs["dealer"]),
        "turn_up": np.int64(obs["turn_up"]),
        "phase": np.int64(obs["phase"]),
        "hand": bits_to_array(obs["hand"], N_CARDS),
        "auction": auction,
        "contract": np.int64(obs["contract"]),
        "declarers": bits_to_array(obs["declarers"], 4),
        "trumps": np.int64(obs["trumps"] + 1),
        "trick": _by_seat(obs["trick_cards"], leader)
        if obs["trick_n"] > 0
        else np.full(4, -1, np.int8),
        "trick_leader": np.int64(leader if obs["phase"] == 4 else -1),
        "last_trick": _by_seat(obs["last_trick_cards"], int(obs["last_leader"])),
        "played": bits_to_array(obs["played"], N_CARDS),
        "tricks_won": obs["tricks_won"].astype(np.int8),
        "voids": bits_to_array(obs["voids"], 4),
        "exposed": bits_to_array(obs["exposed_hand"], N_CARDS),
        "scores": obs["scores"].astype(np.int32),
        "action_mask": action_mask(obs["legal_cards"], obs["legal_calls"]),
    }
