"""A policy agent's speed: decisions per second in ``simulate`` and as a vector-env opponent.

Run by hand: ``python benchmarks/bench_policy.py [--game solowhist] [--hidden 256]
[--deals 2000] [--envs 256] [--steps 200] [--repeats 3]``.

The policy is a random tanh MLP ``features -> hidden -> hidden -> actions``
(the shape ``experiments/cleanrl_masked_ppo.py`` writes). ``simulate``: the
policy at seat 0 among rule agents, one thread, against all-rule deals
(compiled); its decisions are counted. Vector env: the learner steps on
random legal actions, its opponents all the policy (batched, one call a
round) against all rule (compiled). Medians of ``--repeats`` runs, with
the slowest; load-free counts (decisions) beside the seconds.

On a shared machine run it with ``OPENBLAS_NUM_THREADS=1``: numpy's
OpenBLAS splits a batch matmul over every core, and with another process
on a core it ran 30-50x slower (2 cores, load 4.6: a 85x1123 @ 1123x256
float32 product took 48 ms against 1 ms on one thread).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

import gymnasium as gym
import numpy as np

import trickgym
from trickgym.agents.policy import PolicyAgent
from trickgym.games.obs_features import feature_plan
from trickgym.sim import simulate

IDS = {
    "solowhist": ("trickgym/SoloWhist-v0", {}),
    "troggu": ("trickgym/Troggu-v0", {"players": 5}),
    "phat": ("trickgym/Phat-v0", {}),
    "pinochle": ("trickgym/Pinochle-v0", {}),
}


class Counting:
    """The policy agent, counting its decisions (one ``act_record`` each)."""

    def __init__(self, agent):
        self.agent, self.decisions = agent, 0

    def act_record(self, record, mask):
        self.decisions += 1
        return self.agent.act_record(record, mask)


def weights(game, hidden: int) -> dict:
    rng = np.random.default_rng(0)
    sizes = [feature_plan(game).size, hidden, hidden, game.n_actions]
    out = {}
    for k, (a, b) in enumerate(itertools.pairwise(sizes)):
        out[f"w{k}"] = rng.normal(0, 1 / np.sqrt(a), (a, b)).astype(np.float32)
        out[f"b{k}"] = np.zeros(b, np.float32)
    return out


def bench_simulate(name, options, agent, deals, repeats):
    game = trickgym.game(name, **options)
    unit = {"matches": max(1, deals // 10)} if name == "phat" else {"deals": deals}
    rows = []
    for label in ("policy", "rule"):
        times, decisions = [], 0
        for rep in range(repeats):
            counting = Counting(agent)
            agents = [counting] + ["rule"] * (game.n_seats - 1) if label == "policy" else "rule"
            t = time.perf_counter()
            simulate(name, agents=agents, seed=rep, threads=1, progress=False, **unit, **options)
            times.append(time.perf_counter() - t)
            decisions = counting.decisions
        rows.append((label, statistics.median(times), max(times), decisions))
    return rows


def bench_vector(env_id, options, agent, envs, steps, repeats):
    rows = []
    for label, opponents in (("policy", agent), ("rule", "rule")):
        times = []
        for rep in range(repeats):
            vec = gym.make_vec(env_id, num_envs=envs, vectorization_mode="vector_entry_point",
                               opponents=opponents, parallel=False, **options)  # fmt: skip
            vec.reset(seed=rep)
            rng = np.random.default_rng(rep)
            t = time.perf_counter()
            for _ in range(steps):
                masks = vec.unwrapped.action_masks()
                vec.step(np.argmax(np.where(masks, rng.random(masks.shape), -1), axis=1))
            times.append(time.perf_counter() - t)
        rows.append((label, statistics.median(times), max(times), envs * steps))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="solowhist", choices=sorted(IDS))
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    env_id, options = IDS[args.game]
    game = trickgym.game(args.game, **options)
    agent = PolicyAgent(game, weights(game, args.hidden))
    bench_simulate(args.game, options, agent, 20, 1)  # warm-up: kernels, BLAS
    print(f"simulate, {args.game}, seat 0 policy {agent.policy!r} vs all rule, one thread")
    for label, med, worst, decisions in bench_simulate(
        args.game, options, agent, args.deals, args.repeats
    ):
        extra = f", {decisions:,} policy decisions, {decisions / med:,.0f}/s" if decisions else ""
        print(f"  {label:<7} median {med:.3f} s (max {worst:.3f}){extra}")
    print(f"vector env, {args.envs} envs x {args.steps} steps, opponents policy vs rule, serial")
    for label, med, worst, steps in bench_vector(
        env_id, options, agent, args.envs, args.steps, args.repeats
    ):
        print(f"  {label:<7} median {med:.3f} s (max {worst:.3f}), {steps / med:,.0f} env steps/s")


if __name__ == "__main__":
    main()
