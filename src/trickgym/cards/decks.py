"""Deck descriptions: which bit is which card, suit masks, points, names.

Every pack fits in one ``uint64``. Inside a suit, bits run from the weakest
card to the strongest, so the best card of a suit in a set is the highest set
bit of ``set & suit_mask``.

Layouts
-------
``STANDARD`` (52): bit ``13*s + r``; suits ``S H D C`` (s = 0..3), ranks
``2 3 4 5 6 7 8 9 T J Q K A`` (r = 0..12).

``TAROT`` (62, Troggu): bits 0..20 trumps I..XXI, bit 21 the Fool (top
trump), then Cups ``C`` 22..31, Coins ``D`` 32..41, Swords ``S`` 42..51 and
Batons ``B`` 52..61. Round suits (C, D) run ``6 5 4 3 2 1 J N Q K``, long suits
(S, B) ``5 6 7 8 9 10 J N Q K`` (weakest first). Suit index 0 is trumps.

``PINOCHLE`` (48): suits ``S H D C`` of 12 bits, ranks ``9 J Q K 10 A``
weakest first, two copies of each card on adjacent bits (bit ``12*s + 2*r +
copy``). ``card >> 1`` identifies a kind: identical copies compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["DECKS", "PINOCHLE", "STANDARD", "TAROT", "Deck"]


@dataclass(frozen=True, eq=False)
class Deck:
    """A pack of at most 64 cards laid out on the bits of a ``uint64``.

    Attributes
    ----------
    name : str
        Short name (``"standard"``, ``"tarot"``, ``"pinochle"``).
    n_cards : int
        Number of cards; card ids are ``0..n_cards-1``.
    suit_letters : tuple[str, ...]
        One letter per suit index, as used in card notation.
    suit_symbols : tuple[str, ...]
        Display symbol per suit index (unicode where one exists).
    suit_of : np.ndarray[int64], shape (n_cards,)
        Suit index of every card.
    suit_masks : np.ndarray[uint64], shape (n_suits,)
        Set of all cards of each suit.
    rank_names : tuple[str, ...]
        Rank part of each card's name (``"A"``, ``"10"``, ``"XXI"``, ``"Fool"``).
    points : np.ndarray[int64], shape (n_cards,)
        Card points (all zero for the standard pack).
    copies : int
        Identical copies of every card (2 for Pinochle).
    """

    name: str
    n_cards: int
    suit_letters: tuple[str, ...]
    suit_symbols: tuple[str, ...]
    suit_of: np.ndarray
    suit_masks: np.ndarray
    rank_names: tuple[str, ...]
    points: np.ndarray
    copies: int = 1
    card_names: tuple[str, ...] = field(init=False)

    def __post_init__(self):
        for arr in (self.suit_of, self.suit_masks, self.points):
            arr.setflags(write=False)
        names = tuple(self._name(c) for c in range(self.n_cards))
        object.__setattr__(self, "card_names", names)

    @property
    def n_suits(self) -> int:
        """Number of suits (trumps count as a suit in the Tarot pack)."""
        return len(self.suit_letters)

    @property
    def full_mask(self) -> int:
        """The set of every card of the pack."""
        return (1 << self.n_cards) - 1

    def _name(self, card: int) -> str:
        rank = self.rank_names[card]
        if self.name == "tarot" and self.suit_of[card] == 0:
            return rank
        return rank + self.suit_letters[self.suit_of[card]]

    def __repr__(self) -> str:
        return f"Deck({self.name!r}, {self.n_cards} cards)"


def _standard() -> Deck:
    ranks = "23456789TJQKA"
    suit_of = np.repeat(np.arange(4, dtype=np.int64), 13)
    masks = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)], dtype=np.uint64)
    rank_names = tuple(("10" if r == "T" else r) for _ in range(4) for r in ranks)
    return Deck(
        name="standard",
        n_cards=52,
        suit_letters=("S", "H", "D", "C"),
        suit_symbols=("♠", "♥", "♦", "♣"),
        suit_of=suit_of,
        suit_masks=masks,
        rank_names=rank_names,
        points=np.zeros(52, dtype=np.int64),
    )


_ROMAN = "I II III IV V VI VII VIII IX X XI XII XIII XIV XV XVI XVII XVIII XIX XX XXI".split()


def _tarot() -> Deck:
    round_ranks = ["6", "5", "4", "3", "2", "1", "J", "N", "Q", "K"]
    long_ranks = ["5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]
    face_points = {"J": 2, "N": 3, "Q": 4, "K": 5}
    rank_names = [*_ROMAN, "Fool"]
    points = [5 if r in ("I", "XXI", "Fool") else 1 for r in rank_names]
    suit_of = [0] * 22
    for s, ranks in enumerate([round_ranks, round_ranks, long_ranks, long_ranks], start=1):
        rank_names += ranks
        points += [face_points.get(r, 1) for r in ranks]
        suit_of += [s] * 10
    masks = [(1 << 22) - 1] + [((1 << 10) - 1) << (22 + 10 * s) for s in range(4)]
    return Deck(
        name="tarot",
        n_cards=62,
        suit_letters=("T", "C", "D", "S", "B"),
        suit_symbols=("T", "C", "D", "S", "B"),
        suit_of=np.array(suit_of, dtype=np.int64),
        suit_masks=np.array(masks, dtype=np.uint64),
        rank_names=tuple(rank_names),
        points=np.array(points, dtype=np.int64),
    )


def _pinochle() -> Deck:
    ranks = ["9", "J", "Q", "K", "10", "A"]
    counter = {"A": 10, "10": 10, "K": 10}
    rank_names = tuple(r for _ in range(4) for r in ranks for _copy in range(2))
    return Deck(
        name="pinochle",
        n_cards=48,
        suit_letters=("S", "H", "D", "C"),
        suit_symbols=("♠", "♥", "♦", "♣"),
        suit_of=np.repeat(np.arange(4, dtype=np.int64), 12),
        suit_masks=np.array([((1 << 12) - 1) << (12 * s) for s in range(4)], dtype=np.uint64),
        rank_names=rank_names,
        points=np.array([counter.get(r, 0) for r in rank_names], dtype=np.int64),
        copies=2,
    )


STANDARD = _standard()
TAROT = _tarot()
PINOCHLE = _pinochle()
DECKS = {d.name: d for d in (STANDARD, TAROT, PINOCHLE)}
