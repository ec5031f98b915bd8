"""Every built-in agent class is a Python agent as the README defines one (issue 31)."""

from __future__ import annotations

import numpy as np
import pytest

import trickgym
from trickgym.agents import Agent, RandomAgent, make_agent
from trickgym.agents.mc import ISMCTSAgent, PIMCAgent


def test_every_builtin_agent_class_plays_a_deal_as_a_python_agent():
    """Constructed as the README shows (tiny budgets), each plays through ``simulate``, and
    its ``act`` answers the seat's observation record with a legal action."""
    game = trickgym.game("phat")
    agents = [
        RandomAgent(seed=1),
        PIMCAgent(game, samples=2, seed=1),
        ISMCTSAgent(game, iterations=4, seed=1),
        make_agent("learnt", game),
    ]
    state = game.deal(seed=2)
    seat = state.current_player
    record = np.zeros(1, dtype=game.obs_dtype)
    game.kernels.observe_at(state.array, 0, seat, record, 0)
    encoded = state.observe(seat)
    mask = encoded["action_mask"]
    for agent in agents:
        assert isinstance(agent, Agent), agent
        df = trickgym.simulate("phat", matches=1, agents=[agent, "rule", "rule", "rule"], seed=3)
        assert len(df) >= 1, agent
        if isinstance(agent, RandomAgent):
            assert mask[agent.act(encoded, mask)]
            continue
        assert mask[agent.act(record, mask)], agent
        # The encoded dict lacks parts of the record these agents sample from: refused, with
        # the way to use them.
        with pytest.raises(ValueError, match=r"observation record.*simulate"):
            agent.act(encoded, mask)
