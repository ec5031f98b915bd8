"""Keep numba's on-disk kernel cache in step with the package's sources, module by module.

Numba checks a cached kernel only against its own source file, not against
the kernels it calls from other files: after an edit (or an upgrade) a
cached caller keeps running the old callee, which numba compiled into it.
So at ``import trickgym``, before any kernel is loaded, this module deletes
the cached kernels whose *dependencies* changed, and only those:

- The import graph of the package (``src/trickgym``, ``agents/``, ``envs/``)
  is read with :mod:`ast`: ``import x``, ``from x import y`` (module ``x.y``
  when there is one; ``x``'s ``__init__`` when it binds ``y`` or ``y`` is
  no module), relative imports, and ``importlib.import_module`` with a
  constant or f-string name (an f-string matches every module its pattern
  could name). Module-level imports count, except under ``if __name__ ==
  "__main__":`` and ``if TYPE_CHECKING:``. An import inside a function
  counts when the function may run while modules are imported or kernels
  compiled: a function called at the top level of any module or handed to
  such a call (decorators included), a function such a function names, a
  class's dunder methods when the class is, and the functions numba runs
  while compiling (``@overload``/``@intrinsic`` implementations, functions
  that define overloads). Names are matched across the package, so a
  clash only adds edges. An import inside a function that only runs later
  (``cli.main``, a plot, ``simulate``) cannot change compiled code: kernels
  read module globals, which are set at import, and call only compiled code.
- Overloads turn edges around. A generic kernel calls a stub of a hook
  module (``engine/episode_hooks.py``, ``agents/mc/hooks.py``,
  ``solvers/points_hooks.py``) and numba compiles into it the
  implementation a game module registered by calling the hook's
  ``register_*`` function: so a module whose functions apply
  ``numba.extending.overload`` when called depends on the modules that
  import it and call them, and the module whose function an ``@overload(f)``
  targets depends on the module holding that decorator.
- A module's *dependency stamp* is a hash of the sources of the modules it
  reaches through those edges, itself included. Its cached files (the index
  ``<stem>.<qualname>-<line>.py<ver>.nbi`` and its ``.nbc`` data) are
  deleted when the stamp differs from the one recorded at the previous
  import: editing ``cli.py``, the plots or the simulator's pandas code
  recompiles nothing; editing a game's rules recompiles them and every
  kernel module that reaches them. Data files read at import (fitted
  parameters) are not sources: clear the cache after changing one that a
  kernel bakes in.

Cache places. By default numba writes beside the sources, in each folder's
``__pycache__``. With ``NUMBA_CACHE_DIR`` set it writes one folder per source
folder, named ``<folder name>_<sha1 of the folder's absolute path>`` (numba's
``_CacheLocator.get_suitable_cache_subpath``), so modules with the same stem
in different folders (``agents/solowhist.py``, ``agents/rule/solowhist.py``)
never share a folder; such a folder is mapped back to its source folder by
that name, never by a module's stem alone. Only a ``NUMBA_CACHE_DIR`` holding
the file ``trickgym-owned-cache`` (the test suite's, made by its conftest) is
managed; kernels there whose source folder is not the package's (the tests'
own) are deleted when a module that any package kernel module reaches
changed. Another ``NUMBA_CACHE_DIR`` is left alone, and so is numba's
user-wide folder (where it caches for a read-only install): clear them
after upgrades.

Each place keeps its stamps in one JSON file, replaced atomically. The
stamps of every module that may hold kernels are recorded at each import,
so a kernel compiled later is kept while its dependencies stay as they
were. The import graph is kept in ``__pycache__`` too, keyed by the content
hash of every module: a warm check reads and hashes the sources (about
3 ms for the package) and parses none; after an edit, the edited files are
parsed and the graph resolved again (tens of ms). Read-only installs and concurrent imports
are tolerated: a file another process deleted first, or that cannot be
deleted or written, is skipped.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import os
import re
from fnmatch import fnmatchcase

__all__ = ["OWNED_MARK", "STAMPS_FILE", "cache_folder_name", "refresh_kernel_cache"]

#: A ``NUMBA_CACHE_DIR`` holding this file is trickgym's own, managed like ``__pycache__``.
OWNED_MARK = "trickgym-owned-cache"
#: The dependency stamps of one cache place: ``NUMBA_CACHE_DIR`` or the package's ``__pycache__``.
STAMPS_FILE = "trickgym-kernel-stamps.json"
_GRAPH_FILE = "trickgym-import-graph.json"  # the resolved edges (read at every import)
_SCANS_FILE = "trickgym-import-scans.json"  # each module's parse (read when a source changed)
_FORMAT = 1
_UNKNOWN = "*"  # stamp key of kernels cached from sources outside the package

# Names whose use makes a module hold numba-compiled code.
_NUMBA_NAMES = frozenset(
    {
        "njit",
        "jit",
        "intrinsic",
        "overload",
        "overload_method",
        "overload_attribute",
        "overload_classmethod",
        "register_jitable",
        "generated_jit",
        "vectorize",
        "guvectorize",
        "cfunc",
        "stencil",
    }
)
_OVERLOAD_NAMES = frozenset(
    {"overload", "overload_method", "overload_attribute", "overload_classmethod"}
)
# Methods Python runs when a class is defined (or subclassed), not when it is instantiated.
_DEFINITION_TIME_DUNDERS = frozenset(
    {"__init_subclass__", "__set_name__", "__class_getitem__", "__prepare__", "__mro_entries__"}
)
# Names of decorators whose functions numba runs (in Python) while it compiles a kernel.
_COMPILE_TIME_NAMES = _OVERLOAD_NAMES | {
    "intrinsic",
    "generated_jit",
    "lower_builtin",
    "type_callable",
    "typeof_impl",
    "infer_global",
    "lower_cast",
}


def _package_roots() -> list[tuple[str, str]]:
    """``(package name, folder)`` of trickgym and of its subpackages mapped elsewhere."""
    roots = [("trickgym", os.path.dirname(os.path.abspath(__file__)))]
    for sub in ("trickgym.agents", "trickgym.envs"):
        spec = importlib.util.find_spec(sub)
        if spec is not None and spec.submodule_search_locations:
            roots.extend((sub, os.path.abspath(p)) for p in spec.submodule_search_locations)
    return roots


def _walk(roots: list[tuple[str, str]]) -> dict[str, str]:
    """Module name -> source path, for every ``.py`` file under the roots."""
    claimed = {folder for _, folder in roots[1:]}
    modules: dict[str, str] = {}
    for name, folder in roots:
        stack = [(name, folder)]
        while stack:
            package, path = stack.pop()
            try:
                entries = list(os.scandir(path))
            except OSError:
                continue
            for entry in entries:
                if entry.name.endswith(".py") and entry.is_file():
                    stem = entry.name[:-3]
                    modules[package if stem == "__init__" else f"{package}.{stem}"] = entry.path
                elif (
                    entry.name.isidentifier()
                    and entry.name != "__pycache__"
                    and entry.is_dir()
                    and entry.path not in claimed  # walked under its own name
                ):
                    stack.append((f"{package}.{entry.name}", entry.path))
    return modules


def cache_folder_name(folder: str) -> str:
    """The folder numba caches a source folder's kernels in, under ``NUMBA_CACHE_DIR``."""
    path = os.path.abspath(folder)
    return f"{os.path.basename(path)}_{hashlib.sha1(path.encode()).hexdigest()}"


