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

import sys

import numpy as np
from _common import bench_main, env_steps, frame_rows, size_rows, thread_label, time_threads

from trickgym.engine.params import params_matrix


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
    for threads, t in time_threads(run).items():
        rows_out.append(
            (
                f"random whole game, {thread_label(threads)}",
                f"{matches / t:,.0f}",
                "games/s",
                f"{t / matches * 1e6:.2f} µs/game",
            )
        )
        rows_out.append(
            (
                f"random deal, {thread_label(threads)}",
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


def bench_frame(matches: int, played: tuple[np.ndarray, float], rows_out: list) -> None:
    """Cost and memory of turning the rows :func:`bench_kernels` ``played`` into the DataFrame."""
    from trickgym.sim.frames import phat_frame

    rows, per_deal = played
    frame_rows(phat_frame, rows, per_deal, "phat_frame", "deal", rows_out)


def bench_env(steps: int, rows_out: list) -> None:
    """Gymnasium env steps per second with ``action_space.sample()``, both episode kinds."""
    for episode in ("deal", "game"):
        label = f', episode="{episode}"'
        env_steps("trickgym/Phat-v0", steps, label, rows_out, seat=0, episode=episode)


def bench_sizes(rows_out: list) -> None:
    """Bytes per state record, observation record and dict, simulation row."""
    import trickgym
    from trickgym.sim.phat import ROW_DTYPE, slots_per_match

    row_note = f"{slots_per_match(1, 181)} slots reserved per game"
    size_rows(trickgym.game("phat"), ROW_DTYPE, rows_out, state_note="a match", row_note=row_note)


if __name__ == "__main__":
    steps = (bench_kernels, bench_frame, bench_env, bench_sizes)
    sys.exit(bench_main("Phat", __doc__, ("matches", 200_000, "games", "episode kind"), steps))
