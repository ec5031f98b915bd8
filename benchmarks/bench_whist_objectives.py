"""Solo Whist's one-declarer objectives on random deals and on the deals agents bid.

Run by hand (never by the tests)::

    .venv/bin/python benchmarks/bench_whist_objectives.py            # 40 deals a set
    .venv/bin/python benchmarks/bench_whist_objectives.py --deals 20 --sets bid-misere
    .venv/bin/python benchmarks/bench_whist_objectives.py --max-nodes 100000000 --worst 5

Every position is a full deal at the first lead, solved for the objective
the game scores (one thread, the table cleared before each solve, outside
the timing):

- ``1v3``: the exact tricks of a lone declarer (``dd_tricks``), as the
  advisor asks of a Solo; ``solo``/``abund``/``abdecl``: the made-or-beaten
  probe at the contract's goal (5, 9, 13 tricks; Abundance Declared at no
  trumps with the declarer on lead);
- ``misere``: the made-or-beaten probe (can the declarer be held to no
  trick?), no trumps, eldest leads.

The sets of positions:

- ``random-*``: ``--deals`` random deals (seed ``--seed``), the declarer
  seat ``i % 4``, trumps suit ``i % 4`` for the trump objectives;
- ``bid-*``: the first ``--deals`` deals of each contract that rule agents
  bid (``simulate(..., "rule")``) and that the fitted rule preset bids
  (``"fitted"``), alternating, 4,000 deals each (seeds 1 and 2); Misère Ouverte, rarer, is
  taken from both and solved as a misère (double dummy, exposing the hand
  changes nothing);
- ``advisor-misere``: the advisor's deals of one misère hand (the first
  misère hand the rule agents bid): that hand fixed, the other 39 cards
  dealt at random ``--deals`` times.

It prints, per set, median, p90, p99 and max milliseconds and nodes of the
solves that finished, and how many ran past ``--max-nodes`` (counted, not
timed), then the ``--worst`` slowest positions (hands as bitboards, to
replay them).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from trickgym.solvers.dd import dd_reaches, dd_tricks, new_table
from trickgym.solvers.dd_search import META_ABORTED, META_NODE_LIMIT, META_NODES

SUITS = {"S": 0, "H": 1, "D": 2, "C": 3}
# contract name -> (set name, objective, goal)
BID = {
    "Solo": ("bid-solo", "solo", 5),
    "Abundance": ("bid-abund", "abund", 9),
    "Abundance in Trumps": ("bid-abund", "abund", 9),
    "Abundance Declared": ("bid-abdecl", "abdecl", 13),
    "Misère": ("bid-misere", "misere", 0),
    "Misère Ouverte": ("bid-m-ouverte", "misere", 0),
}


def _random_sets(n: int, seed: int) -> dict[str, list]:
    rng = np.random.default_rng(seed)
    sets: dict[str, list] = {
        "random-1v3": [],
        "random-solo": [],
        "random-abund": [],
        "random-misere": [],
    }
    for i in range(n):
        pack = rng.permutation(52)
        hands = np.array(
            [sum(1 << int(c) for c in pack[13 * p : 13 * p + 13]) for p in range(4)],
            dtype=np.uint64,
        )
        d = i % 4
        eldest = (d + 1) % 4
        sets["random-1v3"].append((hands, eldest, i % 4, d, "1v3", 0))
        sets["random-solo"].append((hands, eldest, i % 4, d, "solo", 5))
        sets["random-abund"].append((hands, eldest, i % 4, d, "abund", 9))
        sets["random-misere"].append((hands, eldest, -1, d, "misere", 0))
    return sets


def _bid_sets(n: int) -> dict[str, list]:
    import trickgym

    frames = [
        trickgym.simulate("solowhist", 4000, a, seed=seed)
        for a, seed in (("rule", 1), ("fitted", 2))
    ]
    sets: dict[str, list] = {"bid-1v3": []}
    for name, _, _ in BID.values():
        sets.setdefault(name, [])
    rows = [r for pair in zip(*(f.itertuples() for f in frames), strict=True) for r in pair]
    for r in rows:
        if r.contract not in BID:
            continue
        name, objective, goal = BID[r.contract]
        hands = np.array([r.hand_0, r.hand_1, r.hand_2, r.hand_3], dtype=np.uint64)
        d = int(r.declarer)
        lead = d if r.contract == "Abundance Declared" else (int(r.dealer) + 1) % 4
        trumps = SUITS.get(r.trumps, -1) if objective != "misere" else -1
        if len(sets[name]) < n:
            sets[name].append((hands, lead, trumps, d, objective, goal))
        if objective == "solo" and len(sets["bid-1v3"]) < n:
            sets["bid-1v3"].append((hands, lead, trumps, d, "1v3", 0))
    return sets


def _advisor_set(misere_hands: list, n: int, seed: int) -> dict[str, list]:
    """One misère hand fixed (the first of ``misere_hands``), the others dealt ``n`` times."""
    hands0, lead, _, d, _, _ = misere_hands[0]
    mine = int(hands0[d])
    rest = np.array([c for c in range(52) if not (mine >> c) & 1])
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        pack = rng.permutation(rest)
        hands = np.zeros(4, dtype=np.uint64)
        hands[d] = mine
        others = [p for p in range(4) if p != d]
        for k, p in enumerate(others):
            hands[p] = sum(1 << int(c) for c in pack[13 * k : 13 * k + 13])
        out.append((hands, lead, -1, d, "misere", 0))
    return {"advisor-misere": out}


def _solve(table, pos, max_nodes):
    hands, lead, trumps, d, objective, goal = pos
    trick = np.full(4, -1, dtype=np.int64)
    table[0].fill(0)
    table[1][2:] = 0
    table[1][META_NODE_LIMIT] = max_nodes
    mask = 1 << d
    t0 = time.perf_counter()
    if objective == "1v3":
        got = dd_tricks(hands, trick, 0, lead, trumps, mask, False, table)
    elif objective == "misere":
        got = dd_reaches(hands, trick, 0, lead, -1, mask, True, 1, table)
    else:
        got = dd_reaches(hands, trick, 0, lead, trumps, mask, False, goal, table)
    ms = (time.perf_counter() - t0) * 1e3
    return int(got), ms, int(table[1][META_NODES]), bool(table[1][META_ABORTED])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40, help="positions per set (default 40)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the random deals (default 0)")
    ap.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    ap.add_argument("--tt-mb", type=float, default=32, help="table size in MB (default 32)")
    ap.add_argument(
        "--max-nodes", type=int, default=60_000_000, help="node budget a solve (default 60 M)"
    )
    ap.add_argument("--worst", type=int, default=3, help="slowest positions listed per set")
    ap.add_argument("--answers", help="write every answer to this .npy (to compare runs)")
    args = ap.parse_args()

    sets = _random_sets(args.deals, args.seed)
    bid = _bid_sets(args.deals)
    sets.update(bid)
    sets.update(_advisor_set(bid["bid-misere"], args.deals, args.seed))
    if args.sets:
        wanted = [s.strip() for s in args.sets.split(",")]
        bad = [s for s in wanted if s not in sets]
        if bad:
            ap.error(f"unknown set(s) {bad}; choose from {', '.join(sets)}")
        sets = {s: sets[s] for s in wanted}

    table = new_table(args.tt_mb)
    warm = np.array([0x1FFF << (13 * s) for s in range(4)], np.uint64)
    trick = np.full(4, -1, dtype=np.int64)
    dd_tricks(warm, trick, 0, 0, 0, 1, False, table)  # compile / load outside the timing
    dd_reaches(warm, trick, 0, 0, -1, 1, True, 1, table)

    print(
        f"Solo Whist full deals at the first lead, one thread, table {args.tt_mb:g} MB, "
        f"budget {args.max_nodes:,} nodes a solve"
    )
    print(
        f"{'set':<16}{'n':>4}{'median':>9}{'p90':>9}{'p99':>9}{'max ms':>10}"
        f"{'med nodes':>12}{'p90 nodes':>12}{'max nodes':>13}{'unsolved':>9}{'>5 s':>6}"
    )
    answers = []
    worst_all = []
    for name, positions in sets.items():
        ms, nodes, over, slow = [], [], 0, 0
        rows = []
        for pos in positions:
            got, t, k, aborted = _solve(table, pos, args.max_nodes)
            answers.append(-2 if aborted else got)
            if aborted:
                over += 1
                rows.append((t, k, pos, "unsolved"))
                continue
            ms.append(t)
            nodes.append(k)
            slow += t > 5000
            rows.append((t, k, pos, got))
        if ms:
            a, b = np.array(ms), np.array(nodes)
            print(
                f"{name:<16}{len(positions):>4}{np.median(a):>9.1f}{np.percentile(a, 90):>9.1f}"
                f"{np.percentile(a, 99):>9.1f}{a.max():>10.1f}{np.median(b):>12,.0f}"
                f"{np.percentile(b, 90):>12,.0f}{b.max():>13,}{over:>9}{slow:>6}",
                flush=True,
            )
        else:
            print(f"{name:<16}{len(positions):>4}   (none finished){over:>9}", flush=True)
        rows.sort(key=lambda x: -x[0])
        worst_all.extend((name, *r) for r in rows[: args.worst])
    print("\nslowest positions (hands as bitboards, leader, trumps, declarer, objective, goal):")
    for name, t, k, pos, got in worst_all:
        hands, lead, trumps, d, objective, goal = pos
        print(
            f"{name:<16}{t:>9.1f} ms{k:>13,} nodes  answer {got}  "
            f"[{', '.join(hex(int(h)) for h in hands)}], {lead}, {trumps}, {d}, {objective}, {goal}"
        )
    if args.answers:
        np.save(args.answers, np.array(answers))


if __name__ == "__main__":
    main()
