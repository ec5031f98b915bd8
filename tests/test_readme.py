"""Every Python block and every ``trickgym`` command of README.md and the docs pages runs.

The pages are README.md and every ``docs/**/*.md`` (the documentation site);
sizes are small (see ``SMALLER``).

Each Python block runs alone in a fresh namespace (so a block that forgets
an import fails here, not in a newcomer's hands); the commands of a page
run in page order in one empty folder of their own (so ``--out runs/...``
must create its parents, ``--resume`` and ``report`` find the run made
before them on the same page). Sizes are cut by the
substitutions below, each of which must still match the README. Not run
here: the set-up lines themselves (``pip install``: CI runs them), and the
``python benchmarks/...`` and ``python experiments/train_solowhist.py``
scripts (benchmarks are run by hand; the training example has its own test).
"""

from __future__ import annotations

import importlib
import importlib.util
import io
import re
import shlex
from pathlib import Path

import pytest
from helpers.git_clean import git_repo_with_gitignore, git_status

from trickgym.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# Every page a reader may copy from, tested alike: every block and command runs.
DOCS = {"README.md": README} | {
    path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
    for path in sorted((ROOT / "docs").rglob("*.md"))
}
FIRST_HOUR = "docs/first-hour.md"

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


# Commands already run in this session, with no file to read or write: a page that repeats
# one (README's `advise` is on three pages, `warm` on five) tests nothing new by running it
# again. Those naming a file (``out/...``, ``positions.jsonl``) run on every page, as the
# page's later commands read what they wrote.
_RAN: set[tuple[str, ...]] = set()
FILE = re.compile(r"\.(jsonl|json|toml|npz|html|csv|parquet)$")


def _run_commands(commands, source: str, monkeypatch, capsys) -> None:
    """Run ``(line, command)`` pairs of ``source`` through ``trickgym.cli.main``; each exits 0."""
    for line, command in commands:
        argv = shlex.split(_smaller(command), comments=True)[1:]
        if not any("/" in arg or FILE.search(arg) for arg in argv):
            if tuple(argv) in _RAN:
                continue
            _RAN.add(tuple(argv))
        monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))  # `play` answers
        code = main(argv)
        captured = capsys.readouterr()
        assert code == 0, f"{source} line {line}: {command}\n{captured.err}"


def test_first_hour_commands(tmp_path, monkeypatch, capsys):
    """The first-hour page's commands, in order in one folder (report reads the run).

    The folder is a git repository with the project's ``.gitignore``: whatever
    the commands write must be ignored, so a newcomer's clone stays clean.
    """
    commands = _commands(DOCS[FIRST_HOUR])
    assert len(commands) >= 4, commands
    git_repo_with_gitignore(tmp_path)
    monkeypatch.chdir(tmp_path)
    _run_commands(commands, "docs/first-hour.md", monkeypatch, capsys)
    assert (tmp_path / "out" / "report.html").stat().st_size > 10_000
    assert git_status(tmp_path) == "", "the first-hour commands left files git does not ignore"


def test_first_hour_links_resolve():
    """Every relative link of the first-hour page names a file of the repository.

    The API reference pages (``reference/``) are generated when the site is built,
    whose strict build checks those links (``mkdocs.yml``).
    """
    page = ROOT / "docs" / "first-hour.md"
    links = re.findall(r"\]\(([^)#:]+)\)", DOCS[FIRST_HOUR])
    assert links
    missing = [
        link
        for link in links
        if not link.startswith("reference/") and not (page.parent / link).exists()
    ]
    assert not missing, f"docs/first-hour.md links to missing files: {missing}"


def test_readme_links_resolve():
    """README's links to the docs pages (read on GitHub; mkdocs checks the site's own)."""
    links = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", README)
    assert "docs/first-hour.md" in links and "docs/benchmarks/index.md" in links
    missing = [link for link in links if not (ROOT / link).exists()]
    assert not missing, f"README.md links to missing files: {missing}"


def test_readme_is_short_and_opens_with_the_two_commands():
    """At most 200 lines; its first bash block is command 1 (the bid success table) and
    command 2 (the tests), which benchmarks/bench_readme.py times; it says how to build
    the docs site, as .ci/run does."""
    assert README.count("\n") <= 200
    block = _blocks("bash")[0][1]
    commands = [line for line in block.splitlines() if line and not line.startswith("#")]
    setup = "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && "
    assert commands == [
        setup + ".venv/bin/trickgym simulate --game solowhist --deals 1000000 --agents rule"
        " --seed 1",
        setup + ".venv/bin/ruff check . && .venv/bin/python -m pytest -q -n 2 --dist loadfile",
    ]
    assert "mkdocs build --strict" in README and "site/index.html" in README
    assert "mkdocs build --strict" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_names_existing_scripts():
    """A figure is only as good as the script named beside it: each must exist."""
    named = {
        (doc, p)
        for doc, text in DOCS.items()
        for p in re.findall(r"(?:benchmarks|experiments)/[\w/]+\.(?:py|toml)", text)
    }
    assert ("README.md", "benchmarks/bench_readme.py") in named
    missing = sorted(f"{doc}: {p}" for doc, p in named if not (ROOT / p).exists())
    assert not missing, f"pages name scripts that do not exist: {missing}"


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


# Pages whose commands run here, each in a folder of its own (the first-hour page's
# run in a git repository, above).
PAGES = [doc for doc, text in DOCS.items() if doc != FIRST_HOUR and _commands(text)]


def test_every_page_command_is_found():
    """README shows a few lines of each use; the guides hold the rest."""
    assert len(_commands(README)) >= 9, _commands(README)
    assert sum(len(_commands(DOCS[doc])) for doc in PAGES) >= 40


@pytest.mark.parametrize("doc", PAGES)
def test_commands(doc, tmp_path, monkeypatch, capsys):
    commands = _commands(DOCS[doc])
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
    _run_commands(commands, doc, monkeypatch, capsys)
    if "trickgym report out/" in DOCS[doc]:
        assert (tmp_path / "out" / "report.html").stat().st_size > 10_000


def _resolves(name: str) -> bool:
    """Whether ``a.b.c`` is a module, or an attribute reached from the longest module prefix."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        try:
            target = importlib.import_module(module)
        except ImportError:
            try:
                found = importlib.util.find_spec(module) is not None
            except ImportError:
                found = False
            if found:
                return True  # it exists, but needs an extra not installed here (sb3: train)
            continue
        for attr in parts[cut:]:
            if not hasattr(target, attr):
                return False
            target = getattr(target, attr)
        return True
    return False


def test_every_trickgym_name_in_the_pages_exists():
    """Each ``trickgym.x.y`` a page names is a module or an attribute of one, so a module
    renamed or moved fails here until the pages follow (the API reference follows alone)."""
    named = {
        (doc, m.group(0).rstrip("."))
        for doc, text in DOCS.items()
        for m in re.finditer(r"\btrickgym(?:\.\w+)+\.?(?![\w<])", text)  # not sample_<game>
    }
    stale = sorted(f"{doc}: {name}" for doc, name in named if not _resolves(name))
    assert not stale, "pages name what does not exist:\n" + "\n".join(stale)
