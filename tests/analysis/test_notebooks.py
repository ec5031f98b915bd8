"""The analysis notebooks run top to bottom at a tiny size, and are stored without outputs."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from helpers.git_clean import git_repo_with_gitignore, git_status

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
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
# The size the test runs them at, as their first cells say: the smallest at which
# every notebook still runs every cell. The two double-dummy notebooks' time grows
# with it (96 CPU s for the nine at 200 deals, 43 s at 40).
TEST_DEALS = 40


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


def _default_size(book: Path) -> int:
    """The notebook's ``DEALS`` when ``TRICKGYM_NB_DEALS`` is not set."""
    code = "".join(json.loads(book.read_text())["cells"][1]["source"])
    found = re.search(r'TRICKGYM_NB_DEALS", "(\d+)"', code)
    assert found, f"{book.name}: DEALS must default through TRICKGYM_NB_DEALS"
    return int(found.group(1))


def test_every_notebook_says_its_size_and_time():
    """The first cell of each notebook and the first-hour page's table give its size knob,
    its default and the time that took; the page names the extra that runs them."""
    page = (ROOT / "docs" / "first-hour.md").read_text(encoding="utf-8")
    for book in sorted(NOTEBOOKS.glob("*.ipynb")):
        default = _default_size(book)
        intro = "".join(json.loads(book.read_text())["cells"][0]["source"])
        assert "TRICKGYM_NB_DEALS" in intro and f"{default:,} " in intro, book.name
        assert f"(the tests use {TEST_DEALS})" in intro, book.name
        assert re.search(r"ran in \d+ s \(\d+ CPU s\) on a .+ at load", intro), book.name
        row = re.search(rf"^\| {book.stem} \| {default} .*\| \d+ s \(\d+ CPU s\) \|$", page, re.M)
        assert row, f"docs/first-hour.md: no row for {book.stem} at {default} with its time"
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    names = {re.match(r"[\w-]+", spec).group(0) for spec in extras["notebooks"]}
    assert {"nbconvert", "ipykernel"} <= names, names
    assert "pip install -e '.[notebooks]'" in page and "jupyter nbconvert" in page


@pytest.mark.skipif(
    not all(importlib.util.find_spec(m) for m in ("nbmake", "ipykernel")),
    reason="needs the test extras (nbmake, ipykernel)",
)
def test_notebooks_run_and_leave_the_clone_clean(tmp_path):
    """Every notebook runs at a tiny size in a fresh copy of the tracked notebooks, and
    afterwards git sees nothing changed or new there: what a notebook writes is ignored."""
    clone = git_repo_with_gitignore(tmp_path / "clone", "notebooks")
    books = sorted((clone / "notebooks").glob("*.ipynb"))
    env = dict(os.environ, TRICKGYM_NB_DEALS=str(TEST_DEALS), MPLBACKEND="Agg")
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
