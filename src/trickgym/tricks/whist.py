"""Whist-family trick rules: follow suit, else any card; trumps optional.

Used by Solo Whist and Phat (52-card pack). Suits are given as masks so the
kernels know nothing of a particular deck: ``led_mask`` is the set of cards
of the led suit (0 when leading), ``trump_mask`` the set of trumps (0 for no
trumps).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["whist_beats", "whist_legal", "whist_trick_winner"]


@njit(cache=True, inline="always")
def whist_legal(hand, led_mask):
    """Legal plays from ``hand``: the cards of the led suit if any, else all.

    ``led_mask`` is 0 when the player leads, which leaves every card legal.
    """
    follow = hand & led_mask
    return follow if follow else hand


@njit(cache=True, inline="always")
def whist_beats(card, winner, suit_of, trump_mask):
    """Whether ``card`` beats the trick's current winning card ``winner``.

    The winner is always of the led suit or a trump, so a card of the same
    suit beats it when higher (bits run weakest to strongest) and a card of
    another suit beats it only when it is a trump.
    """
    if suit_of[card] == suit_of[winner]:
        return card > winner
    return (trump_mask >> np.uint64(card)) & np.uint64(1) != 0


@njit(cache=True)
def whist_trick_winner(cards, n, suit_of, trump_mask):
    """Position (0..n-1) in play order of the winning card of a trick.

    ``cards[:n]`` are the card ids in the order played; ``suit_of`` maps a
    card id to its suit index; ``trump_mask`` is the set of trumps (0: none).
    """
    best = 0
    for i in range(1, n):
        if whist_beats(cards[i], cards[best], suit_of, trump_mask):
            best = i
    return best
