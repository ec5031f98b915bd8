"""Where the suite's time goes: a pytest plugin, on when ``TRICKGYM_COMPILE_REPORT`` names a file.

Per test file it records CPU seconds (user+sys of the test process, and of the
subprocesses it waited for), wall seconds, and numba's compiles (the
``numba:compile`` events: a kernel loaded from the cache sends none), with the
CPU seconds spent in the outermost compiles; per kernel, the signatures it was
compiled for. Compiles before the first test (at collection) are filed under
``<collection>``. It writes them as JSON to the file named and prints the
heaviest files and the kernels compiled for more than one signature::

    TRICKGYM_COMPILE_REPORT=/tmp/report.json .venv/bin/python -m pytest -q tests/sim

Only measures; no test reads it.
"""

from __future__ import annotations

import json
import os
import resource
import threading
import time
from collections import defaultdict

from numba.core import event

_REPORT = "TRICKGYM_COMPILE_REPORT"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class _Listener(event.Listener):
    """Files each compile under the test file running when it started."""

    def __init__(self, report: _Report) -> None:
        self.report = report
        self.depth = threading.local()

    def on_start(self, ev) -> None:
        """numba's hook: a compile started."""
        depth = getattr(self.depth, "value", 0)
        self.depth.value = depth + 1
        if depth == 0:
            self.depth.started = time.process_time()
        dispatcher = ev.data["dispatcher"]
        func = getattr(dispatcher, "py_func", None)
        name = f"{func.__module__}:{func.__qualname__}" if func else str(dispatcher)
        self.report.compiled(name, str(tuple(ev.data["args"])), depth)

    def on_end(self, ev) -> None:
        """numba's hook: a compile ended."""
        self.depth.value -= 1
        if self.depth.value == 0:
            self.report.compile_cpu(time.process_time() - self.depth.started)


class _Report:
    def __init__(self) -> None:
        self.current = "<collection>"
        self.files: dict[str, dict] = defaultdict(
            lambda: {
                "cpu": 0.0,
                "children_cpu": 0.0,
                "wall": 0.0,
                "compiles": 0,
                "outer_compiles": 0,
                "compile_cpu": 0.0,
                "tests": 0,
            }
        )
        self.kernels: dict[str, dict[str, list[str]]] = defaultdict(dict)
        self.lock = threading.Lock()
        self.mark = (time.process_time(), _children_cpu(), time.perf_counter())

    def compiled(self, name: str, signature: str, depth: int) -> None:
        with self.lock:
            entry = self.files[self.current]
            entry["compiles"] += 1
            entry["outer_compiles"] += depth == 0
            self.kernels[name].setdefault(signature, []).append(self.current)

    def compile_cpu(self, seconds: float) -> None:
        with self.lock:
            self.files[self.current]["compile_cpu"] += seconds

    def close_span(self) -> None:
        now = (time.process_time(), _children_cpu(), time.perf_counter())
        entry = self.files[self.current]
        entry["cpu"] += now[0] - self.mark[0]
        entry["children_cpu"] += now[1] - self.mark[1]
        entry["wall"] += now[2] - self.mark[2]
        self.mark = now

    def switch(self, name: str) -> None:
        self.close_span()
        # One line per finished file as it goes, so a run cut short still tells.
        with open(os.environ[_REPORT] + ".lines", "a") as out:
            out.write(json.dumps({"file": self.current, **self.files[self.current]}) + "\n")
        self.current = name

    def write(self, path: str) -> None:
        self.close_span()
        data = {
            "files": {k: {f: round(v, 2) for f, v in e.items()} for k, e in self.files.items()},
            "kernels": self.kernels,
        }
        with open(path, "w") as out:
            json.dump(data, out, indent=1)


_report: _Report | None = None


def pytest_configure(config) -> None:
    """Starts listening when the report is asked for."""
    global _report
    if os.environ.get(_REPORT) and _report is None:
        _report = _Report()
        event.register("numba:compile", _Listener(_report))


def pytest_runtest_setup(item) -> None:
    """Files what follows under the test's file."""
    if _report is not None:
        name = item.nodeid.split("::", 1)[0]
        if name != _report.current:
            _report.switch(name)
        _report.files[name]["tests"] += 1


def pytest_terminal_summary(terminalreporter) -> None:
    """Writes the report, and prints its heaviest files and multi-signature kernels."""
    if _report is None:
        return
    _report.write(os.environ[_REPORT])
    write = terminalreporter.write_line
    write(f"{'file':48} {'cpu':>6} {'child':>6} {'wall':>6}  compiles  compile-cpu")
    rows = sorted(_report.files.items(), key=lambda kv: -(kv[1]["cpu"] + kv[1]["children_cpu"]))
    for name, e in rows[:40]:
        write(
            f"{name[-48:]:48} {e['cpu']:6.1f} {e['children_cpu']:6.1f} {e['wall']:6.1f}"
            f"  {e['compiles']:8d}  {e['compile_cpu']:10.1f}"
        )
    keys = ("cpu", "children_cpu", "wall", "compile_cpu")
    total = {k: sum(e[k] for e in _report.files.values()) for k in keys}
    write(
        f"{'total':48} {total['cpu']:6.1f} {total['children_cpu']:6.1f} {total['wall']:6.1f}"
        f"  {'':8}  {total['compile_cpu']:10.1f}"
    )
    many = [(n, s) for n, s in _report.kernels.items() if len(s) > 1]
    many.sort(key=lambda kv: -len(kv[1]))
    write(f"kernels compiled for more than one signature: {len(many)}")
    for name, sigs in many[:40]:
        write(f"  {len(sigs)}  {name}")
