"""Troggu speed: random full deals for 3, 5 and 8 players, the env, and sizes.

Run by hand (never by the test suite)::

    .venv/bin/python benchmarks/bench_troggu.py [--deals N] [--env-steps N]

Prints one table: full random deals per second (``trickgym.sim.troggu.
deal_block``, built-in random agents in every seat, after a warm-up call,
best of 3) on one thread and on all numba threads; the DataFrame
conversion; Gymnasium env steps per second; bytes per state record,
observation and simulation row.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numba
import numpy as np
from bench_solowhist import best_of, print_table, with_threads

from trickgym.engine.params import params_matrix

TABLES = (3, 5, 8)


def bench_kernels(deals: int, rows_out: list) -> dict[int, float]:
    """Full random deals per second per table size, one thread and all threads.

    Returns the all-thread time per deal of each table size.
    """
    import trickgym
    from trickgym.games.troggu.state import STATE_DTYPE

    trickgym.game("troggu", players=3)  # registers the game's kernels (trickgym.protocol)
    from trickgym.sim.blocks import deal_block
    from trickgym.sim.troggu import ROW_DTYPE

    seed = np.uint64(1)
    template = np.empty(1, dtype=STATE_DTYPE)
    n_all = numba.config.NUMBA_NUM_THREADS
    per_deal = {}
    for n in TABLES:
        kinds = np.zeros(n, dtype=np.int64)
        rows = np.zeros(deals, dtype=ROW_DTYPE)

        def run(kinds=kinds, n=n, rows=rows):
            opts = np.array([n], dtype=np.int64)
            deal_block(template, seed, 0, kinds, params_matrix("troggu", 8), None, opts, 1024, rows)

        run(rows=rows[:10])  # warm-up (compile or load)
        for threads in sorted({1, n_all}):
            t = with_threads(threads, lambda run=run: best_of(run)) / deals
            label = "1 thread" if threads == 1 else f"{threads} threads"
            rows_out.append(
                (
                    f"full random deal, {n} players, {label}",
                    f"{1 / t:,.0f}",
                    "deals/s",
                    f"{t * 1e9:.0f} ns/deal",
                )
            )
            per_deal[n] = t
        contracts = np.bincount(rows["contract"], minlength=5)[1:] / deals
        rows_out.append(
            (
                f"contracts, {n} players",
                "",
                "",
                "Misère {:.2%}, Tapp {:.2%}, Forced Tapp {:.3%}, Solo {:.2%}".format(*contracts),
            )
        )
    return per_deal


def bench_frame(deals: int, per_deal: dict[int, float], rows_out: list) -> None:
    """Cost and memory of turning simulation rows into the DataFrame (8 players)."""
    import trickgym
    from trickgym.games.troggu.state import STATE_DTYPE

    trickgym.game("troggu", players=3)  # registers the game's kernels (trickgym.protocol)
    from trickgym.sim.blocks import deal_block
    from trickgym.sim.frames import troggu_frame
    from trickgym.sim.troggu import ROW_DTYPE

    n = 8
    rows = np.zeros(deals, dtype=ROW_DTYPE)
    deal_block(
        np.empty(1, dtype=STATE_DTYPE),
        np.uint64(1),
        0,
        np.zeros(n, dtype=np.int64),
        params_matrix("troggu", 8),
        None,
        np.array([n], dtype=np.int64),
        1024,
        rows,
    )
    t = best_of(lambda: troggu_frame(rows, n)) / deals
    rows_out.append(
        (
            "DataFrame conversion (troggu_frame), 8 players",
            f"{t * 1e9:.0f}",
            "ns/deal",
            f"{t / per_deal[n]:.2f}x the all-thread simulation",
        )
    )
    df = troggu_frame(rows[:10_000], n)
    rows_out.append(
        (
            "DataFrame memory, 8 players",
            f"{df.memory_usage(deep=True).sum() / len(df):.0f}",
            "bytes/deal",
            f"deep, {len(df.columns)} columns",
        )
    )


def bench_env(steps: int, rows_out: list) -> None:
    """Gymnasium env steps per second with ``action_space.sample()``, per table size."""
    import gymnasium as gym

    import trickgym  # noqa: F401  (registers the env ids)

    for n in TABLES:
        env = gym.make("trickgym/Troggu-v0", players=n, seat=0)
        env.reset(seed=0)
        env.step(env.action_space.sample())  # warm-up
        env.reset(seed=0)
        episodes = 0
        start = time.perf_counter()
        for _ in range(steps):
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
            if terminated or truncated:
                episodes += 1
                env.reset()
        elapsed = time.perf_counter() - start
        rows_out.append(
            (
                f"env step, {n} players (gymnasium.make, sample())",
                f"{steps / elapsed:,.0f}",
                "steps/s",
                f"{episodes / elapsed:,.0f} episodes/s, resets included",
            )
        )


def bench_sizes(rows_out: list) -> None:
    """Bytes per state record, observation record and dict, simulation row."""
    import trickgym
    from trickgym.games.troggu.state import OBS_DTYPE, STATE_DTYPE
    from trickgym.sim.troggu import ROW_DTYPE

    obs = trickgym.game("troggu", players=8).deal(0).observe(0)
    rows_out.append(("state record (STATE_DTYPE)", f"{STATE_DTYPE.itemsize}", "bytes", "any n"))
    rows_out.append(("observation record (OBS_DTYPE)", f"{OBS_DTYPE.itemsize}", "bytes", ""))
    encoded = sum(np.asarray(v).nbytes for v in obs.values())
    rows_out.append(("observation dict (encoded)", f"{encoded}", "bytes", f"{len(obs)} arrays"))
    rows_out.append(("simulation row (ROW_DTYPE)", f"{ROW_DTYPE.itemsize}", "bytes", "any n"))


def main(argv: list[str] | None = None) -> int:
    """Run every measurement and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300_000, help="deals per kernel timing")
    parser.add_argument("--env-steps", type=int, default=20_000, help="env steps per table size")
    args = parser.parse_args(argv)
    from trickgym.cards import HAS_BMI2

    start = time.perf_counter()
    rows: list = []
    per_deal = bench_kernels(args.deals, rows)
    bench_frame(min(args.deals, 300_000), per_deal, rows)
    bench_env(args.env_steps, rows)
    bench_sizes(rows)
    print(
        f"trickgym Troggu benchmark: {os.cpu_count()} CPUs, numba {numba.__version__}, "
        f"numpy {np.__version__}, BMI2 {HAS_BMI2}, {args.deals:,} deals per kernel timing"
    )
    print_table(rows)
    print(f"(total {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
