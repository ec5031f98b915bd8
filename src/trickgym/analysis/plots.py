"""Matplotlib figures of the analysis tables; every helper returns a ``Figure``.

Figures are built with ``matplotlib.figure.Figure`` (no pyplot state), so
they are safe in scripts, threads and tests; a notebook shows a returned
figure, and ``fig.savefig(path)`` writes it.
"""

from __future__ import annotations

import math
import textwrap
import zlib

import numpy as np
import pandas as pd

from trickgym.games.solowhist.constants import CONTRACT_NAMES as SOLOWHIST
from trickgym.games.troggu.constants import CONTRACT_NAMES as TROGGU

from ..checks import check_int
from .columns import declared, game_of, require
from .failures import FAILURE_CATEGORIES, failure_shares
from .labels import column_label, in_words_of

__all__ = [
    "MIN_DEALS",
    "agent_color",
    "drop_small_samples",
    "group_color",
    "integer_bin_label",
    "plot_agent_success",
    "plot_calibration",
    "plot_comparison",
    "plot_expected_payoff",
    "plot_failure_shares",
    "plot_feature_success",
    "plot_made_scatter",
    "plot_race",
    "plot_success",
]

#: Fewest deals behind a rate or a mean that a plot draws. Below it a 95% interval
#: spans tens of points (one deal: 2.5%..100%), squashes the axis and tempts a
#: reader to compare bars that say nothing; such rows are left out and named.
MIN_DEALS = 30


def _figure(width: float = 7.0, height: float = 4.0):
    # lazy: matplotlib is slow to import
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.add_subplot()


def _contract_rows_axis(ax, y, rows) -> None:
    """One bar per contract, top to bottom, each labelled with its deal count; a 0-100 % axis."""
    labels = [
        f"{lab}  (n={int(n):,})" for lab, n in zip(_labels(rows.index), rows["count"], strict=True)
    ]
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)


def _labels(index: pd.Index) -> list[str]:
    if isinstance(index, pd.MultiIndex):
        return [" / ".join(map(str, key)) for key in index]
    return [str(key) for key in index]


def drop_small_samples(
    rows: pd.DataFrame, counts, min_count: int = MIN_DEALS
) -> tuple[pd.DataFrame, str]:
    """``rows`` with at least ``min_count`` deals, and a note naming those left out.

    ``counts`` holds each row's number of deals (a column name of ``rows``
    or a Series aligned with it). The note (``""`` when nothing is left
    out) goes under the plot's title, so the reader knows what is missing.
    Every plot of this module applies this one rule, with
    :data:`MIN_DEALS` by default.
    """
    min_count = check_int("min_count", min_count, 1)
    n = rows[counts] if isinstance(counts, str) else pd.Series(counts, index=rows.index)
    few = (n < min_count).to_numpy()
    if not few.any():
        return rows, ""
    names = [
        f"{label} (n={int(k):,})" for label, k in zip(_labels(rows.index[few]), n[few], strict=True)
    ]
    shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    return rows[~few], f"left out, fewer than {min_count} deals: {shown}"


def _title(ax, title: str, *notes: str, inches: float | None = None) -> None:
    """``title`` above the axes; the notes (what was left out and why) as a footnote.

    Both are wrapped to ``inches`` (the figure's width by default) so that
    no word is cut off.
    """
    inches = inches or ax.figure.get_figwidth()
    ax.set_title(textwrap.fill(title, max(30, int(8 * inches))))
    lines = [textwrap.fill(note[0].upper() + note[1:] + ".", max(40, int(13 * inches)))
             for note in notes if note]  # fmt: skip
    if lines:
        ax.figure.supxlabel("\n".join(lines), fontsize="small", color="dimgray")


def _axis_labels(ax, x: str | None = None, y: str | None = None) -> None:
    """Axis labels wrapped to the length of their axis, so that none runs off the figure.

    Constrained layout makes room beside an axis, never along it: a label
    longer than the figure is cut. About 11 characters of a 10-point label
    fit in an inch; an inch of the figure goes to the ticks and margins.
    """
    width, height = ax.figure.get_size_inches()
    if x is not None:
        ax.set_xlabel(_fill(x, max(20, int(11 * (width - 1)))))
    if y is not None:
        ax.set_ylabel(_fill(y, max(20, int(11 * (height - 1)))))


