"""PIMC by full-deal solves: fallbacks counted, solved bids in the point games, and the
bids/cards split (``bids="rule"``, ``cards="rule"``).

Tiny budgets and one point-trick game (Troggu 4): the solved paths are written once
over the protocol hooks, and each compiles in about 10 s a game.
"""

from __future__ import annotations

import numpy as np
import pytest
from mc_helpers import determinizer, reach, record_of

import trickgym
from trickgym.agents import python_action
from trickgym.agents.mc import PIMCAgent
from trickgym.engine.loops import rule_choice


def _state(game, seed, phase, max_cards=99, min_legal=2):
    """A state of deal ``seed`` or a later one in ``phase`` whose mover holds at most
    ``max_cards`` cards and has a choice (``reach`` by rule agents)."""
    for k in range(80):
        for steps in range(0, 120):
            state, memory = reach(game, seed + k, steps)
            if state.is_over:
                break
            rec = state.record
            if int(rec["phase"]) != phase or len(state.legal_actions()) < min_legal:
                continue
            if bin(int(rec["hands"][int(rec["to_move"])])).count("1") <= max_cards:
                return state, memory
    raise AssertionError(f"no state in phase {phase} with at most {max_cards} cards")


def _twin(game, state, memory, seed):
    """A state with the same observation for the mover and other hidden cards."""
    seat = state.current_player
    rec = record_of(game, state.array, seat)
    twin = np.zeros(1, dtype=game.state_dtype)
    rng = np.array([seed], dtype=np.uint64)
    for _ in range(40):
        determinizer(game.name)(rec, memory[seat], game.new_match(0), twin, rng)
        n = game.n_seats
        if not np.array_equal(twin[0]["hands"][:n], state.array[0]["hands"][:n]):
            assert np.array_equal(rec, record_of(game, twin, seat))
            return twin
    raise AssertionError("no other layout of the hidden cards")


def _decide(game, agent, array, seat, memory):
    agent.start_deal(17, seat)
    agent.memory[:] = memory[seat]
    return python_action(agent, game, array, 0, seat)


@pytest.mark.parametrize(
    ("name", "opts", "phase", "cards"),
    [("solowhist", {}, 4, 8), ("troggu", {"players": 4}, 3, 4)],
)
def test_worlds_past_the_budget_are_played_out_and_counted(name, opts, phase, cards):
    """A solve past its node budget is valued by playouts (every card still valued), counted
    in ``fallbacks``; with the budget, every world is solved and none falls back."""
    game = trickgym.game(name, **opts)
    state, memory = _state(game, 3, phase, max_cards=cards)
    seat = state.current_player
    rec = record_of(game, state.array, seat)
    legal = np.flatnonzero(state.legal_action_mask())
    line = {"dd_cards": 13} if name == "solowhist" else {"solve_cards": cards}
    starved = PIMCAgent(game, samples=3, seed=2, node_limit=1, **line)
    starved.start_deal(5, seat)
    starved.memory[:] = memory[seat]
    assert starved._solved(rec[0])
    values = starved.action_values(rec, legal)
    assert np.isfinite(values).all()  # valued by playouts, not left out
    assert (starved.solves, starved.fallbacks) == (0, 3)
    fed = PIMCAgent(game, samples=3, seed=2, **line)
    fed.start_deal(5, seat)
    fed.memory[:] = memory[seat]
    fed.action_values(rec, legal)
    assert (fed.solves, fed.fallbacks) == (3, 0)


def test_split_options_take_the_rule_agents_bids_or_cards():
    """``bids="rule"``: every call is the rule agent's; ``cards="rule"``: every card is. The
    other half is searched (PIMC's own calls and cards differ from the rule agent's)."""
    game = trickgym.game("solowhist")
    differ = {"bids": 0, "cards": 0}
    for seed in range(12):
        for phase, half in ((0, "bids"), (4, "cards")):
            state, memory = _state(game, 40 * seed, phase)
            seat = state.current_player
            rec = record_of(game, state.array, seat)
            rule = PIMCAgent(game, samples=4, seed=1, **{half: "rule"})
            other = "cards" if half == "bids" else "bids"
            own = PIMCAgent(game, samples=4, seed=1, **{other: "rule"})
            want = rule_choice(rec[0], rule.params, rule.rng)
            assert _decide(game, rule, state.array, seat, memory) == want
            differ[half] += _decide(game, own, state.array, seat, memory) != want
    assert differ["bids"] > 0 and differ["cards"] > 0


def test_bad_split_and_budget_options_raise():
    game = trickgym.game("troggu", players=4)
    with pytest.raises(ValueError, match="cards"):
        PIMCAgent(game, cards="oracle")
    with pytest.raises(ValueError, match="calibrated"):
        PIMCAgent(game, bids="calibrated")
    with pytest.raises(ValueError, match="node_limit"):
        PIMCAgent(game, node_limit=0)


def test_point_game_solved_bids_ignore_hidden_cards_and_are_reproducible():
    """Troggu's calls valued by solved worlds (``bids="dd"``): the same call for two layouts
    of the hidden cards and for the same seed twice, and the worlds were solved."""
    game = trickgym.game("troggu", players=4)
    checked = 0
    for seed in (2, 30, 61):
        state, memory = _state(game, seed, 0)
        seat = state.current_player
        twin = _twin(game, state, memory, seed + 7)
        decisions = []
        for array in (state.array, twin, state.array):
            agent = PIMCAgent(game, samples=3, seed=5, bids="dd", solve_cards=4)
            decisions.append(_decide(game, agent, array, seat, memory))
            assert agent.solves > 0
        assert decisions[0] == decisions[1] == decisions[2]
        checked += 1
    assert checked == 3


def test_solowhist_calls_past_the_budget_are_played_out_and_counted():
    """``bids="dd"``: a call whose contract is not solved within the budget is valued by a
    playout (every legal call still valued) and counted, never left out."""
    game = trickgym.game("solowhist")
    state, memory = _state(game, 9, 0)
    seat = state.current_player
    rec = record_of(game, state.array, seat)
    legal = np.flatnonzero(state.legal_action_mask())
    agent = PIMCAgent(game, samples=2, seed=2, bids="dd", node_limit=1)
    agent.start_deal(5, seat)
    agent.memory[:] = memory[seat]
    assert np.isfinite(agent.action_values(rec, legal)).all()
    assert agent.fallbacks > 0


def test_split_agents_are_registered_by_name():
    """``pimc_bids`` (cards by the rule agent) and ``pimc_cards`` (bids by the rule agent) are
    names that tournaments and the CLI take."""
    from trickgym.agents.registry import make_agent

    bids_only = make_agent("pimc_bids", "phat", samples=2)
    cards_only = make_agent("pimc_cards", "phat")
    assert (bids_only.bids, bids_only.cards, bids_only.samples) == ("playouts", "rule", 2)
    assert (cards_only.bids, cards_only.cards) == ("rule", "pimc")
