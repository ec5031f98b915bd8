"""Troggu trick rules: follow suit, else trump, and the Fool hold-back.

Rules: ``troggu.md`` §6.1 (legal plays), §6.2 (the Fool), §6.3 (trick
winner), decisions TR-D4 and TR-D5. The kernels know nothing of a particular
deck: the caller passes the set of cards of the led suit (``led_mask``, 0
while nothing has been led), the set of all trumps including the Fool
(``trump_mask``) and the one-card set of the Fool (``fool``). In the TAROT
pack trumps I..XXI are bits 0..20 and the Fool bit 21, so the bit order is
also the trump order with the active Fool on top.

Whether a player has held back the Fool is per-player state kept by the
game; :func:`troggu_holds_back` tells the game when a play sets it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .whist import whist_beats

__all__ = ["troggu_holds_back", "troggu_legal", "troggu_trick_winner"]


@njit(cache=True, inline="always")
def troggu_legal(hand, led_mask, trump_mask, fool, held_back, last_trick):
    """Set of legal plays from ``hand`` (rules §6.1).

    Parameters
    ----------
    hand : uint64
        The player's cards.
    led_mask : uint64
        All cards of the led suit (``trump_mask`` when trumps were led); 0
        while nothing has been led, including after a held-back Fool lead.
    trump_mask : uint64
        All trumps, the Fool included.
    fool : uint64
        The one-card set of the Fool.
    held_back : bool
        Whether this player has held back the Fool earlier in the deal.
    last_trick : bool
        Whether this is the deal's last trick.
    """
    hand = np.uint64(hand)
    led_mask = np.uint64(led_mask)
    trump_mask = np.uint64(trump_mask)
    fool = np.uint64(fool)
    playable = hand
    if held_back and not last_trick:
        playable &= ~fool  # reserved for the last trick (TR-D5)
    if led_mask == 0:
        return playable
    live_trumps = playable & trump_mask
    if held_back:
        live_trumps &= ~fool  # a held-back Fool is no trump for obligations (TR-D5)
    if (led_mask & trump_mask) == 0:
        follow = playable & led_mask
        if follow:
            return follow
    # Trumps led, or void in the led plain suit: a trump is required.
    if live_trumps == 0:
        return playable
    if live_trumps == fool:
        # The Fool may be held back by playing any other card (§6.2, TR-D4);
        # a hand of the Fool alone gets {Fool} either way.
        return playable
    return live_trumps


@njit(cache=True, inline="always")
def troggu_holds_back(hand, led_mask, trump_mask, fool, held_back, card):
    """Whether playing ``card`` from ``hand`` holds back the Fool (rules §6.2).

    True when a trump is required (trumps led, or void in the led plain
    suit), the player's only live trump is the active Fool, and ``card`` is
    another card. Arguments are as for :func:`troggu_legal`; ``card`` is the
    card id played and is assumed legal.
    """
    hand = np.uint64(hand)
    led_mask = np.uint64(led_mask)
    trump_mask = np.uint64(trump_mask)
    fool = np.uint64(fool)
    if held_back or led_mask == 0:
        return False
    if (hand & trump_mask) != fool:  # the Fool must be the hand's only trump
        return False
    if (led_mask & trump_mask) == 0 and (hand & led_mask) != 0:
        return False  # can follow the plain suit, so no trump is required
    return (np.uint64(1) << np.uint64(card)) != fool


@njit(cache=True)
def troggu_trick_winner(cards, n, suit_of, trump_mask, held_back_pos):
    """Position (0..n-1) in play order of the card winning the trick (rules §6.3).

    ``cards[:n]`` are the card ids in the order played (a partial trick gives
    the current winner); ``suit_of`` maps a card id to its suit index;
    ``trump_mask`` is the set of all trumps, the Fool included;
    ``held_back_pos`` is the position of a held-back Fool in the trick, or -1.
    The held-back Fool is skipped: it has no suit and never wins, and if it
    was led the next card sets the led suit. Returns -1 when no card can win
    (the trick so far is only a held-back Fool).
    """
    trump_mask = np.uint64(trump_mask)
    best = -1
    for i in range(n):
        if i == held_back_pos:
            continue
        # The first live card sets the led suit; bit order is rank order,
        # with the active Fool above XXI.
        if best < 0 or whist_beats(cards[i], cards[best], suit_of, trump_mask):
            best = i
    return best
