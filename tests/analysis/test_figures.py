"""Tables and figures a reader can take at face value (issue 31).

Legends say what is counted, small samples are left out and named, stacked
shares never pass 100%, axis labels are words, titles say what is shown.
Synthetic rows only: nothing here compiles a kernel.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from trickgym import analysis as A
from trickgym.analysis import plots
from trickgym.analysis.failures import FAILURE_CATEGORIES
from trickgym.sim.features import FEATURE_COLUMNS

CONTRACTS = ["Passed out", "Prop & Cop", "Solo", "Misère", "Abundance in Trumps"]


def _whist_rows(n: int = 600, seed: int = 0, rare: int = 1) -> pd.DataFrame:
    """Solo Whist-like rows: ``rare`` deals of Abundance in Trumps, the rest spread out."""
    rng = np.random.default_rng(seed)
    contract = rng.choice(CONTRACTS[:4], size=n, p=[0.1, 0.5, 0.3, 0.1]).astype(object)
    contract[:rare] = "Abundance in Trumps"
    declarer = np.where(contract == "Passed out", -1, rng.integers(0, 4, n))
    trump_len = np.where(declarer >= 0, rng.integers(2, 9, n), -1)
    made = (declarer >= 0) & (rng.random(n) < 0.2 + 0.08 * trump_len)
    payoff = np.where(made, 10, -10)
    frame = {
        "deal": np.arange(n),
        "dealer": rng.integers(0, 4, n),
        "turn_up": rng.integers(0, 52, n),
        "contract": pd.Categorical(contract, categories=CONTRACTS),
        "declarer": declarer,
        "made": made,
        "declarer_tricks": rng.integers(0, 14, n),
        "hf_trump_len": trump_len.astype(np.int8),
        "hf_trump_top": np.where(declarer >= 0, rng.integers(0, 5, n), -1).astype(np.int8),
    }
    for seat in range(4):
        frame[f"payoff_{seat}"] = np.where(declarer == seat, payoff, -payoff / 3)
    return pd.DataFrame(frame)


def _drawn(fig) -> str:
    """Every text of a figure: title, footnote, axis and tick labels, legend."""
    fig.draw_without_rendering()  # lays the figure out, as saving it does
    texts = [t.get_text() for t in fig.findobj(matplotlib.text.Text)]
    return "\n".join(texts)


def _ticks(ax) -> list[str]:
    return [t.get_text() for t in ax.get_yticklabels()]


# The bid table's legend ------------------------------------------------------------------


def test_bid_table_says_what_count_and_made_pct_count():
    rows = _whist_rows()
    table = A.bid_success(rows)
    text = A.format_bid_table(table)
    legend = " ".join(text.splitlines()[len(table) + 1 :])
    assert "count: deals on which this was the contract played (the winning bid)" in legend
    assert "made %: share of those contracts the declaring side made" in legend
    assert "95% Wilson interval" in legend
    assert "Passed out: no declarer, so no rate." in legend
    # The definitions the legend states are the table's own.
    solo = rows[rows["contract"] == "Solo"]
    assert table.loc["Solo", "count"] == len(solo)
    assert table.loc["Solo", "made_pct"] == pytest.approx(100 * solo["made"].mean())
    # Without a no-declarer row there is nothing to explain.
    assert "no rate" not in A.bid_table_legend(table.drop(index="Passed out"))


def test_cli_and_report_show_the_same_legend():
    from trickgym.cli import _bid_table

    rows = _whist_rows()
    table = A.bid_success(rows)
    text, n = _bid_table([rows.iloc[:100], rows.iloc[100:]])
    assert n == len(rows) and text.endswith(A.format_bid_table(table).splitlines()[-1])
    assert "count: deals on which" in text and "no declarer, so no rate" in text
    report = A.html_report(rows)
    assert A.bid_table_legend(table, count_name="deals").replace("'", "&#x27;") in report


# Failures: disjoint shares, a legend beside the bars --------------------------------------


def _every_outcome() -> pd.DataFrame:
    """Two deals of every (made, dd verdict) pair per contract, unsolved ones included."""
    made, dd = [], []
    for m in (True, False):
        for verdict in (True, False, None):
            made += [m, m]
            dd += [verdict, verdict]
    n = len(made)
    return pd.DataFrame(
        {
            "contract": ["Misère"] * n + ["Solo"] * n,
            "declarer": [0] * (2 * n),
            "made": made * 2,
            "dd_made": pd.array(dd * 2, dtype="boolean"),
        }
    )


def _category(made: bool, dd) -> str:
    """Each deal's one outcome, written out case by case."""
    if made:
        if dd is None:
            return "made_unsolved"  # never shown as makeable (it was, before issue 32)
        return "defenders_errors" if dd is False else "made"
    if dd is None:
        return "failed_unsolved"
    return "misplayed" if dd else "not_makeable"


