"""Compare two simulation datasets: agent A against agent B, shuffled against gathered packs."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .columns import by_columns, declared, declarer_payoff, plain_index, require, with_game
from .intervals import Z95, newcombe_interval

__all__ = ["compare_payoff", "compare_success"]


def _check_labels(labels) -> tuple[str, str]:
    if len(labels) != 2 or labels[0] == labels[1]:
        raise ValueError(f"labels must be two different names, got {labels!r}")
    return str(labels[0]), str(labels[1])


def compare_success(a: pd.DataFrame, b: pd.DataFrame, by="contract", labels=("a", "b")):
    """Success rates and bid frequencies of two datasets side by side, with their differences.

    Per group of ``by`` (declared deals only): ``count_<a>``, ``made_pct_<a>``
    and the same for ``b``; ``diff_pct`` = made % of ``a`` minus that of
    ``b`` with its 95% Newcombe interval ``diff_low_pct .. diff_high_pct``
    (an interval excluding 0 is a difference the data show); and
    ``freq_pct_<a>``/``freq_pct_<b>``, the share of all deals bid at each
    contract, with ``freq_diff_pct`` and its interval.
    """
    la, lb = _check_labels(labels)
    cols = by_columns(by)
    parts = {}
    totals = {}
    for label, df in ((la, a), (lb, b)):
        by_columns(by, df)
        require(df, *cols, "made", "declarer")
        rows = df[declared(df)]
        grouped = rows.groupby(cols, observed=True)
        parts[label] = pd.DataFrame(
            {"count": grouped.size(), "made": grouped["made"].sum().astype(np.int64)}
        )
        totals[label] = len(df)
    table = (
        parts[la].add_suffix(f"_{la}").join(parts[lb].add_suffix(f"_{lb}"), how="outer").fillna(0)
    )
    out = pd.DataFrame(index=table.index)
    for label in (la, lb):
        n, k = table[f"count_{label}"], table[f"made_{label}"]
        out[f"count_{label}"] = n.astype(np.int64)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[f"made_pct_{label}"] = 100 * k / n.where(n > 0)
        out[f"freq_pct_{label}"] = 100 * n / totals[label] if totals[label] else np.nan
    low, high = newcombe_interval(
        table[f"made_{la}"], table[f"count_{la}"], table[f"made_{lb}"], table[f"count_{lb}"]
    )
    out["diff_pct"] = out[f"made_pct_{la}"] - out[f"made_pct_{lb}"]
    out["diff_low_pct"], out["diff_high_pct"] = 100 * low, 100 * high
    flow, fhigh = newcombe_interval(
        table[f"count_{la}"], totals[la], table[f"count_{lb}"], totals[lb]
    )
    out["freq_diff_pct"] = out[f"freq_pct_{la}"] - out[f"freq_pct_{lb}"]
    out["freq_diff_low_pct"], out["freq_diff_high_pct"] = 100 * flow, 100 * fhigh
    return with_game(plain_index(out), a)


def compare_payoff(a: pd.DataFrame, b: pd.DataFrame, by="contract", labels=("a", "b")):
    """The declarer's mean payoff per group in two datasets, and the difference with a 95% interval.

    The interval of the difference is the normal (Welch) one:
    ``diff ± 1.96 sqrt(s_a²/n_a + s_b²/n_b)``.
    """
    la, lb = _check_labels(labels)
    cols = by_columns(by)
    stats = {}
    for label, df in ((la, a), (lb, b)):
        by_columns(by, df)
        require(df, *cols, "made", "declarer")
        rows = df.loc[declared(df), cols].assign(payoff=declarer_payoff(df[declared(df)]))
        grouped = rows.groupby(cols, observed=True)["payoff"]
        stats[label] = pd.DataFrame(
            {"count": grouped.size(), "mean": grouped.mean(), "var": grouped.var()}
        )
    table = stats[la].add_suffix(f"_{la}").join(stats[lb].add_suffix(f"_{lb}"), how="outer")
    out = pd.DataFrame(index=table.index)
    for label in (la, lb):
        out[f"count_{label}"] = table[f"count_{label}"].fillna(0).astype(np.int64)
        out[f"mean_payoff_{label}"] = table[f"mean_{label}"]
    out["diff"] = out[f"mean_payoff_{la}"] - out[f"mean_payoff_{lb}"]
    se = np.sqrt(
        table[f"var_{la}"] / table[f"count_{la}"] + table[f"var_{lb}"] / table[f"count_{lb}"]
    )
    out["diff_low"] = out["diff"] - Z95 * se  # nan when a side has fewer than 2 deals
    out["diff_high"] = out["diff"] + Z95 * se
    return plain_index(out)
