"""Learn Solo Whist card play with a masked policy gradient on the native vector env.

Run: ``python experiments/train_solowhist.py [--steps 3200000] [--seed 1] [--out runs/solowhist]``
(``--quick`` for a smoke run of a few seconds).

Budgets count work, not time, so a run's result does not depend on the
machine's load: training stops after ``--steps`` env steps (learner steps
of the vector env, summed over its ``--envs`` sub-envs; 3.2 M by default,
what the first 6-minute run reached) or ``--updates`` policy updates,
whichever comes first. With the same ``--seed`` (the env's deals, the
policy's initial weights and its sampled cards, the tournaments' deals) and
sizes, a run repeats exactly on the same numpy build. ``--minutes`` is an
optional safety cap on wall time (none by default); a run it stops says so
and is not reproducible. ``training.json`` records what the run did and why
it stopped.

What it does, honestly:

- The learner holds seat 0 of ``gymnasium.make_vec("trickgym/SoloWhist-v0",
  vectorization_mode="vector_entry_point", opponents="rule")``: the three
  other seats are the built-in rule agent.
- Only the card play is learnt. Every decision outside the play (the
  auction, the Cop offer, upgrades, naming trumps) is the rule agent's
  (``env.builtin_actions("rule")``), so the learner plays the contracts the
  rule agent would bid.
- The policy (``solowhist_policy.CardPolicy``, numpy, one hidden layer of
  128) scores the 52 cards from the seat's observation; illegal cards are
  masked out. It is trained by REINFORCE with a learnt value baseline
  (advantage = deal payoff - value, normalised per batch), Adam, a small
  entropy bonus. The return of every card decision is the deal's payoff.
- It logs a learning curve (``curve.csv`` and ``curve.png``): the mean
  payoff per deal of the training episodes, beside two references measured
  on the same env the same way: rule bidding with uniformly random card
  play (the untrained start), and the rule agent in every phase.
- It then plays duplicate tournaments (``trickgym.tournament``, every
  seating, the same deals) of the learnt agent (rule bidding + the greedy
  policy) against ``random``, against ``rule``, and against rule bidding with
  random cards (which isolates what the learnt card play is worth), and
  writes ``tournament.txt``.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
from tqdm import tqdm

import trickgym
from trickgym.games.solowhist.constants import N_CARDS, PLAY

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solowhist_policy import (
    CardPolicy,
    LearnedAgent,
    RuleBidRandomPlay,
    features,
)

ENV_ID = "trickgym/SoloWhist-v0"


def make_env(num_envs: int):
    """The training env: the learner at seat 0, rule agents in the other seats."""
    return gym.make_vec(
        ENV_ID,
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        seat=0,
        opponents="rule",
        copy=False,
        parallel=False,  # the env is a small part of an iteration; numpy gets the other core
    )


def reference_payoff(play: str, num_envs: int, steps: int, seed: int) -> float:
    """Mean payoff per deal of rule bidding with ``play`` ("random" or "rule") card play."""
    env = make_env(num_envs)
    obs, _ = env.reset(seed=seed)
    total, episodes = 0.0, 0
    for _ in range(steps):
        in_play = np.asarray(obs["phase"]) == PLAY
        actions = np.where(in_play, env.builtin_actions(play), env.builtin_actions("rule"))
        obs, reward, terminated, _, _ = env.step(actions)
        total += float(reward[terminated].sum())
        episodes += int(terminated.sum())
    return total / max(episodes, 1)


class Rollouts:
    """Card decisions waiting for their deal's payoff, and those that have it."""

    def __init__(self, num_envs: int):
        self.episode = np.arange(num_envs)  # id of each env's current episode
        self.next_id = num_envs
        self.payoff = {}
        self.chunks = []  # (x, mask, action, episode id)

    def add(self, x, mask, actions, envs) -> None:
        self.chunks.append((x, mask, actions, self.episode[envs]))

    def finish(self, envs, rewards) -> None:
        for e, r in zip(self.episode[envs], rewards, strict=True):
            self.payoff[int(e)] = float(r)
        self.episode[envs] = np.arange(self.next_id, self.next_id + len(envs))
        self.next_id += len(envs)

    def take(self):
        """All decisions whose deal is over, with their payoff; the rest stay."""
        x, mask, actions, ids = (np.concatenate(p) for p in zip(*self.chunks, strict=True))
        done = np.array([i in self.payoff for i in ids.tolist()], dtype=bool)
        returns = np.array([self.payoff[i] for i in ids[done].tolist()], dtype=np.float32)
        self.chunks = [(x[~done], mask[~done], actions[~done], ids[~done])] if (~done).any() else []
        for i in set(ids[done].tolist()):
            del self.payoff[i]
        return x[done], mask[done], actions[done], returns


