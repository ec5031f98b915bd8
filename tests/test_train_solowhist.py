"""The Solo Whist training example: its gradient, its features, and a quick end-to-end run."""

from __future__ import annotations

import csv
import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

EXPERIMENTS = Path(__file__).resolve().parents[1] / "experiments"


def load(name: str):
    """Import a module of ``experiments/`` by file."""
    sys.path.insert(0, str(EXPERIMENTS))
    spec = importlib.util.spec_from_file_location(name, EXPERIMENTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def policy_module():
    return load("solowhist_policy")


def test_gradient_matches_finite_differences(policy_module):
    """The hand-written backward pass of the policy/value loss is the loss's gradient."""
    mod = policy_module
    rng = np.random.default_rng(0)
    policy = mod.CardPolicy(hidden=6, seed=1)
    for k in policy.params:  # float64 and non-trivial weights for a clean check
        policy.params[k] = rng.standard_normal(policy.params[k].shape) * 0.3
    n = 7
    x = rng.integers(0, 2, size=(n, mod.N_FEATURES)).astype(np.float64)
    mask = rng.random((n, 52)) < 0.3
    mask[:, 0] = True
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
    returns = rng.standard_normal(n)
    adv = rng.standard_normal(n)
    _, grads, _ = policy.gradients(x, mask, actions, returns, advantage=adv)
    eps = 1e-6
    for key in ("w1", "b1", "w2", "b2", "wv", "bv"):
        w = policy.params[key]
        for idx in [tuple(rng.integers(0, s) for s in w.shape) for _ in range(4)]:
            old = w[idx]
            w[idx] = old + eps
            up = policy.gradients(x, mask, actions, returns, advantage=adv)[0]
            w[idx] = old - eps
            down = policy.gradients(x, mask, actions, returns, advantage=adv)[0]
            w[idx] = old
            assert grads[key][idx] == pytest.approx((up - down) / (2 * eps), rel=1e-4, abs=1e-7)


def test_features_are_relative_to_the_seat(policy_module):
    """The same table seen from another seat, turned, gives the same features."""
    import trickgym

    rng = np.random.default_rng(0)
    for seed in range(100):  # a deal that reaches the play, two cards into a trick
        state = trickgym.game("solowhist").deal(seed=seed)
        while not state.is_over and state.record["phase"] != 4:
            state.apply(int(rng.choice(state.legal_actions())))
        if not state.is_over:
            break
    for _ in range(2):
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    obs = {k: np.asarray(v)[None] for k, v in state.observe(seat).items()}
    base = policy_module.features(obs)
    turned = {k: v.copy() for k, v in obs.items()}
    shift = 1
    turned["seat"] = (obs["seat"] + shift) % 4
    for key in ("trick", "voids", "declarers", "tricks_won"):
        turned[key] = np.roll(obs[key], shift, axis=1)
    turned["played"] = np.roll(obs["played"], shift, axis=1)
    leader = obs["trick_leader"]
    turned["trick_leader"] = np.where(leader >= 0, (leader + shift) % 4, leader)
    np.testing.assert_array_equal(policy_module.features(turned), base)
    assert base.shape == (1, policy_module.N_FEATURES)


def test_quick_run_end_to_end(tmp_path):
    """``--quick`` trains, writes the curve and the weights, and plays the tournaments."""
    train = load("train_solowhist")
    assert train.main(["--quick", "--quiet", "--out", str(tmp_path)]) == 0
    rows = list(csv.DictReader(open(tmp_path / "curve.csv")))
    assert len(rows) >= 1 and float(rows[-1]["env_steps"]) > 0
    assert (tmp_path / "curve.png").stat().st_size > 0
    report = (tmp_path / "tournament.txt").read_text()
    for label in ("vs random", "vs rule", "vs rule bidding + random cards"):
        assert label in report
    policy = load("solowhist_policy").CardPolicy.load(tmp_path / "policy.npz")
    assert policy.params["w1"].shape[0] == load("solowhist_policy").N_FEATURES


def test_training_stops_on_its_step_budget_and_repeats_with_the_seed(tmp_path):
    """Training used to stop on wall time, so its result depended on the machine's load."""
    train = load("train_solowhist")
    weights = []
    for run in ("a", "b"):
        out = tmp_path / run
        policy = train.train(
            train.parse_args(["--quick", "--quiet", "--steps", "480", "--out", str(out)])
        )
        record = json.loads((out / "training.json").read_text())
        assert (record["env_steps"], record["stopped_by"]) == (480, "steps")
        assert record["minutes_cap"] is None
        weights.append(policy.params)
    for key, value in weights[0].items():
        np.testing.assert_array_equal(value, weights[1][key])
