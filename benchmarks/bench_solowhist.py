"""Solo Whist speed: the compiled simulator against a floor kernel, and the Python surfaces.

Run by hand (never by the test suite)::

    .venv/bin/python benchmarks/bench_solowhist.py [--deals N] [--skip-compile]

Prints one table. The *floor* is a minimal kernel written here (shuffle, deal,
13 tricks of random legal whist; no auction, no scoring, no state record):
the ratio of the full deal's time to the floor's says how much the engine's
auction, phases, history and scoring cost (PERFORMANCE.md: the floor runs
about 7 M deals/s per core; 1-3.5 M full deals/s per core is the aim).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import (
    best_of,
    env_steps,
    frame_rows,
    print_report,
    size_rows,
    thread_counts,
    thread_label,
    with_threads,
)
from numba import njit, prange

from trickgym.cards import bit, popcount, select_kth
from trickgym.cards.decks import STANDARD
from trickgym.engine.params import params_matrix
from trickgym.rng import below, derive_seed
from trickgym.tricks import whist_beats, whist_legal

PARAMS = params_matrix("solowhist", 4)

SUIT_OF = STANDARD.suit_of.copy()
SUIT_MASKS = STANDARD.suit_masks.copy()
RANK = np.arange(52, dtype=np.int64) % 13  # 2..A as 0..12 in every suit


# ------------------------------------------------------------------ the floor


@njit(cache=True, inline="always")
def shuffle_and_deal(rng, pack, hands):
    """Fisher-Yates shuffle of ``pack`` with the project's ``below``; 13 cards to each hand."""
    for i in range(52):
        pack[i] = i
    for i in range(51, 0, -1):
        j = below(rng, i + 1)
        tmp = pack[i]
        pack[i] = pack[j]
        pack[j] = tmp
    for s in range(4):
        h = np.uint64(0)
        for i in range(13):
            h |= bit(pack[13 * s + i])
        hands[s] = h
    return SUIT_MASKS[SUIT_OF[pack[51]]]  # trumps: the last card's suit, as a turn-up


@njit(cache=True)
def floor_deal(rng, pack, hands):
    """One deal of random whist (``whist_legal``, ``whist_beats``); a checksum of the leaders."""
    trump_mask = shuffle_and_deal(rng, pack, hands)
    leader = 0
    check = 0
    for _trick in range(13):
        led = np.uint64(0)
        win_card = 0
        win_pos = 0
        for k in range(4):
            p = (leader + k) & 3
            h = hands[p]
            legal = whist_legal(h, led)
            card = select_kth(legal, below(rng, popcount(legal)))
            hands[p] = h & ~bit(card)
            if k == 0:
                led = SUIT_MASKS[SUIT_OF[card]]
                win_card = card
            elif whist_beats(card, win_card, SUIT_OF, trump_mask):
                win_card = card
                win_pos = k
        leader = (leader + win_pos) & 3
        check = check * 4 + leader
    return check


@njit(cache=True)
def floor_deal_ranked(rng, pack, hands):
    """As :func:`floor_deal`, the winner by a branch-free max of rank + 16 led + 32 trump."""
    trump_mask = shuffle_and_deal(rng, pack, hands)
    leader = 0
    check = 0
    for _trick in range(13):
        led = np.uint64(0)
        best = -1
        win_pos = 0
        for k in range(4):
            p = (leader + k) & 3
            h = hands[p]
            legal = whist_legal(h, led)
            card = select_kth(legal, below(rng, popcount(legal)))
            card_bit = bit(card)
            hands[p] = h & ~card_bit
            if k == 0:
                led = SUIT_MASKS[SUIT_OF[card]]
            value = (
                RANK[card] + (16 if led & card_bit else 0) + (32 if trump_mask & card_bit else 0)
            )
            better = value > best
            best = value if better else best
            win_pos = k if better else win_pos
        leader = (leader + win_pos) & 3
        check = check * 4 + leader
    return check


@njit(cache=True, parallel=True)
def floor_block(seed, first, chunk, ranked, out):
    """``out[i]`` = checksum of floor deal ``first + i`` of ``seed``; chunks in parallel."""
    count = out.shape[0]
    n_chunks = (count + chunk - 1) // chunk
    for c in prange(n_chunks):
        pack = np.empty(52, dtype=np.uint8)
        hands = np.empty(4, dtype=np.uint64)
        rng = np.zeros(1, dtype=np.uint64)
        for i in range(c * chunk, min(count, (c + 1) * chunk)):
            rng[0] = derive_seed(seed, first + i, 0)
            if ranked:
                out[i] = floor_deal_ranked(rng, pack, hands)
            else:
                out[i] = floor_deal(rng, pack, hands)


# ------------------------------------------------------------------- helpers


def run_timed(cmd: list[str], env: dict) -> tuple[float, str]:
    """Wall time of a subprocess and its stdout; raises if it fails."""
    start = time.perf_counter()
    result = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"{cmd} failed:\n{result.stderr}")
    return elapsed, result.stdout


# --------------------------------------------------------------- measurements


