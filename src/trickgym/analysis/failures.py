"""Why contracts fail: not makeable double dummy, or misplayed.

Rows of ``simulate(..., dd=True)`` carry ``dd_made``: whether the contract
played was makeable with perfect play by every hand (a nullable boolean;
``<NA>`` where the solver ran out of its node budget), in every game: Solo
Whist's tricks, the point-trick games' points (Phat through
:func:`~trickgym.analysis.pitch_frame`). Against the real result ``made``
every declared deal falls in one of:

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

__all__ = [
    "FAILURE_CATEGORIES",
    "FAILURE_COUNTS",
    "failure_counts",
    "failure_shares",
    "failure_split",
    "failure_split_from_counts",
]

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

#: The disjoint outcomes of :func:`failure_shares`, in order, with their words: every
#: declared deal is in exactly one. ``unsolved`` overlaps ``made`` and ``failed`` in the
#: counts; the shares split it into made and failed deals not solved, so a deal past the
#: solver's budget is never shown as makeable.
FAILURE_CATEGORIES = {
    "made": "made and makeable",
    "made_unsolved": "made, not solved (past the node budget)",
    "defenders_errors": "made though not makeable (defenders' errors)",
    "misplayed": "failed though makeable (misplayed)",
    "not_makeable": "failed, not makeable",
    "failed_unsolved": "failed, not solved (past the node budget)",
}


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


def failure_shares(counts: pd.DataFrame) -> pd.DataFrame:
    """Each group's declared deals split into the disjoint :data:`FAILURE_CATEGORIES`.

    Takes :func:`failure_counts` or :func:`failure_split` (summed counts
    too); returns fractions of ``count`` that sum to 1 on every row (nan for
    a group without deals), so a stacked bar of them never passes 100%.

    >>> df = pd.DataFrame({"contract": ["Misère"] * 4, "declarer": [0, 1, 2, 3],
    ...                    "made": [True, True, False, False],
    ...                    "dd_made": pd.array([None, True, None, True], dtype="boolean")})
    >>> failure_shares(failure_counts(df)).iloc[0].tolist()
    [0.25, 0.25, 0.0, 0.25, 0.0, 0.25]
    """
    missing = [c for c in FAILURE_COUNTS if c not in counts.columns]
    if missing:
        raise ValueError(
            f"counts lacks {', '.join(missing)}: pass the table of failure_counts() or "
            "failure_split()"
        )
    c = counts[list(FAILURE_COUNTS)].astype(np.int64)
    failed_unsolved = c["failed"] - c["misplayed"] - c["not_makeable"]
    made_unsolved = c["unsolved"] - failed_unsolved
    parts = pd.DataFrame(
        {
            "made": c["made"] - c["defenders_errors"] - made_unsolved,
            "made_unsolved": made_unsolved,
            "defenders_errors": c["defenders_errors"],
            "misplayed": c["misplayed"],
            "not_makeable": c["not_makeable"],
            "failed_unsolved": failed_unsolved,
        },
        index=counts.index,
    )
    return parts.div(c["count"].where(c["count"] > 0), axis=0)


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
