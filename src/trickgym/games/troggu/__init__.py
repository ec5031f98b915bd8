"""Troggu: 3 to 8 players, Swiss Tarot pack, Tapp / Solo / Misère (``docs/rules/troggu.md``)."""

from .description import DESCRIPTION
from .game import Troggu, TrogguOptions

__all__ = ["DESCRIPTION", "Troggu", "TrogguOptions"]
