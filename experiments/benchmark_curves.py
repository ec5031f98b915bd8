"""Learning curves of the benchmark's PPO runs: each ``curve.csv`` as a PNG under docs/.

Run: ``python experiments/benchmark_curves.py [--runs experiments/results/benchmark/ppo]
[--out docs/pictures/benchmark]``. Each folder of ``--runs`` is one table's
run of ``experiments/cleanrl_masked_ppo.py`` (its ``curve.csv``: update, env
steps, mean episode reward over the update); the PNG shows that mean per
update and its running mean over 20 updates, against env steps.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt
import pandas as pd

WINDOW = 20  # updates in the running mean: one update's mean is over a few hundred episodes


def plot(curve: Path, out: Path, title: str) -> None:
    """One run's learning curve as a PNG."""
    df = pd.read_csv(curve)
    fig, ax = plt.subplots(figsize=(6, 3.4), dpi=100)
    ax.plot(df["env_steps"], df["mean_episode_reward"], lw=0.6, alpha=0.4, label="per update")
    smooth = df["mean_episode_reward"].rolling(WINDOW, min_periods=1).mean()
    ax.plot(df["env_steps"], smooth, lw=1.6, label=f"running mean of {WINDOW} updates")
    ax.axhline(0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("env steps (learner decisions)")
    ax.set_ylabel("mean episode reward")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", default="experiments/results/benchmark/ppo")
    ap.add_argument("--out", default="docs/pictures/benchmark")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for curve in sorted(Path(args.runs).glob("*/curve.csv")):
        name = curve.parent.name
        if not (curve.parent / "policy.npz").exists():  # still training: the curve is partial
            continue
        target = out / f"ppo-{name}.png"
        plot(curve, target, f"CleanRL masked PPO, {name}, against rule (rule bidding)")
        print(f"wrote {target}")


if __name__ == "__main__":
    main()
