"""What the single env's ``info`` costs: steps/s with it and with it stubbed out, same run.

Run by hand: ``python benchmarks/bench_env_info.py [--games solowhist,pinochle]
[--steps 20000] [--repeats 3]``.

For each game: ``gym.make("trickgym/<Game>-v0", opponents="rule")``, the
learner playing uniformly random legal actions, ``--steps`` steps per
repeat, alternating runs with the real ``info`` (contract, declarer,
legal-action count) and with ``TrickEnv._info`` returning ``{}`` (the
baseline). Prints the medians and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium as gym
import numpy as np

import trickgym  # noqa: F401  (registers the env ids)
from trickgym.envs.base import TrickEnv

ENV_IDS = {"solowhist": "SoloWhist", "troggu": "Troggu", "phat": "Phat", "pinochle": "Pinochle"}


def steps_per_second(env, n: int) -> float:
    """Steps/s of ``n`` steps of random legal actions, resetting at each episode's end."""
    rng = np.random.default_rng(0)
    env.reset(seed=1)
    start = time.perf_counter()
    for _ in range(n):
        action = int(rng.choice(np.flatnonzero(env.unwrapped.action_masks())))
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset()
    return n / (time.perf_counter() - start)


def main() -> None:
    """Print each game's steps/s with and without ``info``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="solowhist,pinochle")
    ap.add_argument("--steps", type=int, default=20_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    real = TrickEnv._info
    for game in args.games.split(","):
        options = {"players": 4} if game == "troggu" else {}
        env = gym.make(f"trickgym/{ENV_IDS[game]}-v0", opponents="rule", **options)
        steps_per_second(env, 2000)  # compiled and warm
        runs = {"with": [], "without": []}
        try:
            for _ in range(args.repeats):
                TrickEnv._info = real
                runs["with"].append(steps_per_second(env, args.steps))
                TrickEnv._info = lambda self, observation, over: {}
                runs["without"].append(steps_per_second(env, args.steps))
        finally:
            TrickEnv._info = real
        with_info, without = (statistics.median(runs[k]) for k in ("with", "without"))
        print(f"{game}: with info {with_info:,.0f} steps/s, without {without:,.0f} steps/s, "
              f"ratio {with_info / without:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
