"""Checking a deal given by hand: one implementation for every game."""

from __future__ import annotations

from ..cards.decks import Deck
from ..cards.notation import format_hand, parse_hand
from ..checks import is_int

__all__ = ["check_hand_list", "check_hands", "check_seat"]


def check_seat(name: str, value, n_seats: int) -> int:
    """``value`` as a seat number, or a ValueError naming ``name`` and the allowed seats."""
    if not is_int(value) or not 0 <= value < n_seats:
        raise ValueError(f"{name} must be a seat 0..{n_seats - 1}, got {value!r}")
    return int(value)


def check_hand_list(hands, n_seats: int) -> list:
    """``hands`` as a list of one hand per seat, or a ValueError naming what was given.

    One string, a number or ``None`` is refused (never a ``TypeError`` from
    ``len``); each hand is then checked by :func:`check_hands`.
    """
    if not isinstance(hands, list | tuple) or len(hands) != n_seats:
        raise ValueError(
            f"hands must be a list of {n_seats} hand strings (seats 0..{n_seats - 1}), "
            f"got {hands!r}"
        )
    return list(hands)


def check_hands(parts, deck: Deck, need: str = "needs") -> list[int]:
    """Card sets of a given deal, checked: right sizes, real cards, no card twice.

    ``parts`` is a list of ``(label, hand, size)``; a hand is a string in
    card notation or an int bit set. In a pack with identical copies a card
    written in two hands is both copies. Errors name the part and the problem,
    e.g. ``"seat 2 has 12 cards, needs 13"``. ``need`` words the size
    requirement (``"5 players need"``).
    """
    masks = []
    union = 0
    for label, hand, size in parts:
        if isinstance(hand, str):
            # Identical copies go to hands in turn: a second "9S" is the other copy.
            try:
                mask = parse_hand(hand, deck, taken=union if deck.copies > 1 else 0)
            except ValueError as err:  # say which hand holds the bad card
                raise ValueError(f"{label} {hand!r}: {err}") from None
        elif is_int(hand):
            mask = int(hand)
            if mask < 0 or mask >> deck.n_cards:
                raise ValueError(
                    f"{label} {hand!r} is not a set of the {deck.n_cards}-card {deck.name} pack"
                )
        else:
            raise ValueError(f"{label} must be a hand string (e.g. a list of cards), got {hand!r}")
        count = bin(mask).count("1")
        if count != size:
            raise ValueError(f"{label} has {count} cards, {need} {size}")
        if union & mask:
            raise ValueError(f"{label} repeats cards: {format_hand(union & mask, deck)}")
        union |= mask
        masks.append(mask)
    return masks
