"""Analysis of simulation results: bid success rates with confidence intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = [
    "bid_success",
    "format_bid_table",
    "format_phat_summary",
    "phat_summary",
    "wilson_interval",
]


def wilson_interval(successes, trials, z: float = 1.959963984540054):
    """Wilson score interval ``(low, high)`` for a binomial proportion.

    Works on scalars or arrays; zero trials give ``(nan, nan)``.
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denom
    return centre - half, centre + half


def bid_success(df: pd.DataFrame, by: str = "contract") -> pd.DataFrame:
    """Count, made count, made % and 95% Wilson interval per contract.

    Deals without a declarer (``declarer == -1``: a passed-out Solo Whist
    deal, a Troggu Misère) are counted but have no success rate.
    """
    for col in (by, "made", "declarer"):
        if col not in df.columns:
            raise ValueError(f"column {col!r} missing; have: {', '.join(map(str, df.columns))}")
    grouped = df.groupby(by, observed=True)
    table = pd.DataFrame(
        {
            "count": grouped.size(),
            "made": grouped["made"].sum().astype(np.int64),
            "declared": grouped["declarer"].apply(lambda d: bool((d >= 0).any())),
        }
    )
    low, high = wilson_interval(table["made"], table["count"])
    table["made_pct"] = 100 * table["made"] / table["count"]
    table["ci_low_pct"] = 100 * low
    table["ci_high_pct"] = 100 * high
    undeclared = ~table.pop("declared")
    table.loc[undeclared, ["made", "made_pct", "ci_low_pct", "ci_high_pct"]] = np.nan
    return table


def format_bid_table(table: pd.DataFrame) -> str:
    """The bid success table as aligned text."""
    lines = [f"{'contract':<22}{'count':>10}{'made %':>9}   95% Wilson interval"]
    for name, row in table.iterrows():
        if np.isnan(row["made_pct"]):
            lines.append(f"{name!s:<22}{int(row['count']):>10}{'':>9}")
        else:
            lines.append(
                f"{name!s:<22}{int(row['count']):>10}{row['made_pct']:>8.2f}%"
                f"   [{row['ci_low_pct']:6.2f}%, {row['ci_high_pct']:6.2f}%]"
            )
    return "\n".join(lines)


def phat_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Phat race statistics from ``simulate("phat", ...)`` rows, one line per measure.

    Games won by each team (with a 95% Wilson interval), deals per game,
    games decided in the middle of a deal, and how the muck went on
    completed deals (bonus to NS, to EW, or a 40-40 tie carried over).
    """
    for col in ("match", "game", "game_over", "winner", "tricks", "bonus_to"):
        if col not in df.columns:
            raise ValueError(f"column {col!r} missing: pass the rows of simulate('phat', ...)")
    ends = df[df["game_over"]]
    games = len(ends)
    ns_wins = int((ends["winner"] == "NS").sum())
    low, high = wilson_interval(ns_wins, games)
    complete = df[df["tricks"] == 13]
    rows = [
        ("games", games, np.nan, np.nan),
        ("NS win %", 100 * ns_wins / games if games else np.nan, 100 * low, 100 * high),
        ("deals per game", len(df) / games if games else np.nan, np.nan, np.nan),
        ("decided mid-deal %", 100 * float((ends["tricks"] < 13).mean()), np.nan, np.nan),
    ]
    for label, mask in (
        ("muck bonus to NS %", complete["bonus_to"] == "NS"),
        ("muck bonus to EW %", complete["bonus_to"] == "EW"),
        ("muck tied 40-40 %", complete["bonus_to"].isna()),
    ):
        k = int(mask.sum())
        lo, hi = wilson_interval(k, len(complete))
        rows.append(
            (label, 100 * k / len(complete) if len(complete) else np.nan, 100 * lo, 100 * hi)
        )
    return pd.DataFrame(rows, columns=["measure", "value", "ci_low", "ci_high"]).set_index(
        "measure"
    )


def format_phat_summary(table: pd.DataFrame) -> str:
    """The Phat summary as aligned text."""
    lines = [f"{'measure':<22}{'value':>10}   95% Wilson interval"]
    for name, row in table.iterrows():
        value = f"{row['value']:,.0f}" if name == "games" else f"{row['value']:.2f}"
        ci = "" if np.isnan(row["ci_low"]) else f"   [{row['ci_low']:6.2f}, {row['ci_high']:6.2f}]"
        lines.append(f"{name!s:<22}{value:>10}{ci}")
    return "\n".join(lines)
