"""Point-trick solver (Phat, Pinochle, Troggu): ms and nodes per solve, full deals beside DDS.

Run by hand (never by the tests)::

    .venv/bin/python benchmarks/bench_points.py                  # full deals, 30 a game
    .venv/bin/python benchmarks/bench_points.py --games troggu5 --cards 5,7,full --positions 100
    .venv/bin/python benchmarks/bench_points.py --cards 7,9 --positions 20 --no-dds
    .venv/bin/python benchmarks/bench_points.py --question payoff --first-seed 5000 --no-dds

Positions come from real play (:func:`trickgym.agents.positions.rule_position`):
rule agents bid and play deal ``seed`` (``--first-seed``, the next, ...) until
the player to move holds at most ``cards`` cards; ``full`` is the first lead
of the card play (a full-deal solve). ``--question exact`` (the default) asks
for the side's exact points; ``--question payoff`` asks what the declaring
side's payoff needs (:func:`trickgym.solvers.points_payoff.payoff_problem`:
Troggu's class, Pinochle's made or set then its counters within
``--refine-nodes``, Phat's phat within the same budget), as the agents do.
The table (``--tt-mb``) is cleared before each solve, outside the
timed region. A solve past ``--max-nodes`` is counted as unsolved and its
time is the budget's; percentiles then read as lower bounds.

It prints, per game and row: positions, median / p90 / p99 / max ms per
solve, median / p90 / max nodes and the number unsolved; ``card_values``
(every legal card of the mover, what an agent asks) the same way with
``--card-values``. Unless ``--no-dds``, the same run times DDS's 2-against-2
full-deal solve (one thread, through endplay, ``bench_dd.py``'s function) on
``--dds-deals`` random bridge deals first: the bar the issue compares with.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import trickgym
from trickgym.agents.positions import rule_position
from trickgym.solvers.points_payoff import MAX_PAY, payoff_problem, side_seat
from trickgym.solvers.points_search import (
    META_ABORTED,
    META_NODE_LIMIT,
    META_NODES,
    Q_REFINE,
    card_payoff_values,
    card_points_values,
    new_points_table,
    reset_points_table,
    solve_payoff,
    solve_points,
)

GAMES = {
    "phat": ("phat", {}),
    "pinochle": ("pinochle", {}),
    "pinochle-exchange": ("pinochle", {"mode": "exchange"}),
    **{f"troggu{n}": ("troggu", {"players": n}) for n in range(3, 9)},
}
HEADER = (
    f"{'game':<18} {'cards':>5} {'n':>4} {'median ms':>10} {'p90 ms':>9} {'p99 ms':>9} "
    f"{'max ms':>9} {'med nodes':>12} {'p90 nodes':>12} {'max nodes':>12} {'unsolved':>8}"
)


def _solve(state, table, card_values, question, refine, out, pay):
    """One solve (or every card's) of ``state`` on ``table``, asking ``question``."""
    if question == "exact":
        if card_values:
            card_points_values(state.array, table, out)
        else:
            solve_points(state.array, table)
        return
    prepared, base, n, q = payoff_problem(state.array, side_seat(state.record), pay)
    if refine is not None:
        q[Q_REFINE] = refine
    if card_values:
        card_payoff_values(prepared, table, pay[:n], base, q, out)
    else:
        solve_payoff(prepared, table, pay[:n], base, q)


def _row(game, cards, positions, table, card_values, log=None, key="", opts=None):
    opts = opts or {}
    question = opts.get("question", "exact")
    first = opts.get("first_seed", 1)
    times, nodes, unsolved, seed = [], [], 0, first - 1
    out = np.empty(64, dtype=np.float64)
    pay = np.empty(MAX_PAY, dtype=np.float64)
    while len(times) < positions and seed < first - 1 + 20 * positions:
        seed += 1
        state = rule_position(game, seed, 64 if cards == "full" else int(cards))
        if state is None:
            continue
        reset_points_table(table)
        t = time.perf_counter()
        _solve(state, table, card_values, question, opts.get("refine"), out, pay)
        times.append(1000 * (time.perf_counter() - t))
        nodes.append(int(table[1][META_NODES]))
        unsolved += int(table[1][META_ABORTED])
        if log is not None:
            rec = {"game": key, "cards": cards, "seed": seed, "question": question}
            rec |= {"ms": times[-1], "nodes": nodes[-1], "aborted": int(table[1][META_ABORTED])}
            log.write(json.dumps(rec) + "\n")
    return np.array(times), np.array(nodes), unsolved


def _line(key, cards, t, n, bad) -> str:
    p = np.percentile
    return (
        f"{key:<18} {cards:>5} {len(t):>4} {np.median(t):>10.2f} {p(t, 90):>9.2f} "
        f"{p(t, 99):>9.2f} {t.max():>9.2f} {int(np.median(n)):>12,} {int(p(n, 90)):>12,} "
        f"{int(n.max()):>12,} {bad:>8}"
    )


def _dds_row(deals: int) -> str:
    """DDS's 2v2 full-deal solve (spades, the deal's leader) on random deals."""
    from bench_dd import _dds_solver  # the benchmarks' one DDS driver

    solve = _dds_solver("S")
    rng = np.random.default_rng(0)
    ms = []
    for i in range(deals):
        pack = rng.permutation(52)
        hands = [sum(1 << int(c) for c in pack[13 * p : 13 * p + 13]) for p in range(4)]
        ms.append(solve(hands, i % 4)[1])
    t = np.array(ms)
    p = np.percentile
    return (
        f"{'DDS 2v2 (bridge)':<18} {'full':>5} {len(t):>4} {np.median(t):>10.2f} "
        f"{p(t, 90):>9.2f} {p(t, 99):>9.2f} {t.max():>9.2f} {'':>12} {'':>12} {'':>12} {0:>8}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES), help=f"comma list of {list(GAMES)}")
    ap.add_argument("--cards", default="full", help="cards in the mover's hand, or full")
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--max-nodes", type=int, default=20_000_000)
    ap.add_argument("--tt-mb", type=float, default=64)
    ap.add_argument("--card-values", action="store_true", help="time card_values, not solve")
    ap.add_argument("--dds-deals", type=int, default=100, help="random deals for DDS's row")
    ap.add_argument("--no-dds", action="store_true", help="leave out DDS's 2v2 row")
    ap.add_argument("--jsonl", help="also write every position's ms and nodes to this file")
    ap.add_argument(
        "--question", choices=("exact", "payoff"), default="exact",
        help="the side's exact points, or what its payoff needs (as the agents ask)",
    )  # fmt: skip
    ap.add_argument("--first-seed", type=int, default=1, help="positions from this deal seed on")
    ap.add_argument(
        "--refine-nodes", type=int, default=None,
        help="--question payoff: nodes a position spends past the payoff's steps "
        "(default: DEFAULT_REFINE_NODES; 0: the steps alone; -1: no limit)",
    )  # fmt: skip
    args = ap.parse_args()
    if args.first_seed < 0:
        raise SystemExit(f"--first-seed must be >= 0, got {args.first_seed}")
    opts = {"question": args.question, "first_seed": args.first_seed, "refine": args.refine_nodes}
    log = open(args.jsonl, "a") if args.jsonl else None
    table = new_points_table(args.tt_mb)
    table[1][META_NODE_LIMIT] = args.max_nodes
    what = "card_values" if args.card_values else "solve"
    print(
        f"{what}, {args.question} question: positions from rule play, seeds from "
        f"{args.first_seed}; budget {args.max_nodes:,} nodes; {args.tt_mb} MB"
    )
    print(HEADER)
    if not args.no_dds:
        print(_dds_row(args.dds_deals), flush=True)
    for key in args.games.split(","):
        if key not in GAMES:
            raise SystemExit(f"unknown game {key!r}; choose from {list(GAMES)}")
        name, game_opts = GAMES[key]
        game = trickgym.game(name, **game_opts)
        warm = rule_position(game, 0, 3) or rule_position(game, 1, 3)
        out, pay = np.empty(64, dtype=np.float64), np.empty(MAX_PAY, dtype=np.float64)
        # Compile the question's kernels outside the timings.
        _solve(warm, table, args.card_values, args.question, opts["refine"], out, pay)
        for cards in args.cards.split(","):
            t, n, bad = _row(game, cards, args.positions, table, args.card_values, log, key, opts)
            if len(t):
                print(_line(key, cards, t, n, bad), flush=True)


if __name__ == "__main__":
    main()
