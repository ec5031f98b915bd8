"""PIMC's Solo Whist bidder: calls valued by calibrated sampled made-rates.

A call's value is the expected payoff of declaring its contract alone:

    x_goal, x_short = made-rates over ``samples`` deals consistent with the
             seat's observation: Solo, Abundance (each trump suit) and
             Abundance Declared solved double dummy from the first lead, at
             the goal and one trick short of it
             (:func:`.bid_solowhist.dd_made_counts`); Misère and Misère
             Ouverte, which double dummy are almost never made, by rule-agent
             playouts (:func:`.bid_solowhist.rule_made_counts`);
    p      = 1 / (1 + exp(-(b0 + b_goal x_goal + b_short x_short)))
             (the calibration: the chance PIMC makes the contract in play);
    value  = p * win + (1 - p) * loss  (win, loss: PIMC's mean payoff as
             declarer when made / beaten, over- and under-tricks included).

``b0, b_goal, b_short, win, loss`` per contract are fitted (logistic
regression) on deals declared and played by PIMC against the tournament's
defenders (PIMC opposite, rule agents either side) by
``experiments/solowhist_bid_calibration.py`` and stored in
:data:`CALIBRATION` (plain numbers; the fit's table is in
``experiments/results/bidding/calibration.txt``). Double-dummy defenders are
stronger than real ones, so Solo and Abundance are made in play far more
often than the solver's made-rate at the goal says; one trick short
carries the rest of the signal.

``bids="calibrated"``: the seat declares the call worth most if it is worth
more than ``margin`` points (Pass = 0); otherwise it calls what the rule
agent would with only Pass, Prop and Cop allowed (Prop & Cop is a
partnership contract the values do not cover). ``bids="hybrid"``: every
call is valued by PIMC's rule-agent playouts except those above Solo
(Misère and up), valued as here, and the best is called. Abundance is valued with
the trump suit worth most, which is then the seat's trump choice; the Cop
re-entry is the rule agent's (calibrated) or the playouts' (hybrid).
Everything reads only the seat's observation record; the samples come
from the agent's generator, reseeded per deal, so a decision is a function
of the observation and the seed.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from trickgym.engine.loops import rule_choice
from trickgym.games.solowhist.constants import (
    ABUNDANCE_CALL,
    ABUNDANCE_DECLARED_CALL,
    ABUNDANCE_IN_TRUMPS_CALL,
    AUCTION,
    CALL_BASE,
    COP,
    MISERE_CALL,
    MISERE_OUVERTE_CALL,
    PASS,
    PROP,
    SOLO_CALL,
    TRUMP_BASE,
    TRUMP_CHOICE,
    UPGRADE,
)

from .bid_solowhist import (
    K_ABUNDANCE,
    K_ABUNDANCE_SHORT,
    K_DECLARED,
    K_SOLO,
    K_SOLO_SHORT,
    N_KINDS,
    dd_made_counts,
    rule_made_counts,
)

__all__ = ["CALIBRATION", "BidCalibration", "ContractCalibration", "solved_call"]


@dataclass(frozen=True)
class ContractCalibration:
    """One contract's calibration: made-rate in play from the sampled made-rates, payoffs.

    ``p = 1 / (1 + exp(-(b0 + b_goal * x_goal + b_short * x_short)))`` where
    ``x_goal`` is the sampled made-rate at the goal and ``x_short`` one trick
    short of it (Solo, Abundance; 0 for the others); ``win`` and ``loss`` are
    the declarer's mean payoff when the contract is made and beaten.
    """

    b0: float
    b_goal: float
    b_short: float
    win: float
    loss: float

    def __post_init__(self):
        for name in ("b0", "b_goal", "b_short", "win", "loss"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int | float) or not np.isfinite(v):
                raise ValueError(f"{name} must be a finite number, got {v!r}")
        for name in ("b_goal", "b_short"):
            if getattr(self, name) < 0:
                raise ValueError(
                    f"{name} must be >= 0 (a contract the solver makes more often is not "
                    f"made less often in play), got {getattr(self, name)!r}"
                )
        if self.win <= 0:
            raise ValueError(f"win must be a positive payoff, got {self.win!r}")
        if self.loss >= 0:
            raise ValueError(f"loss must be a negative payoff, got {self.loss!r}")

    def made(self, x_goal: float, x_short: float = 0.0) -> float:
        """Calibrated chance PIMC makes the contract."""
        z = self.b0 + self.b_goal * x_goal + self.b_short * x_short
        return float(1.0 / (1.0 + np.exp(-z)))

    def value(self, x_goal: float, x_short: float = 0.0) -> float:
        """Expected declarer payoff."""
        p = self.made(x_goal, x_short)
        return p * self.win + (1.0 - p) * self.loss


@dataclass(frozen=True)
class BidCalibration:
    """Calibration of every contract PIMC may declare alone, and the decision's margin."""

    solo: ContractCalibration
    misere: ContractCalibration
    abundance: ContractCalibration  # Abundance in Trumps too
    misere_ouverte: ContractCalibration
    abundance_declared: ContractCalibration
    margin: float = 0.0  # points a call must be worth (Pass = 0) to be made
    samples: int = 24  # deals sampled per bid decision

    def __post_init__(self):
        for f in fields(self)[:5]:
            if not isinstance(getattr(self, f.name), ContractCalibration):
                raise ValueError(f"{f.name} must be a ContractCalibration")
        if not isinstance(self.margin, int | float) or not np.isfinite(self.margin):
            raise ValueError(f"margin must be a finite number, got {self.margin!r}")
        if isinstance(self.samples, bool) or not isinstance(self.samples, int) or self.samples < 1:
            raise ValueError(f"samples must be a positive integer, got {self.samples!r}")

    @classmethod
    def from_dict(cls, data: dict) -> BidCalibration:
        """From plain data: ``{"solo": {"b0": .., "b_goal": .., ...}, ..., "margin": ..}``."""
        if not isinstance(data, dict):
            raise ValueError(f"a calibration is a dict, got {type(data).__name__}")
        names = [f.name for f in fields(cls)]
        unknown = sorted(set(data) - set(names))
        if unknown:
            raise ValueError(f"unknown calibration keys {unknown}; known: {names}")
        kw = {}
        for name in names[:5]:
            if name not in data:
                raise ValueError(f"calibration lacks contract {name!r}")
            c = data[name]
            keys = ["b0", "b_goal", "b_short", "loss", "win"]
            if not isinstance(c, dict) or sorted(c) != keys:
                raise ValueError(f"{name}: give exactly b0, b_goal, b_short, win, loss, got {c!r}")
            kw[name] = ContractCalibration(**c)
        for name in names[5:]:
            if name in data:
                kw[name] = data[name]
        return cls(**kw)


