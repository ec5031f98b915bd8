"""Calibration of bidding: predicted against realised success.

A prediction is a probability that the declarer makes the contract, known
at the time of the bid. It comes either from the data (a column such as an
agent's own estimate) or from :class:`SuccessModel`, a logistic regression of
``made`` on hand features fitted per contract. :func:`calibration_table`
bins the predictions and sets the realised success rate (with its Wilson
interval) beside the mean prediction of every bin: a calibrated predictor
lies on the diagonal. :func:`out_of_fold_predictions` gives every deal a
prediction from a model that never saw it, so a model's calibration is
measured honestly on the data it came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..checks import check_int
from .columns import declared, plain_index, require
from .intervals import wilson_interval
from .labels import column_label

__all__ = ["SuccessModel", "calibration_table", "fit_success_model", "out_of_fold_predictions"]


def _logistic_fit(x: np.ndarray, y: np.ndarray, ridge: float, iters: int = 50) -> np.ndarray:
    """Coefficients (intercept first) of a ridge-penalised logistic regression by Newton steps."""
    design = np.column_stack([np.ones(len(x)), x])
    beta = np.zeros(design.shape[1])
    penalty = np.full(design.shape[1], ridge)
    penalty[0] = 0.0  # the intercept is not shrunk
    for _ in range(iters):
        p = 1 / (1 + np.exp(-np.clip(design @ beta, -30, 30)))
        grad = design.T @ (y - p) - penalty * beta
        hess = (design * (p * (1 - p))[:, None]).T @ design + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.max(np.abs(step)) < 1e-8:
            break
    return beta


@dataclass
class SuccessModel:
    """Logistic regression of ``made`` on ``features``, one fit per contract.

    ``coefficients[contract]`` holds the intercept then one weight per
    feature, on features standardised with ``means``/``scales`` (per
    contract). Contracts seen fewer than ``min_count`` times, or never both
    made and set, are predicted by their raw success rate.
    """

    features: list[str]
    by: str = "contract"
    coefficients: dict = field(default_factory=dict)
    means: dict = field(default_factory=dict)
    scales: dict = field(default_factory=dict)
    base_rates: dict = field(default_factory=dict)

    def predict(self, df: pd.DataFrame) -> pd.Series:
        """Predicted probability of making the contract for every declared row (nan otherwise)."""
        require(df, self.by, *self.features)
        out = pd.Series(np.nan, index=df.index, name="p_made")
        rows = df[declared(df)]
        for contract, group in rows.groupby(self.by, observed=True):
            if contract in self.coefficients:
                x = (group[self.features].to_numpy(dtype=float) - self.means[contract]) / (
                    self.scales[contract]
                )
                beta = self.coefficients[contract]
                out.loc[group.index] = 1 / (1 + np.exp(-(beta[0] + x @ beta[1:])))
            elif contract in self.base_rates:
                out.loc[group.index] = self.base_rates[contract]
        return out


def fit_success_model(
    df: pd.DataFrame, features, by: str = "contract", ridge: float = 1.0, min_count: int = 20
) -> SuccessModel:
    """Fit :class:`SuccessModel` on the declared deals of ``df``.

    ``features`` is a column name or a list (e.g. ``["hf_trump_len",
    "hf_hcp"]``); ``ridge`` the L2 penalty on the standardised weights,
    which keeps fits on small or separable groups finite.
    """
    features = [features] if isinstance(features, str) else list(features)
    if not features:
        raise ValueError("features must name at least one column, e.g. 'hf_trump_len'")
    require(df, by, "made", "declarer", *features)
    model = SuccessModel(features=features, by=by)
    rows = df[declared(df)]
    for contract, group in rows.groupby(by, observed=True):
        y = group["made"].to_numpy(dtype=float)
        model.base_rates[contract] = float(y.mean())
        if len(group) < min_count or y.min() == y.max():
            continue
        x = group[features].to_numpy(dtype=float)
        mean, scale = x.mean(axis=0), x.std(axis=0)
        scale[scale == 0] = 1.0
        model.means[contract], model.scales[contract] = mean, scale
        model.coefficients[contract] = _logistic_fit((x - mean) / scale, y, ridge)
    return model


def out_of_fold_predictions(
    df: pd.DataFrame, features, folds: int = 5, seed: int = 0, **fit_options
) -> pd.Series:
    """Every declared deal's success probability from a model fitted on the other folds.

    Deals are split into ``folds`` random folds (``seed``); each fold is
    predicted by :func:`fit_success_model` on the rest. ``attrs["predictor"]``
    says what predicted them (plots and tables name it).
    """
    folds = check_int("folds", folds, 2)
    out = pd.Series(np.nan, index=df.index, name="p_made")
    fold_of = np.random.default_rng(seed).integers(0, folds, size=len(df))
    for k in range(folds):
        test = fold_of == k
        model = fit_success_model(df[~test], features, **fit_options)
        out[test] = model.predict(df[test]).to_numpy()
    names = [features] if isinstance(features, str) else list(features)
    out.attrs["predictor"] = (
        f"a hand-feature model (logistic regression on {len(names)} hand features, out-of-fold)"
    )
    return out


def calibration_table(df: pd.DataFrame, predicted="p_made", bins: int = 10) -> pd.DataFrame:
    """Realised against predicted success in ``bins`` equal-width probability bins.

    ``predicted`` is a column of ``df`` or a Series/array aligned with it
    (e.g. from :func:`out_of_fold_predictions`); rows without a prediction
    or a declarer are left out. Columns: ``count``, ``mean_predicted_pct``,
    ``made_pct``, ``ci_low_pct``, ``ci_high_pct``. ``table.attrs`` holds the
    ``brier`` score and the ``ece`` (expected calibration error: the
    count-weighted mean of ``|made - predicted|`` over bins, in points of %),
    and ``predictor``: what made the predictions, in words (the column's, or
    the Series' own ``attrs["predictor"]``).
    """
    require(df, "made", "declarer")
    if isinstance(predicted, str):
        require(df, predicted)
        predictor = f"{column_label(predicted)} ({predicted})"
        p = df[predicted].to_numpy(dtype=float)
    else:
        predictor = getattr(predicted, "attrs", {}).get("predictor", "the predictions")
        p = np.asarray(predicted, dtype=float)
        if p.shape != (len(df),):
            raise ValueError(f"predicted has shape {p.shape}; expected ({len(df)},), one per row")
    keep = declared(df).to_numpy() & ~np.isnan(p)
    p, y = p[keep], df["made"].to_numpy(dtype=float)[keep]
    if ((p < 0) | (p > 1)).any():
        raise ValueError("predicted probabilities must lie in [0, 1]")
    bins = check_int("bins", bins, 1)
    edges = np.linspace(0, 1, bins + 1)
    frame = pd.DataFrame({"bin": pd.cut(p, edges, include_lowest=True), "p": p, "y": y})
    grouped = frame.groupby("bin", observed=True)
    table = pd.DataFrame(
        {
            "count": grouped.size(),
            "mean_predicted_pct": 100 * grouped["p"].mean(),
            "made": grouped["y"].sum().astype(np.int64),
        }
    )
    low, high = wilson_interval(table["made"], table["count"])
    table["made_pct"] = 100 * table["made"] / table["count"]
    table["ci_low_pct"] = 100 * low
    table["ci_high_pct"] = 100 * high
    n = table["count"].sum()
    table.attrs["predictor"] = predictor
    table.attrs["brier"] = float(np.mean((p - y) ** 2)) if len(p) else np.nan
    table.attrs["ece"] = (
        float((table["count"] * (table["made_pct"] - table["mean_predicted_pct"]).abs()).sum() / n)
        if n
        else np.nan
    )
    return plain_index(table)
