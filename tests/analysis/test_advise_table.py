"""The advisor's CLI table (``format_advice``): columns filled or left out, never empty or repeated.

Built from small hand-made frames shaped as ``advise_state`` returns them,
so no kernel is compiled here.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from trickgym.analysis import format_advice


def _frame(contracts, game, play, **cols):
    n = len(contracts)
    base = {
        "contract": contracts,
        "trumps": [""] * n,
        "deals": [100] * n,
        "played": [0] + [100] * (n - 1),
        "made": [np.nan] + [50.0] * (n - 1),
        "made_pct": [np.nan] + [50.0 - i for i in range(n - 1)],
        "ci_low_pct": [np.nan] + [40.0] * (n - 1),
        "ci_high_pct": [np.nan] + [60.0] * (n - 1),
        "exact": [0] + [100] * (n - 1),
        "expected_payoff": [float(-i) for i in range(n)],
        "unsolved": [0] * n,
        "best": [True] + [False] * (n - 1),
    }
    df = pd.DataFrame(base | cols)
    df.attrs.update(game=game, play=play)
    return df


def _split(text):
    lines = text.splitlines()
    end = lines.index("")
    return lines[0], lines[1:end], lines[end + 1 :]


def test_constant_and_empty_columns_are_not_table_columns():
    """Pinochle by rule play: one mean for every bid, no trumps, nothing unsolved."""
    df = _frame(["Pass", "250", "260", "270"], "pinochle", "rule",
                mean_points=[np.nan, 338.3, 338.3, 338.3])  # fmt: skip
    head, rows, after = _split(format_advice(df))
    assert head.split() == ["contract", "made", "%", "95%", "Wilson", "E[payoff]"]
    assert len(rows) == 4 and "338.30" not in "\n".join(rows)
    assert "mean points: 338.30 on every row but Pass" in after
    assert "deals: 100 on every row" in after
    legend = " ".join(line.strip() for line in after)  # the legend wraps
    assert "saved meld plus counters reach the bid" in legend  # what "made" means here
    assert "unsolved" not in legend and "trumps" not in legend


def test_unsolved_is_shown_for_solved_deals_only():
    df = _frame(["Pass", "Solo"], "solowhist", "dd", trumps=["", "S"], deals=[97, 100],
                unsolved=[3, 0], mean_tricks=[np.nan, 6.5])  # fmt: skip
    head, rows, _after = _split(format_advice(df))
    assert "unsolved" in head and rows[0].split()[-4:] == ["+0.00", "3", "<-", "best"]
    assert "deals" in head and "mean tricks" in head  # they differ between rows
    df.attrs["play"] = "rule"
    assert "unsolved" not in format_advice(df)


def test_solo_whist_dd_without_exact_counts_says_why_mean_tricks_is_missing():
    df = _frame(["Pass", "Prop", "Solo"], "solowhist", "dd", trumps=["", "H", "S"],
                exact=[0, 0, 64], mean_tricks=[np.nan] * 3)  # fmt: skip
    df.attrs["exact_nodes"] = 20_000
    head, _rows, after = _split(format_advice(df))
    assert "mean" not in head and "trumps" in head
    legend = " ".join(line.strip() for line in after)
    assert "mean tricks: left out" in legend and "Solo 64 of 100" in legend
    assert "--exact-nodes 20,000" in legend


def test_made_pct_stays_when_calls_tie():
    df = _frame(["Pass", "Tapp", "Solo"], "troggu", "rule", mean_points=[np.nan, 100.0, 90.0],
                made_pct=[np.nan, 100.0, 100.0])  # fmt: skip
    head, rows, _after = _split(format_advice(df))
    assert "made %" in head and rows[1].count("100.0%") == 1
