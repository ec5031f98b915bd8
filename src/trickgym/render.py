"""Cards and hands for terminals: suit symbols, ANSI colours, legal cards marked.

One renderer for people and programs: the games' text pictures (``print(state)``),
the envs' ``render_mode="ansi"`` and ``trickgym play`` all draw cards here.

Suits: ♠ ♥ ♦ ♣ for the standard and Pinochle packs (four colours: spades
plain, hearts red, diamonds blue, clubs green); for the Tarot pack trumps ✦
(magenta), Cups ⚱ (red), Coins ⛀ (yellow), Swords ⚔ (blue), Batons ⚚
(green). Every symbol is one column wide.

Without colour, the cards a player may play are followed by ``*``; with
colour they are bold and underlined and the others dimmed. Colour follows
:func:`color_enabled`: off when asked, when ``NO_COLOR`` is set
(https://no-color.org) or when the output is not a terminal.
"""

from __future__ import annotations

import os
import re
import sys

from .cards.decks import STANDARD, Deck
from .cards.notation import format_card, format_hand

__all__ = [
    "TAROT_SUIT_SYMBOLS",
    "card_label",
    "card_text",
    "cards_by_suit",
    "color_enabled",
    "hand_text",
    "ljust",
    "strip_ansi",
    "suit_colour",
    "suit_symbol",
]

TAROT_SUIT_SYMBOLS = ("✦", "⚱", "⛀", "⚔", "⚚")  # trumps, Cups, Coins, Swords, Batons

_RESET = "\x1b[0m"
_BOLD_UNDERLINE = "\x1b[1;4m"
_DIM = "\x1b[2m"
# Foreground colour per suit: 0 default, 31 red, 32 green, 33 yellow, 34 blue, 35 magenta
_SUIT_COLOURS = {
    "standard": (0, 31, 34, 32),
    "pinochle": (0, 31, 34, 32),
    "tarot": (35, 31, 33, 34, 32),
}
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# The same colours for pictures (SVG, frames): one per ANSI code above, dark enough
# to read on a white card face.
_RGB = {0: "#1a1a1a", 31: "#c62828", 32: "#2e7d32", 33: "#a86b00", 34: "#1565c0", 35: "#8e24aa"}


def color_enabled(stream=None, flag: bool | None = None) -> bool:
    """Whether to colour output to ``stream`` (default stdout).

    ``flag`` False (``--no-color``) turns colour off; otherwise colour is on
    only for a terminal and when the ``NO_COLOR`` variable is unset or empty.
    ``flag`` True forces it on (e.g. for a pager that understands ANSI).
    """
    if flag is not None:
        return bool(flag)
    if os.environ.get("NO_COLOR"):
        return False
    stream = sys.stdout if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def strip_ansi(text: str) -> str:
    """``text`` without ANSI escape sequences (what a terminal shows)."""
    return _ANSI.sub("", text)


def ljust(text: str, width: int) -> str:
    """Left-justify ``text`` to ``width`` visible columns, ignoring ANSI codes."""
    return text + " " * max(0, width - len(strip_ansi(text)))


def suit_symbol(deck: Deck, suit: int) -> str:
    """The display symbol of suit index ``suit`` of ``deck``."""
    return TAROT_SUIT_SYMBOLS[suit] if deck.name == "tarot" else deck.suit_symbols[suit]


def suit_colour(deck: Deck, suit: int) -> str:
    """The colour of suit index ``suit`` of ``deck`` in pictures, as ``"#rrggbb"``.

    The terminal's colours (spades black, hearts red, diamonds blue, clubs
    green; Tarot trumps magenta, Coins yellow) as RGB.

    >>> suit_colour(STANDARD, 1)
    '#c62828'
    """
    return _RGB[_SUIT_COLOURS.get(deck.name, (0,) * deck.n_suits)[suit]]


def _paint(text: str, deck: Deck, suit: int, color: bool, style: str = "") -> str:
    if not color:
        return text
    code = _SUIT_COLOURS.get(deck.name, (0,) * deck.n_suits)[suit]
    colour = f"\x1b[{code}m" if code else ""
    return f"{style}{colour}{text}{_RESET}" if (style or colour) else text


def _rank(card: int, deck: Deck) -> str:
    # The ten is "10" as in the games' card names (10S) and the menus of trickgym play
    # (10♠); "T" belongs to the dotted hand notation only.
    return deck.rank_names[card]


