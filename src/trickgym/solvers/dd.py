"""Double-dummy solver for whist-family play: Python API over the numba kernels.

A position is four hands of the standard 52-card pack, the strain, the
leader of the current trick and the cards already played to it. The solver
gives the number of tricks a side takes from now on (the current trick
included) when every player sees every card and plays best:

>>> solve(["AKQ2.JT9.8765.43", "JT9.8765.43.AKQ2", "8765.43.AKQ2.JT9",
...        "43.AKQ2.JT9.8765"], "NT", leader=0, declarers=[0, 2])
8

Sides are any split of the seats: 2 against 2 as in bridge (``[0, 2]``),
1 against 3 as a Solo Whist declarer (``[1]``). With ``misere=True`` the
declaring side wants as few tricks as possible (and the others want it to
take many); the value is still the declaring side's tricks.

A misère pays only for "no trick" against "a trick": ``goal=`` asks that
made-or-beaten question in one null-window probe (a misère's first with
horizons a few tricks on: a forced trick is usually found there), far
cheaper than the exact count (``solve(..., misere=True, goal=0)`` is True when the declarer
can keep every trick; ``card_values(..., goal=g)`` gives it per card), and
``max_nodes=`` bounds the time of a call.

From compiled code (Monte Carlo agents) call the kernels :func:`dd_tricks`,
:func:`dd_card_values`, :func:`dd_reaches` and :func:`dd_card_reaches`
directly, with a table from :func:`new_table`.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence

import numpy as np

from ..cards.decks import STANDARD
from ..cards.notation import format_card, parse_card, parse_hand
from ..checks import check_flag
from .dd_search import (
    META_ABORTED,
    META_NODE_LIMIT,
    dd_card_reaches,
    dd_card_values,
    dd_reaches,
    dd_tricks,
    new_table,
)

__all__ = [
    "TRUMPS",
    "card_values",
    "dd_card_reaches",
    "dd_card_values",
    "dd_reaches",
    "dd_tricks",
    "new_table",
    "solve",
]

#: Strain names and the kernels' ``trumps`` argument (-1 = no trumps).
TRUMPS = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": -1}

DEFAULT_TT_MB = 32
_TABLES: dict[float, tuple[np.ndarray, np.ndarray]] = {}
_FULL = (1 << 52) - 1


def _table(tt_mb: float, max_nodes) -> tuple[np.ndarray, np.ndarray]:
    """One table per size, kept between calls (entries stay valid: keys hold everything),
    with this call's node budget."""
    if max_nodes is not None and (
        not isinstance(max_nodes, (numbers.Integral, np.integer))
        or isinstance(max_nodes, bool)
        or not 1 <= max_nodes < 2**62
    ):
        raise ValueError(f"max_nodes must be a positive whole number or None, got {max_nodes!r}")
    table = _TABLES.get(tt_mb)
    if table is None:
        table = new_table(tt_mb)
        _TABLES[tt_mb] = table
    table[1][META_NODE_LIMIT] = 0 if max_nodes is None else int(max_nodes)
    return table


def _check_budget(table, max_nodes) -> None:
    if table[1][META_ABORTED]:
        raise RuntimeError(
            f"the search ran past max_nodes={max_nodes} without an answer: raise max_nodes "
            f"(or pass None), or ask the made-or-beaten question with goal="
        )


def _parse_hands(hands) -> list[int]:
    if isinstance(hands, (str, bytes)) or not isinstance(hands, (Sequence, np.ndarray)):
        raise ValueError(
            f"hands must be a list of 4 hands (strings like 'AKQ2.JT9.8765.43' or "
            f"uint64 bitboards), got {hands!r}"
        )
    if len(hands) != 4:
        raise ValueError(f"hands must hold 4 hands (seats 0..3), got {len(hands)}")
    masks = []
    for seat, hand in enumerate(hands):
        if isinstance(hand, str):
            try:
                mask = parse_hand(hand, STANDARD)
            except ValueError as err:
                raise ValueError(f"hand of seat {seat}: {err}") from None
        elif isinstance(hand, (numbers.Integral, np.integer)) and not isinstance(hand, bool):
            mask = int(hand)
            if mask < 0 or mask & ~_FULL:
                raise ValueError(
                    f"hand of seat {seat}: bitboard {mask:#x} has bits outside the 52 cards "
                    f"(0..{_FULL:#x})"
                )
        else:
            raise ValueError(
                f"hand of seat {seat} must be a string like 'AKQ2.JT9.8765.43' or a uint64 "
                f"bitboard, got {hand!r}"
            )
        masks.append(mask)
    for a in range(4):
        for b in range(a + 1, 4):
            common = masks[a] & masks[b]
            if common:
                card = (common & -common).bit_length() - 1
                raise ValueError(
                    f"card {format_card(card)} is in the hands of both seat {a} and seat {b}"
                )
    return masks