def _fill(text: str, width: int) -> str:
    """``text`` in lines of ``width``; a label too long breaks first before its "(...)" note."""
    head, bracket, note = text.partition(" (")
    parts = [head, "(" + note] if bracket and len(text) > width else [text]
    return "\n".join(textwrap.fill(part, width) for part in parts)


def _say(text: str, table: pd.DataFrame) -> str:
    """``text`` in the words of the game ``table`` was made from (Phat: pitch, not contract)."""
    return in_words_of(text, table.attrs.get("game"))


def _errors(table: pd.DataFrame, value: str, low: str, high: str) -> np.ndarray:
    """Error bar lengths below and above ``value`` (clipped at 0 against rounding)."""
    v = table[value].to_numpy(dtype=float)
    below = v - table[low].to_numpy(dtype=float)
    above = table[high].to_numpy(dtype=float) - v
    return np.clip(np.vstack([below, above]), 0, None)


_PALETTE = (
    "tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple",
    "tab:brown", "tab:pink", "tab:gray", "tab:olive", "tab:cyan",
)  # fmt: skip


def _known_contracts() -> list[str]:
    return list(dict.fromkeys([*SOLOWHIST, *TROGGU[1:]]))


def group_color(name) -> str:
    """The same colour for a contract (or any group) in every plot.

    By the contract's place in the games' fixed list of contracts (Solo
    Whist's, then Troggu's), else by a hash of the name; never by the order
    the groups happen to come in.
    """
    known = _known_contracts()
    if name in known:
        return _PALETTE[known.index(name) % len(_PALETTE)]
    return _PALETTE[zlib.crc32(str(name).encode()) % len(_PALETTE)]


# The agents compared most often keep one colour each; others get group_color's.
_AGENT_COLORS = {
    "rule": "tab:blue",
    "learnt": "tab:orange",
    "dd": "tab:green",
    "random": "tab:gray",
}


def agent_color(name: str) -> str:
    """The same colour for an agent in every plot (rule blue, learnt orange, dd green)."""
    return _AGENT_COLORS.get(name) or group_color(name)


def _check(table: pd.DataFrame, *columns: str, what: str) -> pd.DataFrame:
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ValueError(f"table lacks {', '.join(missing)}: pass the table of {what}")
    return table


def plot_success(
    table: pd.DataFrame,
    title: str | None = None,
    min_count: int = MIN_DEALS,
):
    """Made % with 95% intervals per row of a success table (:func:`bid_success` and kin).

    Rows without a rate (nobody declared) or with fewer than ``min_count``
    deals are left out; the title names them. The default title is "Made %
    of each contract played", in the game's words.
    """
    _check(table, "count", "made_pct", "ci_low_pct", "ci_high_pct", what="bid_success()")
    rated = table["made_pct"].notna()
    unrated = ", ".join(_labels(table.index[~rated.to_numpy()]))
    rows, note = drop_small_samples(table[rated], "count", min_count)
    fig, ax = _figure(7, 0.8 + 0.35 * max(len(rows), 1))
    y = np.arange(len(rows))
    ax.barh(
        y,
        rows["made_pct"],
        xerr=_errors(rows, "made_pct", "ci_low_pct", "ci_high_pct"),
        color="tab:blue",
        alpha=0.8,
        capsize=3,
    )
    _contract_rows_axis(ax, y, rows)
    _axis_labels(ax, x=_say("made % of the contracts played (95% Wilson interval)", table))
    title = title or _say("Made % of each contract played", table)
    _title(ax, title, note, _say(f"no declarer, so no rate: {unrated}", table) if unrated else "")
    return fig


