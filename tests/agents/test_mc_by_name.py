"""The Monte Carlo agents by name: simulate, tournaments, env opponents and ``trickgym play``."""

from __future__ import annotations

import io

import gymnasium as gym
import numpy as np
import pytest

import trickgym.envs  # noqa: F401  (registers the envs)
from trickgym.agents.mc import ISMCTSAgent, PIMCAgent
from trickgym.agents.registry import known_agents, make_agent
from trickgym.play import play_deal
from trickgym.sim import simulate


def test_registered_names():
    assert {"pimc", "ismcts"} <= set(known_agents())
    assert isinstance(make_agent("pimc", "solowhist"), PIMCAgent)
    assert isinstance(make_agent("ismcts", "phat"), ISMCTSAgent)


def test_simulate_by_name_is_reproducible():
    agents = ["pimc", "rule", "rule", "rule"]
    first = simulate("solowhist", 2, agents, seed=3, progress=False)
    again = simulate("solowhist", 2, agents, seed=3, progress=False)
    assert first.equals(again)
    assert np.all(sum(first[f"payoff_{s}"] for s in range(4)) == 0)


def test_env_opponents_by_name():
    env = gym.make("trickgym/SoloWhist-v0", opponents="ismcts")
    obs, _ = env.reset(seed=4)
    done = False
    while not done:
        obs, reward, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert isinstance(reward, float)


def test_play_against_pimc_replays_from_seed():
    outputs = []
    for _ in range(2):
        out = io.StringIO()
        payoffs = play_deal("solowhist", 0, "pimc", 11, stdin=io.StringIO("1\n" * 200), stdout=out)
        outputs.append((out.getvalue(), list(payoffs)))
    assert outputs[0] == outputs[1]
    assert "pimc" in outputs[0][0]


def test_unknown_name_lists_known_agents():
    with pytest.raises(ValueError, match="pimc"):
        play_deal("solowhist", 0, "nosuch", 1, stdin=io.StringIO(""), stdout=io.StringIO())
