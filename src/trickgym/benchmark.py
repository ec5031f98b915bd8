"""``trickgym.benchmark``: one fixed, versioned benchmark of a policy on every game.

A benchmark run is :func:`trickgym.evaluate` on fixed tables: each game and
table size has its seed, its opponents (``random``, ``rule``, ``pimc``) and
its deal counts here, so two runs of the same policy give the same numbers
and results published under one :data:`VERSION` can be compared. A change
to any of them is a new version, never an edit of this one.

Deal counts are chosen so that one game's tables take minutes on 2 cores:
``deals`` against the compiled opponents, ``slow_deals`` against ``pimc``
(and against every opponent when the policy itself decides slowly, as
``pimc`` does). Phat counts whole matches. Results of version 1 are in
``docs/benchmark.md``; ``trickgym evaluate --benchmark --policy NAME`` runs it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from trickgym.agents.registry import is_agent_name, make_agent

from .analysis.agents import unavailable_agents
from .checks import check_int
from .evaluation import COLUMNS, SLOW, _as_agent, evaluate, margin_cells
from .games import GAMES
from .games import game as make_game

__all__ = ["TABLES", "VERSION", "BenchmarkReport", "BenchmarkTable", "run_benchmark", "tables"]

#: The benchmark's version: results under different versions are not comparable.
VERSION = 1
OPPONENTS = ("random", "rule", "pimc")


@dataclass(frozen=True)
class BenchmarkTable:
    """One table of the benchmark: a game with its options, seed, opponents and counts."""

    name: str
    game: str
    options: tuple = ()  # (name, value) pairs: hashable and printed in order
    seed: int = 0
    deals: int = 1000  # per tournament against compiled opponents (Phat: matches)
    slow_deals: int = 20  # against pimc, or every opponent of a slow policy
    opponents: tuple = field(default=OPPONENTS)

    @property
    def table_options(self) -> dict:
        """The game's table options as keywords (``{"players": 4}``)."""
        return dict(self.options)


#: Benchmark v1. Seeds differ per table so no two tables share deals by accident.
TABLES = (
    BenchmarkTable("solowhist", "solowhist", (), seed=4401, deals=2000, slow_deals=40),
    BenchmarkTable("troggu-3", "troggu", (("players", 3),), seed=4402, deals=2000, slow_deals=30),
    BenchmarkTable("troggu-4", "troggu", (("players", 4),), seed=4403, deals=2000, slow_deals=30),
    BenchmarkTable("troggu-5", "troggu", (("players", 5),), seed=4404, deals=2000, slow_deals=30),
    BenchmarkTable("phat", "phat", (), seed=4405, deals=200, slow_deals=4),
    BenchmarkTable(
        "pinochle-kitty", "pinochle", (("mode", "kitty"),), seed=4406, deals=2000, slow_deals=30
    ),
    BenchmarkTable(
        "pinochle-exchange",
        "pinochle",
        (("mode", "exchange"),),
        seed=4407,
        deals=2000,
        slow_deals=30,
    ),
)

#: The columns of :attr:`BenchmarkReport.table`, one row per table and opponent.
TABLE_COLUMNS = ("benchmark", "table", "game", "seed", "opponent", *COLUMNS)


def tables(game: str | None = None, **options) -> list[BenchmarkTable]:
    """The benchmark's tables: all, one game's (``game``), or one table (its options too).

    ``tables("troggu", players=4)`` is the 4-player Troggu table. A game or
    option the benchmark has no table for raises ``ValueError`` naming the
    tables it has.
    """
    if game is None:
        if options:
            raise ValueError(f"table options {options} need a game (one of {sorted(GAMES)})")
        return list(TABLES)
    if not isinstance(game, str) or game not in GAMES:
        raise ValueError(f"unknown game {game!r}; available: {', '.join(sorted(GAMES))}")
    chosen = [t for t in TABLES if t.game == game]
    chosen = [t for t in chosen if all(t.table_options.get(k) == v for k, v in options.items())]
    if not chosen:
        have = ", ".join(t.name for t in TABLES if t.game == game)
        asked = ", ".join(f"{k}={v!r}" for k, v in options.items())
        raise ValueError(f"benchmark v{VERSION} has no {game} table with {asked}; it has {have}")
    return chosen


