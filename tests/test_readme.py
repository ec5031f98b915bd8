"""Every Python block and every ``trickgym`` command of README.md runs, at small sizes.

Each Python block runs alone in a fresh namespace (so a block that forgets
an import fails here, not in a newcomer's hands); the commands run in
README order in one empty folder (so ``--out runs/...`` must create its
parents and ``--resume`` finds the run before it). Sizes are cut by the
substitutions below, each of which must still match the README. Not run
here: the set-up lines themselves (``pip install``: CI runs them), and the
``python benchmarks/...`` and ``python experiments/train_solowhist.py``
scripts (benchmarks are run by hand; the training example has its own test).
"""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

from trickgym.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")

# (pattern, replacement): README sizes -> test sizes. Every pattern must match somewhere.
SMALLER = [
    (r"deals=100_000", "deals=2_000"),
    (r"deals=2000, agents=\"rule\", seed=1, dd=True", 'deals=20, agents="rule", seed=1, dd=True'),
    (r"deals=10_000", "deals=40"),
    (r"deals=1000\b", "deals=2"),
    (r"samples=32", "samples=2"),
    (r"iterations=200", "iterations=4"),
    (r"num_envs=1024", "num_envs=8"),
    (r"--deals 1000000\b", "--deals 3000"),
    (r"--deals 10000000\b", "--deals 3000"),
    (r"--deals 10000\b", "--deals 40"),
    (r"--deals 2000\b", "--deals 16"),
    (r"trickgym warm\b", "trickgym warm --game solowhist --agents random --no-envs"),
]


def _smaller(text: str) -> str:
    for pattern, replacement in SMALLER:
        text = re.sub(pattern, replacement, text)
    return text


def _blocks(language: str) -> list[tuple[int, str]]:
    """``(line, code)`` of every fenced block of ``language``."""
    return [
        (README[: m.start()].count("\n") + 1, m.group(1))
        for m in re.finditer(rf"```{language}\n(.*?)```", README, re.S)
    ]


def _commands() -> list[tuple[int, str]]:
    """Every ``trickgym ...`` command: lines of bash blocks, and inline code spans."""
    found = []
    for line, code in _blocks("bash"):
        for i, text in enumerate(code.splitlines()):
            if "pytest" in text:  # the test command itself
                continue
            text = text.rsplit("&& ", 1)[-1].removeprefix(".venv/bin/")
            if text.startswith("trickgym "):
                found.append((line + 1 + i, text))
    for m in re.finditer(r"`(trickgym [^`]*)`", README):
        if "--help" not in m.group(1):
            found.append((README[: m.start()].count("\n") + 1, m.group(1)))
    return sorted(found)


def test_every_substitution_still_matches():
    for pattern, _ in SMALLER:
        assert re.search(pattern, README), f"{pattern!r} no longer in README.md: update SMALLER"


PYTHON = _blocks("python")


@pytest.mark.parametrize("code", [c for _, c in PYTHON], ids=[f"line{n}" for n, _ in PYTHON])
def test_python_block(code, tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    exec(compile(_smaller(code), "README.md", "exec"), {"__name__": "__readme__"})
    import matplotlib.pyplot as plt

    plt.close("all")


def test_commands(tmp_path, monkeypatch, capsys):
    commands = _commands()
    assert len(commands) >= 9, commands
    monkeypatch.chdir(tmp_path)
    (tmp_path / "experiments").mkdir()
    experiment = (ROOT / "experiments" / "solowhist_rule_1m.toml").read_text()
    experiment, n = re.subn(r"(?m)^deals = .*$", "deals = 3_000", experiment)
    assert n == 1
    (tmp_path / "experiments" / "solowhist_rule_1m.toml").write_text(experiment)
    hands = re.search(r"hands = (\[.*?\])", README).group(1).replace("'", '"')
    position = f'{{"hands": {hands}, "trumps": "NT", "leader": 0, "declarers": [0, 2]}}\n'
    (tmp_path / "positions.jsonl").write_text(position)
    for line, command in commands:
        argv = shlex.split(_smaller(command), comments=True)[1:]
        monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))  # `play` answers
        code = main(argv)
        captured = capsys.readouterr()
        assert code == 0, f"README.md line {line}: {command}\n{captured.err}"
    assert (tmp_path / "report.html").stat().st_size > 10_000
