"""Experiment files: a TOML file fixes a run; the CLI runs it and streams it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pandas.testing import assert_frame_equal

from trickgym.agents.rule.solowhist import RuleOptions
from trickgym.cli import main
from trickgym.experiment import load_experiment, run_experiment
from trickgym.sim import read_dataset, simulate

EXPERIMENTS = Path(__file__).resolve().parent.parent / "experiments"

SMALL = """
description = "small"
game = "solowhist"
agents = ["rule", "random", "rule", "random"]
seed = 5
deals = 1200
chunk = 500

[options]
unit = 2

[rule_options]
solo_min = 5.0
"""


@pytest.fixture
def small(tmp_path) -> Path:
    path = tmp_path / "small.toml"
    path.write_text(SMALL)
    return path


def test_example_files_load_and_are_complete():
    files = sorted(EXPERIMENTS.glob("*.toml"))
    assert len(files) >= 2
    for file in files:
        kwargs = load_experiment(file)
        assert {"agents", "seed", "game"} <= set(kwargs)
        assert ("deals" in kwargs) != ("matches" in kwargs)
    one = load_experiment(EXPERIMENTS / "solowhist_rule_1m.toml")
    assert one == {
        "game": "solowhist",
        "agents": ["rule"] * 4,
        "seed": 1,
        "deals": 1_000_000,
        "dealing": "shuffled",
        "chunk": 65_536,
        "unit": 5,
    }


def test_experiment_is_the_same_run_as_the_arguments(small, tmp_path):
    kwargs = load_experiment(small)
    assert kwargs["rule_options"] == RuleOptions(solo_min=5.0)
    expected = simulate(
        "solowhist", 1200, ["rule", "random", "rule", "random"], seed=5, unit=2,
        rule_options=RuleOptions(solo_min=5.0),
    )  # fmt: skip
    assert_frame_equal(run_experiment(small), expected)
    run = run_experiment(small, out=tmp_path / "out")
    assert run.spec.chunk == 500 and run.chunks_run == 3
    assert_frame_equal(read_dataset(tmp_path / "out"), expected)
    with pytest.raises(ValueError, match="seed would change the results"):
        run_experiment(small, seed=6)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('game = "solowhist"\nagents = "rule"\ndeals = 10\n', "missing seed"),
        ('game = "solowhist"\nagents = "rule"\nseed = 1\n', "deals = N or matches = N"),
        ('game = "solowhist"\nagents = "rule"\nseed = 1\ndeals = 5\nsed = 2\n', "unknown key.*sed"),
        ("game = ", "not valid TOML"),
        ('game = "solowhist"\nagents="rule"\nseed=1\ndeals=5\noptions = 3\n', "must be a table"),
        (
            'game = "solowhist"\nagents="rule"\nseed=1\ndeals=5\n[rule_options]\nbogus = 1\n',
            "rule_options.*bogus",
        ),
    ],
)
def test_bad_files_name_the_problem(tmp_path, text, named):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=named):
        load_experiment(path)


def test_cli_runs_an_experiment_into_a_dataset_and_resumes(small, tmp_path, capsys):
    out = tmp_path / "cli"
    assert main(["simulate", "--experiment", str(small), "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "solowhist (unit=2): 1,200 deals, agents rule,random,rule,random, seed 5" in text
    assert f"wrote {out}: 1,200 deals in 3 chunk files of up to 500 deals\n" in text
    meta = json.loads((out / "_trickgym_run.json").read_text())
    assert meta["seed"] == 5 and meta["options"]["unit"] == 2
    # A second run into the same folder needs --resume; with it nothing is redone.
    assert main(["simulate", "--experiment", str(small), "--out", str(out), "--quiet"]) == 2
    assert "--resume" in capsys.readouterr().err
    argv = ["simulate", "--experiment", str(small), "--out", str(out), "--quiet", "--resume"]
    assert main(argv) == 0
    assert "resumed: 3 of 3 chunks were already done, ran 0" in capsys.readouterr().out
    # Flags that would change the rows are refused with an experiment.
    assert main(["simulate", "--experiment", str(small), "--deals", "5", "--quiet"]) == 2
    assert "--deals would change the results" in capsys.readouterr().err


def test_cli_dask_backend_and_pack(tmp_path, capsys):
    argv = ["simulate", "--deals", "64", "--pack", "bga", "--option", "num_deals=4", "--quiet"]
    assert main([*argv, "--agents", "rule", "--out", str(tmp_path / "bga")]) == 0
    capsys.readouterr()
    assert json.loads((tmp_path / "bga" / "_trickgym_run.json").read_text())["unit"] == "match"
    assert main(["simulate", "--deals", "10", "--scheduler", "tcp://x:1", "--quiet"]) == 2
    assert "--scheduler is for --backend dask" in capsys.readouterr().err
    assert main(["simulate", "--deals", "10", "--resume", "--quiet"]) == 2
    assert "--resume needs --out" in capsys.readouterr().err


def test_cli_bid_table_summed_by_parts_equals_the_whole_table():
    """The CLI sums the table chunk by chunk (bounded memory): same text as in one go."""
    from trickgym.analysis import bid_success, format_bid_table
    from trickgym.cli import _bid_table

    df = simulate("solowhist", 3000, "rule", seed=12, columns=["contract", "made", "declarer"])
    parts = [df.iloc[:7], df.iloc[7:1500], df.iloc[1500:]]
    assert _bid_table(parts) == (format_bid_table(bid_success(df)), 3000)