# -- reading one module ----------------------------------------------------------------------


def _scan(source: bytes, name: str, is_package: bool) -> dict:
    """What one module imports, scope by scope, and how it uses numba.

    ``scopes`` maps ``""`` (the module's top level, class bodies included) and
    each function name to the names it references (``refs``), the modules it
    imports whole (``imports``: names, or ``fnmatch`` patterns) and those it
    imports names from (``from``). A class's dunder methods are filed under
    the class's name (creating an instance runs them). ``calls`` lists the
    names the top level calls or hands to a call (decorators included);
    ``compile`` the functions numba runs while compiling; ``binds`` the names a package's
    ``__init__`` binds; ``targets`` the modules whose functions an
    ``@overload`` may target; ``registrars`` the functions that apply
    overloads when called (and those of the module that call them);
    ``kernels`` whether it uses numba's compilers.
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        tree = ast.Module(body=[], type_ignores=[])
    scanner = _Scanner(name if is_package else name.rpartition(".")[0])
    scanner.visit(tree)
    targets: set[str] = set()
    for arg in scanner.overload_args:
        attrs = []
        while isinstance(arg, ast.Attribute):
            attrs.append(arg.attr)
            arg = arg.value
        if isinstance(arg, ast.Name):
            for module in scanner.bindings.get(arg.id, ()):
                targets.add(module)
                for attr in reversed(attrs):
                    module = f"{module}.{attr}"
                    targets.add(module)
    registrars = set(scanner.registrars)
    grown = True
    while grown:  # the module's functions that call a registrar register too
        callers = {
            scope
            for scope, record in scanner.scopes.items()
            if scope and scope not in registrars and record["refs"] & registrars
        }
        registrars |= callers
        grown = bool(callers)
    binds: set[str] = set()
    if is_package:
        for statement in tree.body:
            binds.update(_bound_names(statement))
    return {
        "scopes": {
            scope: {
                "refs": sorted(record["refs"]),
                "imports": sorted(record["imports"]),
                "from": {m: sorted(n) for m, n in sorted(record["from"].items())},
            }
            for scope, record in scanner.scopes.items()
        },
        "calls": sorted(scanner.calls),
        "compile": sorted(scanner.compile),
        "binds": sorted(binds),
        "targets": sorted(targets),
        "registrars": sorted(registrars),
        "kernels": scanner.kernels,
    }


class _Scanner(ast.NodeVisitor):
    """Collects, scope by scope, what :func:`_scan` returns."""

    def __init__(self, package: str):
        self.package = package
        self.scopes: dict[str, dict] = {}
        self.stack = [self._scope("")]
        self.scope_names = [""]
        self.classes: list[str | None] = [None]  # the class whose body is being read
        self.bindings: dict[str, set[str]] = {}  # local name -> modules it may stand for
        self.overload_args: list[ast.expr] = []
        self.compile: set[str] = set()
        self.calls: set[str] = set()  # called at import, or handed to such a call
        self.registrars: set[str] = set()  # functions applying overloads when called
        self.kernels = False

    def _scope(self, scope: str) -> dict:
        return self.scopes.setdefault(scope, _record())

    def visit_If(self, node):
        test = node.test
        if (  # if __name__ == "__main__": / if TYPE_CHECKING: never run at import
            len(self.stack) == 1
            and (
                (
                    isinstance(test, ast.Compare)
                    and isinstance(test.left, ast.Name)
                    and test.left.id == "__name__"
                )
                or _word(test) == "TYPE_CHECKING"
            )
        ):
            self._enter(None, self.classes[-1], node.body)
            for statement in node.orelse:
                self.visit(statement)
        else:
            self.generic_visit(node)

    def absolute(self, module: str | None, level: int) -> str:
        if not level:
            return module or ""
        base = self.package.split(".")
        base = base[: len(base) - (level - 1)]
        return ".".join([*base, module] if module else base)

    def _decorate(self, node) -> None:
        """Visit the decorators, which run where the function or class is defined."""
        for decorator in node.decorator_list:
            if len(self.stack) == 1 and isinstance(decorator, ast.Name | ast.Attribute):
                self.calls.add(decorator.id if isinstance(decorator, ast.Name) else decorator.attr)
            self.visit(decorator)

    def visit_FunctionDef(self, node):
        self._decorate(node)
        for child in [*node.args.defaults, *node.args.kw_defaults]:
            if child is not None:
                self.visit(child)  # evaluated where the function is defined
        owner = self.classes[-1]
        if owner is None or not (node.name.startswith("__") and node.name.endswith("__")):
            scope = node.name
        elif node.name in _DEFINITION_TIME_DUNDERS:
            scope = self.scope_names[-1]  # runs where the class is defined
        else:
            scope = owner  # runs when the class is instantiated (or used)
        words = {
            n.id if isinstance(n, ast.Name) else n.attr
            for part in [*node.decorator_list, *node.body]
            for n in ast.walk(part)
            if isinstance(n, ast.Name | ast.Attribute)
        }
        if words & _COMPILE_TIME_NAMES:
            if scope is not None:
                self.compile.add(scope)
        elif {_word(d) for d in node.decorator_list} & _NUMBA_NAMES:
            scope = None  # compiled, never run as Python: it imports nothing, calls no Python
        self._enter(scope, None, node.body)

    visit_AsyncFunctionDef = visit_FunctionDef

    def _enter(self, scope: str | None, owner: str | None, body: list) -> None:
        self.stack.append(self._scope(scope) if scope is not None else _record())
        self.scope_names.append(scope)
        self.classes.append(owner)
        for statement in body:
            self.visit(statement)
        self.classes.pop()
        self.scope_names.pop()
        self.stack.pop()

    def visit_ClassDef(self, node):
        self._decorate(node)
        for child in node.keywords:
            self.visit(child)
        # A base's methods run when this class is instantiated, not when it is defined.
        self._enter(node.name, None, node.bases)
        # The body runs where the class is defined; its dunder methods go to the class.
        self.classes.append(node.name)
        for statement in node.body:
            self.visit(statement)
        self.classes.pop()

    def visit_Import(self, node):
        record = self.stack[-1]
        for alias in node.names:
            parts = alias.name.split(".")
            if alias.asname:
                record["imports"].add(alias.name)
                self.bindings.setdefault(alias.asname, set()).add(alias.name)
            else:  # binds the top name: a kernel may reach any package on the way
                record["imports"].update(".".join(parts[: i + 1]) for i in range(len(parts)))
                self.bindings.setdefault(parts[0], set()).add(parts[0])

    def visit_ImportFrom(self, node):
        module = self.absolute(node.module, node.level)
        names = self.stack[-1]["from"].setdefault(module, set())
        for alias in node.names:
            names.add(alias.name)
            if alias.name != "*":
                self.bindings.setdefault(alias.asname or alias.name, set()).update(
                    (module, f"{module}.{alias.name}")
                )

    def _word(self, word: str):
        self.stack[-1]["refs"].add(word)
        if word in _NUMBA_NAMES:
            self.kernels = True

    def visit_Name(self, node):
        self._word(node.id)

    def visit_Constant(self, node):
        # "package.module:kernel": a kernel the protocol imports when a caller compiles
        if isinstance(node.value, str) and _KERNEL_REF.fullmatch(node.value):
            self.stack[-1]["imports"].add(node.value.partition(":")[0])

    def visit_Attribute(self, node):
        self._word(node.attr)
        self.generic_visit(node)

    def visit_Call(self, node):
        func = node.func
        word = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if word in _OVERLOAD_NAMES and node.args:
            self.overload_args.append(node.args[0])
            if len(self.scope_names) > 1 and self.scope_names[1] is not None:
                self.registrars.add(self.scope_names[1])
        elif word == "import_module" and node.args:
            pattern = _pattern(node.args[0])
            if pattern is not None:
                if len(node.args) > 1 and pattern.startswith("."):  # relative to a package
                    level = len(pattern) - len(pattern.lstrip("."))
                    pattern = self.absolute(pattern.lstrip("."), level)
                self.stack[-1]["imports"].add(pattern)
        if len(self.stack) == 1:  # runs at import, and so may what it is handed
            for arg in [func, *node.args, *(k.value for k in node.keywords)]:
                if isinstance(arg, ast.Starred):
                    arg = arg.value
                if isinstance(arg, ast.Name | ast.Attribute):
                    self.calls.add(arg.id if isinstance(arg, ast.Name) else arg.attr)
        self.generic_visit(node)


#: A kernel named as ``"module:name"`` for :func:`trickgym.protocol.register`.
_KERNEL_REF = re.compile(r"trickgym(\.\w+)+:\w+")


def _record() -> dict:
    return {"refs": set(), "imports": set(), "from": {}}


def _word(node: ast.expr) -> str:
    """The name a decorator or callee ends with: ``njit`` for ``numba.njit(cache=True)``."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def _bound_names(statement: ast.stmt) -> set[str]:
    """The names a top-level statement binds (conservatively: any name it stores)."""
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {statement.name}
    names = set()
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).partition(".")[0] for a in node.names)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
    return names


