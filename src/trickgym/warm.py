"""Build the compiled kernels ahead of time: ``trickgym warm`` (for cluster images, Dask workers).

numba compiles a kernel the first time it runs and caches it on disk (beside
the sources, or in ``NUMBA_CACHE_DIR``); later processes load it in a
fraction of a second. :func:`warm` runs, for each game and table, a tiny
simulation (one deal, one match) with random agents, then rule agents, then
an oracle seat, then the single Gymnasium env and the vector env (reset and a
few steps), so that the cache holds every kernel those runs use. Each step
reports the functions numba compiled (its ``numba:compile`` events) and the
seconds it took; a step whose kernels were cached already compiles nothing.

Random and rule agents are a run-time argument of the same loops, as are
Troggu's table size and Pinochle's mode (a 7-player Troggu run after a
4-player warm-up, or an exchange-mode Pinochle run after kitty, compiles
nothing), so the rule agents' step loads what the random agents' step
compiled; a run with an oracle seat has loops of its own, linked with the
solver.

Not built: the double-dummy columns of ``simulate(dd=True)`` beyond what
every run imports, the Monte Carlo and learnt agents, ``obs_mode="features"``
and the PettingZoo envs (run them once to cache their kernels too).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

import gymnasium as gym
import numpy as np

from trickgym.games import description, game_class
from trickgym.games import game as make_game

from .checks import is_int, split_names
from .compiling import Compiled, run_compiling
from .games import DESCRIPTIONS
from .progress import want_progress

__all__ = ["AGENTS", "GAMES", "WarmReport", "WarmStep", "warm"]


def _games() -> tuple[str, ...]:
    """The registered games that simulate, in registration order (their descriptions)."""
    return tuple(name for name, d in DESCRIPTIONS.items() if d.sim is not None)


#: The games :func:`warm` builds, in the order it builds them (the built-in ones; a game
#: registered later is built too).
GAMES = _games()
#: The built-in agents it can warm up (the kinds the compiled loops run).
AGENTS = ("random", "rule", "oracle")
# Each game's description gives the tables built by default (``warm_tables``: one
# Troggu size, as its kernels take the table size at run time) and the option a keyword
# of warm() chooses instead (``warm_choices``: players= sets Troggu's players).

_WHAT = {"random": "random agents", "rule": "rule agents", "oracle": "an oracle seat"}


@dataclass(frozen=True)
class WarmStep:
    """One step of :func:`warm`: what ran, how long it took, the functions compiled."""

    game: str
    table: str
    what: str
    seconds: float
    names: tuple[str, ...]

    @property
    def count(self) -> int:
        """Functions numba compiled in this step (0: all loaded from the cache)."""
        return len(self.names)

    def format(self) -> str:
        """One line: ``  rule agents          12 functions compiled in    9.8 s``."""
        noun = "function " if self.count == 1 else "functions"
        return f"  {self.what:<22}{self.count:>5} {noun} compiled in {self.seconds:6.1f} s"


@dataclass
class WarmReport:
    """What :func:`warm` did: its steps, in order, and where numba caches the kernels."""

    steps: list[WarmStep] = field(default_factory=list)
    cache: str = ""

    @property
    def seconds(self) -> float:
        """Wall seconds of all the steps."""
        return sum(s.seconds for s in self.steps)

    @property
    def count(self) -> int:
        """Functions compiled by all the steps."""
        return sum(s.count for s in self.steps)

    def total_line(self) -> str:
        """The last line of the report: totals and the cache folder."""
        return (
            f"total: {_functions(self.count)} compiled in {self.seconds:.0f} s; "
            f"kernels cached {self.cache}"
        )

    def format(self) -> str:
        """The report as text: the steps under their game, a subtotal per game, the total."""
        lines, heading = [], None
        for step in self.steps:
            title = f"{step.game}{f' ({step.table})' if step.table else ''}"
            if title != heading:
                lines.append(title)
                heading = title
            lines.append(step.format())
        for game in dict.fromkeys(s.game for s in self.steps):
            lines.append(_game_line(game, [s for s in self.steps if s.game == game]))
        lines.append(self.total_line())
        return "\n".join(lines)


def _functions(count: int) -> str:
    return f"{count} function{'s' * (count != 1)}"


def _game_line(game: str, steps: list[WarmStep]) -> str:
    count = sum(s.count for s in steps)
    return f"{game}: {_functions(count)} compiled in {sum(s.seconds for s in steps):.0f} s"


def cache_location() -> str:
    """Where numba writes the kernels: ``NUMBA_CACHE_DIR``, or beside the package sources."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    if folder:
        return f"in {folder} (NUMBA_CACHE_DIR)"
    here = os.path.dirname(os.path.abspath(__file__))
    return f"in __pycache__ folders beside the sources ({here}, agents, envs)"


