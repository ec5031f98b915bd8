"""Dealing unseen cards to their possible holders: the sampling core of every game.

A determinisation gives each hidden holder (another seat's hand, a Tapp, a
kitty, buried discards) a fixed number of cards from a pool, each card only
to a holder allowed to have it (shown voids, cards only some holders can
hold). :func:`deal_once` draws one uniformly random assignment of the pool
to the holders' slots and rejects it on the first card outside its holder's
allowed set, so an accepted deal is uniform over all consistent deals (a
rejection sampler of the uniform deal). :func:`deal_fallback` always
succeeds but is not exactly uniform; callers use it only after many
rejections and report it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.cards.bits import bit, popcount
from trickgym.rng import below

__all__ = ["MAX_HOLDERS", "deal_fallback", "deal_once", "pool_cards"]

MAX_HOLDERS = 9  # up to 7 other Troggu seats, a hidden pile, and room


SAMPLE_TRIES = 2000  # rejections before the (not exactly uniform) fallback


@njit(cache=True)
def allowed_by_voids(voids, suit_masks, all_cards):
    """The cards of ``all_cards`` a seat may hold: none of a suit it has shown out of.

    ``voids`` is the seat's bit set of suits (bit ``s`` for ``suit_masks[s]``).
    """
    allowed = all_cards
    for s in range(len(suit_masks)):
        if (voids >> s) & 1:
            allowed &= ~suit_masks[s]
    return allowed


@njit(cache=True)
def pool_cards(pool, out):
    """Write the cards of the set ``pool`` into ``out`` ascending; return their number."""
    n = 0
    bits = np.uint64(pool)
    while bits:
        low = bits & (~bits + np.uint64(1))
        c = 0
        t = low
        while t > np.uint64(1):
            t >>= np.uint64(1)
            c += 1
        out[n] = c
        n += 1
        bits &= ~low
    return n


@njit(cache=True)
def deal_once(cards, n_cards, n_holders, caps, allowed, out, rng):
    """One try: deal ``cards[:n_cards]`` at random, ``caps[h]`` to holder ``h``.

    ``out[h]`` receives holder ``h``'s cards (it is overwritten). The slots
    are filled in holder order from a Fisher-Yates shuffle drawn card by
    card; the try stops at the first card outside ``allowed[h]`` and
    returns False. ``sum(caps) == n_cards`` is assumed. An accepted deal is
    uniform over the deals respecting ``allowed``.
    """
    for h in range(n_holders):
        out[h] = 0
    h = 0
    left = caps[0] if n_holders > 0 else 0
    for i in range(n_cards):
        while left == 0:
            h += 1
            left = caps[h]
        j = i + below(rng, n_cards - i)
        c = cards[j]
        cards[j] = cards[i]
        cards[i] = c
        b = bit(c)
        if not (b & allowed[h]):
            return False
        out[h] |= b
        left -= 1
    return True


@njit(cache=True)
def deal_fallback(cards, n_cards, n_holders, caps, allowed, out, rng):
    """A consistent deal that always exists if one does, not exactly uniform.

    Cards with the fewest possible holders go first, each to a random
    allowed holder weighted by its free slots; a dead end restarts (up to 64
    times), and a last resort ignores ``allowed`` (hand sizes still hold).
    Returns whether ``allowed`` was respected.
    """
    free = np.empty(n_holders, dtype=np.int64)
    order = np.empty(n_cards, dtype=np.int64)
    options = np.empty(n_cards, dtype=np.int64)
    for i in range(n_cards):
        k = 0
        for h in range(n_holders):
            if caps[h] > 0 and (bit(cards[i]) & allowed[h]):
                k += 1
        options[i] = k
    # Most constrained first (insertion sort: a few dozen cards at most).
    for i in range(n_cards):
        order[i] = i
    for i in range(1, n_cards):
        j = i
        while j > 0 and options[order[j - 1]] > options[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    for attempt in range(65):
        strict = attempt < 64
        for h in range(n_holders):
            out[h] = 0
            free[h] = caps[h]
        ok = True
        for i in range(n_cards):
            c = cards[order[i]]
            b = bit(c)
            total = 0
            for h in range(n_holders):
                if free[h] > 0 and (not strict or (b & allowed[h])):
                    total += free[h]
            if total == 0:
                ok = False
                break
            r = below(rng, total)
            for h in range(n_holders):
                if free[h] > 0 and (not strict or (b & allowed[h])):
                    if r < free[h]:
                        out[h] |= b
                        free[h] -= 1
                        break
                    r -= free[h]
        if ok:
            return strict
    return False


@njit(cache=True)
def count_cards(cards_set):
    """Number of cards in a set (popcount), for callers' hand sizes."""
    return popcount(np.uint64(cards_set))
