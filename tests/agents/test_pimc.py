"""PIMC and ISMCTS agents: information-set safety, reproducibility, use from loops and envs.

Budgets are tiny: these tests check behaviour, not strength (strength is
measured by benchmarks/bench_mc.py).
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from mc_helpers import CONFIGS, make_game, reach, record_of, searched, twin_states

import trickgym
from trickgym.agents import python_action
from trickgym.agents.mc import ISMCTSAgent, PIMCAgent, make_mc_agent
from trickgym.agents.mc.pimc import MAX_ACTIONS, pimc_values
from trickgym.engine.loops import act
from trickgym.engine.params import params_matrix

AGENTS = {
    "pimc": lambda game, seed: PIMCAgent(game, samples=6, seed=seed),
    "ismcts": lambda game, seed: ISMCTSAgent(game, iterations=40, seed=seed),
}


@pytest.mark.parametrize("kind", list(AGENTS))
@pytest.mark.parametrize(("name", "opts"), CONFIGS)
def test_decision_ignores_hidden_cards(kind, name, opts):
    game = make_game(name, opts)
    state, twin, seat, memory = twin_states(game, 3)
    assert np.array_equal(record_of(game, state.array, seat), record_of(game, twin, seat))
    decisions = []
    for array in (state.array, twin):
        agent = AGENTS[kind](game, 11)
        agent.start_deal(77, seat)
        agent.memory[:] = memory
        decisions.append(python_action(agent, game, array, 0, seat))
    assert decisions[0] == decisions[1]


def tight(agent):
    """``agent`` with node budgets small enough that cold solves run out of them: where a
    table warm from earlier searches would settle them and change the decision."""
    from trickgym.solvers.points_search import META_NODE_LIMIT

    agent.node_limit = 20_000  # Solo Whist's double-dummy solves (PIMC and ISMCTS leaves)
    if isinstance(agent, PIMCAgent) and agent.game.solver == "points":
        agent._points_table()[1][META_NODE_LIMIT] = 3_000
    return agent


def decisions_in_a_run(game, agent, want):
    """At least ``want`` searched decisions of ``agent``, asked as a run asks them: one seat
    per deal, every decision of that seat in order (rule agents make the moves), whole deals
    so that the endgames' solves are among them.

    Each is ``(deal seed, seat, state array, seat's memory before, action)``.
    """
    params = params_matrix(game, game.n_seats)
    rng = np.array([1], dtype=np.uint64)
    scratch = np.empty(1, dtype=game.obs_dtype)
    out = []
    for deal in range(40):
        state = game.deal(seed=deal)
        seat, seed = deal % game.n_seats, 1000 + deal
        agent.start_deal(seed, seat)
        while not state.is_over:
            p = state.current_player
            if p == seat:  # every decision of the seat, as a run asks it (memory builds up)
                memory = agent.memory.copy()
                action = python_action(agent, game, state.array, 0, seat)
                if searched(game, state) and state.legal_action_mask().sum() > 1:
                    out.append((seed, seat, state.array.copy(), memory, action))
            state.apply(int(act(1, state.array[0], p, rng, scratch, params, None)))
        if len(out) >= want:
            return out
    raise AssertionError(f"fewer than {want} searched decisions")


def replayed(agent, game, decision):
    """The action ``agent`` takes when asked one decision of a run alone."""
    seed, seat, array, memory, _ = decision
    agent.start_deal(seed, seat)
    agent.memory[:] = memory  # Pinochle: who won the earlier tricks, as the seat saw it
    return python_action(agent, game, array, 0, seat)


@pytest.mark.parametrize("kind", list(AGENTS))
@pytest.mark.parametrize(("name", "opts"), CONFIGS)
def test_decision_depends_only_on_observation_and_seed(kind, name, opts):
    """A decision replayed alone, on the object that made the run's decisions (after later
    ones) and on a fresh one, is the run's: nothing searched before changes it."""
    game = make_game(name, opts)
    agent = tight(AGENTS[kind](game, 11))
    run = decisions_in_a_run(game, agent, 8)
    actions = [d[-1] for d in run]
    assert [replayed(agent, game, d) for d in run[::-1]] == actions[::-1]
    assert [replayed(tight(AGENTS[kind](game, 11)), game, d) for d in run] == actions


def test_rule_choices_from_python_reuse_the_loops_rule_kernel():
    """PIMC's rule decisions (unsearched phases, ties) reach the rule kernel with the
    loops' types, a record's nested ``values`` array: a plain array from Python compiled
    the kernel a second time (8-13 s a game)."""
    from numba.core import types

    game = make_game("phat", {})
    decisions_in_a_run(game, tight(AGENTS["pimc"](game, 11)), 1)
    # Signatures the kernel was called with from Python or compiled for (kernels loaded
    # from the cache that inline or call it add none).
    assert all(isinstance(sig[1], types.NestedArray) for sig in game.rule_kernel.signatures)