def _parse_trumps(trumps) -> int:
    key = trumps.strip().upper() if isinstance(trumps, str) else None
    if key not in TRUMPS:
        raise ValueError(f"trumps must be one of 'S', 'H', 'D', 'C', 'NT', got {trumps!r}")
    return TRUMPS[key]


def _parse_seat(value, what: str) -> int:
    if (
        not isinstance(value, (numbers.Integral, np.integer))
        or isinstance(value, bool)
        or not 0 <= value <= 3
    ):
        raise ValueError(f"{what} must be a seat 0..3, got {value!r}")
    return int(value)


def _parse_declarers(declarers) -> int:
    if isinstance(declarers, (str, bytes)) or not isinstance(declarers, Iterable):
        raise ValueError(
            f"declarers must be a list of seats 0..3 such as [0, 2], got {declarers!r}"
        )
    mask = 0
    for seat in declarers:
        seat = _parse_seat(seat, "each declarer")
        if mask >> seat & 1:
            raise ValueError(f"declarers lists seat {seat} twice: {declarers!r}")
        mask |= 1 << seat
    if mask == 0 or mask == 15:
        raise ValueError(
            f"declarers must be one to three seats (a side against the others), got {declarers!r}"
        )
    return mask


def _parse_trick(trick, masks: list[int], leader: int) -> list[int]:
    if isinstance(trick, (str, bytes)) or not isinstance(trick, (Sequence, np.ndarray)):
        raise ValueError(f"trick must be a list of up to 3 cards (ids or names), got {trick!r}")
    if len(trick) > 3:
        raise ValueError(
            f"trick holds the cards already played to the current trick (0..3), got {len(trick)}"
        )
    cards = []
    in_hands = masks[0] | masks[1] | masks[2] | masks[3]
    for i, card in enumerate(trick):
        if isinstance(card, str):
            c = parse_card(card, STANDARD)
        elif isinstance(card, (numbers.Integral, np.integer)) and not isinstance(card, bool):
            c = int(card)
            if not 0 <= c < 52:
                raise ValueError(f"trick card {c} is not a card id 0..51")
        else:
            raise ValueError(
                f"trick card must be a card id 0..51 or a name like 'QS', got {card!r}"
            )
        if in_hands >> c & 1:
            raise ValueError(f"trick card {format_card(c)} is also in a hand")
        if c in cards:
            raise ValueError(f"trick card {format_card(c)} is played twice")
        if i > 0:
            led = cards[0] // 13
            seat = (leader + i) % 4
            if c // 13 != led and masks[seat] >> (13 * led) & 0x1FFF:
                raise ValueError(
                    f"seat {seat} played {format_card(c)} to a {'SHDC'[led]} lead while "
                    f"still holding {'SHDC'[led]}: a revoke"
                )
        cards.append(c)
    return cards


def _position(hands, trumps, leader, declarers, trick):
    masks = _parse_hands(hands)
    strain = _parse_trumps(trumps)
    leader = _parse_seat(leader, "leader")
    mask = _parse_declarers(declarers)
    cards = _parse_trick(trick, masks, leader)
    sizes = [m.bit_count() for m in masks]
    played = {(leader + i) % 4 for i in range(len(cards))}
    expected = [sizes[(leader + len(cards)) % 4] - (1 if s in played else 0) for s in range(4)]
    if sizes != expected:
        raise ValueError(
            f"hand sizes {sizes} do not fit a trick led by seat {leader} with "
            f"{len(cards)} card(s) played: every hand must hold the same number of cards, "
            f"one fewer for the seats that played to the current trick"
        )
    if sizes[(leader + len(cards)) % 4] == 0:
        raise ValueError("the hands are empty: nothing left to play")
    trick_arr = np.full(4, -1, dtype=np.int64)
    trick_arr[: len(cards)] = cards
    return np.array(masks, dtype=np.uint64), trick_arr, len(cards), leader, strain, mask


