"""The ``trickgym`` command line."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from run_helpers import not_quiet

from trickgym.cli import main

ROW = re.compile(r"^(?P<name>\D+?)\s+(?P<count>\d+)(\s|$)")


def table_counts(text: str) -> dict[str, int]:
    """Contract -> count from the printed bid table."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("contract"))
    counts = {}
    for line in lines[start + 1 :]:
        match = ROW.match(line)
        if not match:
            break
        counts[match["name"].strip()] = int(match["count"])
    return counts


def test_simulate_writes_parquet(tmp_path, capsys):
    """``simulate --out`` returns 0 and prints counts that match the file."""
    out = tmp_path / "r.parquet"
    code = main(["simulate", "--deals", "500", "--seed", "1", "--quiet", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert not_quiet(captured.err) == []  # --quiet: no progress bar
    assert "solowhist: 500 deals, agents random, seed 1" in captured.out
    assert f"wrote {out}" in captured.out
    df = pd.read_parquet(out)
    assert len(df) == 500 and df["deal"].tolist() == list(range(500))
    counts = df["contract"].astype(str).value_counts().to_dict()
    assert table_counts(captured.out) == counts
    assert sum(counts.values()) == 500


def test_simulate_same_as_api(tmp_path, capsys):
    """The file holds the rows ``trickgym.sim.simulate`` returns for the same arguments."""
    from trickgym.sim import simulate

    out = tmp_path / "u.parquet"
    argv = ["simulate", "--deals", "300", "--seed", "4", "--quiet", "--option", "unit=2"]
    assert main([*argv, "--agents", "random,random,random,random", "--out", str(out)]) == 0
    capsys.readouterr()
    expected = simulate("solowhist", 300, "random", seed=4, unit=2)
    got = pd.read_parquet(out)
    pd.testing.assert_frame_equal(
        got.astype({"contract": str}), expected.astype({"contract": str}), check_dtype=False
    )


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--option", "unit=0"], "unit"),
        (["--option", "colour=red"], "colour"),
        (["--option", "unit"], "unit"),
        (["--game", "bridge"], "bridge"),
        (["--agents", "random,random,random"], "random"),
        (["--agents", "nobody"], "nobody"),
        (["--threads", "0"], "threads"),
        (["--deals", "0"], "deals"),
    ],
)
def test_bad_options_exit_2(argv, named, capsys, tmp_path):
    """A bad option returns exit code 2 with an error on stderr naming it; nothing is written."""
    out = tmp_path / "bad.parquet"
    code = main(["simulate", "--deals", "10", "--quiet", *argv, "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err.startswith("trickgym: error:") and named in captured.err
    assert captured.out == "" and not out.exists()


def test_unwritable_out_fails_before_the_run(tmp_path, capsys):
    """An --out under a file is an error (exit 2) before any deal is simulated."""
    (tmp_path / "afile").write_text("")
    out = tmp_path / "afile" / "run"
    code = main(["simulate", "--deals", "10", "--quiet", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 2 and "is not a folder" in captured.err and "afile" in captured.err
    assert "deals/s" not in captured.out


def test_out_parent_folders_are_created(tmp_path, capsys):
    """README's ``--out runs/sw10m`` failed when ``runs/`` did not exist."""
    out = tmp_path / "runs" / "deeper" / "sw"
    assert main(["simulate", "--deals", "10", "--quiet", "--out", str(out)]) == 0
    assert (out / "_trickgym_run.json").exists()


def test_argparse_errors_exit_2(capsys):
    """Unknown flags and a missing command are argparse errors (exit 2)."""
    for argv in (["simulate", "--bogus"], [], ["simulate", "--deals", "many"]):
        with pytest.raises(SystemExit) as err:
            main(argv)
        assert err.value.code == 2
    assert "usage: trickgym" in capsys.readouterr().err


def test_warm_command_parses(capsys):
    """``trickgym warm`` is a command: listed, with its flags, and parsed."""
    from trickgym.cli import build_parser

    argv = ["warm", "--game", "troggu", "--players", "3", "8", "--agents", "random,rule"]
    args = build_parser().parse_args([*argv, "--no-envs"])
    assert (args.game, args.players, args.agents) == (
        "troggu",
        ["3", "8"],
        "random,rule",
    )  # read as a list by _warm
    assert args.no_envs
    texts = []
    for help_argv in (["--help"], ["warm", "--help"]):
        with pytest.raises(SystemExit) as err:
            main(help_argv)
        assert err.value.code == 0
        texts.append(capsys.readouterr().out)
    assert "warm" in texts[0] and texts[1].startswith("usage: trickgym warm")
    assert all(f in texts[1] for f in ("--game", "--agents", "--players", "--mode", "--no-envs"))


@pytest.mark.parametrize(
    ("argv", "named", "allowed"),
    [
        (["--game", "bridge"], "'bridge'", "solowhist, troggu, phat, pinochle"),
        (["--game", "solowhist,whist"], "'whist'", "solowhist, troggu, phat, pinochle"),
        (["--agents", "random,pimc"], "'pimc'", "random, rule, oracle"),
        (["--game", "troggu", "--players", "9"], "players", "8"),
        (["--game", "solowhist", "--players", "4"], "--players is for", "troggu"),
        (["--game", "pinochle", "--mode", "auction"], "auction", "kitty"),
        (["--game", "troggu", "--mode", "kitty"], "--mode is for", "pinochle"),
    ],
)
def test_warm_refuses_unknown_names(argv, named, allowed, capsys):
    """Exit 2 before any compile, naming the bad value and what is allowed."""
    assert main(["warm", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("trickgym: error:"), captured.err
    assert named in captured.err and allowed in captured.err, captured.err
    assert captured.out == ""


SPEED = re.compile(
    r"^(?P<deals>[\d,]+) deals in (?P<run>[\d.]+) s \((?P<rate>[\d,]+) deals/s\); "
    r"(compiling took (?P<compile>\d+) s \((?P<functions>\d+) functions?\)"
    r"|loading the kernels took (?P<load>[\d.]+) s)$",
    re.M,
)


def test_deals_per_second_leaves_the_compile_out(monkeypatch, capsys):
    """``3,357 deals/s (297.87 s)`` timed the compile with 13 s of simulation."""
    import time

    import numba

    import trickgym.sim.plan

    real = trickgym.sim.plan.run_chunk_rows
    calls = []

    def compiling_first_call(*args, **kwargs):  # the warm-up: a compile and a slow one
        if not calls:
            calls.append(1)
            numba.njit(lambda x: x + 1)(1)
            time.sleep(1.5)
        return real(*args, **kwargs)

    monkeypatch.setattr(trickgym.sim.plan, "run_chunk_rows", compiling_first_call)
    start = time.perf_counter()
    assert main(["simulate", "--deals", "300", "--seed", "2", "--quiet"]) == 0
    wall = time.perf_counter() - start
    captured = capsys.readouterr()
    # --quiet: no bar, no progress line; a compile still says so, in one line
    assert captured.err.count("\n") == 1 and "numba is compiling" in captured.err
    line = SPEED.search(captured.out)
    assert line and line["deals"] == "300" and int(line["functions"]) >= 1, captured.out
    assert int(line["compile"]) >= 1 and float(line["run"]) < wall - 1.5
    assert int(line["rate"].replace(",", "")) >= 300 / (float(line["run"]) + 0.01)
    assert main(["simulate", "--deals", "300", "--seed", "2", "--quiet"]) == 0
    captured = capsys.readouterr()
    line = SPEED.search(captured.out)
    assert line and line["load"] is not None and line["compile"] is None
    assert captured.err == ""  # nothing compiled: --quiet is silent


def _command() -> list[str]:
    """The installed console script, or the module if it is not installed."""
    script = shutil.which("trickgym") or shutil.which(
        "trickgym", path=str(Path(sys.executable).parent)
    )
    return [script] if script else [sys.executable, "-m", "trickgym.cli"]


def test_console_script():
    """The installed ``trickgym`` command runs a short simulation."""
    result = subprocess.run(
        [*_command(), "simulate", "--deals", "200", "--quiet"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONWARNINGS": "error::DeprecationWarning"},
    )
    assert result.returncode == 0, result.stderr
    assert "solowhist: 200 deals" in result.stdout
    assert sum(table_counts(result.stdout).values()) == 200
    # The command ends with os._exit (issue 42: pyarrow could abort the teardown): its error
    # line and exit code still come through.
    result = subprocess.run(
        [*_command(), "verify", "no-such-folder"], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 2
    assert result.stderr.startswith("trickgym: error: 'no-such-folder' is not a trickgym dataset")


def test_closed_pipe_ends_quietly(tmp_path):
    """``trickgym dd --cards positions | head -1`` ended with a BrokenPipeError traceback."""
    line = '{"hands": ["2S", "3S", "4S", "5S"], "trumps": "NT", "leader": 0, "declarers": [0]}\n'
    positions = tmp_path / "positions.jsonl"
    positions.write_text(line * 2000)
    proc = subprocess.Popen(
        [*_command(), "dd", str(positions), "--cards"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout.readline().startswith(b'{"hands"')
    proc.stdout.close()  # what head does after its first line
    _, stderr = proc.communicate(timeout=300)
    assert b"Traceback" not in stderr and b"BrokenPipe" not in stderr, stderr.decode()
    assert proc.returncode == 1


def _subparsers():
    from trickgym.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.choices and "simulate" in a.choices)
    return parser, sub.choices


def test_every_flag_has_help_and_shows_its_default():
    """Issue 17: flags without help, defaults not shown, a docstring leftover as the description."""
    parser, commands = _subparsers()
    top = parser.format_help()
    assert "``" not in top and "Command line:" not in top
    assert set(commands) == {
        "simulate",
        "tournament",
        "report",
        "play",
        "dd",
        "advise",
        "warm",
        "verify",
        "evaluate",
        "replay",
    }
    for name, sub in commands.items():
        text = sub.format_help()
        assert "``" not in text, name
        for action in sub._actions:
            if action.help == "==SUPPRESS==" or action.dest == "help":
                continue
            assert action.help, f"{name} {action.option_strings or action.dest} has no help"
            shown = sub._get_formatter()._get_help_string(action) or ""
            default = action.default
            if default not in (None, [], "==SUPPRESS==") and default is not False:
                assert "default" in shown, f"{name} {action.option_strings}: default not shown"


def _visible_flags(sub) -> set[str]:
    return {o for a in sub._actions for o in a.option_strings if a.help != "==SUPPRESS=="}


def test_one_command_line_convention(capsys):
    """Issue 31 made --game, --agents and --hand the spellings everywhere; issue 43 gave each
    meaning of an agent list its own flag: --agents per seat, --competitors (tournament,
    report) and --opponents (evaluate) per competitor. The old spellings still run but are
    no longer shown."""
    _, commands = _subparsers()
    for name in ("simulate", "tournament", "play", "advise", "warm", "evaluate", "replay"):
        flags = _visible_flags(commands[name])
        assert "--game" in flags, name
        positionals = [a for a in commands[name]._actions if not a.option_strings]
        assert all(a.help == "==SUPPRESS==" for a in positionals), name  # the old spellings
    per_seat = ("simulate", "play", "warm", "replay")
    for name in per_seat:
        assert "--agents" in _visible_flags(commands[name]), name
        assert not {"--competitors", "--opponents"} & _visible_flags(commands[name]), name
    for name, flag in (("tournament", "--competitors"), ("report", "--competitors"),
                       ("evaluate", "--opponents")):  # fmt: skip
        assert flag in _visible_flags(commands[name]) and "--agents" not in _visible_flags(
            commands[name]
        ), name
    assert {"--hand", "--seat", "--players", "--mode", "--option"} <= _visible_flags(
        commands["advise"]
    )
    parse = _subparsers()[0].parse_args
    assert parse(["tournament", "--agents", "rule,pimc"]).agents == "rule,pimc"
    old = parse(["play", "phat", "--opponents", "random"])
    assert (old.positional_game, old.agents) == ("phat", "random")
    assert parse(["advise", "phat", "A95.K9.QJ5.T9852"]).words == ["phat", "A95.K9.QJ5.T9852"]
    argv = ["tournament", "--competitors", "rule,random", "--deals", "20", "--quiet"]
    assert main(argv) == 0
    assert "rule" in capsys.readouterr().out


def test_help_has_no_percent_escapes():
    """Issue 31: ``advise --help`` printed ``made %%`` and ``95%%``."""
    parser, commands = _subparsers()
    for text in [parser.format_help(), *(sub.format_help() for sub in commands.values())]:
        assert "%%" not in text


TROGGU_NO_PLAYERS = "--players is required for troggu (3..8), e.g. --players 4"
HAND = ["--hand", "AKQJ5.K2.A7.9832"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--game", "troggu"], TROGGU_NO_PLAYERS),
        (["tournament", "--game", "troggu"], TROGGU_NO_PLAYERS),
        (["play", "--game", "troggu"], TROGGU_NO_PLAYERS),
        (["advise", "--game", "troggu", "--hand", "Fool"], TROGGU_NO_PLAYERS),
        (["simulate", "--game", "phat", "--deals", "100"], "pass --matches N, not --deals 100"),
        (["simulate", "--matches", "5"], "--matches is for games raced to a target"),
        (
            ["simulate", "--game", "pinochle", "--deals", "9", "--matches", "2"],
            "pinochle takes deals or matches, not both: pass --matches N, not --deals 9",
        ),
        (["simulate", "--dd-max-nodes", "9"], "--dd-max-nodes 9 is for --dd runs"),
        (["simulate", "--game", "phat", "--dealing", "match"], "--dealing match is for Solo"),
        (["simulate", "--seed", "-1"], "--seed must be a non-negative integer 0..1844"),
        (["simulate", "--game", "pinochle", "--mode", "x"], "--mode must be one of kitty"),
        (["simulate", "--option", "unit=0"], "--option unit must be an integer 1.."),
        (
            ["simulate", "--players", "4"],
            "not an option of this game: --players; its options: --option unit, --option num_deals",
        ),
        (["tournament", "--agents", "rule"], "--agents must be 2 to 4 competitors"),
        (["play", "--seat", "9"], "--seat must be an integer 0..3, got 9"),
        (["play", "--agents", "rule,rule"], "--agents must be one name or 3"),
        (["advise"], "--hand is required"),
        (["advise", *HAND], "--turn-up is required for Solo Whist"),
        (["advise", *HAND, "--turn-up", "ZZ"], "--turn-up 'ZZ': unknown card"),
        (["advise", "--hand", "AKQ", "--turn-up", "2S"], "--hand 'AKQ': unknown card"),
        (["advise", *HAND, "--turn-up", "2S", "--deals", "0"], "--deals must be an integer"),
        (
            ["advise", *HAND, "--turn-up", "2S", "--seat", "1", "--dealer", "1"],
            "--turn-up 2S is not in the hand 'AKQJ5.K2.A7.9832': seat 1 is the dealer",
        ),
        (["warm", "--players", "9"], "--players must be an integer 3..8, got 9"),
        # The old positional spellings still mean the game and the hand.
        (["advise", "solowhist", "AKQ", "--turn-up", "2S"], "--hand 'AKQ': unknown card"),
        (["advise", "AKQ", "--game", "solowhist", "--turn-up", "2S"], "--hand 'AKQ'"),
        (["advise", "phat", "--game", "troggu", *HAND], "--game troggu and 'phat': give it once"),
        (["play", "phat", "--game", "troggu"], "--game troggu and the game 'phat'"),
    ],
)
def test_errors_name_the_flags_typed(argv, message, capsys, monkeypatch):
    """Issue 31: CLI errors were worded for Python (``option(s) players required, e.g.
    players=...``, ``pass matches=N, not deals=100``) though the user typed flags."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main([*argv, "--quiet"] if argv[0] in ("simulate", "advise", "warm") else argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("trickgym: error: ") and message in err, err
    assert not re.search(r"\b[a-z_]+=(?!\d)", err.replace("NAME=VALUE", "")), err


def test_dask_missing_names_the_extra_and_leaves_no_folder(tmp_path, capsys, monkeypatch):
    """Without distributed: a message naming the extra, and no run folder that refuses a rerun."""
    monkeypatch.setitem(sys.modules, "distributed", None)
    out = tmp_path / "run"
    argv = ["simulate", "--deals", "10", "--quiet", "--backend", "dask", "--out", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    from trickgym.checks import install_hint

    # The hint fits this (editable) install, not an index trickgym is not on.
    assert install_hint("dask") in err and "Traceback" not in err
    assert "pip install -e '" in err and "pip install 'trickgym[dask]'" not in err
    assert not out.exists()
