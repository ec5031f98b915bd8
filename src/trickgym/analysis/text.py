"""Tables as aligned text for terminals and logs."""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd

from .agents import DD
from .plots import MIN_DEALS

__all__ = [
    "bid_table_legend",
    "format_agent_table",
    "format_bid_table",
    "format_failure_table",
    "format_table",
]


def bid_table_legend(table: pd.DataFrame | None = None, count_name: str = "count") -> str:
    """What the columns of the bid success table (:func:`bid_success`) count, in words.

    One sentence for the CLI, the report and the notebooks alike. With
    ``table``, the rows without a rate (nobody declared: a passed-out Solo
    Whist deal, a Troggu Misère played by all) are named and said to have
    none. ``count_name`` is what the table calls its ``count`` column.
    """
    text = (
        f"{count_name}: deals on which this was the contract played (the winning bid); "
        "made %: share of those contracts the declaring side made, with its 95% "
        "Wilson interval."
    )
    if table is not None and "made_pct" in table.columns:
        unrated = table.index[table["made_pct"].isna().to_numpy()]
        names = list(dict.fromkeys(
            str(key[-1]) if isinstance(key, tuple) else str(key) for key in unrated
        ))  # fmt: skip
        if names:
            text += f" {', '.join(names)}: no declarer, so no rate."
    return text


def format_bid_table(table: pd.DataFrame) -> str:
    """The bid success table (:func:`bid_success`) as aligned text, its legend below."""
    lines = [f"{'contract':<22}{'count':>10}{'made %':>9}   95% Wilson interval"]
    for name, row in table.iterrows():
        if np.isnan(row["made_pct"]):
            lines.append(f"{name!s:<22}{int(row['count']):>10}{'':>9}")
        else:
            lines.append(
                f"{name!s:<22}{int(row['count']):>10}{row['made_pct']:>8.2f}%"
                f"   [{row['ci_low_pct']:6.2f}%, {row['ci_high_pct']:6.2f}%]"
            )
    lines.append(textwrap.fill(bid_table_legend(table), 72))
    return "\n".join(lines)


def _agent_cell(row: pd.Series, dd: bool) -> str:
    """One agent's cell of a row: deals (``†`` when few), made % and its interval."""
    few = "†" if row["few"] else " "
    text = f"{int(row['count']):>8}{few}"
    if np.isnan(row["made_pct"]):
        text += f"{'':>25}"
    else:
        text += f"{row['made_pct']:>7.1f}  [{row['ci_low_pct']:5.1f}, {row['ci_high_pct']:5.1f}]"
    if dd:
        text += f"{int(row['unsolved']):>10}"
    return text


def format_agent_table(table: pd.DataFrame) -> str:
    """The table of :func:`~trickgym.analysis.bid_success_by_agent` as aligned text, legend below.

    One column group per agent: deals, made % and its 95% Wilson interval;
    ``†`` marks a count below the small-sample rule (``table.attrs["min_count"]``).
    """
    agents = list(table.columns.get_level_values(0).unique())
    widths = {a: 34 + 10 * (a == DD) for a in agents}
    head = f"{'':<22}" + "".join(f"  {a:<{widths[a]}}" for a in agents)
    sub = f"{'contract':<22}" + "".join(
        f"  {'deals':>8} {'made %':>7}  {'95% interval':<14}" + f"{'unsolved':>10}" * (a == DD)
        for a in agents
    )
    lines = [head.rstrip(), sub.rstrip()]
    for name, row in table.iterrows():
        cells = "".join(f"  {_agent_cell(row[a], a == DD):<{widths[a]}}" for a in agents)
        lines.append(f"{name!s:<22}{cells}".rstrip())
    # A rate missing where an agent never played the contract is no "no declarer" row.
    counts = table.xs("count", axis=1, level=1)
    no_rate = (counts > 0) & table.xs("made_pct", axis=1, level=1).isna()
    rates = pd.DataFrame({"made_pct": np.where(no_rate.any(axis=1), np.nan, 0.0)}, table.index)
    legend = bid_table_legend(rates, count_name="deals")
    min_count = table.attrs.get("min_count", MIN_DEALS)
    legend += f" † fewer than {min_count} deals: the rate says little (see its interval)."
    if (counts == 0).any(axis=None):
        legend += " 0: the agent never played this contract."
    if DD in agents:
        legend += (
            f" {DD}: the rule agent's contracts, made when makeable double dummy (every card "
            "seen, perfect play by declarers and defenders alike), of the deals solved; "
            "unsolved: past the solver's node budget, left out."
        )
    lines.append(textwrap.fill(legend, 100))
    return "\n".join(lines)


def format_failure_table(table: pd.DataFrame) -> str:
    """The failure split (:func:`~trickgym.analysis.failure_split`) as aligned text.

    Percent of the declared deals per contract, and the share of the solved
    failures that were makeable double dummy with its 95% Wilson interval.
    """
    lines = [
        f"{'contract':<22}{'declared':>10}{'failed %':>10}{'not makeable %':>16}"
        f"{'misplayed %':>13}{'defence err. %':>16}{'unsolved %':>12}"
        "   misplayed of failures [95% Wilson]"
    ]
    for name, row in table.iterrows():
        failed = 100 * row["failed"] / row["count"]
        line = (
            f"{name!s:<22}{int(row['count']):>10}{failed:>9.2f}%{row['not_makeable_pct']:>15.2f}%"
            f"{row['misplayed_pct']:>12.2f}%{row['defenders_errors_pct']:>15.2f}%"
            f"{row['unsolved_pct']:>11.2f}%"
        )
        if not np.isnan(row["misplayed_of_failed_pct"]):
            line += (
                f"   {row['misplayed_of_failed_pct']:6.2f}% [{row['misplayed_ci_low_pct']:6.2f}%, "
                f"{row['misplayed_ci_high_pct']:6.2f}%]"
            )
        lines.append(line)
    return "\n".join(lines)


def format_table(table: pd.DataFrame, digits: int = 2) -> str:
    """Any analysis table as aligned text, floats rounded to ``digits``."""
    return table.to_string(float_format=lambda x: f"{x:.{digits}f}", na_rep="")
