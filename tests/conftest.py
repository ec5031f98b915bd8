"""Shared fixtures: games and compiled kernels are built once per session."""

from __future__ import annotations

import pytest

import trickgym


@pytest.fixture(scope="session")
def solowhist():
    """A Solo Whist game with default options (unit 5)."""
    return trickgym.game("solowhist")
