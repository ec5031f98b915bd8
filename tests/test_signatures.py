"""No public function or method takes more than ten parameters (issue 47: entry points you
can hold). Read from the source alone (AST): nothing is imported or compiled."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("src/trickgym", "agents", "envs")
MAX_PARAMETERS = 10


def _count(node: ast.FunctionDef | ast.AsyncFunctionDef, in_class: bool) -> int:
    """Parameters a caller can pass: positional, keyword-only, ``*args``, ``**kwargs``;
    a method's ``self`` / ``cls`` left out."""
    a = node.args
    n = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
    n += (a.vararg is not None) + (a.kwarg is not None)
    positional = a.posonlyargs + a.args
    if in_class and positional and positional[0].arg in ("self", "cls"):
        n -= 1
    return n


def _public_functions(tree: ast.Module):
    """``(qualified name, node, in_class)`` of the module's public functions and methods
    (``__init__`` counts: it is how a public class is called)."""
    stack = [(tree, "", False)]
    while stack:
        parent, prefix, public_class = stack.pop()
        for node in ast.iter_child_nodes(parent):
            if isinstance(node, ast.ClassDef):
                public = not node.name.startswith("_") and (public_class or parent is tree)
                stack.append((node, f"{prefix}{node.name}.", public))
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                in_class = isinstance(parent, ast.ClassDef)
                if in_class and not public_class:
                    continue
                if node.name.startswith("_") and node.name != "__init__":
                    continue
                yield f"{prefix}{node.name}", node, in_class


def _modules():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.name.startswith("_") and path.name != "__init__.py":
                continue  # a private module: nothing in it is public
            yield path


def too_many_parameters() -> list[str]:
    """``path:line name (n parameters)`` of every public function past the limit."""
    found = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for name, node, in_class in _public_functions(tree):
            n = _count(node, in_class)
            if n > MAX_PARAMETERS:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name} ({n} parameters)")
    return found


def test_no_public_function_takes_more_than_ten_parameters():
    assert too_many_parameters() == [], (
        "group the arguments into a record (a dataclass, or a tuple for a numba kernel)"
    )


def test_the_count_sees_what_it_must(tmp_path):
    """The counter itself: methods without self, *args/**kwargs, private names skipped."""
    source = (
        "def f(a, b, /, c, *d, e, **f): pass\n"
        "def _g(a, b, c, d, e, f, g, h, i, j, k): pass\n"
        "class C:\n"
        "    def __init__(self, a, *, b): pass\n"
        "    def m(self, a, b, c, d, e, f, g, h, i, j, k): pass\n"
        "    def _p(self, a, b, c, d, e, f, g, h, i, j, k): pass\n"
        "class _D:\n"
        "    def m(self, a, b, c, d, e, f, g, h, i, j, k): pass\n"
    )
    counts = {
        name: _count(node, in_class)
        for name, node, in_class in _public_functions(ast.parse(source))
    }
    assert counts == {"f": 6, "C.__init__": 2, "C.m": 11}
