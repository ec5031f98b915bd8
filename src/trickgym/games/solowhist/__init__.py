"""Solo Whist: 4 players, Prop & Cop to Abundance Declared (``docs/rules/solowhist.md``)."""

from .game import SoloWhist, SoloWhistOptions

__all__ = ["SoloWhist", "SoloWhistOptions"]
