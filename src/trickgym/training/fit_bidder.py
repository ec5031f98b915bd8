"""Fit the rule agent's bidding thresholds by simulated duplicate play.

A candidate's score is its duplicate margin over today's rule agent: the
candidate and the default ``RuleOptions`` replay the same deals in every
seating (:func:`trickgym.duplicate.tournament`, two of each round a Solo
Whist table, the two teams in Pinochle), and the per-deal paired
difference is averaged. Card play is the rule agent's on both sides, so
the fit is of the bidder the rule agent actually plays with (the bidding
thresholds below; card-play fields are left as they are).

The search is coordinate descent: each bidding field in turn is moved by
``-2, -1, +1, +2`` steps; the best move is taken only if it beats the
current options by more than ``accept_z`` standard errors of the paired
difference on the same deals. Steps halve after every round, and the
search stops after ``rounds`` or a round with no move. The deals used to
fit are not the ones to judge the result on: check the fitted options in a
fresh tournament (``experiments/fit_bidder.py`` does both).
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import pandas as pd

from trickgym.engine.params import options_class

__all__ = [
    "BID_FIELDS",
    "FitResult",
    "bid_fields",
    "fit_bidder",
    "fitted_against_rule",
    "margin_over_rule",
]

#: Bidding fields per game and their first step (halved every round).
BID_FIELDS = {
    "solowhist": {
        "solo_min": 0.5,
        "prop_min": 0.5,
        "cop_min": 0.5,
        "abundance_min": 0.5,
        "misere_slack": 1.0,
        "misere_max_danger": 1.0,
        "ouverte_slack": 1.0,
        "upgrade_slack": 0.5,
    },
    "pinochle": {
        "counter_base": 10.0,
        "per_trump": 2.0,
        "per_ace": 2.0,
        "partner_meld": 10.0,
        "partner_bid_bonus": 10.0,
        "kitty_bonus": 10.0,
        "bid_margin": 10.0,
    },
}


#: Lowest sensible values (counts and per-card credits cannot go below zero).
FIELD_MIN = {"misere_max_danger": 0.0, "per_trump": 0.0, "per_ace": 0.0, "partner_meld": 0.0}


def bid_fields(game: str, **options) -> dict[str, float]:
    """The fields :func:`fit_bidder` moves for ``game`` (with these game options), and steps."""
    if game not in BID_FIELDS:
        raise ValueError(
            f"no bidding fields to fit for {game!r}; games with some: {sorted(BID_FIELDS)}"
        )
    fields = dict(BID_FIELDS[game])
    if game == "pinochle" and options.get("mode", "kitty") != "kitty":
        del fields["kitty_bonus"]  # the exchange mode has no kitty: the field is never read
    return fields


def fitted_against_rule(
    game: str, candidate, deals: int, seed: int, *, threads=None, progress=False, **options
):
    """The duplicate tournament of ``candidate`` (``RuleOptions``, seated as ``"fitted"``)
    against the default rule agent: :func:`trickgym.duplicate.tournament`'s report."""
    # lazy: trickgym.duplicate loads pyarrow
    from trickgym.duplicate import tournament

    return tournament(
        game,
        ["fitted", "rule"],
        deals,
        seed,
        rule_options={"fitted": candidate},
        threads=threads,
        progress=progress,
        **options,
    )


def margin_over_rule(game: str, candidate, deals: int, seed: int, *, threads=None, **options):
    """Per-deal duplicate margin of ``candidate`` (``RuleOptions``) over the default rule agent.

    A pandas Series indexed by deal: the candidate's paired value minus the
    default's, as :func:`trickgym.duplicate.tournament` pairs them.
    """
    # One of many candidates: the fit reports its own progress.
    report = fitted_against_rule(game, candidate, deals, seed, threads=threads, **options)
    return report.per_deal["fitted"] - report.per_deal["rule"]


@dataclasses.dataclass
class FitResult:
    """What :func:`fit_bidder` found.

    ``options``: the fitted ``RuleOptions``; ``margin``: its mean margin per
    deal over the default on the fitting deals, with ``ci_low``/``ci_high``
    (95%, optimistic: the same deals chose it); ``history``: every
    candidate tried (round, field, value, margin, its gain over the
    options of the moment and that gain's standard error, accepted).
    """

    game: str
    options: object
    margin: float
    ci_low: float
    ci_high: float
    deals: int
    seed: int
    seconds: float
    history: pd.DataFrame


def fit_bidder(
    game: str,
    deals: int = 200_000,
    seed: int = 1,
    *,
    rounds: int = 3,
    start=None,
    fields: dict[str, float] | None = None,
    accept_z: float = 2.0,
    threads: int | None = None,
    progress: bool = True,
    **options,
) -> FitResult:
    """Fit ``game``'s rule bidding thresholds on ``deals`` deals of ``seed`` (see the module).

    ``start`` (default: today's ``RuleOptions``) is where the search
    begins; ``fields`` maps the fields to move to their first step
    (default :func:`bid_fields`). Reproducible: the result depends only on
    the arguments.
    """
    cls = options_class(game)
    current = cls() if start is None else start
    if not isinstance(current, cls):
        raise ValueError(f"start must be {cls.__name__} for {game}, got {current!r}")
    steps = bid_fields(game, **options) if fields is None else dict(fields)
    names = {f.name for f in dataclasses.fields(cls)}
    bad = sorted(set(steps) - names)
    if bad:
        raise ValueError(f"unknown {cls.__name__} fields {bad}; fields: {sorted(names)}")
    for name, step in steps.items():
        if not (isinstance(step, int | float) and step > 0):
            raise ValueError(f"the step of {name} must be a positive number, got {step!r}")
    for name, value in (("rounds", rounds), ("deals", deals)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")

    # lazy: tqdm is slow to import
    from tqdm.auto import tqdm

    t0 = time.perf_counter()
    margin = margin_over_rule(game, current, deals, seed, threads=threads, **options)
    rows = []
    bar = tqdm(total=rounds * len(steps) * 4, desc=f"fit {game} bidder", disable=not progress)
    for r in range(rounds):
        moved = False
        for name, step in steps.items():
            best = None
            for k in (-2, -1, 1, 2):
                value = getattr(current, name) + k * step * 0.5**r
                if value < FIELD_MIN.get(name, -np.inf):
                    bar.update()
                    continue
                candidate = dataclasses.replace(current, **{name: value})
                trial = margin_over_rule(game, candidate, deals, seed, threads=threads, **options)
                gain = (trial - margin).to_numpy()
                se = float(gain.std(ddof=1)) / np.sqrt(len(gain))
                ok = gain.mean() > accept_z * se and gain.mean() > 0
                rows.append(
                    dict(round=r, field=name, value=value, margin=float(trial.mean()),
                         gain=float(gain.mean()), gain_se=se, accepted=False)
                )  # fmt: skip
                if ok and (best is None or gain.mean() > best[0]):
                    best = (gain.mean(), candidate, trial, len(rows) - 1)
                bar.update()
            if best is not None:
                _, current, margin, i = best
                rows[i]["accepted"] = True
                moved = True
        if not moved:
            break
    bar.close()
    # lazy: trickgym.duplicate loads pyarrow
    from trickgym.duplicate import mean_interval

    mean, low, high = mean_interval(margin.to_numpy())
    return FitResult(
        game, current, mean, low, high, deals, seed, time.perf_counter() - t0, pd.DataFrame(rows)
    )
