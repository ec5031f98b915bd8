"""Deep Monte Carlo for Solo Whist (src/trickgym/training/dmc.py): its gradient, its actor, its
bookkeeping of returns, a seeded run that repeats, and the script end to end (tiny sizes)."""

from __future__ import annotations

import csv
import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from trickgym.agents.learnt.net import ValueNet
from trickgym.training import dmc

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"

TINY = dict(steps=3_000, envs=16, batch=128, hidden=(16,), log_every=1, seed=3)


def _learner(hidden=(8,), seed=0, **kw):
    cfg = dmc.DMCConfig(hidden=hidden, seed=seed, **kw)
    return dmc.QLearner(cfg)


@pytest.mark.parametrize("anchor", [True, False])
def test_gradient_matches_finite_differences(anchor):
    """The hand-written backward pass is the gradient of the played actions' squared error
    (plain outputs, and anchored: V + A - A[rule])."""
    rng = np.random.default_rng(0)
    learner = _learner(hidden=(5, 4), anchor=anchor)
    net = learner.net
    net.weights = [rng.standard_normal(w.shape) * 0.3 for w in net.weights]
    net.biases = [rng.standard_normal(b.shape) * 0.3 for b in net.biases]
    learner.value_w = rng.standard_normal(learner.value_w.shape) * 0.3
    learner.value_b = rng.standard_normal(1) * 0.3
    n = 8
    x = rng.standard_normal((n, net.n_inputs))
    actions = rng.integers(0, net.n_outputs, n)
    rule = actions.copy()
    rule[::2] = rng.integers(0, net.n_outputs, n // 2)  # half the rows played the rule action
    targets = rng.standard_normal(n)
    _, grads = learner.loss_and_grads(x, actions, targets, rule)
    params = learner._params()
    assert len(grads) == len(params) == 2 * len(net.weights) + (2 if anchor else 0)
    eps = 1e-6
    for p, g in zip(params, grads, strict=True):
        for idx in [tuple(rng.integers(0, s) for s in p.shape) for _ in range(3)]:
            old = p[idx]
            p[idx] = old + eps
            up = learner.loss_and_grads(x, actions, targets, rule)[0]
            p[idx] = old - eps
            down = learner.loss_and_grads(x, actions, targets, rule)[0]
            p[idx] = old
            assert g[idx] == pytest.approx((up - down) / (2 * eps), rel=1e-4, abs=1e-7)


@pytest.mark.parametrize("anchor", [True, False])
def test_q_values_move_toward_the_returns_on_a_fixed_batch(anchor):
    """Updates on one batch bring the played actions' values to the batch's returns."""
    rng = np.random.default_rng(1)
    learner = _learner(hidden=(32,), lr=3e-3, anchor=anchor)
    n_features = learner.net.n_inputs - learner.net.n_outputs
    features = (rng.random((64, n_features)) < 0.1).astype(np.float32)
    actions = rng.integers(0, 66, 64)
    rule = np.where(rng.random(64) < 0.5, actions, rng.integers(0, 66, 64))
    returns = rng.choice([-12.0, -4.0, 3.0, 9.0], 64).astype(np.float32)

    def error():
        q = learner.q(features, rule)[np.arange(64), actions]
        return float(np.mean((q - returns) ** 2))

    before = error()
    losses = [learner.update(features, rule, actions, returns) for _ in range(300)]
    assert error() < 0.05 * before
    assert losses[-1] < 0.05 * losses[0]


def test_choose_keeps_the_rule_action_unless_a_legal_one_is_valued_above_the_margin():
    """Margin ``None`` plays the rule action; a margin departs only for a larger gain;
    exploration picks legal actions only."""
    learner = _learner()
    net = learner.net
    n_features = net.n_inputs - net.n_outputs
    features = np.zeros((2, n_features), dtype=np.float32)
    mask = np.zeros((2, 66), dtype=np.int8)
    mask[0, [3, 7, 9]] = 1  # a card play
    mask[1, [52, 53]] = 1  # an auction: pass or Prop
    rule = np.array([3, 52])
    # Values by the output biases alone: card 7 is worth 2 points more than card 3
    # (out of the margin 1), card 9 more still but illegal in row 1 anyway.
    net.weights[-1][:] = 0.0
    net.biases[-1][:] = 0.0
    net.biases[-1][[3, 7, 9, 52, 53]] = np.array([0.0, 2.0, 1.5, 0.0, 0.5]) / net.scale
    rng = np.random.default_rng(0)
    keep = learner.choose(features, mask, rule, (None, None), (0.0, 0.0), rng)
    assert keep.tolist() == [3, 52]
    greedy = learner.choose(features, mask, rule, (1.0, 1.0), (0.0, 0.0), rng)
    assert greedy.tolist() == [7, 52]  # Prop is 0.5 above the pass: under the margin
    assert learner.choose(features, mask, rule, (0.25, 1.0), (0.0, 0.0), rng).tolist() == [7, 53]
    wide = np.repeat(mask, 200, axis=0)
    explored = learner.choose(
        np.repeat(features, 200, axis=0), wide, np.repeat(rule, 200), (None, None),
        (1.0, 1.0), rng,
    )  # fmt: skip
    assert wide[np.arange(len(wide)), explored].all()
    assert set(explored[:200].tolist()) == {3, 7, 9}
    assert set(explored[200:].tolist()) == {52, 53}


def test_pending_gives_each_decision_its_own_deals_return():
    """Decisions wait for their deal; a later deal in the same env gets its own payoff."""
    pending = dmc._Pending(2)
    f = np.arange(6, dtype=np.float32).reshape(3, 2)
    pending.add(np.array([0, 1]), f[:2], np.array([52, 52]), np.array([1, 2]))
    pending.finish(np.array([0]), np.array([5.0]))  # env 0's deal ends; env 1's goes on
    pending.add(np.array([0]), f[2:], np.array([52]), np.array([3]))
    feats, _, actions, returns = pending.take()
    assert actions.tolist() == [1] and returns.tolist() == [5.0]
    assert feats.tolist() == [[0.0, 1.0]]
    pending.finish(np.array([1, 0]), np.array([-2.0, 7.0]))
    feats, _, actions, returns = pending.take()
    got = sorted(zip(actions.tolist(), returns.tolist(), feats[:, 0].tolist(), strict=True))
    assert got == [(2, -2.0, 2.0), (3, 7.0, 4.0)]
    assert pending.size() == 0


def test_a_seeded_run_repeats_and_learns_from_its_deals():
    """The same seed and budget give the same weights; the updates change the net."""
    a, curve, stats = dmc.train(dmc.DMCConfig(**TINY), log=lambda row: None)
    b, _, _ = dmc.train(dmc.DMCConfig(**TINY), log=lambda row: None)
    fresh = dmc.QLearner(dmc.DMCConfig(**TINY))
    assert stats["steps"] >= TINY["steps"] and stats["updates"] >= 2
    assert len(curve) == stats["updates"]
    for wa, wb, w0 in zip(a.net.weights, b.net.weights, fresh.net.weights, strict=True):
        np.testing.assert_array_equal(wa, wb)
        assert not np.array_equal(wa, w0)


def test_the_script_writes_a_net_the_learnt_agent_plays(tmp_path):
    """``--quick``: weights, curve, margins and record are written, and ``LearntAgent``
    loads the weights with one margin per phase."""
    spec = importlib.util.spec_from_file_location(
        "train_dmc", EXPERIMENTS / "train_dmc_solowhist.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_dmc"] = module
    sys.path.insert(0, str(EXPERIMENTS))  # its sibling train_run.py, as when run as a script
    spec.loader.exec_module(module)
    assert module.main(["--quick", "--quiet", "--out", str(tmp_path)]) == 0
    for name in ("dmc_solowhist.npz", "curve.csv", "margins.json", "training.json"):
        assert (tmp_path / name).is_file(), name
    net = ValueNet.load(tmp_path / "dmc_solowhist.npz")
    assert sorted(net.meta["margins"]) == ["0", "1", "2", "3", "4"]
    assert json.loads((tmp_path / "training.json").read_text())["steps"] >= 6_000
    with open(tmp_path / "curve.csv") as f:
        rows = list(csv.DictReader(f))
    assert any(row["greedy_vs_rule"] for row in rows)  # the greedy evaluations ran
    from trickgym.agents.learnt.agent import LearntAgent

    agent = LearntAgent("solowhist", weights=tmp_path / "dmc_solowhist.npz")
    assert agent.net.n_outputs == 66
    # --evaluate plays the stored weights' tournaments with forced margins, no training
    out = tmp_path / "eval"
    argv = ["--evaluate", str(tmp_path / "dmc_solowhist.npz"), "--force-margins", "0", "rule"]
    assert module.main([*argv, "--tournament-deals", "2", "--quiet", "--out", str(out)]) == 0
    text = (out / "tournament.txt").read_text()
    assert text.startswith("margins (bids, cards): [0.0, None]")
    assert text.count("duplicate tournament: solowhist, 2 deals") == 2


def test_the_learnt_agent_values_actions_as_the_learner_did_in_the_env():
    """The env's feature rows are the agent's: ``LearntAgent`` on a seat's record ranks the
    actions as the learner ranked them from the vector env's observation."""
    from trickgym.agents.learnt.agent import LearntAgent

    learner = dmc.QLearner(dmc.DMCConfig(hidden=(16,), seed=2))
    rng = np.random.default_rng(2)
    for w in learner.net.weights:  # the anchored start is all zeros: nothing to compare
        w[:] = rng.standard_normal(w.shape) * 0.1
    agent = LearntAgent("solowhist", weights=learner.net)
    env = dmc.make_env(4)
    obs, _ = env.reset(seed=5)
    compared = 0
    for _ in range(12):
        rule = env.builtin_actions("rule")
        q = learner.q(obs["features"], rule)
        for i in range(4):
            mine = q[i] - q[i, rule[i]]
            values = agent.action_values(env._obs_records[i : i + 1], int(rule[i]))
            np.testing.assert_allclose(mine, values - values[rule[i]], rtol=1e-4, atol=1e-4)
            compared += 1
        obs, *_ = env.step(rule)
    assert compared == 48


def test_margins_are_chosen_per_group_by_the_best_gain_over_rule(monkeypatch):
    """Bids are measured with the rule agent's cards and cards with its bids; a group
    where no margin gains keeps the rule agent's actions (``None``)."""
    gains = {(0.0, None): 0.05, (1.0, None): 0.2, (None, 0.0): -1.0, (None, 1.0): -0.01}
    seen = []

    def fake(learner, margins, deals, seed, envs=256):
        seen.append(margins)
        return gains[margins], 0.5

    monkeypatch.setattr(dmc, "evaluate_vs_rule", fake)
    chosen = dmc.choose_margins(None, (0.0, 1.0), 10, 0)
    assert (chosen["bid"], chosen["play"]) == (1.0, None)
    assert sorted(seen, key=str) == sorted(gains, key=str)
    assert chosen["report"]["bids"]["1.0"] == [0.2, 0.5]