def integer_bin_label(value) -> str:
    """A bin of an integer feature as people write it: ``(-0.001, 11.0]`` -> ``"0–11"``.

    A right-closed interval with integer edges holds the integers after its
    left edge up to its right one (a left edge just below an integer, as
    ``pd.qcut`` makes the lowest, includes that integer). Anything else is
    shown as pandas shows it.
    """
    if not isinstance(value, pd.Interval) or value.closed != "right":
        return str(value)
    left, right = float(value.left), float(value.right)
    if not right.is_integer():
        return str(value)
    if left.is_integer():
        low = int(left) + 1
    elif 0 < math.ceil(left) - left < 0.01:
        low = math.ceil(left)
    else:
        return str(value)
    high = int(right)
    return str(high) if low == high else f"{low}–{high}"


def plot_feature_success(
    table: pd.DataFrame, title: str | None = None, min_count: int = MIN_DEALS, bin_label=str
):
    """Made % against a feature's bins, one line per contract (:func:`success_by_feature`).

    Rows with fewer than ``min_count`` deals are left out (the title names
    them); ``bin_label`` writes a bin's tick label (:func:`integer_bin_label`
    for an integer feature). The feature's axis label is in words
    (:func:`~trickgym.analysis.labels.column_label`). A contract has the
    same colour in every plot.
    """
    _check(table, "count", "made_pct", "ci_low_pct", "ci_high_pct", what="success_by_feature()")
    rows, note = drop_small_samples(table, "count", min_count)
    game = table.attrs.get("game")
    feature = column_label(table.index.names[-1], game)
    fig, ax = _figure()
    grouped = isinstance(rows.index, pd.MultiIndex) and rows.index.nlevels > 1
    if grouped:
        groups = rows.groupby(level=list(range(rows.index.nlevels - 1)), observed=True, sort=False)
    else:  # one line of every declared deal: nothing for a legend to tell apart
        groups = [(None, rows)]
    order = list(dict.fromkeys(rows.index.get_level_values(-1)))
    order.sort(key=lambda v: v.left if isinstance(v, pd.Interval) else v)
    position = {v: i for i, v in enumerate(order)}
    for name, group in groups:
        bins = group.index.get_level_values(-1)
        x = np.array([position[v] for v in bins], dtype=float)
        sort = np.argsort(x)
        g = group.iloc[sort]
        label = " / ".join(map(str, name)) if isinstance(name, tuple) else name
        key = name[0] if isinstance(name, tuple) and len(name) == 1 else name
        ax.errorbar(
            x[sort],
            g["made_pct"],
            yerr=_errors(g, "made_pct", "ci_low_pct", "ci_high_pct"),
            marker="o",
            capsize=3,
            label=label,
            color=group_color(key),
        )
    ax.set_xticks(range(len(order)), [bin_label(v) for v in order])
    ax.set_ylim(0, 100)
    _axis_labels(ax, feature, _say("made % of the contracts played (95% Wilson interval)", table))
    _title(ax, title or f"Made % by {feature}", note)
    if not ax.lines:
        ax.text(0.5, 0.5, f"no bin with {min_count}+ deals", ha="center", transform=ax.transAxes)
    elif grouped:  # the legend's title names what its lines are: "contract", "players / ..."
        names = rows.index.names[:-1]
        ax.legend(title=" / ".join(column_label(n, game) for n in names), fontsize="small")
    return fig


def plot_expected_payoff(
    table: pd.DataFrame,
    title: str | None = None,
    min_count: int = MIN_DEALS,
):
    """Mean declarer payoff with 95% intervals per contract (:func:`expected_payoff`).

    Rows with fewer than ``min_count`` deals are left out (the title names
    them). The default title is "Declarer's mean payoff per deal, by
    contract", in the game's words.
    """
    _check(table, "count", "mean_payoff", "ci_low", "ci_high", what="expected_payoff()")
    rows, note = drop_small_samples(table[table["mean_payoff"].notna()], "count", min_count)
    fig, ax = _figure(7, 0.8 + 0.35 * max(len(rows), 1))
    y = np.arange(len(rows))
    err = np.nan_to_num(_errors(rows, "mean_payoff", "ci_low", "ci_high"))
    colors = ["tab:green" if v >= 0 else "tab:red" for v in rows["mean_payoff"]]
    ax.barh(y, rows["mean_payoff"], xerr=err, color=colors, alpha=0.8, capsize=3)
    ax.set_yticks(
        y,
        [
            f"{lab}  (n={int(n):,})"
            for lab, n in zip(_labels(rows.index), rows["count"], strict=True)
        ],
    )
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    _axis_labels(ax, x=_say("declarer's mean payoff per deal (95% interval)", table))
    title = title or _say("Declarer's mean payoff per deal, by contract", table)
    _title(ax, title[0].upper() + title[1:], note)
    return fig


