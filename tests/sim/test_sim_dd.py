"""simulate(..., dd=True): double-dummy columns equal the Python solver's, on every path.

The oracle is :func:`trickgym.solvers.dd.solve` called afresh from each
row's hands, contract, declaring side and trumps, with the first lead
written out from the rules (§6, SW-D9: eldest leads, the declarer in
Abundance Declared), not taken from the kernels.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from helpers.later import later
from pandas.testing import assert_frame_equal
from run_helpers import as_written_before

from trickgym.analysis import (
    failure_counts,
    failure_split,
    failure_split_from_counts,
    html_report,
)
from trickgym.cli import main
from trickgym.sim import read_dataset, simulate

solve = later("trickgym.solvers.dd", "solve")

# Rules §4, independently of the kernels: the declaring side's goal per contract.
GOAL = {"Prop & Cop": 8, "Solo": 5, "Misère": 0, "Abundance": 9, "Abundance in Trumps": 9,
        "Misère Ouverte": 0, "Abundance Declared": 13}  # fmt: skip
MISERES = {"Misère", "Misère Ouverte"}
BUDGET = 1_000_000  # nodes per solver call in the main fixture: most rows solve
TIGHT = 30_000  # so tight that many rows are flagged: flags too must not depend on chunking


@pytest.fixture(scope="module")
def rule_dd():
    """120 deals of four rule agents with their double-dummy columns."""
    return simulate("solowhist", 120, "rule", seed=11, dd=True, dd_max_nodes=BUDGET)


@pytest.fixture(scope="module")
def tight():
    """60 deals, one thread, one chunk, a tight budget."""
    return simulate(
        "solowhist", 60, "rule", seed=4, dd=True, dd_max_nodes=TIGHT, threads=1, chunk=60
    )


def position(row):
    """``(hands, trumps, leader, declarers, misere, goal)`` of a row's first lead."""
    contract = str(row["contract"])
    hands = [int(row[f"hand_{s}"]) for s in range(4)]
    declarer, partner = int(row["declarer"]), int(row["partner"])
    leader = declarer if contract == "Abundance Declared" else (int(row["dealer"]) + 1) % 4
    declarers = [declarer] + ([partner] if partner >= 0 else [])
    return hands, str(row["trumps"]), leader, declarers, contract in MISERES, GOAL[contract]


def oracle(row, max_nodes, count=True):
    """``(tricks, made)`` from the Python solver (``made`` by its made-or-beaten probe;
    ``tricks`` None unless ``count``)."""
    hands, trumps, leader, declarers, misere, goal = position(row)
    made = solve(hands, trumps, leader, declarers, misere=misere, goal=goal, max_nodes=max_nodes)
    if not count:
        return None, made
    tricks = solve(hands, trumps, leader, declarers, misere=misere, max_nodes=max_nodes)
    return tricks, made


def test_columns_equal_the_python_solver(rule_dd):
    df = rule_dd
    assert df["dd_tricks"].dtype == np.int8
    assert df["dd_made"].dtype == "boolean"
    cols = list(df.columns)
    assert cols[cols.index("made") + 1 : cols.index("made") + 3] == ["dd_tricks", "dd_made"]
    declared = df[df["declarer"] >= 0]
    assert declared["contract"].nunique() >= 2
    known = declared["dd_made"].notna()
    assert known.mean() > 0.8, "the budget should leave few rows unsolved"
    counted = 0
    for _, row in declared[known].iterrows():
        # A warm table may take more nodes than the row's fresh one, never 20 times as many.
        tricks, made = oracle(row, 20 * BUDGET, count=row["dd_tricks"] >= 0)
        assert bool(row["dd_made"]) == made, row
        if tricks is not None:
            assert row["dd_tricks"] == tricks, row
            counted += 1
    assert counted > 0.7 * len(declared)


def test_all_or_nothing_contracts_of_random_agents():
    """Random agents bid Abundance Declared and the misères often: probed first, then counted."""
    df = simulate("solowhist", 40, "random", seed=2, dd=True, dd_max_nodes=200_000)
    seen = set()
    for _, row in df[df["dd_made"].notna()].iterrows():
        tricks, made = oracle(row, 20 * 200_000, count=row["dd_tricks"] >= 0)
        assert bool(row["dd_made"]) == made, row
        if tricks is not None:
            assert row["dd_tricks"] == tricks, row
        seen.add(str(row["contract"]))
    assert {"Abundance Declared", "Misère Ouverte"} <= seen


