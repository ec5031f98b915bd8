"""Oracle simulations on 1 and 2 threads: does the oracle keep the simulators parallel?

Run by hand (never by the test suite), on a quiet machine::

    .venv/bin/python benchmarks/bench_oracle_threads.py [--deals N] [--repeats R]

For each game, ``trickgym.simulate`` with the oracle in seat 0 and rule
agents elsewhere (Phat: whole matches), after a warm-up run that compiles
the oracle's loop; the median of ``--repeats`` timed runs on 1 thread and
on 2 threads, and their ratio. The oracle's solver is called from the
compiled loop directly (no object mode), so each work item runs on its own
thread; rows are identical for any thread count.
"""

from __future__ import annotations

import argparse
import statistics
import time

CONFIGS = {
    "solowhist": {},
    "troggu 5": {"players": 5},
    "phat": {},
    "pinochle kitty": {},
}


def _run(name: str, options: dict, count: int, threads: int):
    import trickgym

    game = name.split()[0]
    n = options.get("players", 4)
    agents = ["oracle"] + ["rule"] * (n - 1)
    size = {"matches": max(1, count // 10)} if game == "phat" else {"deals": count}
    start = time.perf_counter()
    rows = trickgym.simulate(game, agents=agents, seed=3, threads=threads, **size, **options)
    return time.perf_counter() - start, rows


def main() -> None:
    """Print seconds on 1 and 2 threads and the speed-up, per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40, help="deals per timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per thread count")
    args = parser.parse_args()
    table = []
    for name, options in CONFIGS.items():
        _run(name, options, 2, 2)  # warm-up: compile or load the oracle's loop
        times = {}
        for threads in (1, 2):
            runs = [_run(name, options, args.deals, threads) for _ in range(args.repeats)]
            times[threads] = statistics.median(t for t, _ in runs)
        same = runs[0][1].equals(_run(name, options, args.deals, 1)[1])
        table.append(
            (
                name,
                f"{times[1]:.2f} s",
                f"{times[2]:.2f} s",
                f"{times[1] / times[2]:.2f}x",
                "yes" if same else "NO",
            )
        )
    header = ("game", "1 thread", "2 threads", "speed-up", "same rows")
    widths = [max(len(str(r[i])) for r in [header, *table]) for i in range(len(header))]
    for row in [header, *table]:
        print("  ".join(str(v).ljust(w) for v, w in zip(row, widths, strict=True)))


if __name__ == "__main__":
    main()