def _names(value, allowed: tuple, what: str, param: str) -> tuple:
    """A tuple of names from ``None`` (all), a name, ``"a,b"`` or a list; unknown ones refused.

    ``what`` names one of them in messages, ``param`` the parameter given.
    """
    if value is None:
        return allowed
    if isinstance(value, str):
        value = split_names(param, value, ",".join(allowed[:2]))
    names = _sequence(param, value, "names")
    for name in names:
        if name not in allowed:
            raise ValueError(f"unknown {what} {name!r} for warm; allowed: {', '.join(allowed)}")
    return tuple(dict.fromkeys(names))


def _sequence(param: str, value, what: str) -> tuple:
    """``value`` as a non-empty tuple (a list or tuple given), else a ValueError naming it."""
    if not isinstance(value, list | tuple) or not value:
        raise ValueError(f"{param} must be one or a non-empty list of {what}, got {value!r}")
    return tuple(value)


def _tables(games: tuple, players, modes) -> list[tuple[str, dict]]:
    """``(game, options)`` for every table to warm; ``players``/``modes`` checked first."""
    chosen = {"players": players, "modes": modes}
    for keyword, value in chosen.items():
        if value is not None and not any(keyword in description(g).warm_choices for g in games):
            known = DESCRIPTIONS.items()
            owners = [n for n, d in known if keyword in d.warm_choices]
            raise ValueError(
                f"{keyword}= is for {', '.join(owners)}, not among the games to warm "
                f"({', '.join(games)})"
            )
    if is_int(players):
        players = (players,)
    if isinstance(modes, str):
        modes = (modes,)
    if players is not None:
        players = _sequence("players", players, "table sizes")
    if modes is not None:
        modes = _sequence("modes", modes, "modes")
    chosen = {"players": players, "modes": modes}
    tables = []
    for game in games:
        desc = description(game)
        picked = [(k, option) for k, option in desc.warm_choices.items() if chosen[k] is not None]
        if picked:
            keyword, option = picked[0]
            tables += [(game, {option: v}) for v in dict.fromkeys(chosen[keyword])]
        else:
            tables += [(game, dict(options)) for options in desc.warm_tables]
    for game, options in tables:
        make_game(game, **options)  # a bad table size or mode: ValueError naming it
    return tables


def _env_id(game: str) -> str:
    envs = description(game).envs
    if not envs:
        raise ValueError(f"no Gymnasium env for {game!r}")
    return envs[0][0]


def _simulations(game: str, options: dict, seats) -> None:
    """One deal (or match) of each way ``simulate`` runs ``game``, with agents ``seats``."""
    # lazy: trickgym.sim loads pandas
    from trickgym.sim import simulate

    runs = [{game_class(game).run_unit: 1}]  # Phat: a match
    runs += description(game).warm_runs  # the game's own kernels besides
    for run in runs:
        simulate(game, agents=seats, seed=0, progress=False, **{**options, **run})


def _single_env(game: str, options: dict, opponents: str) -> None:
    """Reset the single env and step it to the end of an episode (first legal actions)."""
    env = gym.make(_env_id(game), opponents=opponents, **options)
    try:
        env.reset(seed=0)
        for _ in range(10_000):
            action = int(np.flatnonzero(env.unwrapped.action_masks())[0])
            _, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                break
    finally:
        env.close()