def test_failure_shares_are_disjoint_and_sum_to_one():
    df = _every_outcome()
    split = A.failure_split(df)
    # The old stacked bar (made + misplayed + not makeable + unsolved) passed 100%.
    old = split[["made_pct", "misplayed_pct", "not_makeable_pct", "unsolved_pct"]].sum(axis=1)
    assert (old > 100).all()
    shares = A.failure_shares(split)
    assert list(shares.columns) == list(FAILURE_CATEGORIES)
    np.testing.assert_allclose(shares.sum(axis=1), 1.0)
    categories = [_category(m, None if pd.isna(d) else bool(d)) for m, d in zip(
        df["made"], df["dd_made"], strict=True)]  # fmt: skip
    expected = pd.crosstab(df["contract"], pd.Series(categories, name="c"), normalize="index")
    for name in shares.columns:
        assert shares.loc["Misère", name] == pytest.approx(expected.loc["Misère", name])
    # Summed counts (the CLI's) give the same shares.
    counts = A.failure_counts(df.iloc[:5]).add(A.failure_counts(df.iloc[5:]), fill_value=0)
    pd.testing.assert_frame_equal(A.failure_shares(counts), shares)
    with pytest.raises(ValueError, match="failure_counts"):
        A.failure_shares(A.bid_success(df))


def test_failure_plot_bars_end_at_100_and_the_legend_covers_none():
    df = pd.concat([_every_outcome()] * 3, ignore_index=True)  # 36 deals per contract
    fig = A.plot_failure_shares(A.failure_split(df))
    ax = fig.axes[0]
    fig.draw_without_rendering()  # lays the figure out, as saving it does
    bars = [p for p in ax.patches if p.get_width() > 0]
    ends = {round(p.get_y(), 6): 0.0 for p in bars}
    for p in bars:
        ends[round(p.get_y(), 6)] = max(ends[round(p.get_y(), 6)], p.get_x() + p.get_width())
    assert len(ends) == 2 and all(v == pytest.approx(100) for v in ends.values())
    legend = fig.legends[0].get_window_extent()
    assert not any(legend.overlaps(p.get_window_extent()) for p in bars)
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels == list(FAILURE_CATEGORIES.values())


# Small samples: one rule, applied by every plot --------------------------------------------


def test_drop_small_samples_names_what_it_leaves_out():
    table = pd.DataFrame({"count": [500, 1, 29, 30]}, index=["Solo", "AiT", "Misère", "Cop"])
    kept, note = A.drop_small_samples(table, "count")
    assert list(kept.index) == ["Solo", "Cop"]
    assert note == f"left out, fewer than {A.MIN_DEALS} deals: AiT (n=1), Misère (n=29)"
    kept, note = A.drop_small_samples(table, "count", 1)
    assert kept is table and note == ""
    with pytest.raises(ValueError, match="min_count"):
        A.drop_small_samples(table, "count", 0)


def test_plot_success_leaves_out_a_one_deal_bar_and_says_so():
    rows = _whist_rows(rare=1)
    fig = A.plot_success(A.bid_success(rows))
    ticks = _ticks(fig.axes[0])
    assert not any("Abundance in Trumps" in t for t in ticks)
    assert any(t.startswith("Solo  (n=") for t in ticks)
    text = _drawn(fig)
    assert "Abundance in Trumps (n=1)" in text and "fewer than 30 deals" in text
    assert "No declarer, so no rate: Passed out" in text
    # With enough deals the bar is drawn.
    ticks = _ticks(A.plot_success(A.bid_success(_whist_rows(rare=40))).axes[0])
    assert any(t.startswith("Abundance in Trumps  (n=40)") for t in ticks)


