"""Python agents on every core: a local run's deals spread over worker processes.

Built-in agents run inside parallel kernels; Python agents (``pimc``,
``ismcts``, ``learnt``, ``dmc``, ``policy:PATH``, objects with ``act``) are
played one decision at a time by the Python loop, which holds one core. With
``threads=N`` (N > 1) a local run plays them in up to N worker processes,
each on one numba thread:

- The run starts in this process. Once it has played for
  ``PROBE_SECONDS`` and what is left is estimated at ``POOL_MIN_SECONDS`` or
  more, the rest goes to the workers; a small run never pays their start-up
  (about 1.5 CPU seconds each: importing trickgym, loading numba's cache).
  While they start, this process goes on playing.
- One pool per run (:func:`keep_workers`: one for several runs, as a
  tournament's seatings), its workers reused for every part of the run,
  started with the ``"spawn"`` method: numba's OpenMP layer cannot run in a
  child forked after parallel kernels ran (:mod:`trickgym.forksafe`). A
  daemonic process (a ``multiprocessing.Pool`` worker), which may not start
  processes, plays its runs itself.
- Workers play parts of chunks of about ``PIECE_SECONDS`` each; the parts
  of a chunk are joined in order and chunks are yielded in order, so a
  dataset (``out=``) is written, resumed and checked as with one process,
  and the progress bar moves as parts arrive.
- A worker rebuilds the run from its spec: agents given by name are made
  there from their names (names registered in this process are sent with
  their factories), agent objects arrive as pickled copies (the objects
  passed in do not see those deals).

Rows are identical for any number of threads: deal ``k`` depends only on
the seed and ``k``, and an agent's decisions only on the deal's seed
(``start_deal``) and what its seat sees, whatever it played before (the
built-in Python agents are written so). So a run goes to workers only if
every Python agent has ``start_deal(seed, seat)`` (one without it may draw
on from deal to deal, as ``RandomAgent`` does) and the run pickles (its
agents and the registered factories; nothing from an interactive
session's ``__main__``, which a worker cannot import); otherwise it is
played in this process with a ``RuntimeWarning`` saying why. Workers that
die before any part came back (a script without an
``if __name__ == "__main__":`` guard, which they import) also leave the run
to this process, with a warning; later, a dead worker is an error.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import pickle
import sys
import time
import uuid
import warnings
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

import numba
import numpy as np

from trickgym.agents.registry import register_agent, registered_factory
from trickgym.agents.rows import batched

from .lockstep import DEFAULT_SLOTS
from .plan import Players, RunPlan, part_items, players, run_part_rows

__all__ = ["keep_workers", "run_python"]

# Seconds a run plays in this process before it may start workers.
PROBE_SECONDS = 0.5
# Workers start when the rest of the run is estimated at this many seconds or more:
# their start-up (importing trickgym, loading the kernels) costs about 1.5 CPU s
# each, some 4 s of CPU for two, which such a run wins back on two cores.
POOL_MIN_SECONDS = 4.0
# Seconds of play aimed at per part sent to a worker: the progress bar moves at
# least that often per worker, and the last parts keep every worker busy.
PIECE_SECONDS = 0.5
# Seconds of play aimed at per step while this process plays (so the estimate is fresh).
STEP_SECONDS = 0.05
MAX_PIECE_ITEMS = 1 << 14  # items per part at most, however fast the agents
START_METHOD = "spawn"
_WINDOWS_MAX_WORKERS = 61  # ProcessPoolExecutor's limit on Windows

_kept: dict[int, ProcessPoolExecutor] | None = None  # pools by size, inside keep_workers()


@contextlib.contextmanager
def keep_workers():
    """Runs inside this context share one pool of workers per thread count.

    A tournament's seatings (one run each) then start their workers once.
    The pools are shut down when the outermost context exits.
    """
    global _kept
    if _kept is not None:
        yield
        return
    _kept = {}
    try:
        yield
    finally:
        pools, _kept = _kept, None
        for pool in pools.values():
            pool.shutdown(wait=True, cancel_futures=True)


def run_python(
    spec: RunPlan,
    indices: list[int],
    workers: int,
    tick: Callable | None,
    finish: Callable,
) -> Iterator[tuple[int, object]]:
    """Yield ``(index, finish(rows))`` for the chunks ``indices`` of ``spec``, in order.

    ``spec`` has Python agents; up to ``workers`` processes play them once
    the run has shown it is long enough (see the module's docstring).
    ``tick(n)`` is called as deals (here) or parts (workers) finish.
    """
    _refuse_in_worker_start()
    if not indices:
        return
    one = part_items(spec)
    left = sum(_items(spec, i) for i in indices)
    rate = _Rate()
    # A daemonic process (a multiprocessing.Pool's worker) may not start processes.
    pooled = workers > 1 and not multiprocessing.current_process().daemon
    queue = deque(indices)
    while queue:
        index = queue.popleft()
        start, stop = spec.chunk_range(index)
        chunk = _Chunk(index, start, stop)
        # Fresh agents for each chunk, as run_chunk_rows makes them: an agent without
        # start_deal then plays a chunk as it does alone (the workers need start_deal).
        who = players(spec)
        while chunk.pos < stop:
            step = min(stop - chunk.pos, _round(rate.per_second() * STEP_SECONDS, one))
            t = time.perf_counter()
            chunk.parts.append(run_part_rows(spec, chunk.pos, chunk.pos + step, tick, who))
            rate.add(step, time.perf_counter() - t)
            chunk.pos += step
            left -= step
            if pooled and left and rate.wants_workers(left):
                blob = _payload(spec, who)
                if blob is None:
                    pooled = False
                    continue
                yield from _run_pool(
                    spec, who, blob, chunk, queue, workers, tick, finish, rate, left
                )
                return
        yield index, finish(_join(chunk.parts))


class _Chunk:
    """A chunk being played: its rows so far (in order) and the next item to hand out."""

    def __init__(self, index: int, start: int, stop: int):
        self.index, self.pos, self.stop = index, start, stop
        self.parts: list[np.ndarray] = []
        self.waiting = 0  # parts handed to workers and not yet back

    @property
    def done(self) -> bool:
        return self.pos == self.stop and self.waiting == 0


class _Rate:
    """Items per second of play, the first part (kernels loading) left out once others ran."""

    def __init__(self):
        self.start = time.perf_counter()
        self.first: tuple[int, float] | None = None
        self.items, self.seconds = 0, 0.0

    def add(self, items: int, seconds: float) -> None:
        if self.first is None:
            self.first = (items, seconds)
        else:
            self.items += items
            self.seconds += seconds

    def per_second(self) -> float:
        if self.items and self.seconds > 0:
            return self.items / self.seconds
        if self.first is None:
            return 0.0
        items, seconds = self.first
        return items / max(seconds, 1e-9)

    def wants_workers(self, left: int) -> bool:
        """Whether ``left`` items are worth starting workers for (after the probe).

        Never on the first part alone: it may have compiled the kernels.
        """
        if not self.items or time.perf_counter() - self.start < PROBE_SECONDS:
            return False
        return left >= self.per_second() * POOL_MIN_SECONDS


def _items(spec: RunPlan, index: int) -> int:
    start, stop = spec.chunk_range(index)
    return stop - start


def _batched_piece(spec: RunPlan, who: Players) -> int:
    """Items a worker's part holds at least when every Python agent decides batches.

    Such a part is played in lockstep (:mod:`.lockstep`): its last rounds decide
    the few deals still going, at the cost of full ones, so a part of a few
    slots' worth of deals wastes less than one of half a second's.
    """
    python = [a for a in who.agents if not isinstance(a, str)]
    if not python or not all(batched(a) for a in python):
        return 0
    deals_per_item = 4 if spec.items == "matches" else 1  # a race lasts a few deals
    return 2 * DEFAULT_SLOTS // deals_per_item


def _round(items: float, one: int) -> int:
    """``items`` cut to a whole number of smallest parts, at least one and at most the cap."""
    return max(one, min(int(items), MAX_PIECE_ITEMS) // one * one)


def _join(parts: list[np.ndarray]) -> np.ndarray:
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts)


def _refuse_in_worker_start() -> None:
    """Exit a worker that is importing the caller's main script and reached a run.

    The calling process then sees its workers fail to start and plays the
    run itself (with a warning saying why).
    """
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise SystemExit(
            "trickgym: a run with Python agents was started while a worker process was "
            "importing the main script: put the script's top-level code under "
            '`if __name__ == "__main__":`, or pass threads=1 (--threads 1)'
        )


def _payload(spec: RunPlan, who: Players) -> bytes | None:
    """The run as pickled bytes for the workers, or ``None`` (warned) if they cannot play it."""
    unseeded = sorted(
        {
            type(a).__name__
            for a in who.agents
            if not isinstance(a, str) and getattr(a, "start_deal", None) is None
        }
    )
    if unseeded:
        why = (
            f"{', '.join(unseeded)} has no start_deal(seed, seat), so its decisions may depend "
            "on the deals it played before and would change with the threads; give it "
            "start_deal (seeding its draws from the deal's seed) to play on every thread"
        )
    else:
        names = {a for a in spec.agents if isinstance(a, str)}
        factories = {n: f for n in names if (f := registered_factory(n)) is not None}
        try:
            blob = pickle.dumps((spec, factories), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as err:  # PicklingError, TypeError, AttributeError (local objects)
            why = f"its agents or their registered factories cannot be pickled ({err})"
        else:
            main = sys.modules.get("__main__")
            if b"__main__" not in blob or getattr(main, "__file__", None):
                return blob
            why = (
                "an agent or a registered factory is defined in an interactive session "
                "(__main__), which worker processes cannot import; define it in a module"
            )
    warnings.warn(
        f"trickgym: the Python agents of this run play in this process, on one core: {why}. "
        "Pass threads=1 to ask for that",
        RuntimeWarning,
        stacklevel=2,
    )
    return None


def _run_pool(spec, who, blob, chunk, queue, workers, tick, finish, rate, left):
    """Play the rest of ``chunk`` and the chunks ``queue`` on worker processes."""
    if sys.platform == "win32":
        workers = min(workers, _WINDOWS_MAX_WORKERS)
    with _pool(workers) as pool:
        yield from _Handout(pool, spec, who, blob, chunk, queue, workers, tick, rate, left).run(
            finish
        )


class _Handout:
    """Parts handed to a pool's workers, at most two per worker at a time, chunks in order.

    Until the first part comes back from a worker (while the workers start),
    this process goes on playing the next parts itself. Workers that die
    before any part came back (a script without a ``__main__`` guard, which
    they import) leave the run to this process, with a ``RuntimeWarning``.
    """

    def __init__(self, pool, spec, who, blob, chunk, queue, workers, tick, rate, left):
        self.pool, self.spec, self.who, self.blob = pool, spec, who, blob
        self.workers, self.tick, self.rate, self.left = workers, tick, rate, left
        self.queue = queue
        self.one = part_items(spec)
        self.min_items = _batched_piece(spec, who)
        self.token = uuid.uuid4().hex
        self.order = deque([chunk])  # chunks not yet yielded, in order
        self.current: _Chunk | None = chunk  # the chunk parts are handed out from
        self.inflight: deque = deque()  # (chunk, start, items, future), in the items' order
        self.ticked: set = set()  # finished futures still in inflight
        self.sent = 0  # parts in the workers' hands
        self.warm = False  # a worker has sent a part back: this process stops playing

    def run(self, finish: Callable) -> Iterator[tuple[int, object]]:
        try:
            yield from self._loop(finish)
        except BrokenProcessPool as err:
            if self.warm:
                raise RuntimeError(
                    f"trickgym: a worker process playing the Python agents stopped ({err}); "
                    "it may have run out of memory. threads=1 (--threads 1) plays Python "
                    "agents in this process"
                ) from err
            _discard(self.pool)
            warnings.warn(
                "trickgym: the worker processes for the Python agents could not start "
                f"({err}); the run goes on in this process, on one core. A script that runs "
                "simulate or tournament at its top level must put that code under "
                '`if __name__ == "__main__":` (the workers import the script); '
                "threads=1 (--threads 1) plays Python agents here without trying",
                RuntimeWarning,
                stacklevel=2,
            )
            yield from self._finish_here(finish)
        finally:
            for *_, future in self.inflight:
                future.cancel()

    def _loop(self, finish: Callable) -> Iterator[tuple[int, object]]:

        inflight, ticked = self.inflight, self.ticked
        while True:
            # Parts done wait for the parts before them; a slow part holds up at most
            # 64 per worker (a few rows each).
            while (
                self.sent < 2 * self.workers
                and len(inflight) < 64 * self.workers
                and (part := self._next_items(PIECE_SECONDS)) is not None
            ):
                owner, items = part
                start = owner.pos
                self._take(
                    owner,
                    items,
                    self.pool.submit(_play, self.token, self.blob, start, start + items),
                )
                self.sent += 1
            while self.order and self.order[0].done:
                done = self.order.popleft()
                yield done.index, finish(_join(done.parts))
            if not inflight:
                if self.current is None and not self.order:
                    return
                continue
            if not self.warm and (part := self._next_items(STEP_SECONDS)) is not None:
                owner, items = part
                t = time.perf_counter()
                rows = run_part_rows(self.spec, owner.pos, owner.pos + items, self.tick, self.who)
                played: Future = Future()
                played.set_result((rows, time.perf_counter() - t))
                ticked.add(played)  # ticked deal by deal as it was played
                self._take(owner, items, played)
            else:
                wait([e[3] for e in inflight if e[3] not in ticked], return_when=FIRST_COMPLETED)
            for *_, items, future in inflight:
                if future.done() and future not in ticked:
                    self._back(future, items)
            while inflight and inflight[0][3].done():
                owner, _, items, future = inflight[0]
                if future not in ticked:  # done since the look above
                    self._back(future, items)
                rows, seconds = future.result()  # a worker's error is raised here
                inflight.popleft()
                ticked.discard(future)
                owner.parts.append(rows)
                owner.waiting -= 1
                self.rate.add(items, seconds)

    def _next_items(self, seconds: float):
        """The chunk to take the next items from and how many, or ``None`` at the end."""
        while self.current is not None and self.current.pos == self.current.stop:
            self.current = None
            if self.queue:
                index = self.queue.popleft()
                self.current = _Chunk(index, *self.spec.chunk_range(index))
                self.order.append(self.current)
        if self.current is None:
            return None
        fair = self.left / (2 * self.workers)  # the last parts shrink to keep every worker busy
        size = _round(min(max(self.rate.per_second() * seconds, self.min_items), fair), self.one)
        return self.current, min(self.current.stop - self.current.pos, size)

    def _take(self, owner: _Chunk, items: int, future) -> None:
        self.inflight.append((owner, owner.pos, items, future))
        owner.waiting += 1
        owner.pos += items
        self.left -= items

    def _back(self, future, items: int) -> None:
        """A worker's part is back: tick the bar; its worker is free."""
        self.ticked.add(future)
        self.sent -= 1
        if future.exception() is None:
            self.warm = True
            if self.tick is not None:
                self.tick(items)

    def _finish_here(self, finish: Callable) -> Iterator[tuple[int, object]]:
        """The rest of the run in this process: the parts not back, then the chunks left."""
        spec, tick, who = self.spec, self.tick, self.who
        while self.inflight:
            owner, start, items, future = self.inflight.popleft()
            if future.done() and not future.cancelled() and future.exception() is None:
                rows = future.result()[0]
                if future not in self.ticked and tick is not None:
                    tick(items)
            else:
                rows = run_part_rows(spec, start, start + items, tick, who)
            owner.parts.append(rows)
            owner.waiting -= 1
        for chunk in self.order:
            if chunk.pos < chunk.stop:
                chunk.parts.append(run_part_rows(spec, chunk.pos, chunk.stop, tick, who))
            yield chunk.index, finish(_join(chunk.parts))
        self.order.clear()
        while self.queue:
            index = self.queue.popleft()
            yield index, finish(run_part_rows(spec, *spec.chunk_range(index), tick, who))


def _discard(pool: ProcessPoolExecutor) -> None:
    """Forget a broken pool kept by :func:`keep_workers` (the next run starts new workers)."""
    if _kept is not None:
        for workers, kept in list(_kept.items()):
            if kept is pool:
                del _kept[workers]


@contextlib.contextmanager
def _pool(workers: int):
    """A pool of ``workers`` processes: this run's, or the one :func:`keep_workers` keeps."""
    if _kept is None:
        pool = _new_pool(workers)
        try:
            yield pool
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        return
    pool = _kept.get(workers)
    if pool is None:
        pool = _kept[workers] = _new_pool(workers)
    try:
        yield pool
    except BaseException:
        _discard(pool)  # it may be broken, or busy with parts of the run that failed
        pool.shutdown(wait=False, cancel_futures=True)
        raise


def _new_pool(workers: int) -> ProcessPoolExecutor:
    """Up to ``workers`` processes, started as parts are handed out (none idle at once)."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context(START_METHOD),
        initializer=_start_worker,
    )


# A worker's run: the token of the run it last played, its spec and players.
_worker_run: tuple[str, RunPlan, Players] | None = None


def _start_worker() -> None:
    """A worker plays on one numba thread (the run's threads are its workers)."""
    numba.set_num_threads(1)


def _play(token: str, blob: bytes, start: int, stop: int) -> tuple[np.ndarray, float]:
    """In a worker: the rows of items ``start .. stop-1`` of the run ``blob``, and the seconds."""
    global _worker_run
    if _worker_run is None or _worker_run[0] != token:
        _worker_run = None
        try:
            spec, factories = pickle.loads(blob)
            for name, factory in factories.items():
                register_agent(name, factory, replace=True)
            who = players(spec)
        except Exception as err:
            raise RuntimeError(
                "trickgym: a worker process could not rebuild the run's agents "
                f"({type(err).__name__}: {err}); define agents and registered factories in "
                "a module the workers can import, or pass threads=1 (--threads 1) to play "
                "them in the calling process"
            ) from err
        _worker_run = (token, spec, who)
    _, spec, who = _worker_run
    t = time.perf_counter()
    rows = run_part_rows(spec, start, stop, None, who)
    return rows, time.perf_counter() - t