def test_passed_out_and_unsolved_encodings(rule_dd, tight):
    for df in (rule_dd, tight):
        passed = df["contract"] == "Passed out"
        assert (df.loc[passed, "dd_tricks"] == -1).all()
        assert df.loc[passed, "dd_made"].isna().all()
        # dd_made is known whenever dd_tricks is
        assert not (df["dd_made"].isna() & (df["dd_tricks"] >= 0)).any()
        both = df[df["dd_tricks"] >= 0]
        goal = both["contract"].astype(str).map(GOAL)
        misere = both["contract"].astype(str).isin(MISERES)
        expected = np.where(misere, both["dd_tricks"] == 0, both["dd_tricks"] >= goal)
        assert (both["dd_made"].astype(bool) == expected).all()
    assert (rule_dd["contract"] == "Passed out").any()


def test_tiny_budget_flags_rows_never_guesses(rule_dd):
    small = simulate("solowhist", 120, "rule", seed=11, dd=True, dd_max_nodes=2000)
    base = ["contract", "declarer", "made", "hand_0"]
    assert_frame_equal(small[base], rule_dd[base])
    declared = small["declarer"] >= 0
    flagged = declared & small["dd_made"].isna()
    assert flagged.sum() > declared.sum() // 2
    assert (small.loc[flagged, "dd_tricks"] == -1).all()
    known = declared & small["dd_made"].notna() & rule_dd["dd_made"].notna()
    assert (small.loc[known, "dd_made"] == rule_dd.loc[known, "dd_made"]).all()
    counted = (small["dd_tricks"] >= 0) & (rule_dd["dd_tricks"] >= 0)
    assert (small.loc[counted, "dd_tricks"] == rule_dd.loc[counted, "dd_tricks"]).all()


@pytest.mark.parametrize(("threads", "chunk"), [(2, 60), (2, 7), (1, 13)])
def test_rows_do_not_depend_on_threads_or_chunks(tight, threads, chunk):
    declared = tight["declarer"] >= 0
    assert tight.loc[declared, "dd_made"].isna().any(), "TIGHT should flag some rows"
    assert tight.loc[declared, "dd_made"].notna().any()
    df = simulate(
        "solowhist", 60, "rule", seed=4, dd=True, dd_max_nodes=TIGHT, threads=threads, chunk=chunk
    )
    assert_frame_equal(df, tight)


def test_dd_false_rows_unchanged(tight):
    plain = simulate("solowhist", 60, "rule", seed=4)
    assert "dd_made" not in plain.columns
    assert_frame_equal(tight.drop(columns=["dd_tricks", "dd_made"]), plain)


def test_reset_table_searches_as_a_fresh_table(rule_dd):
    from trickgym.solvers.dd_search import META_NODES, dd_tricks, make_table, reset_table

    row = rule_dd[rule_dd["contract"] == "Solo"].iloc[0]
    hands, _, leader, declarers, _, _ = position(row)
    args = (np.array(hands, dtype=np.uint64), np.full(4, -1, dtype=np.int64), 0, leader,
            "SHDC".index(str(row["trumps"])), sum(1 << s for s in declarers), False)  # fmt: skip
    fresh = make_table(8, 0)
    value = dd_tricks(*args, fresh)
    nodes = fresh[1][META_NODES]
    dd_tricks(*args, fresh)  # warm: the second solve hits the table
    assert fresh[1][META_NODES] < 2 * nodes
    reset_table(fresh)
    assert fresh[1][META_NODES] == 0
    assert dd_tricks(*args, fresh) == value
    assert fresh[1][META_NODES] == nodes


