"""Solo Whist ladder: one duplicate tournament (every seating, 95% intervals) and ms per decision.

    python benchmarks/ladder_solowhist.py pimc,rule 200     # agents: random rule oracle pimc ismcts

Seed 2026; the Monte Carlo agents at their default budgets (seed 1). Run by hand.
"""

import sys
import time

import numpy as np
from bench_mc import Timed

import trickgym
from trickgym.agents.mc import ISMCTSAgent, PIMCAgent

pair = sys.argv[1]
deals = int(sys.argv[2])
seed = 2026
g = trickgym.game("solowhist")


def make(name):
    if name == "pimc":
        return Timed(PIMCAgent(g, seed=1))
    if name == "ismcts":
        return Timed(ISMCTSAgent(g, seed=1))
    return name


names = pair.split(",")
agents = [make(n) for n in names]
for a in agents:
    if not isinstance(a, str):
        trickgym.tournament("solowhist", [a.agent, "rule"], deals=1, seed=99)  # compile
        times = []
        orig = a.act_record

        def rec(r, m, orig=orig, times=times):
            t = time.perf_counter()
            x = orig(r, m)
            times.append(time.perf_counter() - t)
            return x

        a.act_record = rec
        a.times = times
t = time.perf_counter()
r = trickgym.tournament("solowhist", agents, deals=deals, seed=seed)
wall = time.perf_counter() - t
r.standings.index = names
print(f"== {pair} deals={deals} seed={seed} wall={wall:.0f}s")
print(r.format())
for n, a in zip(names, agents, strict=True):
    if not isinstance(a, str):
        ts = np.array(a.times) * 1e3
        searched = ts[ts > 0.05]  # forced moves and rule-agent phases take microseconds
        med, p90 = np.median(ts), np.percentile(ts, 90)
        smed, sp90 = np.median(searched), np.percentile(searched, 90)
        print(
            f"{n} {a.agent._budget()}: {len(ts)} decisions, median {med:.2f} p90 {p90:.1f} "
            f"max {ts.max():.0f} ms; over 0.05 ms ({len(searched)}): median {smed:.1f} "
            f"p90 {sp90:.1f} ms; 1000-deal tournament {wall / deals * 1000 / 60:.1f} min"
        )
