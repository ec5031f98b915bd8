"""What the two PPO examples share: flags, table, learning curve, saving and evaluation.

``experiments/cleanrl_masked_ppo.py`` and ``experiments/sb3_masked_ppo.py``
import it (Python puts the script's folder on the path), so both take the
same table flags (``--env``, ``--players``, ``--mode``), run exactly the
steps asked, set torch's threads, log the same episode statistics under
the same names (:data:`CURVE_COLUMNS` in ``curve.csv``, and the same
printed line), save the policy with its settings
(:func:`trickgym.agents.policy.save_policy`) and evaluate it the same way.
It imports no PyTorch: its flags can be checked without it.
"""

from __future__ import annotations

import argparse
import csv
import math
import time
from pathlib import Path

import numpy as np

#: The columns of ``curve.csv``, one row per update (CleanRL) or rollout (SB3).
CURVE_COLUMNS = (
    "update",
    "env_steps",
    "episodes",
    "mean_episode_reward",
    "mean_episode_length",
    "env_steps_per_second",
)


def add_common_args(ap: argparse.ArgumentParser, *, steps: int, out: str) -> None:
    """The flags both examples take (the table, the budget, threads, output, evaluation)."""
    ap.add_argument("--env", default="trickgym/SoloWhist-v0", help="a trickgym env id")
    ap.add_argument(
        "--players", type=int, default=None, help="Troggu's table size, 3..8 (Troggu only)"
    )
    ap.add_argument(
        "--mode", default=None, help="Pinochle's mode: kitty (default) or exchange (Pinochle only)"
    )
    ap.add_argument("--num-envs", type=int, default=64)
    ap.add_argument(
        "--steps",
        type=int,
        default=steps,
        help=f"env steps in all (default {steps:,}; rounded up to a multiple of --num-envs)",
    )
    ap.add_argument(
        "--bidding",
        choices=("learner", "rule"),
        default="rule",
        help="rule (default): the rule agent bids, the network plays the cards; "
        "learner: the network makes every decision (recorded in policy.npz)",
    )
    ap.add_argument("--opponents", default="rule")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    ap.add_argument("--out", default=out)
    ap.add_argument("--eval-deals", type=int, default=1000, help="0: no evaluation")
    ap.add_argument(
        "--eval-slow-deals",
        type=int,
        default=20,
        help="deals against slow opponents (pimc...); 0: leave them out",
    )
    ap.add_argument("--eval-agents", default="random,rule,pimc", help="opponents to evaluate on")


def check_args(ap: argparse.ArgumentParser, args) -> None:
    """Refuse bad values of the common flags through ``ap.error`` (usage and exit 2)."""
    if args.steps < 1:
        ap.error(f"--steps must be >= 1, got {args.steps}")
    if args.num_envs < 1:
        ap.error(f"--num-envs must be >= 1, got {args.num_envs}")
    if args.threads < 1:
        ap.error(f"--threads must be >= 1, got {args.threads}")
    if args.eval_deals < 0 or args.eval_slow_deals < 0:
        ap.error("--eval-deals and --eval-slow-deals must be >= 0")
    try:
        table_options(args)
    except ValueError as err:
        ap.error(str(err))


def table_options(args) -> dict:
    """The env's table options from ``--players`` and ``--mode``, checked against ``--env``."""
    wants = {"trickgym/Troggu-v0": "players", "trickgym/Pinochle-v0": "mode"}.get(args.env)
    options = {}
    for flag, value in (("players", args.players), ("mode", args.mode)):
        if value is None:
            continue
        if flag != wants:
            raise ValueError(
                f"--{flag} is a table option of "
                f"{'trickgym/Troggu-v0' if flag == 'players' else 'trickgym/Pinochle-v0'}, "
                f"not of {args.env}"
            )
        options[flag] = value
    if wants == "players" and "players" not in options:
        raise ValueError("trickgym/Troggu-v0 needs --players (3..8)")
    return options


def vector_steps(args) -> int:
    """Steps of the vector env: ``--steps`` over ``--num-envs``, rounded up."""
    return math.ceil(args.steps / args.num_envs)


def set_threads(args) -> None:
    """Torch's threads as ``--threads`` says (one by default: a learner on a shared machine
    that spins two threads while another job holds a core runs many times slower)."""
    import torch

    torch.set_num_threads(args.threads)


class Curve:
    """The learning curve: ``curve.csv`` (:data:`CURVE_COLUMNS`) and one printed line per row.

    ``episode(reward, length)`` records an ended episode; ``row(update,
    env_steps)`` writes the statistics of the episodes since the last row.
    """

    def __init__(self, out: Path, updates: int, every: int = 10):
        self.file = open(out / "curve.csv", "w", newline="")  # closed by close()
        self.writer = csv.writer(self.file)
        self.writer.writerow(CURVE_COLUMNS)
        self.updates, self.every = updates, every
        self.rewards: list[float] = []
        self.lengths: list[int] = []
        self.started = time.perf_counter()

    def episode(self, reward: float, length: int) -> None:
        """Record one ended episode."""
        self.rewards.append(float(reward))
        self.lengths.append(int(length))

    def row(self, update: int, env_steps: int) -> None:
        """Write (and every ``every`` updates print) the episodes since the last row."""
        n = len(self.rewards)
        reward = float(np.mean(self.rewards)) if n else float("nan")
        length = float(np.mean(self.lengths)) if n else float("nan")
        rate = env_steps / max(time.perf_counter() - self.started, 1e-9)
        self.writer.writerow([update, env_steps, n, reward, length, round(rate, 1)])
        self.file.flush()
        if update % self.every == 0 or update == self.updates or update == 1:
            print(
                f"update {update}/{self.updates}: env steps {env_steps:,}, "
                f"mean episode reward {reward:+.2f}, mean episode length {length:.1f} "
                f"({n} episodes), {rate:,.0f} env steps/s",
                flush=True,
            )
        self.rewards, self.lengths = [], []

    def close(self) -> None:
        """Close ``curve.csv``."""
        self.file.close()


def save_and_evaluate(args, weights: dict, game, *, trainer: str, env_steps: int) -> Path:
    """Write ``policy.npz`` with its settings, then evaluate it (``evaluation.csv``)."""
    import trickgym
    from trickgym.agents.policy import save_policy
    from trickgym.evaluation import SLOW

    out = Path(args.out)
    path = save_policy(
        out / "policy.npz",
        weights,
        game=game,
        bidding="rule" if args.bidding == "rule" else "policy",
        trainer=trainer,
        env=args.env,
        env_steps=env_steps,
        seed=args.seed,
        opponents=args.opponents,
    )
    print(f"wrote {path} (game {game.name}, bidding {args.bidding}) and {out / 'curve.csv'}")
    if not args.eval_deals:
        return path
    opponents = [a.strip() for a in args.eval_agents.split(",")]
    if not args.eval_slow_deals:
        slow = [a for a in opponents if a in SLOW]
        opponents = [a for a in opponents if a not in SLOW]
        if slow:
            print(f"--eval-slow-deals 0: not evaluating against {', '.join(slow)}")
    if not opponents:
        print("no opponent left to evaluate against")
        return path
    # The file as a trickgym agent, no PyTorch: it bids as its settings say.
    report = trickgym.evaluate(
        path,
        game,
        opponents=opponents,
        deals=args.eval_deals,
        slow_deals=max(args.eval_slow_deals, 1),
        seed=args.seed + 1,
    )
    print(report.format())
    report.table.to_csv(out / "evaluation.csv")
    print(f"wrote {out / 'evaluation.csv'}")
    return path
