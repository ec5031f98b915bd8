"""The behaviour-cloning example (experiments/behaviour_cloning.py): its gradient and a tiny run."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np

EXAMPLE = Path(__file__).resolve().parents[1] / "experiments" / "behaviour_cloning.py"


def load():
    sys.path.insert(0, str(EXAMPLE.parent))  # its sibling modules, as when run as a script
    spec = importlib.util.spec_from_file_location("behaviour_cloning", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gradient_matches_finite_differences():
    bc = load()
    rng = np.random.default_rng(0)
    net = bc.MLP(6, 5, 4, rng)
    for k in net.params:
        net.params[k] = net.params[k].astype(np.float64)
    x = rng.normal(size=(7, 6))
    mask = rng.random((7, 4)) < 0.7
    mask[:, 2] = True
    action = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
    _, grads = net.loss_and_grads(x, mask, action)
    for k in ("w0", "b1"):
        flat = net.params[k].reshape(-1)
        for i in range(0, flat.size, max(1, flat.size // 5)):
            old = flat[i]
            flat[i] = old + 1e-6
            up = net.loss_and_grads(x, mask, action)[0]
            flat[i] = old - 1e-6
            down = net.loss_and_grads(x, mask, action)[0]
            flat[i] = old
            assert abs((up - down) / 2e-6 - grads[k].reshape(-1)[i]) < 1e-5


def test_tiny_run_trains_saves_and_evaluates(tmp_path):
    """Records, trains (the loss falls), saves weights MLPPolicy reads, and evaluates."""
    from trickgym.agents.policy import load_policy

    bc = load()
    args = ["--deals", "40", "--epochs", "3", "--hidden", "16", "--batch", "64", "--lr", "0.01"]
    args += ["--eval-deals", "4", "--eval-agents", "random", "--threads", "1"]
    result = bc.main([*args, "--out", str(tmp_path)])
    losses = [e["loss"] for e in result["epochs"]]
    assert losses[-1] < losses[0]
    assert 0.2 < result["held_out_accuracy"] <= 1.0
    assert [row["opponent"] for row in result["evaluation"]] == ["random"]
    policy = load_policy(tmp_path / "policy.npz")
    assert (policy.n_inputs, policy.n_outputs) == (1123, 66)
    assert json.loads((tmp_path / "result.json").read_text())["epochs"] == result["epochs"]