def test_dataset_records_dd_and_round_trips(tmp_path, tight):
    out = tmp_path / "run"
    simulate("solowhist", 60, "rule", seed=4, dd=True, dd_max_nodes=TIGHT, chunk=25, out=out)
    meta = json.loads((out / "_trickgym_run.json").read_text())
    assert meta["dd"] is True and meta["dd_max_nodes"] == TIGHT
    assert_frame_equal(read_dataset(out), tight)
    with pytest.raises(ValueError, match="dd_max_nodes"):
        simulate(
            "solowhist", 60, "rule", seed=4, dd=True, dd_max_nodes=TIGHT + 1, chunk=25,
            out=out, resume=True,
        )  # fmt: skip
    plain = tmp_path / "plain"
    simulate("solowhist", 10, "rule", seed=4, out=plain)
    meta = json.loads((plain / "_trickgym_run.json").read_text())
    assert meta["dd"] is False and meta["dd_max_nodes"] is None


def test_match_dealing(rule_dd):
    df = simulate("solowhist", 16, "rule", seed=3, dealing="match", dd=True, dd_max_nodes=200_000)
    assert {"match", "shuffled", "dd_tricks", "dd_made"} <= set(df.columns)
    assert (~df["shuffled"]).any()  # gathered-and-cut deals are solved too
    for _, row in df[df["dd_tricks"] >= 0].iterrows():
        assert oracle(row, 20 * BUDGET) == (row["dd_tricks"], bool(row["dd_made"]))


def test_dask_backend_equals_local(tight):
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        df = simulate(
            "solowhist", 60, "rule", seed=4, dd=True, dd_max_nodes=TIGHT, chunk=20,
            backend="dask", scheduler=client,
        )  # fmt: skip
    assert_frame_equal(df, tight)


@pytest.mark.parametrize("game", ["troggu", "phat", "pinochle"])
def test_other_games_take_dd_with_the_points_budget(game):
    """Issue 32: every game has dd columns; the point-trick games' default budget is theirs."""
    from trickgym.sim.dd_columns_points import DD_DEFAULT_MAX_NODES
    from trickgym.sim.plan import make_spec

    options = {"players": 4} if game == "troggu" else {}
    deals, matches = (None, 1) if game == "phat" else (4, None)
    spec = make_spec(game, deals, matches, "rule", 0, 0, "shuffled", None, None, options, True)
    assert spec.dd_max_nodes == DD_DEFAULT_MAX_NODES


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"dd_max_nodes": 100}, "dd_max_nodes=100 is for dd=True"),
        ({"dd": True, "dd_max_nodes": -1}, "dd_max_nodes must be.*-1"),
        ({"dd": True, "dd_max_nodes": 1.5}, "dd_max_nodes must be.*1.5"),
        ({"dd": "yes"}, "dd must be True or False.*'yes'"),
    ],
)
def test_bad_dd_arguments(kwargs, named):
    with pytest.raises(ValueError, match=named):
        simulate("solowhist", 5, "rule", **kwargs)


# ------------------------------------------------------------------ analysis


def hand_made_frame() -> pd.DataFrame:
    """Solo: 3 made & makeable, 2 made & not (defence), 4 failed & not makeable,
    1 failed & makeable, 1 failed & unsolved; Misère: 1 failed & makeable, 1 made &
    unsolved; 2 passed-out deals (left out)."""
    spec = [
        ("Solo", True, True, 3), ("Solo", True, False, 2), ("Solo", False, False, 4),
        ("Solo", False, True, 1), ("Solo", False, None, 1),
        ("Misère", False, True, 1), ("Misère", True, None, 1),
        ("Passed out", False, None, 2),
    ]  # fmt: skip
    rows = [(c, m, d) for c, m, d, n in spec for _ in range(n)]
    contract, made, dd = zip(*rows, strict=True)
    return pd.DataFrame(
        {
            "contract": pd.Categorical(contract, ["Passed out", "Solo", "Misère"], ordered=True),
            "declarer": [-1 if c == "Passed out" else 1 for c in contract],
            "made": made,
            "dd_made": pd.array(dd, dtype="boolean"),
        }
    )


