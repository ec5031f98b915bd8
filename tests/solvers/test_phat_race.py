"""Phat's race utility (issue 41): the win-probability table and ``phat_utility``."""

from __future__ import annotations

import numpy as np
import pytest

import trickgym
from trickgym.agents.positions import rule_position
from trickgym.solvers.phat_race import (
    BONUS,
    CARRY_STEPS,
    RACE_LOST,
    RACE_WON,
    V_MAX,
    V_MIN,
    WIN,
    deal_start,
    phat_utility,
    phat_utility_table,
    win_probability,
)


def _state(seed=3, cards=6):
    return rule_position(trickgym.game("phat"), seed, cards)


def _with_start(state, a, b, carry=0):
    """``state`` with the deal's start scores ``a`` (the pitcher's team) and ``b``."""
    array = state.array.copy()
    rec = array[0]
    s = int(rec["pitcher"]) % 2
    rec["scores"][s] = a + int(rec["phat"][s])
    rec["scores"][1 - s] = b + int(rec["phat"][1 - s])
    rec["carry"] = carry
    rec["muck"][:] = 0  # the bonus still open
    return array


def test_table_loads_and_is_a_probability():
    assert WIN.shape == (181, 181, CARRY_STEPS)
    assert np.all((WIN >= 0) & (WIN <= 1))
    assert BONUS.shape == (81, 3)
    np.testing.assert_allclose(BONUS.sum(axis=1), 1.0)
    # Near-even at the start; a team one point short and pitching nearly always wins.
    assert 0.45 < WIN[0, 0, 0] < 0.55
    assert WIN[180, 100, 0] > 0.95 and WIN[100, 180, 0] < 0.3


def test_table_is_monotone_in_both_scores():
    """More own points never lower the chance; more of the other's never raise it."""
    assert np.all(np.diff(WIN, axis=0) >= 0)
    assert np.all(np.diff(WIN, axis=1) <= 0)
    # The bonus is no less likely to the team with more phat.
    assert np.all(np.diff(BONUS[:, 0]) >= -1e-12) and np.all(np.diff(BONUS[:, 1]) <= 1e-12)


def test_win_probability_ends_and_other_targets():
    assert win_probability(181, 0, 0, 181) == 1.0 and win_probability(0, 181, 0, 181) == 0.0
    assert win_probability(150, 140, 8, 181) == WIN[150, 140, 1]
    assert win_probability(150, 140, 800, 181) == WIN[150, 140, CARRY_STEPS - 1]
    assert win_probability(250, 240, 0, 281) == WIN[150, 140, 0]  # scores shifted


def test_race_values_are_won_and_lost_and_the_other_team_mirrors():
    array = _with_start(_state(), 150, 160, 8)
    rec = array[0]
    s = int(rec["pitcher"]) % 2
    for v in (RACE_WON, RACE_WON + 40, V_MAX):
        assert phat_utility(rec, s, v) == 1.0 and phat_utility(rec, s + 2, v) == 1.0
        assert phat_utility(rec, 1 - s, v) == 0.0
    for v in (RACE_LOST, RACE_LOST - 30, V_MIN):
        assert phat_utility(rec, s, v) == 0.0 and phat_utility(rec, 3 - s, v) == 1.0
    for v in range(V_MIN, V_MAX + 1):
        assert phat_utility(rec, s, v) + phat_utility(rec, 1 - s, v) == pytest.approx(1.0)


def test_utility_is_non_decreasing_in_the_value():
    """The pitcher's team's utility keeps the solver's order at every score and carry."""
    state = _state()
    seat = int(state.record["pitcher"])
    for carry in (0, 8, 16, 24):
        for a in range(0, 181, 6):
            for b in range(0, 181, 6):
                u = phat_utility_table(_with_start(state, a, b, carry), seat)
                assert np.all(np.diff(u) >= -1e-12), (a, b, carry)
                assert u[RACE_WON - V_MIN] == 1.0 and u[RACE_LOST - V_MIN] == 0.0


def test_phat_values_read_the_table_after_the_deal():
    """``v`` phat: the start scores plus the phat and the bonus, then the other team pitches."""
    state = _state()
    array = _with_start(state, 100, 90, 0)
    rec = array[0]
    s = int(rec["pitcher"]) % 2
    assert deal_start(rec) == (100, 90, 0)
    rec["muck"][s] = 41  # the bonus is the pitcher's team's for sure
    expect = 1.0 - WIN[90 + 80 - 50, 100 + 50 + 8, 0]
    assert phat_utility(rec, s, 50) == pytest.approx(expect)
    rec["muck"][s], rec["muck"][1 - s] = 0, 41
    assert phat_utility(rec, s, 50) == pytest.approx(1.0 - WIN[90 + 30 + 8, 150, 0])


def test_deal_start_of_finished_deals():
    """The start scores and carry come back from a deal played out (bonus, tie or a win)."""
    game = trickgym.game("phat")
    ends = set()
    for seed in range(40):
        for a, b in ((120, 150), (60, 40)):
            array = game.deal(seed=seed).array
            rec = array[0]
            s = int(rec["pitcher"]) % 2
            rec["scores"][s], rec["scores"][1 - s], rec["carry"] = a, b, 8
            while int(array[0]["phase"]) == 0:  # the highest legal card, every seat
                cards, _ = game.kernels.legal_sets_at(array, 0)
                game.kernels.apply_action_at(array, 0, int(cards).bit_length() - 1)
            assert deal_start(array[0]) == (a, b, 8)
            rec = array[0]
            ends.add("won" if rec["game_over"] else ("tie" if rec["bonus_to"] < 0 else "bonus"))
    assert {"won", "bonus"} <= ends