@pytest.mark.parametrize(
    ("kind", "name", "opts"),
    [
        ("pimc", "solowhist", {}),
        ("ismcts", "solowhist", {}),
        ("ismcts", "troggu", {"players": 4}),
        ("pimc", "phat", {}),
        ("ismcts", "pinochle", {}),
    ],
)
def test_tournament_runs_and_is_reproducible(kind, name, opts):
    game = make_game(name, opts)
    reports = [
        trickgym.tournament(name, [AGENTS[kind](game, 5), "rule"], deals=1, seed=4, **opts)
        for _ in range(2)
    ]
    cols = [c for c in reports[0].rows.columns if not c.startswith("agent_")]
    a, b = (r.rows[cols].reset_index(drop=True) for r in reports)
    assert a.equals(b)
    assert len(a) > 0


def test_seed_changes_the_sampled_decisions():
    game = trickgym.game("solowhist")
    state, _ = reach(game, 1, 20)
    seat = state.current_player
    rec = record_of(game, state.array, seat)
    mask = state.legal_action_mask().astype(np.int8)
    values = []
    for seed in (1, 2):
        agent = PIMCAgent(game, samples=3, seed=seed)
        agent.start_deal(0, seat)
        v = np.zeros(MAX_ACTIONS)
        c = np.zeros(MAX_ACTIONS, dtype=np.int64)
        pimc_values(rec, agent.memory, agent.template, agent.params, agent.rng, 3, 1, v, c)
        values.append(v)
        assert set(np.flatnonzero(c)) == set(np.flatnonzero(mask))
    assert not np.array_equal(values[0], values[1])


def test_env_accepts_mc_opponents():
    game = trickgym.game("phat")
    opponents = [PIMCAgent(game, samples=2, seed=1), "rule", ISMCTSAgent(game, iterations=9)]
    env = gymnasium.make("trickgym/Phat-v0", seat=0, opponents=opponents)
    env.reset(seed=3)
    done = False
    while not done:
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        done = terminated or truncated


def test_bad_arguments_raise_clear_errors():
    game = trickgym.game("solowhist")
    with pytest.raises(ValueError, match="samples"):
        PIMCAgent(game, samples=0)
    with pytest.raises(ValueError, match="iterations"):
        ISMCTSAgent(game, iterations=-1)
    with pytest.raises(ValueError, match="unknown Monte Carlo agent"):
        make_mc_agent("mcts", game)
    with pytest.raises(ValueError, match="trickgym Game"):
        PIMCAgent("solowhist")
    assert isinstance(make_mc_agent("ismcts", "phat", iterations=5), ISMCTSAgent)
    with pytest.raises(ValueError, match="observation record"):
        PIMCAgent(game).act({}, np.ones(66, np.int8))


def test_solowhist_dd_values_are_the_solvers_on_the_sampled_deal():
    """The DD glue: one sample's values equal the solver's card values on that deal, settled."""
    from trickgym.agents.mc.pimc_dd import pimc_dd_values
    from trickgym.agents.mc.sample_solowhist import determinize
    from trickgym.games.solowhist.rules import deal_payoffs
    from trickgym.solvers.dd import card_values
    from trickgym.solvers.dd_search import new_table

    game = trickgym.game("solowhist")
    checked = 0
    for seed in range(60):
        state, memory = reach(game, seed, 40 + seed % 8)
        r = state.record
        if state.is_over or r["phase"] != 4:
            continue
        seat = state.current_player
        rec = record_of(game, state.array, seat)
        values = np.zeros(MAX_ACTIONS)
        counts = np.zeros(MAX_ACTIONS, dtype=np.int64)
        tpl = game.new_match(0)
        params = PIMCAgent(game).params
        rng = np.array([seed], np.uint64)
        # exact_cards=13: exact counts, so the values are the exact solver's, settled.
        stats = np.zeros(2, dtype=np.int64)
        pimc_dd_values(
            rec, memory[seat], tpl, params, rng, 1, new_table(1), 13, (values, counts, stats)
        )
        sampled = np.zeros(1, dtype=game.state_dtype)
        determinize(rec, memory[seat], tpl, sampled, np.array([seed], np.uint64))
        s = sampled[0]
        declarers = [p for p in range(4) if (int(s["declarers"]) >> p) & 1]
        trick = [int(c) for c in s["trick_cards"][: int(s["trick_n"])]]
        expected = card_values(
            [int(h) for h in s["hands"]],
            "NT" if s["trumps"] < 0 else "SHDC"[int(s["trumps"])],
            int(s["leader"]),
            declarers,
            trick,
            misere=int(s["contract"]) in (3, 6),
            ids=True,
        )
        won = sum(int(s["tricks_won"][p]) for p in declarers)
        pay = np.zeros(4, dtype=np.int32)
        assert set(np.flatnonzero(counts)) == set(expected)
        for card, tricks in expected.items():
            deal_payoffs(int(s["contract"]), int(s["declarers"]), won + tricks, int(s["unit"]), pay)
            assert values[card] == pay[seat]
        checked += 1
        if checked == 5:
            return
    assert checked > 0
