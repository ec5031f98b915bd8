"""What numba compiles, while it compiles: counted from numba's ``numba:compile`` events.

numba broadcasts a ``numba:compile`` event (start and end) each time a
dispatcher compiles a new signature; loading a kernel from its on-disk cache
sends none. :func:`watch_compiles` counts and names those compiles, and
:func:`run_compiling` runs a function on a helper thread while a terminal
shows a line such as ``compiling the solowhist kernels: 12 functions so far
(simulate_block), 35 s``: the first run's progress, from what numba is
actually doing rather than from a guess.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from numba.core import event

from .games import DESCRIPTIONS
from .progress import interactive, progress_bar

__all__ = [
    "COLD_COMPILE_SECONDS",
    "NOTICE_AFTER",
    "CompileWatch",
    "Compiled",
    "announce",
    "announcing",
    "compile_estimate",
    "hand_over",
    "run_compiling",
    "take_over",
    "watch_compiles",
]

# What the first run with an empty numba cache costs, measured by
# benchmarks/bench_readme.py (its "cold" rows: the whole command, imports included, of
#   NUMBA_CACHE_DIR=$(mktemp -d) trickgym simulate --game G --deals 1000 --agents rule --seed 1
# with --players 4 for Troggu and --matches 250 for Phat), on a 2-core machine of this
# project's CI class: CPU seconds (user+sys, nearly all one core's: numba compiles on one
# thread), and wall seconds as a range from the idle machine to one at load average 6
# (``bench_readme.py --load 5``: five busy processes beside it). Rounded outwards to 5 s.
# See COMPILE_MEASURED for the run they come from.
# Each game's description holds its figures (GameDescription.compile_cpu,
# compile_seconds, feature_compile); the tables below are read from them.


def _cold() -> tuple[dict, dict]:
    """``(cpu, seconds)`` of every registered game with measured figures."""
    cpu, seconds = {}, {}
    for name, d in DESCRIPTIONS.items():
        if d.compile_cpu is not None and d.compile_seconds is not None:
            cpu[name], seconds[name] = d.compile_cpu, tuple(d.compile_seconds)
    return cpu, seconds


def _features() -> tuple[dict, dict]:
    """``(cpu, seconds)`` keyed by ``(game, feature)`` of every registered game."""
    cpu, seconds = {}, {}
    for name, d in DESCRIPTIONS.items():
        for feature, (f_cpu, f_seconds) in d.feature_compile.items():
            cpu[(name, feature)], seconds[(name, feature)] = f_cpu, tuple(f_seconds)
    return cpu, seconds


COLD_COMPILE_CPU, COLD_COMPILE_SECONDS = _cold()
FEATURE_COMPILE_CPU, FEATURE_COMPILE_SECONDS = _features()
FEATURE_WORDS = {
    "match": "BGA match dealing",
    "dd": "double-dummy columns",
    "races": "races to the target",
}
COMPILE_MEASURED = (
    "2026-12-05, Intel Xeon, 2 cores: idle (load 0.3-1.0) Solo Whist 24 s, Troggu 24, Phat 17, "
    "Pinochle 24, match +7, dd +30, races +6; at load 6 (--load 5) 81, 83, 58, 82, +22, +100, +21"
)

# Seconds a compile may take before a notice is printed (loading from the cache is
# silent however long it takes: it compiles nothing). A run whose kernels are cached
# compiles nothing at all, so a compile that lasts this long is a cold cache.
NOTICE_AFTER = 0.5
# How often the progress line is redrawn while numba compiles.
POLL_SECONDS = 0.25


def _name(data) -> str:
    """``module:qualname`` of the function an event is compiling."""
    dispatcher = data.get("dispatcher") if isinstance(data, dict) else None
    func = getattr(dispatcher, "py_func", None)
    if func is None:
        return str(getattr(dispatcher, "__name__", "?"))
    return f"{func.__module__}:{func.__qualname__}"


class CompileWatch(event.Listener):
    """Counts and names the functions numba compiles while it is installed.

    ``names`` (``module:qualname``) lists them in the order their compiles
    started (a function compiled for two signatures counts twice); kernels
    loaded from numba's cache are not compiles and never appear.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.names: list[str] = []
        self._active: list[str] = []

    def on_start(self, event) -> None:
        """numba's ``Listener`` hook: a compile started."""
        name = _name(event.data)
        with self._lock:
            self.names.append(name)
            self._active.append(name)

    def on_end(self, event) -> None:
        """numba's ``Listener`` hook: a compile ended."""
        with self._lock:
            if self._active:
                self._active.pop()

    @property
    def count(self) -> int:
        """Functions compiled so far."""
        return len(self.names)

    def current(self) -> str:
        """The short name of the function being compiled now (else the last one).

        ``simulate_block``; an overload's inner ``impl`` keeps its outer name
        (``ol_min.impl``).
        """
        with self._lock:
            name = self._active[-1] if self._active else (self.names[-1] if self.names else "")
        parts = name.rsplit(":", 1)[-1].replace(".<locals>", "").split(".")
        return ".".join(parts[-2:]) if parts[-1] in ("impl", "<lambda>") else parts[-1]


@contextmanager
def watch_compiles():
    """A :class:`CompileWatch` listening to numba's compiles inside the ``with`` block."""
    watch = CompileWatch()
    with event.install_listener("numba:compile", watch):
        yield watch


