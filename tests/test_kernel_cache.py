"""Cached kernels are deleted when their dependencies change, and only then.

Numba checks a cached kernel against its own source file only, so a caller
cached before an edit of its callee (in another file) keeps running the old
callee: ``trickgym._kernel_cache`` deletes the files of every kernel module
whose dependency stamp changed. These tests use a tiny package in a temporary
folder, with fake cache files named as numba names them, and one real numba
round trip in subprocesses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import trickgym._kernel_cache as kernel_cache
from trickgym._kernel_cache import (
    OWNED_MARK,
    STAMPS_FILE,
    cache_folder_name,
    refresh_kernel_cache,
)

PY = f"py{sys.version_info[0]}{sys.version_info[1]}"

# The tiny package: a callee, its caller, an unrelated kernel module, a pure-Python
# command line that imports the caller, and two kernel modules with the same stem.
SOURCES = {
    "__init__.py": "",
    "callee.py": """
        from numba import njit


        @njit(cache=True)
        def value():
            return 1
        """,
    "caller.py": """
        from numba import njit

        from .callee import value


        @njit(cache=True)
        def run():
            return value() + 100
        """,
    "other.py": """
        from numba import njit


        @njit(cache=True)
        def twice(x):
            return 2 * x
        """,
    "cli.py": """
        # The command line: pure Python, imported by no kernel module.
        from .caller import run


        def main():
            print(run())
        """,
    "solo.py": """
        from numba import njit


        @njit(cache=True)
        def top():
            return 3
        """,
    "rules/__init__.py": "",
    "rules/solo.py": """
        from numba import njit


        @njit(cache=True)
        def deep():
            return 4
        """,
}


def make_package(root: Path, sources=SOURCES) -> list[tuple[str, str]]:
    for name, text in sources.items():
        path = root / "tinypkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
    return [("tinypkg", str(root / "tinypkg"))]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def fake_cache(folder: Path, stem: str, qualname: str) -> list[Path]:
    """The index and data files numba writes for one kernel."""
    folder.mkdir(parents=True, exist_ok=True)
    files = [folder / f"{stem}.{qualname}-4.{PY}.nbi", folder / f"{stem}.{qualname}-4.{PY}.1.nbc"]
    for path in files:
        path.write_bytes(b"compiled")
    return files


KERNELS = [
    ("", "callee", "value"),
    ("", "caller", "run"),
    ("", "other", "twice"),
    ("", "solo", "top"),
    ("rules", "solo", "deep"),
]


def fill(pkg: Path, custom: Path | None) -> dict[tuple[str, str], list[Path]]:
    """Fake cache files for every kernel, in ``__pycache__`` or in ``custom``."""
    files = {}
    for sub, stem, qualname in KERNELS:
        source = pkg / sub if sub else pkg
        folder = custom / cache_folder_name(str(source)) if custom else source / "__pycache__"
        files[sub, stem] = fake_cache(folder, stem, qualname)
    return files


def alive(files) -> set[tuple[str, str]]:
    return {key for key, paths in files.items() if all(p.exists() for p in paths)}


@pytest.fixture(params=["pycache", "owned NUMBA_CACHE_DIR"])
def place(request, tmp_path, monkeypatch):
    """``None`` (numba's default, ``__pycache__``) or an owned ``NUMBA_CACHE_DIR``."""
    if request.param == "pycache":
        monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
        return None
    custom = tmp_path / "numba-cache"
    custom.mkdir()
    (custom / OWNED_MARK).touch()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(custom))
    return custom


def test_only_the_kernels_that_reach_an_edited_module_are_deleted(tmp_path, place):
    roots = make_package(tmp_path)
    pkg = tmp_path / "tinypkg"
    files = fill(pkg, place)
    assert refresh_kernel_cache(roots) is True  # no stamps yet: every kernel counts as stale
    assert alive(files) == set()
    files = fill(pkg, place)  # compiled from today's sources
    assert refresh_kernel_cache(roots) is False
    everything = set(files)
    assert alive(files) == everything

    # (a) A comment in a pure-Python module: every cached kernel stays.
    edit(pkg / "cli.py", "# The command line", "# The command-line tool")
    assert refresh_kernel_cache(roots) is False
    assert alive(files) == everything

    # (b) The callee changes: its cache and its importer's go; (c) the others stay.
    edit(pkg / "callee.py", "return 1", "return 2")
    assert refresh_kernel_cache(roots) is True
    assert alive(files) == everything - {("", "callee"), ("", "caller")}

    # Two modules with one stem in two folders: only the edited one's kernels go.
    files = fill(pkg, place)
    assert refresh_kernel_cache(roots) is False
    edit(pkg / "rules" / "solo.py", "return 4", "return 5")
    assert refresh_kernel_cache(roots) is True
    assert alive(files) == everything - {("rules", "solo")}

    stamps = json.loads(((place or pkg / "__pycache__") / STAMPS_FILE).read_text())["stamps"]
    assert len(stamps) >= len(KERNELS)


