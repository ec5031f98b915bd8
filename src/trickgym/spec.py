"""The spec page of every game (``docs/spec.md``), generated from the code.

:func:`spec_markdown` writes, per game, what a learner needs: every action
id and its name (``Game.action_name``), the observation keys with the
ranges the envs' spaces declare (``Game.obs_ranges``), the feature
columns' bounds (:func:`~trickgym.games.obs_features.feature_plan`), the
reward (the env's docstring), the largest payoff a deal can pay
(``Game.payoff_bound``, the default illegal-action penalty) per table, and
what ``info`` carries. A test compares the committed page with it, so the
page cannot drift from the code. Regenerate with::

    python -m trickgym.spec docs/spec.md
"""

from __future__ import annotations

import importlib
import re

import numpy as np

from trickgym.envs import ENV_IDS

from .docpage import games_page, page_main
from .games import game
from .games.feature_docs import feature_encoding, key_meanings
from .games.obs_features import feature_plan

__all__ = ["MEASURED", "spec_markdown"]

# The options each game's section shows (Troggu needs a table size) and the
# tables whose payoff bound it lists.
_OPTIONS = {"troggu": {"players": 4}}
_TABLES = {
    "solowhist": [{"unit": 1}, {}, {"unit": 10}],
    "troggu": [{"players": n} for n in range(3, 9)],
    "phat": [{}],
    "pinochle": [{}, {"mode": "exchange"}],
}

_NOTES = {
    "troggu": "Seat numbers and per-seat rows span 8 seats at every table, so the shapes "
    "are the same from 3 to 8 players: rows of seats past the table are padding (-1 or 0), "
    "and their feature columns are bounded to 0.",
}

#: Seat payoffs per deal measured by ``trickgym simulate`` (5,000 deals, seed 1,
#: one thread; Phat 1,000 matches), every seat of every deal pooled:
#: ``{tag: {agents: (deals, min, p1, p50, p99, max, % below -100)}}``. Not
#: generated (a run takes minutes); the commands are on the page.
MEASURED = {
    "solowhist": {
        "rule": (5000, -45, -15, -5, 24, 63, 0.0),
        "random": (5000, -93, -90, 30, 30, 60, 0.0),
    },
    "phat": {
        "rule": (3950, -88, -80, 0, 80, 88, 0.0),
        "random": (3912, -96, -78, 0, 78, 96, 0.0),
    },
    "pinochle": {
        "rule": (5000, -680, -490, 0, 490, 680, 48.7),
        "random": (5000, -1520, -1340, 0, 1340, 1520, 50.0),
    },
    "pinochle-exchange": {
        "rule": (5000, -1830, -600, 0, 600, 1830, 49.5),
        "random": (5000, -1600, -1380, 0, 1380, 1600, 50.0),
    },
    "troggu-3p": {
        "rule": (5000, -40, -20, -10, 40, 80, 0.0),
        "random": (5000, -120, -80, 10, 40, 80, 0.1),
    },
    "troggu-4p": {
        "rule": (5000, -60, -30, -10, 60, 120, 0.0),
        "random": (5000, -180, -180, 20, 60, 120, 4.4),
    },
    "troggu-5p": {
        "rule": (5000, -120, -40, -10, 80, 120, 0.0),
        "random": (5000, -240, -240, 20, 80, 160, 8.7),
    },
    "troggu-6p": {
        "rule": (5000, -150, -50, -10, 100, 150, 0.0),
        "random": (5000, -300, -300, 20, 60, 200, 8.5),
    },
    "troggu-7p": {
        "rule": (5000, -90, -30, -10, 60, 90, 0.0),
        "random": (5000, -360, -360, 40, 60, 240, 13.5),
    },
    "troggu-8p": {
        "rule": (5000, -120, -40, -10, 80, 120, 0.0),
        "random": (5000, -420, -420, 40, 60, 280, 11.9),
    },
}

