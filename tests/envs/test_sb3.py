"""The Stable-Baselines3 routes: MaskablePPO on the single env and on the native vector env.

A smoke test of the optional ``train`` extra: skipped when PyTorch, SB3 or
sb3-contrib are not installed (CI does not install them).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("stable_baselines3")
sb3_contrib = pytest.importorskip("sb3_contrib")

import trickgym  # noqa: E402, F401  (registers the env ids)
from trickgym.envs.sb3 import SB3VecEnv  # noqa: E402

IDS = [
    ("trickgym/SoloWhist-v0", {}),
    ("trickgym/Troggu-v0", {"players": 4}),
    ("trickgym/Phat-v0", {}),
    ("trickgym/Pinochle-v0", {"mode": "exchange"}),
]


@pytest.mark.parametrize("obs_mode", ["features", "dict"])
@pytest.mark.parametrize(("env_id", "options"), IDS)
def test_maskable_ppo_learns_on_the_single_env(env_id, options, obs_mode):
    """Both observation modes (the dict one failed on a Discrete from -1)."""
    env = gym.make(env_id, opponents="rule", obs_mode=obs_mode, **options)
    model = sb3_contrib.MaskablePPO("MultiInputPolicy", env, n_steps=64, batch_size=32, seed=0)
    model.learn(128)
    obs, _ = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks())
    assert env.unwrapped.action_masks()[int(action)]


@pytest.mark.parametrize(("env_id", "options"), IDS[:2])
def test_maskable_ppo_learns_on_the_native_vector_env(env_id, options):
    from sb3_contrib.common.maskable.evaluation import evaluate_policy

    venv = SB3VecEnv(env_id, num_envs=8, seed=3, opponents="rule", **options)
    model = sb3_contrib.MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, seed=0)
    model.learn(512)
    mean, _ = evaluate_policy(model, venv, n_eval_episodes=8)
    assert np.isfinite(mean)
    obs = venv.reset()
    actions, _ = model.predict(obs, action_masks=venv.action_masks())
    assert venv.action_masks()[np.arange(8), actions].all()


def test_cleanrl_example_runs_and_writes_numpy_weights(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    from trickgym.agents.policy import load_policy

    script = Path(__file__).resolve().parents[2] / "experiments" / "cleanrl_masked_ppo.py"
    run = subprocess.run(
        [sys.executable, str(script), "--steps", "2000", "--num-envs", "8", "--rollout", "32",
         "--hidden", "32", "--self-play", "--snapshot-every", "2", "--out", str(tmp_path),
         "--eval-deals", "10", "--eval-agents", "random,rule,pimc", "--eval-slow-deals", "0"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    weights = np.load(tmp_path / "policy.npz")
    assert weights["w0"].shape == (1123, 32) and weights["w2"].shape == (32, 66)
    settings = load_policy(tmp_path / "policy.npz").settings
    assert (settings.game, settings.bidding, settings.extra["env_steps"]) == ("solowhist", "rule",
                                                                              2000)  # fmt: skip
    # 2,000 steps exactly: 7 rollouts of 32 steps of 8 envs, then one of 26 steps.
    curve = (tmp_path / "curve.csv").read_text().splitlines()
    assert curve[0] == CURVE and len(curve) == 9 and curve[-1].startswith("8,2000,")
    assert "not evaluating against pimc" in run.stdout
    table = (tmp_path / "evaluation.csv").read_text().splitlines()
    assert table[0].startswith("opponent,deals") and len(table) == 3  # ends with trickgym.evaluate


CURVE = "update,env_steps,episodes,mean_episode_reward,mean_episode_length,env_steps_per_second"


def test_sb3_example_runs_and_evaluates(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    from trickgym.agents.policy import load_policy

    script = Path(__file__).resolve().parents[2] / "experiments" / "sb3_masked_ppo.py"
    subprocess.run(
        [sys.executable, str(script), "--env", "trickgym/Troggu-v0", "--players", "4",
         "--steps", "600", "--num-envs", "8", "--n-steps", "32", "--batch-size", "64",
         "--bidding", "learner", "--out", str(tmp_path), "--eval-deals", "4",
         "--eval-agents", "random,rule"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    policy = load_policy(tmp_path / "policy.npz")
    assert policy.n_outputs == 66
    settings = policy.settings
    assert (settings.table, settings.bidding) == ("troggu players=4", "policy")
    # 600 steps: two rollouts of 256 learnt from, then 88 steps run but not learnt from.
    curve = (tmp_path / "curve.csv").read_text().splitlines()
    assert curve[0] == CURVE and len(curve) == 4 and curve[-1].startswith("3,600,")
    table = (tmp_path / "evaluation.csv").read_text().splitlines()
    assert table[0].startswith("opponent,deals") and len(table) == 3
