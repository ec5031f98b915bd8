"""Experiment files: a TOML file that fixes a simulation run, so it can be repeated exactly.

An experiment file fixes everything that decides the rows (game, its
options, agents per seat, seed, deals or matches, dealing, chunk size);
where and how the run goes (output folder, resume, backend, threads) is
left to the command line, since it never changes the results. Example
(``experiments/solowhist_rule_1m.toml``)::

    description = "A million Solo Whist deals, four rule agents"
    game = "solowhist"
    agents = ["rule", "rule", "rule", "rule"]
    seed = 1
    deals = 1_000_000
    dealing = "shuffled"
    chunk = 65_536

    [options]
    unit = 5

Run it with ``trickgym simulate --experiment FILE [--out DIR]`` or
``trickgym.experiment.run_experiment(FILE, out=DIR)``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from trickgym.games import GAMES

from .checks import check_file

__all__ = ["KEYS", "load_experiment", "run_experiment"]

# Keys an experiment file may hold, and what they are.
KEYS = {
    "description": "free text, not used by the run",
    "game": "game name (required)",
    "agents": "one agent name, or a list with one per seat (required)",
    "seed": "integer seed (required: an experiment is reproducible)",
    "deals": "number of deals (or matches, not both)",
    "matches": "number of whole matches (phat, pinochle)",
    "first": "index of the first deal or match (default 0)",
    "dealing": "'shuffled' (default) or 'match' (Solo Whist's BGA dealing)",
    "pack": "'bga' (same as dealing = 'match') or 'shuffled'",
    "chunk": "deals or matches per chunk (default: about 65536 rows)",
    "dd": "true: double-dummy columns dd_tricks, dd_made (Solo Whist)",
    "dd_max_nodes": "node budget of each double-dummy solver call (default 4000000; 0: none)",
    "options": "table of game options, e.g. [options] unit = 5",
    "rule_options": "table of the rule agents' settings (RuleOptions fields), every seat",
}
_REQUIRED = ("game", "agents", "seed")


def load_experiment(path) -> dict:
    """The ``simulate`` keyword arguments an experiment file fixes.

    Raises ``ValueError`` naming a missing, unknown or mistyped key.
    """
    path = Path(check_file("experiment", path))
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError as err:
        raise ValueError(f"experiment file {str(path)!r} not found") from err
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"experiment file {str(path)!r} is not valid TOML: {err}") from err
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise ValueError(
            f"experiment file {str(path)!r}: unknown key(s) {', '.join(unknown)}; "
            f"allowed: {', '.join(KEYS)}"
        )
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise ValueError(f"experiment file {str(path)!r}: missing {', '.join(missing)}")
    if "deals" not in data and "matches" not in data:
        raise ValueError(f"experiment file {str(path)!r}: give deals = N or matches = N")
    for key in ("options", "rule_options"):
        if key in data and not isinstance(data[key], dict):
            raise ValueError(f"experiment file {str(path)!r}: {key} must be a table [{key}]")
    kwargs = {k: v for k, v in data.items() if k not in ("description", "options", "rule_options")}
    if isinstance(kwargs["agents"], list):
        kwargs["agents"] = [str(a) for a in kwargs["agents"]]
    kwargs.update(data.get("options", {}))
    if "rule_options" in data:
        kwargs["rule_options"] = _rule_options(data["game"], data["rule_options"], path)
    return kwargs


def _rule_options(game: str, table: dict, path: Path):
    """The game's ``RuleOptions`` from a TOML table."""
    if game not in GAMES:
        raise ValueError(f"experiment file {str(path)!r}: unknown game {game!r}")
    cls = GAMES[game][0].rule_options
    try:
        return cls(**table)
    except TypeError as err:
        raise ValueError(f"experiment file {str(path)!r}: rule_options: {err}") from err


def run_experiment(path, **run):
    """Run an experiment file with ``simulate``; ``run`` holds only how to run it.

    ``run`` may hold ``out``, ``resume``, ``backend``, ``scheduler``,
    ``threads``, ``progress``, ``on_chunk`` and ``columns``; anything that
    would change the rows must be in the file.
    """
    # lazy: trickgym.sim loads pandas
    from trickgym.sim import simulate

    allowed = {
        "out",
        "resume",
        "backend",
        "scheduler",
        "threads",
        "progress",
        "on_chunk",
        "columns",
    }
    bad = sorted(set(run) - allowed)
    if bad:
        raise ValueError(
            f"{', '.join(bad)} would change the results of experiment {str(path)!r}: "
            "set it in the file (or copy the file)"
        )
    kwargs = load_experiment(path)
    game = kwargs.pop("game")
    return simulate(game, **kwargs, **run)