def plot_calibration(table: pd.DataFrame, title: str | None = None, min_count: int = MIN_DEALS):
    """Realised against predicted made %, with the diagonal of perfect calibration.

    The title names the predictor (``table.attrs["predictor"]``, set by
    :func:`calibration_table`: a hand-feature model, or a column such as the
    agents' own ``p_made``). Bins with fewer than ``min_count`` deals are
    left out (the title says so).
    """
    _check(
        table,
        "count",
        "mean_predicted_pct",
        "made_pct",
        "ci_low_pct",
        "ci_high_pct",
        what="calibration_table()",
    )
    predictor = table.attrs.get("predictor", "the predictions")
    brier, ece = table.attrs.get("brier"), table.attrs.get("ece")
    bins = [  # the note names a bin as people read it: "predicted 10–20%"
        f"predicted {max(v.left, 0):.0%}–{v.right:.0%}" if isinstance(v, pd.Interval) else str(v)
        for v in table.index
    ]
    table, note = drop_small_samples(table.set_axis(bins), "count", min_count)
    fig, ax = _figure(5.5, 5.5)
    ax.plot([0, 100], [0, 100], color="grey", linestyle="--", linewidth=1, label="calibrated")
    ax.errorbar(
        table["mean_predicted_pct"],
        table["made_pct"],
        yerr=_errors(table, "made_pct", "ci_low_pct", "ci_high_pct"),
        marker="o",
        capsize=3,
        linestyle="-",
        label="realised",
    )
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 100)
    _axis_labels(ax, "predicted made % (mean of the bin)", "realised made % (95% Wilson interval)")
    title = title or f"Calibration of {predictor}: predicted vs realised made %"
    score = f"Brier {brier:.3f}, calibration error {ece:.1f} points" if brier is not None else ""
    _title(ax, title, score, note)
    ax.legend(loc="upper left")
    return fig


def plot_comparison(
    table: pd.DataFrame,
    title: str | None = None,
    value: str = "diff_pct",
    min_count: int = MIN_DEALS,
):
    """Differences of made % (or of bid frequency: ``value="freq_diff_pct"``) with 95% intervals.

    Takes the table of :func:`compare_success`; bars right of zero favour the
    first dataset. A difference of made % needs ``min_count`` declared deals
    on both sides, else its row is left out (the title names it); a bid
    frequency is a share of all deals, so every row of it is drawn.
    """
    if value not in ("diff_pct", "freq_diff_pct"):
        raise ValueError(f"value must be 'diff_pct' or 'freq_diff_pct', got {value!r}")
    low, high = f"{value[: -len('_pct')]}_low_pct", f"{value[: -len('_pct')]}_high_pct"
    _check(table, value, low, high, what="compare_success()")
    labels = [c[len("count_") :] for c in table.columns if c.startswith("count_")]
    rows = table[table[value].notna()]
    note = ""
    if value == "diff_pct":
        fewer = rows[[f"count_{label}" for label in labels]].min(axis=1)
        rows, note = drop_small_samples(rows, fewer, min_count)
    fig, ax = _figure(7, 0.8 + 0.35 * max(len(rows), 1))
    y = np.arange(len(rows))
    ax.errorbar(
        rows[value], y, xerr=np.nan_to_num(_errors(rows, value, low, high)), fmt="o", capsize=3
    )
    names = _labels(rows.index)
    if value == "diff_pct":  # how many deals each side's rate rests on
        a, b = (rows[f"count_{label}"].astype(int) for label in labels)
        names = [f"{n}  (n={x:,} / {y:,})" for n, x, y in zip(names, a, b, strict=True)]
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    what = "made %" if value == "diff_pct" else "bid frequency (% of deals)"
    _axis_labels(ax, x=f"{what}: {labels[0]} minus {labels[1]} (95% Newcombe interval)")
    default = _say(f"{what.capitalize()}: {labels[0]} minus {labels[1]}, by contract", table)
    _title(ax, title or default, note)
    return fig