# Fitted by experiments/solowhist_bid_calibration.py (see its docstring and
# experiments/results/bidding/calibration.txt for the data behind each number).
CALIBRATION = BidCalibration.from_dict(
    {
        # 586 plays, 76% made; chance 0.47 at the lowest band fitted, 0.96 at the top
        "solo": {"b0": -0.408, "b_goal": 2.125, "b_short": 1.671, "win": 18.15, "loss": -15.71},
        # 513 plays (rule-playout made-rate), 31% made
        "misere": {"b0": -2.064, "b_goal": 3.902, "b_short": 0.0, "win": 30.0, "loss": -30.0},
        # 98 plays, 57% made
        "abundance": {"b0": -1.046, "b_goal": 5.855, "b_short": 0.636, "win": 46.5, "loss": -46.57},
        # 367 plays (rule-playout made-rate), 24% made
        "misere_ouverte": {
            "b0": -2.469, "b_goal": 4.084, "b_short": 0.0, "win": 60.0, "loss": -60.0,
        },
        # no deal of 4,000 qualified: the script's prior (0.02 at x = 0, 0.95 at x = 1)
        "abundance_declared": {
            "b0": -4.0, "b_goal": 7.0, "b_short": 0.0, "win": 90.0, "loss": -90.0,
        },
        "margin": 0.0,
        "samples": 24,
    }
)  # fmt: skip


def made_rates(agent, record, ask) -> np.ndarray:
    """Solver made-rate per question (``bid_solowhist`` indices); NaN: not asked or unsolved."""
    counts = np.zeros((N_KINDS, 2), dtype=np.int64)
    agent.uniform += dd_made_counts(
        record, agent.memory, agent.template, agent.rng, agent.bid_calibration.samples,
        agent._table(), ask, counts,
    )  # fmt: skip
    agent.samples_drawn += agent.bid_calibration.samples
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = counts[:, 0] / counts[:, 1]
    rates[(counts[:, 1] == 0) | ~ask] = np.nan
    return rates


