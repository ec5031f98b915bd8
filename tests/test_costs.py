"""Slow double-dummy runs say what they will cost before they start (issue 42).

``advise --play dd`` and ``simulate --dd`` solve every deal (0.02-25 s of a core
each): their defaults are about a minute's worth, and a longer run prints one
line on stderr first, with the expected time and the flag that shrinks it.
The CLI tests stop each command right after that line (no solver runs).
"""

from __future__ import annotations

import pytest

import trickgym.advisor.advise
import trickgym.cli
from trickgym import costs
from trickgym.cli import main


def test_a_long_advise_says_its_cost():
    line = costs.advise_warning("pinochle", "dd", 1000, threads=2)
    assert line == (
        "trickgym: advise --play dd for pinochle will take about 13 minutes: ~1.6 s per deal "
        "per core x 1,000 deals on 2 threads (a first run also compiles the solver); pass "
        "--deals N to shrink"
    )
    assert costs.advise_warning("pinochle", "dd", 10, threads=2) is None  # short: nothing
    assert costs.advise_warning("pinochle", "rule", 10_000, threads=1) is None  # no solver


def test_a_long_simulate_dd_says_its_cost():
    line = costs.simulate_warning("phat", {"dd": True, "matches": 1000}, threads=2)
    assert "simulate --dd for phat will take about 72 minutes" in line
    assert line.endswith("pass --matches N to shrink")
    line = costs.simulate_warning("solowhist", {"dd": True, "deals": 100_000}, threads=2)
    assert "about 2.4 hours" in line and "100,000 deals on 2 threads" in line
    assert costs.simulate_warning("solowhist", {"deals": 100_000}, threads=1) is None


@pytest.mark.parametrize("game", ["solowhist", "pinochle", "phat", "troggu"])
def test_dd_defaults_fit_about_a_minute_on_two_cores(game):
    seconds, deals = costs.ADVISE_DD[game]
    assert deals * seconds / 2 <= 80
    seconds, count = costs.SIMULATE_DD[game]
    per = seconds * (costs.ROWS_PER_MATCH if game == "phat" else 1)
    assert count * per / 2 <= 80


def test_advise_default_deals_follow_the_costs():
    import trickgym
    from trickgym.advisor.advise import default_deals

    assert default_deals(trickgym.game("phat"), "dd") == costs.ADVISE_DD["phat"][1]
    assert default_deals(trickgym.game("pinochle"), "dd") == costs.ADVISE_DD["pinochle"][1]
    assert default_deals(trickgym.game("phat"), "rule") == 1000


def stop(*args, **kwargs):
    raise ValueError("stopped before the run")


def test_cli_advise_prints_the_line_before_starting(monkeypatch, capsys):
    monkeypatch.setattr(trickgym.advisor.advise, "hand_odds", stop)
    argv = ["advise", "--game", "phat", "--hand", "A95.K9.QJ5.T9852", "--seat", "2"]
    assert main([*argv, "--threads", "1"]) == 2  # default 5 deals: 125 s on one thread
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("trickgym: advise --play dd for phat will take about 2 minutes")
    assert err[1] == "trickgym: error: stopped before the run"
    assert main([*argv, "--threads", "8", "--deals", "2"]) == 2  # short: no line
    assert capsys.readouterr().err.splitlines() == ["trickgym: error: stopped before the run"]


def test_cli_simulate_dd_defaults_and_line(monkeypatch, capsys):
    monkeypatch.setattr(trickgym.cli, "_import_simulator", stop)
    assert main(["simulate", "--game", "phat", "--dd", "--matches", "1000", "--threads", "2"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert "simulate --dd for phat will take about 72 minutes" in err[0]
    parser = trickgym.cli.build_parser()
    for argv, key, count in [
        (["simulate", "--game", "phat", "--dd"], "matches", 15),
        (["simulate", "--game", "phat"], "matches", 1000),
        (["simulate", "--dd"], "deals", 500),
        (["simulate"], "deals", 100_000),
    ]:
        assert trickgym.cli._simulate_kwargs(parser.parse_args(argv))[1][key] == count
