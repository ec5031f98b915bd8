"""The fitted bidder: rule presets, per-competitor rule options, the fitting search."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

import trickgym
from trickgym.agents.rule.pinochle import RuleOptions as PinochleOptions
from trickgym.agents.rule.presets import fitted_games, preset_options, resolve_presets
from trickgym.agents.rule.solowhist import RuleOptions
from trickgym.training.fit_bidder import bid_fields, fit_bidder, margin_over_rule


def test_fitted_bidders_ship_for_solowhist_and_pinochle():
    assert {"solowhist", "pinochle"} <= set(fitted_games())
    assert isinstance(preset_options("solowhist", "fitted"), RuleOptions)
    assert isinstance(preset_options("pinochle", "fitted"), PinochleOptions)


def test_fitted_seats_play_the_rule_agent_with_the_fitted_options():
    fitted = preset_options("solowhist", "fitted")
    assert fitted != RuleOptions()  # otherwise this test could not tell the two apart
    by_preset = trickgym.simulate("solowhist", deals=300, seed=5, agents=["fitted", "rule"] * 2)
    by_options = trickgym.simulate(
        "solowhist", deals=300, seed=5, agents="rule", rule_options=[fitted, None] * 2
    )
    plain = trickgym.simulate("solowhist", deals=300, seed=5, agents="rule")
    pd.testing.assert_frame_equal(by_preset, by_options)
    assert not by_preset["auction"].equals(plain["auction"])


def test_margin_of_the_default_over_itself_is_zero_on_every_deal():
    margin = margin_over_rule("solowhist", RuleOptions(), 500, 3)
    assert len(margin) == 500
    assert (margin == 0).all()


@pytest.mark.parametrize("game", ["solowhist", "pinochle"])
def test_the_preset_and_per_competitor_options_give_the_same_tournament(game):
    report = trickgym.tournament(game, ["fitted", "rule"], 400, 11)
    margin = margin_over_rule(game, preset_options(game, "fitted"), 400, 11)
    assert margin.mean() == pytest.approx(report.difference["mean"], abs=1e-12)
    paired = report.per_deal["fitted"] - report.per_deal["rule"]
    np.testing.assert_allclose(paired.to_numpy(), margin.to_numpy())


def test_fit_recovers_from_a_bidder_that_never_bids_solo():
    start = RuleOptions(solo_min=9.0)  # no hand reaches it: Solo is never bid
    fit = fit_bidder("solowhist", 4000, 2, rounds=2, start=start, fields={"solo_min": 2.0},
                     progress=False)  # fmt: skip
    assert fit.options.solo_min < 9.0
    assert fit.history["accepted"].any()
    accepted = fit.history[fit.history["accepted"]]
    assert (accepted["gain"] > 2 * accepted["gain_se"]).all()
    # the search only ever moves to a better margin on its deals
    assert fit.margin > margin_over_rule("solowhist", start, 4000, 2).mean()
    again = fit_bidder("solowhist", 4000, 2, rounds=2, start=start, fields={"solo_min": 2.0},
                       progress=False)  # fmt: skip
    assert again.options == fit.options
    pd.testing.assert_frame_equal(again.history, fit.history)


def test_fit_refuses_bad_settings():
    with pytest.raises(ValueError, match="unknown RuleOptions fields \\['solo_max'\\]"):
        fit_bidder("solowhist", 10, fields={"solo_max": 1.0}, progress=False)
    with pytest.raises(ValueError, match="step of solo_min must be a positive number"):
        fit_bidder("solowhist", 10, fields={"solo_min": 0}, progress=False)
    with pytest.raises(ValueError, match="start must be RuleOptions"):
        fit_bidder("solowhist", 10, start=PinochleOptions(), progress=False)
    with pytest.raises(ValueError, match="deals must be a whole number"):
        fit_bidder("solowhist", 0, progress=False)
    with pytest.raises(ValueError, match="no bidding fields to fit for 'troggu'"):
        bid_fields("troggu")
    assert "kitty_bonus" not in bid_fields("pinochle", mode="exchange")


def test_presets_refuse_a_game_without_a_fitted_bidder():
    with pytest.raises(ValueError, match=r"no fitted bidder for troggu .*fit_bidder\.py"):
        trickgym.simulate("troggu", deals=5, agents="fitted", players=5)
    with pytest.raises(ValueError, match="unknown rule preset 'tuned'"):
        preset_options("solowhist", "tuned")


def test_rule_options_by_competitor_must_name_a_rule_competitor():
    with pytest.raises(ValueError, match="rule_options given for \\['random'\\]"):
        trickgym.tournament(
            "solowhist", ["rule", "random"], 5, rule_options={"random": RuleOptions()}
        )


def test_resolve_presets_leaves_other_seats_alone():
    mine = RuleOptions(solo_min=5.0)
    agents, options = resolve_presets("solowhist", ["fitted", "rule", "random", "rule"], mine, 4)
    assert agents == ["rule", "rule", "random", "rule"]
    assert options[0] == preset_options("solowhist", "fitted")
    assert options[1:] == [mine, mine, mine]
    assert resolve_presets("solowhist", ["rule"] * 4, mine, 4) == (["rule"] * 4, mine)
    assert dataclasses.is_dataclass(options[0])


def test_env_opponents_may_play_the_fitted_preset():
    from trickgym.engine.params import params_row
    from trickgym.envs.solowhist import SoloWhistEnv

    env = SoloWhistEnv(seat=1, opponents=["fitted", "rule", "fitted"])
    fitted, plain = params_row(preset_options("solowhist", "fitted")), params_row(RuleOptions())
    rows = env._params["values"]
    np.testing.assert_array_equal(rows[2], fitted)  # seats after the learner: 2, 3, 0
    np.testing.assert_array_equal(rows[0], fitted)
    np.testing.assert_array_equal(rows[3], plain)
    assert list(env._kinds) == [1, -1, 1, 1]  # the compiled rule kind, the learner


def test_the_terminal_game_seats_fitted_opponents_as_rule_with_fitted_options():
    import io

    from trickgym.play import play_deal

    fitted = preset_options("solowhist", "fitted")

    def transcript(agents, options, seed):
        out = io.StringIO()
        pay = play_deal("solowhist", 0, agents, seed, stdin=io.StringIO("1\n" * 400),
                        stdout=out, rule_options=options)  # fmt: skip
        return list(pay), out.getvalue()

    differs = False
    for seed in range(1, 16):
        preset = transcript("fitted", None, seed)
        assert preset == transcript("rule", [None, fitted, fitted, fitted], seed)
        differs |= preset != transcript("rule", None, seed)
    assert differs  # the fitted opponents bid differently from plain rule ones somewhere
