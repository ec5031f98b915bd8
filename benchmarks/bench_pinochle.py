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

import sys

import numpy as np
from _common import bench_main, env_steps, frame_rows, size_rows, time_deal_block

from trickgym.engine.params import params_matrix

PARAMS = params_matrix("pinochle", 4)

# (label, mode, max_bid): the default cap, and a low one that keeps auctions short.
SETS = (
    ("kitty", "kitty", 990),
    ("exchange", "exchange", 990),
    ("kitty, max_bid 300", "kitty", 300),
)


def _options(mode: str, max_bid: int) -> np.ndarray:
    """The simulation's option row: ``mode`` (kitty or exchange) and ``max_bid``."""
    m = ["kitty", "exchange"].index(mode)
    return np.array([m, 4, 250, max_bid, False, True, False], dtype=np.int64)


def bench_kernels(hands: int, rows_out: list) -> dict[str, float]:
    """Full random hands per second per option set, one thread and all threads.

    Returns the all-thread time per hand of each set.
    """
    import trickgym
    from trickgym.games.pinochle.state import STATE_DTYPE

    trickgym.game("pinochle")  # registers the game's kernels (trickgym.protocol)
    from trickgym.sim.pinochle import ROW_DTYPE

    template = np.empty(1, dtype=STATE_DTYPE)
    kinds = np.zeros(4, dtype=np.int64)
    per_hand = {}
    for label, mode, max_bid in SETS:
        rows = np.zeros(hands, dtype=ROW_DTYPE)
        per_hand[label] = time_deal_block(
            template,
            kinds,
            PARAMS,
            _options(mode, max_bid),
            rows,
            f"full random hand, {label}",
            "hand",
            rows_out,
        )
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

    rows = np.zeros(min(hands, 200_000), dtype=ROW_DTYPE)
    kinds = np.zeros(4, dtype=np.int64)
    template = np.empty(1, dtype=STATE_DTYPE)
    deal_block(template, np.uint64(1), 0, kinds, PARAMS, None, _options("kitty", 990), 1024, rows)
    frame_rows(pinochle_frame, rows, per_hand["kitty"], "pinochle_frame", "hand", rows_out)


def bench_env(steps: int, rows_out: list) -> None:
    """Gymnasium env steps per second with ``action_space.sample()``, per mode."""
    for mode in ("kitty", "exchange"):
        env_steps("trickgym/Pinochle-v0", steps, f", {mode}", rows_out, mode=mode, seat=0)


def bench_sizes(rows_out: list) -> None:
    """Bytes per state record, observation record and dict, simulation row."""
    import trickgym
    from trickgym.sim.pinochle import ROW_DTYPE

    size_rows(trickgym.game("pinochle"), ROW_DTYPE, rows_out, state_note="a match")


if __name__ == "__main__":
    steps = (bench_kernels, bench_frame, bench_env, bench_sizes)
    sys.exit(bench_main("Pinochle", __doc__, ("hands", 200_000, "hands", "mode"), steps))
