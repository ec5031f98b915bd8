"""Agents that decide many deals at once (``act_rows``): the same decisions as one at a time.

The simulator plays such agents in lockstep (:mod:`trickgym.sim.lockstep`)
and the vector env asks them once per round; both must give the rows and
episodes that the one-decision path (``act_record`` after ``start_deal``)
gives, whatever the number of deals in play.
"""

from __future__ import annotations

import numpy as np
import pytest
from mc_helpers import CONFIGS, make_game

import trickgym
from trickgym.agents.learnt import LearntAgent, ValueNet
from trickgym.agents.learnt.forward import PackedNet
from trickgym.agents.policy import PolicyAgent
from trickgym.agents.rows import batched
from trickgym.engine.params import params_matrix
from trickgym.sim.python_loop import simulate_python, simulate_python_whole_matches
from trickgym.sim.specs import SPECS


class OneAtATime:
    """An agent's ``act_record`` and ``start_deal`` alone: played one decision at a time."""

    def __init__(self, agent):
        self.agent = agent

    def start_deal(self, seed, seat):
        self.agent.start_deal(seed, seat)

    def act_record(self, record, action_mask):
        return self.agent.act_record(record, action_mask)


def _net_agent(game, seed: int) -> LearntAgent:
    """A learnt agent on a random net with margin 0: the net decides every searched choice
    (the shipped weights keep the rule agent's action in most phases)."""
    net = ValueNet.for_game(game, hidden=(24, 16), seed=seed)
    return LearntAgent(game, weights=net, margin=0.0, seed=seed)


def _rows(game, agents, items: int, slots):
    sim = SPECS[game.name]
    play = simulate_python_whole_matches if sim.unit == "match" else simulate_python
    params = params_matrix(game, game.n_seats)
    return play(game, sim, np.uint64(11), 3, items, agents, False, params, slots=slots)


def _assert_rows_equal(a: np.ndarray, b: np.ndarray) -> None:
    assert len(a) == len(b) and len(a) > 0
    for name in a.dtype.names:
        assert np.array_equal(a[name], b[name]), name


@pytest.mark.parametrize(("name", "opts"), CONFIGS)
def test_lockstep_rows_equal_one_decision_at_a_time(name, opts):
    """Learnt seats decided in lockstep (every deal at once, or 3 slots) give the rows of the
    same agents deciding one deal at a time through act_record, rule seats mixed in."""
    game = make_game(name, opts)
    items = 3 if game.run_unit == "matches" else 12
    seats = ["rule" if p == 1 else None for p in range(game.n_seats)]

    def agents(wrap):
        return [s or wrap(_net_agent(game, p)) for p, s in enumerate(seats)]

    alone = _rows(game, agents(OneAtATime), items, None)
    assert not any(batched(a) for a in agents(OneAtATime) if not isinstance(a, str))
    for slots in (None, 3):
        _assert_rows_equal(alone, _rows(game, agents(lambda a: a), items, slots))


def test_solowhist_matches_in_lockstep_equal_one_at_a_time():
    """BGA dealing (matches of num_deals rows, passed-out deals counted) in lockstep."""
    runs = [
        trickgym.simulate(
            "solowhist",
            deals=16,
            dealing="match",
            seed=2,
            threads=1,
            agents=[wrap(_net_agent(trickgym.game("solowhist"), 1)), "rule", "rule", "rule"],
        )
        for wrap in (OneAtATime, lambda a: a)
    ]
    assert runs[0].equals(runs[1]) and len(runs[0]) == 16


@pytest.mark.parametrize(("name", "opts"), CONFIGS)
def test_packed_forward_matches_the_net_and_ignores_the_batch(name, opts):
    """The compiled forward pass gives the numpy net's values (to float32 rounding), and a
    row's values do not depend on the rows valued beside it (bit for bit)."""
    game = make_game(name, opts)
    net = ValueNet.for_game(game, hidden=(40, 24), seed=3)
    packed = PackedNet(net)
    rng = np.random.default_rng(1)
    x = (rng.random((21, packed.n_features)) < 0.1).astype(np.float32)
    x[:, :5] *= rng.random((21, 5)).astype(np.float32)  # scaled columns too
    rule = rng.integers(0, game.n_actions, 21)
    values = packed.values(x, rule)
    np.testing.assert_allclose(values, net.values(x, rule), rtol=1e-4, atol=1e-5)
    for i in (0, 9, 20):
        assert np.array_equal(packed.values(x[i : i + 1], rule[i : i + 1])[0], values[i])
    assert np.array_equal(packed.values(x[::-1], rule[::-1])[::-1], values)


