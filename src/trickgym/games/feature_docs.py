"""The reference page of every game's feature columns (``docs/features.md``), from the code.

:func:`features_markdown` writes the page from what the envs use: each
game's :func:`~trickgym.games.obs_features.feature_plan` (column names and
positions), its ``FEATURES`` table (how a key is encoded) and the key table
in its encode module's docstring (what a key means). A test compares the
committed page with it, so the page cannot go stale. Regenerate with::

    python -m trickgym.games.feature_docs docs/features.md
"""

from __future__ import annotations

import importlib
import re

from trickgym.docpage import games_page

from . import game
from .obs_features import feature_plan

__all__ = ["feature_encoding", "features_markdown", "key_meanings"]

# Options that make a game; the columns do not depend on them (Troggu pads
# to 8 seats, both Pinochle modes share one layout: the page says so).
_OPTIONS = {"troggu": {"players": 4}}
_NOTES = {
    "troggu": "One layout for every table size (3-8 players): rows of seats "
    "`+n_players` and beyond stay zero.",
    "pinochle": "One layout for both modes (`kitty`, `exchange`).",
}

_HEADER = """# Feature columns of `obs_mode="features"`

Generated from the code by `python -m trickgym.games.feature_docs docs/features.md`
(do not edit by hand; `tests/games/test_feature_docs.py` fails when this page
differs from what the code generates).

With `obs_mode="features"` the single, vector and PettingZoo envs give each
seat one `float32` vector (`obs["features"]`) beside the action mask
(`trickgym.games.obs_features`). For every game this page lists each key of
the observation that becomes columns (the game's `FEATURES` table in
`trickgym.games.<game>.encode`), then every block of columns with its names
as `trickgym.games.obs_features.feature_names(game)` gives them.

Seats are relative to the observer: `+0` is the observing seat, `+1` the
next to play after it, and so on (`team+0`: the observer's team). One-hot
blocks are all zero when the value is none (`-1`). Scaled columns are the
value divided by the number after `/` and may leave `[0, 1]`: the bounds of
every block (the `Box` the envs declare) are in [spec.md](spec.md).
"""

_ENCODINGS = {
    "bits": "0/1 per item",
    "onehot": "one-hot over {lo}..{hi}",
    "seat": "one-hot over the relative seat",
    "scaled": "value / {scale}",
    "calls": "per call slot: caller's relative seat one-hot, then the call one-hot over 0..{arg}",
    "last_bid": "per relative seat: has spoken, has passed, last bid other than a pass / {arg}",
}


def key_meanings(module) -> dict[str, str]:
    """``{key: meaning}`` from the key table (reST, ``=`` rules) of an encode module's docstring."""
    lines = (module.__doc__ or "").splitlines()
    rules = [i for i, line in enumerate(lines) if re.fullmatch(r"=+( +=+)+", line.strip())]
    if len(rules) < 3:
        raise ValueError(f"{module.__name__}: no key table in its docstring")
    start = [m.start() for m in re.finditer(r"=+", lines[rules[0]])][2]
    meanings: dict[str, str] = {}
    key = None
    for line in lines[rules[1] + 1 : rules[2]]:
        found = re.match(r"``(\w+)``", line)
        if found:
            key = found.group(1)
            meanings[key] = line[start:].strip()
        elif key is not None and line.strip():
            meanings[key] += " " + line[start:].strip()
    return {k: v.replace("``", "`") for k, v in meanings.items()}  # reST literals to Markdown


def feature_encoding(kind: str, arg) -> str:
    """How one ``FEATURES`` entry becomes columns, in words."""
    per_seat = (isinstance(arg, tuple) and arg[-1] in ("seats", "teams")) or arg == "seats"
    if kind == "onehot":
        text = _ENCODINGS[kind].format(lo=arg[0], hi=arg[1])
    elif kind == "scaled":
        text = _ENCODINGS[kind].format(scale=arg[0] if isinstance(arg, tuple) else arg)
    else:
        text = _ENCODINGS[kind].format(arg=arg)
    if per_seat:
        text += ", per relative " + (
            "team" if isinstance(arg, tuple) and arg[-1] == "teams" else "seat"
        )
    return text


def _block_of(name: str, kind: str) -> tuple[str, str]:
    """``(block, item)``: a column name split into its block and the item within it."""
    if "=" in name:
        block, item = name.rsplit("=", 1)
        return block, item
    if kind == "bits" and name.endswith("]"):
        block, item = name[:-1].rsplit("[", 1)
        return block, item
    return name, ""


def _span(lo: int, hi: int) -> str:
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def _game_section(name: str) -> list[str]:
    g = game(name, **_OPTIONS.get(name, {}))
    plan = feature_plan(g)
    meanings = key_meanings(importlib.import_module(f"trickgym.games.{name}.encode"))
    starts = [int(row[-1]) for row in plan.plan] + [plan.size]
    out = [f"## {g.title} (`{name}`): {plan.size} columns", ""]
    if name in _NOTES:
        out += [_NOTES[name], ""]
    out += ["| columns | key | encoding | meaning |", "|---|---|---|---|"]
    for (key, kind, arg), lo, hi in zip(g.features, starts[:-1], starts[1:], strict=True):
        out.append(
            f"| {_span(lo, hi - 1)} | `{key}` | {feature_encoding(kind, arg)} | "
            f"{meanings.get(key, '')} |"
        )
    out += ["", "| columns | block | items |", "|---|---|---|"]
    for (_key, kind, _arg), lo, hi in zip(g.features, starts[:-1], starts[1:], strict=True):
        blocks: list[tuple[str, int, list[str]]] = []
        for col in range(lo, hi):
            block, item = _block_of(plan.names[col], kind)
            if blocks and blocks[-1][0] == block:
                blocks[-1][2].append(item)
            else:
                blocks.append((block, col, [item]))
        for block, first, items in blocks:
            shown = " ".join(f"`{i}`" for i in items if i)
            out.append(f"| {_span(first, first + len(items) - 1)} | `{block}` | {shown} |")
    return [*out, ""]


def features_markdown() -> str:
    """The text of ``docs/features.md``: every game's feature columns, from the code."""
    return games_page(_HEADER, _game_section)


if __name__ == "__main__":
    from trickgym.docpage import page_main

    page_main(features_markdown)
