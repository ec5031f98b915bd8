"""Rule parameters: each seat's rule-agent options as a float64 row the compiled loops read.

Each game's rule agent (:mod:`trickgym.agents.rule`) has a frozen, documented
options dataclass (the heuristics' thresholds, the game's ``rule_options``)
and a compiled ``rule_action(obs, params, rng)`` that reads a float64
parameter row. The options become that row through :func:`params_row`, so
compiled loops can give each seat its own settings (sweeps, tournaments of
two settings).

Compiled loops get the rows as :data:`PARAMS_DTYPE` records (one per seat)
and hand a rule agent ``params[seat].values``: an array inside a record has
no reference count, whereas a row view of a 2-D array costs two atomic
reference-count updates per decision (about 6 ns, a fifth of a card's
rule logic).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from trickgym.games import game_class

__all__ = ["MAX_PARAMS", "PARAMS_DTYPE", "options_class", "params_matrix", "params_row"]

MAX_PARAMS = 16  # width of a parameter row; games use the first fields
PARAMS_DTYPE = np.dtype([("values", np.float64, (MAX_PARAMS,))])


def params_row(options) -> np.ndarray:
    """The options dataclass as a float64 row of ``MAX_PARAMS`` (fields in order)."""
    values = [float(getattr(options, f.name)) for f in dataclasses.fields(options)]
    if len(values) > MAX_PARAMS:
        raise ValueError(f"{type(options).__name__} has more than {MAX_PARAMS} parameters")
    row = np.zeros(MAX_PARAMS, dtype=np.float64)
    row[: len(values)] = values
    return row


def options_class(game):
    """The ``RuleOptions`` dataclass of a game's rule agent (a game name, ``Game`` or its class)."""
    return game_class(game).rule_options


def params_matrix(game, n_seats: int, options=None) -> np.ndarray:
    """Per-seat parameter records (:data:`PARAMS_DTYPE`, field ``values``).

    ``game`` is a game name, ``Game`` or its class; ``options`` is None
    (defaults), one options object, or a list of one per seat.
    """
    defaults = options_class(game)
    game_name = getattr(game, "name", game)
    if options is None or not isinstance(options, list | tuple):
        options = [options] * n_seats
    if len(options) != n_seats:
        raise ValueError(f"rule options must be one object or a list of {n_seats}, got {options!r}")
    rows = []
    for o in options:
        o = defaults() if o is None else o
        if not isinstance(o, defaults):
            raise ValueError(f"rule options for {game_name} must be {defaults.__name__}, got {o!r}")
        rows.append(params_row(o))
    params = np.zeros(n_seats, dtype=PARAMS_DTYPE)
    params["values"] = rows
    return params
