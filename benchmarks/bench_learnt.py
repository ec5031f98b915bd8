"""The learnt agent's cost: ms per decision, and deals/s beside the compiled rule agent.

Run by hand: ``python benchmarks/bench_learnt.py [--deals 2000]``. For each game
with shipped weights, seat 0 is ``learnt`` among rule agents: it times every
``act_record`` call (median, p90, max) and the whole run in deals/s, beside
the same deals with every seat the compiled rule agent (the baseline).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from bench_mc import Timed
from trickgym.agents.learnt import LearntAgent, shipped_weights

import trickgym


def main() -> None:
    """Print one line per game with shipped weights."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=2000, help="deals (Phat: a tenth as many matches)")
    a = p.parse_args()
    for weights in shipped_weights():
        name = weights.removesuffix(".npz").split("-")[0]
        game = trickgym.game(name)
        unit = {"matches": max(1, a.deals // 10)} if name == "phat" else {"deals": a.deals}
        agent = Timed(LearntAgent(game))
        trickgym.simulate(
            name, agents=[agent, "rule", "rule", "rule"], seed=1, **{k: 2 for k in unit}
        )  # warm-up: compile and load
        agent.times.clear()
        t = time.perf_counter()
        df = trickgym.simulate(name, agents=[agent, "rule", "rule", "rule"], seed=2, **unit)
        learnt_s = time.perf_counter() - t
        t = time.perf_counter()
        trickgym.simulate(name, agents="rule", seed=2, threads=1, **unit)
        rule_s = time.perf_counter() - t
        ms = np.array(agent.times) * 1e3
        print(
            f"{name}: {len(ms):,} decisions, ms per decision median {np.median(ms):.3f} "
            f"p90 {np.percentile(ms, 90):.3f} max {ms.max():.2f}; "
            f"{len(df) / learnt_s:,.0f} deals/s "
            f"with learnt at seat 0, {len(df) / rule_s:,.0f} all rule (one thread): "
            f"learnt costs {learnt_s / rule_s:.0f}x"
        )


if __name__ == "__main__":
    main()
