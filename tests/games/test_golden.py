"""Golden traces: deal -> actions -> payoffs, replayed through the game API.

Each trace in ``tests/games/golden/<game>.json`` holds ``name``, ``options`` (game
options), ``deal`` (keyword arguments of ``game.deal``), ``actions`` (names),
``payoffs``, ``tricks_won`` (per seat) and ``why`` (the reason its payoffs
are right). A change in any rule kernel that alters a trace fails here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import trickgym

GOLDEN = Path(__file__).parent / "golden"


def _traces():
    for path in sorted(GOLDEN.glob("*.json")):
        for trace in json.loads(path.read_text(encoding="utf-8")):
            yield pytest.param(path.stem, trace, id=f"{path.stem}: {trace['name']}")


def test_every_game_has_golden_traces():
    assert {p.stem for p in GOLDEN.glob("*.json")} >= set(trickgym.GAMES)


@pytest.mark.parametrize("game_name, trace", list(_traces()))
def test_golden_trace_replays(game_name, trace):
    game = trickgym.game(game_name, **trace["options"])
    state = game.deal(**trace["deal"])
    for action in trace["actions"]:
        assert not state.is_over
        state.apply(action)
    assert state.is_over
    assert state.payoffs.tolist() == trace["payoffs"]
    assert state.record["tricks_won"][: game.n_seats].tolist() == trace["tricks_won"]
