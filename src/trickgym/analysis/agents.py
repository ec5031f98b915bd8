"""Bid success under several agents: one simulation per agent, side by side.

Each agent plays every seat of its own run; every run has the same seed, so
they play the same deals (deal ``k`` depends only on the seed and ``k``) and
differ only in how the agents bid and play them. The table has one row per
contract and a column group per agent: the :func:`bid_success` columns
(deals, made, made % and its 95% Wilson interval) and ``few``, the plots'
small-sample rule (:data:`~trickgym.analysis.plots.MIN_DEALS`).

``"dd"`` stands for double-dummy play: the rule agent's contracts (its run
with ``dd=True``), each counted made when it was makeable with every card
seen and perfect play by every hand, declarers and defenders alike
(``dd_made``). It is not an upper bound of real play: real defenders err,
so a contract can be made more often than double dummy allows. Its group
adds ``unsolved``: declared deals past the solver's node budget, left out
of its rate (the point-trick games' full-deal solves are slow, so expect
many there).

>>> import pandas as pd
>>> rule = pd.DataFrame({"contract": ["Solo"] * 4, "declarer": [0, 1, 2, 3],
...                      "made": [True, True, True, False]})
>>> table = bid_success_by_agent({"rule": rule, "learnt": rule.assign(made=True)})
>>> table.xs("made_pct", axis=1, level="field").round(1).to_dict("records")
[{'rule': 75.0, 'learnt': 100.0}]
>>> bool(table["rule", "few"].iloc[0])  # 4 deals: too few to read the rate
True
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..agents.registry import is_agent_name, known_agents, make_agent
from ..checks import check_int
from ..games import game as make_game
from ..games import game_class
from .columns import analysis_part, detect_game, require, with_game
from .failures import failure_counts
from .plots import MIN_DEALS
from .success import bid_success

__all__ = [
    "DD",
    "bid_success_by_agent",
    "compare_agents",
    "parse_agents",
    "simulate_agents",
    "unavailable_agents",
]

#: The name of double-dummy play among the agents compared (see the module's docstring).
DD = "dd"

# What a cell of the table holds, in order (``unsolved`` only in the dd group).
FIELDS = ("count", "made", "made_pct", "ci_low_pct", "ci_high_pct", "few")


def parse_agents(agents) -> list[str]:
    """``agents`` (``"rule,learnt"`` or a list of names) as a list of distinct names.

    Raises ``ValueError`` for an empty list, a name that is not a string, or a
    name given twice; whether each name is an agent is checked by
    :func:`unavailable_agents`.
    """
    names = agents.split(",") if isinstance(agents, str) else agents
    if not isinstance(names, list | tuple) or not names:
        raise ValueError(
            f"agents must be names such as 'rule,learnt' or ['rule', 'learnt'], got {agents!r}"
        )
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"agents must be non-empty names, got {name!r} in {agents!r}")
    names = [name.strip() for name in names]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"agents must each be named once, got {', '.join(twice)} twice")
    return names


def unavailable_agents(game: str, agents, **options) -> dict[str, str]:
    """The agents that cannot play ``game`` (with ``options``), each with the reason.

    An agent that exists but cannot play this table (the learnt agent
    without shipped weights for it, e.g. Troggu at 4, 6 or 7
    players until ``agents/learnt/weights/troggu-<N>p.npz`` is added) is
    returned with its error message, so a caller may leave it out and say
    why. A name that is no agent at all raises ``ValueError`` listing the
    known ones: a typo is not skipped.
    """
    names = parse_agents(agents)
    table = make_game(game, **options)  # validates the game and its options
    unknown = [name for name in names if name != DD and not is_agent_name(name)]
    if unknown:
        raise ValueError(
            f"unknown agent(s) {', '.join(map(repr, unknown))}; known agents: "
            f"{', '.join([*known_agents(), DD])} (dd: the rule agent's contracts played "
            "double dummy) or policy:PATH"
        )
    missing = {}
    for name in names:
        try:  # building the agent is what fails for a table it cannot play (cheap: no deal)
            make_agent("rule" if name == DD else name, table)
        except ValueError as err:
            missing[name] = str(err)
    return missing


def _size(game: str, deals, matches) -> dict:
    """The run's size: ``deals``, or ``matches`` where whole matches are the unit (Phat)."""
    if deals is None and matches is None:
        raise ValueError("give deals=N (Phat: matches=N)")
    size = {}
    if deals is not None:
        size["deals"] = check_int("deals", deals, 1)
    if matches is not None:
        size["matches"] = check_int("matches", matches, 1)
    if game_class(game).run_unit == "matches" and "deals" in size:
        raise ValueError(f"{game} is played in whole matches: pass matches=N, not deals={deals}")
    return size


