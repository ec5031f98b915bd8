"""A self-contained HTML report of a simulation dataset: tables and PNG plots inline.

The plots are embedded as base64 ``data:`` URIs, so the one file can be
mailed or archived without anything beside it.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path

import pandas as pd

from . import plots
from .calibration import calibration_table, out_of_fold_predictions
from .columns import declared, detect_game, feature_columns
from .phat import phat_summary, pitch_frame, race_table
from .success import bid_success, expected_payoff, success_by_feature, success_by_position

__all__ = ["html_report", "write_report"]

_GAME_TITLES = {
    "solowhist": "Solo Whist",
    "troggu": "Troggu",
    "phat": "Phat",
    "pinochle": "Pinochle",
}

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { border-bottom: 2px solid #444; } h2 { margin-top: 2em; border-bottom: 1px solid #aaa; }
table { border-collapse: collapse; font-size: 0.9em; margin: 1em 0; }
th, td { padding: 0.2em 0.6em; text-align: right; border-bottom: 1px solid #ddd; }
th { background: #f3f3f3; } img { max-width: 100%; } .note { color: #555; }
"""


def figure_uri(fig) -> str:
    """A matplotlib figure as a ``data:image/png;base64,...`` URI."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _table(table: pd.DataFrame) -> str:
    return table.to_html(float_format=lambda x: f"{x:,.2f}", na_rep="", border=0)


class _Builder:
    """Collects the report's sections as HTML fragments."""

    def __init__(self):
        self.parts: list[str] = []

    def heading(self, text: str) -> None:
        self.parts.append(f"<h2>{html.escape(text)}</h2>")

    def note(self, text: str) -> None:
        self.parts.append(f'<p class="note">{html.escape(text)}</p>')

    def table(self, table: pd.DataFrame) -> None:
        self.parts.append(_table(table))

    def figure(self, fig, alt: str) -> None:
        self.parts.append(f'<img src="{figure_uri(fig)}" alt="{html.escape(alt)}">')


def _bid_sections(out: _Builder, df: pd.DataFrame, folds: int, position: bool = True) -> None:
    """Success by contract, payoff, position, features and calibration of a bid frame."""
    success = bid_success(df)
    out.heading("Bid success by contract")
    out.note("Made % of the declared deals with 95% Wilson intervals; every deal is counted.")
    out.table(success)
    out.figure(plots.plot_success(success), "bid success by contract")

    payoff = expected_payoff(df)
    out.heading("Expected payoff per contract")
    out.note("The declarer's mean payoff per deal with a 95% normal interval.")
    out.table(payoff)
    out.figure(plots.plot_expected_payoff(payoff), "expected payoff per contract")

    if position:
        out.heading("Success by seat position")
        out.note("Position after the dealer: 1 = eldest (first to speak), ..., 0 = the dealer.")
        out.table(success_by_position(df))

    if "p_made" in df.columns:  # the agents' own estimates of making their bids
        table = calibration_table(df, "p_made")
        out.heading("Calibration of the agents' own predictions (p_made)")
        out.note(
            f"Brier score {table.attrs['brier']:.4f}, expected calibration error "
            f"{table.attrs['ece']:.2f} points."
        )
        out.table(table)
        out.figure(plots.plot_calibration(table), "calibration of p_made")

    features = feature_columns(df)
    if not features:
        out.note("No hand-feature (hf_*) columns in this dataset.")
        return
    for feature in features:
        table = success_by_feature(df, feature)
        out.heading(f"Success by {feature}")
        out.table(table)
        out.figure(plots.plot_feature_success(table, min_count=10), f"success by {feature}")

    n_declared = int(declared(df).sum())
    out.heading("Calibration of a hand-feature model of success")
    if n_declared < 10 * folds:
        out.note(f"Too few declared deals ({n_declared}) for a {folds}-fold calibration.")
        return
    predicted = out_of_fold_predictions(df, features, folds=folds)
    table = calibration_table(df, predicted)
    out.note(
        f"Logistic regression of made on {', '.join(features)} per contract; every deal "
        f"predicted by a model fitted on the other {folds - 1} of {folds} folds. Brier score "
        f"{table.attrs['brier']:.4f}, expected calibration error {table.attrs['ece']:.2f} points."
    )
    out.table(table)
    out.figure(plots.plot_calibration(table), "calibration")


def html_report(df: pd.DataFrame, title: str | None = None, folds: int = 5) -> str:
    """The HTML text of the report of ``df`` (rows of ``simulate`` for any game)."""
    game = detect_game(df)
    name = _GAME_TITLES[game]
    title = title or f"trickgym report: {name}"
    out = _Builder()
    source = df.attrs.get("source")
    out.parts.append(f"<h1>{html.escape(title)}</h1>")
    out.note(f"{name}, {len(df):,} deals" + (f", from {source}" if source else "") + ".")
    metadata = df.attrs.get("metadata")
    if metadata:
        out.parts.append(f"<pre>{html.escape(repr(metadata))}</pre>")
    if game == "phat":
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
        _bid_sections(out, pitch_frame(df), folds, position=False)  # the pitcher is always eldest
    else:
        _bid_sections(out, df, folds)
    body = "\n".join(out.parts)
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body>\n{body}\n</body></html>\n"
    )


def write_report(df: pd.DataFrame, path, title: str | None = None, folds: int = 5) -> Path:
    """Write :func:`html_report` of ``df`` to ``path``; returns the path."""
    path = Path(path)
    if not path.parent.is_dir():
        raise ValueError(f"cannot write {str(path)!r}: folder {str(path.parent)!r} does not exist")
    path.write_text(html_report(df, title, folds), encoding="utf-8")
    return path
