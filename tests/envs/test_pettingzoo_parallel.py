"""PettingZoo parallel-API envs (PettingZoo's test, seeding, one acting agent, AEC equivalence),
and the AEC env with its masks in ``info`` (PettingZoo's ``api_test`` with no warning)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

from trickgym.envs import pettingzoo as tz

CASES = [
    ("solowhist", {}),
    *[("troggu", {"players": p}) for p in range(3, 9)],
    ("phat", {}),
    ("pinochle", {"mode": "kitty"}),
    ("pinochle", {"mode": "exchange"}),
]


@pytest.mark.parametrize(("game", "options"), CASES)
def test_parallel_api_test_passes_without_warnings(game, options):
    """PettingZoo's own parallel test, two full deals in each obs mode; a warning fails it."""
    for obs_mode in ("dict", "features"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            parallel_api_test(tz.parallel_env(game, obs_mode=obs_mode, **options))


def _acting(env, observations) -> str:
    """The one agent with a non-zero mask, checked to be ``agent_selection``."""
    acting = [a for a, o in observations.items() if o["action_mask"].any()]
    assert acting == [env.agent_selection]
    return acting[0]


def _play(env, seed, rng_seed, others=None):
    """A random-legal episode; ``others(agent)`` is what the non-acting agents are given."""
    rng = np.random.default_rng(rng_seed)
    observations, _ = env.reset(seed=seed)
    trace = []
    while env.agents:
        agent = _acting(env, observations)
        action = int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
        actions = {a: others(a) for a in env.agents} if others else {}
        actions[agent] = action
        observations, rewards, terminations, truncations, _ = env.step(actions)
        trace.append((agent, action, rewards))
        assert not any(truncations.values())
        assert all(terminations.values()) == (not env.agents)
    return trace


def test_same_seed_same_episode_and_others_actions_ignored():
    """The same seed and actions replay the same episode, whatever the non-acting agents send."""
    quiet = _play(tz.phat_parallel_env(), seed=11, rng_seed=2)
    noisy = _play(tz.phat_parallel_env(), seed=11, rng_seed=2, others=lambda a: 10**6)
    assert quiet == noisy
    assert any(quiet[-1][2].values())  # the deal's payoffs, on its last step
    other = _play(tz.phat_parallel_env(), seed=12, rng_seed=2)
    assert other != quiet


@pytest.mark.parametrize(("game", "options"), [CASES[0], CASES[3], CASES[-1]])
def test_matches_the_aec_env(game, options):
    """Same seed and actions: the AEC env's observations and rewards."""
    par = tz.parallel_env(game, obs_mode="features", **options)
    aec = tz.env(game, obs_mode="features", **options)
    rng = np.random.default_rng(5)
    observations, _ = par.reset(seed=21)
    aec.reset(seed=21)
    par_total = dict.fromkeys(par.possible_agents, 0.0)
    aec_total = dict.fromkeys(par.possible_agents, 0.0)
    for agent in aec.agent_iter():
        _, reward, terminated, _, _ = aec.last()
        aec_total[agent] += reward
        if terminated:
            aec.step(None)
            continue
        assert agent == par.agent_selection
        for a in par.agents:
            want = aec.observe(a)
            np.testing.assert_array_equal(observations[a]["observation"], want["observation"])
            np.testing.assert_array_equal(observations[a]["action_mask"], want["action_mask"])
        action = int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
        aec.step(action)
        observations, rewards, *_ = par.step({agent: action})
        for a, r in rewards.items():
            par_total[a] += r
    assert not par.agents
    assert par_total == aec_total
    assert any(par_total.values())


def test_illegal_action():
    env = tz.solowhist_parallel_env()
    observations, _ = env.reset(seed=1)
    agent = env.agent_selection
    bad = int(np.flatnonzero(observations[agent]["action_mask"] == 0)[0])
    _, rewards, terminations, _, infos = env.step({agent: bad})
    penalty = float(env.aec_env.game.payoff_bound)  # the default: the game's worst payoff
    assert rewards == {a: (-penalty if a == agent else 0.0) for a in env.possible_agents}
    assert all(terminations.values()) and env.agents == []
    assert infos[agent]["illegal_action"] is True
    with pytest.raises(ValueError, match="the episode is over"):
        env.step({agent: bad})
    strict = tz.solowhist_parallel_env(illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match=f"illegal action {bad} for {agent}"):
        strict.step({agent: bad})
    assert strict.agents == strict.possible_agents  # nothing changed: the deal goes on
    legal = int(np.flatnonzero(strict.aec_env.observe(agent)["action_mask"])[0])
    _, rewards, *_ = strict.step({agent: legal})
    assert not any(rewards.values())


def test_bad_actions_are_named():
    env = tz.solowhist_parallel_env()
    with pytest.raises(ValueError, match=r"call reset\(\) before step\(\)"):
        env.step({})
    env.reset(seed=0)
    agent = env.agent_selection
    with pytest.raises(ValueError, match="actions must be a dict from agent to action, got list"):
        env.step([0, 0, 0, 0])
    with pytest.raises(ValueError, match=r"actions given for \['player_9'\], not live agents"):
        env.step({agent: 0, "player_9": 0})
    other = next(a for a in env.agents if a != agent)
    with pytest.raises(ValueError, match=f"no action for '{agent}', the agent to act"):
        env.step({other: 0})
    n = env.game.n_actions
    with pytest.raises(ValueError, match=f"action must be an integer 0..{n - 1}, got {n}"):
        env.step({agent: n})
    assert env.agents == env.possible_agents  # every refusal left the deal as it was


def test_render_and_spaces_are_the_aec_envs():
    env = tz.troggu_parallel_env(players=5, render_mode="ansi")
    assert env.possible_agents == [f"player_{s}" for s in range(5)]
    assert env.observation_space("player_4") is env.aec_env.observation_space("player_4")
    env.reset(seed=0)
    assert "Troggu" in env.render()


@pytest.mark.parametrize(("game", "options"), [CASES[0], CASES[6], CASES[7], CASES[9]])
def test_mask_in_info_passes_api_test_without_warnings(game, options):
    """Features observations with the mask in ``info``: a warning fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(tz.env(game, obs_mode="features", mask_in="info", **options), num_cycles=60)


def test_mask_in_info_plays_legal_moves_to_the_payoffs():
    env = tz.env("pinochle", obs_mode="features", mask_in="info")
    assert env.observation_space("player_0").shape == env.observation_space("player_3").shape
    rng = np.random.default_rng(0)
    env.reset(seed=3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, _, info = env.last()
        totals[agent] += reward
        assert "illegal_action" not in info
        if terminated:
            assert not info["action_mask"].any()
            env.step(None)
            continue
        assert env.observation_space(agent).contains(obs)
        for other, other_info in env.infos.items():
            assert other_info["action_mask"].any() == (other == agent)
        env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    payoffs = env.unwrapped.state_view.payoffs
    assert list(totals.values()) == payoffs.astype(float).tolist() and payoffs.any()
    with pytest.raises(ValueError, match="mask_in must be 'observation' or 'info', got 'obs'"):
        tz.env("phat", mask_in="obs")
    with pytest.raises(ValueError, match="agent must be"):
        env.observation_space("player_4")


def test_parallel_mask_in_info():
    """``mask_in="info"``: the bare observation, and the mask the other convention gives."""
    plain = tz.phat_parallel_env(obs_mode="features")
    moved = tz.phat_parallel_env(obs_mode="features", mask_in="info")
    assert moved.observation_space("player_1") == plain.observation_space("player_1")["observation"]
    want, _ = plain.reset(seed=8)
    got, infos = moved.reset(seed=8)
    for _ in range(6):
        for a in plain.possible_agents:
            np.testing.assert_array_equal(got[a], want[a]["observation"])
            np.testing.assert_array_equal(infos[a]["action_mask"], want[a]["action_mask"])
            assert moved.observation_space(a).contains(got[a])
        agent = plain.agent_selection
        action = int(np.flatnonzero(want[agent]["action_mask"])[0])
        want, *_ = plain.step({agent: action})
        got, _, _, _, infos = moved.step({agent: action})
    with pytest.raises(ValueError, match="mask_in must be 'observation' or 'info', got 'obs'"):
        tz.phat_parallel_env(mask_in="obs")
