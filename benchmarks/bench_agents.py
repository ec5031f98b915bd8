"""Random versus rule agents: full deals per second in the compiled simulator.

Run by hand: ``python benchmarks/bench_agents.py [--threads 1]``. For every
game (Troggu at 3, 5 and 8 players, Pinochle in both modes) it times
``trickgym.sim.simulate`` with every seat random and every seat rule-based,
after a warm-up, best of three, and prints the ratio rule / random.
"""

from __future__ import annotations

import argparse
import time

from trickgym.games import game_class
from trickgym.sim import simulate

CASES = [
    ("solowhist", {}, 200_000),
    ("troggu", {"players": 3}, 100_000),
    ("troggu", {"players": 5}, 100_000),
    ("troggu", {"players": 8}, 100_000),
    ("phat", {}, 30_000),  # matches (about 4 deals each)
    ("pinochle", {"mode": "kitty"}, 100_000),
    ("pinochle", {"mode": "exchange"}, 100_000),
]


def deals_per_second(game: str, options: dict, count: int, agents: str, threads: int) -> float:
    """Best of three timings of ``count`` deals (Phat: matches) after a warm-up."""
    key = game_class(game).run_unit
    simulate(game, agents=agents, seed=9, threads=threads, **{key: 200}, **options)
    best = float("inf")
    rows = 0
    for _ in range(3):
        start = time.process_time()
        df = simulate(game, agents=agents, seed=1, threads=threads, **{key: count}, **options)
        best = min(best, time.process_time() - start)
        rows = len(df)
    return rows / best


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--game", default=None, help="only this game")
    args = parser.parse_args()
    print(f"{'game':<28}{'random deals/s':>16}{'rule deals/s':>14}{'rule/random':>13}")
    for game, options, count in CASES:
        if args.game and game != args.game:
            continue
        label = game + "".join(f" {k}={v}" for k, v in options.items())
        fast = deals_per_second(game, options, count, "random", args.threads)
        rule = deals_per_second(game, options, count, "rule", args.threads)
        print(f"{label:<28}{fast:>16,.0f}{rule:>14,.0f}{rule / fast:>13.2f}")


if __name__ == "__main__":
    main()
