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

from trickgym.cards.bits import bit, lowest_bit, popcount
from trickgym.cards.decks import STANDARD
from trickgym.rng import below

__all__ = [
    "MAX_HOLDERS",
    "allowed_by_voids",
    "deal_fallback",
    "deal_once",
    "deal_standard_hands",
    "pool_cards",
]

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
        out[n] = lowest_bit(bits)
        n += 1
        bits &= bits - np.uint64(1)
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


_STANDARD_ALL = np.uint64((1 << 52) - 1)
_STANDARD_SUITS = STANDARD.suit_masks.copy()


@njit(cache=True)
def deal_standard_hands(obs, fixed, rng, hands):
    """Four 13-card hands of the standard pack consistent with ``obs`` (Solo Whist, Phat).

    ``obs`` is the seat's observation record (``seat``, ``hand``, ``played``
    per seat, ``voids`` per seat); ``fixed[s]`` are cards known to be in
    seat ``s``'s hand besides its own. Fills ``hands[0:4]`` with the current
    hands; returns True when the draw was exactly uniform over consistent
    deals (rejection sampling, else :func:`deal_fallback`).
    """
    seat = obs.seat
    known = obs.hand
    for s in range(4):
        known |= obs.played[s]
    pool = _STANDARD_ALL & ~known
    for s in range(4):
        pool &= ~fixed[s]
    caps = np.zeros(3, dtype=np.int64)
    allowed = np.zeros(3, dtype=np.uint64)
    who = np.zeros(3, dtype=np.int64)
    k = 0
    for s in range(4):
        if s != seat:
            who[k] = s
            caps[k] = 13 - popcount(obs.played[s]) - popcount(fixed[s])
            allowed[k] = allowed_by_voids(obs.voids[s], _STANDARD_SUITS, _STANDARD_ALL)
            k += 1
    cards = np.empty(52, dtype=np.int64)
    n = pool_cards(pool, cards)
    part = np.zeros(3, dtype=np.uint64)
    uniform = False
    for _ in range(SAMPLE_TRIES):
        if deal_once(cards, n, 3, caps, allowed, part, rng):
            uniform = True
            break
    if not uniform:
        deal_fallback(cards, n, 3, caps, allowed, part, rng)
    hands[seat] = obs.hand
    for k in range(3):
        hands[who[k]] = part[k] | fixed[who[k]]
    return uniform
