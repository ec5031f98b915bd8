"""PettingZoo AEC envs: PettingZoo's API and seed tests, and self-play to the payoffs."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import trickgym
from trickgym.envs import pettingzoo as tz

CASES = [
    ("solowhist", {}),
    ("troggu", {"players": 3}),
    ("troggu", {"players": 7}),
    ("phat", {}),
    ("pinochle", {"mode": "kitty"}),
    ("pinochle", {"mode": "exchange"}),
]


@pytest.mark.parametrize(("game", "options"), CASES)
def test_api(game, options):
    """PettingZoo's own API test."""
    api_test(tz.env(game, **options), num_cycles=60)


@pytest.mark.parametrize(("game", "options"), CASES[:1] + CASES[2:4] + CASES[5:])
def test_seed(game, options):
    """PettingZoo's seed test: two envs with the same seed play the same episode."""
    seed_test(lambda: tz.env(game, **options), num_cycles=30)


@pytest.mark.parametrize(("game", "options"), CASES)
def test_self_play_matches_the_game(game, options):
    """Random self-play through the AEC env replays on the game API to the same payoffs.

    Each agent sees its own seat's information set (``State.observe``), and
    its mask is non-empty exactly when it is the seat to move.
    """
    env = tz.raw_env(game, **options)
    rng = np.random.default_rng(3)
    for episode in range(3):
        env.reset(seed=100 + episode)
        replay = env.state_view.clone()
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            seat = int(agent.split("_")[1])
            assert replay.current_player == seat
            want = replay.observe(seat)
            assert np.array_equal(obs["action_mask"], want["action_mask"])
            for key, value in obs["observation"].items():
                np.testing.assert_array_equal(value, want[key], err_msg=key)
            for other in env.possible_agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            replay.apply(action)
        assert replay.is_over
        np.testing.assert_array_equal(
            [totals[a] for a in env.possible_agents], replay.payoffs.astype(float)
        )


def test_same_seed_same_deal_and_new_seed_new_deal():
    a, b = tz.raw_env("solowhist"), tz.raw_env("solowhist")
    a.reset(seed=5)
    b.reset(seed=5)
    assert (a.state_view.record["hands"] == b.state_view.record["hands"]).all()
    b.reset(seed=6)
    assert (a.state_view.record["hands"] != b.state_view.record["hands"]).any()
    deal = trickgym.game("solowhist").new_match(
        np.random.default_rng(np.random.SeedSequence(5)).integers(0, 2**63, dtype=np.uint64),
        num_deals=1,
    )
    assert (deal[0]["hands"] == a.state_view.record["hands"]).all()


def test_illegal_action():
    env = tz.raw_env("solowhist")
    env.reset(seed=1)
    agent = env.agent_selection
    bad = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(bad)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -env.game.payoff_bound == -93  # unit 5: the worst payoff
    assert env.infos[agent]["illegal_action"] is True
    strict = tz.raw_env("solowhist", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match=f"illegal action {bad} for {agent}"):
        strict.step(bad)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: tz.env("bridge"), "game must be 'solowhist', .* or 'pinochle', got 'bridge'"),
        (lambda: tz.env("solowhist", render_mode="human"), "render_mode"),
        (lambda: tz.troggu_env(players=9), "players"),
        (lambda: tz.solowhist_env(unit=0), "unit"),
    ],
)
def test_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_constructors_and_render():
    for make, n in [
        (tz.solowhist_env, 4),
        (lambda: tz.troggu_env(players=5), 5),
        (tz.phat_env, 4),
        (tz.pinochle_env, 4),
    ]:
        env = make()
        assert len(env.possible_agents) == n
    env = tz.raw_env("phat", render_mode="ansi")
    env.reset(seed=0)
    assert "Phat" in env.render()
