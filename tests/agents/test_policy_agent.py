"""A policy (numpy MLP weights or a batched callable over the features observation) is an agent.

The same tiny random MLP, written as the ``policy.npz`` that
``experiments/cleanrl_masked_ppo.py`` writes, plays by name
(``"policy:PATH"``) or as an object in ``simulate``, a duplicate
tournament, the single and vector envs and ``trickgym evaluate``, in every
game. No kernel of its own: it reuses the feature encoder and the rule
kernels the other tests compile.
"""

from __future__ import annotations

import io

import gymnasium as gym
import numpy as np
import pytest

import trickgym
from trickgym.agents import python_action
from trickgym.agents.policy import MLPPolicy, PolicyAgent, from_policy, load_policy
from trickgym.agents.registry import _FACTORIES, make_agent, register_agent
from trickgym.evaluation import COLUMNS
from trickgym.games.obs_features import feature_plan
from trickgym.sim import simulate

GAMES = [
    ("solowhist", {}, "trickgym/SoloWhist-v0", {"deals": 6}),
    ("troggu", {"players": 5}, "trickgym/Troggu-v0", {"deals": 6}),
    ("phat", {}, "trickgym/Phat-v0", {"matches": 1}),
    ("pinochle", {}, "trickgym/Pinochle-v0", {"deals": 6}),
]
GAME_IDS = [g[0] for g in GAMES]


def mlp_weights(game, hidden: int = 8, seed: int = 0) -> dict:
    """Random tanh-MLP weights of the documented shapes for ``game``."""
    rng = np.random.default_rng(seed)
    n_in, n_out = feature_plan(game).size, game.n_actions
    return {
        "w0": rng.normal(0, 0.3, (n_in, hidden)).astype(np.float32),
        "b0": rng.normal(0, 0.1, hidden).astype(np.float32),
        "w1": rng.normal(0, 1.0, (hidden, n_out)).astype(np.float32),
        "b1": rng.normal(0, 0.1, n_out).astype(np.float32),
    }


def write_policy(tmp_path, game, **kwargs) -> str:
    path = tmp_path / f"{game.name}-policy.npz"
    np.savez(path, **mlp_weights(game, **kwargs))
    return str(path)


class Counting:
    """A batched callable policy (logits from an MLP) that counts the decisions it made."""

    def __init__(self, weights):
        self.mlp = MLPPolicy(weights)
        self.decisions = 0

    def __call__(self, features, action_mask):
        self.decisions += len(features)
        return self.mlp(features, action_mask)


@pytest.mark.parametrize(("name", "options", "env_id", "unit"), GAMES, ids=GAME_IDS)
def test_policy_plays_in_simulate_and_a_tournament(tmp_path, name, options, env_id, unit):
    game = trickgym.game(name, **options)
    path = write_policy(tmp_path, game)
    others = ["rule"] * (game.n_seats - 1)
    by_name = simulate(name, agents=[f"policy:{path}", *others], seed=3, progress=False,
                       threads=2, **unit, **options)  # fmt: skip
    counting = Counting(mlp_weights(game))
    as_object = simulate(name, agents=[PolicyAgent(game, counting), *others], seed=3,
                         progress=False, **unit, **options)  # fmt: skip
    assert counting.decisions > 0
    # The name and the object are the same agent: the same rows, deal for deal.
    pay = [c for c in by_name.columns if c.startswith(("payoff", "score", "phat"))]
    assert pay
    assert by_name[pay].equals(as_object[pay])
    # ...and not the rule agent (a random net does not play like it).
    rule = simulate(name, agents="rule", seed=3, progress=False, **unit, **options)
    assert not rule[pay].equals(by_name[pay])

    n = unit.get("deals", unit.get("matches"))
    report = trickgym.tournament(name, [f"policy:{path}", "random"], n, seed=1,
                                 progress=False, **options)  # fmt: skip
    assert list(report.standings.index) == [f"policy:{path}", "random"]
    # Two competitors: two seatings at four seats (ABAB, BABA), five at Troggu's five.
    assert report.rows["seating"].nunique() == (5 if name == "troggu" else 2)


