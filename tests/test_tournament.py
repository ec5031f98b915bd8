"""Duplicate tournaments: seatings, pairing, and an oracle that must win."""

from __future__ import annotations

import numpy as np
import pytest

import trickgym
from trickgym.agents import RandomAgent, register_agent
from trickgym.cli import main
from trickgym.duplicate import _seatings, tournament


def test_rotations_put_every_agent_in_every_seat():
    seatings = _seatings("solowhist", ["a", "b"], 4)
    assert seatings == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    five = _seatings("troggu", ["a", "b"], 5)
    assert len(five) == 5 and all(sorted(s.count("a") for s in five) == [3] * 5 for s in [five])
    for seat in range(5):
        assert {s[seat] for s in five} == {"a", "b"}


def test_partnerships_swap():
    assert _seatings("pinochle", ["a", "b"], 4) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    with pytest.raises(ValueError, match="must be exactly 2"):
        _seatings("phat", ["a", "b", "c"], 4)


def test_same_agent_twice_is_refused():
    with pytest.raises(ValueError, match="each named once"):
        tournament("solowhist", ["random", "random"], deals=10)


@pytest.mark.parametrize("game, options", [("solowhist", {}), ("pinochle", {"mode": "exchange"})])
def test_oracle_beats_random(game, options):
    report = tournament(game, ["oracle", "random"], deals=24, seed=3, **options)
    assert report.difference["ci_low"] > 0, report.format()
    assert report.standings.loc["oracle", "mean"] > report.standings.loc["random", "mean"]


def test_zero_sum_standings_and_rows():
    report = tournament("solowhist", ["random", RandomAgent(1)], deals=40, seed=2)
    means = report.standings["mean"]
    assert means.sum() == pytest.approx(0.0, abs=1e-9)  # two agents, equal seats: zero-sum
    assert set(report.rows["seating"]) == {0, 1} and len(report.rows) == 80


def test_report_columns_align_whatever_the_names():
    """A long agent name (policy:PATH) widens the name column instead of running into it."""
    long_name = "policy-with-a-name-longer-than-the-column"
    register_agent(long_name, lambda game: RandomAgent(5), replace=True)
    lines = tournament("solowhist", [long_name, "rule"], deals=20, seed=1).format().splitlines()
    assert len({ln.index("[") for ln in lines[2:5]}) == 1  # the intervals line up
    bids = lines[lines.index("") + 1 :]
    assert all(ln.split()[0] in (long_name, "rule", "declarer") for ln in bids)
    assert len({ln.rindex("[") for ln in bids[1:]}) == 1


def test_lazy_package_attributes():
    assert trickgym.tournament is tournament
    with pytest.raises(AttributeError):
        trickgym.no_such_thing  # noqa: B018


def test_cli_tournament(capsys):
    code = main(
        ["tournament", "--game", "phat", "--agents", "rule,random", "--matches", "4", "--quiet"]
    )
    out = capsys.readouterr().out
    assert code == 0 and "rule - random" in out and "phat" in out


def test_seat_score_is_the_seats_mean_payoff_with_its_interval():
    from trickgym.duplicate import seat_score

    score = seat_score("solowhist", "random", deals=60, seed=3, seat=2)
    df = trickgym.simulate("solowhist", agents=["rule", "rule", "random", "rule"], deals=60, seed=3)
    pay = df["payoff_2"].to_numpy(float)
    assert score["mean"] == pytest.approx(pay.mean())
    half = 1.959963984540054 * pay.std(ddof=1) / np.sqrt(60)
    assert score["ci_high"] - score["mean"] == pytest.approx(half)
    phat = seat_score("phat", "rule", deals=2, seed=1)
    assert phat["deals"] > 2  # matches of several deals, scored per deal
    with pytest.raises(ValueError, match=r"seat must be 0\.\.3"):
        seat_score("solowhist", "rule", deals=2, seat=4)


def test_each_seating_bar_says_which_it_is(capsys):
    """Issue 43: a tournament showed two progress bars with no label."""
    tournament("solowhist", ["rule", "random"], deals=200, progress=True)
    err = capsys.readouterr().err
    assert "seating 1/2 (rule, random, rule, random)" in err
    assert "seating 2/2 (random, rule, random, rule)" in err
