"""Double-dummy solver against DDS on the same random full deals, in one run.

Run by hand (never by the tests)::

    .venv/bin/python benchmarks/bench_dd.py                    # 40 deals
    .venv/bin/python benchmarks/bench_dd.py --deals 200 --strain S --leader 1

Each deal is solved once by DDS (``endplay.dds.solve_board``, one thread,
the best card's tricks for the side on lead) and once by
``trickgym.solvers.dd.dd_tricks`` (the table cleared before each deal,
outside the timed region), alternately, so machine load hits both alike.
It checks the answers are equal and prints median, 90th percentile and mean
milliseconds per full 13-trick solve for each solver, their ratios, and where
trickgym's time goes (nodes, null-window probes, table hits per solve).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from endplay import _dds
from endplay.dds import solve_board
from endplay.dds.solve import SolveMode
from endplay.types import Deal, Denom, Player

from trickgym.cards.notation import format_hand
from trickgym.solvers.dd import TRUMPS, dd_tricks, new_table
from trickgym.solvers.dd_search import META_NODES, META_PROBES, META_TT_HITS, META_TT_STORES

DENOM = {
    "S": Denom.spades,
    "H": Denom.hearts,
    "D": Denom.diamonds,
    "C": Denom.clubs,
    "NT": Denom.nt,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--strain", default="NT", choices=list(DENOM))
    ap.add_argument("--leader", type=int, default=0, choices=range(4))
    ap.add_argument("--tt-mb", type=float, default=32)
    ap.add_argument("--keep-table", action="store_true", help="do not clear the table per deal")
    args = ap.parse_args()

    _dds.SetMaxThreads(1)
    rng = np.random.default_rng(args.seed)
    table = new_table(args.tt_mb)
    trick = np.full(4, -1, dtype=np.int64)
    trumps = TRUMPS[args.strain]
    side = 0b0101 if args.leader % 2 == 0 else 0b1010
    warm = np.array([int(m) for m in [0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39]], np.uint64)
    dd_tricks(warm, trick, 0, 0, trumps, 5, False, table)  # compile / load outside the timing

    ours, theirs, nodes, probes, hits, stores = [], [], [], [], [], []
    for i in range(args.deals):
        pack = rng.permutation(52)
        hands = [sum(1 << int(c) for c in pack[13 * p : 13 * p + 13]) for p in range(4)]
        deal = Deal(
            "N:" + " ".join(format_hand(h) for h in hands),
            Player(args.leader),
            DENOM[args.strain],
        )
        boards = np.array(hands, dtype=np.uint64)
        if not args.keep_table:
            table[0].fill(0)
        table[1][2:] = 0
        t0 = time.perf_counter()
        ref = max(score for _, score in solve_board(deal, SolveMode.OptimalOne))
        t1 = time.perf_counter()
        got = dd_tricks(boards, trick, 0, args.leader, trumps, side, False, table)
        t2 = time.perf_counter()
        if got != ref:
            raise SystemExit(f"deal {i}: trickgym {got} != DDS {ref}: {deal.to_pbn()}")
        theirs.append((t1 - t0) * 1e3)
        ours.append((t2 - t1) * 1e3)
        meta = table[1]
        nodes.append(meta[META_NODES])
        probes.append(meta[META_PROBES])
        hits.append(meta[META_TT_HITS])
        stores.append(meta[META_TT_STORES])

    ours_a, theirs_a = np.array(ours), np.array(theirs)
    print(
        f"{args.deals} random full deals, strain {args.strain}, leader {args.leader}, "
        f"seed {args.seed}: all answers equal to DDS"
    )
    print(f"{'solver':<10}{'median ms':>11}{'p90 ms':>10}{'mean ms':>10}{'max ms':>10}")
    for name, a in (("trickgym", ours_a), ("DDS", theirs_a)):
        print(
            f"{name:<10}{np.median(a):>11.2f}{np.percentile(a, 90):>10.2f}"
            f"{a.mean():>10.2f}{a.max():>10.1f}"
        )
    print(
        f"ratio trickgym/DDS: median {np.median(ours_a) / np.median(theirs_a):.2f}, "
        f"p90 {np.percentile(ours_a, 90) / np.percentile(theirs_a, 90):.2f}, "
        f"mean {ours_a.mean() / theirs_a.mean():.2f}; "
        f"per-deal ratio median {np.median(ours_a / theirs_a):.2f}"
    )
    nodes_a = np.array(nodes, dtype=float)
    print(
        f"trickgym per solve: median {np.median(nodes_a):,.0f} nodes, "
        f"{np.median(probes):.0f} probes, {np.median(hits):,.0f} table hits, "
        f"{np.median(stores):,.0f} stores; {np.sum(ours_a) * 1e6 / nodes_a.sum():.0f} ns per node"
    )


if __name__ == "__main__":
    main()
