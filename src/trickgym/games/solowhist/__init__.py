"""Solo Whist: 4 players, Prop & Cop to Abundance Declared (``docs/rules/solowhist.md``)."""

from .description import DESCRIPTION
from .game import SoloWhist, SoloWhistOptions

__all__ = ["DESCRIPTION", "SoloWhist", "SoloWhistOptions"]
