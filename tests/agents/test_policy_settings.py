"""A policy file carries its settings (``save_policy``), and every loader uses them.

The bar of issue 44: a file saved with ``bidding="rule"`` plays exactly as
the same weights wrapped with ``bidding="rule"``, with no flag, in
``trickgym.evaluate``, a tournament and as a single- and vector-env
opponent. Small random numpy weights (no PyTorch); Solo Whist only for the
games played (its kernels are the ones the other policy tests compile).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import gymnasium as gym
import numpy as np
import pytest

import trickgym
from trickgym.agents.policy import (
    SETTINGS_KEY,
    PolicyAgent,
    RuleBiddingPolicyAgent,
    from_policy,
    load_policy,
    policy_agent,
    save_policy,
)
from trickgym.agents.registry import make_agent
from trickgym.games.obs_features import feature_plan


def mlp_weights(game, hidden: int = 8, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    n_in, n_out = feature_plan(game).size, game.n_actions
    return {
        "w0": rng.normal(0, 0.3, (n_in, hidden)).astype(np.float32),
        "b0": rng.normal(0, 0.1, hidden).astype(np.float32),
        "w1": rng.normal(0, 1.0, (hidden, n_out)).astype(np.float32),
        "b1": rng.normal(0, 0.1, n_out).astype(np.float32),
    }


def test_save_policy_records_the_settings_and_load_policy_reads_them(tmp_path):
    troggu = trickgym.game("troggu", players=5)
    weights = mlp_weights(troggu)
    path = save_policy(tmp_path / "new" / "folder" / "p.npz", weights, game=troggu,
                       bidding="rule", trainer="test", steps=3000)  # fmt: skip
    assert path.is_file()
    assert not [p for p in path.parent.iterdir() if p != path]  # no temporary file left
    stored = json.loads(str(np.load(path)[SETTINGS_KEY]))
    assert stored == {
        "format": 1, "game": "troggu", "options": {"players": 5}, "obs_mode": "features",
        "bidding": "rule", "n_features": feature_plan(troggu).size, "n_actions": 66,
        "extra": {"trainer": "test", "steps": 3000},
    }  # fmt: skip
    policy = load_policy(path)
    assert policy.settings.table == "troggu players=5" and policy.settings.bidding == "rule"
    np.testing.assert_array_equal(policy.layers[0][0], weights["w0"])
    assert isinstance(policy_agent(troggu, path), RuleBiddingPolicyAgent)  # the file's bidding
    assert type(policy_agent(troggu, path, bidding="policy")) is PolicyAgent  # overridden
    pinochle = trickgym.game("pinochle", mode="exchange")
    saved = save_policy(tmp_path / "q.npz", mlp_weights(pinochle), game=pinochle)
    assert load_policy(saved).settings.options == {"mode": "exchange"}
    # A file of weights alone (written before settings) still loads, bidding with the policy.
    old = tmp_path / "old.npz"
    np.savez(old, **weights)
    assert load_policy(old).settings is None
    assert type(policy_agent(troggu, old)) is PolicyAgent
    with pytest.raises(ValueError, match=r"extra seed=.* is not a JSON value"):
        save_policy(tmp_path / "r.npz", weights, game=troggu, seed=object())
    with pytest.raises(ValueError, match=r"bidding must be 'policy' or 'rule', got 'learner'"):
        save_policy(tmp_path / "r.npz", weights, game=troggu, bidding="learner")
    with pytest.raises(ValueError, match=r"needs 1123 features to 66 actions"):
        save_policy(tmp_path / "r.npz", weights, game="solowhist")


def _settings(**changes) -> str:
    good = {"format": 1, "game": "solowhist", "options": {}, "obs_mode": "features",
            "bidding": "rule", "n_features": 1123, "n_actions": 66, "extra": {}}  # fmt: skip
    return json.dumps({**good, **changes})


BAD_SETTINGS = {
    "not json": ("{bidding: rule", "is not JSON"),
    "not an object": ("[1, 2]", "must be a JSON object, got list"),
    "unknown key": (_settings(learning_rate=3), "unknown key.*'learning_rate'"),
    "later format": (_settings(format=2), "has format 2; this trickgym reads format 1"),
    "format a string": (_settings(format="1"), "has format '1'"),
    "bidding unknown": (_settings(bidding="learner"), "bidding must be 'policy' or 'rule'"),
    "game unknown": (_settings(game="bridge"), "game must be .*got 'bridge'"),
    "option unknown": (_settings(options={"players": 4}), "unknown option.*players"),
    "options a list": (_settings(options=[4]), "options must be a JSON dict, got \\[4\\]"),
    "obs mode": (_settings(obs_mode="dict"), "obs_mode must be 'features', got 'dict'"),
    "shape": (_settings(n_actions=67), "says 1123 features to 67 actions but the weights map"),
    "missing key": (json.dumps({"format": 1}), "lacks 'game'"),
}


@pytest.mark.parametrize("case", list(BAD_SETTINGS))
def test_malformed_settings_are_refused_naming_file_and_value(tmp_path, solowhist, case):
    text, words = BAD_SETTINGS[case]
    path = tmp_path / "bad.npz"
    np.savez(path, **mlp_weights(solowhist), **{SETTINGS_KEY: np.array(text)})
    with pytest.raises(ValueError, match=rf"policy file '.*bad\.npz': {SETTINGS_KEY} .*{words}"):
        load_policy(path)


def test_settings_not_a_string_are_refused(tmp_path, solowhist):
    path = tmp_path / "bytes.npz"
    blob = np.frombuffer(_settings().encode(), dtype=np.uint8)
    np.savez(path, **mlp_weights(solowhist), **{SETTINGS_KEY: blob})
    with pytest.raises(ValueError, match=r"must be a 0-d unicode array of JSON, got uint8\["):
        load_policy(path)


def test_a_policy_for_another_table_is_refused_naming_both(tmp_path, solowhist):
    five = trickgym.game("troggu", players=5)
    path = save_policy(tmp_path / "x.npz", mlp_weights(five), game=five)
    trained = r"policy file '.*x\.npz' was trained for troggu players=5; this table is"
    with pytest.raises(ValueError, match=trained + " troggu players=4"):
        make_agent(f"policy:{path}", trickgym.game("troggu", players=4))
    with pytest.raises(ValueError, match=trained + " solowhist \\("):
        trickgym.evaluate(path, "solowhist", opponents=["random"], deals=1)
    with pytest.raises(ValueError, match=trained + " troggu num_deals=3 players=5"):
        from_policy(path)(trickgym.game("troggu", players=5, num_deals=3))
    with pytest.raises(ValueError, match=trained + " troggu players=6"):
        gym.make("trickgym/Troggu-v0", players=6, opponents=f"policy:{path}")


def test_policy_names_take_a_bidding(tmp_path, solowhist):
    path = save_policy(tmp_path / "p.npz", mlp_weights(solowhist), game=solowhist,
                       bidding="rule")  # fmt: skip
    assert isinstance(make_agent(f"policy:{path}", solowhist), RuleBiddingPolicyAgent)
    assert type(make_agent(f"policy:{path}:bidding=policy", solowhist)) is PolicyAgent
    assert type(make_agent(f"policy:{path}", solowhist, bidding="policy")) is PolicyAgent
    forms = r"the forms: policy:PATH, policy:PATH:bidding=rule or policy:PATH:bidding=policy"
    with pytest.raises(ValueError, match=r"bidding='cards' is not bidding=rule.*" + forms):
        make_agent(f"policy:{path}:bidding=cards", solowhist)
    with pytest.raises(ValueError, match=r"says bidding=policy but bidding='rule' was given"):
        make_agent(f"policy:{path}:bidding=policy", solowhist, bidding="rule")
    with pytest.raises(ValueError, match=r"has no option samples; its options: bidding"):
        make_agent(f"policy:{path}", solowhist, samples=3)


def test_rule_bidding_file_scores_exactly_as_the_weights_with_rule_bidding(tmp_path, solowhist):
    """The issue's bar, with no flag: evaluate, tournament, single- and vector-env opponent."""
    weights = mlp_weights(solowhist, seed=3)
    path = save_policy(tmp_path / "rule.npz", weights, game=solowhist, bidding="rule")
    plain = tmp_path / "plain.npz"  # the same weights, no settings: policy bidding
    np.savez(plain, **weights)
    kw = {"opponents": ["rule"], "deals": 12, "seed": 5, "progress": False}
    by_file = trickgym.evaluate(path, "solowhist", **kw)
    wrapped = trickgym.evaluate(weights, "solowhist", bidding="rule", **kw)
    assert by_file.table.equals(wrapped.table) and "(rule bidding)" in by_file.policy
    by_name = trickgym.evaluate(f"policy:{path}", "solowhist", **kw)
    assert by_name.table.equals(wrapped.table)
    as_policy = trickgym.evaluate(f"policy:{path}:bidding=policy", "solowhist", **kw)
    assert as_policy.table.equals(trickgym.evaluate(plain, "solowhist", **kw).table)
    assert not as_policy.table.equals(wrapped.table)  # the bidding matters to the score

    one = trickgym.tournament("solowhist", [f"policy:{path}", "rule"], 12, seed=5, progress=False)
    two = trickgym.tournament("solowhist", [policy_agent(solowhist, weights, "rule"), "rule"],
                              12, seed=5, progress=False)  # fmt: skip
    assert one.standings["mean"].tolist() == two.standings["mean"].tolist()

    def single(opponent) -> list:
        env = gym.make("trickgym/SoloWhist-v0", opponents=[opponent, "rule", "rule"])
        env.reset(seed=7)
        rng, out = np.random.default_rng(0), []
        for _ in range(150):
            legal = np.flatnonzero(env.unwrapped.action_masks())
            _, reward, terminated, _, _ = env.step(int(rng.choice(legal)))
            out.append(reward)
            if terminated:
                env.reset()
        return out

    def vector(opponent) -> list:
        env = gym.make_vec("trickgym/SoloWhist-v0", num_envs=3, opponents=[opponent, "rule",
                           "rule"], vectorization_mode="vector_entry_point")  # fmt: skip
        env.reset(seed=7)
        env.action_space.seed(0)
        return [env.step(env.action_space.sample())[1].tolist() for _ in range(150)]

    wrapped_agent = policy_agent(solowhist, weights, "rule")
    assert single(f"policy:{path}") == single(wrapped_agent)
    assert vector(f"policy:{path}") == vector(wrapped_agent)
    assert single(f"policy:{path}") != single(f"policy:{path}:bidding=policy")