@pytest.mark.parametrize(("name", "options", "env_id", "unit"), GAMES, ids=GAME_IDS)
def test_policy_is_an_env_opponent(tmp_path, name, options, env_id, unit):
    """The single env and the vector env (any obs_mode) take a policy as opponents."""
    game = trickgym.game(name, **options)
    register_agent(f"counting-{name}", from_policy(counting := Counting(mlp_weights(game))),
                   replace=True)  # fmt: skip
    try:
        _play_as_opponents(tmp_path, name, options, env_id, game, counting)
    finally:  # other tests list the registered agents
        _FACTORIES.pop(f"counting-{name}", None)


def _play_as_opponents(tmp_path, name, options, env_id, game, counting) -> None:
    env = gym.make(env_id, opponents=f"counting-{name}", **options)
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(300):
        _, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.unwrapped.action_masks()))))
        if done:
            env.reset()
    single = counting.decisions
    assert single > 0
    path = write_policy(tmp_path, game)
    opponents = ["rule", f"counting-{name}", f"policy:{path}", "random"][: game.n_seats - 1]
    vec = gym.make_vec(env_id, num_envs=4, vectorization_mode="vector_entry_point",
                       opponents=opponents, **options)  # fmt: skip
    vec.reset(seed=5)
    ended = 0
    for _ in range(60):
        _, _, terminated, _, _ = vec.step(vec.action_space.sample())
        ended += int(terminated.sum())
    assert ended > 0 and counting.decisions > single


class RecordOnly:
    """An agent with only ``act_record`` (as a user writes over ``feature_plan().observe``)."""

    def __init__(self, game):
        self.game = game
        self.policy = MLPPolicy(mlp_weights(game, seed=4))

    def act_record(self, record, action_mask):
        features = feature_plan(self.game).observe(self.game, record, 0)["features"]
        logits = self.policy(features[None])[0]
        return int(np.argmax(np.where(action_mask.astype(bool), logits, -np.inf)))


def test_act_record_agents_play_in_simulate(solowhist):
    """An agent with only act_record is an agent (simulate refused it: no act)."""
    df = simulate("solowhist", agents=[RecordOnly(solowhist), "rule", "rule", "rule"],
                  deals=4, seed=1, progress=False)  # fmt: skip
    assert len(df) == 4


def test_vector_env_python_agents_replay_single_envs(tmp_path, solowhist):
    """Batched (PolicyAgent) and one-at-a-time (act_record only) opponents: the vector env
    gives what single envs with the same opponents give, step for step."""
    path = write_policy(tmp_path, solowhist, seed=7)
    n, env_id = 4, "trickgym/SoloWhist-v0"
    opponents = [f"policy:{path}", "rule", RecordOnly(solowhist)]
    vec = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point",
                       opponents=opponents, obs_mode="features")  # fmt: skip
    singles = [gym.make(env_id, opponents=opponents, obs_mode="features") for _ in range(n)]
    obs, _ = vec.reset(seed=11)
    expect = [env.reset(seed=11 + i)[0] for i, env in enumerate(singles)]
    waiting = np.zeros(n, dtype=bool)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(120):
        for i in range(n):
            np.testing.assert_array_equal(obs["features"][i], expect[i]["features"])
        masks = obs["action_mask"].astype(bool)
        actions = np.argmax(np.where(masks, rng.random(masks.shape), -1), axis=1)
        obs, rewards, terminated, _, _ = vec.step(actions)
        for i, env in enumerate(singles):
            if waiting[i]:
                expect[i], _ = env.reset()
                continue
            o, r, t, _, _ = env.step(int(actions[i]))
            assert (r, t) == (rewards[i], terminated[i])
            expect[i] = o
            ended += t
        waiting = terminated.copy()
    assert ended > 5


