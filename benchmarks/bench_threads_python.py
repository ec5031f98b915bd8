"""Python agents on 1 and N threads: deals/s of ``simulate`` with a ``pimc`` seat.

Run by hand (never by the test suite), on a quiet machine::

    .venv/bin/python benchmarks/bench_threads_python.py [--deals N] [--threads 1,2] [--game G]

``trickgym.simulate`` with ``pimc`` in seat 0 and rule agents elsewhere
(Phat: whole matches, ``--deals // 10`` of them), after a warm-up run that
loads (or compiles) PIMC's kernels. Each timed run is a fresh call: with
more than one thread it starts its worker processes
(:mod:`trickgym.sim.python_pool`), so their start-up is in the figure, as a
user meets it. Prints the load average before and after (the machine may be
shared), wall and CPU seconds (the workers' CPU included: what the threads
cost over one), deals/s per thread count, the speed-up over one thread and
whether the rows are the same. Unix only (``resource``).
"""

from __future__ import annotations

import argparse
import os
import resource
import time


def _cpu() -> float:
    """CPU seconds of this process and of its children that ended (the run's workers)."""
    me, children = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def _run(game: str, count: int, threads: int, seed: int):
    """``(wall s, cpu s, rows)`` of one run."""
    import trickgym

    size = {"matches": max(1, count // 10)} if game == "phat" else {"deals": count}
    agents = ["pimc"] + ["rule"] * (trickgym.game(game).n_seats - 1)
    start, cpu = time.perf_counter(), _cpu()
    rows = trickgym.simulate(
        game, agents=agents, seed=seed, threads=threads, progress=False, **size
    )
    return time.perf_counter() - start, _cpu() - cpu, rows


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    """Print deals/s on each thread count and the speed-up over the first."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="solowhist")
    parser.add_argument("--deals", type=int, default=300, help="deals per timed run")
    parser.add_argument("--threads", default="1,2", help="thread counts, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    counts = [int(t) for t in args.threads.split(",")]
    print(f"bench_threads_python: {args.game}, pimc + rule, {args.deals} deals a run")
    print(f"load average before (1, 5, 15 min): {_load()}", flush=True)
    _run(args.game, 2, 1, args.seed)  # warm-up: load or compile PIMC's kernels
    results = {}
    for threads in counts:
        seconds, cpu, rows = _run(args.game, args.deals, threads, args.seed)
        results[threads] = (seconds, rows)
        print(
            f"{threads} thread(s): {seconds:7.1f} s wall  {cpu:7.1f} s cpu (workers included)  "
            f"{len(rows) / seconds:7.2f} rows/s  (load now {_load()})",
            flush=True,
        )
    base_seconds, base_rows = results[counts[0]]
    for threads in counts[1:]:
        seconds, rows = results[threads]
        print(
            f"{threads} threads / {counts[0]}: {base_seconds / seconds:.2f}x, "
            f"same rows: {'yes' if rows.equals(base_rows) else 'NO'}"
        )
    print(f"load average after: {_load()}")


if __name__ == "__main__":
    main()
