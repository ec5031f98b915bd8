"""The cost of network-ready observations (``obs_mode="features"``) against the env step.

Run by hand: ``python benchmarks/bench_features.py [--games solowhist,troggu,phat,pinochle]
[--envs 256] [--opponents rule] [--seconds 1] [--windows 5]``.

For each game it steps the native vector env (one thread, ``copy=False``)
in ``dict`` and in ``features`` mode on the same random legal actions, and
times the features pass alone on the step's encoded buffers. ``ratio`` is
the features pass over the whole dict-mode step (the issue's bar: at most
2). Each figure is the median of ``--windows`` windows of ``--seconds``;
the ratio of medians comes from one run, so machine load affects both.
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium as gym
import numpy as np

import trickgym.envs  # noqa: F401  (registers the env ids)

IDS = {
    "solowhist": ("trickgym/SoloWhist-v0", {}),
    "troggu": ("trickgym/Troggu-v0", {"players": 5}),
    "phat": ("trickgym/Phat-v0", {}),
    "pinochle": ("trickgym/Pinochle-v0", {}),
}


def _steps_per_second(vec, seconds: float, rng) -> float:
    """Env steps per second of ``vec.step`` on random legal actions drawn outside the timing."""
    n = vec.num_envs
    done, spent = 0, 0.0
    while spent < seconds:
        masks = vec.action_masks()
        keys = np.where(masks, rng.random(masks.shape), -1.0)
        actions = np.argmax(keys, axis=1)
        t = time.perf_counter()
        vec.step(actions)
        spent += time.perf_counter() - t
        done += n
    return done / spent


def _features_pass_ns(vec, repeats: int) -> float:
    """Nanoseconds per env of the features pass alone on the current buffers."""
    plan = vec._features
    out = np.empty((vec.num_envs, plan.size), dtype=np.float32)
    t = time.perf_counter()
    for _ in range(repeats):
        plan.encode(vec._buf, vec._scalars, vec._wide, out)
    return (time.perf_counter() - t) / repeats / vec.num_envs * 1e9


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="solowhist,troggu,phat,pinochle")
    ap.add_argument("--envs", type=int, default=256, help="batch size (default 256)")
    ap.add_argument("--opponents", default="rule", help="built-in opponents (default rule)")
    ap.add_argument("--seconds", type=float, default=1.0, help="length of a window (default 1)")
    ap.add_argument("--windows", type=int, default=5, help="windows per figure (default 5)")
    args = ap.parse_args()
    print(f"{args.envs} envs, {args.opponents} opponents, one thread, copy=False")
    print(f"{'game':10} {'dict steps/s':>13} {'features steps/s':>17} {'pass ns/env':>12} "
          f"{'step ns/env':>12} {'ratio':>6} {'columns':>8}")  # fmt: skip
    for game in args.games.split(","):
        env_id, options = IDS[game]
        rng = np.random.default_rng(0)
        envs = {
            mode: gym.make_vec(
                env_id, num_envs=args.envs, vectorization_mode="vector_entry_point",
                opponents=args.opponents, copy=False, parallel=False, obs_mode=mode, **options,
            ).unwrapped
            for mode in ("dict", "features")
        }  # fmt: skip
        for vec in envs.values():
            vec.reset(seed=1)
            _steps_per_second(vec, 0.2, rng)  # compile / warm up
        rates = {m: [] for m in envs}
        passes = []
        for _ in range(args.windows):
            for mode, vec in envs.items():
                rates[mode].append(_steps_per_second(vec, args.seconds, rng))
            passes.append(_features_pass_ns(envs["features"], 50))
        dict_rate = statistics.median(rates["dict"])
        feat_rate = statistics.median(rates["features"])
        pass_ns = statistics.median(passes)
        step_ns = 1e9 / dict_rate
        print(
            f"{game:10} {dict_rate:13,.0f} {feat_rate:17,.0f} {pass_ns:12,.0f} "
            f"{step_ns:12,.0f} {pass_ns / step_ns:6.2f} {envs['features']._features.size:8}"
        )


if __name__ == "__main__":
    main()
