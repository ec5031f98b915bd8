"""Phat, Pinochle and Troggu card play valued by the point-trick solver: one implementation
for the oracle (the true state) and PIMC (each sampled deal).

The solver (:mod:`trickgym.solvers.points_search`) is asked the payoff's
question (:mod:`trickgym.solvers.points_payoff`: the seat's payoff by the
game's own scoring, its steps searched first), not the exact points.

Full solves fit an agent's budget only from a few cards in hand down
(``SOLVE_CARDS``, measured with ``benchmarks/bench_points.py``); above that
line the agents value cards by rule-agent playouts as before.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.cards.bits import popcount
from trickgym.games import DESCRIPTIONS
from trickgym.protocol import rollout_cards, side_play
from trickgym.solvers.points_payoff import (
    MAX_PAY,
    payoff_problem,
    points_payoff,
)
from trickgym.solvers.points_search import (
    META_REFINE,
    Q_REFINE,
    card_payoff_values,
    make_points_table,
    solve_payoff,
)

__all__ = [
    "MAX_PAY",
    "ORACLE_ROLLOUT_CARDS",
    "ORACLE_SOLVE_CARDS",
    "PIMC_SOLVE_CARDS",
    "hand_size",
    "oracle_card",
    "payoff_problem",
    "points_payoff",
    "rollout_cards",
    "side_play",
    "solve_cards",
    "solved_card",
    "solved_payoff",
    "solved_payoffs",
]

# Cards in the mover's hand from which a full solve fits the budget (index: Troggu's
# table size; Phat and Pinochle use index 4). PIMC asks every legal card of every sample
# the payoff's question; the oracle asks once a decision. PIMC's lines are the deepest
# that keep a 300-deal duplicate tournament against rule within about an hour of CPU
# (half of it in wall time on 2 threads), from `bench_mc.py --decisions` (benchmarks/
# README.md, "The payoff's question"); before the payoff's question they were Phat 6,
# Pinochle 6, Troggu 6 / 4 / 4 / 3 / 3 / 3.
# The oracle's rollouts (ORACLE_ROLLOUTS per legal action of each decision above its line)
# solve the rest of the deal from this many cards in hand down (bench_oracle.py). Raised
# to the hand size, every bid would be valued by full-deal solves on the true layout.
# Each game's description holds its lines (GameDescription.solve_lines); the tables
# below are read from the built-in games' descriptions.


def _lines(kind: str) -> dict:
    return {n: d.solve_lines[kind] for n, d in DESCRIPTIONS.items() if kind in d.solve_lines}


PIMC_SOLVE_CARDS = _lines("pimc")
ORACLE_SOLVE_CARDS = _lines("oracle")
ORACLE_ROLLOUT_CARDS = _lines("oracle_rollout")
# Node budget of one solve: a sample past it falls back to playouts.
NODE_LIMIT = 2_000_000


def solve_cards(table: dict, game_name: str, n_players: int) -> int:
    """The solve line of ``table`` (``PIMC_SOLVE_CARDS`` or ``ORACLE_SOLVE_CARDS``)."""
    line = table[game_name]
    return int(line[n_players]) if isinstance(line, tuple) else int(line)


@njit(cache=True)
def solved_payoffs(root, seat, table, values, pays):
    """Each legal card's payoff to ``seat`` with best play afterwards, into ``pays[card]``
    (-1e9 for the others); False when a search ran out of the table's node budget.

    The solver is asked the payoff's question (:func:`payoff_curve`), not
    the exact points; ``values`` is ``float64[MAX_PAY]`` scratch for the
    payoff curve. ``root[0]`` is prepared here (a copy).
    """
    prepared, base, n, question = payoff_problem(root, seat, values)
    question[Q_REFINE] = table[1][META_REFINE]
    return card_payoff_values(prepared, table, values[:n], base, question, pays) >= 0


@njit(cache=True)
def solved_card(root, seat, table, values):
    """The card ``seat`` (to move in ``root[0]``) plays with every hand seen: its best payoff
    (:func:`solved_payoffs`); ties to the lowest card.

    ``values`` is ``float64[MAX_PAY]`` scratch. -1 when a search ran out of
    the table's node budget.
    """
    pays = np.empty(64, dtype=np.float64)
    if not solved_payoffs(root, seat, table, values, pays):
        return -1
    best, best_v = -1, 0.0
    for c in range(64):
        v = pays[c]
        if v < -1e8:
            continue
        if best < 0 or v > best_v:
            best, best_v = c, v
    return best


def oracle_card(root, seat, table) -> int:
    """:func:`solved_card` of the true state ``root[0]``, called from compiled loops in object
    mode (``with objmode``).

    Through Python, not as a compiled call: a compiled call would link the
    whole search into every loop that can seat an oracle (simulators, envs,
    their threaded variants), about 11 s more compilation each; the search
    is compiled once instead, and one Python call per decision costs
    microseconds against a solve's milliseconds.
    """
    return int(solved_card(root, seat, table, np.empty(MAX_PAY, dtype=np.float64)))


@njit(cache=True)
def hand_size(st):
    """Cards in the hand of the player to move."""
    return popcount(st.hands[st.to_move])


# The oracle's table: 2**18 slots (6 MB), made per deal by the simulation loops.
ORACLE_TABLE_LOG2 = 18


@njit(cache=True)
def oracle_table():
    """A fresh solver table for one deal of the oracle (with the per-solve node budget)."""
    return make_points_table(ORACLE_TABLE_LOG2, NODE_LIMIT)


@njit(cache=True)
def no_table():
    """A placeholder table: the simulation loops make the real one at the first solve."""
    return make_points_table(1, NODE_LIMIT)


@njit(cache=True)
def solved_payoff(root, seat, table):
    """``seat``'s payoff of ``root[0]`` (card play with a side) with best play by every hand,
    asking the solver the payoff's question (:func:`payoff_curve`); NaN when the search ran
    out of the table's node budget."""
    pay = np.empty(MAX_PAY, dtype=np.float64)
    prepared, base, n, question = payoff_problem(root, seat, pay)
    question[Q_REFINE] = table[1][META_REFINE]
    return solve_payoff(prepared, table, pay[:n], base, question)
