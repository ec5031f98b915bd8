"""Analysis of simulation results: bid success, payoffs, calibration, comparisons, plots.

:func:`compare_agents` tables each contract's success under several agents
(rule, learnt, double dummy), one simulation per agent, side by side.

The hand advisor (:func:`hand_odds`, from :mod:`trickgym.advisor.advise`) values
every call a seat could make now over deals sampled from what it knows.

Pure pandas in, pandas out. Every rate comes with a 95% Wilson interval,
every difference of rates with a Newcombe interval. Hand-feature columns
(``hf_*``, see ``trickgym.sim.features``) or any other column can be binned.
Rows simulated with ``dd=True`` also split the failures into not makeable
double dummy and misplayed (:func:`failure_split`).

>>> import pandas as pd
>>> df = pd.DataFrame({"contract": ["Solo"] * 4, "declarer": [0, 1, 2, 3],
...                    "made": [True, True, True, False]})
>>> bid_success(df)["made_pct"].tolist()
[75.0]
"""

from __future__ import annotations

from trickgym.advisor import advise

from .agents import (
    bid_success_by_agent,
    compare_agents,
    simulate_agents,
    unavailable_agents,
)
from .calibration import (
    SuccessModel,
    calibration_table,
    fit_success_model,
    out_of_fold_predictions,
)
from .columns import declared, declarer_payoff, detect_game, feature_columns, seat_position
from .compare import compare_payoff, compare_success
from .dataset import load_dataset
from .failures import failure_counts, failure_shares, failure_split, failure_split_from_counts
from .intervals import mean_interval, newcombe_interval, wilson_interval
from .labels import COLUMN_LABELS, column_label
from .phat import format_phat_summary, phat_summary, pitch_frame, race_table
from .plots import (
    MIN_DEALS,
    drop_small_samples,
    plot_agent_success,
    plot_calibration,
    plot_comparison,
    plot_expected_payoff,
    plot_failure_shares,
    plot_feature_success,
    plot_made_scatter,
    plot_race,
    plot_success,
)
from .report import html_report, write_report
from .success import (
    bid_counts,
    bid_success,
    bid_success_from_counts,
    expected_payoff,
    feature_bins,
    success_by_feature,
    success_by_position,
    success_table,
)
from .text import (
    bid_table_legend,
    format_agent_table,
    format_bid_table,
    format_failure_table,
    format_table,
)

__all__ = [
    "COLUMN_LABELS",
    "MIN_DEALS",
    "SuccessModel",
    "advise_state",
    "bid_counts",
    "bid_success",
    "bid_success_by_agent",
    "bid_success_from_counts",
    "bid_table_legend",
    "calibration_table",
    "column_label",
    "compare_agents",
    "compare_payoff",
    "compare_success",
    "declared",
    "declarer_payoff",
    "detect_game",
    "drop_small_samples",
    "expected_payoff",
    "failure_counts",
    "failure_shares",
    "failure_split",
    "failure_split_from_counts",
    "feature_bins",
    "feature_columns",
    "fit_success_model",
    "format_advice",
    "format_agent_table",
    "format_bid_table",
    "format_failure_table",
    "format_phat_summary",
    "format_table",
    "hand_odds",
    "html_report",
    "load_dataset",
    "mean_interval",
    "newcombe_interval",
    "out_of_fold_predictions",
    "phat_summary",
    "pitch_frame",
    "plot_agent_success",
    "plot_calibration",
    "plot_comparison",
    "plot_expected_payoff",
    "plot_failure_shares",
    "plot_feature_success",
    "plot_made_scatter",
    "plot_race",
    "plot_success",
    "race_table",
    "seat_position",
    "simulate_agents",
    "success_by_feature",
    "success_by_position",
    "success_table",
    "unavailable_agents",
    "wilson_interval",
    "write_report",
]


_ADVISOR = ("advise_state", "format_advice", "hand_odds")


def __getattr__(name):
    # lazy: the advisor reads this package's intervals and labels, so importing it here,
    # while this package is half made, would circle.
    if name in _ADVISOR:
        return getattr(advise, name)
    raise AttributeError(f"module 'trickgym.analysis' has no attribute {name!r}")