def _pattern(node: ast.expr) -> str | None:
    """A constant module name, or an f-string's name with ``*`` for each field."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        pattern = "".join(v.value if isinstance(v, ast.Constant) else "*" for v in node.values)
        while "**" in pattern:
            pattern = pattern.replace("**", "*")
        return pattern
    return None


# -- the graph -------------------------------------------------------------------------------


def _read_json(path: str) -> dict:
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("format") == _FORMAT else {}


def _write_json(path: str, data: dict) -> bool:
    """Replace ``path`` atomically (temporary file, then rename); False where read-only."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "w") as f:
            json.dump(data, f, sort_keys=True, separators=(",", ":"))
        os.replace(tmp, path)
        return True
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False


def _resolve(scans: dict[str, dict]) -> dict[str, set[str]]:
    """Each module's direct dependencies: the modules whose sources its compiled code may use."""
    known = set(scans)
    # Functions that may run at import or compile time, matched by name across the package.
    by_name: dict[str, list[dict]] = {}
    live: set[str] = set()
    todo: list[str] = []
    for scan in scans.values():
        for scope, record in scan["scopes"].items():
            if scope:
                by_name.setdefault(scope, []).append(record)
        todo.extend(scan["calls"])
        todo.extend(scan["compile"])
    while todo:
        word = todo.pop()
        if word not in live:
            live.add(word)
            for record in by_name.get(word, ()):
                todo.extend(record["refs"])

    deps: dict[str, set[str]] = {name: set() for name in known}
    for name, scan in scans.items():
        mine = deps[name]
        for scope, record in scan["scopes"].items():
            if scope and scope not in live:
                continue
            for imported in record["imports"]:
                if "*" in imported:
                    mine.update(m for m in known if fnmatchcase(m, imported))
                elif imported in known:
                    mine.add(imported)
            for module, names in record["from"].items():
                for imported in names:
                    submodule = f"{module}.{imported}"
                    if submodule in known:
                        mine.add(submodule)
                    # ``from pkg import sub`` binds the submodule, not a name of pkg's
                    # __init__, unless the __init__ binds that name itself.
                    if module in known and (
                        submodule not in known or imported in scans[module]["binds"]
                    ):
                        mine.add(module)
        for target in scan["targets"]:
            if target in known:  # the overload is compiled into the target's callers
                deps[target].add(name)
    # A module whose functions apply overloads when called (a hook module's
    # register_game) depends on the modules that call them: numba compiles the
    # implementations they register into every kernel calling the hook's stubs.
    words = {
        name: {w for record in scan["scopes"].values() for w in record["refs"]}
        | {w for record in scan["scopes"].values() for n in record["from"].values() for w in n}
        for name, scan in scans.items()
    }
    for name, scan in scans.items():
        registrars = set(scan["registrars"])
        if registrars:
            near = {m for m, d in deps.items() if name in d}  # its importers...
            near |= {m for m, d in deps.items() if d & near}  # ...and theirs (re-exports)
            deps[name].update(m for m in near if words[m] & registrars)
    for name in deps:
        deps[name].discard(name)
    return deps


