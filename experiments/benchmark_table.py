"""The benchmark's results as Markdown: one table per benchmark table, a row per agent.

Run: ``python experiments/benchmark_table.py [--results experiments/results/benchmark]``.
Reads every CSV that ``trickgym evaluate --benchmark --out FILE.csv`` wrote
there (``random.csv``, ``rule.csv``, ...; ``ppo-<table>.csv`` are the PPO
policies, one table each) and prints, per table, each agent's margin per
deal over each opponent with its 95% interval and the deals played
(docs/benchmark.md is this output).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from trickgym.benchmark import TABLES

AGENTS = ("random", "rule", "learnt", "pimc", "ppo")  # row order; others follow


def cell(row) -> str:
    """``+1.23 [+0.45, +2.01] (n)``; bold where the interval excludes 0."""
    text = f"{row['margin']:+.2f} [{row['ci_low']:+.2f}, {row['ci_high']:+.2f}]"
    if row["significant"]:
        text = f"**{text}**"
    return f"{text} ({int(row['deals']):,})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default="experiments/results/benchmark")
    args = ap.parse_args()
    frames = []
    for path in sorted(Path(args.results).glob("*.csv")):
        agent = path.stem.split("-")[0]  # ppo-solowhist.csv: the PPO policy of one table
        frames.append(pd.read_csv(path).assign(agent=agent))
    df = pd.concat(frames, ignore_index=True)
    order = {name: k for k, name in enumerate(AGENTS)}
    agents = sorted(df["agent"].unique(), key=lambda a: (order.get(a, len(order)), a))
    for t in [t for t in TABLES if t.name in set(df["table"])]:
        table, rows, opponents = t.name, df[df["table"] == t.name], list(t.opponents)
        seed = int(rows["seed"].iloc[0])
        print(f"\n#### {table} (seed {seed})\n")
        print("| agent | " + " | ".join(f"vs {o}" for o in opponents) + " |")
        print("|---|" + "---|" * len(opponents))
        for agent in agents:
            mine = rows[rows["agent"] == agent].set_index("opponent")
            if mine.empty:  # an agent that cannot play this table (learnt without weights)
                print(f"| {agent} | " + " | ".join("n/a" for _ in opponents) + " |")
                continue
            cells = [cell(mine.loc[o]) if o in mine.index else "(itself)" for o in opponents]
            print(f"| {agent} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
