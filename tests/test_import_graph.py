"""No import circle in the package, at module level or inside functions.

The layers themselves are import-linter's contract (``[tool.importlinter]`` in
pyproject.toml, run by ``.ci/lint-imports``); import-linter has no contract for
circles between modules, so this reads every module's imports with :mod:`ast`
(no import, nothing compiled) and looks for one.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def package_folders() -> dict[str, Path]:
    """Each package of pyproject's package-dir mapping and its folder."""
    mapping = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {}
    for package, folder in mapping["package-dir"].items():
        if package == "":
            folders["trickgym"] = ROOT / folder / "trickgym"
        else:
            folders[package] = ROOT / folder
    return folders


def modules() -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    folders = package_folders()
    found = {}
    for package, folder in folders.items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join([package, *parts])
            # a mapped subpackage is found in its own folder, not inside src/trickgym
            if not any(
                name.startswith(other + ".") or name == other
                for other in folders
                if other != package and other.startswith(package + ".")
            ):
                found[name] = path
    return found


def _owner(name: str, known: dict) -> str | None:
    """The module ``name`` is (or is in), or None outside the package."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def import_edges(known: dict[str, Path]) -> dict[str, set[str]]:
    """``module -> modules it imports``, wherever the import statement stands."""
    edges: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package
                    for _ in range(node.level - 1):
                        anchor = anchor.rpartition(".")[0]
                    base = f"{anchor}.{base}" if base else anchor
                # ``from x import y`` imports module x.y when there is one, else x
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
                ]
            else:
                continue
            for target in targets:
                owner = _owner(target, known)
                if owner is not None and owner != name:
                    edges[name].add(owner)
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_graph_sees_every_folder_of_the_package():
    known = modules()
    for package in ("trickgym.engine.loops", "trickgym.agents.registry", "trickgym.envs.base"):
        assert package in known
    edges = import_edges(known)
    assert "trickgym.engine.loops" in edges["trickgym.agents.mc.pimc"] | edges["trickgym.envs.base"]


def test_circles_are_found():
    """The search finds a circle through a function-level import, and only real ones."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(edges) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle():
    found = circles(import_edges(modules()))
    assert found == [], "import circles (module or function level): " + "; ".join(
        " <-> ".join(c) for c in found
    )
