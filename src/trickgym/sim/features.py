"""Hand features of the declarer's hand, written into every simulation row.

Analysis groups bid success by hand type (trump length, top trumps, high-card
points, shape) without re-dealing, so each row carries ``hf_*`` columns for
the hand **as dealt** to the declarer (Phat: the pitcher), before any
exchange (Troggu's Tapp, Pinochle's kitty or card passing). A row without a
declarer (a passed-out deal, a Troggu Misère) has every feature at -1, and a
trump feature is -1 when the contract has no trump suit (Solo Whist's
Misère, Misère Ouverte and Abundance Declared).

Features, by game (the names are a contract with ``trickgym.analysis``):

- Solo Whist: ``hf_trump_len`` (cards of the trump suit), ``hf_trump_top``
  (how many of A K Q J of trumps), ``hf_hcp`` (A 4, K 3, Q 2, J 1 over the
  hand), ``hf_voids``, ``hf_singletons``, ``hf_longest`` (longest suit).
- Troggu: ``hf_trumps`` (trumps I..XXI held, the Fool not counted),
  ``hf_high_trumps`` (of XV..XXI), ``hf_fool`` (0/1), ``hf_kings``.
- Pinochle: ``hf_meld`` (the dealt hand's meld in the declared trump),
  ``hf_trump_len`` (cards of the trump suit, both copies counted),
  ``hf_aces`` (0..8).
- Phat: ``hf_trump_len``, ``hf_hcp`` (A4 K3 Q2 J1), ``hf_voids`` of the
  pitcher's hand (trumps: the suit of the pitcher's first card).
"""

from __future__ import annotations

import numpy as np
from numba import literal_unroll, njit

from trickgym.cards.bits import popcount
from trickgym.games import DESCRIPTIONS
from trickgym.games.pinochle.meld import meld

__all__ = [
    "FEATURE_COLUMNS",
    "FEATURE_DESCRIPTIONS",
    "feature_fields",
    "no_features",
    "pinochle_features",
    "put_features",
    "troggu_features",
    "whist_features",
]

# Each game's description names its columns with their meanings (the report's data
# dictionary; -1 is always "does not apply"): GameDescription.hand_features.
FEATURE_COLUMNS = {n: tuple(d.hand_features) for n, d in DESCRIPTIONS.items() if d.hand_features}
FEATURE_DESCRIPTIONS = {
    n: dict(d.hand_features) for n, d in DESCRIPTIONS.items() if d.hand_features
}


def feature_fields(game: str, wide=()) -> list[tuple]:
    """The rows' ``hf_*`` fields of ``game``: ``int8``, or ``int16`` for the ``wide`` ones."""
    return [(c, np.int16 if c in wide else np.int8) for c in FEATURE_COLUMNS[game]]


_SUIT13 = np.uint64((1 << 13) - 1)
_TOP4 = np.uint64(0b1111 << 9)  # J Q K A of a 13-card suit (ranks 9..12)
# The Tarot pack: trumps I..XXI on bits 0..20, the Fool on 21, the King of each
# suit on its highest bit (Cups 31, Coins 41, Swords 51, Batons 61).
_TAROT_TRUMPS = np.uint64((1 << 21) - 1)
_TAROT_HIGH = np.uint64(((1 << 21) - 1) ^ ((1 << 14) - 1))  # XV..XXI
_TAROT_FOOL = np.uint64(1 << 21)
_TAROT_KINGS = np.uint64((1 << 31) | (1 << 41) | (1 << 51) | (1 << 61))
# Pinochle: suits of 12 bits, ranks 9 J Q K 10 A with two copies each.
_PINOCHLE_SUIT = np.uint64((1 << 12) - 1)
_PINOCHLE_ACES = np.uint64(sum(0b11 << (12 * s + 10) for s in range(4)))


@njit(cache=True)
def whist_features(hand, trumps):
    """``(trump_len, trump_top, hcp, voids, singletons, longest)`` of a 52-card hand.

    ``trumps`` is a suit 0..3, or -1 for none (the two trump features are
    then -1). High-card points: A 4, K 3, Q 2, J 1.
    """
    hand = np.uint64(hand)
    hcp = 0
    voids = 0
    singletons = 0
    longest = 0
    for s in range(4):
        cards = (hand >> np.uint64(13 * s)) & _SUIT13
        n = popcount(cards)
        voids += n == 0
        singletons += n == 1
        longest = max(longest, n)
        for r in range(4):  # J Q K A
            if cards & np.uint64(1 << (9 + r)):
                hcp += r + 1
    trump_len = -1
    trump_top = -1
    if trumps >= 0:
        cards = (hand >> np.uint64(13 * trumps)) & _SUIT13
        trump_len = popcount(cards)
        trump_top = popcount(cards & _TOP4)
    return trump_len, trump_top, hcp, voids, singletons, longest


@njit(cache=True)
def troggu_features(hand):
    """``(trumps, high_trumps, fool, kings)`` of a Tarot hand (see the module notes)."""
    hand = np.uint64(hand)
    return (
        popcount(hand & _TAROT_TRUMPS),
        popcount(hand & _TAROT_HIGH),
        popcount(hand & _TAROT_FOOL),
        popcount(hand & _TAROT_KINGS),
    )


@njit(cache=True)
def pinochle_features(hand, trumps):
    """``(meld, trump_len, aces)`` of a Pinochle hand with ``trumps`` (suit 0..3)."""
    hand = np.uint64(hand)
    points, _ = meld(hand, trumps)
    trump_len = popcount((hand >> np.uint64(12 * trumps)) & _PINOCHLE_SUIT)
    return points, trump_len, popcount(hand & _PINOCHLE_ACES)


@njit(cache=True)
def put_features(row, columns, values):
    """Write ``values`` (a tuple of ints, one per column) into ``row``'s ``columns``.

    ``columns`` is the game's ``FEATURE_COLUMNS`` tuple, in the order its
    features function returns them.
    """
    i = 0
    for name in literal_unroll(columns):
        row[name] = values[i]
        i += 1


@njit(cache=True)
def no_features(row, columns):
    """-1 in every feature column of ``row``: the row has no declarer's hand."""
    for name in literal_unroll(columns):
        row[name] = -1