def bench_kernels(deals: int, rows_out: list) -> None:
    """Full deals and floor deals per second, one thread and all threads."""
    import trickgym
    from trickgym.games.solowhist.state import STATE_DTYPE

    trickgym.game("solowhist")  # registers the game's kernels (trickgym.protocol)
    from trickgym.sim.blocks import deal_block
    from trickgym.sim.solowhist import ROW_DTYPE

    template, opts = np.empty(1, dtype=STATE_DTYPE), np.array([5, False], dtype=np.int64)

    def simulate_block(seed, first, kinds, params, chunk, rows):
        deal_block(template, seed, first, kinds, params, None, opts, chunk, rows)

    seed, kinds = np.uint64(1), np.zeros(4, dtype=np.int64)
    rows = np.zeros(deals, dtype=ROW_DTYPE)
    floor_deals = 4 * deals
    out = np.zeros(floor_deals, dtype=np.int64)
    ranked_out = np.zeros(floor_deals, dtype=np.int64)
    simulate_block(seed, 0, kinds, PARAMS, 1024, rows[:10])  # warm-up (compile or load)
    floor_block(seed, 0, 1024, False, out[:10])
    floor_block(seed, 0, 1024, True, ranked_out[:10])
    timings = {}
    for n in thread_counts():
        timings[n] = with_threads(
            n,
            lambda: (
                best_of(lambda: simulate_block(seed, 0, kinds, PARAMS, 1024, rows)) / deals,
                best_of(lambda: floor_block(seed, 0, 1024, False, out)) / floor_deals,
                best_of(lambda: floor_block(seed, 0, 1024, True, ranked_out)) / floor_deals,
            ),
        )
    # Both floors play the same cards, so the same tricks: a check of the kernels.
    if not np.array_equal(out, ranked_out):
        raise AssertionError("the two floor kernels disagree on trick winners")
    for n, (full, floor, ranked) in timings.items():
        label = thread_label(n)
        for name, t in (
            ("full random deal (deal_block)", full),
            ("floor kernel (whist_beats)", floor),
            ("floor, branch-free trick winner", ranked),
        ):
            rows_out.append(
                (f"{name}, {label}", f"{1 / t:,.0f}", "deals/s", f"{t * 1e9:.0f} ns/deal")
            )
        rows_out.append((f"full / floor time, {label}", f"{full / floor:.2f}", "x", ""))
        rows_out.append((f"full / branch-free floor, {label}", f"{full / ranked:.2f}", "x", ""))
    bench_frame(rows, timings[max(timings)][0], rows_out)


def bench_frame(rows: np.ndarray, sim_per_deal: float, rows_out: list) -> None:
    """Cost of turning simulation rows into the DataFrame."""
    from trickgym.sim.frames import solowhist_frame

    frame_rows(solowhist_frame, rows, sim_per_deal, "solowhist_frame", "deal", rows_out)


def bench_env(steps: int, rows_out: list) -> None:
    """Gymnasium env steps per second with ``action_space.sample()``."""
    env_steps("trickgym/SoloWhist-v0", steps, "", rows_out)


def bench_api(deals: int, rows_out: list) -> None:
    """Game API ``State.apply`` steps per second, replaying recorded random deals."""
    import trickgym

    game = trickgym.game("solowhist")
    rng = np.random.default_rng(0)
    scripts = []
    for seed in range(deals):
        state = game.deal(seed)
        actions = []
        while not state.is_over:
            actions.append(int(rng.choice(state.legal_actions())))
            state.apply(actions[-1])
        scripts.append(actions)
    states = [game.deal(seed) for seed in range(deals)]
    n_steps = sum(map(len, scripts))
    start = time.perf_counter()
    for state, actions in zip(states, scripts, strict=True):
        for a in actions:
            state.apply(a)
    elapsed = time.perf_counter() - start
    rows_out.append(
        (
            "game API State.apply",
            f"{n_steps / elapsed:,.0f}",
            "steps/s",
            f"{n_steps / deals:.0f} steps/deal",
        )
    )
    state = game.deal(0)
    t = best_of(lambda: [state.observe(0) for _ in range(1000)]) / 1000
    rows_out.append(("game API State.observe", f"{1 / t:,.0f}", "calls/s", "dict of arrays"))


def bench_compile(rows_out: list) -> None:
    """Cold and cached start: import + first simulate of 10 deals, in a subprocess."""
    code = (
        "import time; t0 = time.perf_counter(); import trickgym.sim as s; "
        "t1 = time.perf_counter(); s.simulate('solowhist', 10, 'random', seed=0); "
        "t2 = time.perf_counter(); print(t1 - t0, t2 - t1)"
    )
    cache = tempfile.mkdtemp(prefix="trickgym-numba-cache-")
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    try:
        for label in ("cold", "cached"):
            wall, out = run_timed([sys.executable, "-c", code], env)
            t_import, t_first = map(float, out.split())
            rows_out.append(
                (
                    f"start {label}: import + simulate(10)",
                    f"{wall:.2f}",
                    "s",
                    f"import {t_import:.2f} s, first simulate {t_first:.2f} s, process wall",
                )
            )
        script = shutil.which("trickgym", path=str(Path(sys.executable).parent)) or shutil.which(
            "trickgym"
        )
        cmd = [script] if script else [sys.executable, "-m", "trickgym.cli"]
        wall, _ = run_timed([*cmd, "simulate", "--deals", "10", "--quiet"], env)
        rows_out.append(("CLI simulate --deals 10, cached", f"{wall:.2f}", "s", "process wall"))
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def bench_sizes(rows_out: list) -> None:
    """Bytes per state record, observation record and simulation row."""
    import trickgym
    from trickgym.sim.solowhist import ROW_DTYPE

    size_rows(trickgym.game("solowhist"), ROW_DTYPE, rows_out)


def main(argv: list[str] | None = None) -> int:
    """Run every measurement and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300_000, help="deals per kernel timing")
    parser.add_argument("--env-steps", type=int, default=20_000)
    parser.add_argument("--api-deals", type=int, default=1_000)
    parser.add_argument("--skip-compile", action="store_true", help="skip the subprocess timings")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rows: list = []
    bench_kernels(args.deals, rows)
    bench_env(args.env_steps, rows)
    bench_api(args.api_deals, rows)
    if not args.skip_compile:
        bench_compile(rows)
    bench_sizes(rows)
    print_report("Solo Whist", f"{args.deals:,} deals", rows, start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