_HEADER = """# Game specs: actions, observations, rewards, info

Generated from the code by `python -m trickgym.spec docs/spec.md` (do not
edit by hand; `tests/envs/test_spec.py` fails when this page differs from what
the code generates). The rules themselves are in [rules/](rules/README.md); the
name of every feature column is in [features.md](features.md).

Every game has a Gymnasium env (`gymnasium.make("trickgym/<Game>-v0")`, one
learning seat), a native vector env (`gymnasium.make_vec(...,
vectorization_mode="vector_entry_point")`) and a PettingZoo AEC env
(`trickgym.envs.pettingzoo.env(game)`, every seat an agent). This page holds
for all three.

## What all games share

**Actions** are integers `0 .. n_actions-1`: the cards of the pack first
(`0 .. n_cards-1`: play, discard or pass a card, or name one, by phase), then
the calls. Only the actions of the observation's `action_mask` are legal.

**Illegal actions.** An illegal id ends the episode with reward
`-illegal_penalty` and `info["illegal_action"] = True` (or raises
`ValueError` with `illegal_action="raise"`). The default penalty is the
game's *payoff bound* at the table's options (`env.game.payoff_bound`,
derived from the scoring rules, listed per table below): no deal pays a seat
less than minus that, so an illegal move never beats legal play. Phat's
`episode="game"` rewards are +1/-1, and its default penalty 1. Give
`illegal_penalty=` to choose another.

**Rewards** come once, when the episode ends (0 before): the seat's payoff for
the deal, zero-sum over the seats (the team's margin in Phat and Pinochle).

**Info.** `reset` and `step` return, for the learner (the single env), every
sub-env (the vector env, with `deal_infos=True`: arrays in gymnasium's vector
convention, each with its `_<key>` mask) and every agent (PettingZoo):

- `contract`: the contract's name, `""` while there is none (Solo Whist:
  `"Solo"`, ..., `"Passed out"`; Troggu: `"Tapp"`, ...; Phat: `"Trumps S"`
  once pitched; Pinochle: the bid, with its trumps once named, `"300 S"`);
- `declarer`: the declaring seat, -1 for none (Phat: the pitcher; Troggu's
  Misère: -1);
- `legal_actions`: the number of legal actions of the learner (the agent), 0
  when it is not to act or the episode is over;
- `illegal_action`: `True`, only after an illegal move.

**Observation ranges.** The `range` column is what the env's observation
space declares at the options shown, and what the observations can reach:
scores are those of an env episode (one deal of a new match; Phat's deal
episodes go on through the match), ranges marked * depend on the options
(listed per table below). Feature columns are the value divided by the
scale after `/` (`obs_mode="features"`); their `Box` bounds are those
ranges over the scale (0 for seats beyond the table).
"""


def _span(lo: int, hi: int) -> str:
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def _num(x: float) -> str:
    return f"{x:.4g}"


def _tag(name: str, options: dict) -> str:
    return game(name, **options).tag


def _env_section(name: str, title: str) -> str:
    """The indented section ``title`` of the game's env class docstring, as one paragraph."""
    module_path, cls_name = next(
        v.split(":") for v in ENV_IDS.values() if v.split(":")[0] == f"trickgym.envs.{name}"
    )
    doc = getattr(importlib.import_module(module_path), cls_name).__doc__ or ""
    match = re.search(rf"\n    {title}\n((?:        .*\n|\s*\n)+)", doc)
    if not match:
        raise ValueError(f"{cls_name} docstring has no {title!r} section")
    text = " ".join(line.strip() for line in match.group(1).splitlines() if line.strip())
    return text.replace("``", "`")


def _actions(g) -> list[str]:
    out = [
        f"`Discrete({g.n_actions})`: cards `0..{g.deck.n_cards - 1}`, calls "
        f"`{g.deck.n_cards}..{g.n_actions - 1}`.",
        "",
    ]
    names = [g.action_name(a) for a in range(g.n_actions)]
    copies = g.deck.copies
    if copies > 1:
        out += [
            f"Every card comes in {copies} identical copies, on adjacent ids: "
            f"`{names[0]}` is both `0` and `1`, and so on. The `copy` column tells "
            "them apart, as the `hand` bits do: a seat holding one copy has only its "
            "id legal; a seat holding both has both legal, and either plays the same "
            "card (of two identical cards in a trick the first played wins). "
            "`State.apply` given a card's name plays the legal copy.",
            "",
        ]
    header = "| id | name | copy |" if copies > 1 else "| id | name |"
    out += [header, "|---|---|---|" if copies > 1 else "|---|---|"]
    for a, label in enumerate(names):
        if copies > 1 and a < g.deck.n_cards:
            out.append(f"| {a} | `{label}` | {a % copies + 1} |")
        elif copies > 1:
            out.append(f"| {a} | `{label}` | |")
        else:
            out.append(f"| {a} | `{label}` |")
    return [*out, ""]


