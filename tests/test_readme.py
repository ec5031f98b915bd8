"""Every Python block and every ``trickgym`` command of README.md and docs/first-hour.md runs.

Sizes are small (see ``SMALLER``).

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
from helpers.git_clean import git_repo_with_gitignore, git_status

from trickgym.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# The pages a newcomer reads first, tested alike: every block and command runs.
DOCS = {
    "README.md": README,
    "docs/first-hour.md": (ROOT / "docs" / "first-hour.md").read_text(encoding="utf-8"),
}

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
    (r"--deals 100000\b", "--deals 3000"),
    (r"--deals 10000000\b", "--deals 3000"),
    (r"--deals 10000\b", "--deals 40"),
    (r"--deals 100 --seed 7\b", "--deals 2 --seed 7"),
    (r"--deals 2000\b", "--deals 16"),
    (r"trickgym warm\b", "trickgym warm --game solowhist --agents random --no-envs"),
]


def _smaller(text: str) -> str:
    for pattern, replacement in SMALLER:
        text = re.sub(pattern, replacement, text)
    return text


def _blocks(language: str, text: str = README) -> list[tuple[int, str]]:
    """``(line, code)`` of every fenced block of ``language`` in ``text``."""
    return [
        (text[: m.start()].count("\n") + 1, m.group(1))
        for m in re.finditer(rf"```{language}\n(.*?)```", text, re.S)
    ]


def _commands(text: str = README) -> list[tuple[int, str]]:
    """Every ``trickgym ...`` command: lines of bash blocks, and inline code spans."""
    found = []
    for line, code in _blocks("bash", text):
        for i, command in enumerate(code.splitlines()):
            if "pytest" in command:  # the test command itself
                continue
            command = command.rsplit("&& ", 1)[-1].removeprefix(".venv/bin/")
            if command.startswith("trickgym "):
                found.append((line + 1 + i, command))
    for m in re.finditer(r"`(trickgym [^`]*)`", text):
        if "--help" not in m.group(1):
            found.append((text[: m.start()].count("\n") + 1, m.group(1)))
    return sorted(found)


def test_every_substitution_still_matches():
    for pattern, _ in SMALLER:
        assert any(re.search(pattern, text) for text in DOCS.values()), (
            f"{pattern!r} no longer in {', '.join(DOCS)}: update SMALLER"
        )


PYTHON = [(doc, n, code) for doc, text in DOCS.items() for n, code in _blocks("python", text)]


@pytest.mark.parametrize(
    "code", [c for _, _, c in PYTHON], ids=[f"{doc}:line{n}" for doc, n, _ in PYTHON]
)
def test_python_block(code, tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    exec(compile(_smaller(code), "README.md", "exec"), {"__name__": "__readme__"})
    import matplotlib.pyplot as plt

    plt.close("all")


def _run_commands(commands, source: str, monkeypatch, capsys) -> None:
    """Run ``(line, command)`` pairs of ``source`` through ``trickgym.cli.main``; each exits 0."""
    for line, command in commands:
        argv = shlex.split(_smaller(command), comments=True)[1:]
        monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))  # `play` answers
        code = main(argv)
        captured = capsys.readouterr()
        assert code == 0, f"{source} line {line}: {command}\n{captured.err}"


def test_first_hour_commands(tmp_path, monkeypatch, capsys):
    """The first-hour page's commands, in order in one folder (report reads the run).

    The folder is a git repository with the project's ``.gitignore``: whatever
    the commands write must be ignored, so a newcomer's clone stays clean.
    """
    commands = _commands(DOCS["docs/first-hour.md"])
    assert len(commands) >= 4, commands
    git_repo_with_gitignore(tmp_path)
    monkeypatch.chdir(tmp_path)
    _run_commands(commands, "docs/first-hour.md", monkeypatch, capsys)
    assert (tmp_path / "out" / "report.html").stat().st_size > 10_000
    assert git_status(tmp_path) == "", "the first-hour commands left files git does not ignore"


def test_first_hour_links_resolve():
    """Every relative link of the first-hour page names a file of the repository."""
    page = ROOT / "docs" / "first-hour.md"
    links = re.findall(r"\]\(([^)#:]+)\)", DOCS["docs/first-hour.md"])
    assert links
    missing = [link for link in links if not (page.parent / link).exists()]
    assert not missing, f"docs/first-hour.md links to missing files: {missing}"


def test_readme_names_existing_scripts():
    """A figure is only as good as the script named beside it: each must exist."""
    named = set(re.findall(r"(?:benchmarks|experiments)/[\w/]+\.(?:py|toml)", README))
    assert "benchmarks/bench_readme.py" in named
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert not missing, f"README.md names scripts that do not exist: {missing}"


def test_readme_compile_times_are_the_notice_figures():
    """README and the compile notice quote the same measured ranges (compiling.py)."""
    from trickgym.compiling import COLD_COMPILE_SECONDS

    names = {"solowhist": "Solo Whist", "troggu": "Troggu", "phat": "Phat", "pinochle": "Pinochle"}
    text = " ".join(README.split())
    for game, (low, high) in COLD_COMPILE_SECONDS.items():
        assert f"{low}-{high} s for {names[game]}" in text, (game, low, high)


def _write_stand_in_policy(path: Path) -> None:
    """Random numpy weights of a Solo Whist policy, in the training examples' format."""
    import numpy as np

    import trickgym
    from trickgym.games.obs_features import feature_plan

    game = trickgym.game("solowhist")
    rng = np.random.default_rng(0)
    n_in, n_out = feature_plan(game).size, game.n_actions
    path.parent.mkdir(parents=True)
    np.savez(path, w0=rng.normal(0, 0.1, (n_in, 16)), b0=np.zeros(16),
             w1=rng.normal(0, 0.1, (16, n_out)), b1=np.zeros(n_out))  # fmt: skip


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
    _write_stand_in_policy(tmp_path / "out" / "policy.npz")  # what the training examples write
    _run_commands(commands, "README.md", monkeypatch, capsys)
    assert (tmp_path / "out" / "report.html").stat().st_size > 10_000
