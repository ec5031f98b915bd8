"""Phat: the race to 181 and the pitcher's choice of trumps.

Phat has no auction; the pitcher's first card names trumps. To reuse the
bid tables, :func:`pitch_frame` treats the pitcher as a declarer whose
"contract" succeeds when the pitching team takes more phat in the deal than
the other team.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .columns import plain_index, require
from .intervals import wilson_interval

__all__ = [
    "bids",
    "format_phat_summary",
    "phat_summary",
    "pitch_frame",
    "race_table",
    "report_sections",
    "summary_text",
]

_PHAT_COLUMNS = ("match", "game", "game_over", "winner", "tricks", "bonus_to")


def phat_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Phat race statistics from ``simulate("phat", ...)`` rows, one line per measure.

    Games won by each team (with a 95% Wilson interval), deals per game,
    games decided in the middle of a deal, and how the muck went on
    completed deals (bonus to NS, to EW, or a 40-40 tie carried over).
    """
    require(df, *_PHAT_COLUMNS, hint=": pass the rows of simulate('phat', ...)")
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


def pitch_frame(df: pd.DataFrame, complete_only: bool = True) -> pd.DataFrame:
    """Phat rows as bids: the pitcher declares, and makes it by taking more phat than the others.

    Adds ``declarer`` (the pitcher), ``dealer`` (the pitcher's right),
    ``contract`` (``"Pitch <trumps>"``), ``made`` (the pitching team's phat
    in the deal beats the other team's; a 40-40 split is not made) and
    ``declarer_payoff`` (the pitching team's phat minus the other team's).
    ``complete_only`` keeps only deals played to the 13th trick (a game
    decided mid-deal leaves the deal's phat unfinished). Hand-feature
    columns (``hf_*``) pass through unchanged.
    """
    require(df, "pitcher", "trumps", "phat_ns", "phat_ew", "tricks", hint=": pass simulate('phat')")
    rows = df[df["tricks"] == 13] if complete_only else df
    pitcher = rows["pitcher"].to_numpy(dtype=np.int64)
    ns = rows["phat_ns"].to_numpy(dtype=np.int64)
    ew = rows["phat_ew"].to_numpy(dtype=np.int64)
    margin = np.where(pitcher % 2 == 0, ns - ew, ew - ns)
    return rows.assign(
        declarer=pitcher,
        dealer=(pitcher - 1) % 4,
        contract=pd.Categorical("Pitch " + rows["trumps"].astype(str)),
        made=margin > 0,
        declarer_payoff=margin,
    )


def race_table(df: pd.DataFrame, bins=(-181, -60, -30, -10, 10, 30, 60, 181)) -> pd.DataFrame:
    """How often the team ahead in the race to 181 goes on to win the game.

    For every deal that did not end its game, NS's lead after it
    (``score_ns - score_ew``) is cut into ``bins``; the table gives, per bin,
    the deals, NS's eventual win % and its Wilson interval.
    """
    require(df, *_PHAT_COLUMNS, "score_ns", "score_ew", hint=": pass simulate('phat')")
    ends = df[df["game_over"]].set_index(["match", "game"])["winner"]
    ongoing = df[~df["game_over"]]
    key = pd.MultiIndex.from_frame(ongoing[["match", "game"]])
    winner = ends.reindex(key).to_numpy()
    known = pd.notna(winner)
    lead = (ongoing["score_ns"] - ongoing["score_ew"]).to_numpy()[known]
    frame = pd.DataFrame({"ns_lead": pd.cut(lead, list(bins)), "ns_won": winner[known] == "NS"})
    grouped = frame.groupby("ns_lead", observed=True)
    table = pd.DataFrame({"count": grouped.size(), "ns_won": grouped["ns_won"].sum()})
    low, high = wilson_interval(table["ns_won"], table["count"])
    table["ns_win_pct"] = 100 * table["ns_won"] / table["count"]
    table["ci_low_pct"] = 100 * low
    table["ci_high_pct"] = 100 * high
    return plain_index(table)


# The analysis's part for Phat, named by its description (GameDescription.analysis):
# its rows are races to a target, not bids, so the generic tables read them through these.


def bids(df: pd.DataFrame) -> pd.DataFrame:
    """The rows as bids (:func:`pitch_frame`): what the bid tables and plots read."""
    return pitch_frame(df)


def summary_text(df: pd.DataFrame) -> str:
    """The command line's table of a Phat run: the race statistics."""
    return format_phat_summary(phat_summary(df))


def report_sections(out, df: pd.DataFrame, folds: int, game: str, bid_sections) -> None:
    """The HTML report's sections of a Phat run: the race, then the pitches as bids.

    ``out`` is the report's builder, ``bid_sections(out, bids, folds, game,
    position=...)`` writes the generic bid sections.
    """
    # lazy: plots imports matplotlib, slow to import
    from . import plots

    out.heading("The race to 181")
    out.table(phat_summary(df))
    race = race_table(df)
    out.table(race)
    out.figure(plots.plot_race(race), "race to 181")
    out.heading("Pitches")
    out.note(
        "The pitcher's team 'makes' its pitch when it takes more phat in the deal than "
        "the other team (completed deals only)."
    )
    bid_sections(out, pitch_frame(df), folds, game, position=False)  # pitcher is eldest
