"""MaskablePPO (sb3-contrib) on the native vector env, then the policy as a trickgym agent.

Run: ``python experiments/sb3_masked_ppo.py [--env trickgym/SoloWhist-v0]
[--players N] [--mode kitty|exchange] [--num-envs 64] [--steps 100000]
[--bidding rule|learner] [--threads 1] [--out experiments/results/sb3]``.
Needs the ``train`` extra (docs/guides/training.md says how to install
PyTorch's CPU build). Every game and table: ``--env trickgym/Troggu-v0
--players 5`` (3..8), ``--env trickgym/Pinochle-v0 --mode exchange``,
``trickgym/Phat-v0``.

``SB3VecEnv`` serves the features observation and the action masks.
``--steps`` is run exactly (rounded up to whole steps of the ``--num-envs``
envs): training stops there, so the last rollout, if partial, is not learnt
from. Torch runs ``--threads`` threads (default 1: SB3 otherwise takes every
core, and its updates collapse when another job holds one). The learning
curve is logged as ``experiments/cleanrl_masked_ppo.py`` logs it
(``experiments/ppo_common.py``): ``curve.csv``, one row per rollout, columns
``update, env_steps, episodes, mean_episode_reward, mean_episode_length,
env_steps_per_second``, printed under the same names (from the episodes'
``info["episode"]``; SB3's own ``ep_rew_mean`` table is off).

After training, the actor (SB3's ``MlpPolicy``: tanh layers, then the action
layer) is written as numpy arrays in the format the CleanRL example writes
(``policy.npz``: ``w0, b0, ..., wK, bK``, with its settings: game, table
options, ``obs_mode`` ``"features"``, bidding ``rule`` or ``policy``;
:func:`trickgym.agents.policy.save_policy`), and ``trickgym.evaluate``
plays that file, with no PyTorch and the bidding it was trained with, in
duplicate tournaments against ``--eval-agents`` (``evaluation.csv``;
``--eval-slow-deals 0`` leaves pimc out, ``--eval-deals 0`` skips it).
``trickgym.evaluate`` takes the SB3 model itself too, as a batched callable:
``lambda features, mask: model.predict(features, action_masks=mask,
deterministic=True)[0]``.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np
from ppo_common import (
    Curve,
    add_common_args,
    check_args,
    save_and_evaluate,
    set_threads,
    table_options,
    vector_steps,
)
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from torch import nn

from trickgym.envs.sb3 import SB3VecEnv


def numpy_actor(model) -> dict[str, np.ndarray]:
    """The actor of a MaskablePPO ``MlpPolicy`` as ``w0, b0, ...`` (tanh between layers)."""
    policy = model.policy
    layers = [m for m in policy.mlp_extractor.policy_net if isinstance(m, nn.Linear)]
    acts = [m for m in policy.mlp_extractor.policy_net if not isinstance(m, nn.Linear)]
    if not all(isinstance(a, nn.Tanh) for a in acts):
        raise ValueError("the numpy format is a tanh MLP: train with activation_fn=nn.Tanh")
    out = {}
    for k, layer in enumerate([*layers, policy.action_net]):
        out[f"w{k}"] = layer.weight.detach().cpu().numpy().T.copy()
        out[f"b{k}"] = layer.bias.detach().cpu().numpy().copy()
    return out


class CurveCallback(BaseCallback):
    """Logs the ended episodes to a :class:`ppo_common.Curve` (one row per rollout) and
    stops training once ``total`` env steps are run."""

    def __init__(self, curve: Curve, total: int, rollout: int):
        super().__init__()
        self.curve, self.total, self.rollout, self.rollouts = curve, total, rollout, 0

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            episode = info.get("episode")
            if episode is not None:
                self.curve.episode(episode["r"], episode["l"])
        # False ends the rollout unlearnt: only a partial last one, never a full one.
        return self.num_timesteps < self.total or self.num_timesteps % self.rollout == 0

    def _on_rollout_end(self) -> None:
        self.rollouts += 1
        self.curve.row(self.rollouts, self.num_timesteps)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(ap, steps=100_000, out="experiments/results/sb3")
    ap.add_argument(
        "--n-steps", type=int, default=None, help="steps per env per rollout (default 2048/envs)"
    )
    ap.add_argument("--batch-size", type=int, default=256)
    args = ap.parse_args()
    check_args(ap, args)
    set_threads(args)

    venv = SB3VecEnv(
        args.env, num_envs=args.num_envs, seed=args.seed, opponents=args.opponents,
        bidding=args.bidding, **table_options(args),
    )  # fmt: skip
    n = args.num_envs
    n_steps = args.n_steps or max(1, 2048 // n)
    total = vector_steps(args) * n
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rollout = n_steps * n
    rollouts = math.ceil(total / rollout)
    curve = Curve(out, rollouts)
    callback = CurveCallback(curve, total, rollout)
    model = MaskablePPO(
        "MlpPolicy", venv, n_steps=n_steps, batch_size=args.batch_size,
        policy_kwargs={"activation_fn": nn.Tanh}, seed=args.seed, verbose=0,
    )  # fmt: skip
    # SB3 runs whole rollouts: up to the one that holds the step asked, where the
    # callback stops it.
    model.learn(rollouts * rollout, callback=callback)
    if model.num_timesteps % rollout:  # the last, partial rollout: logged, not learnt from
        curve.row(callback.rollouts + 1, model.num_timesteps)
        print(f"the last {model.num_timesteps % rollout:,} steps (a partial rollout) "
              "were run but not learnt from")  # fmt: skip
    curve.close()
    if model.num_timesteps != args.steps:
        print(f"ran {model.num_timesteps:,} env steps ({args.steps:,} asked, rounded up to "
              f"whole steps of the {n} envs)")  # fmt: skip
    save_and_evaluate(args, numpy_actor(model), venv.vec.game, trainer="sb3",
                      env_steps=model.num_timesteps)  # fmt: skip


if __name__ == "__main__":
    main()
