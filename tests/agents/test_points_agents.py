"""Agents that use the point-trick solver: the oracle's card play and PIMC's solved endings.

PIMC acts on its seat's information set: permuting the hidden cards of an
ending it solves leaves its decision unchanged. The oracle sees every hand
and plays a card whose solved payoff to its seat is best.
"""

from __future__ import annotations

import numpy as np
import pytest
from mc_helpers import determinizer, reach, record_of

import trickgym
from trickgym.agents import python_action
from trickgym.agents.mc import PIMCAgent
from trickgym.agents.positions import rule_position
from trickgym.agents.solved_points import (
    ORACLE_ROLLOUT_CARDS,
    ORACLE_SOLVE_CARDS,
    PIMC_SOLVE_CARDS,
    solve_cards,
)
from trickgym.engine.kinds import ORACLE
from trickgym.engine.loops import act
from trickgym.engine.params import params_matrix
from trickgym.games.troggu.constants import HAND_SIZE as TROGGU_HAND_SIZE
from trickgym.solvers import card_values

CONFIGS = [("phat", {}), ("pinochle", {}), ("troggu", {"players": 4})]
PLAY = {"phat": 0, "pinochle": 5, "troggu": 3}


def _solved_twins(game, seed):
    """A state PIMC solves (in the play, few cards in hand) and one with other hidden cards."""
    line = solve_cards(PIMC_SOLVE_CARDS, game.name, game.n_seats)
    for k in range(60):
        for steps in range(0, 200, 2):
            state, memory = reach(game, seed + k, steps)
            rec = state.record
            if state.is_over or int(rec["phase"]) != PLAY[game.name]:
                continue
            if bin(int(rec["hands"][int(rec["to_move"])])).count("1") <= line:
                break
        else:
            continue
        if state.is_over or int(state.record["phase"]) != PLAY[game.name]:
            continue
        if game.name == "troggu" and int(state.record["contract"]) == 1:
            continue
        seat = state.current_player
        if len(state.legal_actions()) < 2:
            continue
        rec = record_of(game, state.array, seat)
        twin = np.zeros(1, dtype=game.state_dtype)
        rng = np.array([seed + k + 1], dtype=np.uint64)
        for _ in range(20):
            determinizer(game.name)(rec, memory[seat], game.new_match(0), twin, rng)
            n = game.n_seats
            if not np.array_equal(twin[0]["hands"][:n], state.array[0]["hands"][:n]):
                return state, twin, seat, memory[seat]
    raise AssertionError("no solved ending with hidden cards to permute")


# One game: the solved path is written once over the hooks (and each game's sampler is
# checked for its information set in test_pimc); compiling it costs about 10 s a game.
@pytest.mark.parametrize(("name", "opts"), [("troggu", {"players": 4})])
def test_solved_pimc_ignores_hidden_cards(name, opts):
    game = trickgym.game(name, **opts)
    state, twin, seat, memory = _solved_twins(game, 5)
    assert np.array_equal(record_of(game, state.array, seat), record_of(game, twin, seat))
    decisions = []
    for array in (state.array, twin):
        agent = PIMCAgent(game, samples=4, seed=3)
        assert agent._solved(record_of(game, array, seat)[0])
        agent.start_deal(91, seat)
        agent.memory[:] = memory
        decisions.append(python_action(agent, game, array, 0, seat))
    assert decisions[0] == decisions[1]


@pytest.mark.parametrize(("name", "opts"), CONFIGS)
def test_oracle_plays_a_payoff_best_card(name, opts):
    game = trickgym.game(name, **opts)
    line = solve_cards(ORACLE_SOLVE_CARDS, name, game.n_seats)
    params = params_matrix(name, game.n_seats)
    checked = 0
    for seed in range(40):
        state = rule_position(game, seed, min(line, 4))
        if state is None or len(state.legal_actions()) < 2:
            continue
        seat = state.current_player
        values = card_values(state, ids=True, question="payoff", exact_payoff=True)
        best = max(values.values())
        obs = np.empty(1, dtype=game.obs_dtype)
        rng = np.array([seed], dtype=np.uint64)
        # Through the built-in agents' act, as the simulators' loops reach the oracle.
        card = int(act(ORACLE, state.array[0], seat, rng, obs, params, True))
        assert values[card] == best
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_solve_cards_is_validated():
    with pytest.raises(ValueError, match="solve_cards"):
        PIMCAgent(trickgym.game("phat"), solve_cards=-1)
    with pytest.raises(ValueError, match="dd_cards"):
        PIMCAgent(trickgym.game("solowhist"), solve_cards=3)
    assert PIMCAgent(trickgym.game("troggu", players=5)).solve_cards == 6
    assert PIMCAgent(trickgym.game("phat"), solve_cards=0).solve_cards == 0


def test_solve_lines_are_consistent():
    """At every table the oracle solves from at least PIMC's line (one solve a decision, not
    one per card and sample), and its rollouts, many a decision, from at most its own."""
    tables = {"phat": [4], "pinochle": [4], "troggu": list(TROGGU_HAND_SIZE)}
    for name, sizes in tables.items():
        for n in sizes:
            pimc, oracle, rollout = (
                solve_cards(table, name, n)
                for table in (PIMC_SOLVE_CARDS, ORACLE_SOLVE_CARDS, ORACLE_ROLLOUT_CARDS)
            )
            assert 0 < pimc <= oracle, (name, n)
            assert 0 < rollout <= oracle, (name, n)


def test_search_options_come_as_one_record_or_as_keywords():
    """PIMC's solver options: a record of the game's kind, or its keywords, never both."""
    from trickgym.agents.mc.agent import PointSearch, SoloWhistSearch

    phat = trickgym.game("phat")
    assert PIMCAgent(phat, solve_cards=3).solve_cards == 3
    assert PIMCAgent(phat, search=PointSearch(solve_cards=3)).solve_cards == 3
    with pytest.raises(ValueError, match="solve_cards given both in search= and as a keyword"):
        PIMCAgent(phat, search=PointSearch(), solve_cards=3)
    with pytest.raises(ValueError, match="search must be a PointSearch record for phat"):
        PIMCAgent(phat, search=SoloWhistSearch())
    with pytest.raises(ValueError, match="dd_cards is an option of SoloWhistSearch"):
        PIMCAgent(phat, dd_cards=5)
