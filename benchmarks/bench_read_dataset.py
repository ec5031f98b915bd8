"""What verifying costs a read: ``read_dataset`` against a plain ``pandas.read_parquet``.

Writes a dataset once (default 1,000,000 Solo Whist deals of the rule
agents, 16 chunks) and times, alternately so that load on a shared machine
falls on both alike: ``pandas.read_parquet`` of the chunk files (checks
nothing), ``read_dataset`` (metadata, every chunk's SHA-256, ids and
settings stamp), ``read_dataset`` of two columns, and ``verify_dataset``.

    python benchmarks/bench_read_dataset.py [--deals N] [--repeats R] [--folder DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import pandas as pd

from trickgym.sim import read_dataset, simulate
from trickgym.sim.dataset import verify_dataset


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    """Time the reads and print medians and worst cases, with the plain read as baseline."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--folder", default=None, help="reuse (or write) the dataset here")
    args = parser.parse_args()
    folder = Path(args.folder or tempfile.mkdtemp(prefix="bench-read-")) / "sw"
    if not folder.exists():
        simulate("solowhist", deals=args.deals, agents="rule", seed=1, out=folder, chunk=65536)
    files = sorted(str(f) for f in folder.glob("chunk-*.parquet"))
    cases = {
        "pandas.read_parquet (no checks)": lambda: pd.concat(
            [pd.read_parquet(f) for f in files], ignore_index=True
        ),
        "read_dataset": lambda: read_dataset(folder),
        "read_dataset, 2 columns": lambda: read_dataset(folder, columns=["deal", "contract"]),
        "verify_dataset": lambda: verify_dataset(folder),
    }
    times = {name: [] for name in cases}
    for _ in range(args.repeats):
        for name, fn in cases.items():
            times[name].append(_timed(fn))
    base = statistics.median(times["pandas.read_parquet (no checks)"])
    print(f"{args.deals:,} deals in {len(files)} chunks; load average {os.getloadavg()[0]:.1f}")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(
            f"  {name:34s} median {med * 1e3:7.1f} ms  max {max(ts) * 1e3:7.1f} ms  "
            f"x{med / base:.2f} of the plain read"
        )


if __name__ == "__main__":
    main()
