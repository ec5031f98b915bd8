"""Masked PPO in PyTorch on the native vector env, CleanRL style (one file, no framework).

Run: ``python experiments/cleanrl_masked_ppo.py [--env trickgym/SoloWhist-v0]
[--players N] [--mode kitty|exchange] [--num-envs 64] [--steps 200000]
[--bidding rule|learner] [--self-play] [--threads 1]
[--out experiments/results/cleanrl]``. Needs the ``train`` extra. Every game
and table: ``--env trickgym/Troggu-v0 --players 5`` (3..8),
``--env trickgym/Pinochle-v0 --mode exchange``, ``trickgym/Phat-v0``.

What it shows, and what a CleanRL user would otherwise trip on:

- ``obs_mode="features"``: a float32 vector per seat for the network, and an
  ``action_mask`` that is never all zero (a masked categorical needs one);
- ``autoreset_mode=SAME_STEP``: every step is a real step of the learner, so
  no step has to be masked out of the loss;
- ``--bidding rule`` (default): the rule agent bids, the network plays the
  cards (a curriculum); ``--bidding learner``: the network makes every decision;
- ``--self-play``: the opponents are snapshots of the network (a
  :class:`trickgym.envs.league.League` of its numpy weights), refreshed every
  ``--snapshot-every`` updates; every finished episode updates the Elo ratings of
  the learner and of the snapshot it played (``League.record``), written to
  ``league.csv`` at the end;
- ``--steps`` is run exactly (rounded up to whole steps of the ``--num-envs``
  envs; the last update's rollout is shorter when they do not fill whole
  rollouts of ``--rollout`` steps);
- torch runs ``--threads`` threads (default 1), and the env's threads leave
  ``torch.get_num_threads()`` as set.

It logs the learning curve as ``experiments/sb3_masked_ppo.py`` does
(``experiments/ppo_common.py``): ``curve.csv`` with one row per update,
columns ``update, env_steps, episodes, mean_episode_reward,
mean_episode_length, env_steps_per_second``, printed under the same names.
At the end it writes the policy (``policy.npz``: ``w0, b0, w1, b1, w2, b2``
of a tanh MLP, with its settings: game, table options, ``obs_mode``
``"features"`` and bidding ``rule`` or ``policy``,
:func:`trickgym.agents.policy.save_policy`), then plays it with no PyTorch
(``trickgym.evaluate``: duplicate tournaments against ``--eval-agents``,
default random, rule and pimc; ``--eval-slow-deals 0`` leaves pimc out,
``--eval-deals 0`` skips the evaluation) and writes the table
(``evaluation.csv``). The file plays anywhere an agent name is taken, with
the bidding it was trained with: ``trickgym tournament --competitors
policy:OUT/policy.npz,rule``, ``trickgym evaluate --policy OUT/policy.npz``.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch
from gymnasium.vector import AutoresetMode
from ppo_common import (
    Curve,
    add_common_args,
    check_args,
    save_and_evaluate,
    set_threads,
    table_options,
    vector_steps,
)
from torch import nn

import trickgym  # noqa: F401  (registers the env ids)
from trickgym.envs.league import League


class Policy(nn.Module):
    """Actor and critic MLPs on the feature vector (tanh, two hidden layers)."""

    def __init__(self, n_in: int, n_actions: int, hidden: int):
        super().__init__()
        self.actor = nn.Sequential(
            nn.Linear(n_in, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
            nn.Linear(hidden, n_actions),
        )  # fmt: skip
        self.critic = nn.Sequential(nn.Linear(n_in, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def dist(self, x, mask):
        logits = self.actor(x).masked_fill(~mask, -1e9)
        return torch.distributions.Categorical(logits=logits)

    def numpy_weights(self) -> dict[str, np.ndarray]:
        """The actor's layers as numpy arrays (what a torch-free agent runs)."""
        layers = [m for m in self.actor if isinstance(m, nn.Linear)]
        out = {}
        for k, layer in enumerate(layers):
            out[f"w{k}"] = layer.weight.detach().numpy().T.copy()
            out[f"b{k}"] = layer.bias.detach().numpy().copy()
        return out


