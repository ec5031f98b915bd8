"""Large simulation runs: deals/s on one thread and on all, streaming cost, peak memory.

Run by hand::

    python benchmarks/bench_sim.py                       # 1M Solo Whist deals, 4 rule agents
    python benchmarks/bench_sim.py --deals 200000        # quicker
    python benchmarks/bench_sim.py --memory-deals 10000000   # + peak memory of a 10M run

Every timing is taken in this one session after a warm-up, so ratios are
comparable even on a loaded machine. Rows:

- ``1 thread`` / ``N threads``: ``simulate(..., columns=["contract",
  "made"])`` (rows played and reduced chunk by chunk, no file), the
  single-core rate and the all-core rate; the efficiency is ``all /
  (single x cores)``.
- ``N threads, dataset``: the same run written to a Parquet dataset
  (``out=``), i.e. what ``trickgym simulate --out`` does.
- ``peak memory``: a subprocess runs ``simulate(..., out=...)`` for
  ``--memory-deals`` deals; its maximum resident set size is read from
  ``resource.getrusage(RUSAGE_CHILDREN)``.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numba

from trickgym.sim import simulate

GAME = "solowhist"
AGENTS = "rule"


def timed(deals: int, threads: int | None, out=None) -> tuple[float, float]:
    """``(wall, cpu)`` seconds for one run of ``deals`` deals of four rule agents.

    CPU time (all threads of this process) shows the work a run costs even
    when a loaded machine stretches the wall time.
    """
    start, cpu = time.perf_counter(), time.process_time()
    if out is None:
        simulate(GAME, deals, AGENTS, seed=1, threads=threads, columns=["contract", "made"])
    else:
        simulate(GAME, deals, AGENTS, seed=1, threads=threads, out=out)
    return time.perf_counter() - start, time.process_time() - cpu


def peak_memory(deals: int, folder: str) -> tuple[float, float]:
    """``(seconds, peak RSS in MiB)`` of a ``deals``-deal dataset run in a subprocess."""
    code = (
        "from trickgym.sim import simulate; "
        f"simulate({GAME!r}, {deals}, {AGENTS!r}, seed=1, out={folder!r})"
    )
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    seconds = time.perf_counter() - start
    kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux
    return seconds, kib / 1024


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--memory-deals", type=int, default=0, help="0: skip the memory run")
    args = parser.parse_args()
    cores = numba.config.NUMBA_NUM_THREADS
    timed(5000, 1)  # warm-up: load or compile the kernels
    timed(5000, None)
    one = timed(args.deals, 1)
    all_ = timed(args.deals, None)
    tmp = tempfile.mkdtemp(prefix="bench_sim_")
    try:
        streamed = timed(args.deals, None, out=os.path.join(tmp, "run"))
        print(f"Solo Whist, four rule agents, {args.deals:,} deals, {cores} cores")
        print(f"{'run':<34}{'wall s':>8}{'deals/s':>12}{'CPU s':>8}{'CPU us/deal':>13}")
        for label, (wall, cpu) in [
            ("1 thread", one),
            (f"{cores} threads", all_),
            (f"{cores} threads, dataset (--out)", streamed),
        ]:
            print(
                f"{label:<34}{wall:>8.2f}{args.deals / wall:>12,.0f}{cpu:>8.2f}"
                f"{1e6 * cpu / args.deals:>13.2f}"
            )
        print(
            f"parallel efficiency (wall): {one[0] / (all_[0] * cores):.0%} in memory, "
            f"{one[0] / (streamed[0] * cores):.0%} dataset"
        )
        if args.memory_deals:
            seconds, mib = peak_memory(args.memory_deals, os.path.join(tmp, "big"))
            print(
                f"{args.memory_deals:,}-deal dataset run: {seconds:.1f} s "
                f"({args.memory_deals / seconds:,.0f} deals/s), peak RSS {mib:,.0f} MiB"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