@dataclass
class BenchmarkReport:
    """What :func:`run_benchmark` found.

    ``table``: one row per benchmark table and opponent, columns
    :data:`TABLE_COLUMNS` (those of :func:`trickgym.evaluate`'s table, with
    the benchmark's version, the table's name, game and seed in front);
    ``skipped``: the tables or opponents left out, each with the reason (the
    policy itself as an opponent; an agent that cannot play a table).
    ``reduced``: the counts were not the benchmark's (a smoke run, not a
    result to compare).
    """

    policy: str
    table: pd.DataFrame
    skipped: dict
    reduced: bool = False

    @property
    def name(self) -> str:
        """``"benchmark v1"`` (with a warning when the counts were reduced)."""
        return f"benchmark v{VERSION}" + (
            " at reduced counts (not comparable)" if self.reduced else ""
        )

    def format(self) -> str:
        """The table as aligned text."""
        lines = [
            f"{self.name}: {self.policy}; duplicate, every seating; margin per deal, "
            "95% interval (phat: counts are matches)",
            f"{'table':<19}{'opponent':<10}{'deals':>7}{'policy':>10}{'opponent':>10}"
            f"{'margin':>10}   interval",
        ]
        for _, row in self.table.iterrows():
            cells = f"{row['table']:<19}{row['opponent']:<10}{int(row['deals']):>7}"
            lines.append(cells + margin_cells(row))
        lines.append("(* the interval excludes 0)")
        by_reason = {}
        for what, why in self.skipped.items():
            by_reason.setdefault(why, []).append(what)
        lines += [f"not played ({why}): {', '.join(what)}" for why, what in by_reason.items()]
        return "\n".join(lines)


def _plays_slowly(policy, table: BenchmarkTable) -> bool:
    """Whether ``policy`` is an agent that decides one deal at a time by search (pimc...)."""
    if not isinstance(policy, str) or not is_agent_name(policy) or policy not in SLOW:
        return False

    # A batched agent (learnt: act_rows) plays thousands of deals a second; a search does not.
    agent = make_agent(policy, make_game(table.game, **table.table_options))
    return not hasattr(agent, "act_rows")


def run_benchmark(
    policy,
    game: str | None = None,
    *,
    bidding: str | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    deals: int | None = None,
    slow_deals: int | None = None,
    **options,
) -> BenchmarkReport:
    """Benchmark ``policy`` (as :func:`trickgym.evaluate` takes it) on the benchmark's tables.

    ``game`` and ``**options`` pick the tables (:func:`tables`; default
    every one). ``bidding``, ``threads`` and ``progress`` are
    :func:`trickgym.evaluate`'s. ``deals`` / ``slow_deals`` replace the
    benchmark's counts for a quick check; the report then says its numbers
    are not the benchmark's. A table the policy cannot play (an agent
    without weights for it, a policy file trained for another table) is
    skipped with the reason (if it can play none, the error gives them), as
    is the policy as its own opponent (its margin is 0 by symmetry).
    Returns a :class:`BenchmarkReport`.
    """
    chosen, skipped = tables(game, **options), {}
    if deals is not None:
        deals = check_int("deals", deals, 1)
    if slow_deals is not None:
        slow_deals = check_int("slow_deals", slow_deals, 1)
    named = isinstance(policy, str) and is_agent_name(policy)
    playable = []
    for t in chosen:  # before any deal: an agent without weights, a file for another table
        if named:
            missing = unavailable_agents(t.game, [policy], **t.table_options)
            if policy in missing:
                skipped[t.name] = missing[policy]
                continue
        try:
            _as_agent(policy, t.game, t.table_options, bidding)
        except ValueError as err:
            skipped[t.name] = str(err)
            continue
        playable.append(t)
    if not playable and len(set(skipped.values())) == 1:  # a bad file or bidding: as it is
        raise ValueError(next(iter(skipped.values())))
    if not playable:
        raise ValueError(
            f"{policy!r} cannot play any benchmark table asked for: "
            + "; ".join(f"{k}: {v}" for k, v in skipped.items())
        )
    label, rows = None, []
    for t in playable:
        opponents = [o for o in t.opponents if o != policy]
        if len(opponents) < len(t.opponents):
            skipped[t.name] = f"{policy} against itself: margin 0 by symmetry"
        slow = slow_deals or t.slow_deals
        fast = slow if _plays_slowly(policy, t) else (deals or t.deals)
        report = evaluate(
            policy,
            t.game,
            opponents=opponents,
            deals=fast,
            slow_deals=slow,
            seed=t.seed,
            bidding=bidding,
            threads=threads,
            progress=progress,
            **t.table_options,
        )
        label = report.policy
        for opponent, row in report.table.iterrows():
            rows.append(
                {
                    "benchmark": f"v{VERSION}",
                    "table": t.name,
                    "game": t.game,
                    "seed": t.seed,
                    "opponent": opponent,
                    **row.to_dict(),
                }
            )
    table = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
    return BenchmarkReport(label, table, skipped, deals is not None or slow_deals is not None)