def plot_agent_success(
    table: pd.DataFrame,
    title: str | None = None,
    min_count: int | None = None,
):
    """Made % with 95% intervals per contract, one bar per agent (:func:`bid_success_by_agent`).

    A bar resting on fewer than ``min_count`` deals (default: the table's
    own rule, ``table.attrs["min_count"]``, else :data:`MIN_DEALS`) is left
    out, and so are contracts without a rate; the notes under the plot name
    them. An agent has the same colour in every plot. The default title is
    "Made % of each contract played, by agent", in the game's words.
    """
    if not isinstance(table.columns, pd.MultiIndex) or table.columns.nlevels != 2:
        raise ValueError("table must have (agent, field) columns: pass bid_success_by_agent()")
    agents = list(table.columns.get_level_values(0).unique())
    for agent in agents:
        _check(table[agent], "count", "made_pct", "ci_low_pct", "ci_high_pct",
               what="bid_success_by_agent()")  # fmt: skip
    min_count = table.attrs.get("min_count", MIN_DEALS) if min_count is None else min_count
    rated = table.xs("made_pct", axis=1, level=1).notna().any(axis=1)
    unrated = ", ".join(_labels(table.index[~rated.to_numpy()]))
    notes, kept = [], {}
    for agent in agents:
        cells = table.loc[rated, agent]
        kept[agent], note = drop_small_samples(cells[cells["made_pct"].notna()], "count", min_count)
        if note:
            notes.append(f"under {agent}: {note}")
    # Only contracts with a bar get a row: a row of nothing but left-out cells says nothing.
    drawn = [k for k in table.index[rated] if any(k in kept[a].index for a in agents)]
    rows = table.loc[drawn]
    # Room for the bars, and for the notes under them (a line or two per agent).
    fig, ax = _figure(7, 1.4 + 0.25 * max(len(rows), 1) * max(len(agents), 2) + 0.3 * len(notes))
    height = 0.8 / len(agents)
    y = np.arange(len(rows))
    for i, agent in enumerate(agents):
        cells = kept[agent]
        at = y[rows.index.get_indexer(cells.index)] - 0.4 + height * (i + 0.5)
        ax.barh(
            at,
            cells["made_pct"],
            height=height,
            xerr=_errors(cells, "made_pct", "ci_low_pct", "ci_high_pct"),
            color=agent_color(agent),
            alpha=0.85,
            capsize=2,
            label=agent,
        )
        for where, n in zip(at, cells["count"], strict=True):  # what each bar rests on
            ax.text(1, where, f"n={int(n):,}", va="center", fontsize="x-small")
    ax.set_yticks(y, _labels(rows.index))
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    _axis_labels(ax, x=_say("made % of the contracts played (95% Wilson interval)", table))
    fig.legend(title="agent", fontsize="small", loc="outside right upper")
    unrated = _say(f"no declarer, so no rate: {unrated}", table) if unrated else ""
    title = title or _say("Made % of each contract played, by agent", table)
    _title(ax, title, *notes, unrated, inches=6)
    return fig


def plot_race(
    table: pd.DataFrame,
    title: str = "Phat: how often NS wins the game, by its lead after a deal",
    min_count: int = MIN_DEALS,
):
    """NS's eventual win % against its lead in the race (:func:`race_table`).

    Leads seen after fewer than ``min_count`` deals are left out (the title names them).
    """
    _check(table, "count", "ns_win_pct", "ci_low_pct", "ci_high_pct", what="race_table()")
    table, note = drop_small_samples(table, "count", min_count)
    fig, ax = _figure()
    x = np.arange(len(table))
    ax.errorbar(
        x,
        table["ns_win_pct"],
        yerr=_errors(table, "ns_win_pct", "ci_low_pct", "ci_high_pct"),
        marker="o",
        capsize=3,
    )
    ax.set_xticks(x, [str(v) for v in table.index], rotation=30)
    ax.set_ylim(0, 100)
    ax.axhline(50, color="grey", linestyle="--", linewidth=1)
    _axis_labels(ax, "NS lead after a deal (points)", "NS wins the game % (95% Wilson interval)")
    _title(ax, title, note)
    return fig