def test_evaluate_gives_the_duplicate_table(tmp_path, solowhist):
    path = write_policy(tmp_path, solowhist)
    report = trickgym.evaluate(path, "solowhist", opponents=("random", "rule"), deals=5,
                               seed=2, progress=False)  # fmt: skip
    table = report.table
    assert list(table.columns) == list(COLUMNS)
    assert list(table.index) == ["random", "rule"]
    assert (table["deals"] == 5).all() and (table["seatings"] == 2).all()
    rule = report.reports["rule"]
    assert table.loc["rule", "margin"] == pytest.approx(rule.difference["mean"])
    assert (table["ci_low"] <= table["margin"]).all() and (
        table["margin"] <= table["ci_high"]
    ).all()
    assert "rule" in report.format()
    # The same policy as weights, a callable and a name: the same table (a greedy policy).
    again = trickgym.evaluate(f"policy:{path}", "solowhist", opponents="random,rule", deals=5,
                              seed=2, progress=False)  # fmt: skip
    assert again.table.equals(table)


def test_evaluate_takes_an_envs_game_with_its_options(tmp_path):
    """``trickgym.evaluate(path, env.unwrapped.game)``: Troggu's five players come along."""
    troggu = trickgym.game("troggu", players=5)
    report = trickgym.evaluate(write_policy(tmp_path, troggu), troggu, opponents=["random"],
                               deals=2, progress=False)  # fmt: skip
    assert report.table.loc["random", "seatings"] == 5  # ABABA rotated: five seatings
    with pytest.raises(ValueError, match="option players is required for troggu"):
        trickgym.evaluate(write_policy(tmp_path, troggu), "troggu", opponents=["random"])


def test_cli_evaluate(tmp_path, solowhist, capsys):
    from trickgym.cli import main

    path = write_policy(tmp_path, solowhist)
    out = tmp_path / "table.csv"
    code = main(["evaluate", "--game", "solowhist", "--policy", path, "--agents",
                 "random,rule", "--deals", "3", "--quiet", "--out", str(out)])  # fmt: skip
    assert code == 0
    text = capsys.readouterr().out
    assert "random" in text and "rule" in text and out.is_file()
    assert main(["evaluate", "--game", "solowhist", "--policy", str(tmp_path / "nope.npz"),
                 "--quiet"]) == 2  # fmt: skip
    assert "does not exist" in capsys.readouterr().err


def test_policy_plays_in_the_terminal_game(tmp_path, solowhist):
    from trickgym.play import play_deal

    path = write_policy(tmp_path, solowhist)
    out = io.StringIO()
    play_deal("solowhist", 0, f"policy:{path}", 3, stdin=io.StringIO("1\n" * 200), stdout=out)
    assert f"policy:{path}" in out.getvalue() and "Deal over" in out.getvalue()


