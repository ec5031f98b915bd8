"""Cards as bitboards: bit primitives, pack layouts and notation."""

from .bits import HAS_BMI2, bit, highest_bit, iter_bits, lowest_bit, popcount, select_kth
from .decks import DECKS, PINOCHLE, STANDARD, TAROT, Deck
from .notation import (
    format_card,
    format_cards,
    format_hand,
    parse_card,
    parse_cards,
    parse_hand,
)

__all__ = [
    "DECKS",
    "HAS_BMI2",
    "PINOCHLE",
    "STANDARD",
    "TAROT",
    "Deck",
    "bit",
    "format_card",
    "format_cards",
    "format_hand",
    "highest_bit",
    "iter_bits",
    "lowest_bit",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "popcount",
    "select_kth",
]
