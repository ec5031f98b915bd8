"""One meaning per flag across subcommands (issue 43): each row of the flag table
(docs/guides/cli.md).

No case plays a deal: the function where each command's work starts is
replaced by one that records its arguments and stops.
"""

from __future__ import annotations

import argparse

import pytest

from trickgym.cli import build_parser, main


class Started(Exception):
    """The command got past its checks: the work began with the recorded arguments."""


@pytest.fixture
def work(monkeypatch):
    """The arguments each command's work was started with (``{command: kwargs}``)."""
    import trickgym.benchmark as benchmark
    import trickgym.cli_warm as cli_warm
    import trickgym.duplicate as duplicate
    import trickgym.evaluation as evaluation
    import trickgym.sim as sim
    import trickgym.warm as warm

    seen = {}

    def recorder(name):
        def start(*args, **kwargs):
            seen[name] = (args, kwargs)
            raise Started

        return start

    monkeypatch.setattr(duplicate, "tournament", recorder("tournament"))
    monkeypatch.setattr(evaluation, "evaluate", recorder("evaluate"))
    monkeypatch.setattr(sim, "_execute", recorder("simulate"))
    monkeypatch.setattr(warm, "warm", recorder("warm"))
    # Modules that import these at their top hold names of their own.
    monkeypatch.setattr(benchmark, "evaluate", evaluation.evaluate)
    monkeypatch.setattr(cli_warm, "warm", warm.warm)
    return seen


def run(argv, capsys) -> tuple[str, str]:
    """``("started" | "refused", stderr)`` of the command line ``argv``."""
    capsys.readouterr()
    try:
        code = main(argv)
    except Started:
        return "started", capsys.readouterr().err
    assert code == 2
    return "refused", capsys.readouterr().err


def _option(command: str, flag: str) -> argparse.Action:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    actions = sub.choices[command]._actions
    return next(a for a in actions if flag in a.option_strings)


GAME_COMMANDS = ["simulate", "tournament", "evaluate", "play", "report", "advise"]


@pytest.mark.parametrize("command", GAME_COMMANDS)
def test_game_defaults_to_solowhist(command):
    action = _option(command, "--game")
    assert not action.required and action.default in (None, "solowhist")
    assert "solowhist (default)" in action.help


def test_evaluate_no_longer_needs_game(work, capsys):
    assert run(["evaluate", "--policy", "learnt", "--quiet"], capsys)[0] == "started"
    assert work["evaluate"][0][1] == "solowhist"


@pytest.mark.parametrize(
    "command, flag, words",
    [
        ("simulate", "--agents", "one agent per seat"),
        ("play", "--agents", "one agent per seat, yours left out"),
        ("tournament", "--competitors", "one agent per competitor (not per seat)"),
        ("report", "--competitors", "one agent per competitor (not per seat)"),
        ("evaluate", "--opponents", "one agent per competitor (not per seat)"),
    ],
)
def test_agent_lists_say_per_seat_or_per_competitor(command, flag, words):
    assert words in _option(command, flag).help


@pytest.mark.parametrize(
    "argv, started",
    [
        (
            ["tournament", "--game", "phat", "{flag}", "oracle,random", "--matches", "2"],
            "tournament",
        ),
        (["evaluate", "--policy", "learnt", "{flag}", "rule", "--deals", "2"], "evaluate"),
    ],
)
def test_old_agents_spelling_is_still_read(argv, started, work, capsys):
    got = []
    for flag in ("--agents", "--competitors" if started == "tournament" else "--opponents"):
        assert run([a.replace("{flag}", flag) for a in argv] + ["--quiet"], capsys)[0] == "started"
        got.append(work.pop(started))
    assert got[0] == got[1]


PHAT_COUNTS = [
    ["simulate", "--game", "phat"],
    ["tournament", "--game", "phat"],
    ["evaluate", "--policy", "learnt", "--game", "phat"],
    ["report", "--competitors", "rule", "--game", "phat"],
]


@pytest.mark.parametrize("argv", PHAT_COUNTS, ids=lambda a: a[0])
def test_phat_is_counted_in_matches_in_every_command(argv, work, capsys):
    outcome, err = run([*argv, "--deals", "10", "--quiet"], capsys)
    assert outcome == "refused"
    assert (
        err
        == "trickgym: error: phat is played in whole matches: pass --matches N, not --deals 10\n"
    )
    assert run([*argv, "--matches", "3", "--quiet"], capsys)[0] == "started"


@pytest.mark.parametrize("argv", PHAT_COUNTS[1:3], ids=lambda a: a[0])
def test_matches_are_refused_where_a_game_is_played_in_deals(argv, capsys):
    argv = [a if a != "phat" else "troggu" for a in argv] + ["--players", "4"]
    outcome, err = run([*argv, "--matches", "3", "--quiet"], capsys)
    assert outcome == "refused" and "troggu is played in deals here: pass --deals N" in err


def test_lists_are_comma_separated_and_the_old_spelling_is_read(work, capsys):
    calls = []
    for argv in (["--players", "3,5", "--mode", "kitty,exchange"],
                 ["--players", "3", "5", "--mode", "kitty", "exchange"]):  # fmt: skip
        assert run(["warm", "--quiet", *argv], capsys)[0] == "started"
        calls.append({k: v for k, v in work.pop("warm")[1].items() if k != "log"})
    assert calls[0] == calls[1] and calls[0]["players"] == [3, 5]
    assert calls[0]["modes"] == ["kitty", "exchange"]


@pytest.mark.parametrize(
    "command, metavar",
    [("simulate", "DIR"), ("report", "FILE.html"), ("evaluate", "FILE.csv"), ("dd", "FILE.jsonl")],
)
def test_out_names_what_it_writes(command, metavar):
    assert _option(command, "--out").metavar == metavar
