"""Bid success rates with Wilson 95% intervals: by contract, seat position or hand-feature bins.

Every table has one row per group with ``count`` (deals), ``made`` (deals
whose declarer made the contract), ``made_pct`` and the Wilson interval
``ci_low_pct .. ci_high_pct`` in percent.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..checks import check_flag, check_int
from .columns import (
    by_columns,
    declared,
    declarer_payoff,
    plain_index,
    require,
    seat_position,
    with_game,
)
from .intervals import mean_interval, wilson_interval

__all__ = [
    "bid_counts",
    "bid_success",
    "bid_success_from_counts",
    "expected_payoff",
    "feature_bins",
    "success_by_feature",
    "success_by_position",
    "success_table",
]

# A feature with at most this many distinct integer values is tabled value by value.
MAX_DISTINCT_VALUES = 16


def _rates(grouped, made_col: str = "made") -> pd.DataFrame:
    """count, made, made % and its Wilson interval for every group."""
    table = pd.DataFrame(
        {"count": grouped.size(), "made": grouped[made_col].sum().astype(np.int64)}
    )
    low, high = wilson_interval(table["made"], table["count"])
    table["made_pct"] = 100 * table["made"] / table["count"]
    table["ci_low_pct"] = 100 * low
    table["ci_high_pct"] = 100 * high
    return plain_index(table)


def _declared_rows(df: pd.DataFrame, cols: list) -> pd.DataFrame:
    """The declared deals' group columns, ``made`` (bool) and the declarer's ``payoff``."""
    mask = declared(df)
    rows = df.loc[mask, cols].copy()
    rows["made"] = df.loc[mask, "made"].astype(bool)
    rows["payoff"] = declarer_payoff(df.loc[mask])
    return rows


def bid_counts(df: pd.DataFrame, by="contract") -> pd.DataFrame:
    """Per contract (or ``by`` columns): ``count`` deals, ``made`` deals, ``declared``.

    ``declared`` is whether the group has a declarer at all. The counts of
    parts of a run add up (``a.add(b, fill_value=0)``), so a huge run can be
    tabled chunk by chunk with :func:`bid_success_from_counts`.
    """
    cols = by_columns(by, df)
    require(df, *cols, "made", "declarer")
    grouped = df.groupby(cols, observed=True)
    counts = pd.DataFrame(
        {
            "count": grouped.size(),
            "made": grouped["made"].sum().astype(np.int64),
            "declared": grouped["declarer"].max() >= 0,
        }
    )
    return plain_index(counts)


def bid_success_from_counts(counts: pd.DataFrame) -> pd.DataFrame:
    """The :func:`bid_success` table from (possibly summed) :func:`bid_counts`."""
    table = counts[["count", "made"]].astype(np.int64)
    low, high = wilson_interval(table["made"], table["count"])
    table["made_pct"] = 100 * table["made"] / table["count"]
    table["ci_low_pct"] = 100 * low
    table["ci_high_pct"] = 100 * high
    has_declarer = counts["declared"].astype(bool)
    if not has_declarer.all():  # keep integer counts when every group has a declarer
        table.loc[~has_declarer, ["made", "made_pct", "ci_low_pct", "ci_high_pct"]] = np.nan
    return table


def bid_success(df: pd.DataFrame, by="contract") -> pd.DataFrame:
    """Count, made count, made % and 95% Wilson interval per contract (or per ``by`` columns).

    Every deal is counted. Groups without any declarer (``declarer == -1``: a
    passed-out Solo Whist deal, a Troggu Misère) have no success rate: their
    ``made`` and rates are nan.
    """
    return with_game(bid_success_from_counts(bid_counts(df, by)), df)


def success_table(df: pd.DataFrame, by) -> pd.DataFrame:
    """Success rates of the declared deals only, grouped by the column(s) ``by``.

    Rows without a declarer are left out (they have no bid to succeed).
    Adds the declarer's mean payoff ``mean_payoff``.
    """
    cols = by_columns(by, df)
    require(df, *cols, "made", "declarer")
    grouped = _declared_rows(df, cols).groupby(cols, observed=True)
    table = _rates(grouped)
    table["mean_payoff"] = grouped["payoff"].mean()
    return with_game(table, df)


def success_by_position(df: pd.DataFrame, by="contract") -> pd.DataFrame:
    """Success rates per contract and declarer's seat position after the dealer.

    Position 1 is the eldest hand (first to speak), 2 the next, and so on
    round the table to 0, the dealer (see
    :func:`trickgym.analysis.columns.seat_position`).
    """
    cols = by_columns(by, df)
    frame = df.assign(position=seat_position(df))
    return success_table(frame, [*cols, "position"])


def feature_bins(values: pd.Series, bins=None) -> pd.Series:
    """Group labels for a feature: its own values, or intervals.

    ``bins=None``: integer features with at most 16 distinct values keep
    their values; others are cut into 5 quantile bins. An int ``bins`` cuts
    into that many quantile bins; a sequence gives the bin edges
    (``pd.cut``, right-closed).
    """
    if not isinstance(values, pd.Series):
        values = pd.Series(values)
    if bins is None:
        numeric = pd.api.types.is_integer_dtype(values) or pd.api.types.is_bool_dtype(values)
        if numeric and values.nunique() <= MAX_DISTINCT_VALUES:
            return values
        bins = 5
    if isinstance(bins, int | np.integer) and not isinstance(bins, bool):
        if bins < 1:
            raise ValueError(f"bins must be >= 1, got {bins}")
        return pd.qcut(values, bins, duplicates="drop")
    try:
        return pd.cut(values, bins)
    except (TypeError, ValueError) as err:
        raise ValueError(
            f"bins must be None, a number of quantile bins or increasing edges, got {bins!r}: {err}"
        ) from None


def success_by_feature(
    df: pd.DataFrame,
    feature: str,
    by="contract",
    bins=None,
    min_count: int = 1,
    drop_missing: bool = True,
) -> pd.DataFrame:
    """Success rates per contract and bin of ``feature`` (any column, e.g. ``hf_trump_len``).

    ``bins`` as in :func:`feature_bins`; groups with fewer than
    ``min_count`` declared deals are dropped. ``by=None`` bins every
    declared deal together. ``drop_missing`` leaves out rows whose feature
    is nan or -1 (the simulator's "does not apply", e.g. trump length in a
    Misère).
    """
    if not isinstance(feature, str):
        raise ValueError(f"feature must be a column name, got {feature!r}")
    by_columns(feature, df, "feature")
    min_count = check_int("min_count", min_count, 0)
    drop_missing = check_flag("drop_missing", drop_missing)
    rows = df.loc[declared(df)]
    if drop_missing:
        values = rows[feature]
        rows = rows[values.notna() & (values != -1)]
    frame = rows.assign(**{feature: feature_bins(rows[feature], bins)})
    table = success_table(frame, [*by_columns(by or [], df), feature])
    return table[table["count"] >= min_count]


def expected_payoff(df: pd.DataFrame, by="contract") -> pd.DataFrame:
    """The declarer's expected payoff per contract, with a 95% interval, and when made or set.

    Columns: ``count``, ``mean_payoff``, ``ci_low``, ``ci_high`` (normal
    interval of the mean), ``std``, ``payoff_made`` and ``payoff_set``
    (mean payoff of the made and of the set deals), ``made_pct``.
    """
    cols = by_columns(by, df)
    require(df, *cols, "made", "declarer")
    rows = _declared_rows(df, cols)
    grouped = rows.groupby(cols, observed=True)
    table = pd.DataFrame(
        {
            "count": grouped.size(),
            "mean_payoff": grouped["payoff"].mean(),
            "std": grouped["payoff"].std(),
        }
    )
    table["ci_low"], table["ci_high"] = mean_interval(
        table["mean_payoff"], table["std"], table["count"]
    )
    table["payoff_made"] = rows[rows["made"]].groupby(cols, observed=True)["payoff"].mean()
    table["payoff_set"] = rows[~rows["made"]].groupby(cols, observed=True)["payoff"].mean()
    table["made_pct"] = 100 * grouped["made"].mean()
    return with_game(plain_index(table), df)[
        [
            "count",
            "mean_payoff",
            "ci_low",
            "ci_high",
            "std",
            "payoff_made",
            "payoff_set",
            "made_pct",
        ]
    ]