def _observation(g, name: str, varying: set[str]) -> list[str]:
    meanings = key_meanings(importlib.import_module(f"trickgym.games.{name}.encode"))
    ranges = g.obs_ranges
    out = ["| key | shape | dtype | range | meaning |", "|---|---|---|---|---|"]
    for key, (shape, dtype, _lo, _hi) in g.obs_shapes.items():
        lo, hi = ranges[key]
        mark = "*" if key in varying else ""
        shown = "x".join(str(s) for s in shape) or "()"
        out.append(
            f"| `{key}` | {shown} | {np.dtype(dtype).name} | {lo}..{hi}{mark} | "
            f"{meanings.get(key, '')} |"
        )
    return [*out, ""]


def _features(g) -> list[str]:
    plan = feature_plan(g)
    starts = [int(row[-1]) for row in plan.plan] + [plan.size]
    out = [
        f"{plan.size} columns (`float32`); per key of `FEATURES`, the bounds of its "
        "block of columns:",
        "",
        "| columns | key | encoding | low | high |",
        "|---|---|---|---|---|",
    ]
    for (key, kind, arg), lo, hi in zip(g.features, starts[:-1], starts[1:], strict=True):
        low, high = float(plan.low[lo:hi].min()), float(plan.high[lo:hi].max())
        out.append(
            f"| {_span(lo, hi - 1)} | `{key}` | {feature_encoding(kind, arg)} | {_num(low)} | "
            f"{_num(high)} |"
        )
    return [*out, ""]


def _reward(name: str, varying: list[str]) -> list[str]:
    out = [_env_section(name, "Reward"), ""]
    head = " | ".join(f"`{k}` range" for k in varying)
    out += [
        f"| table | payoff bound = default penalty | {head} |",
        "|---|---|" + "---|" * len(varying),
    ]
    for options in _TABLES[name]:
        g = game(name, **options)
        ranges = g.obs_ranges
        cells = " | ".join(f"{ranges[k][0]}..{ranges[k][1]}" for k in varying)
        shown = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
        out.append(f"| {shown} | {g.payoff_bound} | {cells} |")
    out += [
        "",
        "Measured seat payoffs per deal (every seat of every deal; the table's other "
        "options at their defaults), from `simulate --agents rule` or `random` with "
        "`--seed 1 --threads 1` "
        "(5,000 deals; Phat `--matches 1000`), as `trickgym.spec.MEASURED` records them:",
        "",
        "| table | agents | deals | min | p1 | p50 | p99 | max | below -100 |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    tags = dict.fromkeys(_tag(name, options) for options in _TABLES[name])
    for tag in tags:
        for agents, row in MEASURED.get(tag, {}).items():
            deals, lo, p1, p50, p99, hi, below = row
            out.append(
                f"| {tag} | {agents} | {deals:,} | {lo} | {p1} | {p50} | {p99} | {hi} | "
                f"{below:.1f}% |"
            )
    return [*out, ""]


def _varying(name: str) -> list[str]:
    """The keys whose range depends on the options (those the game narrows)."""
    return list(game(name, **_OPTIONS.get(name, {}))._obs_ranges())


def _game_section(name: str) -> list[str]:
    options = _OPTIONS.get(name, {})
    g = game(name, **options)
    varying = _varying(name)
    shown = ", ".join(f"{k}={v}" for k, v in options.items())
    out = [f"## {g.title} (`{name}`)", ""]
    if shown:
        out += [f"Shown for {shown}; the actions and keys are the same at every table.", ""]
    if name in _NOTES:
        out += [_NOTES[name], ""]
    out += ["### Actions", "", *_actions(g)]
    out += ["### Observation", "", *_observation(g, name, set(varying))]
    out += ["### Features", "", *_features(g)]
    out += ["### Reward", "", *_reward(name, varying)]
    return out


def spec_markdown() -> str:
    """The text of ``docs/spec.md``: every game's spec, from the code."""
    return games_page(_HEADER, _game_section)


if __name__ == "__main__":
    page_main(spec_markdown)
