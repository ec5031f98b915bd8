"""Trick resolvers: legal-play masks and trick winners for every rule family.

- :mod:`.whist`: follow suit, else any card (Solo Whist, Phat).
- :mod:`.troggu`: follow suit, else trump, with the Fool hold-back (Troggu).
- :mod:`.pinochle`: follow, head, trump and over-trump; identical cards (Pinochle).
"""

from .pinochle import pinochle_beats, pinochle_legal, pinochle_trick_winner
from .troggu import troggu_holds_back, troggu_legal, troggu_trick_winner
from .whist import whist_beats, whist_legal, whist_trick_winner

__all__ = [
    "pinochle_beats",
    "pinochle_legal",
    "pinochle_trick_winner",
    "troggu_holds_back",
    "troggu_legal",
    "troggu_trick_winner",
    "whist_beats",
    "whist_legal",
    "whist_trick_winner",
]
