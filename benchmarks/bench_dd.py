"""Double-dummy solver on random full deals, every Solo Whist objective, beside DDS.

Run by hand (never by the tests)::

    .venv/bin/python benchmarks/bench_dd.py                      # 40 deals, all objectives
    .venv/bin/python benchmarks/bench_dd.py --deals 200 --strain S --objectives 2v2,1v3

Each deal is solved for every objective asked, one after another, so machine
load hits all alike (the table is cleared before each solve, outside the
timed region):

- ``2v2``: DDS (``endplay.dds.solve_board``, one thread, the side on lead's
  best tricks) and ``dd_tricks`` for the same side; the answers must agree;
- ``1v3``: one declarer (seat ``deal % 4``, the next seat leads) in ``--strain``;
- ``1v3nt``: the same at no trumps;
- ``misere``: the made-or-beaten probe (can the declarer be held to no
  trick?), no trumps;
- ``misere-exact``: the exact count of a misère declarer's tricks, with a
  node budget (``--max-nodes``; solves past it are counted, not timed).

It prints median, mean, 90th and 99th percentile and maximum milliseconds per
full 13-trick solve for each, and the median nodes.

``--played N`` also solves the first N contracts of one declarer that rule
agents bid (seeds 1, 2, ...), at the start of their play, for the contract's
own objective: the tricks of a Solo or Abundance, the made-or-beaten probe of
a misère, with the node budget (such deals are what Monte Carlo agents
sample: a misère declarer's hand is low, and proving it safe is the hard
case).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from trickgym.cards.notation import format_hand
from trickgym.solvers.dd import TRUMPS, dd_reaches, dd_tricks, new_table
from trickgym.solvers.dd_search import META_ABORTED, META_NODE_LIMIT, META_NODES

OBJECTIVES = ("2v2", "1v3", "1v3nt", "misere", "misere-exact")


def _dds_solver(strain: str):
    """DDS through endplay: a function of (hands, leader) -> (tricks, ms)."""
    from endplay import _dds
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    denom = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs}
    denom["NT"] = Denom.nt
    _dds.SetMaxThreads(1)

    def solve(hands, leader):
        deal = Deal("N:" + " ".join(format_hand(h) for h in hands), Player(leader), denom[strain])
        t0 = time.perf_counter()
        best = max(score for _, score in solve_board(deal, SolveMode.OptimalOne))
        return best, (time.perf_counter() - t0) * 1e3

    return solve


def _summary(name: str, ms: list[float], nodes: list[int], over: int = 0) -> str:
    if not ms:
        return f"{name:<14}{'(none finished)':>12}"
    a = np.array(ms)
    line = (
        f"{name:<14}{np.median(a):>9.2f}{a.mean():>9.2f}{np.percentile(a, 90):>9.2f}"
        f"{np.percentile(a, 99):>10.1f}{a.max():>10.1f}{np.median(nodes):>13,.0f}"
    )
    if over:
        line += f"   ({over} past the node budget)"
    return line


def _played(n: int, table, max_nodes: int) -> None:
    """Time the first ``n`` rule-bid one-declarer contracts, by kind of objective."""
    import trickgym
    from trickgym.engine.loops import act
    from trickgym.engine.params import params_matrix
    from trickgym.games.solowhist.constants import MISERE, MISERE_OUVERTE, PLAY

    game = trickgym.game("solowhist")
    params = params_matrix("solowhist", 4)
    scratch = np.empty(1, dtype=game.obs_dtype)
    trick = np.full(4, -1, dtype=np.int64)
    ms = {"tricks": [], "misere": []}
    nodes = {"tricks": [], "misere": []}
    over = {"tricks": 0, "misere": 0}
    seed = 0
    while sum(len(v) for v in ms.values()) + sum(over.values()) < n:
        seed += 1
        state = game.deal(seed=seed)
        rng = np.array([seed], dtype=np.uint64)
        while not state.is_over and int(state.record["phase"]) != PLAY:
            p = state.current_player
            state.apply(int(act(1, state.array[0], p, rng, scratch, params, None)))
        r = state.record
        if state.is_over or bin(int(r["declarers"])).count("1") != 1:
            continue
        misere = int(r["contract"]) in (MISERE, MISERE_OUVERTE)
        kind = "misere" if misere else "tricks"
        hands = r["hands"].astype(np.uint64)
        table[0].fill(0)
        table[1][2:] = 0
        table[1][META_NODE_LIMIT] = max_nodes
        args = (hands, trick, 0, int(r["leader"]), int(r["trumps"]), int(r["declarers"]))
        t0 = time.perf_counter()
        if misere:
            dd_reaches(*args, True, 1, table)
        else:
            dd_tricks(*args, False, table)
        elapsed = (time.perf_counter() - t0) * 1e3
        if table[1][META_ABORTED]:
            over[kind] += 1
            continue
        ms[kind].append(elapsed)
        nodes[kind].append(int(table[1][META_NODES]))
    table[1][META_NODE_LIMIT] = 0
    print(
        f"\n{n} contracts of one declarer bid by rule agents (seeds 1..{seed}), node budget "
        f"{max_nodes:,} a solve"
    )
    print(_summary("solo/abund.", ms["tricks"], nodes["tricks"], over["tricks"]))
    print(_summary("misere probe", ms["misere"], nodes["misere"], over["misere"]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40, help="random full deals (default 40)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the deals (default 0)")
    ap.add_argument("--strain", default="S", choices=list(TRUMPS), help="2v2/1v3 strain (S)")
    ap.add_argument(
        "--objectives",
        default=",".join(OBJECTIVES),
        help=f"comma-separated, from {', '.join(OBJECTIVES)} (default: all)",
    )
    ap.add_argument(
        "--leader",
        type=int,
        choices=range(4),
        help="2v2 leader (default: deal %% 4); the 1v3 declarer is deal %% 4, the next seat leads",
    )
    ap.add_argument("--tt-mb", type=float, default=32, help="table size in MB (default 32)")
    ap.add_argument("--played", type=int, default=0, help="also N rule-bid contracts (default 0)")
    ap.add_argument("--keep-table", action="store_true", help="do not clear the table per solve")
    ap.add_argument(
        "--max-nodes",
        type=int,
        default=50_000_000,
        help="node budget of a misere-exact solve (default 50,000,000, about 5 s)",
    )
    args = ap.parse_args()
    objectives = [o.strip() for o in args.objectives.split(",") if o.strip()]
    bad = [o for o in objectives if o not in OBJECTIVES]
    if bad:
        ap.error(f"unknown objective(s) {bad}; choose from {', '.join(OBJECTIVES)}")

    rng = np.random.default_rng(args.seed)
    table = new_table(args.tt_mb)
    trick = np.full(4, -1, dtype=np.int64)
    trumps = TRUMPS[args.strain]
    warm = np.array([0x1FFF << (13 * s) for s in range(4)], np.uint64)
    dd_tricks(warm, trick, 0, 0, trumps, 5, False, table)  # compile / load outside the timing
    dd_reaches(warm, trick, 0, 0, -1, 1, True, 1, table)
    dds = _dds_solver(args.strain) if "2v2" in objectives else None

    ms = {o: [] for o in objectives}
    nodes = {o: [] for o in objectives}
    dds_ms: list[float] = []
    over = 0
    for i in range(args.deals):
        pack = rng.permutation(52)
        hands = [sum(1 << int(c) for c in pack[13 * p : 13 * p + 13]) for p in range(4)]
        boards = np.array(hands, dtype=np.uint64)
        declarer = i % 4
        eldest = (declarer + 1) % 4
        lead2 = i % 4 if args.leader is None else args.leader
        for o in objectives:
            if not args.keep_table:
                table[0].fill(0)
            table[1][2:] = 0
            if o == "misere-exact":
                table[1][META_NODE_LIMIT] = args.max_nodes
            t0 = time.perf_counter()
            if o == "2v2":
                side = 0b0101 if lead2 % 2 == 0 else 0b1010
                got = dd_tricks(boards, trick, 0, lead2, trumps, side, False, table)
            elif o == "1v3":
                got = dd_tricks(boards, trick, 0, eldest, trumps, 1 << declarer, False, table)
            elif o == "1v3nt":
                got = dd_tricks(boards, trick, 0, eldest, -1, 1 << declarer, False, table)
            elif o == "misere":
                got = dd_reaches(boards, trick, 0, eldest, -1, 1 << declarer, True, 1, table)
            else:
                got = dd_tricks(boards, trick, 0, eldest, -1, 1 << declarer, True, table)
            elapsed = (time.perf_counter() - t0) * 1e3
            if table[1][META_ABORTED]:
                over += 1
                continue
            ms[o].append(elapsed)
            nodes[o].append(int(table[1][META_NODES]))
            if o == "2v2":
                ref, t_dds = dds(hands, lead2)
                if got != ref:
                    raise SystemExit(f"deal {i}: trickgym {got} != DDS {ref}: {hands}")
                dds_ms.append(t_dds)

    print(
        f"{args.deals} random full deals, seed {args.seed}, strain {args.strain} for 2v2/1v3, "
        f"table {args.tt_mb:g} MB, one thread"
        + ("; 2v2 answers all equal to DDS" if dds_ms else "")
    )
    print(
        f"{'objective':<14}{'median':>9}{'mean':>9}{'p90':>9}{'p99':>10}{'max ms':>10}"
        f"{'med. nodes':>13}"
    )
    if dds_ms:
        print(_summary("DDS 2v2", dds_ms, [0]).replace("            0", "            -"))
    for o in objectives:
        print(_summary(o, ms[o], nodes[o], over if o == "misere-exact" else 0))
    if dds_ms:
        ref = np.median(dds_ms)
        ratios = ", ".join(f"{o} {np.median(ms[o]) / ref:.2f}" for o in objectives if ms[o])
        print(f"median / DDS 2v2 median: {ratios}")
    if args.played:
        _played(args.played, table, args.max_nodes)


if __name__ == "__main__":
    main()