class _Graph:
    """The package's modules, their content digests and their dependency edges."""

    def __init__(self, roots: list[tuple[str, str]], folders: list[str]):
        """Read the graph kept in the first of ``folders`` that has it, or make it."""
        self.paths = _walk(roots)
        self.digests: dict[str, str] = {}
        for name, path in self.paths.items():
            try:
                with open(path, "rb") as f:
                    self.digests[name] = hashlib.sha1(f.read()).hexdigest()
            except OSError:
                self.digests[name] = ""
        with open(__file__, "rb") as f:  # a graph made by another version of this file is stale
            scanner = hashlib.sha1(f.read()).hexdigest()
        key = self.stamp(self.digests) + scanner
        for folder in folders:
            graph = _read_json(os.path.join(folder, _GRAPH_FILE))
            if graph.get("key") == key:
                self.deps = {name: set(d) for name, d in graph["deps"].items()}
                self.kernel_modules = graph["kernels"]
                return
        stored = {}
        for folder in folders:
            scans = _read_json(os.path.join(folder, _SCANS_FILE))
            if scans.get("scanner") == scanner:
                stored = scans["modules"]
                break
        scans = {}
        for name, digest in self.digests.items():
            entry = stored.get(name)
            if entry is None or entry.get("digest") != digest:
                try:
                    with open(self.paths[name], "rb") as f:
                        source = f.read()
                except OSError:
                    source = b""
                is_package = os.path.basename(self.paths[name]) == "__init__.py"
                entry = {"digest": digest, **_scan(source, name, is_package)}
            scans[name] = entry
        self.deps = _resolve(scans)
        self.kernel_modules = sorted(n for n, s in scans.items() if s["kernels"])
        graph = {
            "format": _FORMAT,
            "key": key,
            "deps": {name: sorted(d) for name, d in self.deps.items()},
            "kernels": self.kernel_modules,
        }
        for folder in folders:  # the first that can be written
            if _write_json(os.path.join(folder, _GRAPH_FILE), graph):
                _write_json(
                    os.path.join(folder, _SCANS_FILE),
                    {"format": _FORMAT, "scanner": scanner, "modules": scans},
                )
                break

    def closure(self, names) -> set[str]:
        """The modules reachable from ``names``, themselves included."""
        seen = set(names)
        todo = list(seen)
        while todo:
            for dep in self.deps.get(todo.pop(), ()):
                if dep not in seen:
                    seen.add(dep)
                    todo.append(dep)
        return seen

    def stamp(self, names) -> str:
        """A hash of the sources of ``names``."""
        digest = hashlib.sha1()
        for name in sorted(names):
            digest.update(f"{name}:{self.digests.get(name, '')}\n".encode())
        return digest.hexdigest()


