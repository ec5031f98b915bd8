"""Named settings of the rule agent, playable wherever ``"rule"`` is.

A preset is the compiled rule agent with other :class:`RuleOptions`: the
simulator, tournaments, envs and ``trickgym play`` run it as kind ``RULE``
with the preset's parameter row at its seats. One preset ships today:

- ``"fitted"``: the bidder fitted by simulation (``experiments/fit_bidder.py``,
  :mod:`trickgym.training.fit_bidder`); card play as ``"rule"``. Its options are
  package data, ``agents/rule/fitted/<game>.json``, for the games that have
  been fitted.

Seats playing a preset take its options whatever ``rule_options`` says;
``rule_options`` still sets the plain ``"rule"`` seats.
"""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from pathlib import Path

from trickgym.engine.params import options_class

__all__ = ["FITTED_DIR", "PRESETS", "fitted_games", "preset_options", "resolve_presets"]

FITTED_DIR = Path(__file__).resolve().parent / "fitted"
PRESETS = ("fitted",)


def fitted_games() -> list[str]:
    """Games with a shipped fitted bidder, sorted."""
    return sorted(p.stem for p in FITTED_DIR.glob("*.json"))


@cache
def _fitted(game: str):
    path = FITTED_DIR / f"{game}.json"
    if not path.exists():
        have = ", ".join(fitted_games()) or "none"
        raise ValueError(
            f"no fitted bidder for {game} (fitted: {have}); "
            f"make one with: python experiments/fit_bidder.py --game {game} --install"
        )
    data = json.loads(path.read_text())
    if data.get("game") != game:
        raise ValueError(f"{path} holds the fitted bidder of {data.get('game')!r}, not {game!r}")
    cls = options_class(game)
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data["options"]) - known)
    if unknown:
        raise ValueError(f"{path}: unknown {cls.__name__} fields {unknown}; known: {sorted(known)}")
    return cls(**data["options"])


def preset_options(game: str, name: str):
    """The ``RuleOptions`` of preset ``name`` for ``game`` (clear errors otherwise)."""
    if name not in PRESETS:
        raise ValueError(f"unknown rule preset {name!r}; presets: {', '.join(PRESETS)}")
    return _fitted(game)


def resolve_presets(game: str, agents, rule_options, n_seats: int):
    """``(agents, rule_options)`` with every preset seat turned into ``"rule"`` with its options.

    ``agents`` is one entry per seat; ``rule_options`` None, one object or
    one per seat, as :func:`trickgym.engine.params.params_matrix` takes it.
    Returns them unchanged when no seat plays a preset.
    """
    agents = list(agents)
    seats = [s for s, a in enumerate(agents) if isinstance(a, str) and a in PRESETS]
    if not seats:
        return agents, rule_options
    if rule_options is None or not isinstance(rule_options, list | tuple):
        rule_options = [rule_options] * n_seats
    rule_options = list(rule_options)
    for s in seats:
        rule_options[s] = preset_options(game, agents[s])
        agents[s] = "rule"
    return agents, rule_options
