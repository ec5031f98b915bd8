"""Episode statistics for SB3 (``info["episode"]``), checked without torch or SB3.

SB3 logs ``ep_rew_mean``/``ep_len_mean`` only from ``info["episode"]``
dicts; ``SB3VecEnv`` used to give none. The adapter runs here over a stub
of SB3's ``VecEnv`` base class, so CI (no ``train`` extra) checks it.
"""

from __future__ import annotations

import importlib
import sys
import types

import numpy as np

import trickgym  # noqa: F401  (registers the env ids)
from trickgym.envs.episodes import EpisodeStats


def test_episode_stats_sum_rewards_and_count_steps_per_sub_env():
    stats = EpisodeStats(2)
    assert stats.update([1.0, 0.5], [False, False]) == {}
    ended = stats.update([2.0, -1.5], [True, False])
    assert {i: (e["r"], e["l"]) for i, e in ended.items()} == {0: (3.0, 2)}
    assert ended[0]["t"] >= 0.0
    ended = stats.update([4.0, 1.0], [True, True])
    assert {i: (e["r"], e["l"]) for i, e in ended.items()} == {0: (4.0, 1), 1: (0.0, 3)}
    stats.update([1.0, 1.0], [False, False])
    stats.reset()
    assert stats.update([0.25, 0.0], [True, False])[0]["l"] == 1


class _StubVecEnv:
    """The part of SB3's ``VecEnv`` base class that ``SB3VecEnv`` uses."""

    def __init__(self, num_envs, observation_space, action_space):
        self.num_envs = num_envs
        self.observation_space = observation_space
        self.action_space = action_space

    def _get_indices(self, indices):
        return range(self.num_envs) if indices is None else indices


def _sb3_vec_env_class(monkeypatch):
    """``trickgym.envs.sb3.SB3VecEnv`` imported over the stub SB3."""
    stub = types.ModuleType("stable_baselines3.common.vec_env")
    stub.VecEnv = _StubVecEnv
    for name in ("stable_baselines3", "stable_baselines3.common"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "stable_baselines3.common.vec_env", stub)
    monkeypatch.delitem(sys.modules, "trickgym.envs.sb3", raising=False)
    return importlib.import_module("trickgym.envs.sb3").SB3VecEnv


def test_sb3_vec_env_reports_every_ended_episode_like_vec_monitor(monkeypatch):
    venv = _sb3_vec_env_class(monkeypatch)("trickgym/SoloWhist-v0", num_envs=4, seed=2)
    venv.reset()
    rng = np.random.default_rng(0)
    returns, lengths, episodes = np.zeros(4), np.zeros(4, dtype=int), 0
    for _ in range(60):
        masks = venv.action_masks()
        venv.step_async((rng.random(masks.shape) * masks).argmax(axis=1))
        _, rewards, dones, infos = venv.step_wait()
        returns += rewards
        lengths += 1
        for i, info in enumerate(infos):
            assert ("episode" in info) == bool(dones[i]), (i, info)
            if dones[i]:
                assert set(info["episode"]) == {"r", "l", "t"}
                assert info["episode"]["l"] == lengths[i]
                assert np.isclose(info["episode"]["r"], returns[i])
                returns[i], lengths[i] = 0.0, 0
                episodes += 1
    assert episodes >= 4