def _probe_target(goal, misere: bool) -> int:
    """The probe's target: "at least ``goal``", or with ``misere`` "at least ``goal + 1``"."""
    if (
        not isinstance(goal, (numbers.Integral, np.integer))
        or isinstance(goal, bool)
        or not 0 <= goal <= 13
    ):
        raise ValueError(f"goal must be a number of tricks 0..13 or None, got {goal!r}")
    return int(goal) + 1 if misere else int(goal)


def _search(position, tt_mb, misere, goal, max_nodes, exact, probe, *out):
    """``exact`` (without ``goal``) or the null-window ``probe`` of ``position``, budget checked.

    ``out`` is handed on to the kernel (the per-card values).
    """
    table = _table(tt_mb, max_nodes)
    if goal is None:
        value = exact(*position, bool(misere), table, *out)
    else:
        value = probe(*position, bool(misere), _probe_target(goal, misere), table, *out)
    _check_budget(table, max_nodes)
    return value


def solve(
    hands,
    trumps: str,
    leader: int,
    declarers,
    trick=(),
    tt_mb: float = DEFAULT_TT_MB,
    misere: bool = False,
    goal: int | None = None,
    max_nodes: int | None = None,
) -> int | bool:
    """Tricks the declaring side takes from now on (the current trick included).

    With ``goal``, the made-or-beaten question instead (one null-window
    probe, much cheaper than the exact count): whether the declaring side
    takes at least ``goal`` tricks, or with ``misere`` at most ``goal``
    (``misere=True, goal=0``: the declarer can be held to no trick is
    ``False``, the misère is made is ``True``).

    Parameters
    ----------
    hands : 4 strings (``"AKQ2.JT9.8765.43"``, suits S.H.D.C) or 4 uint64 bitboards
        Cards of seats 0..3, without the cards already played to the trick.
    trumps : ``"S"``, ``"H"``, ``"D"``, ``"C"`` or ``"NT"``.
    leader : seat 0..3 that leads (led) the current trick.
    declarers : iterable of seats, the side counted (1 to 3 seats).
    trick : cards already played to the current trick, in order from the
        leader, as card ids or names (``"QS"``).
    tt_mb : transposition table size in megabytes (tables are kept per size).
    misere : the declaring side wants as few tricks as possible.
    goal : tricks 0..13 the declaring side needs (at most ``goal`` with
        ``misere``), or None for the exact count.
    max_nodes : a budget of search nodes (about 0.1 microsecond each), or
        None for none; past it a ``RuntimeError`` is raised.
    """
    position = _position(hands, trumps, leader, declarers, trick)
    value = _search(position, tt_mb, misere, goal, max_nodes, dd_tricks, dd_reaches)
    if goal is None:
        return int(value)
    return not value if misere else bool(value)


def card_values(
    hands,
    trumps: str,
    leader: int,
    declarers,
    trick=(),
    tt_mb: float = DEFAULT_TT_MB,
    misere: bool = False,
    goal: int | None = None,
    max_nodes: int | None = None,
    ids: bool = False,
) -> dict[str, int] | dict[str, bool] | dict[int, int] | dict[int, bool]:
    """Value of every legal card of the player to move: ``{card name: tricks}``.

    Cards are named as the inputs are (``"QS"``, ``"10H"``), in card-id order;
    ``ids=True`` keys them by card id (0..51) instead. The value of a card is
    the number of tricks the declaring side takes from now on (the current
    trick included) after that card is played, with best play afterwards.
    Same arguments as :func:`solve`. The player to move is seat ``(leader +
    len(trick)) % 4``; a declarer picks the card of highest value (lowest
    when ``misere``), a defender the opposite. With ``goal``, each card maps
    to whether the declaring side still makes its goal after it (as in
    :func:`solve`).
    """
    ids = check_flag("ids", ids)
    position = _position(hands, trumps, leader, declarers, trick)
    out = np.empty(52, dtype=np.int64)
    _search(position, tt_mb, misere, goal, max_nodes, dd_card_values, dd_card_reaches, out)
    cards = np.flatnonzero(out >= 0)
    if goal is None:
        values = {int(c): int(out[c]) for c in cards}
    else:
        values = {int(c): bool(out[c] == 0) if misere else bool(out[c] == 1) for c in cards}
    return values if ids else {format_card(c): v for c, v in values.items()}
