"""Solvers for perfect-information positions of every game.

:func:`solve` and :func:`card_values` take a state of any of the four games
in the card play (:mod:`.api`); underneath, :mod:`.dd` is the double-dummy
solver of the whist family (Solo Whist) and :mod:`.points_search` the
point-trick solver of Phat, Pinochle and Troggu.
"""

from .api import card_values, solve

__all__ = ["card_values", "solve"]