def simulate_agents(
    game: str,
    agents,
    deals: int | None = None,
    *,
    matches: int | None = None,
    seed: int = 0,
    threads: int | None = None,
    progress: bool | None = None,
    dd_max_nodes: int | None = None,
    **options,
) -> dict[str, pd.DataFrame]:
    """One simulation per agent, every seat played by it: ``{agent: rows}`` in the order given.

    Every run is ``trickgym.simulate(game, deals or matches, agent, seed,
    **options)``; ``"dd"`` is the rule agent's run with ``dd=True`` (and
    ``dd_max_nodes``). Every agent is checked before the first run, so an
    unknown one, or one that cannot play this table, raises ``ValueError``
    before any work is done.
    """
    # lazy: trickgym.sim loads pyarrow
    from ..sim import simulate

    names = parse_agents(agents)
    size = _size(game, deals, matches)
    missing = unavailable_agents(game, names, **options)
    if missing:
        raise ValueError("; ".join(f"agent {name!r}: {why}" for name, why in missing.items()))
    if dd_max_nodes is not None and DD not in names:
        raise ValueError(f"dd_max_nodes is for the agent {DD!r}, not among {names}")
    frames = {}
    for name in names:
        extra = {"dd": True, "dd_max_nodes": dd_max_nodes} if name == DD else {}
        frames[name] = simulate(
            game,
            agents="rule" if name == DD else name,
            seed=seed,
            threads=threads,
            progress=progress,
            **size,
            **extra,
            **options,
        )
    return frames


def _bids(df: pd.DataFrame) -> pd.DataFrame:
    """Rows as bids: through the game's analysis part where they are not (Phat's pitches)."""
    require(df)
    if "contract" in df.columns:
        return df
    part = analysis_part(detect_game(df))
    return df if part is None else part.bids(df)


def _dd_table(df: pd.DataFrame, by) -> pd.DataFrame:
    """The bid success table with made = makeable double dummy, over the solved deals."""
    require(df, "dd_made", hint=f" (agent {DD!r} needs the rows of simulate(..., dd=True))")
    dd = df["dd_made"].astype("boolean")
    unsolved = (df["declarer"] >= 0) & dd.isna()
    table = bid_success(df[~unsolved].assign(made=dd[~unsolved].fillna(False)), by)
    counts = failure_counts(df, by)["unsolved"]
    index = table.index.union(counts.index)  # a contract may have no solved deal
    table = table.reindex(index)
    table["unsolved"] = counts.reindex(index).fillna(0).astype(np.int64)
    return table


def bid_success_by_agent(
    frames: Mapping[str, pd.DataFrame], by="contract", min_count: int = MIN_DEALS
) -> pd.DataFrame:
    """Each agent's :func:`bid_success` table side by side: one row per contract, a group per agent.

    ``frames`` maps an agent's name to the rows of its simulation (as
    :func:`simulate_agents` returns them; Phat rows are read as pitches,
    :func:`pitch_frame`). Columns are ``(agent, field)`` pairs with fields
    ``count``, ``made``, ``made_pct``, ``ci_low_pct``, ``ci_high_pct`` and
    ``few`` (a rate of fewer than ``min_count`` deals: it says little, and
    the plots leave it out). A contract an agent never played has count 0 and
    no rate. The group of ``"dd"`` counts its solved deals, made when
    makeable double dummy, and adds ``unsolved``.
    """
    if not isinstance(frames, Mapping) or not frames:
        raise ValueError(f"frames must map agent names to simulation rows, got {frames!r}")
    names = parse_agents(list(frames))
    min_count = check_int("min_count", min_count, 1)
    tables = {}
    for name in names:
        rows = _bids(frames[name])
        tables[name] = _dd_table(rows, by) if name == DD else bid_success(rows, by)
    index = tables[names[0]].index
    for table in tables.values():
        index = index.union(table.index)
    try:
        index = index.sort_values()  # contract order (categorical), bid order (Pinochle)
    except TypeError:  # mixed label types: keep the union's order
        pass
    parts = []
    for name in names:
        table = tables[name].reindex(index)
        table["count"] = table["count"].fillna(0).astype(np.int64)
        # The rule is about rates: a row without one (nobody declared, never played) has no flag.
        table["few"] = table["made_pct"].notna() & (table["count"] < min_count)
        if "unsolved" in table.columns:
            table["unsolved"] = table["unsolved"].fillna(0).astype(np.int64)
        fields = [*FIELDS, "unsolved"] if "unsolved" in table.columns else list(FIELDS)
        parts.append(table[fields])
    out = pd.concat(parts, axis=1, keys=names, names=["agent", "field"])
    out.attrs["min_count"] = min_count
    return with_game(out, frames[names[0]])


def compare_agents(
    game: str,
    agents,
    deals: int | None = None,
    *,
    by="contract",
    min_count: int = MIN_DEALS,
    **run,
) -> pd.DataFrame:
    """Bid success of ``game`` under each agent, side by side (:func:`bid_success_by_agent`).

    One simulation per agent (:func:`simulate_agents`, which takes the other
    keywords: ``matches``, ``seed`` (default 0), ``threads``, ``progress``,
    ``dd_max_nodes`` and game options), all with the same seed:
    ``compare_agents("solowhist", "rule,learnt", deals=10_000)``. Troggu
    needs ``players=``, Pinochle takes ``mode=``, Phat ``matches=`` instead
    of ``deals=``. For the difference of two agents' rates with its
    interval, see :func:`compare_success`.
    """
    frames = simulate_agents(game, agents, deals, **run)
    return bid_success_by_agent(frames, by=by, min_count=min_count)
