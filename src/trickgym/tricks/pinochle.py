"""Pinochle trick rules: must follow, head, trump and over-trump.

Rules: ``pinochle.md`` §7.1 (legal plays), §7.2 (trick winner), option
``must_head`` and decisions PN-D1, PN-D11. In the PINOCHLE pack the two
copies of a card sit on adjacent bits ``2k`` and ``2k+1`` and kinds run
weakest to strongest inside a suit, so ``card >> 1`` orders the cards of one
suit and identical copies compare equal: the one played first keeps the
trick. Suits are passed as masks, as in :mod:`.whist`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["pinochle_beats", "pinochle_legal", "pinochle_trick_winner"]


@njit(cache=True, inline="always")
def _kinds_above(card):
    """Set of every bit of a strictly higher kind than ``card`` (any suit)."""
    top_copy = np.uint64(card) | np.uint64(1)
    # Shifting twice keeps a top copy on bit 63 well defined (gives 0 above).
    return ~(((np.uint64(1) << top_copy) << np.uint64(1)) - np.uint64(1))


@njit(cache=True, inline="always")
def _is_trump(card, trump_mask):
    return ((np.uint64(trump_mask) >> np.uint64(card)) & np.uint64(1)) != 0


@njit(cache=True, inline="always")
def pinochle_beats(card, winner, suit_of, trump_mask):
    """Whether ``card`` beats ``winner`` (rules §7.1 ``beats``).

    Same suit and a higher kind (an identical copy does not beat), or
    ``card`` is a trump and ``winner`` is not.
    """
    if suit_of[card] == suit_of[winner]:
        return (card >> 1) > (winner >> 1)
    return _is_trump(card, trump_mask)  # suits differ, so the winner is no trump


@njit(cache=True, inline="always")
def pinochle_legal(hand, led_mask, trump_mask, win_card, must_head):
    """Set of legal plays from ``hand`` (rules §7.1).

    Parameters
    ----------
    hand : uint64
        The player's cards.
    led_mask : uint64
        All cards of the led suit; 0 when the player leads (all cards legal).
    trump_mask : uint64
        All cards of the trump suit.
    win_card : int
        Card id currently winning the trick (see :func:`pinochle_trick_winner`);
        ignored when ``led_mask`` is 0.
    must_head : bool
        Table option: must beat the current winner when able, and over-trump
        when able. False keeps only must follow and must trump (PN-D11).
    """
    hand = np.uint64(hand)
    led_mask = np.uint64(led_mask)
    trump_mask = np.uint64(trump_mask)
    if led_mask == 0:
        return hand
    win_is_trump = _is_trump(win_card, trump_mask)
    same = hand & led_mask
    if same:
        if not must_head:
            return same
        if (led_mask & trump_mask) == 0 and win_is_trump:
            return same  # the trick is already trumped: no need to beat it
        # Here the winner is of the led suit, so "beats" is "higher kind".
        higher = same & _kinds_above(win_card)
        return higher if higher else same
    trumps = hand & trump_mask
    if trumps:
        if not must_head:
            return trumps
        higher = trumps & _kinds_above(win_card) if win_is_trump else trumps
        return higher if higher else trumps  # over-trump when able, else under-trump
    return hand


@njit(cache=True)
def pinochle_trick_winner(cards, n, suit_of, trump_mask):
    """Position (0..n-1) in play order of the card winning the trick (rules §7.2).

    ``cards[:n]`` are the card ids in the order played (a partial trick gives
    the current winner, as needed by :func:`pinochle_legal`); ``suit_of``
    maps a card id to its suit index; ``trump_mask`` is the set of trumps.
    A later identical copy does not beat, so the first played wins (PN-D1).
    """
    trump_mask = np.uint64(trump_mask)
    best = 0
    for i in range(1, n):
        if pinochle_beats(cards[i], cards[best], suit_of, trump_mask):
            best = i
    return best
