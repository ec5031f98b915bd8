"""MaskablePPO (sb3-contrib) on the native vector env, then the policy as a trickgym agent.

Run: ``python experiments/sb3_masked_ppo.py [--env trickgym/SoloWhist-v0]
[--num-envs 64] [--steps 100000] [--bidding rule] [--out experiments/results/sb3]``.
Needs the ``train`` extra (on a CPU-only machine install PyTorch's CPU wheel
first: ``pip install torch --index-url https://download.pytorch.org/whl/cpu``).

``SB3VecEnv`` serves the features observation and the action masks. After
training, the actor (SB3's ``MlpPolicy``: tanh layers, then the action
layer) is written as numpy arrays in the format
``experiments/cleanrl_masked_ppo.py`` writes (``policy.npz``: ``w0, b0,
..., wK, bK``), and ``trickgym.evaluate`` plays that file, with no PyTorch,
in duplicate tournaments against ``--eval-agents`` (``evaluation.csv``).
``trickgym.evaluate`` takes the SB3 model itself too, as a batched callable:
``lambda features, mask: model.predict(features, action_masks=mask,
deterministic=True)[0]``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from sb3_contrib import MaskablePPO
from torch import nn
from trickgym.envs.sb3 import SB3VecEnv

import trickgym


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--env", default="trickgym/SoloWhist-v0")
    ap.add_argument("--num-envs", type=int, default=64)
    ap.add_argument("--steps", type=int, default=100_000, help="env steps in all")
    ap.add_argument("--bidding", choices=("learner", "rule"), default="rule")
    ap.add_argument("--opponents", default="rule")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="experiments/results/sb3")
    ap.add_argument("--eval-deals", type=int, default=1000, help="0: no evaluation")
    ap.add_argument("--eval-slow-deals", type=int, default=20, help="deals against pimc")
    ap.add_argument("--eval-agents", default="random,rule,pimc", help="opponents to evaluate on")
    args = ap.parse_args()

    venv = SB3VecEnv(
        args.env, num_envs=args.num_envs, seed=args.seed, opponents=args.opponents,
        bidding=args.bidding,
    )  # fmt: skip
    model = MaskablePPO(
        "MlpPolicy", venv, n_steps=max(1, 2048 // args.num_envs), batch_size=256,
        policy_kwargs={"activation_fn": nn.Tanh}, seed=args.seed, verbose=1,
    )  # fmt: skip
    model.learn(args.steps)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    np.savez(out / "policy.npz", **numpy_actor(model))
    print(f"wrote {out / 'policy.npz'}")
    if args.eval_deals:
        report = trickgym.evaluate(
            out / "policy.npz", venv.vec.game, opponents=args.eval_agents.split(","),
            deals=args.eval_deals, slow_deals=args.eval_slow_deals, seed=args.seed + 1,
            bidding="rule" if args.bidding == "rule" else "policy",  # as it was trained
        )  # fmt: skip
        print(report.format())
        report.table.to_csv(out / "evaluation.csv")
        print(f"wrote {out / 'evaluation.csv'}")


if __name__ == "__main__":
    main()
