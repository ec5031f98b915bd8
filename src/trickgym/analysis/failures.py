"""Why contracts fail: not makeable double dummy, or misplayed.

Rows of ``simulate(..., dd=True)`` carry ``dd_made``: whether the contract
played was makeable with perfect play by all four hands (a nullable
boolean; ``<NA>`` where the solver ran out of its node budget). Against the
real result ``made`` every declared deal falls in one of:

- made and makeable;
- ``defenders_errors``: made, though not makeable (the defence went wrong);
- ``not_makeable``: failed, and no play could have made it;
- ``misplayed``: failed, though makeable (the declaring side went wrong);
- ``unsolved``: ``dd_made`` unknown (past the solver's budget).

Double dummy every hand sees every card, so "makeable" is an upper bound of
what real (single-dummy) play can hope for: a "misplayed" deal may need a
lucky guess, not only care.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .columns import by_columns, declared, plain_index, require
from .intervals import wilson_interval

__all__ = ["FAILURE_COUNTS", "failure_counts", "failure_split", "failure_split_from_counts"]

#: The count columns of :func:`failure_counts`, in order.
FAILURE_COUNTS = (
    "count",
    "made",
    "failed",
    "not_makeable",
    "misplayed",
    "defenders_errors",
    "unsolved",
)


def failure_counts(df: pd.DataFrame, by="contract") -> pd.DataFrame:
    """Per contract (or ``by`` columns), counts of the declared deals by result and dd verdict.

    Columns :data:`FAILURE_COUNTS`: ``count`` declared deals, ``made``,
    ``failed``, ``not_makeable`` (failed, not makeable double dummy),
    ``misplayed`` (failed, makeable), ``defenders_errors`` (made, not
    makeable) and ``unsolved`` (``dd_made`` unknown). Needs ``made``,
    ``declarer`` and ``dd_made`` (from ``simulate(..., dd=True)``). Counts of
    parts of a run add up (``a.add(b, fill_value=0)``); see
    :func:`failure_split_from_counts`.
    """
    cols = by_columns(by, df)
    require(df, *cols, "made", "declarer", "dd_made", hint=" (simulate with dd=True, CLI --dd)")
    rows = df.loc[declared(df), cols].copy()
    made = df.loc[rows.index, "made"].astype(bool).to_numpy()
    dd = df.loc[rows.index, "dd_made"].astype("boolean")
    known = dd.notna().to_numpy()
    makeable = dd.fillna(False).to_numpy(dtype=bool)
    rows["count"] = 1
    rows["made"] = made
    rows["failed"] = ~made
    rows["not_makeable"] = ~made & known & ~makeable
    rows["misplayed"] = ~made & makeable
    rows["defenders_errors"] = made & known & ~makeable
    rows["unsolved"] = ~known
    table = rows.groupby(cols, observed=True)[list(FAILURE_COUNTS)].sum().astype(np.int64)
    return plain_index(table)


def failure_split_from_counts(counts: pd.DataFrame) -> pd.DataFrame:
    """The :func:`failure_split` table from (possibly summed) :func:`failure_counts`."""
    table = counts[list(FAILURE_COUNTS)].astype(np.int64)
    n = table["count"]
    with np.errstate(invalid="ignore", divide="ignore"):
        for name in ("made", "not_makeable", "misplayed", "defenders_errors", "unsolved"):
            table[f"{name}_pct"] = 100 * table[name] / n
        solved = n - table["unsolved"]
        makeable = solved - table["not_makeable"] - table["defenders_errors"]
        table["dd_makeable_pct"] = 100 * makeable / solved.where(solved > 0)
        decided = table["not_makeable"] + table["misplayed"]
        table["misplayed_of_failed_pct"] = 100 * table["misplayed"] / decided.where(decided > 0)
    low, high = wilson_interval(table["misplayed"], decided)
    table["misplayed_ci_low_pct"] = 100 * low
    table["misplayed_ci_high_pct"] = 100 * high
    return table


def failure_split(df: pd.DataFrame, by="contract") -> pd.DataFrame:
    """Failures split into not makeable double dummy and misplayed, per contract.

    One row per contract (or per ``by`` columns) of the declared deals, with
    the counts of :func:`failure_counts` and, in percent of ``count``,
    ``made_pct``, ``not_makeable_pct``, ``misplayed_pct``,
    ``defenders_errors_pct`` and ``unsolved_pct``; ``dd_makeable_pct`` (makeable
    double dummy, of the solved deals: what perfect play would make);
    ``misplayed_of_failed_pct``, the share of the solved failures that were
    makeable, with its 95% Wilson interval ``misplayed_ci_low_pct ..
    misplayed_ci_high_pct``.

    >>> df = pd.DataFrame({"contract": ["Solo"] * 4, "declarer": [0, 1, 2, 3],
    ...                    "made": [True, False, False, True],
    ...                    "dd_made": pd.array([True, True, False, None], dtype="boolean")})
    >>> failure_split(df)[["failed", "not_makeable", "misplayed", "unsolved"]].values.tolist()
    [[2, 1, 1, 1]]
    """
    return failure_split_from_counts(failure_counts(df, by))
