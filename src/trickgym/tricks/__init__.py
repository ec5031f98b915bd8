"""Trick resolvers: legal-play masks and trick winners for every rule family.

- :mod:`.whist`: follow suit, else any card (Solo Whist, Phat).
"""

from .whist import whist_beats, whist_legal, whist_trick_winner

__all__ = ["whist_beats", "whist_legal", "whist_trick_winner"]
