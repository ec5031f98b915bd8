"""Pinochle: 4-player partnership, single deck, kitty or card exchange (docs/rules/pinochle.md)."""

from .description import DESCRIPTION
from .game import Pinochle, PinochleOptions

__all__ = ["DESCRIPTION", "Pinochle", "PinochleOptions"]