def test_kernels_compiled_after_the_import_are_kept(tmp_path, place):
    """The stamps of kernels not compiled yet are recorded at import, before numba writes."""
    roots = make_package(tmp_path)
    pkg = tmp_path / "tinypkg"
    assert refresh_kernel_cache(roots) is False  # nothing cached yet
    files = fill(pkg, place)  # the run compiles them
    assert refresh_kernel_cache(roots) is False
    assert alive(files) == set(files)


def test_cached_files_of_a_removed_module_are_deleted(tmp_path, place):
    roots = make_package(tmp_path)
    pkg = tmp_path / "tinypkg"
    refresh_kernel_cache(roots)
    files = fill(pkg, place)
    refresh_kernel_cache(roots)
    (pkg / "other.py").unlink()
    assert refresh_kernel_cache(roots) is True
    assert alive(files) == set(files) - {("", "other")}


def test_kernels_of_other_sources_in_an_owned_folder(tmp_path, monkeypatch):
    """The tests' own kernels (in no package folder) go when any kernel module's closure changes."""
    custom = tmp_path / "numba-cache"
    custom.mkdir()
    (custom / OWNED_MARK).touch()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(custom))
    roots = make_package(tmp_path)
    pkg = tmp_path / "tinypkg"
    refresh_kernel_cache(roots)
    theirs = {("tests", "test_x"): fake_cache(custom / "tests_0123", "test_x", "f")}
    assert refresh_kernel_cache(roots) is False
    edit(pkg / "cli.py", "# The command line", "# The command-line tool")
    assert refresh_kernel_cache(roots) is False
    assert alive(theirs) == set(theirs)
    edit(pkg / "callee.py", "return 1", "return 2")
    assert refresh_kernel_cache(roots) is True
    assert alive(theirs) == set()


def test_someone_elses_cache_folder_is_left_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    theirs = tmp_path / "theirs_0123" / f"theirs.f-1.{PY}.nbc"
    theirs.parent.mkdir()
    theirs.write_bytes(b"not ours")
    assert refresh_kernel_cache() is False
    assert theirs.exists()


HOOKED = {
    "__init__.py": "",
    # A hook module: generic kernels call its stub, games register implementations.
    "hooks.py": """
        from numba.extending import overload


        def stub(state):
            raise NotImplementedError


        def register_game(dtype, impl):
            @overload(stub)
            def _stub(state):
                if state == dtype:
                    return lambda state: impl(state)
        """,
    "generic.py": """
        from numba import njit

        from .hooks import stub


        @njit(cache=True)
        def loop(state):
            return stub(state)
        """,
    "game.py": """
        from numba import njit

        from .hooks import register_game


        @njit(cache=True)
        def apply(state):
            return state + 1


        register_game(None, apply)
        """,
    "plots.py": """
        import numpy as np


        def figure(rows):
            from .generic import loop  # runs only when a figure is drawn

            return np.array(rows)
        """,
}


def test_a_game_registered_through_a_hook_invalidates_the_generic_kernels(tmp_path, place):
    """generic.py never imports game.py, yet numba compiles game.apply into generic.loop."""
    roots = make_package(tmp_path, HOOKED)
    pkg = tmp_path / "tinypkg"
    refresh_kernel_cache(roots)

    def cached(stem, qualname):
        folder = place / cache_folder_name(str(pkg)) if place else pkg / "__pycache__"
        return fake_cache(folder, stem, qualname)

    files = {"generic": cached("generic", "loop"), "game": cached("game", "apply")}
    assert refresh_kernel_cache(roots) is False
    edit(pkg / "plots.py", "np.array(rows)", "np.asarray(rows)")
    assert refresh_kernel_cache(roots) is False
    assert alive(files) == {"generic", "game"}
    edit(pkg / "game.py", "state + 1", "state + 2")
    assert refresh_kernel_cache(roots) is True
    assert alive(files) == set()


def test_the_import_graph(tmp_path):
    """Relative, function-level and submodule imports; registrations turn edges around."""
    sources = {
        **HOOKED,
        "sub/__init__.py": "from .leaf import LEAF\n",
        "sub/leaf.py": "LEAF = 1\n",
        "sub/twig.py": "TWIG = 2\n",
        "uses.py": """
            from .sub import twig
            from .sub import LEAF


            def build():
                from . import other_at_import  # called below: runs at import

                return other_at_import.X


            def later():
                from . import plots  # never runs at import

                return plots


            VALUE = build()
            """,
        "other_at_import.py": "X = 3\n",
        "dyn.py": """
            import importlib


            def pick(name):
                return importlib.import_module(f"tinypkg.sub.{name}")


            PICKED = pick("twig")
            """,
    }
    graph = kernel_cache._Graph(make_package(tmp_path, sources), [str(tmp_path / "graph")])
    deps = graph.deps
    assert deps["tinypkg.uses"] == {"tinypkg.sub", "tinypkg.sub.twig", "tinypkg.other_at_import"}
    assert deps["tinypkg.dyn"] >= {"tinypkg.sub.leaf", "tinypkg.sub.twig"}
    assert "tinypkg.game" in deps["tinypkg.hooks"]  # game registers through hooks
    assert "tinypkg.game" in graph.closure(["tinypkg.generic"])
    assert "tinypkg.plots" not in graph.closure(graph.kernel_modules)
    assert sorted(graph.kernel_modules) == ["tinypkg.game", "tinypkg.generic", "tinypkg.hooks"]
    # The graph is kept, keyed by the sources: a second read parses nothing.
    again = kernel_cache._Graph(make_package(tmp_path, sources), [str(tmp_path / "graph")])
    assert again.deps == deps


