"""Duplicate tournaments: the same deals replayed with the agents moved round the table.

Luck of the cards cancels when every agent plays every seat of the same deal.
For games played alone (Solo Whist, Troggu) the agents are seated in turn
round the table and the seating is rotated through every seat; for
partnership games (Phat, Pinochle) two agents sit as the two teams and then
swap. Each agent's score for a deal is its mean payoff over the seats it held
in every seating, so the per-deal values are paired and their differences
have small variance.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .agents.rule.presets import PRESETS
from .analysis import bid_success
from .checks import check_int, check_seed, split_names
from .games import game as make_game
from .games import game_class
from .progress import labelled, want_progress
from .sim import simulate
from .sim.plan import MAX_ITEMS
from .sim.python_pool import keep_workers
from .sim.specs import sim_spec

__all__ = ["TournamentReport", "mean_interval", "seat_score", "tournament"]

_Z95 = 1.959963984540054


@dataclass
class TournamentReport:
    """The result of :func:`tournament`.

    ``standings``: per agent, the mean payoff per deal with a 95% interval
    (``mean``, ``ci_low``, ``ci_high``, ``deals``); ``difference``: the first
    agent's mean minus the second's, paired by deal, with its interval;
    ``bids``: bid success per agent (as declarer) and contract;
    ``rows``: the simulation frames of every seating, with a ``seating``
    column and ``agent_<seat>`` columns; ``per_deal``: each agent's paired
    value per deal (Phat: per match, scored per deal), the numbers behind
    ``standings`` and ``difference``.
    """

    game: str
    agents: list[str]
    standings: pd.DataFrame
    difference: pd.Series
    bids: pd.DataFrame
    rows: pd.DataFrame
    per_deal: pd.DataFrame | None = None

    def format(self) -> str:
        """The report as aligned text."""
        unit = game_class(self.game).run_unit
        d = self.difference
        # The first column as wide as its longest name (a policy:PATH name runs long).
        names = [str(n) for n in (*self.standings.index, d.name, "declarer")]
        names += [str(agent) for agent, _ in self.bids.index]
        w = max(14, max(map(len, names)) + 2)
        lines = [
            f"duplicate tournament: {self.game}, {int(self.standings['deals'].iloc[0]):,} "
            f"{unit}, every seating",
            f"{'agent':<{w}}{'mean payoff/deal':>18}   95% interval",
        ]
        for name, row in self.standings.iterrows():
            lines.append(
                f"{name!s:<{w}}{row['mean']:>18.3f}   [{row['ci_low']:.3f}, {row['ci_high']:.3f}]"
            )
        lines.append(
            f"{d.name!s:<{w}}{d['mean']:>18.3f}   [{d['ci_low']:.3f}, {d['ci_high']:.3f}]"
            f"   ({'significant' if _significant(d) else 'not significant'})"
        )
        if len(self.bids):
            lines.append("")
            lines.append(f"{'declarer':<{w}}{'contract':<22}{'count':>8}{'made %':>9}   95% Wilson")
            for (agent, contract), row in self.bids.iterrows():
                if np.isnan(row["made_pct"]):
                    continue
                lines.append(
                    f"{agent!s:<{w}}{contract!s:<22}{int(row['count']):>8}{row['made_pct']:>8.1f}%"
                    f"   [{row['ci_low_pct']:.1f}, {row['ci_high_pct']:.1f}]"
                )
        return "\n".join(lines)


def _significant(d: pd.Series) -> bool:
    """Whether a 95% interval excludes zero (and is not zero up to rounding)."""
    if abs(d["ci_high"]) < 1e-9 and abs(d["ci_low"]) < 1e-9:
        return False
    return bool(d["ci_low"] > 0 or d["ci_high"] < 0)


def _seatings(game: str, names: list[str], n_seats: int) -> list[tuple[str, ...]]:
    """Every seating of the agents: rotations, or the two teams swapped."""
    if game_class(game).partnership:
        if len(names) != 2:
            raise ValueError(
                f"{game} is a partnership game: agents must be exactly 2 competitors, got {names}"
            )
        a, b = names
        return [(a, b, a, b), (b, a, b, a)]
    if not 2 <= len(names) <= n_seats:
        raise ValueError(f"agents must be 2 to {n_seats} competitors for {game}, got {names}")
    base = [names[s % len(names)] for s in range(n_seats)]
    seatings = []
    for r in range(n_seats):
        seating = tuple(base[(s - r) % n_seats] for s in range(n_seats))
        if seating not in seatings:
            seatings.append(seating)
    return seatings


def _seat_payoffs(game: str, df: pd.DataFrame, n_seats: int) -> np.ndarray:
    """Per row and seat, the seat's payoff (its team's margin in partnership games)."""
    return sim_spec(game).payoffs_by_seat(df, n_seats)


def mean_interval(values: np.ndarray) -> tuple[float, float, float]:
    """Mean of paired per-deal values and its normal 95% interval (nan bounds for one value)."""
    mean = float(values.mean())
    half = _Z95 * float(values.std(ddof=1)) / np.sqrt(len(values)) if len(values) > 1 else np.nan
    return mean, mean - half, mean + half


def tournament(
    game: str,
    agents,
    deals: int = 1000,
    seed: int = 0,
    *,
    rule_options=None,
    threads: int | None = None,
    progress: bool | None = None,
    **options,
) -> TournamentReport:
    """Replay ``deals`` deals (Phat: matches) with ``agents`` in every seating.

    ``agents`` are built-in names (``"rule"``, ``"random"``, ``"oracle"``),
    rule presets (``"fitted"``), registered names or agent objects, at
    least two. ``rule_options``: one ``RuleOptions`` for every rule agent,
    or a dict from competitor name (``"rule"`` or a preset) to the options
    its seats play with, e.g. two settings of the rule agent against each
    other: ``tournament(g, ["fitted", "rule"], rule_options={"fitted": mine})``.
    ``progress``: a bar per seating; ``None`` (default) shows them in a
    terminal or a notebook (:func:`trickgym.progress.want_progress`).
    ``threads``: as :func:`trickgym.sim.simulate`'s; Python agents play on
    that many worker processes, started once for every seating.
    Returns a :class:`TournamentReport`.
    """
    _check_run(game, deals, seed)
    progress = want_progress(progress)
    if isinstance(agents, str):
        agents = split_names("agents", agents, "rule,random")
    if not isinstance(agents, list | tuple):
        raise ValueError(
            f"agents must be a list of competitors or a comma-separated string such as "
            f"'rule,random', got {agents!r}"
        )
    names = [a if isinstance(a, str) else f"{type(a).__name__}#{i}" for i, a in enumerate(agents)]
    repeated = sorted({n for n in names if names.count(n) > 1})
    unique = list(dict.fromkeys(names))
    if repeated:
        counts = ", ".join(f"{n!r} {names.count(n)} times" for n in repeated)
        raise ValueError(
            f"tournament agents are the competitors, each named once (the seats are filled "
            f"by rotating them through the same deals); got {counts}: give e.g. "
            f"{','.join(unique) if len(unique) > 1 else 'rule,random'}"
        )
    by_name = dict(zip(names, agents, strict=True))
    n_seats = make_game(game, **options).n_seats
    seatings = _seatings(game, names, n_seats)
    unit = game_class(game).run_unit
    in_matches = unit == "matches"  # Phat: paired by match, scored per deal
    frames, per_unit = [], []
    with keep_workers():  # Python agents: every seating plays on the same workers
        for k, seating in enumerate(seatings):
            seat_agents, seat_options = _seat_rule_options(
                [by_name[name] for name in seating], seating, rule_options
            )
            label = f"seating {k + 1}/{len(seatings)} ({', '.join(seating)})"
            with labelled(label):
                df = simulate(
                    game,
                    agents=seat_agents,
                    seed=seed,
                    threads=threads,
                    progress=progress,
                    rule_options=seat_options,
                    **{unit: deals},
                    **options,
                )
            pay = _seat_payoffs(game, df, n_seats)
            key = df["match"].to_numpy() if in_matches else df["deal"].to_numpy()
            agent_means = {}
            for name in names:
                seats = [s for s, who in enumerate(seating) if who == name]
                value = pay[:, seats].mean(axis=1)
                agent_means[name] = (
                    pd.Series(value).groupby(key).sum()
                    if in_matches
                    else (pd.Series(value, index=key))
                )
            per_unit.append(pd.DataFrame(agent_means))
            df = df.assign(seating=k, **{f"agent_{s}": who for s, who in enumerate(seating)})
            frames.append(df)
    values = sum(per_unit) / len(per_unit)
    if in_matches:  # per deal: divide each match's total by its deals, averaged over seatings
        n_deals = sum(f.groupby("match").size() for f in frames) / len(frames)
        values = values.div(n_deals, axis=0)
    standings = pd.DataFrame(
        [(*mean_interval(values[name].to_numpy()), len(values)) for name in names],
        index=pd.Index(names, name="agent"),
        columns=["mean", "ci_low", "ci_high", "deals"],
    )
    diff = values[names[0]] - values[names[1]]
    mean, low, high = mean_interval(diff.to_numpy())
    difference = pd.Series(
        {"mean": mean, "ci_low": low, "ci_high": high}, name=f"{names[0]} - {names[1]}"
    )
    rows = pd.concat(frames, ignore_index=True)
    return TournamentReport(
        game, names, standings, difference, _bids_by_agent(rows), rows, values[names]
    )


def _check_run(game, deals, seed) -> None:
    """The game name, the count of deals (Phat: matches) and the seed, before any deal.

    The seed must be given: ``None`` would draw a new one for each seating and
    the seatings would no longer replay the same deals.
    """
    game_class(game)  # an unknown name is named before the count
    check_int("deals", deals, 1, MAX_ITEMS)
    check_seed(seed, optional=False)  # a fresh seed per seating would not replay the deals


def _seat_rule_options(agents: list, seating: tuple, rule_options):
    """Per-seat agents and rule options of one seating, for ``rule_options`` by competitor.

    A preset seat given its own options plays as ``"rule"`` with them (the
    options asked for win over the preset's shipped ones).
    """
    if not isinstance(rule_options, dict):
        return agents, rule_options
    allowed = {n for n in seating if n == "rule" or n in PRESETS}
    unknown = sorted(set(rule_options) - allowed)
    if unknown:
        raise ValueError(
            f"rule_options given for {unknown}: a dict of rule_options is keyed by the "
            f"competitors playing the rule agent or a preset ({sorted(allowed) or 'none here'})"
        )
    seat_agents = [
        "rule" if name in PRESETS and name in rule_options else agent
        for agent, name in zip(agents, seating, strict=True)
    ]
    return seat_agents, [rule_options.get(name) for name in seating]


def seat_score(
    game: str, agent, deals: int = 1000, seed: int = 0, *, seat: int = 0, others="rule", **options
) -> pd.Series:
    """Mean payoff per deal of ``agent`` at ``seat`` among ``others`` (one agent for every
    other seat), with its 95% interval; Phat: ``deals`` matches, scored per deal.

    Payoffs are the seat's own (its team's margin in Phat and Pinochle), as in
    :func:`tournament`; not duplicate, so the interval holds the cards' luck.
    """
    _check_run(game, deals, seed)
    n_seats = make_game(game, **options).n_seats
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n_seats:
        raise ValueError(f"seat must be 0..{n_seats - 1} for {game}, got {seat!r}")
    agents = [others] * n_seats
    agents[seat] = agent
    unit = game_class(game).run_unit
    df = simulate(game, agents=agents, seed=seed, **{unit: deals}, **options)
    values = _seat_payoffs(game, df, n_seats)[:, seat]
    mean, low, high = mean_interval(values)
    return pd.Series({"mean": mean, "ci_low": low, "ci_high": high, "deals": len(values)})


def _bids_by_agent(rows: pd.DataFrame) -> pd.DataFrame:
    """Bid success of each agent as declarer, per contract (empty for Phat)."""
    if "contract" not in rows.columns or "declarer" not in rows.columns:
        return pd.DataFrame()
    declared = rows[rows["declarer"] >= 0]
    if declared.empty:
        return pd.DataFrame()
    seats = declared["declarer"].to_numpy()
    who = declared[[c for c in rows.columns if c.startswith("agent_")]].to_numpy()
    declared = declared.assign(declarer_agent=who[np.arange(len(seats)), seats])
    tables = {agent: bid_success(group) for agent, group in declared.groupby("declarer_agent")}
    return pd.concat(tables, names=["agent", "contract"])
