"""The dtype fields of trick play that every game's state and observation hold.

Each game's ``state.py`` builds its ``STATE_DTYPE`` and ``OBS_DTYPE`` from
its own fields and these shared pieces (in place, so the layouts are what
they were); :mod:`trickgym.games.trick_play` is the code that reads and
writes them.
"""

from __future__ import annotations

import numpy as np

__all__ = ["observed_play_fields", "seat_play_fields", "whist_trick_fields"]


def whist_trick_fields(n_seats: int) -> list[tuple]:
    """A whist-like game's current and last trick, ``n_seats`` cards each."""
    return [
        ("trick_no", np.int8),  # completed tricks
        ("leader", np.int8),
        ("trick_n", np.int8),  # cards in the current trick
        ("trick_cards", np.int8, (n_seats,)),
        ("win_pos", np.int8),  # position of the currently winning card in the trick
        ("led_mask", np.uint64),  # cards of the led suit; 0 when leading
        ("last_trick_cards", np.int8, (n_seats,)),
        ("last_leader", np.int8),
    ]


def seat_play_fields(n_seats: int) -> list[tuple]:
    """Per seat: tricks won, cards played, suits shown out of (suit-index bits)."""
    return [
        ("tricks_won", np.int8, (n_seats,)),
        ("played", np.uint64, (n_seats,)),
        ("voids", np.uint8, (n_seats,)),
    ]


def observed_play_fields(n_seats: int) -> list[tuple]:
    """What every seat sees of the play: the current and last trick, and per seat
    the tricks won, cards played and suits shown out of."""
    return [
        ("trick_no", np.int8),
        ("leader", np.int8),
        ("trick_n", np.int8),
        ("trick_cards", np.int8, (n_seats,)),
        ("last_trick_cards", np.int8, (n_seats,)),
        ("last_leader", np.int8),
        *seat_play_fields(n_seats),
    ]