def test_cli_evaluate_takes_the_files_bidding_and_an_override(tmp_path, solowhist, capsys):
    from trickgym.cli import main

    path = save_policy(tmp_path / "p.npz", mlp_weights(solowhist), game=solowhist,
                       bidding="rule")  # fmt: skip
    args = ["evaluate", "--game", "solowhist", "--opponents", "random", "--deals", "2", "--quiet"]
    assert main([*args, "--policy", str(path)]) == 0
    assert "(rule bidding)" in capsys.readouterr().out
    assert main([*args, "--policy", str(path), "--bidding", "policy"]) == 0
    assert "(rule bidding)" not in capsys.readouterr().out


EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"


def test_training_examples_table_flags():
    """The PPO examples' shared flags (experiments/ppo_common.py imports no PyTorch)."""
    sys.path.insert(0, str(EXPERIMENTS))
    try:
        from ppo_common import table_options, vector_steps
    finally:
        sys.path.remove(str(EXPERIMENTS))

    def args(env, players=None, mode=None, steps=20_000, num_envs=64):
        return SimpleNamespace(env=env, players=players, mode=mode, steps=steps,
                               num_envs=num_envs)  # fmt: skip

    assert table_options(args("trickgym/Troggu-v0", players=7)) == {"players": 7}
    assert table_options(args("trickgym/Pinochle-v0", mode="exchange")) == {"mode": "exchange"}
    assert table_options(args("trickgym/Phat-v0")) == {}
    with pytest.raises(ValueError, match="--players is a table option of trickgym/Troggu-v0"):
        table_options(args("trickgym/SoloWhist-v0", players=4))
    with pytest.raises(ValueError, match="--mode is a table option of trickgym/Pinochle-v0"):
        table_options(args("trickgym/Troggu-v0", players=4, mode="kitty"))
    with pytest.raises(ValueError, match="trickgym/Troggu-v0 needs --players"):
        table_options(args("trickgym/Troggu-v0"))
    assert vector_steps(args("trickgym/Phat-v0")) * 64 == 20_032  # not 16,384
    assert vector_steps(args("trickgym/Phat-v0", num_envs=16)) * 16 == 20_000
