"""A self-contained HTML report of a simulation dataset: tables and PNG plots inline.

The plots are embedded as base64 ``data:`` URIs, so the one file can be
mailed or archived without anything beside it.
"""

from __future__ import annotations

import base64
import html
import io
import json
from pathlib import Path

import pandas as pd

from ..checks import check_int
from ..games import game_class
from . import plots
from .calibration import calibration_table, out_of_fold_predictions
from .columns import analysis_part, declared, detect_game, feature_columns
from .failures import failure_split
from .labels import column_label
from .success import bid_success, expected_payoff, success_by_feature, success_by_position
from .text import bid_table_legend

__all__ = ["html_report", "write_report"]

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { border-bottom: 2px solid #444; } h2 { margin-top: 2em; border-bottom: 1px solid #aaa; }
table { border-collapse: collapse; font-size: 0.9em; margin: 1em 0; }
th, td { padding: 0.2em 0.6em; text-align: right; border-bottom: 1px solid #ddd; }
th { background: #f3f3f3; } img { max-width: 100%; } .note { color: #555; }
table.meta td, table.meta th { text-align: left; } nav li { margin: 0.1em 0; }
"""

# Rows with fewer deals than this are marked in tables and left out of plots: the
# plots' one rule (plots.MIN_DEALS), so a table's † and a plot's gap agree.
FEW_DEALS = plots.MIN_DEALS

# Column names as the report shows them (the analysis tables keep theirs).
_DISPLAY = {
    "count": "deals",
    "made": "made",
    "made_pct": "made %",
    "ci_low_pct": "95% CI low %",
    "ci_high_pct": "95% CI high %",
    "mean_payoff": "mean payoff",
    "ci_low": "95% CI low",
    "ci_high": "95% CI high",
    "std": "std. dev.",
    "payoff_made": "payoff when made",
    "payoff_set": "payoff when set",
    "share_pct": "% of deals",
    "position": "position",
    "not_makeable": "not makeable",
    "defenders_errors": "defenders' errors",
    "not_makeable_pct": "not makeable %",
    "misplayed_pct": "misplayed %",
    "defenders_errors_pct": "defenders' errors %",
    "unsolved_pct": "unsolved %",
    "dd_makeable_pct": "makeable dd %",
    "misplayed_of_failed_pct": "misplayed of failures %",
    "misplayed_ci_low_pct": "95% CI low %",
    "misplayed_ci_high_pct": "95% CI high %",
}
_COUNTS = {
    "count",
    "made",
    "deals",
    "n",
    "games",
    "failed",
    "not_makeable",
    "misplayed",
    "defenders_errors",
    "unsolved",
}


def figure_uri(fig) -> str:
    """A matplotlib figure as a ``data:image/png;base64,...`` URI."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _bin_label(value: pd.Interval) -> str:
    """A bin of a real-valued column, ``0.1–0.2`` (``pd.cut``'s ``-0.001`` lowest edge as 0)."""
    left = 0.0 if -0.01 < value.left < 0 else value.left
    return f"{left:.3g}–{value.right:.3g}"


def _index_labels(index: pd.Index, integer_bins: bool) -> pd.Index:
    """Index values as people read them (integer bins as ``0–11``, not ``(-0.001, 11.0]``)."""
    label = plots.integer_bin_label if integer_bins else _bin_label

    def relabel(values):
        return pd.Index([label(v) if isinstance(v, pd.Interval) else v for v in values])

    if isinstance(index, pd.MultiIndex):
        levels = [relabel(index.get_level_values(i)) for i in range(index.nlevels)]
        return pd.MultiIndex.from_arrays(levels, names=index.names)
    return relabel(index).rename(index.name)


def _table(table: pd.DataFrame, integer_bins: bool = False) -> str:
    """A table as HTML: readable column names, counts as integers, few-deal rows marked."""
    shown = table.copy()
    shown.index = _index_labels(shown.index, integer_bins)
    few = shown["count"] < FEW_DEALS if "count" in shown.columns else None
    formatters = {}
    for column in shown.columns:
        if column in _COUNTS or pd.api.types.is_integer_dtype(shown[column]):
            formatters[column] = lambda x: "" if pd.isna(x) else f"{int(x):,}"
    if few is not None and few.any():
        counts = shown["count"]
        shown["count"] = [
            f"{int(n):,} †" if is_few else f"{int(n):,}"
            for n, is_few in zip(counts, few, strict=True)
        ]
        formatters.pop("count", None)
    shown.columns = [_DISPLAY.get(c, str(c).replace("_", " ")) for c in shown.columns]
    formatters = {_DISPLAY.get(c, str(c).replace("_", " ")): f for c, f in formatters.items()}
    text = shown.to_html(
        float_format=lambda x: f"{x:,.2f}", formatters=formatters, na_rep="", border=0
    )
    if few is not None and few.any():
        text += (
            f'<p class="note">† fewer than {FEW_DEALS} deals: the rate says little '
            "(see its interval); such rows are left out of the plots and named under them.</p>"
        )
    return text


def _metadata_table(metadata: dict) -> str:
    """The run's metadata as a two-column table (nested values as compact JSON)."""
    rows = []
    for key, value in metadata.items():
        if key == "chunks":
            value = f"{len(value)} chunk(s) recorded with rows and SHA-256"
        elif not isinstance(value, str):
            value = json.dumps(value, separators=(", ", ": "))
        rows.append(f"<tr><th>{html.escape(str(key))}</th><td>{html.escape(str(value))}</td></tr>")
    return '<table class="meta">' + "".join(rows) + "</table>"


class _Builder:
    """Collects the report's sections as HTML fragments."""

    def __init__(self):
        self.parts: list[str] = []
        self.sections: list[tuple[str, str]] = []  # (id, heading) for the table of contents

    def heading(self, text: str) -> None:
        anchor = f"s{len(self.sections) + 1}"
        self.sections.append((anchor, text))
        self.parts.append(f'<h2 id="{anchor}">{html.escape(text)}</h2>')

    def contents(self) -> str:
        items = "".join(
            f'<li><a href="#{a}">{html.escape(text)}</a></li>' for a, text in self.sections
        )
        return f"<nav><h2>Contents</h2><ol>{items}</ol></nav>"

    def note(self, text: str) -> None:
        self.parts.append(f'<p class="note">{html.escape(text)}</p>')

    def table(self, table: pd.DataFrame, integer_bins: bool = False) -> None:
        self.parts.append(_table(table, integer_bins))

    def figure(self, fig, alt: str) -> None:
        self.parts.append(f'<img src="{figure_uri(fig)}" alt="{html.escape(alt)}">')


def _bid_sections(
    out: _Builder, df: pd.DataFrame, folds: int, game: str, position: bool = True
) -> None:
    """Success by contract, payoff, position, features and calibration of a bid frame."""
    success = bid_success(df)
    out.heading("Bid success by contract")
    out.note(
        "How often each contract is played (% of deals) and made (made % of the declared "
        "deals, with 95% Wilson intervals); every deal is counted."
    )
    shares = success.assign(share_pct=100 * success["count"] / max(len(df), 1))
    out.table(shares[["count", "share_pct", *[c for c in success.columns if c != "count"]]])
    out.note(bid_table_legend(success, count_name=_DISPLAY["count"]))
    passed = [k for k in success.index if str(k).lower().startswith(("passed out", "none"))]
    if passed:
        rate = 100 * float(success.loc[passed, "count"].sum()) / max(len(df), 1)
        out.note(f"Passed-out (no contract) rate: {rate:.2f}% of deals.")
    out.figure(plots.plot_success(success), "bid success by contract")

    if "dd_made" in df.columns:  # simulated with dd=True
        out.heading("Failures: not makeable or misplayed (double dummy)")
        out.note(
            "Each declared deal against the double-dummy verdict on the contract played "
            "(perfect play by every hand, from the first lead): a failed contract was "
            "either not makeable or misplayed; a made one that was not makeable was given by "
            "the defence ('defenders' errors'); 'unsolved' deals ran past the solver's node "
            "budget (counted, split into made and failed, never taken as makeable). "
            "Percentages of the declared deals; 'misplayed of failures' is the share "
            "of the solved failures that were makeable, with its 95% Wilson interval."
        )
        split = failure_split(df)
        out.table(split)
        out.figure(plots.plot_failure_shares(split), "outcome of the declared deals")

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
    out.heading("Hand features (data dictionary)")
    out.note(
        "Each row carries features of the declarer's hand as dealt (before any exchange); "
        "-1 means the feature does not apply (no declarer, or no trump suit) and such rows "
        "are left out of the tables by feature."
    )
    # lazy: trickgym.sim.features loads pyarrow
    from ..sim.features import FEATURE_DESCRIPTIONS

    described = FEATURE_DESCRIPTIONS.get(game, {})
    out.parts.append(
        '<table class="meta">'
        + "".join(
            f"<tr><th>{html.escape(f)}</th><td>{html.escape(described.get(f, ''))}</td></tr>"
            for f in features
        )
        + "</table>"
    )
    for feature in features:
        table = success_by_feature(df, feature)
        integer = pd.api.types.is_integer_dtype(df[feature])
        out.heading(f"Success by {column_label(feature)}")  # the table names the column
        out.table(table, integer_bins=integer)
        label = plots.integer_bin_label if integer else str
        fig = plots.plot_feature_success(table, bin_label=label)
        out.figure(fig, f"success by {feature}")

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


MAX_FOLDS = 100


def check_folds(folds) -> int:
    """The folds of the report's calibration model: an integer ``2..MAX_FOLDS``."""
    return check_int("folds", folds, 2, MAX_FOLDS)


def html_report(df: pd.DataFrame, title: str | None = None, folds: int = 5) -> str:
    """The HTML text of the report of ``df`` (rows of ``simulate`` for any game)."""
    if title is not None and not isinstance(title, str):
        raise ValueError(f"title must be a string or None, got {title!r}")
    folds = check_folds(folds)
    game = detect_game(df)
    name = game_class(game).title
    title = title or f"trickgym report: {name}"
    out = _Builder()
    source = df.attrs.get("source")
    out.parts.append(f"<h1>{html.escape(title)}</h1>")
    out.note(f"{name}, {len(df):,} deals" + (f", from {source}" if source else "") + ".")
    metadata = df.attrs.get("metadata")
    if metadata:
        out.parts.append("<details><summary>The run (its metadata)</summary>")
        out.parts.append(_metadata_table(metadata))
        out.parts.append("</details>")
    header = len(out.parts)
    part = analysis_part(game)
    if part is not None:  # rows that are not bids (Phat's races): the game's own sections
        part.report_sections(out, df, folds, game, _bid_sections)
    else:
        _bid_sections(out, df, folds, game)
    out.parts.insert(header, out.contents())
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
