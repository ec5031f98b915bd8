"""What the per-game speed benchmarks share: timing, thread counts, the table, and the rows
every game measures the same way (DataFrame cost, env steps, record sizes).

Imported by ``bench_solowhist.py``, ``bench_troggu.py``, ``bench_phat.py`` and
``bench_pinochle.py`` (Python puts the script's folder on the path).
"""

from __future__ import annotations

import argparse
import os
import time

import numba
import numpy as np


def best_of(fn, repeat: int = 3) -> float:
    """Best wall time of ``repeat`` calls of ``fn``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def with_threads(n: int, fn):
    """Run ``fn`` with ``n`` numba threads."""
    old = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        return fn()
    finally:
        numba.set_num_threads(old)


def thread_counts() -> list[int]:
    """The thread counts each kernel is timed at: one, and all numba threads."""
    return sorted({1, numba.config.NUMBA_NUM_THREADS})


def thread_label(threads: int) -> str:
    """``"1 thread"`` or ``"N threads"``."""
    return "1 thread" if threads == 1 else f"{threads} threads"


def time_threads(run) -> dict[int, float]:
    """Best wall time of ``run()`` (:func:`best_of`) at each of :func:`thread_counts`."""
    return {threads: with_threads(threads, lambda: best_of(run)) for threads in thread_counts()}


def time_deal_block(template, kinds, params, opts, rows, label: str, unit: str, rows_out: list):
    """Random ``deal_block`` runs filling ``rows``, timed on one thread and on all threads.

    Appends a row per thread count (``label``, then the thread count) and
    returns the all-thread time per ``unit`` (a deal or a hand), in seconds.
    """
    from trickgym.sim.blocks import deal_block

    seed = np.uint64(1)

    def run(rows=rows):
        deal_block(template, seed, 0, kinds, params, None, opts, 1024, rows)

    run(rows[:10])  # warm-up (compile or load)
    t = float("nan")
    for threads, wall in time_threads(run).items():
        t = wall / len(rows)
        rows_out.append(
            (
                f"{label}, {thread_label(threads)}",
                f"{1 / t:,.0f}",
                f"{unit}s/s",
                f"{t * 1e9:.0f} ns/{unit}",
            )
        )
    return t


def frame_rows(frame, rows, per_row: float, name: str, unit: str, rows_out: list, label=""):
    """Cost and memory of turning simulation ``rows`` into the DataFrame with ``frame``.

    ``per_row``: the all-thread simulation's time per row, the cost's yardstick;
    ``name`` names the conversion, ``label`` (if any) the table it ran on.
    """
    suffix = f", {label}" if label else ""
    t = best_of(lambda: frame(rows)) / len(rows)
    rows_out.append(
        (
            f"DataFrame conversion ({name}){suffix}",
            f"{t * 1e9:.0f}",
            f"ns/{unit}",
            f"{t / per_row:.2f}x the all-thread simulation",
        )
    )
    df = frame(rows[:10_000])
    rows_out.append(
        (
            f"DataFrame memory{suffix}",
            f"{df.memory_usage(deep=True).sum() / len(df):.0f}",
            f"bytes/{unit}",
            f"deep, {len(df.columns)} columns",
        )
    )


def env_steps(env_id: str, steps: int, label: str, rows_out: list, **options) -> None:
    """Gymnasium env steps per second with ``action_space.sample()``, resets included."""
    import gymnasium as gym

    import trickgym  # noqa: F401  (registers the env ids)

    env = gym.make(env_id, **options)
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
            f"env step{label} (gymnasium.make, sample())",
            f"{steps / elapsed:,.0f}",
            "steps/s",
            f"{episodes / elapsed:,.0f} episodes/s, resets included",
        )
    )


def size_rows(game, row_dtype, rows_out: list, state_note: str = "", row_note: str = "") -> None:
    """Bytes per state record, observation record and dict, and simulation row.

    ``game``: a :class:`trickgym.Game` (its first deal is observed);
    ``row_dtype``: the ``ROW_DTYPE`` of its simulation.
    """
    obs = game.deal(0).observe(0)
    encoded = sum(np.asarray(v).nbytes for v in obs.values())
    rows_out.append(
        ("state record (STATE_DTYPE)", f"{game.state_dtype.itemsize}", "bytes", state_note)
    )
    rows_out.append(("observation record (OBS_DTYPE)", f"{game.obs_dtype.itemsize}", "bytes", ""))
    rows_out.append(("observation dict (encoded)", f"{encoded}", "bytes", f"{len(obs)} arrays"))
    rows_out.append(("simulation row (ROW_DTYPE)", f"{row_dtype.itemsize}", "bytes", row_note))


def print_table(rows: list) -> None:
    """Aligned text table."""
    header = ("measure", "value", "unit", "note")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(4)]
    line = f"{{:<{widths[0]}}}  {{:>{widths[1]}}}  {{:<{widths[2]}}}  {{}}"
    print(line.format(*header))
    print(line.format(*("-" * w for w in widths[:3]), "-" * 4))
    for r in rows:
        print(line.format(*r))


def bench_main(title: str, doc: str, count: tuple, steps: tuple, argv=None) -> int:
    """The command line and run of a per-game benchmark; returns the exit status.

    ``count``: ``(flag, default, unit, env_per)``: the size of each kernel
    timing (``--hands N``), in ``unit``s, and what ``--env-steps`` counts
    per. ``steps``: ``(kernels, frame, env, sizes)``, run in that order:
    ``kernels(n, rows)``, whose result goes to ``frame(n, result, rows)``,
    ``env(env_steps, rows)``, ``sizes(rows)``; each appends table rows.
    """
    flag, default, unit, env_per = count
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument(f"--{flag}", type=int, default=default, help=f"{unit} per kernel timing")
    parser.add_argument("--env-steps", type=int, default=20_000, help=f"env steps per {env_per}")
    args = parser.parse_args(argv)
    n = getattr(args, flag)
    kernels, frame, env, sizes = steps
    start = time.perf_counter()
    rows: list = []
    frame(n, kernels(n, rows), rows)
    env(args.env_steps, rows)
    sizes(rows)
    print_report(title, f"{n:,} {unit}", rows, start)
    return 0


def print_report(title: str, timing: str, rows: list, start: float) -> None:
    """The benchmark's header line, its table, and the total time since ``start``.

    ``timing``: how much each kernel timing ran (e.g. ``"300,000 deals"``).
    """
    from trickgym.cards import HAS_BMI2

    print(
        f"trickgym {title} benchmark: {os.cpu_count()} CPUs, numba {numba.__version__}, "
        f"numpy {np.__version__}, BMI2 {HAS_BMI2}, {timing} per kernel timing"
    )
    print_table(rows)
    print(f"(total {time.perf_counter() - start:.0f} s)")
