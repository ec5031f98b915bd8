"""Phat: 4 players in partnerships, trumps set by the pitch, race to 181 (docs/rules/phat.md)."""

from .description import DESCRIPTION
from .game import Phat, PhatOptions

__all__ = ["DESCRIPTION", "Phat", "PhatOptions"]
