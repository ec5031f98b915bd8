"""Native vector env versus gymnasium's SyncVectorEnv: env steps per second, one run.

Run by hand: ``python benchmarks/bench_vector.py [--game solowhist]
[--opponents rule] [--batches 1,64,1024,8192] [--seconds 1] [--windows 3]``,
or ``--threading`` for the threading table below.
For every batch size it times ``step`` of

- ``native``: the native vector env as ``gymnasium.make_vec(id,
  num_envs=N, vectorization_mode="vector_entry_point")`` gives it (fresh
  observation arrays every step; threads as ``parallel=None`` picks);
- ``serial`` / ``threads``: the same with ``copy=False`` (the env's own
  buffers) on one thread / split over numba's threads;
- ``kernel``: the compiled step call alone (one thread), without the
  Python wrapper;
- ``sync``: ``SyncVectorEnv`` over ``N`` single envs (``gymnasium.make(id)``,
  same opponents), NEXT_STEP autoreset like the native env.

Only ``step`` is timed: each step's random legal actions are drawn from the
returned masks outside the timed region. An env step is one sub-env's step,
so a batch step of ``N`` envs counts ``N`` (gymnasium's convention; both
vectorisations count their autoreset steps alike). Each figure is the best
of ``--windows`` windows of ``--seconds`` (a shared machine's noise only
ever slows a window down). ``serial cpu`` and ``sync cpu`` are the same
one-thread runs timed by the process's CPU time (``time.process_time``),
which leaves out the time spent waiting for a core on a loaded machine;
``x cpu`` is their ratio. ``encode ns`` is the time per env of observing
and encoding alone (one thread): its share of ``1e9 / kernel`` is what
encoding costs of a step.

``--threading [--busy 0,1] [--batches 16,64,256,1024]``: serial against
threaded steps (``copy=False``) and what ``parallel=None`` (the default)
picks, with ``B`` busy-loop processes holding a core each (started and
stopped by the benchmark), to choose the default. The 1-minute load
average is printed before each block: other work on the machine counts too.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import gymnasium as gym
import numba
import numpy as np
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from numba import njit

import trickgym  # noqa: F401  (registers the env ids)
from trickgym.envs.vector import kernels

GAME_IDS = {
    "solowhist": ("trickgym/SoloWhist-v0", {}),
    "troggu": ("trickgym/Troggu-v0", {"players": 5}),
    "phat": ("trickgym/Phat-v0", {}),
    "pinochle": ("trickgym/Pinochle-v0", {}),
}


def random_legal(rng, masks) -> np.ndarray:
    """One uniformly random legal action per row of ``masks`` (0 for an empty row)."""
    noise = rng.random(masks.shape) * masks
    return noise.argmax(axis=1).astype(np.int64)


def best_rate(run_window, windows: int) -> float:
    """The best of ``windows`` calls of ``run_window() -> (count, seconds)``, as count/s."""
    return max(count / spent for count, spent in (run_window() for _ in range(windows)))


def best_rates(run_window, windows: int) -> tuple[float, float]:
    """Best wall-clock and best CPU-time rates of ``run_window() -> (count, wall, cpu)``."""
    runs = [run_window() for _ in range(windows)]
    return max(c / w for c, w, _ in runs), max(c / p for c, _, p in runs)


def time_steps(env, seconds: float, windows: int, rng) -> tuple[float, float]:
    """Env steps per second of ``env.step``, by wall clock and by this process's CPU time.

    Actions are drawn outside the timed region. CPU time leaves out the
    time the process waited for a core (a loaded machine), so for one thread
    it is close to what a quiet machine gives; with threads it adds up the
    threads' time and is not a speed.
    """
    obs, _ = env.reset(seed=1)
    state = {"masks": np.asarray(obs["action_mask"])}
    for _ in range(3):  # warm-up
        state["masks"] = np.asarray(env.step(random_legal(rng, state["masks"]))[0]["action_mask"])

    def window():
        spent, cpu, steps = 0.0, 0.0, 0
        while spent < seconds:
            actions = random_legal(rng, state["masks"])
            start, start_cpu = time.perf_counter(), time.process_time()
            obs = env.step(actions)[0]
            cpu += time.process_time() - start_cpu
            spent += time.perf_counter() - start
            steps += env.num_envs
            state["masks"] = np.asarray(obs["action_mask"])
        return steps, spent, max(cpu, 1e-9)

    return best_rates(window, windows)


def time_kernel(env, seconds: float, windows: int, rng) -> float:
    """Env steps per second of the compiled one-thread step call alone."""
    u = env
    u.reset(seed=1)

    def window():
        spent, steps = 0.0, 0
        while spent < seconds:
            actions = random_legal(rng, u.action_masks())
            start = time.perf_counter()
            kernels.step_serial(
                u._env_arrays(), actions, u.seat, u.game.n_actions, u.illegal_penalty,
                u._encoded(), u._results(),
            )  # fmt: skip
            spent += time.perf_counter() - start
            steps += u.num_envs
        return steps, spent

    return best_rate(window, windows)


@njit(cache=True)
def _encode_all(states, seat, obs_records, buf, scalars, wide):
    for i in range(states.shape[0]):
        kernels._encode_one(states, i, seat, obs_records, buf, scalars, wide)


def time_encoding(env, seconds: float, windows: int) -> float:
    """Nanoseconds per env of observe + encode over the batch (one thread)."""
    u = env
    args = (u._states, u.seat, u._obs_records, u._buf, u._scalars, u._wide)
    _encode_all(*args)

    def window():
        spent, count = 0.0, 0
        while spent < seconds:
            start = time.perf_counter()
            _encode_all(*args)
            spent += time.perf_counter() - start
            count += u.num_envs
        return count, spent

    return 1e9 / best_rate(window, windows)


def threading_table(env_id, options, batches, busy_counts, sec, win, rng) -> None:
    """Print serial / threaded / default steps per second with ``busy`` cores held."""
    print(
        f"{env_id}, {options}: env steps per second (best of {win} x {sec:g} s), "
        f"{os.cpu_count()} cores, numba threads {numba.get_num_threads()}"
    )
    for busy in busy_counts:
        hogs = [
            subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(busy)
        ]  # fmt: skip
        try:
            time.sleep(0.5 if busy else 0.0)
            load = os.getloadavg()[0]
            print(f"busy loops {busy}, load average (1 min) {load:.2f}")
            print(f"{'batch':>6}{'serial':>11}{'threads':>11}{'x':>7}{'default':>11}{'picks':>9}")
            for n in batches:

                def make(n=n, **extra):
                    return gym.make_vec(
                        env_id, num_envs=n, vectorization_mode="vector_entry_point",
                        copy=False, **options, **extra,
                    ).unwrapped  # fmt: skip

                serial = time_steps(make(parallel=False), sec, win, rng)[0]
                threads = time_steps(make(parallel=True), sec, win, rng)[0]
                default_env = make()
                default = time_steps(default_env, sec, win, rng)[0]
                picks = "threads" if default_env.parallel else "serial"
                print(
                    f"{n:>6}{serial:>11,.0f}{threads:>11,.0f}{threads / serial:>6.2f}x"
                    f"{default:>11,.0f}{picks:>9}",
                    flush=True,
                )
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="solowhist", choices=sorted(GAME_IDS))
    parser.add_argument("--opponents", default="rule", help="built-in agent of the other seats")
    parser.add_argument("--batches", default="1,64,1024,8192")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per window")
    parser.add_argument("--windows", type=int, default=3, help="windows per figure (best kept)")
    parser.add_argument("--sync-max", type=int, default=8192, help="largest SyncVectorEnv batch")
    parser.add_argument("--threading", action="store_true", help="serial vs threads table")
    parser.add_argument("--busy", default="0,1", help="--threading: busy-loop processes")
    args = parser.parse_args()
    env_id, options = GAME_IDS[args.game]
    options = {**options, "opponents": args.opponents}
    rng = np.random.default_rng(0)
    sec, win = args.seconds, args.windows
    if args.threading:
        batches = [int(b) for b in args.batches.split(",")]
        busy = [int(b) for b in args.busy.split(",")]
        threading_table(env_id, options, batches, busy, sec, win, rng)
        return
    print(
        f"{env_id}, opponents={args.opponents}: env steps per second "
        f"(best of {win} x {sec:g} s); x = native / sync"
    )
    print(
        f"{'batch':>6}{'native':>11}{'serial':>11}{'threads':>11}{'kernel':>11}{'encode ns':>10}"
        f"{'sync':>9}{'x native':>9}{'x best':>8}{'serial cpu':>12}{'sync cpu':>10}{'x cpu':>7}"
    )
    for n in (int(b) for b in args.batches.split(",")):

        def make(n=n, **extra):
            return gym.make_vec(
                env_id, num_envs=n, vectorization_mode="vector_entry_point", **options, **extra
            )

        native = time_steps(make(), sec, win, rng)[0]
        serial_env = make(copy=False, parallel=False)
        serial, serial_cpu = time_steps(serial_env, sec, win, rng)
        threads = time_steps(make(copy=False, parallel=True), sec, win, rng)[0]
        kernel = time_kernel(serial_env, sec, win, rng)
        encode_ns = time_encoding(serial_env, min(sec, 0.5), win)
        if n <= args.sync_max:
            sync_env = SyncVectorEnv(
                [lambda: gym.make(env_id, **options) for _ in range(n)],
                autoreset_mode=AutoresetMode.NEXT_STEP,
            )
            sync, sync_cpu = time_steps(sync_env, sec, 1 if n >= 1024 else win, rng)
            best = max(native, serial, threads)
            sync_text = (
                f"{sync:>9,.0f}{native / sync:>8.0f}x{best / sync:>7.0f}x"
                f"{serial_cpu:>12,.0f}{sync_cpu:>10,.0f}{serial_cpu / sync_cpu:>6.0f}x"
            )
        else:
            sync_text = f"{'-':>9}{'':>17}{serial_cpu:>12,.0f}"
        print(
            f"{n:>6}{native:>11,.0f}{serial:>11,.0f}{threads:>11,.0f}{kernel:>11,.0f}"
            f"{encode_ns:>10.0f}{sync_text}",
            flush=True,
        )


if __name__ == "__main__":
    main()
