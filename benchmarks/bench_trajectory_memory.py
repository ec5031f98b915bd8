"""Peak memory of reading a trajectories dataset: ``iter_batches`` against ``read_steps``.

Run by hand (each reading in its own process, so each peak is its own)::

    python benchmarks/bench_trajectory_memory.py [--deals 8000] [--batch 4096]

Writes ``--deals`` Solo Whist deals with rule agents and ``trajectories=True``
to a temporary folder (chunks of 256 deals), then reads every decision
once in batches (``iter_batches``) and once whole (``read_steps``), each
in a child process; prints the decisions, the seconds and the growth of
the peak resident set size (``VmHWM``, Linux).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile

# The peak from /proc (VmHWM, this process's own since exec), not getrusage: a child's
# ru_maxrss starts from its parent's size at fork, which hides the reading's own peak.
READ = """
import sys, time
from trickgym.sim.trajectories import iter_batches, read_steps
def peak():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM"))
before = peak()
start = time.perf_counter()
if sys.argv[2] == "iter_batches":
    rows = sum(len(b["action"]) for b in iter_batches(sys.argv[1], int(sys.argv[3])))
else:
    rows = read_steps(sys.argv[1]).num_rows
grew = (peak() - before) / 1024
print(f"{sys.argv[2]}: {rows:,} decisions in {time.perf_counter() - start:.2f} s; "
      f"peak RSS grew {grew:,.0f} MB")
"""


def main() -> None:
    """Write the dataset, then read it both ways in child processes."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=8000)
    ap.add_argument("--batch", type=int, default=4096)
    args = ap.parse_args()
    import trickgym.sim as sim

    with tempfile.TemporaryDirectory() as root:
        out = f"{root}/steps"
        sim.simulate("solowhist", deals=args.deals, agents="rule", seed=3, out=out,
                     trajectories=True, progress=False)  # fmt: skip
        for how in ("iter_batches", "read_steps"):
            command = [sys.executable, "-c", READ, out, how, str(args.batch)]
            done = subprocess.run(command, check=True, capture_output=True, text=True)
            print(done.stdout.strip())


if __name__ == "__main__":
    main()
