"""Bid success under several agents side by side (``analysis.agents``, ``report --agents``).

Sizes are tiny: the learnt agent plays Troggu at a few deals a second today.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import trickgym
from trickgym.analysis import (
    bid_success,
    bid_success_by_agent,
    compare_agents,
    failure_counts,
    format_agent_table,
    pitch_frame,
    plot_agent_success,
    simulate_agents,
    unavailable_agents,
)
from trickgym.analysis.plots import MIN_DEALS
from trickgym.cli import main

SEED = 3
# (id, game, size, table options): every game with shipped learnt weights.
TABLES = [
    ("solowhist", "solowhist", {"deals": 100}, {}),
    ("troggu-5p", "troggu", {"deals": 8}, {"players": 5}),
    ("phat", "phat", {"matches": 3}, {}),
    ("pinochle", "pinochle", {"deals": 40}, {}),
    ("pinochle-exchange", "pinochle", {"deals": 40}, {"mode": "exchange"}),
]
AGENTS = ["rule", "learnt"]
FIELDS = ["count", "made", "made_pct", "ci_low_pct", "ci_high_pct", "few"]


@pytest.fixture(scope="module", params=TABLES, ids=[t[0] for t in TABLES])
def compared(request):
    """``(game, size, options, table)``: compare_agents of rule and learnt at a tiny size."""
    _, game, size, options = request.param
    table = compare_agents(game, AGENTS, seed=SEED, threads=1, progress=False, **size, **options)
    return game, size, options, table


def _bids(game, df):
    return pitch_frame(df) if game == "phat" else df


def test_rates_are_those_of_separate_runs(compared):
    """Each group is bid_success of that agent's own simulate run, every seat that agent."""
    game, size, options, table = compared
    assert list(table.columns.get_level_values("agent").unique()) == AGENTS
    for agent in AGENTS:
        rows = trickgym.simulate(game, agents=agent, seed=SEED, progress=False, **size, **options)
        alone = bid_success(_bids(game, rows))
        group = table[agent]
        assert group["count"].sum() == len(_bids(game, rows))
        played = group[group["count"] > 0]
        assert sorted(map(str, played.index)) == sorted(map(str, alone.index))
        pd.testing.assert_frame_equal(
            played[alone.columns].astype(float),
            alone.reindex(played.index).astype(float),
            check_names=False,
            check_index_type=False,
        )
        never = group[group["count"] == 0]
        assert never["made_pct"].isna().all() and not never["few"].any()


def test_intervals_and_the_small_sample_rule(compared):
    """Every rate has its Wilson interval around it; few flags rates under MIN_DEALS deals."""
    _, _, _, table = compared
    assert table.attrs["min_count"] == MIN_DEALS
    for agent in AGENTS:
        group = table[agent]
        assert list(group.columns) == FIELDS
        rated = group[group["made_pct"].notna()]
        assert len(rated) > 0
        assert (rated["ci_low_pct"] >= 0).all() and (rated["ci_high_pct"] <= 100).all()
        assert (rated["ci_low_pct"] <= rated["made_pct"]).all()
        assert (rated["made_pct"] <= rated["ci_high_pct"]).all()
        assert (rated["ci_high_pct"] > rated["ci_low_pct"]).all()
        expected = group["made_pct"].notna() & (group["count"] < MIN_DEALS)
        assert group["few"].tolist() == expected.tolist()
    strict = bid_success_by_agent({"rule": pd.DataFrame(_one_contract(40, 30))}, min_count=50)
    assert bool(strict["rule", "few"].iloc[0]) and strict.attrs["min_count"] == 50


def _one_contract(n: int, made: int) -> dict:
    return {
        "contract": ["Solo"] * n,
        "declarer": [0] * n,
        "made": [True] * made + [False] * (n - made),
    }