def test_plot_comparison_keeps_the_axis_of_the_rows_with_data():
    a, b = _whist_rows(seed=1, rare=1), _whist_rows(seed=2, rare=1)
    table = A.compare_success(a, b, labels=("bold", "default"))
    assert table.loc["Abundance in Trumps", "diff_high_pct"] - table.loc[
        "Abundance in Trumps", "diff_low_pct"] > 100  # fmt: skip
    fig = A.plot_comparison(table)
    ax = fig.axes[0]
    low, high = ax.get_xlim()
    assert high - low < 60  # the n=1 row's ±80 no longer sets the scale
    assert not any("Abundance in Trumps" in t for t in _ticks(ax))
    assert "Abundance in Trumps (n=1)" in _drawn(fig)
    assert "Made %: bold minus default" in ax.get_title()


def test_every_plot_applies_the_rule():
    rows = _whist_rows(rare=3)
    payoff = A.plot_expected_payoff(A.expected_payoff(rows))
    assert not any("Abundance" in t for t in _ticks(payoff.axes[0]))
    assert "Abundance in Trumps (n=3)" in _drawn(payoff)
    feature = A.plot_feature_success(A.success_by_feature(rows, "hf_trump_len"))
    assert "Abundance in Trumps" not in [t.get_text() for t in feature.axes[0].get_legend().texts]
    assert "fewer than 30 deals" in _drawn(feature)
    race = pd.DataFrame(
        {"count": [5, 100], "ns_win_pct": [50.0, 60], "ci_low_pct": [20.0, 50],
         "ci_high_pct": [80.0, 70]}, index=["-60..-30", "-10..10"])  # fmt: skip
    fig = A.plot_race(race)
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["-10..10"]
    assert "-60..-30 (n=5)" in _drawn(fig)


# Words, not column names -------------------------------------------------------------------


def test_every_feature_column_has_words():
    for game, columns in FEATURE_COLUMNS.items():
        for column in columns:
            words = A.COLUMN_LABELS.get(column)
            assert words, f"{game}: {column} has no label"
            assert "_" not in words and column not in words


def test_plots_label_their_axes_in_words():
    rows = _whist_rows()
    for feature in ("hf_trump_len", "hf_trump_top"):
        fig = A.plot_feature_success(A.success_by_feature(rows, feature))
        ax = fig.axes[0]
        assert ax.get_xlabel() == A.column_label(feature)
        assert A.column_label(feature) in ax.get_title()
        assert "hf_" not in _drawn(fig)
    scatter = A.plot_made_scatter(rows.assign(bid=rows["hf_trump_len"] * 10), "hf_trump_len")
    ax = scatter.axes[0]
    assert (ax.get_xlabel(), ax.get_ylabel()) == (
        A.column_label("hf_trump_len"),
        A.column_label("bid"),
    )
    assert "hf_" not in _drawn(scatter)
    assert A.column_label("my_column") == "my column"  # a user's own column reads as itself


# Titles that say what is shown ------------------------------------------------------------


def test_calibration_title_names_the_predictor():
    rows = _whist_rows(n=1500)
    model = A.out_of_fold_predictions(rows, ["hf_trump_len", "hf_trump_top"], folds=3)
    title = A.plot_calibration(A.calibration_table(rows, model)).axes[0].get_title()
    assert "hand-feature model" in title and "Calibration of bidding" not in title
    own = rows.assign(p_made=0.7)
    title = A.plot_calibration(A.calibration_table(own, "p_made")).axes[0].get_title()
    assert "p_made" in title and "agents' own estimate" in title


def test_made_scatter_draws_the_failed_contracts_on_top():
    rows = _whist_rows(n=800).assign(bid=lambda d: 10 * d["hf_trump_len"])
    fig = A.plot_made_scatter(rows, "hf_trump_len")
    ax = fig.axes[0]
    made, failed = ax.collections
    assert failed.get_zorder() > made.get_zorder()
    declared = rows[rows["declarer"] >= 0]
    n_failed = int((~declared["made"]).sum())
    assert len(failed.get_offsets()) == n_failed
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == [
        f"made: {len(declared) - n_failed:,} contracts",
        f"failed (drawn on top): {n_failed:,} contracts",
    ]
    assert "failed drawn over made" in _drawn(fig)


def test_default_titles_say_what_is_shown():
    rows = _whist_rows()
    assert A.plot_success(A.bid_success(rows)).axes[0].get_title() == (
        "Made % of each contract played"
    )
    assert "mean payoff" in A.plot_expected_payoff(A.expected_payoff(rows)).axes[0].get_title()
    assert plots.MIN_DEALS == A.MIN_DEALS == 30
