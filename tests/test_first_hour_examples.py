"""The first-hour page's analysis lines say what the data say, on rows made to test them.

``tests/test_readme.py`` runs every block as written; here the lines after
each block's ``simulate(...)`` run on a few hand-made rows instead, so the
cases that matter are sure to be there: a Troggu Misère (nobody declared)
and Pinochle's boolean ``made`` column.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pandas as pd

PAGE = (Path(__file__).resolve().parents[1] / "docs" / "first-hour.md").read_text("utf-8")


def _after_simulate(game: str) -> str:
    """The lines of the page's ``game`` block after its ``df = simulate(...)`` line."""
    for block in re.findall(r"```python\n(.*?)```", PAGE, re.S):
        lines = block.splitlines()
        at = [i for i, line in enumerate(lines) if line.startswith(f'df = simulate("{game}"')]
        if at:
            return "\n".join(lines[at[0] + 1 :])
    raise AssertionError(f"no block of docs/first-hour.md simulates {game}")


def _printed(code: str, df: pd.DataFrame) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/first-hour.md", "exec"), {"df": df, "pd": pd})
    return out.getvalue()


def test_troggu_misere_has_no_made_rate():
    contracts = ["Misère", "Misère", "Tapp", "Tapp", "Solo"]
    df = pd.DataFrame(
        {
            "contract": pd.Categorical(contracts, categories=["Misère", "Tapp", "Solo"]),
            "declarer": [-1, -1, 0, 3, 2],  # Misère: everyone passed, nobody declared
            "made": [False, False, True, False, True],
        }
    )
    printed = _printed(_after_simulate("troggu"), df).splitlines()
    lines = dict(line.split(maxsplit=1) for line in printed if line.split()[:1] in (
        ["Misère"], ["Tapp"], ["Solo"]))  # fmt: skip
    assert lines["Misère"].strip() == "NaN", lines  # not 0.000000: no declarer, no rate
    assert float(lines["Tapp"]) == 0.5 and float(lines["Solo"]) == 1.0


def test_pinochle_shows_the_made_rate():
    df = pd.DataFrame({"bid": [250, 260, 300, 250], "made": [True, True, False, True]})
    text = _printed(_after_simulate("pinochle"), df)
    assert "75.0%" in text, text  # describe() of ["bid", "made"] left the made column out
