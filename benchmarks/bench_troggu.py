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

import sys

import numpy as np
from _common import bench_main, env_steps, frame_rows, size_rows, time_deal_block

from trickgym.engine.params import params_matrix

TABLES = (3, 5, 8)


def bench_kernels(deals: int, rows_out: list) -> dict[int, float]:
    """Full random deals per second per table size, one thread and all threads.

    Returns the all-thread time per deal of each table size.
    """
    import trickgym
    from trickgym.games.troggu.state import STATE_DTYPE

    trickgym.game("troggu", players=3)  # registers the game's kernels (trickgym.protocol)
    from trickgym.sim.troggu import ROW_DTYPE

    template = np.empty(1, dtype=STATE_DTYPE)
    params = params_matrix("troggu", 8)
    per_deal = {}
    for n in TABLES:
        kinds = np.zeros(n, dtype=np.int64)
        rows = np.zeros(deals, dtype=ROW_DTYPE)
        opts = np.array([n], dtype=np.int64)
        label = f"full random deal, {n} players"
        per_deal[n] = time_deal_block(template, kinds, params, opts, rows, label, "deal", rows_out)
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
    rows = np.zeros(min(deals, 300_000), dtype=ROW_DTYPE)
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
    frame_rows(
        lambda r: troggu_frame(r, n),
        rows,
        per_deal[n],
        "troggu_frame",
        "deal",
        rows_out,
        label=f"{n} players",
    )


def bench_env(steps: int, rows_out: list) -> None:
    """Gymnasium env steps per second with ``action_space.sample()``, per table size."""
    for n in TABLES:
        env_steps("trickgym/Troggu-v0", steps, f", {n} players", rows_out, players=n, seat=0)


def bench_sizes(rows_out: list) -> None:
    """Bytes per state record, observation record and dict, simulation row."""
    import trickgym
    from trickgym.sim.troggu import ROW_DTYPE

    size_rows(
        trickgym.game("troggu", players=8),
        ROW_DTYPE,
        rows_out,
        state_note="any n",
        row_note="any n",
    )


if __name__ == "__main__":
    steps = (bench_kernels, bench_frame, bench_env, bench_sizes)
    sys.exit(bench_main("Troggu", __doc__, ("deals", 300_000, "deals", "table size"), steps))