_FAILURE_COLORS = {
    "made": "tab:green",
    "made_unsolved": "palegreen",
    "defenders_errors": "yellowgreen",
    "misplayed": "tab:orange",
    "not_makeable": "tab:red",
    "failed_unsolved": "lightgrey",
}


def plot_failure_shares(
    table: pd.DataFrame,
    title: str | None = None,
    min_count: int = MIN_DEALS,
):
    """One stacked bar per contract: its declared deals split into disjoint outcomes.

    Takes :func:`failure_split` (or :func:`failure_counts`); the parts are
    :func:`failure_shares`, so every bar ends at exactly 100%. The legend
    sits below the axes, where it cannot cover a bar. Contracts with fewer
    than ``min_count`` declared deals are left out (the title names them).
    The default title is "Outcome of the declared deals, by contract (double
    dummy verdict)", in the game's words.
    """
    rows, note = drop_small_samples(table, "count", min_count)
    shares = 100 * failure_shares(rows)
    fig, ax = _figure(10, 1.8 + 0.4 * max(len(rows), 1))
    y = np.arange(len(rows))
    left = np.zeros(len(rows))
    for name, words in FAILURE_CATEGORIES.items():
        width = shares[name].to_numpy(dtype=float)
        ax.barh(y, width, left=left, color=_FAILURE_COLORS[name], label=words)
        left += np.nan_to_num(width)
    _contract_rows_axis(ax, y, rows)
    _axis_labels(ax, x=_say("% of the contract's declared deals", table))
    default = "Outcome of the declared deals, by contract (double dummy verdict)"
    title = title or _say(default, table)
    _title(ax, title, note, inches=5.5)  # the legend takes the right of the figure
    fig.legend(loc="outside right upper", fontsize="small")
    return fig


def _step(values: np.ndarray) -> float:
    """The grid step of ``values`` (smallest gap between distinct values; 1 if none)."""
    distinct = np.unique(values[np.isfinite(values)])
    return float(np.diff(distinct).min()) if len(distinct) > 1 else 1.0


def plot_made_scatter(
    df: pd.DataFrame, x: str, y: str = "bid", title: str | None = None, seed: int = 0
):
    """Every declared deal as a point, ``x`` against ``y``: made green, failed red on top.

    Bids and melds lie on a grid, so every point is jittered by up to a
    third of its axis' grid step (the clouds then show how many deals sit
    on a grid point) and drawn half transparent; the failed contracts come
    last, above the made ones, so these cannot hide them. The legend (with
    the counts) sits beside the axes; axis labels are in words
    (:func:`~trickgym.analysis.labels.column_label`).
    """
    require(df, x, y, "made", "declarer")
    game = game_of(df)
    rows = df[declared(df)]
    made = rows["made"].astype(bool).to_numpy()
    rng = np.random.default_rng(seed)
    xs, ys = (rows[c].to_numpy(dtype=float) for c in (x, y))
    xs = xs + _step(xs) * rng.uniform(-1 / 3, 1 / 3, len(rows))
    ys = ys + _step(ys) * rng.uniform(-1 / 3, 1 / 3, len(rows))
    fig, ax = _figure(8, 4.5)
    for mask, color, words, z in (
        (made, "tab:green", "made", 2),
        (~made, "tab:red", "failed (drawn on top)", 3),
    ):
        ax.scatter(
            xs[mask], ys[mask], s=6, alpha=0.4, color=color, zorder=z, linewidths=0,
            label=in_words_of(f"{words}: {int(mask.sum()):,} contracts", game),
        )  # fmt: skip
    _axis_labels(ax, column_label(x, game), column_label(y, game))
    _title(
        ax,
        title or f"{column_label(y, game).capitalize()} against {column_label(x, game)}",
        f"{len(rows):,} declared deals, one point each, jittered within a third of a grid "
        "step; failed drawn over made",
        inches=5.5,
    )
    fig.legend(loc="outside right upper", fontsize="small", markerscale=2)
    return fig