def card_text(card: int, deck: Deck = STANDARD, color: bool = False) -> str:
    """One card with its suit symbol: ``"10♥"``, ``"XXI"``, ``"Fool"``, ``"K⚱"``.

    >>> card_text(21), card_text(21, color=True) == "\\x1b[31m10♥\\x1b[0m"
    ('10♥', True)
    """
    card = int(card)
    if not 0 <= card < deck.n_cards:
        raise ValueError(
            f"card id {card} out of range for the {deck.name} pack (0..{deck.n_cards - 1})"
        )
    suit = int(deck.suit_of[card])
    if deck.name == "tarot" and suit == 0:
        text = deck.rank_names[card]
    else:
        text = deck.rank_names[card] + suit_symbol(deck, suit)
    return _paint(text, deck, suit, color)


def card_label(card: int, deck: Deck, symbols: bool, color: bool) -> str:
    """One card as a table picture shows it: with its suit symbol, or in card notation."""
    return card_text(card, deck, color) if symbols else format_card(int(card), deck)


def _order(deck: Deck, suit: int) -> list[int]:
    """Cards of ``suit``, strongest first (the Tarot Fool heads the trumps)."""
    return [c for c in range(deck.n_cards - 1, -1, -1) if deck.suit_of[c] == suit]


def cards_by_suit(mask: int, deck: Deck = STANDARD) -> list[list[int]]:
    """The cards of set ``mask`` per suit index, strongest first: the order hands are shown in.

    >>> from trickgym.cards.notation import parse_hand
    >>> cards_by_suit(parse_hand("A2...K"))
    [[12, 0], [], [], [50]]
    """
    mask = int(mask)
    return [[c for c in _order(deck, s) if mask >> c & 1] for s in range(deck.n_suits)]


def hand_text(
    mask: int, deck: Deck = STANDARD, legal: int | None = None, color: bool = False
) -> str:
    """A hand grouped by suit, strongest first, each group led by its suit symbol.

    With ``legal=None`` and no colour, the standard and Pinochle packs give
    the compact ``"♠AKQ2 ♥J109 ♦- ♣43"`` (the ten is 10, as in ``card_text``
    and the games' card names). With ``legal`` (a set of cards the player
    may play) the cards are spaced and the legal ones marked: ``*``
    after them, or bold and underlined (others dimmed) in colour.

    >>> from trickgym.cards.notation import parse_hand
    >>> hand_text(parse_hand("AKQ2.JT9..43"))
    '♠AKQ2 ♥J109 ♦- ♣43'
    >>> hand_text(parse_hand("AKQ2.JT9..43"), legal=parse_hand("Q2..."))
    '♠ A K Q* 2*  ♥ J 10 9  ♣ 4 3'
    """
    mask = int(mask)
    spaced = legal is not None or deck.name == "tarot"
    groups = []
    for suit in range(deck.n_suits):
        cards = [c for c in _order(deck, suit) if mask >> c & 1]
        symbol = _paint(suit_symbol(deck, suit), deck, suit, color)
        if not spaced:
            ranks = "".join(_rank(c, deck) for c in cards) or "-"
            groups.append(symbol + _paint(ranks, deck, suit, color))
            continue
        if not cards:
            continue
        shown = []
        for c in cards:
            rank = _rank(c, deck)
            if legal is None:
                shown.append(_paint(rank, deck, suit, color))
            elif legal >> c & 1:
                shown.append(
                    _paint(rank, deck, suit, color, _BOLD_UNDERLINE) if color else rank + "*"
                )
            else:
                shown.append(_paint(rank, deck, suit, color, _DIM) if color else rank)
        groups.append(symbol + " " + " ".join(shown))
    return ("  " if spaced else " ").join(groups) or "-"


def legal_card_set(state) -> int:
    """The cards the player to move may play (or discard) in ``state`` (a game ``State``)."""
    if state.is_over:
        return 0
    low, _ = state.game.kernels.legal_sets_at(state.array, 0)
    return int(low) & state.game.deck.full_mask


def seat_hand(
    state,
    seat: int,
    *,
    viewer: int | None = None,
    symbols: bool = True,
    color: bool = False,
    mark_legal: bool = False,
    face_up: bool = False,
) -> str:
    """Seat ``seat``'s hand as a table picture shows it.

    With a ``viewer`` (the seat a person plays), other hands are hidden as a
    card count unless ``face_up`` (an exposed hand). ``mark_legal`` marks the
    legal cards of the player to move; ``symbols=False`` gives the plain
    dotted notation.
    """
    deck = state.game.deck
    mask = int(state.record["hands"][seat])
    if viewer is not None and seat != viewer and not face_up:
        n = bin(mask).count("1")
        return f"({n} card{'s' if n != 1 else ''})"
    if not symbols:
        return format_hand(mask, deck)
    legal = legal_card_set(state) if mark_legal and seat == state.current_player else None
    return hand_text(mask, deck, legal=legal, color=color)
