"""Card and hand notation for every pack: one parser, one formatter.

Cards are written rank first, then suit: ``"QS"``, ``"10H"`` (or ``"TH"``),
``"Q♠"``. Troggu trumps are Roman numerals ``"I"``..``"XXI"`` and ``"Fool"``;
its plain suits are Cups ``C``, Coins ``D``, Swords ``S``, Batons ``B`` with
the Knight written ``N`` (``"NC"``, ``"1D"``, ``"10S"``).

Hands of the standard and Pinochle packs use dotted suit notation, spades,
hearts, diamonds, clubs, each suit high to low: ``"AKQ2.JT9.8765.43"``
(Pinochle repeats a rank for its two copies: ``"AAT.KQ..9"``). Any pack also
accepts a space- or comma-separated list of cards: ``"Fool XXI KC 1D"``.

Malformed input raises ``ValueError`` naming the bad text and what is allowed.
"""

from __future__ import annotations

import re

from .decks import STANDARD, Deck

__all__ = ["format_card", "format_cards", "format_hand", "parse_card", "parse_cards", "parse_hand"]

_SYMBOL_TO_LETTER = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


def _lookup(deck: Deck) -> dict[str, int]:
    """Map of every accepted upper-case spelling to the (first copy's) card id."""
    cache = _LOOKUPS.get(deck.name)
    if cache is not None:
        return cache
    table: dict[str, int] = {}
    for card in range(deck.n_cards - 1, -1, -1):  # descending so the first copy wins
        name = deck.card_names[card].upper()
        table[name] = card
        if name.startswith("10"):
            table["T" + name[2:]] = card
    _LOOKUPS[deck.name] = table
    return table


_LOOKUPS: dict[str, dict[str, int]] = {}


def _normalise(text: str) -> str:
    text = text.strip()
    if text and text[-1] in _SYMBOL_TO_LETTER:
        text = text[:-1] + _SYMBOL_TO_LETTER[text[-1]]
    elif text and text[0] in _SYMBOL_TO_LETTER:  # "♠Q" written suit first
        text = text[1:] + _SYMBOL_TO_LETTER[text[0]]
    return text.upper()


def _examples(deck: Deck) -> str:
    if deck.name == "tarot":
        return "'Fool', 'XXI', 'I', 'KC', 'NC', '1D', '10S', 'JB'"
    if deck.name == "pinochle":
        return "'QS', '10H' or 'TH', 'Q♠', '9C'"
    return "'QS', '10H' or 'TH', 'Q♠', '2C'"


# A whole hand in dotted suits (spades.hearts.diamonds.clubs), for the messages.
_DOTTED_EXAMPLE = {"pinochle": "A10KQ.KJ9.A10.QJ9"}


def parse_card(text: str, deck: Deck = STANDARD) -> int:
    """Card id of ``text`` in ``deck`` (the first copy for Pinochle).

    >>> parse_card("QS"), parse_card("10H"), parse_card("TH"), parse_card("2♣")
    (10, 21, 21, 39)
    """
    if not isinstance(text, str):
        raise ValueError(f"card must be a string such as {_examples(deck)}, got {text!r}")
    card = _lookup(deck).get(_normalise(text))
    if card is None:
        raise ValueError(
            f"unknown card {text!r} for the {deck.name} pack; write e.g. {_examples(deck)}"
        )
    return card


def format_card(card: int, deck: Deck = STANDARD, symbols: bool = False) -> str:
    """Name of card id ``card``: ``"10H"``, or ``"10♥"`` with ``symbols=True``."""
    card = int(card)
    if not 0 <= card < deck.n_cards:
        raise ValueError(
            f"card id {card} out of range for the {deck.name} pack (0..{deck.n_cards - 1})"
        )
    name = deck.card_names[card]
    if symbols and deck.name != "tarot":
        return name[:-1] + deck.suit_symbols[deck.suit_of[card]]
    return name


def parse_cards(text: str, deck: Deck = STANDARD, taken: int = 0) -> list[int]:
    """Card ids of a space- or comma-separated list of cards, in order.

    Pinochle copies are given out in turn: ``"AS AS"`` is both aces of
    spades; copies already in ``taken`` (a set of card ids, e.g. the hands
    parsed before this one) are skipped.
    """
    cards: list[int] = []
    for token in re.split(r"[\s,]+", text.strip()):
        if not token:
            continue
        card = parse_card(token, deck)
        for copy in range(deck.copies):
            if not taken >> (card + copy) & 1:
                card += copy
                break
        else:
            raise ValueError(
                f"card {token!r} appears more than {deck.copies} time(s) in {text!r}"
                + (" and the cards before it" if taken else "")
            )
        taken |= 1 << card
        cards.append(card)
    return cards


