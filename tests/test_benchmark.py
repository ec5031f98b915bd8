"""The benchmark (``trickgym evaluate --benchmark``): a well-formed fixed definition, reproducible.

No test plays the benchmark's counts: the definition is checked without a
deal, and one reduced run is played twice.
"""

from __future__ import annotations

import pytest

import trickgym
from trickgym.agents.registry import is_agent_name
from trickgym.analysis.agents import unavailable_agents
from trickgym.benchmark import TABLE_COLUMNS, TABLES, VERSION, run_benchmark, tables
from trickgym.cli import main
from trickgym.games import GAMES


def test_every_game_has_a_table_and_tables_are_distinct():
    assert {t.game for t in TABLES} == set(GAMES)
    assert len({t.name for t in TABLES}) == len(TABLES)
    assert len({t.seed for t in TABLES}) == len(TABLES)  # no two tables share deals
    assert VERSION == 1


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_table_is_fixed_and_its_opponents_play_it(table):
    trickgym.game(table.game, **table.table_options)  # the options are the game's
    for count in (table.seed, table.deals, table.slow_deals):
        assert isinstance(count, int) and not isinstance(count, bool)
    assert 1 <= table.slow_deals < table.deals
    assert table.opponents == ("random", "rule", "pimc")
    assert all(is_agent_name(o) for o in table.opponents)
    assert unavailable_agents(table.game, list(table.opponents), **table.table_options) == {}


def test_tables_pick_one_game_or_one_table():
    assert [t.name for t in tables("troggu")] == ["troggu-3", "troggu-4", "troggu-5"]
    assert [t.name for t in tables("pinochle", mode="exchange")] == ["pinochle-exchange"]
    with pytest.raises(ValueError, match="no troggu table with players=6; it has troggu-3"):
        tables("troggu", players=6)
    with pytest.raises(ValueError, match="unknown game 'nope'"):
        tables("nope")


def test_a_reduced_run_repeats_its_numbers_and_says_it_is_reduced():
    def run():
        return run_benchmark("random", "solowhist", deals=30, slow_deals=1, progress=False)

    first, second = run(), run()
    assert list(first.table.columns) == list(TABLE_COLUMNS)
    assert list(first.table["opponent"]) == ["rule", "pimc"]  # not itself
    assert list(first.table["deals"]) == [30, 1]
    assert (first.table["seed"] == 4401).all()
    assert first.table.equals(second.table)
    assert first.skipped == {"solowhist": "random against itself: margin 0 by symmetry"}
    assert "at reduced counts (not comparable)" in first.format()


def test_an_agent_with_no_table_it_can_play_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="no learnt weights shipped for troggu"):
        run_benchmark("learnt", "troggu", players=4, progress=False)


def test_a_policy_file_plays_its_own_table_with_its_recorded_bidding(tmp_path, solowhist):
    import numpy as np

    from trickgym.agents.policy import save_policy
    from trickgym.games.obs_features import feature_plan

    rng = np.random.default_rng(0)
    n_in, n_out = feature_plan(solowhist).size, solowhist.n_actions
    weights = {"w0": rng.normal(0, 0.1, (n_in, 8)), "b0": np.zeros(8),
               "w1": rng.normal(0, 0.1, (8, n_out)), "b1": np.zeros(n_out)}  # fmt: skip
    path = save_policy(tmp_path / "p.npz", weights, game=solowhist, bidding="rule")
    report = run_benchmark(path, deals=4, slow_deals=1, progress=False)
    assert set(report.table["table"]) == {"solowhist"}  # every other table: another game's file
    assert set(report.skipped) == {t.name for t in TABLES} - {"solowhist"}
    assert "(rule bidding)" in report.policy


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--seed", "3"], "leave out --seed"),
        (["--opponents", "rule"], "leave out --opponents"),
        (["--deals", "10"], "leave out --deals"),
        (["--game", "troggu", "--players", "8"], "no troggu table with --players 8"),
        (["--game", "nope"], "unknown game 'nope'"),
    ],
)
def test_cli_benchmark_refuses_what_it_fixes(argv, words, capsys):
    assert main(["evaluate", "--benchmark", "--policy", "random", "--quiet", *argv]) == 2
    assert words in capsys.readouterr().err
