"""Point-trick solver (Phat, Pinochle, Troggu): ms per solve by cards in hand, full deals included.

Run by hand (never by the tests)::

    .venv/bin/python benchmarks/bench_points.py                  # every game, 20 positions a row
    .venv/bin/python benchmarks/bench_points.py --games troggu5 --cards 5,7,full --positions 100

Positions come from real play (:func:`trickgym.agents.positions.rule_position`):
rule agents bid and play deal ``seed`` until the player to move holds at most
``cards`` cards; ``full`` is the first lead of the card play (a full-deal
solve). The table (``--tt-mb``) is cleared before each solve, outside the
timed region. A solve past ``--max-nodes`` is counted as unsolved and its
time is the budget's; medians and p90 then read as lower bounds.

It prints, per game and row: positions, median / p90 / max ms per solve,
median nodes and the number unsolved; and ``card_values`` (every legal card
of the mover, what an agent asks) the same way with ``--card-values``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from trickgym.agents.positions import rule_position

import trickgym
from trickgym.solvers.points_search import (
    META_ABORTED,
    META_NODE_LIMIT,
    META_NODES,
    card_points_values,
    new_points_table,
    reset_points_table,
    solve_points,
)

GAMES = {
    "phat": ("phat", {}),
    "pinochle": ("pinochle", {}),
    "pinochle-exchange": ("pinochle", {"mode": "exchange"}),
    **{f"troggu{n}": ("troggu", {"players": n}) for n in range(3, 9)},
}


def _row(game, cards, positions, table, card_values):
    times, nodes, unsolved, seed = [], [], 0, 0
    out = np.empty(64, dtype=np.float64)
    while len(times) < positions and seed < 20 * positions:
        seed += 1
        state = rule_position(game, seed, 64 if cards == "full" else int(cards))
        if state is None:
            continue
        reset_points_table(table)
        t = time.perf_counter()
        if card_values:
            card_points_values(state.array, table, out)
        else:
            solve_points(state.array, table)
        times.append(1000 * (time.perf_counter() - t))
        nodes.append(int(table[1][META_NODES]))
        unsolved += int(table[1][META_ABORTED])
    return np.array(times), np.array(nodes), unsolved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES), help=f"comma list of {list(GAMES)}")
    ap.add_argument("--cards", default="3,5,7,9,full", help="cards in the mover's hand, or full")
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--max-nodes", type=int, default=20_000_000)
    ap.add_argument("--tt-mb", type=float, default=64)
    ap.add_argument("--card-values", action="store_true", help="time card_values, not solve")
    args = ap.parse_args()
    table = new_points_table(args.tt_mb)
    table[1][META_NODE_LIMIT] = args.max_nodes
    what = "card_values" if args.card_values else "solve"
    print(f"{what}: positions from rule play; budget {args.max_nodes:,} nodes; {args.tt_mb} MB")
    print(f"{'game':<18} {'cards':>5} {'n':>4} {'median ms':>10} {'p90 ms':>9} {'max ms':>9} "
          f"{'med nodes':>11} {'unsolved':>8}")  # fmt: skip
    for key in args.games.split(","):
        if key not in GAMES:
            raise SystemExit(f"unknown game {key!r}; choose from {list(GAMES)}")
        name, opts = GAMES[key]
        game = trickgym.game(name, **opts)
        warm = rule_position(game, 0, 3) or rule_position(game, 1, 3)
        solve_points(warm.array, table)  # compile outside the timings
        for cards in args.cards.split(","):
            t, n, bad = _row(game, cards, args.positions, table, args.card_values)
            if len(t) == 0:
                continue
            print(f"{key:<18} {cards:>5} {len(t):>4} {np.median(t):>10.2f} "
                  f"{np.percentile(t, 90):>9.2f} {t.max():>9.2f} {int(np.median(n)):>11,} "
                  f"{bad:>8}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