def playout_rates(agent, record, calls) -> np.ndarray:
    """Made-rate of each of ``calls`` (the seat declares it) in rule playouts of sampled deals."""
    calls = np.asarray(calls, dtype=np.int64)
    counts = np.zeros((len(calls), 2), dtype=np.int64)
    scratch = np.empty(1, dtype=record.dtype)
    agent.uniform += rule_made_counts(
        record, agent.memory, agent.template, agent.rng, agent.bid_calibration.samples,
        scratch, agent.params, calls, counts,
    )  # fmt: skip
    return counts[:, 0] / np.maximum(counts[:, 1], 1)


def _abundance_values(cal, p, suits):
    """Per suit in ``suits``: the calibrated Abundance value with that suit trumps."""
    out = {}
    for t in suits:
        goal, short = p[K_ABUNDANCE + t], p[K_ABUNDANCE_SHORT + t]
        if not (np.isnan(goal) or np.isnan(short)):
            out[t] = cal.abundance.value(float(goal), float(short))
    return out


def call_values(agent, record, solo: bool = True) -> dict[int, float]:
    """Expected payoff of each legal lone-declarer call (Solo, unless not ``solo``, and up)."""
    rec = record[0]
    legal = int(rec["legal_calls"])
    cal = agent.bid_calibration

    def has(call):
        return (legal >> (call - CALL_BASE)) & 1

    turn = int(rec["turn_up"]) // 13
    ask = np.zeros(N_KINDS, dtype=np.bool_)
    ask[K_SOLO] = ask[K_SOLO_SHORT] = solo and has(SOLO_CALL)
    suits = list(range(4)) if has(ABUNDANCE_CALL) else []
    if has(ABUNDANCE_IN_TRUMPS_CALL):
        suits = sorted(set(suits) | {turn})
    for t in suits:
        ask[K_ABUNDANCE + t] = ask[K_ABUNDANCE_SHORT + t] = True
    ask[K_DECLARED] = has(ABUNDANCE_DECLARED_CALL)
    misere = [c for c in (MISERE_CALL, MISERE_OUVERTE_CALL) if has(c)]
    out = {}
    if misere:
        for c, rate in zip(misere, playout_rates(agent, record, misere), strict=True):
            out[c] = (cal.misere if c == MISERE_CALL else cal.misere_ouverte).value(float(rate))
    if not ask.any():
        return out
    p = made_rates(agent, record, ask)
    if solo and has(SOLO_CALL) and not np.isnan(p[K_SOLO]) and not np.isnan(p[K_SOLO_SHORT]):
        out[SOLO_CALL] = cal.solo.value(float(p[K_SOLO]), float(p[K_SOLO_SHORT]))
    ab = _abundance_values(cal, p, suits)
    if has(ABUNDANCE_CALL) and ab:
        out[ABUNDANCE_CALL] = max(ab.values())
    if has(ABUNDANCE_IN_TRUMPS_CALL) and turn in ab:
        out[ABUNDANCE_IN_TRUMPS_CALL] = ab[turn]
    if has(ABUNDANCE_DECLARED_CALL) and not np.isnan(p[K_DECLARED]):
        out[ABUNDANCE_DECLARED_CALL] = cal.abundance_declared.value(float(p[K_DECLARED]))
    return out


def _rule_partnership(agent, record) -> int:
    """The rule agent's call with only Pass, Prop and Cop legal."""
    rec = record.copy()
    keep = sum(1 << (c - CALL_BASE) for c in (PASS, PROP, COP))
    rec[0]["legal_calls"] = np.uint64(int(rec[0]["legal_calls"]) & keep)

    return rule_choice(rec[0], agent.params, agent.rng)


def solved_call(agent, record) -> int | None:
    """The seat's call in the auction, the upgrade or the trump choice; None: leave it to rule."""
    rec = record[0]
    phase = int(rec["phase"])
    if phase == TRUMP_CHOICE:
        ask = np.zeros(N_KINDS, dtype=np.bool_)
        ask[K_ABUNDANCE : K_ABUNDANCE_SHORT + 4] = True
        ab = _abundance_values(agent.bid_calibration, made_rates(agent, record, ask), range(4))
        if not ab:
            return None
        return TRUMP_BASE + max(ab, key=lambda t: (ab[t], -t))
    if phase not in (AUCTION, UPGRADE):
        return None
    values = call_values(agent, record)
    margin = agent.bid_calibration.margin
    best, best_v = None, margin
    for call in sorted(values):  # ascending: ties go to the lower contract
        if values[call] > best_v:
            best, best_v = call, values[call]
    if best is not None:
        return best
    if phase == UPGRADE:
        return PASS
    return _rule_partnership(agent, record)