def test_failure_split_counts():
    table = failure_split(hand_made_frame())
    assert list(table.index) == ["Solo", "Misère"]
    solo, misere = table.loc["Solo"], table.loc["Misère"]
    counts = ["count", "made", "failed", "not_makeable", "misplayed", "defenders_errors",
              "unsolved"]  # fmt: skip
    assert solo[counts].tolist() == [11, 5, 6, 4, 1, 2, 1]
    assert misere[counts].tolist() == [2, 1, 1, 0, 1, 0, 1]
    assert solo["misplayed_pct"] == pytest.approx(100 / 11)
    assert solo["misplayed_of_failed_pct"] == pytest.approx(20.0)
    assert solo["misplayed_ci_low_pct"] < 20 < solo["misplayed_ci_high_pct"]
    assert solo["dd_makeable_pct"] == pytest.approx(100 * 4 / 10)
    assert misere["misplayed_of_failed_pct"] == pytest.approx(100.0)


def test_failure_counts_add_up_by_parts():
    df = hand_made_frame()
    whole = failure_counts(df)
    parts = failure_counts(df.iloc[:7]).add(failure_counts(df.iloc[7:]), fill_value=0)
    assert_frame_equal(failure_split_from_counts(parts.loc[whole.index]), failure_split(df))


def test_failure_split_needs_dd_columns():
    with pytest.raises(ValueError, match=r"dd_made.*dd=True"):
        failure_split(hand_made_frame().drop(columns="dd_made"))


def test_split_of_simulated_rows_adds_up(rule_dd):
    table = failure_split(rule_dd)
    assert (table["made"] + table["failed"] == table["count"]).all()
    solved_failed = table["not_makeable"] + table["misplayed"]
    assert (solved_failed <= table["failed"]).all()
    assert table["count"].sum() == (rule_dd["declarer"] >= 0).sum()


def test_report_shows_the_split(rule_dd):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    text = html_report(rule_dd, folds=2)
    assert "Failures: not makeable or misplayed (double dummy)" in text
    assert "misplayed of failures %" in text
    assert "not makeable or misplayed" not in html_report(rule_dd.drop(columns="dd_made"), folds=2)


def test_cli_dd_prints_the_split(capsys):
    argv = ["simulate", "--deals", "40", "--agents", "rule", "--seed", "4", "--quiet"]
    assert main([*argv, "--dd", "--dd-max-nodes", str(TIGHT)]) == 0
    text = capsys.readouterr().out
    assert "failures, double dummy" in text and "misplayed of failures" in text
    table = failure_split(simulate("solowhist", 40, "rule", seed=4, dd=True, dd_max_nodes=TIGHT))
    lines = text[text.index("failures, double dummy") :].splitlines()[2:]
    split = lines[: len(table)]
    assert "deals/s" in lines[len(table)]
    for line, (name, row) in zip(split, table.iterrows(), strict=True):
        assert line.startswith(str(name))
        assert f"{row['misplayed_pct']:.2f}%" in line
    # Issue 32: Troggu has the columns too (a one-node budget: every declared row unsolved).
    assert main([*argv, "--game", "troggu", "--players", "4", "--dd", "--dd-max-nodes", "1"]) == 0
    text = capsys.readouterr().out
    assert "failures, double dummy" in text and "100.00%" in text  # unsolved %


def test_experiment_file_fixes_dd(tmp_path, capsys):
    path = tmp_path / "dd.toml"
    path.write_text(
        f'game = "solowhist"\nagents = "rule"\nseed = 4\ndeals = 40\ndd = true\n'
        f"dd_max_nodes = {TIGHT}\n"
    )
    assert main(["simulate", "--experiment", str(path), "--quiet"]) == 0
    assert "misplayed of failures" in capsys.readouterr().out
    assert main(["simulate", "--experiment", str(path), "--dd", "--quiet"]) == 2
    assert "--dd would change the results" in capsys.readouterr().err


def test_resume_a_run_recorded_before_the_dd_keys(tmp_path):
    out = tmp_path / "old"

    def stop(index, rows):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate("solowhist", 10, "rule", seed=4, chunk=5, out=out, on_chunk=stop)
    as_written_before(out, drop=("dd", "dd_max_nodes", "spec_sha256"))
    run = simulate("solowhist", 10, "rule", seed=4, chunk=5, out=out, resume=True)
    assert (run.chunks_skipped, run.chunks_run) == (1, 1)
    with pytest.raises(ValueError, match="dd: folder has False, this run True"):
        simulate("solowhist", 10, "rule", seed=4, chunk=5, out=out, resume=True, dd=True)