def _vector_env(game: str, options: dict, opponents: str) -> None:
    """Reset and step the vector env, serial and threaded, past the end of an episode."""
    for parallel in (False, True):
        env = gym.make_vec(
            _env_id(game),
            num_envs=2,
            vectorization_mode="vector_entry_point",
            opponents=opponents,
            parallel=parallel,
            **options,
        )
        try:
            env.reset(seed=0)
            for _ in range(200):
                env.step(env.unwrapped.action_masks().argmax(axis=1))
        finally:
            env.close()


def _steps(game: str, options: dict, agents: tuple, envs: bool):
    """``(what, work)`` pairs for one table."""
    n_seats = make_game(game, **options).n_seats
    others = "rule" if "rule" in agents else "random"
    for name in agents:
        seats = [name, *[others] * (n_seats - 1)] if name == "oracle" else name
        yield _WHAT[name], (lambda s=seats: _simulations(game, options, s))
    if envs:
        yield "single env", lambda: _single_env(game, options, others)
        yield "vector env", lambda: _vector_env(game, options, others)


def warm(
    game=None,
    agents=AGENTS,
    *,
    players=None,
    modes=None,
    envs: bool = True,
    progress: bool | None = None,
    log: Callable[[str], None] | None = None,
) -> WarmReport:
    """Compile (or load from numba's cache) the kernels that runs of these games use.

    Parameters
    ----------
    game : str or list of str, optional
        ``"solowhist"``, ``"troggu"``, ``"phat"``, ``"pinochle"``, several
        (a list or ``"a,b"``); default all four.
    agents : str or list of str
        Built-in agents to run, among ``random``, ``rule`` and ``oracle``
        (an oracle seat, the others rule agents, or random ones without
        ``rule``); default all three.
    players : int or list of int, optional
        Troggu table sizes (3..8); default one size, as the kernels do not
        depend on it.
    modes : str or list of str, optional
        Pinochle modes; default ``kitty`` and ``exchange``.
    envs : bool
        Also reset and step the Gymnasium env and the vector env.
    progress : bool or None
        While numba compiles, show on a terminal (stderr) the functions
        compiled so far; ``False``: print nothing; ``None`` (default): in a
        terminal or a notebook only.
    log : callable, optional
        Called with each line of the report as soon as it is known (the
        command line prints them).

    Returns
    -------
    WarmReport
        The steps with their seconds and compiled functions; ``format()``
        gives the text ``trickgym warm`` prints.
    """
    progress = want_progress(progress)
    games = _names(game, _games(), "game", "game")
    agents = _names(agents, AGENTS, "agent", "agents")
    tables = _tables(games, players, modes)
    report = WarmReport(cache=cache_location())
    say = log or (lambda line: None)

    def step(game_name: str, table: str, what: str, work) -> None:
        label = f"compiling the {game_name} kernels ({what})"
        _, done = run_compiling(work, label, progress)
        report.steps.append(_step(game_name, table, what, done))
        say(report.steps[-1].format())

    # The imports are a step of their own, so their seconds are not a game's (and a
    # kernel with an explicit signature, compiled as its module loads, is counted).
    say("imports")
    step("imports", "", "import trickgym.sim", lambda: __import__("trickgym.sim"))
    for i, (name, options) in enumerate(tables):
        table = ", ".join(f"{k}={v}" for k, v in options.items())
        say(f"{name}{f' ({table})' if table else ''}")
        for what, work in _steps(name, options, agents, envs):
            step(name, table, what, work)
        if i + 1 == len(tables) or tables[i + 1][0] != name:
            say(_game_line(name, [s for s in report.steps if s.game == name]))
    say(report.total_line())
    return report


def _step(game: str, table: str, what: str, done: Compiled) -> WarmStep:
    return WarmStep(game, table, what, done.seconds, done.names)
