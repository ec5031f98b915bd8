"""``docs/features.md`` is what the code generates, so it cannot go stale."""

from __future__ import annotations

import importlib
from pathlib import Path

from trickgym.games import GAMES, game_class
from trickgym.games.feature_docs import features_markdown, key_meanings

PAGE = Path(__file__).resolve().parents[2] / "docs" / "features.md"


def test_committed_features_page_equals_the_generated_one():
    assert PAGE.read_text(encoding="utf-8") == features_markdown(), (
        "docs/features.md is stale: run python -m trickgym.games.feature_docs docs/features.md"
    )


def test_every_feature_key_has_a_meaning_in_its_encode_docstring():
    for name in GAMES:
        meanings = key_meanings(importlib.import_module(f"trickgym.games.{name}.encode"))
        for key, _kind, _arg in game_class(name).features:
            assert meanings.get(key), (name, key)
