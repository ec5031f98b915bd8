"""Matplotlib figures of the analysis tables; every helper returns a ``Figure``.

Figures are built with ``matplotlib.figure.Figure`` (no pyplot state), so
they are safe in scripts, threads and tests; a notebook shows a returned
figure, and ``fig.savefig(path)`` writes it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = [
    "group_color",
    "integer_bin_label",
    "plot_calibration",
    "plot_comparison",
    "plot_expected_payoff",
    "plot_feature_success",
    "plot_race",
    "plot_success",
]


def _figure(width: float = 7.0, height: float = 4.0):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.add_subplot()


def _labels(index: pd.Index) -> list[str]:
    if isinstance(index, pd.MultiIndex):
        return [" / ".join(map(str, key)) for key in index]
    return [str(key) for key in index]


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
    from trickgym.games.solowhist.constants import CONTRACT_NAMES as SOLOWHIST
    from trickgym.games.troggu.constants import CONTRACT_NAMES as TROGGU

    return list(dict.fromkeys([*SOLOWHIST, *TROGGU[1:]]))


def group_color(name) -> str:
    """The same colour for a contract (or any group) in every plot.

    By the contract's place in the games' fixed list of contracts (Solo
    Whist's, then Troggu's), else by a hash of the name; never by the order
    the groups happen to come in.
    """
    import zlib

    known = _known_contracts()
    if name in known:
        return _PALETTE[known.index(name) % len(_PALETTE)]
    return _PALETTE[zlib.crc32(str(name).encode()) % len(_PALETTE)]


def _check(table: pd.DataFrame, *columns: str, what: str) -> pd.DataFrame:
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ValueError(f"table lacks {', '.join(missing)}: pass the table of {what}")
    return table


def plot_success(table: pd.DataFrame, title: str = "Bid success", min_count: int = 1):
    """Made % with 95% intervals per row of a success table (:func:`bid_success` and kin).

    Rows without a rate (nobody declared) or with fewer than ``min_count``
    deals are left out.
    """
    _check(table, "count", "made_pct", "ci_low_pct", "ci_high_pct", what="bid_success()")
    rows = table[(table["count"] >= min_count) & table["made_pct"].notna()]
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
    ax.set_yticks(
        y,
        [
            f"{lab}  (n={int(n):,})"
            for lab, n in zip(_labels(rows.index), rows["count"], strict=True)
        ],
    )
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("made % (95% Wilson interval)")
    ax.set_title(title)
    return fig


def integer_bin_label(value) -> str:
    """A bin of an integer feature as people write it: ``(-0.001, 11.0]`` -> ``"0–11"``.

    A right-closed interval with integer edges holds the integers after its
    left edge up to its right one (a left edge just below an integer, as
    ``pd.qcut`` makes the lowest, includes that integer). Anything else is
    shown as pandas shows it.
    """
    import math

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
    table: pd.DataFrame, title: str | None = None, min_count: int = 1, bin_label=str
):
    """Made % against a feature's bins, one line per contract (:func:`success_by_feature`).

    Rows with fewer than ``min_count`` deals are left out (the title says
    so); ``bin_label`` writes a bin's tick label (:func:`integer_bin_label`
    for an integer feature). A contract has the same colour in every plot.
    """
    _check(table, "count", "made_pct", "ci_low_pct", "ci_high_pct", what="success_by_feature()")
    rows = table[table["count"] >= min_count]
    feature = rows.index.names[-1]
    fig, ax = _figure()
    if isinstance(rows.index, pd.MultiIndex) and rows.index.nlevels > 1:
        groups = rows.groupby(level=list(range(rows.index.nlevels - 1)), observed=True, sort=False)
    else:
        groups = [("all", rows)]
    order = list(dict.fromkeys(rows.index.get_level_values(-1)))
    order.sort(key=lambda v: v.left if isinstance(v, pd.Interval) else v)
    position = {v: i for i, v in enumerate(order)}
    for name, group in groups:
        bins = group.index.get_level_values(-1)
        x = np.array([position[v] for v in bins], dtype=float)
        sort = np.argsort(x)
        g = group.iloc[sort]
        label = " / ".join(map(str, name)) if isinstance(name, tuple) else str(name)
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
    ax.set_xlabel(str(feature))
    ax.set_ylabel("made % (95% Wilson interval)")
    left_out = int((table["count"] < min_count).sum())
    note = f"\n({left_out} bin(s) with fewer than {min_count} deals left out)" if left_out else ""
    ax.set_title((title or f"Bid success by {feature}") + note)
    if ax.lines:
        ax.legend(fontsize="small")
    else:
        ax.text(0.5, 0.5, f"no bin with {min_count}+ deals", ha="center", transform=ax.transAxes)
    return fig


def plot_expected_payoff(table: pd.DataFrame, title: str = "Declarer's expected payoff"):
    """Mean declarer payoff with 95% intervals per contract (:func:`expected_payoff`)."""
    _check(table, "count", "mean_payoff", "ci_low", "ci_high", what="expected_payoff()")
    rows = table[table["mean_payoff"].notna()]
    fig, ax = _figure(7, 0.8 + 0.35 * max(len(rows), 1))
    y = np.arange(len(rows))
    err = np.nan_to_num(_errors(rows, "mean_payoff", "ci_low", "ci_high"))
    colors = ["tab:green" if v >= 0 else "tab:red" for v in rows["mean_payoff"]]
    ax.barh(y, rows["mean_payoff"], xerr=err, color=colors, alpha=0.8, capsize=3)
    ax.set_yticks(y, _labels(rows.index))
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("mean payoff per deal (95% interval)")
    ax.set_title(title)
    return fig


def plot_calibration(table: pd.DataFrame, title: str = "Calibration of bidding"):
    """Realised against predicted made %, with the diagonal of perfect calibration."""
    _check(
        table,
        "mean_predicted_pct",
        "made_pct",
        "ci_low_pct",
        "ci_high_pct",
        what="calibration_table()",
    )
    fig, ax = _figure(5, 5)
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
    ax.set_xlabel("predicted made %")
    ax.set_ylabel("realised made % (95% Wilson interval)")
    brier, ece = table.attrs.get("brier"), table.attrs.get("ece")
    if brier is not None:
        title = f"{title}\nBrier {brier:.3f}, calibration error {ece:.1f} points"
    ax.set_title(title)
    ax.legend(loc="upper left")
    return fig


def plot_comparison(table: pd.DataFrame, title: str | None = None, value: str = "diff_pct"):
    """Differences of made % (or of bid frequency: ``value="freq_diff_pct"``) with 95% intervals.

    Takes the table of :func:`compare_success`; bars right of zero favour the
    first dataset.
    """
    low, high = f"{value[: -len('_pct')]}_low_pct", f"{value[: -len('_pct')]}_high_pct"
    _check(table, value, low, high, what="compare_success()")
    rows = table[table[value].notna()]
    fig, ax = _figure(7, 0.8 + 0.35 * max(len(rows), 1))
    y = np.arange(len(rows))
    ax.errorbar(
        rows[value], y, xerr=np.nan_to_num(_errors(rows, value, low, high)), fmt="o", capsize=3
    )
    ax.set_yticks(y, _labels(rows.index))
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    labels = [c[len("count_") :] for c in table.columns if c.startswith("count_")]
    what = "made %" if value == "diff_pct" else "bid frequency %"
    ax.set_xlabel(f"{what}: {labels[0]} minus {labels[1]} (95% Newcombe interval)")
    ax.set_title(title or f"{labels[0]} vs {labels[1]}")
    return fig


def plot_race(table: pd.DataFrame, title: str = "Phat: the race to 181"):
    """NS's eventual win % against its lead in the race (:func:`race_table`)."""
    _check(table, "ns_win_pct", "ci_low_pct", "ci_high_pct", what="race_table()")
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
    ax.set_xlabel("NS lead after a deal (points)")
    ax.set_ylabel("NS wins the game % (95% Wilson interval)")
    ax.set_title(title)
    return fig
