"""trickgym.analysis: intervals against published values, tables against direct counts."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from trickgym import analysis as A
from trickgym.sim import simulate


@pytest.fixture(scope="module")
def whist_rule():
    return simulate("solowhist", deals=3000, agents="rule", seed=11)


@pytest.fixture(scope="module")
def whist_random():
    return simulate("solowhist", deals=3000, agents="random", seed=11)


@pytest.fixture(scope="module")
def pinochle_rule():
    return simulate("pinochle", deals=600, agents="rule", seed=3)


@pytest.fixture(scope="module")
def phat_rule():
    return simulate("phat", matches=8, agents="rule", seed=5)


# Intervals ---------------------------------------------------------------------------------


def test_wilson_matches_published_value():
    # Newcombe (1998), Stat. Med. 17:857, example: 81/263 -> 0.2553 .. 0.3662.
    low, high = A.wilson_interval(81, 263)
    assert round(float(low), 4) == 0.2553
    assert round(float(high), 4) == 0.3662
    low, high = A.wilson_interval(0, 0)
    assert np.isnan(low) and np.isnan(high)


def test_newcombe_matches_published_values():
    # Newcombe (1998) method 10, examples (a) 56/70 - 48/80 and (c) 9/10 - 3/10.
    low, high = A.newcombe_interval(56, 70, 48, 80)
    assert (round(float(low), 4), round(float(high), 4)) == (0.0524, 0.3339)
    low, high = A.newcombe_interval(9, 10, 3, 10)
    assert (round(float(low), 4), round(float(high), 4)) == (0.1705, 0.8090)


def test_intervals_cover_about_95_percent():
    rng = np.random.default_rng(0)
    n1, n2, p1, p2, reps = 60, 90, 0.7, 0.55, 4000
    k1 = rng.binomial(n1, p1, reps)
    k2 = rng.binomial(n2, p2, reps)
    low, high = A.wilson_interval(k1, n1)
    assert 0.93 < np.mean((low <= p1) & (p1 <= high)) < 0.975
    low, high = A.newcombe_interval(k1, n1, k2, n2)
    assert 0.93 < np.mean((low <= p1 - p2) & (p1 - p2 <= high)) < 0.975


def test_mean_interval_is_normal_half_width():
    low, high = A.mean_interval(10.0, 4.0, 16)
    assert np.isclose(high - 10.0, A.intervals.Z95 * 1.0)
    assert np.isclose(10.0 - low, A.intervals.Z95 * 1.0)
    assert np.isnan(A.mean_interval(1.0, 0.0, 1)[0])


# Success tables ----------------------------------------------------------------------------


def test_bid_success_hand_built_frame():
    df = pd.DataFrame(
        {
            "contract": ["Solo", "Solo", "Solo", "Passed out", "Misère"],
            "declarer": [0, 2, 3, -1, 1],
            "made": [True, False, True, False, False],
        }
    )
    table = A.bid_success(df)
    assert table.loc["Solo", "count"] == 3 and table.loc["Solo", "made"] == 2
    low, high = A.wilson_interval(2, 3)
    assert np.isclose(table.loc["Solo", "ci_low_pct"], 100 * low)
    assert np.isclose(table.loc["Solo", "ci_high_pct"], 100 * high)
    assert np.isnan(table.loc["Passed out", "made_pct"])
    assert table.loc["Misère", "made_pct"] == 0


def test_missing_column_is_named():
    with pytest.raises(ValueError, match="'made'"):
        A.bid_success(pd.DataFrame({"contract": ["Solo"], "declarer": [0]}))
    with pytest.raises(ValueError, match="hf_nothing"):
        A.success_by_feature(pd.DataFrame({"declarer": [0], "made": [True]}), "hf_nothing")


def test_declarer_payoff_is_the_declarers_column(whist_rule, pinochle_rule):
    pay = A.declarer_payoff(whist_rule)
    rows = whist_rule[whist_rule["declarer"] >= 0]
    expect = [rows.iloc[i][f"payoff_{d}"] for i, d in enumerate(rows["declarer"])]
    assert np.array_equal(pay[rows.index].to_numpy(), np.array(expect, dtype=float))
    assert pay[whist_rule["declarer"] < 0].isna().all()
    pin = A.declarer_payoff(pinochle_rule)
    team_ns = pinochle_rule["declarer"] % 2 == 0
    declared = pinochle_rule["declarer"] >= 0
    assert (pin[declared & team_ns] == pinochle_rule.loc[declared & team_ns, "score_ns"]).all()
    assert (pin[declared & ~team_ns] == pinochle_rule.loc[declared & ~team_ns, "score_ew"]).all()


def test_seat_position_counts(whist_rule):
    table = A.success_by_position(whist_rule)
    rows = whist_rule[whist_rule["declarer"] >= 0]
    pos = (rows["declarer"] - rows["dealer"]) % 4
    direct = rows.groupby([rows["contract"], pos], observed=True).size()
    assert table["count"].sum() == len(rows)
    for (contract, position), n in direct.items():
        assert table.loc[(contract, position), "count"] == n
    assert set(table.index.get_level_values("position")) <= {0, 1, 2, 3}


def test_success_by_feature_matches_groupby(whist_rule):
    assert "hf_trump_len" in whist_rule.columns, "the simulator's hand features are missing"
    table = A.success_by_feature(whist_rule, "hf_trump_len")
    rows = whist_rule[(whist_rule["declarer"] >= 0) & (whist_rule["hf_trump_len"] >= 0)]
    direct = rows.groupby(["contract", "hf_trump_len"], observed=True)["made"].agg(["size", "sum"])
    assert table["count"].sum() == len(rows)
    for key, row in direct.iterrows():
        assert table.loc[key, "count"] == row["size"] and table.loc[key, "made"] == row["sum"]
    # Long trumps make a Solo more often than short ones, with intervals that show it.
    solo = table.loc["Solo"]
    assert solo.loc[solo.index >= 6, "made"].sum() / solo.loc[solo.index >= 6, "count"].sum() > (
        solo.loc[solo.index <= 3, "made"].sum() / solo.loc[solo.index <= 3, "count"].sum()
    )


def test_feature_bins():
    values = pd.Series(np.arange(100, dtype=np.int64))
    assert A.feature_bins(values).nunique() == 5  # many values: quantile bins
    assert A.feature_bins(values % 4).equals(values % 4)  # few values: kept
    assert A.feature_bins(values, bins=[0, 50, 100]).nunique() == 2
    with pytest.raises(ValueError, match="bins"):
        A.feature_bins(values, bins=0)


def test_expected_payoff(whist_rule):
    table = A.expected_payoff(whist_rule)
    pay = A.declarer_payoff(whist_rule)
    solo = whist_rule["contract"] == "Solo"
    assert np.isclose(table.loc["Solo", "mean_payoff"], pay[solo].mean())
    assert (
        table.loc["Solo", "ci_low"]
        < table.loc["Solo", "mean_payoff"]
        < table.loc["Solo", "ci_high"]
    )
    assert table.loc["Solo", "payoff_made"] > 0 > table.loc["Solo", "payoff_set"]
    assert "Passed out" not in table.index


# Calibration -------------------------------------------------------------------------------


def _synthetic(n=20_000, seed=1):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    p = 1 / (1 + np.exp(-(0.5 + 1.5 * x)))
    df = pd.DataFrame(
        {"contract": "Solo", "declarer": 0, "hf_x": x, "made": rng.random(n) < p, "p_true": p}
    )
    return df


def test_calibration_of_true_and_wrong_probabilities():
    df = _synthetic()
    good = A.calibration_table(df, "p_true")
    assert good["count"].sum() == len(df)
    assert good.attrs["ece"] < 2.0  # points of %
    bad = A.calibration_table(df, np.clip(df["p_true"] + 0.2, 0, 1).to_numpy())
    assert bad.attrs["ece"] > 10.0
    assert bad.attrs["brier"] > good.attrs["brier"]
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        A.calibration_table(df, df["p_true"].to_numpy() * 2)


def test_logistic_model_recovers_the_truth():
    df = _synthetic()
    model = A.fit_success_model(df, "hf_x", ridge=1e-6)
    beta = model.coefficients["Solo"]
    scale = model.scales["Solo"][0]
    assert abs(beta[1] / scale - 1.5) < 0.1
    assert np.abs(model.predict(df) - df["p_true"]).max() < 0.05


def test_out_of_fold_predictions_beat_the_base_rate(whist_rule):
    features = A.feature_columns(whist_rule)
    predicted = A.out_of_fold_predictions(whist_rule, features, folds=4)
    declared = whist_rule["declarer"] >= 0
    assert predicted[declared].notna().all() and predicted[~declared].isna().all()
    table = A.calibration_table(whist_rule, predicted)
    made = whist_rule.loc[declared, "made"].to_numpy(dtype=float)
    base = A.bid_success(whist_rule)["made_pct"] / 100
    base_brier = np.mean(
        (whist_rule.loc[declared, "contract"].map(base).to_numpy(float) - made) ** 2
    )
    assert table.attrs["brier"] < base_brier


# Comparison --------------------------------------------------------------------------------


def test_compare_rule_with_random(whist_rule, whist_random):
    table = A.compare_success(whist_rule, whist_random, labels=("rule", "random"))
    assert {"diff_pct", "diff_low_pct", "diff_high_pct", "freq_diff_pct"} <= set(table.columns)
    # The rule agent bids Abundance Declared (never made by random players) far less often.
    row = table.loc["Abundance Declared"]
    assert row["freq_diff_high_pct"] < 0
    solo = table.loc["Solo"]
    assert solo["diff_low_pct"] <= solo["diff_pct"] <= solo["diff_high_pct"]
    counts = whist_rule[whist_rule["declarer"] >= 0]["contract"].value_counts()
    assert table["count_rule"].sum() == counts.sum()
    with pytest.raises(ValueError, match="labels"):
        A.compare_success(whist_rule, whist_random, labels=("x", "x"))


def test_compare_a_dataset_with_itself(whist_rule):
    table = A.compare_success(whist_rule, whist_rule)
    rated = table.dropna(subset=["diff_pct"])
    assert (rated["diff_pct"] == 0).all()
    assert ((rated["diff_low_pct"] < 0) & (rated["diff_high_pct"] > 0)).all()
    pay = A.compare_payoff(whist_rule, whist_rule)
    assert (pay["diff"] == 0).all()


# Phat --------------------------------------------------------------------------------------


def test_pitch_frame_and_race(phat_rule):
    pitches = A.pitch_frame(phat_rule)
    assert (pitches["tricks"] == 13).all()
    ns = pitches["pitcher"] % 2 == 0
    margin = np.where(
        ns, pitches["phat_ns"] - pitches["phat_ew"], pitches["phat_ew"] - pitches["phat_ns"]
    )
    assert (pitches["made"] == (margin > 0)).all()
    table = A.bid_success(pitches)
    assert table["count"].sum() == len(pitches)
    race = A.race_table(phat_rule)
    assert race["count"].sum() == (~phat_rule["game_over"]).sum()


# Plots, report, dataset --------------------------------------------------------------------


def test_plots_return_figures(whist_rule, whist_random, phat_rule):
    figures = [
        A.plot_success(A.bid_success(whist_rule)),
        A.plot_feature_success(A.success_by_feature(whist_rule, "hf_trump_len")),
        A.plot_expected_payoff(A.expected_payoff(whist_rule)),
        A.plot_calibration(A.calibration_table(_synthetic(2000), "p_true")),
        A.plot_comparison(A.compare_success(whist_rule, whist_random)),
        A.plot_race(A.race_table(phat_rule)),
    ]
    for fig in figures:
        assert isinstance(fig, Figure) and fig.axes
    with pytest.raises(ValueError, match="calibration_table"):
        A.plot_calibration(A.bid_success(whist_rule))


def test_report_is_self_contained(whist_rule, tmp_path):
    path = A.write_report(whist_rule, tmp_path / "r.html")
    text = path.read_text()
    assert text.count("data:image/png;base64,") >= 4
    assert "http://" not in text and "https://" not in text
    assert "Solo" in text and "hf_trump_len" in text


def test_load_dataset_file_and_folder(whist_rule, tmp_path):
    whist_rule.to_parquet(tmp_path / "one.parquet", index=False)
    one = A.load_dataset(tmp_path / "one.parquet")
    assert len(one) == len(whist_rule)
    # A simulator run folder (read through read_dataset, which verifies it).
    folder = tmp_path / "run"
    simulate("solowhist", deals=3000, agents="rule", seed=11, chunk=1000, out=folder)
    both = A.load_dataset(folder)
    assert both["deal"].tolist() == whist_rule["deal"].tolist()
    assert both.attrs["metadata"]["_trickgym_run.json"]["game"] == "solowhist"
    assert A.detect_game(both) == "solowhist"
    with pytest.raises(ValueError, match="does not exist"):
        A.load_dataset(tmp_path / "nothing")


def test_tables_select_contracts_by_label(whist_rule):
    # Plain index levels: .loc with a list of labels picks those rows (pandas 3.1 gets
    # categorical MultiIndex levels with unused categories wrong).
    for table in (
        A.success_by_position(whist_rule),
        A.success_by_feature(whist_rule, "hf_trump_len"),
        A.expected_payoff(whist_rule, by=["contract", "dealer"]),
    ):
        picked = table.loc[["Solo"]]
        assert set(picked.index.get_level_values(0)) == {"Solo"}
        assert picked["count"].sum() == table.loc["Solo"]["count"].sum()


def test_docstring_examples():
    import doctest

    import trickgym.analysis.intervals

    for module in (A, trickgym.analysis.intervals):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0
