"""The analysis notebooks run top to bottom at a tiny size, and are stored without outputs."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.git_clean import git_repo_with_gitignore, git_status

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
EXPECTED = {
    "solowhist",
    "troggu",
    "phat",
    "pinochle",
    "compare_agents",
    "why_bids_fail",
    "bid_success_by_agent",
    "advise_hand",
    "rl_tutorial",
}


def test_one_notebook_per_game_and_outputs_stripped():
    books = sorted(NOTEBOOKS.glob("*.ipynb"))
    assert {b.stem for b in books} >= EXPECTED
    for book in books:
        cells = json.loads(book.read_text())["cells"]
        code = [c for c in cells if c["cell_type"] == "code"]
        assert code, book.name
        assert "TRICKGYM_NB_DEALS" in "".join(code[0]["source"]), f"{book.name}: size parameter"
        for cell in code:
            assert cell["outputs"] == [] and cell["execution_count"] is None, (
                f"{book.name}: outputs must be stripped"
            )


@pytest.mark.skipif(
    not all(importlib.util.find_spec(m) for m in ("nbmake", "ipykernel")),
    reason="needs the test extras (nbmake, ipykernel)",
)
def test_notebooks_run_and_leave_the_clone_clean(tmp_path):
    """Every notebook runs at a tiny size in a fresh copy of the tracked notebooks, and
    afterwards git sees nothing changed or new there: what a notebook writes is ignored."""
    clone = git_repo_with_gitignore(tmp_path / "clone", "notebooks")
    books = sorted((clone / "notebooks").glob("*.ipynb"))
    env = dict(os.environ, TRICKGYM_NB_DEALS="200", MPLBACKEND="Agg")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--nbmake",
            "--nbmake-timeout=300",
            *map(str, books),
        ],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert f"{len(EXPECTED)} passed" in result.stdout
    assert git_status(clone) == "", "a notebook changed a tracked file or left one unignored"