def parse_hand(text: str, deck: Deck = STANDARD, taken: int = 0) -> int:
    """Set of cards (a Python int bitmask) written as ``text``.

    Dotted suit notation (``"AKQ2.JT9.8765.43"``, suits S.H.D.C, ``-`` or
    nothing for a void) for the standard and Pinochle packs, or a list of
    cards for any pack. Duplicates beyond the pack's copies are rejected.

    >>> parse_hand("A...2") == (1 << parse_card("AS")) | (1 << parse_card("2C"))
    True
    """
    if not isinstance(text, str):
        raise ValueError(f"hand must be a string, got {text!r}")
    if "." in text and deck.name != "tarot":
        return _parse_dotted(text, deck, taken)
    try:
        cards = parse_cards(text, deck, taken)
    except ValueError as err:
        if not str(err).startswith("unknown card"):
            raise
        # 'AKQ' is a hand's suit written without its dots, not a card: show a whole hand.
        dotted = _DOTTED_EXAMPLE.get(deck.name, "AKQJ5.K2.A7.9832")
        whole = (
            "cards separated by spaces"
            if deck.name == "tarot"
            else f"dotted suits, e.g. '{dotted}' (spades.hearts.diamonds.clubs), or cards "
            "separated by spaces"
        )
        raise ValueError(
            f"{err}; a whole hand is written as {whole}, e.g. {_hand_example(deck)}"
        ) from None
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _hand_example(deck: Deck) -> str:
    """Three cards of ``deck`` written as a hand (``'AS KS QS'``)."""
    top = range(deck.n_cards - 1, deck.n_cards - 1 - 3 * deck.copies, -deck.copies)
    return repr(" ".join(format_card(card, deck) for card in top))


def _parse_dotted(text: str, deck: Deck, taken: int = 0) -> int:
    parts = text.strip().split(".")
    if len(parts) != 4:
        raise ValueError(
            f"hand {text!r} must have 4 dot-separated suits (spades.hearts.diamonds.clubs), "
            f"got {len(parts)}"
        )
    tokens = []
    for suit, part in zip("SHDC", parts, strict=True):
        part = part.strip()
        if part in ("", "-", "—"):
            continue
        for rank in re.findall(r"10|.", part):
            tokens.append(rank + suit)
    try:
        return sum(1 << c for c in parse_cards(" ".join(tokens), deck, taken))
    except ValueError as err:
        raise ValueError(f"bad hand {text!r}: {err}") from None


def format_hand(mask: int, deck: Deck = STANDARD, symbols: bool = False) -> str:
    """Write a set of cards: dotted notation, or suit-symbol groups with ``symbols=True``.

    >>> format_hand(parse_hand("AKQ2.JT9.8765.43"))
    'AKQ2.JT9.8765.43'
    >>> format_hand(parse_hand("AKQ2.JT9.8765.43"), symbols=True)
    '♠AKQ2 ♥JT9 ♦8765 ♣43'
    """
    mask = int(mask)
    if mask >> deck.n_cards:
        raise ValueError(f"set {mask:#x} has bits beyond the {deck.n_cards}-card {deck.name} pack")
    if deck.name == "tarot":  # trumps first, then Cups, Coins, Swords, Batons; high to low
        order = sorted(range(deck.n_cards), key=lambda c: (deck.suit_of[c], -c))
        return format_cards([c for c in order if mask >> c & 1], deck)
    groups = []
    for s in range(4):
        ranks = "".join(
            "T" if deck.rank_names[c] == "10" else deck.rank_names[c]
            for c in range(deck.n_cards - 1, -1, -1)
            if deck.suit_of[c] == s and mask >> c & 1
        )
        groups.append(deck.suit_symbols[s] + (ranks or "-") if symbols else ranks)
    return (" " if symbols else ".").join(groups)


def format_cards(cards, deck: Deck = STANDARD, symbols: bool = False) -> str:
    """Space-separated names of a sequence of card ids."""
    return " ".join(format_card(c, deck, symbols) for c in cards)
