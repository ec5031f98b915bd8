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

# One BLAS thread per process: the suite runs on two xdist workers, and
# OpenBLAS's threads of one worker spin while waiting for the core the other
# worker holds (test_fit_learns_a_learnable_rule: 10.3 s CPU with two threads,
# 3.9 s with one, alone; 139 s wall in a loaded two-worker run). Read when
# numpy is first imported, which is below (by trickgym), in every worker.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import pytest

import trickgym

# TRICKGYM_COMPILE_REPORT=FILE: CPU, wall and compiles per test file (tests/compile_report.py).
if os.environ.get("TRICKGYM_COMPILE_REPORT"):
    pytest_plugins = ["compile_report"]


@pytest.fixture(scope="session")
def solowhist():
    """A Solo Whist game with default options (unit 5)."""
    return trickgym.game("solowhist")


# The order in which `pytest -n 2 --dist loadfile` (README command 2) hands
# files to its two workers, when the cache is cold: kernels are compiled by
# the first worker to need them, and a worker that needs one the other is
# compiling compiles it too. So one worker starts with the env kernels while
# the other runs plain-Python reference tests and the double-dummy solver,
# then the longest files (they share the cached kernels) go first, so that
# neither worker is left with a long file at the end. Measured on a cold
# cache, two workers, load about 2: 559 s wall with xdist's order (files by
# test count; 110 CPU s of kernels compiled twice), 399 s with this one and
# the rule kernel compiled once (23 CPU s compiled twice). Files not listed
# follow in collection order. Only speed depends on this order.
FIRST_FILES = (
    "envs/test_env_inputs.py",
    "tricks/test_tricks_troggu.py",
    "tricks/test_tricks_pinochle.py",
    "solvers/test_dd.py",
    "cards/test_cards.py",
    "tricks/test_tricks_whist.py",
    "solvers/test_dd_one_against_three.py",
    "agents/test_pimc.py",
    "envs/test_conformance.py",
    "analysis/test_advise.py",
    "agents/test_agent_protocol.py",
    "agents/test_learnt.py",
    "test_tournament.py",
    "test_first_run.py",
    "sim/test_sim_dd.py",
    "test_readme.py",
    "analysis/test_advise_games.py",
    "agents/test_solowhist_dd_agents.py",
    "test_cli.py",
    # Its notebooks run in a subprocess and load what the files above compiled
    # (97 s when run before them, 53 s after, at 200 deals; at 40 deals 31 CPU s with
    # the kernels cached); the short files follow it.
    "analysis/test_notebooks.py",
)


def pytest_configure(config):
    """Keep the collection order for ``--dist loadfile`` (xdist sorts files by test count)."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def _file_rank(item) -> int:
    path = item.nodeid.split("::", 1)[0].removeprefix("tests/")
    return FIRST_FILES.index(path) if path in FIRST_FILES else len(FIRST_FILES)


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` run only with ``TRICKGYM_SLOW=1`` (by hand, not in CI);
    files run in the order of ``FIRST_FILES``, then the others."""
    import os

    items.sort(key=_file_rank)  # stable: a file's tests keep their order
    if os.environ.get("TRICKGYM_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow reference search: set TRICKGYM_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
