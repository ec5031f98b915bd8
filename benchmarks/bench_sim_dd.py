"""Solo Whist simulation with and without double-dummy columns: deals/s, rule agents.

Run by hand::

    python benchmarks/bench_sim_dd.py                    # 300 dd deals x 3 runs, ~1-2 min
    python benchmarks/bench_sim_dd.py --dd-deals 1000 --runs 5 --threads 1

Every timing is taken in this one session after a warm-up (compiled kernels
loaded), the median of ``--runs`` runs, each on fresh deals (another seed),
so the figures are comparable even on a loaded machine:

- ``dd=False``: ``simulate("solowhist", N, "rule", columns=[...])``, the
  rule kernels only;
- ``dd=True``: the same with ``dd=True`` (default node budget unless
  ``--dd-max-nodes``), whose time is nearly all the solver's.

Also printed: the share of declared rows left unsolved by the budget, and
the CPU time per deal.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numba

from trickgym.sim import simulate

COLUMNS = ["contract", "made", "declarer", "dd_made"]


def timed(deals: int, seed: int, threads: int | None, dd: bool, max_nodes):
    """``(wall, cpu, frame)`` of one run of ``deals`` rule-agent deals."""
    extra = {"dd": True, "dd_max_nodes": max_nodes} if dd else {}
    columns = COLUMNS if dd else COLUMNS[:-1]
    start, cpu = time.perf_counter(), time.process_time()
    df = simulate("solowhist", deals, "rule", seed=seed, threads=threads, columns=columns, **extra)
    return time.perf_counter() - start, time.process_time() - cpu, df


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000, help="deals per dd=False run")
    parser.add_argument("--dd-deals", type=int, default=300, help="deals per dd=True run")
    parser.add_argument("--runs", type=int, default=3, help="runs per setting (median kept)")
    parser.add_argument("--threads", type=int, default=None, help="numba threads (default: all)")
    parser.add_argument("--dd-max-nodes", type=int, default=None, help="node budget (default)")
    args = parser.parse_args()
    threads = args.threads or numba.config.NUMBA_NUM_THREADS
    timed(8, 0, threads, True, args.dd_max_nodes)  # load / compile every kernel first
    rows = []
    for dd, deals in ((False, args.deals), (True, args.dd_deals)):
        rates, cpus, unsolved = [], [], []
        for run in range(args.runs):
            wall, cpu, df = timed(deals, 1000 + run, threads, dd, args.dd_max_nodes)
            rates.append(deals / wall)
            cpus.append(1e6 * cpu / deals)
            if dd:
                declared = df["declarer"] >= 0
                unsolved.append(100 * df.loc[declared, "dd_made"].isna().mean())
        rows.append((dd, deals, rates, cpus, unsolved))
    print(f"Solo Whist, four rule agents, {threads} numba thread(s), median of {args.runs} runs")
    print(f"{'':<10}{'deals/run':>10}{'deals/s':>12}{'(min .. max)':>28}{'CPU us/deal':>14}")
    for dd, deals, rates, cpus, unsolved in rows:
        label = "dd=True" if dd else "dd=False"
        span = f"{min(rates):,.1f} .. {max(rates):,.1f}"
        print(
            f"{label:<10}{deals:>10,}{statistics.median(rates):>12,.1f}{span:>28}"
            f"{statistics.median(cpus):>14,.1f}"
        )
        if dd:
            print(f"{'':<10}unsolved (budget): {statistics.median(unsolved):.1f}% of declared rows")
    slow = statistics.median(rows[0][2]) / statistics.median(rows[1][2])
    print(f"dd=True costs {slow:,.0f} times the rule kernels' time per deal")


if __name__ == "__main__":
    main()
