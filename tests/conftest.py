"""Shared fixtures: games and compiled kernels are built once per session."""

from __future__ import annotations

import os
from pathlib import Path

# Tests check behaviour, not speed: compile at LLVM -O1, which takes a fifth
# less time in a cold run of the suite (measured: 462 s against 564 s), into
# a cache of their own, so that benchmarks and users never load code
# compiled this way. Set before numba is imported; subprocesses inherit it.
# A caller who chose either setting keeps both as they are.
if "NUMBA_OPT" not in os.environ and "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_OPT"] = "1"
    ROOT = Path(__file__).resolve().parent.parent
    os.environ["NUMBA_CACHE_DIR"] = str(ROOT / ".numba-test-cache")
    # Mark the folder as trickgym's, so that importing trickgym deletes the
    # kernels there whose dependencies changed, as it does in __pycache__
    # (numba checks a kernel only against its own file, not against the
    # kernels it calls).
    (ROOT / ".numba-test-cache").mkdir(exist_ok=True)
    (ROOT / ".numba-test-cache" / "trickgym-owned-cache").touch()

import pytest

import trickgym


@pytest.fixture(scope="session")
def solowhist():
    """A Solo Whist game with default options (unit 5)."""
    return trickgym.game("solowhist")


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` run only with ``TRICKGYM_SLOW=1`` (by hand, not in CI)."""
    import os

    if os.environ.get("TRICKGYM_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow reference search: set TRICKGYM_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
