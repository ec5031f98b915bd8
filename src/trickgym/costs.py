"""What a slow double-dummy run will cost, said before it starts, and defaults that fit.

The solver modes (``trickgym advise --play dd``, ``trickgym simulate --dd``)
take a tenth of a second to tens of seconds per deal where the rules take
microseconds, so a default sized for the rules runs for hours. The CLI
takes its dd defaults from here (about a minute each on two cores) and,
when the work asked for is longer than :data:`LONG_SECONDS`, prints
:func:`advise_warning` / :func:`simulate_warning` on stderr before it
starts: the expected time and how to shrink it.

How the costs were measured (2025-12, this repository at the issue-42 branch,
a shared 2-core machine whose load average was about 4, so these are upper
bounds; core-seconds = wall seconds x 2 threads, rounded):

- advise: ``hand_odds(game, hand, deals=1, play="dd")`` to compile, then
  ``hand_odds(..., deals=4, play="dd", seed=5)`` timed; hands from
  ``tests/analysis`` (Pinochle ``AATKQ.AQ.KQ.9J`` seat 1, Phat
  ``A95.K9.QJ5.T9852`` seat 2, Troggu 4 players ``Fool XXI ... QC`` seat 1,
  Solo Whist ``AKQJ5.K2.A7.9832`` turn-up 2S). Wall seconds per deal:
  Pinochle 0.78, Phat 12.6 (every solve past the 4,000,000-node budget),
  Troggu 0.17, Solo Whist 0.02.
- simulate: ``simulate(game, agents="rule", dd=True, deals=1)`` to compile,
  then ``deals=N, seed=3`` timed (Solo Whist 200, Pinochle and Troggu 20,
  Phat 3 matches). Wall seconds per row: Solo Whist 0.083, Pinochle 0.175,
  Troggu 1.1 (every row past the budget), Phat 1.0 (13 rows in 3 matches, every
  row past the budget).

A first run also compiles the solver kernels (measured 60-105 s per game),
which these figures leave out.
"""

from __future__ import annotations

import os

__all__ = [
    "ADVISE_DD",
    "LONG_SECONDS",
    "SIMULATE_DD",
    "advise_dd_deals",
    "advise_warning",
    "default_threads",
    "simulate_dd_default",
    "simulate_warning",
]

#: Work expected to take longer than this (seconds) is announced before it starts.
LONG_SECONDS = 60.0

#: ``advise --play dd``: core-seconds per sampled deal (every call of the seat solved), and
#: the deals sampled by default (about a minute on two cores; Phat's solves mostly run out
#: of their node budget, so its few deals show how far the solver gets, not more).
ADVISE_DD = {
    "solowhist": (0.04, 1000),
    "pinochle": (1.6, 60),
    "phat": (25.0, 5),
    "troggu": (0.35, 100),
}

#: ``simulate --dd``: core-seconds per row, and the deals (Phat: matches) run by default
#: with ``--dd`` (about a minute on two cores; without --dd: 100,000 deals, 1,000 matches).
SIMULATE_DD = {
    "solowhist": (0.17, 500),
    "pinochle": (0.35, 300),
    "troggu": (2.2, 50),
    "phat": (2.0, 15),
}
#: Rows (deals) per Phat match, to turn matches into rows (measured: 13 rows in 3 matches).
ROWS_PER_MATCH = 4.3


def default_threads(threads: int | None = None) -> int:
    """The threads a run uses: ``threads``, or every core this process may use."""
    if threads:
        return threads
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def _duration(seconds: float) -> str:
    """``about 3 minutes``, ``about 2.1 hours``."""
    if seconds < 90:
        return f"about {seconds:.0f} s"
    if seconds < 5400:
        return f"about {seconds / 60:.0f} minutes"
    return f"about {seconds / 3600:.1f} hours"


def _warning(what: str, count: int, unit: str, core_seconds: float, threads: int, shrink: str):
    """The one-line notice of a long run, or None when it takes under LONG_SECONDS."""
    seconds = count * core_seconds / threads
    if seconds < LONG_SECONDS:
        return None
    return (
        f"trickgym: {what} will take {_duration(seconds)}: ~{core_seconds:g} s per {unit} per "
        f"core x {count:,} {unit}s on {threads} thread{'s' * (threads != 1)} (a first run also "
        f"compiles the solver); pass {shrink} to shrink"
    )


def advise_dd_deals(game: str, fallback: int) -> int:
    """The deals ``advise --play dd`` samples by default (``fallback`` for an unmeasured game)."""
    return ADVISE_DD[game][1] if game in ADVISE_DD else fallback


def advise_warning(game: str, play: str, deals: int, threads: int | None = None):
    """The notice of ``advise --play dd`` over ``deals`` deals of ``game``, if it is long."""
    if play != "dd" or game not in ADVISE_DD:
        return None
    what = f"advise --play dd for {game}"
    core_seconds = ADVISE_DD[game][0]
    return _warning(what, deals, "deal", core_seconds, default_threads(threads), "--deals N")


def simulate_dd_default(game: str) -> int | None:
    """The deals (Phat: matches) ``simulate --dd`` runs when none are given."""
    return SIMULATE_DD[game][1] if game in SIMULATE_DD else None


def simulate_warning(game: str, kwargs: dict, threads: int | None = None):
    """The notice of ``simulate`` with ``kwargs`` (``dd``, ``deals``/``matches``), if long."""
    if not kwargs.get("dd") or game not in SIMULATE_DD:
        return None
    core_seconds = SIMULATE_DD[game][0]
    threads = default_threads(threads)
    what = f"simulate --dd for {game}"
    if kwargs.get("matches") is not None:
        per_match = core_seconds * ROWS_PER_MATCH
        return _warning(what, kwargs["matches"], "match", per_match, threads, "--matches N")
    return _warning(what, kwargs.get("deals") or 0, "deal", core_seconds, threads, "--deals N")