def test_bad_policies_are_named(tmp_path, solowhist):
    weights = mlp_weights(solowhist)
    wrong_in = {**weights, "w0": weights["w0"][:-1]}
    with pytest.raises(ValueError, match=r"maps 1122 features to 66 actions.*needs 1123 features"):
        PolicyAgent(solowhist, wrong_in)
    with pytest.raises(ValueError, match=r"w1 takes 8 inputs but layer 0 gives 9"):
        MLPPolicy({**weights, "w0": np.zeros((1123, 9)), "b0": np.zeros(9)})
    with pytest.raises(ValueError, match=r"b0 float\[n_out\]"):
        MLPPolicy({**weights, "b0": np.zeros(3)})
    with pytest.raises(ValueError, match=r"exactly the arrays w0, b0, \.\.\., wK, bK.*'w2'"):
        MLPPolicy({**weights, "w2": np.zeros((66, 66))})
    missing = tmp_path / "missing.npz"
    with pytest.raises(ValueError, match=r"missing\.npz' does not exist"):
        make_agent(f"policy:{missing}", "solowhist")
    with pytest.raises(ValueError, match=r"policy:PATH"):
        simulate("solowhist", agents=["policy", "rule", "rule", "rule"], deals=1)
    with pytest.raises(ValueError, match="names no file"):
        make_agent("policy:", "solowhist")
    bad = tmp_path / "bad.npz"
    bad.write_text("not a zip")
    with pytest.raises(ValueError, match=r"is a text file .*, not an \.npz archive"):
        load_policy(bad)
    with pytest.raises(ValueError, match=r"must be a path to an \.npz file.*got 5"):
        PolicyAgent(solowhist, 5)
    agent = PolicyAgent(solowhist, lambda f, m: np.zeros(3))
    state = solowhist.deal(seed=1)
    with pytest.raises(ValueError, match=r"return 1 integer actions .* or logits of shape"):
        python_action(agent, solowhist, state.array, 0, state.current_player)
    path = write_policy(tmp_path, solowhist)
    with pytest.raises(ValueError, match="unknown game 'whist'; available: "):
        trickgym.evaluate(path, "whist")
    with pytest.raises(ValueError, match="opponent 'rulez' is not an agent name; known agents"):
        trickgym.evaluate(path, "solowhist", opponents=["rulez"])
    with pytest.raises(ValueError, match="slow_deals must be"):
        trickgym.evaluate(path, "solowhist", slow_deals=0)
    # A Troggu policy (its feature table) does not fit Solo Whist.
    troggu = trickgym.game("troggu", players=5)
    with pytest.raises(ValueError, match="needs 1123 features to 66 actions"):
        PolicyAgent(solowhist, mlp_weights(troggu))


def test_rule_bidding_leaves_the_policy_the_cards(tmp_path, solowhist):
    """bidding='rule': the auctions are the rule agent's, the card play the policy's."""
    from trickgym.agents.policy import policy_agent

    path = write_policy(tmp_path, solowhist)
    agent = policy_agent(solowhist, path, bidding="rule")
    mine = simulate("solowhist", agents=[agent, "rule", "rule", "rule"], deals=60, seed=4,
                    progress=False)  # fmt: skip
    rule = simulate("solowhist", agents="rule", deals=60, seed=4, progress=False)
    for column in ("contract", "declarer", "auction"):
        assert mine[column].equals(rule[column]), column
    assert not mine["payoff_0"].equals(rule["payoff_0"])
    vec = gym.make_vec("trickgym/SoloWhist-v0", num_envs=3, vectorization_mode="vector_entry_point",
                       opponents=[agent, "rule", "rule"])  # fmt: skip
    vec.reset(seed=1)
    for _ in range(30):
        vec.step(vec.action_space.sample())
    report = trickgym.evaluate(path, "solowhist", opponents=["rule"], deals=4, bidding="rule",
                               progress=False)  # fmt: skip
    assert "rule bidding" in report.policy
    with pytest.raises(ValueError, match=r"bidding must be 'policy' or 'rule', got 'cards'"):
        policy_agent(solowhist, path, bidding="cards")
    with pytest.raises(
        ValueError, match=r"bidding='rule' is for a policy .* not the agent 'learnt'"
    ):
        trickgym.evaluate("learnt", "solowhist", opponents=["rule"], bidding="rule")


def test_policy_plays_every_seat_of_the_pettingzoo_env(tmp_path, solowhist):
    """``act`` on the PettingZoo features observation is ``act_record`` on the seat's record."""
    pytest.importorskip("pettingzoo")
    from trickgym.envs.pettingzoo import raw_env

    agent = PolicyAgent(solowhist, write_policy(tmp_path, solowhist))
    env = raw_env("solowhist", obs_mode="features")
    env.reset(seed=3)
    moves = 0
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = agent.act(obs["observation"], obs["action_mask"])
        state = env.state_view
        assert action == python_action(agent, solowhist, state.array, 0, state.current_player)
        env.step(action)
        moves += 1
    assert moves >= 13 * 4