def test_subnormal_weights_are_flushed_without_changing_values():
    game = trickgym.game("solowhist")
    net = ValueNet.for_game(game, hidden=(16,), seed=0)
    tiny = np.finfo(np.float32).tiny
    net.weights[1][:4] = tiny / 8  # subnormal
    packed = PackedNet(net)
    assert not np.any((packed.layers[1] != 0) & (np.abs(packed.layers[1]) < tiny))
    x = np.ones((2, packed.n_features), np.float32)
    np.testing.assert_allclose(packed.values(x, [0, 1]), net.values(x, [0, 1]), rtol=1e-5)


def test_vector_env_batched_opponents_equal_one_at_a_time():
    """The vector env asks a batched opponent once per round for every sub-env; episodes
    are those of the same agent deciding one sub-env at a time."""
    from trickgym.envs.vector import SoloWhistVectorEnv

    game = trickgym.game("solowhist")
    envs = [
        SoloWhistVectorEnv(
            4, opponents=[wrap(_net_agent(game, 5)), "rule", wrap(_net_agent(game, 6))]
        )
        for wrap in (OneAtATime, lambda a: a)
    ]
    rng = np.random.default_rng(0)
    obs = [env.reset(seed=8)[0] for env in envs]
    for _ in range(60):
        for key in obs[0]:
            assert np.array_equal(obs[0][key], obs[1][key]), key
        masks = envs[0].action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        steps = [env.step(actions) for env in envs]
        obs = [s[0] for s in steps]
        assert np.array_equal(steps[0][1], steps[1][1])
    assert not envs[1]._row_agents  # no per-sub-env copies of a batched agent


def test_policy_agent_decides_batches():
    """A policy agent in lockstep plays the rows it plays one decision at a time."""
    game = trickgym.game("troggu", players=4)
    plan_size = PolicyAgent(game, lambda f, m: np.zeros(len(f), np.int64)).plan.size
    rng = np.random.default_rng(2)
    weights = {
        "w0": rng.standard_normal((plan_size, 16)).astype(np.float32),
        "b0": np.zeros(16, np.float32),
        "w1": rng.standard_normal((16, game.n_actions)).astype(np.float32),
        "b1": np.zeros(game.n_actions, np.float32),
    }
    agent = PolicyAgent(game, weights)
    assert batched(agent)
    alone = _rows(game, [OneAtATime(agent), "rule", "rule", OneAtATime(agent)], 10, None)
    _assert_rows_equal(alone, _rows(game, [agent, "rule", "rule", agent], 10, None))


def test_batched_agent_choosing_illegal_action_is_named():
    game = trickgym.game("solowhist")

    class Wrong:
        def deal_rng(self, seeds, seat):
            return np.zeros(len(seeds), np.uint64)

        def start_deal(self, seed, seat):
            pass

        def act_rows(self, states, rows, seats, rngs):
            return np.full(len(rows), 70, dtype=np.int64)

        def act_record(self, record, mask):
            return 70

    with pytest.raises(ValueError, match=r"illegal action 70; legal: \["):
        _rows(game, [Wrong(), "rule", "rule", "rule"], 4, None)


def test_dmc_agent_decides_batches():
    """``dmc`` (bids by a value net, cards by a per-card scorer) in lockstep plays the rows
    it plays one decision at a time, and departs from the rule agent's cards."""
    from trickgym.agents import make_agent

    game = trickgym.game("solowhist")
    agent = make_agent("dmc", game)
    assert batched(agent)
    alone = _rows(game, [OneAtATime(agent), "rule", OneAtATime(agent), "rule"], 30, None)
    together = _rows(game, [agent, "rule", agent, "rule"], 30, None)
    _assert_rows_equal(alone, together)
    rule = _rows(game, ["rule"] * 4, 30, None)
    assert not np.array_equal(
        rule["declarer_tricks"], together["declarer_tricks"]
    ) or not np.array_equal(rule["payoffs"], together["payoffs"])