def train(args) -> CardPolicy:
    """Train the card-play policy; write ``curve.csv`` and ``curve.png``; return it."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    policy = CardPolicy(hidden=args.hidden, seed=args.seed, lr=args.lr)
    ref_steps = max(30, args.reference_steps)
    print("measuring the references (rule bidding, random / rule card play) ...", flush=True)
    ref_random = reference_payoff("random", args.envs, ref_steps, args.seed + 1)
    ref_rule = reference_payoff("rule", args.envs, ref_steps, args.seed + 1)
    print(f"  random card play {ref_random:+.3f}, rule card play {ref_rule:+.3f} per deal")

    env = make_env(args.envs)
    obs, _ = env.reset(seed=args.seed)
    rollouts = Rollouts(args.envs)
    awaiting_reset = np.zeros(args.envs, dtype=bool)
    curve = []
    scale = 30.0  # payoff scale for the value head; updated from the data
    window_reward, window_episodes = 0.0, 0
    env_steps, episodes, updates = 0, 0, 0
    start = time.perf_counter()
    cap = None if args.minutes is None else args.minutes * 60.0
    timed_out = False
    bar = tqdm(total=args.steps, desc="env steps", unit_scale=True, disable=args.quiet)
    while updates < args.updates and env_steps < args.steps:
        if cap is not None and time.perf_counter() - start >= cap:
            timed_out = True
            break
        phase = np.asarray(obs["phase"])
        in_play = (phase == PLAY) & ~awaiting_reset
        actions = env.builtin_actions("rule")
        if in_play.any():
            idx = np.flatnonzero(in_play)
            sub = {k: np.asarray(v)[idx] for k, v in obs.items()}
            x = features(sub)
            mask = sub["action_mask"][:, :N_CARDS].astype(bool)
            cards = policy.sample(x, mask, rng)
            actions[idx] = cards
            rollouts.add(x, mask, cards, idx)
        obs, reward, terminated, _, _ = env.step(actions)
        env_steps += args.envs
        bar.update(args.envs)
        awaiting_reset = terminated
        if terminated.any():
            done = np.flatnonzero(terminated)
            rollouts.finish(done, reward[done])
            window_reward += float(reward[done].sum())
            window_episodes += len(done)
            episodes += len(done)
        if sum(len(c[2]) for c in rollouts.chunks) >= args.batch:
            x, mask, acts, returns = rollouts.take()
            if len(acts) == 0:
                continue
            scale = 0.99 * scale + 0.01 * float(np.sqrt((returns**2).mean()) + 1e-6)
            stats = policy.update(x, mask, acts, returns / scale, entropy_coef=args.entropy)
            updates += 1
            if updates % args.log_every == 0:
                mean = window_reward / max(window_episodes, 1)
                curve.append(
                    {
                        "update": updates,
                        "env_steps": env_steps,
                        "episodes": episodes,
                        "mean_payoff": mean,
                        "entropy": stats["entropy"],
                        "value_loss": stats["value_loss"],
                        "seconds": time.perf_counter() - start,
                    }
                )
                bar.set_postfix(payoff=f"{mean:+.2f}", entropy=f"{stats['entropy']:.2f}")
                window_reward, window_episodes = 0.0, 0
    bar.close()
    elapsed = time.perf_counter() - start
    stopped_by = "minutes" if timed_out else ("steps" if env_steps >= args.steps else "updates")
    print(
        f"trained {updates} updates, {env_steps:,} env steps, {episodes:,} deals in "
        f"{elapsed:.0f} s ({env_steps / elapsed:,.0f} env steps/s with the learner in the loop); "
        f"stopped by --{stopped_by}"
    )
    if timed_out:
        print("warning: the --minutes cap stopped training: this result depends on the load")
    run = {
        "seed": args.seed,
        "envs": args.envs,
        "batch": args.batch,
        "steps_budget": args.steps,
        "updates_budget": args.updates,
        "minutes_cap": args.minutes,
        "env_steps": env_steps,
        "updates": updates,
        "deals": episodes,
        "stopped_by": stopped_by,
        "seconds": round(elapsed, 1),
    }
    (out / "training.json").write_text(json.dumps(run, indent=2) + "\n")
    policy.save(out / "policy.npz")
    _write_curve(out, curve, ref_random, ref_rule)
    return policy


def _write_curve(out: Path, curve: list[dict], ref_random: float, ref_rule: float) -> None:
    with open(out / "curve.csv", "w", newline="") as f:
        fields = ["update", "env_steps", "episodes", "mean_payoff", "entropy", "value_loss"]
        writer = csv.DictWriter(f, fieldnames=[*fields, "seconds"])
        writer.writeheader()
        writer.writerows(curve)
    (out / "references.txt").write_text(
        f"rule bidding + random card play: {ref_random:+.4f} per deal\n"
        f"rule agent in every phase:       {ref_rule:+.4f} per deal\n"
    )
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - matplotlib is optional
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    if curve:
        steps = [row["env_steps"] for row in curve]
        ax.plot(steps, [row["mean_payoff"] for row in curve], label="learnt card play")
    ax.axhline(ref_random, color="grey", linestyle="--", label="random card play")
    ax.axhline(ref_rule, color="black", linestyle=":", label="rule card play")
    ax.set_xlabel("env steps")
    ax.set_ylabel("mean payoff per deal (seat 0 vs 3 rule agents)")
    ax.set_title("Solo Whist card play, REINFORCE with baseline (rule bidding)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "curve.png", dpi=100)
    plt.close(fig)


def evaluate(policy: CardPolicy, args) -> str:
    """Duplicate tournaments of the learnt agent; returns the report text."""
    learnt = LearnedAgent(policy, seed=args.seed)
    opponents = [
        ("random", "random"),
        ("rule", "rule"),
        ("rule bidding + random cards", RuleBidRandomPlay(seed=args.seed)),
    ]
    parts = []
    for label, opponent in opponents:
        report = trickgym.tournament(
            "solowhist", [learnt, opponent], deals=args.eval_deals, seed=args.seed + 100
        )
        d = report.difference
        verdict = "beats" if d["ci_low"] > 0 else ("loses to" if d["ci_high"] < 0 else "ties")
        parts.append(
            f"== learnt vs {label}: learnt {verdict} it "
            f"(difference {d['mean']:+.3f} per deal, 95% [{d['ci_low']:+.3f}, "
            f"{d['ci_high']:+.3f}])\n{report.format()}\n"
        )
        print(parts[-1], flush=True)
    return "\n".join(parts)


def parse_args(argv=None):
    """Command-line options."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="runs/solowhist", help="output folder")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--envs", type=int, default=512, help="vector env batch size")
    p.add_argument("--batch", type=int, default=4096, help="card decisions per update")
    p.add_argument(
        "--steps", type=int, default=3_200_000, help="training budget in env steps (all sub-envs)"
    )
    p.add_argument("--updates", type=int, default=3000, help="maximum number of updates")
    p.add_argument(
        "--minutes", type=float, default=None, help="optional wall-time cap (not reproducible)"
    )
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--entropy", type=float, default=0.01)
    p.add_argument("--log-every", type=int, default=5)
    p.add_argument("--reference-steps", type=int, default=400, help="batch steps per reference")
    p.add_argument("--eval-deals", type=int, default=3000, help="deals per tournament")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--quick", action="store_true", help="a smoke run of a few seconds (tiny sizes)")
    args = p.parse_args(argv)
    if args.quick:
        args.envs, args.batch, args.log_every = 16, 256, 1
        args.steps = min(args.steps, 16 * 60)
        args.reference_steps, args.eval_deals = 30, 20
    return args


def main(argv=None) -> int:
    """Train, then evaluate; everything goes to ``--out``."""
    args = parse_args(argv)
    policy = train(args)
    text = evaluate(policy, args)
    (Path(args.out) / "tournament.txt").write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
