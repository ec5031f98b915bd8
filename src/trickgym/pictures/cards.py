"""How one card looks in a picture: its face (rank, suit symbol, colour) or its back.

The rank and the suit symbol are the terminal's (:mod:`trickgym.render`), so a
card reads the same in text and in pictures: ``10♥`` red, ``K⚱`` (Cups) red,
the Tarot trumps ``I`` .. ``XXI`` magenta under ✦, the Fool a ✦ card of its own,
and Pinochle's twin copies as two faces alike. The rank and symbol sit
in the card's left part, which shows when cards overlap in a fanned hand.
"""

from __future__ import annotations

from ..cards.notation import format_card
from ..render import suit_colour, suit_symbol
from .scene import Group, Rect, Text

__all__ = ["CARD_H", "CARD_W", "card_advance", "card_back", "card_face"]

CARD_W, CARD_H = 34, 48
_FACE, _EDGE = "#ffffff", "#8a8a8a"
_BACK, _BACK_LINE = "#2d4f86", "#a9bde0"
_LEGAL = "#e0a000"  # the outline of a card the player to move may play


def _rank_size(rank: str) -> float:
    # Long ranks (XVIII, Fool) get a smaller font, so they stay inside the card.
    return {1: 14.0, 2: 13.0, 3: 11.0, 4: 9.0}.get(len(rank), 8.0)


def card_advance(card: int, deck, step: float) -> float:
    """How far the next card of a fanned hand starts: ``step``, or more for a long rank.

    A bold rank is about 0.65 of its font size wide per character; the next
    card must leave all of it in sight (``XVIII``, ``Fool``).
    """
    rank = deck.rank_names[int(card)]
    return max(step, 0.65 * _rank_size(rank) * len(rank) + 6)


def card_face(card: int, deck, x: float, y: float, *, legal: bool = False) -> Group:
    """The face of ``card`` (an id of ``deck``) with its top-left corner at ``(x, y)``.

    ``legal`` outlines it as a card the player to move may play. The group's
    ``data`` holds the card's notation (``"10H"``, ``"XXI"``, ``"Fool"``).
    """
    card = int(card)
    suit = int(deck.suit_of[card])
    colour = suit_colour(deck, suit)
    rank = deck.rank_names[card]
    symbol = suit_symbol(deck, suit)
    edge, width = (_LEGAL, 2.5) if legal else (_EDGE, 1.0)
    g = Group("card face", data={"card": format_card(card, deck)})
    if legal:
        g.data["legal"] = "1"
    g.add(Rect(x, y, CARD_W, CARD_H, _FACE, edge, rx=4, stroke_width=width))
    g.add(Text(x + 3, y + 15, rank, _rank_size(rank), colour, bold=True))
    g.add(Text(x + 2, y + 37, symbol, 19, colour))
    return g


def card_back(x: float, y: float) -> Group:
    """A card's back (a hidden card) with its top-left corner at ``(x, y)``."""
    return Group("card back").add(
        Rect(x, y, CARD_W, CARD_H, _BACK, _EDGE, rx=4),
        Rect(x + 4, y + 4, CARD_W - 8, CARD_H - 8, _BACK, _BACK_LINE, rx=2),
    )