# -- the cache places ------------------------------------------------------------------------


def _cached_files(folder: str) -> dict[str, list[str]]:
    """Numba's files in ``folder``, grouped by the stem of their source module."""
    groups: dict[str, list[str]] = {}
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return groups
    for entry in entries:
        if entry.name.endswith((".nbi", ".nbc")):
            # <stem>.<qualname>-<line>.py<ver>.nbi; a library cache adds "<prefix>-" before it
            stem = entry.name.partition(".")[0].rpartition("-")[2]
            groups.setdefault(stem, []).append(entry.path)
    return groups


def _groups(graph: _Graph, custom: str | None):
    """``(stamp key, module or None, files)`` for every group of cached files in the place.

    The module is ``None`` for kernels whose source is not in the package
    (keyed by ``"*"``) and for files whose source module is gone (key ``""``).
    """
    folders: dict[str, str] = {}  # cache folder -> source folder
    for path in graph.paths.values():
        source = os.path.dirname(path)
        if custom:
            folders[os.path.join(custom, cache_folder_name(source))] = source
            real = os.path.realpath(source)
            folders.setdefault(os.path.join(custom, cache_folder_name(real)), source)
        else:
            folders[os.path.join(source, "__pycache__")] = source
    by_path = {path: name for name, path in graph.paths.items()}
    found = []
    if custom:
        seen = set()
        for here, subdirs, _ in os.walk(custom):
            for sub in subdirs:
                folder = os.path.join(here, sub)
                if folder not in folders:  # not one of ours: the tests' own kernels, say
                    seen.add(folder)
        for folder in sorted(seen):
            for files in _cached_files(folder).values():
                found.append((_UNKNOWN, None, files))
    for folder, source in folders.items():
        for stem, files in _cached_files(folder).items():
            name = by_path.get(os.path.join(source, f"{stem}.py"))
            found.append((_key(graph, name, custom) if name else "", name, files))
    return found


