"""Phat speed: random deals and whole random games, the env, and sizes.

Run by hand (never by the test suite)::

    .venv/bin/python benchmarks/bench_phat.py [--matches N] [--env-steps N]

Prints one table: random whole games per second and random deals per second
(``trickgym.sim.phat.simulate_match_block``, built-in random agents in every
seat, one game per match, after a warm-up call, best of 3) on one thread and
on all numba threads; the DataFrame conversion; Gymnasium env steps per
second for ``episode="deal"`` and ``episode="game"``; bytes per state
record, observation and simulation row.
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


def _label(threads: int) -> str:
    return "1 thread" if threads == 1 else f"{threads} threads"


def bench_kernels(matches: int, rows_out: list) -> tuple[np.ndarray, float]:
    """Whole random games and their deals per second, one thread and all threads.

    Returns the rows played and the all-thread time per deal.
    """
    from trickgym.games.phat.constants import TARGET
    from trickgym.sim.phat import ROW_DTYPE, simulate_match_block, slots_per_match

    seed, kinds = np.uint64(1), np.zeros(4, dtype=np.int64)
    slots = slots_per_match(1, TARGET)
    rows = np.zeros(matches * slots, dtype=ROW_DTYPE)

    def run(rows=rows):
        simulate_match_block(seed, 0, kinds, params_matrix("phat", 4), None, TARGET, 1, slots, rows)

    run(rows[: 10 * slots])  # warm-up (compile or load)
    run()
    played = rows[rows["deal"] >= 0]
    deals = len(played)
    per_deal = float("nan")
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        t = with_threads(threads, lambda: best_of(run))
        rows_out.append(
            (
                f"random whole game, {_label(threads)}",
                f"{matches / t:,.0f}",
                "games/s",
                f"{t / matches * 1e6:.2f} µs/game",
            )
        )
        rows_out.append(
            (
                f"random deal, {_label(threads)}",
                f"{deals / t:,.0f}",
                "deals/s",
                f"{t / deals * 1e9:.0f} ns/deal (slot clearing and row writes included)",
            )
        )
        per_deal = t / deals
    tricks = played["tricks"]
    rows_out.append(
        (
            "deals per game; games ended mid-deal",
            f"{deals / matches:.2f}",
            "deals",
            f"{(tricks < 13).sum() / matches:.1%} of games end mid-deal, "
            f"{(played['bonus_to'] >= 0).mean():.1%} of deals give a muck bonus",
        )
    )
    return played, per_deal


def bench_frame(rows: np.ndarray, per_deal: float, rows_out: list) -> None:
    """Cost and memory of turning simulation rows into the DataFrame."""
    from trickgym.sim.frames import phat_frame

    t = best_of(lambda: phat_frame(rows)) / len(rows)
    rows_out.append(
        (
            "DataFrame conversion (phat_frame)",
            f"{t * 1e9:.0f}",
            "ns/deal",
            f"{t / per_deal:.2f}x the all-thread simulation",
        )
    )
    df = phat_frame(rows[:10_000])
    rows_out.append(
        (
            "DataFrame memory",
            f"{df.memory_usage(deep=True).sum() / len(df):.0f}",
            "bytes/deal",
            f"deep, {len(df.columns)} columns",
        )
    )


def bench_env(steps: int, rows_out: list) -> None:
    """Gymnasium env steps per second with ``action_space.sample()``, both episode kinds."""
    import gymnasium as gym

    import trickgym  # noqa: F401  (registers the env ids)

    for episode in ("deal", "game"):
        env = gym.make("trickgym/Phat-v0", seat=0, episode=episode)
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
                f'env step, episode="{episode}" (gymnasium.make, sample())',
                f"{steps / elapsed:,.0f}",
                "steps/s",
                f"{episodes / elapsed:,.0f} episodes/s, resets included",
            )
        )


def bench_sizes(rows_out: list) -> None:
    """Bytes per state record, observation record and dict, simulation row."""
    import trickgym
    from trickgym.games.phat.state import OBS_DTYPE, STATE_DTYPE
    from trickgym.sim.phat import ROW_DTYPE, slots_per_match

    obs = trickgym.game("phat").deal(0).observe(0)
    rows_out.append(("state record (STATE_DTYPE)", f"{STATE_DTYPE.itemsize}", "bytes", "a match"))
    rows_out.append(("observation record (OBS_DTYPE)", f"{OBS_DTYPE.itemsize}", "bytes", ""))
    encoded = sum(np.asarray(v).nbytes for v in obs.values())
    rows_out.append(("observation dict (encoded)", f"{encoded}", "bytes", f"{len(obs)} arrays"))
    rows_out.append(
        (
            "simulation row (ROW_DTYPE)",
            f"{ROW_DTYPE.itemsize}",
            "bytes",
            f"{slots_per_match(1, 181)} slots reserved per game",
        )
    )


def main(argv: list[str] | None = None) -> int:
    """Run every measurement and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200_000, help="games per kernel timing")
    parser.add_argument("--env-steps", type=int, default=20_000, help="env steps per episode kind")
    args = parser.parse_args(argv)
    from trickgym.cards import HAS_BMI2

    start = time.perf_counter()
    rows: list = []
    played, per_deal = bench_kernels(args.matches, rows)
    bench_frame(played, per_deal, rows)
    bench_env(args.env_steps, rows)
    bench_sizes(rows)
    print(
        f"trickgym Phat benchmark: {os.cpu_count()} CPUs, numba {numba.__version__}, "
        f"numpy {np.__version__}, BMI2 {HAS_BMI2}, {args.matches:,} games per kernel timing"
    )
    print_table(rows)
    print(f"(total {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