def test_subpackages_mapped_elsewhere_keep_their_names(tmp_path):
    """Editable installs map trickgym.agents to agents/; wheels nest it in trickgym/."""
    for name in ["pkg/__init__.py", "pkg/a.py", "pkg/agents/__init__.py", "pkg/agents/b.py"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    roots = [("tinypkg", str(tmp_path / "pkg")), ("tinypkg.bots", str(tmp_path / "pkg" / "agents"))]
    names = {"tinypkg", "tinypkg.a", "tinypkg.bots", "tinypkg.bots.b"}
    assert set(kernel_cache._walk(roots)) == names


def test_trickgym_pure_python_modules_reach_no_kernel():
    """Editing the command line, the plots or the simulator's pandas code recompiles nothing."""
    roots = kernel_cache._package_roots()
    graph = kernel_cache._Graph(roots, [os.path.join(roots[0][1], "__pycache__")])
    reached = graph.closure(graph.kernel_modules)
    for module in ["cli", "analysis.plots", "analysis.report", "sim.dataset", "sim.plan"]:
        assert f"trickgym.{module}" not in reached
    # ...while a game's rules reach the generic kernels that run them through hooks.
    assert "trickgym.games.troggu.rules" in graph.closure(["trickgym.envs.vector.kernels"])
    assert "trickgym.games.troggu.rules" in graph.closure(["trickgym.agents.mc.pimc"])
    # Kernels a game's bindings name as "module:kernel" (imported when a caller compiles,
    # so not imported at all by rule runs) still count: the oracle links them.
    loops = graph.closure(["trickgym.engine.loops"])
    assert {"trickgym.agents.oracle", "trickgym.agents.solowhist"} <= loops


ROUND_TRIP = """
import importlib.util, json, sys

spec = importlib.util.spec_from_file_location("kernel_cache", sys.argv[1])
kernel_cache = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kernel_cache)
if sys.argv[3] == "refresh":
    kernel_cache.refresh_kernel_cache([("tinypkg", sys.argv[2] + "/tinypkg")])
sys.path.insert(0, sys.argv[2])
from tinypkg.caller import run
from tinypkg.other import twice

result = {"run": run(), "twice": twice(3)}
result["hits"] = {f.__name__: sum(f.stats.cache_hits.values()) for f in (run, twice)}
print(json.dumps(result))
"""


def test_a_stale_callee_is_never_run_from_the_cache(tmp_path, place):
    """One real numba round trip: the caller sees an edit of its callee in another file."""
    make_package(tmp_path)
    pkg = tmp_path / "tinypkg"
    env = dict(os.environ)
    env.pop("NUMBA_CACHE_DIR", None)
    if place is not None:
        env["NUMBA_CACHE_DIR"] = str(place)

    def run(mode="refresh"):
        out = subprocess.run(
            [sys.executable, "-c", ROUND_TRIP, kernel_cache.__file__, str(tmp_path), mode],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(out.stdout.strip().splitlines()[-1])

    def cached():
        folder = place / cache_folder_name(str(pkg)) if place else pkg / "__pycache__"
        return {p.name: p.stat().st_mtime_ns for p in folder.glob("*.nb[ic]")}

    first = run()
    assert first == {"run": 101, "twice": 6, "hits": {"run": 0, "twice": 0}}
    files = cached()
    assert {n.split(".")[0] for n in files} == {"callee", "caller", "other"}

    edit(pkg / "cli.py", "# The command line", "# The command-line tool")
    assert run() == {"run": 101, "twice": 6, "hits": {"run": 1, "twice": 1}}
    assert cached() == files  # (a) nothing deleted, nothing rewritten

    edit(pkg / "callee.py", "return 1", "return 2")
    # Numba alone serves the stale caller: what the refresh is for.
    assert run("no refresh")["run"] == 101
    # (b) the caller's files go and it sees the new callee; (c) the other kernel stays cached.
    assert run() == {"run": 102, "twice": 6, "hits": {"run": 0, "twice": 1}}
    other = {n: t for n, t in files.items() if n.startswith("other.")}
    assert {n: t for n, t in cached().items() if n.startswith("other.")} == other