def _key(graph: _Graph, name: str, custom: str | None) -> str:
    """A module's stamp key: its name in ``__pycache__``; in a cache folder shared by
    checkouts, its cache folder (which names the source folder) and its stem."""
    if not custom:
        return name
    path = graph.paths[name]
    return f"{cache_folder_name(os.path.dirname(path))}/{os.path.basename(path)[:-3]}"


def refresh_kernel_cache(roots: list[tuple[str, str]] | None = None) -> bool:
    """Delete the cached kernels (``*.nbi``/``*.nbc``) whose dependencies changed.

    Returns whether any file was deleted. ``roots`` lists ``(package name,
    folder)`` pairs, trickgym's by default (tests pass a small package).
    The default cache place (``__pycache__`` beside the sources) is handled,
    and a ``NUMBA_CACHE_DIR`` that holds the file ``trickgym-owned-cache``;
    any other ``NUMBA_CACHE_DIR`` is left alone.
    """
    custom = os.environ.get("NUMBA_CACHE_DIR") or None
    if custom is not None:
        custom = os.path.abspath(custom)
        if not os.path.exists(os.path.join(custom, OWNED_MARK)):
            return False  # someone else's cache folder: not ours to clear
    roots = roots if roots is not None else _package_roots()
    in_tree = os.path.join(roots[0][1], "__pycache__")
    place = custom or in_tree
    if not _writable(place):
        return False  # a read-only install: numba caches elsewhere, nothing here can go
    graph = _Graph(roots, [in_tree, place] if custom else [in_tree])
    stamps_file = os.path.join(place, STAMPS_FILE)
    recorded = _read_json(stamps_file).get("stamps", {})
    groups = _groups(graph, custom)

    # Record the stamps of every module that may hold kernels, cached or not yet:
    # a kernel compiled after this import is compiled from the sources stamped now.
    current: dict[str, str] = {}
    holders = set(graph.kernel_modules) | {name for _, name, _ in groups if name}
    for name in holders:
        current[_key(graph, name, custom)] = graph.stamp(graph.closure([name]))
    if custom:
        current[_UNKNOWN] = graph.stamp(graph.closure(graph.kernel_modules))

    deleted = False
    for key, _, files in groups:
        if key and recorded.get(key) == current[key]:
            continue
        for path in files:
            try:
                os.unlink(path)
                deleted = True
            except OSError:
                pass  # another process got there first, or a read-only install
    if current != recorded:
        _write_json(stamps_file, {"format": _FORMAT, "stamps": current})
    return deleted


def _writable(folder: str) -> bool:
    """Whether files can be made in ``folder`` (or in the folder that would hold it)."""
    while not os.path.isdir(folder):
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent
    return os.access(folder, os.W_OK)
