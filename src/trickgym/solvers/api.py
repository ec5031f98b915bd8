"""One solver interface for every game: :func:`solve` and :func:`card_values` of a state.

A state of any of the four games in the card play, every hand visible, is
valued for the declaring side against the others, with best play by every
seat from now to the end of the deal:

- **Solo Whist**: tricks of the declarer and any partner (the double-dummy
  solver, :mod:`.dd`; misère contracts count the tricks the declarer is
  held to);
- **Phat**: the race to the target, from the pitcher's team's view: 81 or
  more if it reaches the target in the deal (mid-deal, or by the muck
  bonus), -1 or less if the other team does, else its phat (0-80; see
  :mod:`.points_phat` and ``docs/rules/phat.md`` §11);
- **Pinochle**: the declaring team's counters, last trick and (kitty mode)
  buried counters included;
- **Troggu**: the declaring side's card points after the Fool's exchange,
  at any table size (Misère, where nobody has a side, is refused).

For example ``solve(trickgym.game("troggu", players=5).deal(seed=3)...)``
once the auction is over, or ``card_values(state)`` for the player to move
(``{card name: value}``; ``ids=True``: keyed by card id).

``max_nodes`` bounds a call's work: a call that runs out of it returns None
(:func:`card_values`: an empty dict). One table per size is kept between
calls; its entries stay valid across positions and deals.

``question`` says what is asked. ``"points"`` (the default): the counts
above, exactly. ``"payoff"`` (Phat, Pinochle, Troggu): a seat's payoff by
the game's scoring, asking the solver only what that payoff needs (Troggu's
card-point class, Pinochle's made or set then its counters, as the agents
do: :func:`trickgym.solvers.points_payoff.payoff_problem`); many fewer nodes
where the payoff is a step. ``exact_payoff=True`` narrows it to the exact
payoff (no refinement budget).
"""

from __future__ import annotations

import numpy as np

from trickgym.api import State
from trickgym.games.solowhist.constants import MISERE, MISERE_OUVERTE

from ..checks import check_flag, check_int, check_tt_mb
from .points_payoff import MAX_PAY, payoff_problem
from .points_search import Q_REFINE, Q_TOL, card_payoff_values, card_points_values, new_points_table

__all__ = ["DEFAULT_TT_MB", "QUESTIONS", "card_values", "solve"]

QUESTIONS = ("points", "payoff")

DEFAULT_TT_MB = 16
MAX_NODES = 2**62 - 1  # the node counters are int64
_TABLES: dict[tuple[str, float], tuple[np.ndarray, np.ndarray]] = {}


def _check(state) -> tuple[str, np.ndarray]:
    """``(solver, state array)``: which solver values ``state`` (``"dd"`` or ``"points"``)."""
    if not isinstance(state, State):
        raise ValueError(f"state must be a trickgym State (game.deal(...)), got {state!r}")
    game = state.game
    rec = state.record
    phase = int(rec["phase"])
    if phase != game.play_phase:
        names = game.phase_names
        raise ValueError(
            f"{game.name}: the solver values positions in the card play "
            f"({names[game.play_phase]!r}); this state is in the {names[phase]!r} phase"
        )
    if not game.has_side(rec):
        raise ValueError(
            f"{game.name}: this contract has no declaring side (everybody plays for "
            "themselves, as in Troggu's Misère); the solver values contracts that have one"
        )
    return game.solver, state.array


def _check_limits(tt_mb, max_nodes) -> float:
    """``tt_mb`` (``0 < tt_mb <= TT_MB_MAX``) and ``max_nodes`` (``1 .. 2**62 - 1`` or None)."""
    if max_nodes is not None:
        check_int("max_nodes", max_nodes, 1, MAX_NODES)
    return check_tt_mb(tt_mb)


def _table(kind: str, tt_mb, max_nodes):
    tt_mb = _check_limits(tt_mb, max_nodes)
    key = (kind, float(tt_mb))
    table = _TABLES.get(key)
    if table is None:
        if kind == "dd":
            # lazy: the double-dummy solver takes 0.2 s to import
            from .dd_search import new_table

            table = new_table(tt_mb)
        else:
            table = new_points_table(tt_mb)
        _TABLES[key] = table
    # lazy: the double-dummy solver takes 0.2 s to import (and the point-trick branch binds
    # the same name)
    if kind == "dd":
        from .dd_search import META_NODE_LIMIT
    else:
        from .points_search import META_NODE_LIMIT
    table[1][META_NODE_LIMIT] = 0 if max_nodes is None else int(max_nodes)
    return table


def _whist_args(rec):
    hands = rec["hands"][:4].astype(np.uint64)
    trick = np.full(4, -1, dtype=np.int64)
    n = int(rec["trick_n"])
    trick[:n] = rec["trick_cards"][:n]
    misere = int(rec["contract"]) in (MISERE, MISERE_OUVERTE)
    return (hands, trick, n, int(rec["leader"]), int(rec["trumps"]), int(rec["declarers"]), misere)