def numpy_policy(weights, obs, mask) -> np.ndarray:
    """The actor's greedy legal action, in numpy (a league snapshot playing)."""
    x = obs["features"]
    for k in range(3):
        x = x @ weights[f"w{k}"] + weights[f"b{k}"]
        if k < 2:
            x = np.tanh(x)
    return np.argmax(np.where(mask, x, -np.inf), axis=1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(ap, steps=200_000, out="experiments/results/cleanrl")
    ap.add_argument("--rollout", type=int, default=64, help="steps per env per update")
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatches", type=int, default=4)
    ap.add_argument("--gamma", type=float, default=1.0)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--ent", type=float, default=0.01)
    ap.add_argument("--reward-scale", type=float, default=0.1)
    ap.add_argument("--self-play", action="store_true", help="opponents: snapshots of the policy")
    ap.add_argument("--snapshot-every", type=int, default=10)
    args = ap.parse_args()
    check_args(ap, args)
    if args.rollout < 1:
        ap.error(f"--rollout must be >= 1, got {args.rollout}")

    torch.manual_seed(args.seed)
    set_threads(args)
    league = League(numpy_policy, seed=args.seed) if args.self_play else None
    envs = gym.make_vec(
        args.env, num_envs=args.num_envs, vectorization_mode="vector_entry_point",
        opponents=league.opponent if league else args.opponents, obs_mode="features",
        autoreset_mode=AutoresetMode.SAME_STEP, bidding=args.bidding, **table_options(args),
    )  # fmt: skip
    n, T = args.num_envs, args.rollout
    n_in = envs.single_observation_space["features"].shape[0]
    n_actions = envs.single_action_space.n
    policy = Policy(n_in, n_actions, args.hidden)
    if league:
        league.add(policy.numpy_weights())
    opt = torch.optim.Adam(policy.parameters(), lr=args.lr, eps=1e-5)
    obs_buf = torch.zeros((T, n, n_in))
    mask_buf = torch.zeros((T, n, n_actions), dtype=torch.bool)
    act_buf = torch.zeros((T, n), dtype=torch.long)
    logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((T, n)) for _ in range(4))

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    obs, _ = envs.reset(seed=args.seed)
    # Exactly the steps asked (rounded up to whole vector steps): the last update's
    # rollout is shorter when they do not fill whole rollouts.
    total = vector_steps(args)
    updates = math.ceil(total / T)
    curve = Curve(out, updates)
    returns, lengths = np.zeros(n), np.zeros(n, dtype=np.int64)
    done_steps = 0
    for update in range(1, updates + 1):
        L = min(T, total - done_steps)  # this update's rollout length
        for t in range(L):
            x = torch.from_numpy(obs["features"])
            mask = torch.from_numpy(obs["action_mask"].astype(bool))
            with torch.no_grad():
                d = policy.dist(x, mask)
                action = d.sample()
                val_buf[t] = policy.critic(x).squeeze(-1)
            obs_buf[t], mask_buf[t], act_buf[t] = x, mask, action
            logp_buf[t] = d.log_prob(action)
            obs, reward, terminated, truncated, _ = envs.step(action.numpy())
            done = terminated | truncated
            rew_buf[t] = torch.from_numpy(reward * args.reward_scale).float()
            done_buf[t] = torch.from_numpy(done).float()
            returns += reward
            lengths += 1
            for i in np.flatnonzero(done):
                curve.episode(returns[i], lengths[i])
            if league and done.any():  # rate the learner against the snapshot that played
                league.record(returns[done])
            returns[done], lengths[done] = 0.0, 0
        done_steps += L
        with torch.no_grad():
            next_val = policy.critic(torch.from_numpy(obs["features"])).squeeze(-1)
        adv = torch.zeros((L, n))
        gae = torch.zeros(n)
        for t in reversed(range(L)):
            nv = next_val if t == L - 1 else val_buf[t + 1]
            live = 1.0 - done_buf[t]
            delta = rew_buf[t] + args.gamma * nv * live - val_buf[t]
            gae = delta + args.gamma * args.lam * live * gae
            adv[t] = gae
        ret = adv + val_buf[:L]
        b_obs, b_mask = obs_buf[:L].reshape(L * n, n_in), mask_buf[:L].reshape(L * n, n_actions)
        b_act, b_logp = act_buf[:L].reshape(-1), logp_buf[:L].reshape(-1)
        b_adv, b_ret = adv.reshape(-1), ret.reshape(-1)
        for _ in range(args.epochs):
            order = torch.randperm(L * n)
            for mb in order.chunk(args.minibatches):
                d = policy.dist(b_obs[mb], b_mask[mb])
                ratio = (d.log_prob(b_act[mb]) - b_logp[mb]).exp()
                a = (b_adv[mb] - b_adv[mb].mean()) / (b_adv[mb].std(correction=0) + 1e-8)
                pg = -torch.min(ratio * a, ratio.clamp(1 - args.clip, 1 + args.clip) * a)
                v = policy.critic(b_obs[mb]).squeeze(-1)
                loss = pg.mean() + 0.5 * ((v - b_ret[mb]) ** 2).mean()
                loss = loss - args.ent * d.entropy().mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                opt.step()
        if league and update % args.snapshot_every == 0:
            league.add(policy.numpy_weights())
            league.draw()
        curve.row(update, done_steps * n)
    curve.close()
    if league:
        write_league(league, out / "league.csv")
    if done_steps * n != args.steps:
        print(f"ran {done_steps * n:,} env steps ({args.steps:,} asked, rounded up to whole "
              f"steps of the {n} envs)")  # fmt: skip
    save_and_evaluate(args, policy.numpy_weights(), envs.unwrapped.game, trainer="cleanrl",
                      env_steps=done_steps * n)  # fmt: skip


def write_league(league: League, path: Path) -> None:
    """The self-play league's Elo ratings and the learner's results against each snapshot."""
    import csv

    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["snapshot", "rating", "wins", "draws", "losses"])
        out.writerow(["learner", f"{league.learner_rating:.1f}", "", "", ""])
        for i, (rating, tally) in enumerate(zip(league.ratings, league.results, strict=True)):
            out.writerow([i, f"{rating:.1f}", tally["wins"], tally["draws"], tally["losses"]])
    print(f"learner Elo {league.learner_rating:.0f} against its snapshots; wrote {path}")


if __name__ == "__main__":
    main()