def test_the_cli_prints_the_same_table(compared, capsys):
    """``report --agents`` prints the table of compare_agents for the same run, any game."""
    game, size, options, table = compared
    argv = ["report", "--game", game, "--agents", ",".join(AGENTS), "--seed", str(SEED)]
    argv += [f"--{k}={v}" for k, v in size.items()]
    argv += [f"--{k}={v}" for k, v in options.items()]
    assert main([*argv, "--threads", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert format_agent_table(table) in out
    assert f"{game}" in out.splitlines()[0] and "per agent, seed 3" in out.splitlines()[0]


def test_the_plot_draws_each_rate_with_enough_deals(compared):
    game, _, _, table = compared
    fig = plot_agent_success(table)
    bars = list(fig.axes[0].patches)
    enough = sum(int(((table[a]["count"] >= MIN_DEALS) & table[a]["made_pct"].notna()).sum())
                 for a in AGENTS)  # fmt: skip
    assert len(bars) == enough
    note = fig.get_supxlabel()
    for agent in AGENTS:
        few = table[agent]["few"]
        assert (f"Under {agent}" in note or f"under {agent}" in note) == bool(few.any()), game


@pytest.mark.parametrize(
    ("game", "options"), [(t[1], t[3]) for t in TABLES], ids=[t[0] for t in TABLES]
)
def test_unknown_agent_is_refused_before_any_run(game, options, monkeypatch):
    def no_run(*args, **kwargs):
        raise AssertionError("simulated before checking the agents")

    monkeypatch.setattr("trickgym.sim.simulate", no_run)
    size = {"matches": 1} if game == "phat" else {"deals": 1}
    with pytest.raises(
        ValueError, match=r"unknown agent\(s\) 'nobody'; known agents: .*learnt.*rule"
    ):
        simulate_agents(game, ["rule", "nobody"], **size, **options)
    for bad, words in [("rule,rule", "named once"), ("", "non-empty"), ([], "names such as")]:
        with pytest.raises(ValueError, match=words):
            simulate_agents(game, bad, **size, **options)


@pytest.mark.parametrize("players", range(3, 9))
def test_troggu_learnt_needs_weights_of_its_table_size(players, monkeypatch):
    """A size with shipped weights is available; the others name the missing file, and
    nothing is simulated."""
    from trickgym.agents.learnt import shipped_weights

    missing = unavailable_agents("troggu", ["rule", "learnt"], players=players)
    if f"troggu-{players}p.npz" in shipped_weights():
        assert missing == {}
        return
    assert list(missing) == ["learnt"] and f"troggu-{players}p.npz" in missing["learnt"]
    monkeypatch.setattr("trickgym.sim.simulate", lambda *a, **k: pytest.fail("simulated"))
    with pytest.raises(ValueError, match=rf"agent 'learnt': .*troggu-{players}p\.npz"):
        simulate_agents("troggu", "rule,learnt", deals=1, players=players)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--agents", "rule,nobody"], "unknown agent(s) 'nobody'"),
        (["--game", "troggu", "--players", "4", "--agents", "rule,learnt"], "troggu-4p.npz"),
        (["--game", "phat", "--agents", "rule", "--deals", "5"], "pass --matches"),
        (["--agents", "rule", "runs/sw"], "not both"),
        (["--agents", "rule", "--out", "r.html"], "--out is for a DATASET"),
        (["runs/sw", "--deals", "5"], "--deals is for --agents"),
        ([], "give a DATASET"),
    ],
)
def test_report_errors(argv, words, capsys):
    assert main(["report", *argv, "--quiet"] if "--agents" in argv else ["report", *argv]) == 2
    assert words in capsys.readouterr().err


# Double dummy: tiny runs, and a small node budget for the point-trick games (a full
# solve takes seconds; a deal past the budget is counted unsolved, never guessed).
DD_TABLES = [
    ("solowhist", {"deals": 12}, {}),
    ("troggu", {"deals": 3}, {"players": 4, "dd_max_nodes": 20_000}),
    ("phat", {"matches": 1}, {"dd_max_nodes": 20_000}),
    ("pinochle", {"deals": 3}, {"dd_max_nodes": 20_000}),
]


@pytest.mark.parametrize(("game", "size", "options"), DD_TABLES, ids=[t[0] for t in DD_TABLES])
def test_dd_counts_the_rule_contracts_made_double_dummy(game, size, options):
    frames = simulate_agents(
        game, "rule,dd", seed=SEED, threads=1, progress=False, **size, **options
    )
    table = bid_success_by_agent(frames)
    rule, dd = table["rule"], table["dd"]
    assert list(dd.columns) == [*FIELDS, "unsolved"]
    bids = _bids(game, frames["dd"])
    split = failure_counts(bids)
    for contract, row in split.iterrows():  # declared contracts: solved + unsolved = all
        assert dd.loc[contract, "count"] + dd.loc[contract, "unsolved"] == row["count"]
        assert rule.loc[contract, "count"] == row["count"]
        solved = row["count"] - row["unsolved"]
        makeable = bids["dd_made"].astype("boolean").fillna(False)
        expected = int((makeable & (bids["contract"] == contract)).sum())
        assert (dd.loc[contract, "made"] if solved else 0) == expected
        if solved:
            assert np.isclose(dd.loc[contract, "made_pct"], 100 * expected / solved)
