"""Pinochle speed: random full hands in kitty and exchange mode, the env, and sizes.

Run by hand (never by the test suite)::

    .venv/bin/python benchmarks/bench_pinochle.py [--hands N] [--env-steps N]

Prints one table: full random hands per second (``trickgym.sim.pinochle.
deal_block``, built-in random agents in every seat, after a warm-up call,
best of 3) in each mode on one thread and on all numba threads, with and
without a low ``max_bid`` (random agents otherwise bid up to 990 and run
long auctions); the DataFrame conversion; Gymnasium env steps per second;
bytes per state record, observation and simulation row.
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

PARAMS = params_matrix("pinochle", 4)

# (label, mode, max_bid): the default cap, and a low one that keeps auctions short.
SETS = (
    ("kitty", "kitty", 990),
    ("exchange", "exchange", 990),
    ("kitty, max_bid 300", "kitty", 300),
)


def bench_kernels(hands: int, rows_out: list) -> dict[str, float]:
    """Full random hands per second per option set, one thread and all threads.

    Returns the all-thread time per hand of each set.
    """
    import trickgym
    from trickgym.games.pinochle.state import STATE_DTYPE

    trickgym.game("pinochle")  # registers the game's kernels (trickgym.protocol)
    from trickgym.sim.blocks import deal_block
    from trickgym.sim.pinochle import ROW_DTYPE

    seed = np.uint64(1)
    template = np.empty(1, dtype=STATE_DTYPE)
    n_all = numba.config.NUMBA_NUM_THREADS
    kinds = np.zeros(4, dtype=np.int64)
    per_hand = {}
    for label, mode, max_bid in SETS:
        rows = np.zeros(hands, dtype=ROW_DTYPE)
        m = ["kitty", "exchange"].index(mode)

        def run(rows=rows, m=m, max_bid=max_bid):
            opts = np.array([m, 4, 250, max_bid, False, True, False], dtype=np.int64)
            deal_block(template, seed, 0, kinds, PARAMS, None, opts, 1024, rows)

        run(rows=rows[:10])  # warm-up (compile or load)
        for threads in sorted({1, n_all}):
            t = with_threads(threads, lambda run=run: best_of(run)) / hands
            name = "1 thread" if threads == 1 else f"{threads} threads"
            rows_out.append(
                (
                    f"full random hand, {label}, {name}",
                    f"{1 / t:,.0f}",
                    "hands/s",
                    f"{t * 1e9:.0f} ns/hand",
                )
            )
            per_hand[label] = t
        calls = rows["n_calls"].mean()
        made = rows["made"].mean()
        rows_out.append(
            (f"auction, {label}", f"{calls:.1f}", "calls/hand", f"{made:.1%} of contracts made")
        )
    return per_hand


def bench_frame(hands: int, per_hand: dict[str, float], rows_out: list) -> None:
    """Cost and memory of turning simulation rows into the DataFrame (kitty mode)."""
    import trickgym
    from trickgym.games.pinochle.state import STATE_DTYPE

    trickgym.game("pinochle")  # registers the game's kernels (trickgym.protocol)
    from trickgym.sim.blocks import deal_block
    from trickgym.sim.frames import pinochle_frame
    from trickgym.sim.pinochle import ROW_DTYPE

    rows = np.zeros(hands, dtype=ROW_DTYPE)
    kinds = np.zeros(4, dtype=np.int64)
    opts = np.array([0, 4, 250, 990, False, True, False], dtype=np.int64)
    template = np.empty(1, dtype=STATE_DTYPE)
    deal_block(template, np.uint64(1), 0, kinds, PARAMS, None, opts, 1024, rows)
    t = best_of(lambda: pinochle_frame(rows)) / hands
    rows_out.append(
        (
            "DataFrame conversion (pinochle_frame)",
            f"{t * 1e9:.0f}",
            "ns/hand",
            f"{t / per_hand['kitty']:.2f}x the all-thread simulation",
        )
    )
    df = pinochle_frame(rows[:10_000])
    rows_out.append(
        (
            "DataFrame memory",
            f"{df.memory_usage(deep=True).sum() / len(df):.0f}",
            "bytes/hand",
            f"deep, {len(df.columns)} columns",
        )
    )


def bench_env(steps: int, rows_out: list) -> None:
    """Gymnasium env steps per second with ``action_space.sample()``, per mode."""
    import gymnasium as gym

    import trickgym  # noqa: F401  (registers the env ids)

    for mode in ("kitty", "exchange"):
        env = gym.make("trickgym/Pinochle-v0", mode=mode, seat=0)
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
                f"env step, {mode} (gymnasium.make, sample())",
                f"{steps / elapsed:,.0f}",
                "steps/s",
                f"{episodes / elapsed:,.0f} episodes/s, resets included",
            )
        )


def bench_sizes(rows_out: list) -> None:
    """Bytes per state record, observation record and dict, simulation row."""
    import trickgym
    from trickgym.games.pinochle.state import OBS_DTYPE, STATE_DTYPE
    from trickgym.sim.pinochle import ROW_DTYPE

    obs = trickgym.game("pinochle").deal(0).observe(0)
    rows_out.append(("state record (STATE_DTYPE)", f"{STATE_DTYPE.itemsize}", "bytes", "a match"))
    rows_out.append(("observation record (OBS_DTYPE)", f"{OBS_DTYPE.itemsize}", "bytes", ""))
    encoded = sum(np.asarray(v).nbytes for v in obs.values())
    rows_out.append(("observation dict (encoded)", f"{encoded}", "bytes", f"{len(obs)} arrays"))
    rows_out.append(("simulation row (ROW_DTYPE)", f"{ROW_DTYPE.itemsize}", "bytes", ""))


def main(argv: list[str] | None = None) -> int:
    """Run every measurement and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="hands per kernel timing")
    parser.add_argument("--env-steps", type=int, default=20_000, help="env steps per mode")
    args = parser.parse_args(argv)
    from trickgym.cards import HAS_BMI2

    start = time.perf_counter()
    rows: list = []
    per_hand = bench_kernels(args.hands, rows)
    bench_frame(min(args.hands, 200_000), per_hand, rows)
    bench_env(args.env_steps, rows)
    bench_sizes(rows)
    print(
        f"trickgym Pinochle benchmark: {os.cpu_count()} CPUs, numba {numba.__version__}, "
        f"numpy {np.__version__}, BMI2 {HAS_BMI2}, {args.hands:,} hands per kernel timing"
    )
    print_table(rows)
    print(f"(total {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
