"""Confidence intervals for rates, differences of rates and means (95% by default)."""

from __future__ import annotations

import numpy as np

from ..checks import check_real

__all__ = ["Z95", "mean_interval", "newcombe_interval", "wilson_interval"]

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def _counts(name: str, value) -> np.ndarray:
    """``value`` (a count or an array of counts) as floats, or a ``ValueError`` naming it.

    Counts are whole numbers >= 0 given as numbers (NaN, "not counted", gives
    NaN): a string, a bool, infinity or 1.5 is a slip upstream, not a count,
    and would give a plausible interval.
    """
    array = np.asarray(value)
    if array.dtype.kind not in "iuf" or isinstance(value, bool):
        raise ValueError(f"{name} must be whole numbers >= 0, got {value!r}")
    array = array.astype(float)
    counted = array[~np.isnan(array)]
    if not (
        np.isfinite(counted).all() and (counted >= 0).all() and (counted == np.round(counted)).all()
    ):
        raise ValueError(f"{name} must be whole numbers >= 0, got {value!r}")
    return array


def _z(z) -> float:
    return check_real("z", z, 0, above=True)


def wilson_interval(successes, trials, z: float = Z95):
    """Wilson score interval ``(low, high)`` for a binomial proportion.

    Works on scalars or arrays; zero trials give ``(nan, nan)``.

    >>> low, high = wilson_interval(8, 10)
    >>> round(float(low), 4), round(float(high), 4)
    (0.4902, 0.9433)
    """
    k = _counts("successes", successes)
    n = _counts("trials", trials)
    z = _z(z)
    if (k > n).any():  # NaN compares False: an uncounted side passes
        raise ValueError(f"successes must be <= trials, got {successes!r} of {trials!r}")
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denom
    # At 0 or n successes the bound is exactly 0 or 1; rounding must not print -0.0.
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def newcombe_interval(k1, n1, k2, n2, z: float = Z95):
    """Newcombe's hybrid score interval ``(low, high)`` for ``k1/n1 - k2/n2``.

    Built from the two Wilson intervals (Newcombe 1998, method 10); it keeps
    its coverage near 95% for small counts and rates near 0 or 1, where the
    plain normal interval fails. Scalars or arrays; an empty side gives nan.
    """
    k1, n1, k2, n2 = (np.asarray(x, dtype=float) for x in (k1, n1, k2, n2))
    with np.errstate(invalid="ignore", divide="ignore"):
        p1, p2 = k1 / n1, k2 / n2
        l1, u1 = wilson_interval(k1, n1, z)
        l2, u2 = wilson_interval(k2, n2, z)
        d = p1 - p2
        low = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
        high = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return low, high


def mean_interval(mean, std, count, z: float = Z95):
    """Normal-approximation interval ``(low, high)`` for a mean: ``mean ± z std / sqrt(n)``.

    ``std`` is the sample standard deviation; fewer than two values give nan.
    """
    mean, std, n = (np.asarray(x, dtype=float) for x in (mean, std, count))
    with np.errstate(invalid="ignore", divide="ignore"):
        half = np.where(n >= 2, z * std / np.sqrt(n), np.nan)
    return mean - half, mean + half