def compile_estimate(game: str, feature: str | None = None) -> str:
    """How long the first run of ``game`` (or its ``feature``) compiles, from measured figures.

    ``"about 25 CPU s, 20-90 s"``: CPU seconds, and wall seconds on 2 cores
    from an idle machine to one at load average 6.
    """
    key = game if feature is None else (game, feature)
    cpu_table, table = _cold() if feature is None else _features()  # games registered later too
    cpu = cpu_table.get(key)
    if key not in table or cpu is None:
        return "not measured, about a minute"
    low, high = table[key]
    return f"about {cpu} CPU s, {low}-{high} s"


def announce(game: str, agents=(), features=()) -> None:
    """Say on stderr what is compiling, and for how long: the game's rules and agents, or a feature.

    ``features`` (``"match"``, ``"dd"``, ``"races"``) name what a run needs
    beyond the game's rules: each compiles once, the first time it is used,
    so a notice that names one is about that feature, not the game again.
    """
    kinds = list(dict.fromkeys(a for a in agents if isinstance(a, str)))
    what = f"the {game} rules" + (f" and {', '.join(kinds)} agents" if kinds else " kernels")
    estimate = compile_estimate(game)
    if features:
        what = " and ".join(FEATURE_WORDS.get(f, f) for f in features) + f" for {game}"
        extra = compile_estimate(game, features[0]) if len(features) == 1 else "not measured"
        estimate = f"{extra}, plus {estimate} if the {game} rules are not cached yet"
    print(
        f"trickgym: numba is compiling {what}, once: {estimate} (wall on 2 cores from idle to "
        "load 6, machines differ up to 2x; benchmarks/bench_readme.py); later runs load them "
        "from the cache ...",
        file=sys.stderr,
        flush=True,
    )


# Whether compiles are announced (one line) where no progress is shown: set by the
# command line, whose --quiet drops the bars but not the one line that says why a
# command sits for a minute (it shows only with an empty cache).
_ANNOUNCE_ALWAYS: ContextVar[bool] = ContextVar("trickgym_announce_always", default=False)


@contextmanager
def announcing():
    """Inside the block, a compile is announced even by calls made with ``progress=False``."""
    token = _ANNOUNCE_ALWAYS.set(True)
    try:
        yield
    finally:
        _ANNOUNCE_ALWAYS.reset(token)


# Compiles announced before a game's warm-up: (start as perf_counter, functions so far).
_HANDED: dict[str, tuple[float, int]] = {}


def hand_over(game: str, start: float, count: int) -> None:
    """Leave an announced compile to the game's warm-up, which goes on with its line.

    The command line imports the simulator before the run's warm-up; if
    that import compiled long enough to be announced, the warm-up shows one
    line and one total for the whole wait, begun at ``start`` with ``count``
    functions compiled, not a second notice.
    """
    _HANDED[game] = (start, count)


def take_over(game: str) -> tuple[float, int] | None:
    """``(start, count)`` of a compile handed over for ``game`` (``None`` if none), forgotten."""
    return _HANDED.pop(game, None)


@dataclass(frozen=True)
class Compiled:
    """What :func:`run_compiling` did: wall seconds, and the functions numba compiled."""

    seconds: float
    names: tuple[str, ...]

    @property
    def count(self) -> int:
        """Number of functions compiled."""
        return len(self.names)


def run_compiling(
    work: Callable[[], object],
    label: str,
    progress: bool = True,
    notice_after: float = 0.0,
    on_notice: Callable[[], None] | None = None,
    since: float | None = None,
    before: int = 0,
) -> tuple[object, Compiled]:
    """Run ``work()`` on a helper thread; return its result and what numba compiled meanwhile.

    With ``progress``, once ``notice_after`` seconds have passed and numba has
    compiled at least one function, ``on_notice()`` is called (once) and a
    terminal or notebook shows ``{label}: N functions so far (name), T s``,
    redrawn as numba works and erased at the end. Loading kernels from the
    cache compiles nothing, so it shows nothing however long it takes.
    ``since`` (a ``time.perf_counter()``) and ``before`` (functions) carry
    on the line of a compile begun earlier. Without ``progress`` nothing is
    printed, except ``on_notice()`` inside :func:`announcing`. An exception
    of ``work`` is re-raised here.
    """
    done, result, failed = threading.Event(), [], []

    def run():
        try:
            result.append(work())
        except BaseException as err:  # re-raised below, in the caller's thread
            failed.append(err)
        finally:
            done.set()

    start = time.perf_counter()
    shown_from = start if since is None else since
    notify = progress or _ANNOUNCE_ALWAYS.get()
    with watch_compiles() as watch:
        threading.Thread(target=run, name="trickgym-compile", daemon=True).start()
        bar, noticed = None, False
        try:
            while not done.wait(POLL_SECONDS):
                count = before + watch.count
                elapsed = time.perf_counter() - shown_from
                if not notify or not count or elapsed < notice_after:
                    continue
                if not noticed:
                    noticed = True
                    if on_notice is not None:
                        on_notice()
                if not progress:
                    continue
                if bar is None:
                    live = interactive(sys.stderr)
                    bar = progress_bar(
                        total=None, bar_format="{desc}", leave=False, disable=not live
                    )
                noun = "function" if count == 1 else "functions"
                bar.set_description_str(
                    f"{label}: {count} {noun} so far ({watch.current()}), {elapsed:.0f} s"
                )
        finally:
            if bar is not None:
                bar.close()
    seconds = time.perf_counter() - start
    if failed:
        raise failed[0]
    return result[0], Compiled(seconds, tuple(watch.names))
