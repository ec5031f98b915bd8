"""One Solo Whist duplicate tournament with timed PIMC agents; rows saved for diagnosis.

    NUMBA_NUM_THREADS=1 python experiments/solowhist_bid_tournament.py pimc,rule 1000 OUT.pkl \
        [--bids playouts|dd|calibrated|hybrid] [--margin POINTS]

Seed 2026 (as ``benchmarks/ladder_solowhist.py``); PIMC at its defaults (seed 1) with
the bidder named by ``--bids``. Prints the report and ms per decision, split into
bids (auction, Cop offer, upgrade, trump choice) and cards; saves the
TournamentReport's rows, bids and the timings to OUT.pkl.
"""

from __future__ import annotations

import argparse
import pickle
import time

import numpy as np

import trickgym
from trickgym.agents.mc import ISMCTSAgent, PIMCAgent

PLAY = 4


class Timed:
    """Wraps an agent, timing each decision with the phase it was taken in."""

    def __init__(self, agent):
        self.agent = agent
        self.times = []  # (phase, n_legal, seconds)

    def start_deal(self, seed, seat):
        self.agent.start_deal(seed, seat)

    def act(self, observation, mask):
        return self.agent.act(observation, mask)

    def act_record(self, record, mask):
        t = time.perf_counter()
        a = self.agent.act_record(record, mask)
        self.times.append((int(record[0]["phase"]), int(mask.sum()), time.perf_counter() - t))
        return a


def summary(name, ts):
    ts = np.asarray(ts) * 1e3
    if len(ts) == 0:
        return f"{name}: none"
    return (
        f"{name}: {len(ts)} decisions, median {np.median(ts):.2f} p90 "
        f"{np.percentile(ts, 90):.1f} max {ts.max():.0f} ms"
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pair")
    ap.add_argument("deals", type=int)
    ap.add_argument("out")
    ap.add_argument("--bids", default=None, help="PIMC bidder: rule or solved (default: agent's)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--margin", type=float, default=None, help="the bidder's margin (points)")
    args = ap.parse_args()
    g = trickgym.game("solowhist")

    def make(name):
        kw = {} if args.bids is None else {"bids": args.bids}
        if args.margin is not None:
            from dataclasses import replace

            from trickgym.agents.mc.solved_bids import CALIBRATION

            kw["bid_calibration"] = replace(CALIBRATION, margin=args.margin)
        if name == "pimc":
            return Timed(PIMCAgent(g, seed=1, **kw))
        if name == "ismcts":
            return Timed(ISMCTSAgent(g, seed=1))
        return name

    names = args.pair.split(",")
    agents = [make(n) for n in names]
    for a in agents:
        if not isinstance(a, str):
            trickgym.tournament("solowhist", [a.agent, "rule"], deals=1, seed=99)  # compile
    t = time.perf_counter()
    r = trickgym.tournament("solowhist", agents, deals=args.deals, seed=args.seed)
    wall = time.perf_counter() - t
    r.standings.index = names
    print(
        f"== {args.pair} deals={args.deals} seed={args.seed} bids={args.bids} "
        f"margin={args.margin} wall={wall:.0f}s"
    )
    print(r.format())
    timings = {}
    for n, a in zip(names, agents, strict=True):
        if isinstance(a, str):
            continue
        arr = np.array(a.times, dtype=np.float64).reshape(-1, 3)
        timings[n] = arr
        multi = arr[arr[:, 1] > 1]
        print(f"{n} {a.agent._budget()}")
        print("  " + summary("all decisions", arr[:, 2]))
        print("  " + summary("bids (>1 legal)", multi[multi[:, 0] != PLAY, 2]))
        print("  " + summary("cards (>1 legal)", multi[multi[:, 0] == PLAY, 2]))
        print(f"  1000-deal tournament: {wall / args.deals * 1000 / 60:.1f} min")
    with open(args.out, "wb") as f:
        pickle.dump(
            {
                "names": names,
                "rows": r.rows,
                "bids": r.bids,
                "standings": r.standings,
                "difference": r.difference,
                "timings": timings,
                "wall": wall,
            },
            f,
        )


if __name__ == "__main__":
    main()