def _check_question(question, solver, state, seat, exact_payoff):
    """``question`` is one of ``QUESTIONS`` (``"payoff"``: not Solo Whist's); ``seat`` a seat."""
    check_flag("exact_payoff", exact_payoff)
    if not isinstance(question, str) or question not in QUESTIONS:
        raise ValueError(f"question must be one of {QUESTIONS}, got {question!r}")
    if question == "payoff" and solver != "points":
        raise ValueError(
            f"question='payoff' is for the point-trick games (Phat, Pinochle, Troggu); "
            f"{state.game.name} asks its double-dummy solver for tricks (question='points')"
        )
    if seat is None:
        return state.current_player
    return check_int("seat", seat, 0, state.game.n_seats - 1)


def _checked(state, tt_mb, max_nodes, question, seat, exact_payoff):
    """``(solver, array, seat)`` of a question put to :func:`solve` or :func:`card_values`."""
    _check_limits(tt_mb, max_nodes)
    solver, array = _check(state)
    return solver, array, _check_question(question, solver, state, seat, exact_payoff)


def _payoff_args(array, seat, exact_payoff, tt_mb, max_nodes):
    """``(prepared, table, pay, pay_base, question)``: a payoff search of ``seat``'s payoff.

    The arguments the payoff searches take first, from ``array[0]``, with a
    new points table.
    """
    pay = np.empty(MAX_PAY, dtype=np.float64)
    prepared, base, n, q = payoff_problem(array, seat, pay)
    if exact_payoff:
        q[Q_TOL] = 0.0
        q[Q_REFINE] = -1.0
    return prepared, _table("points", tt_mb, max_nodes), pay[:n], base, q


def solve(
    state,
    tt_mb: float = DEFAULT_TT_MB,
    max_nodes: int | None = None,
    question: str = "points",
    seat: int | None = None,
    exact_payoff: bool = False,
) -> int | float | None:
    """The declaring side's value of the rest of the deal with best play by every seat.

    Tricks (Solo Whist) or points (the others) from now on, the current
    trick included; see the module docstring for each game's count. With
    ``question="payoff"``, ``seat``'s payoff for the deal instead (default:
    the player to move), asking only what it needs. None when the search ran
    out of ``max_nodes``. Raises ``ValueError`` for a state that is not in
    the card play (or a Troggu Misère).
    """
    solver, array, seat = _checked(state, tt_mb, max_nodes, question, seat, exact_payoff)
    if question == "payoff":
        # here, not at the top: the same name as the double-dummy branch's (lazy) import
        from .points_search import META_ABORTED, solve_payoff

        args = _payoff_args(array, seat, exact_payoff, tt_mb, max_nodes)
        value = float(solve_payoff(*args))
        table = args[1]
        return None if table[1][META_ABORTED] else value
    if solver == "dd":
        # lazy: the double-dummy solver takes 0.2 s to import
        from .dd_search import META_ABORTED, dd_tricks

        table = _table("dd", tt_mb, max_nodes)
        value = int(dd_tricks(*_whist_args(array[0]), table))
        return None if table[1][META_ABORTED] else value
    # here, not at the top: the same name as the double-dummy branch's (lazy) import
    from .points_search import META_ABORTED, solve_points

    table = _table("points", tt_mb, max_nodes)
    value = int(solve_points(array, table))
    return None if table[1][META_ABORTED] else value


def card_values(
    state,
    tt_mb: float = DEFAULT_TT_MB,
    max_nodes: int | None = None,
    ids: bool = False,
    question: str = "points",
    exact_payoff: bool = False,
) -> dict[str, int] | dict[int, int] | dict[str, float] | dict[int, float]:
    """``{card name: value}`` for every legal card of the player to move, in card-id order.

    Cards are named as the game writes them (``state.action_name``:
    ``"10S"``, Troggu's ``"XXI"``, ``"Fool"``); the two copies of a Pinochle
    card share a name and a value. With ``ids=True`` the keys are the card
    ids instead (``{card id: value}``, what ``state.apply`` takes). A card's
    value is :func:`solve`'s count from now on if that card is played now
    and every seat plays best afterwards; with ``question="payoff"``, the
    player to move's payoff for the deal instead. Empty when a search ran
    out of ``max_nodes`` (``max_nodes`` bounds each card's search).
    """
    ids = check_flag("ids", ids)
    solver, array, seat = _checked(state, tt_mb, max_nodes, question, None, exact_payoff)
    if question == "payoff":
        out = np.empty(64, dtype=np.float64)
        if card_payoff_values(*_payoff_args(array, seat, exact_payoff, tt_mb, max_nodes), out) < 0:
            return {}
        values = {int(c): float(out[c]) for c in np.flatnonzero(out > -1e8)}
    elif solver == "dd":
        # lazy: the double-dummy solver takes 0.2 s to import
        from .dd_search import META_ABORTED, dd_card_values

        table = _table("dd", tt_mb, max_nodes)
        out = np.full(52, -1, dtype=np.int64)
        dd_card_values(*_whist_args(array[0]), table, out)
        if table[1][META_ABORTED]:
            return {}
        values = {int(c): int(out[c]) for c in np.flatnonzero(out >= 0)}
    else:
        table = _table("points", tt_mb, max_nodes)
        out = np.empty(64, dtype=np.float64)
        if card_points_values(array, table, out) < 0:
            return {}
        values = {int(c): int(out[c]) for c in np.flatnonzero(out > -1e8)}
    return values if ids else {state.action_name(c): v for c, v in values.items()}
