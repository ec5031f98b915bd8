"""Where chunks run: this process (``"local"``) or a Dask distributed cluster (``"dask"``).

Both run :func:`chunk_result` on each chunk and yield ``(index, result)``:
the chunk's raw rows (numpy records, to be joined into one DataFrame), or
its Parquet file bytes (for a dataset). Results depend only on the spec and
the chunk index, never on the backend, so the same run gives byte-identical
chunk files everywhere.

A Dask run whose cluster can no longer finish it (every worker gone for
``no_workers_timeout`` seconds, the scheduler gone, a chunk that killed
workers) raises :class:`ClusterLostError` instead of waiting forever.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, ThreadPoolExecutor
from functools import partial

import numba

from ..checks import require_extra
from .dataset import frame_to_parquet, table_to_parquet
from .plan import RunPlan, has_python_agents, rows_to_frame, run_chunk_rows
from .python_pool import run_python
from .recording import run_chunk_steps, steps_table
from .run_metadata import stamp

__all__ = [
    "BACKENDS",
    "NO_WORKERS_TIMEOUT",
    "ClusterLostError",
    "chunk_result",
    "run_dask",
    "run_local",
]

BACKENDS = ("local", "dask")

# Seconds a Dask run waits for a worker when its cluster has none (all died, or none
# started yet) before it fails with ClusterLostError: long enough for a nanny or an
# autoscaler to bring one back, short enough not to sit idle for good.
NO_WORKERS_TIMEOUT = 60.0
_CHECK_EVERY = 1.0  # seconds between asking the scheduler for its workers while none finish
_ASK_TIMEOUT = 10.0  # seconds the scheduler may take to answer that question
_NAP = 0.05  # seconds between looks for finished chunks (as_completed polls at 0.1 s itself)


class ClusterLostError(RuntimeError):
    """A Dask run stopped because its cluster could not finish it.

    Every worker was gone for ``no_workers_timeout`` seconds, the client lost
    its scheduler, or a chunk's task killed too many workers
    (``KilledWorker``). Chunks already finished are kept in the dataset
    folder (``out=``); ``resume=True`` with the same settings completes the
    run, locally or on Dask.
    """


def chunk_result(spec: RunPlan, index: int, kind: str, tick=None):
    """Chunk ``index`` as ``"rows"`` (numpy records) or ``"parquet"`` (file bytes).

    A run with trajectories gives ``"parquet"`` only, as a pair: the
    chunk's file bytes and its steps file's.
    """
    rows = _play(spec, index, tick)
    return rows if kind == "rows" else _encode(spec, rows)


def _play(spec: RunPlan, index: int, tick=None):
    """Chunk ``index``'s rows, or ``(rows, steps)`` in a run with trajectories."""
    if spec.trajectories:
        return run_chunk_steps(spec, index, tick)
    return run_chunk_rows(spec, index, tick)


def _rows(rows):
    return rows


def _encode(spec: RunPlan, rows):

    if spec.trajectories:
        rows, steps = rows
        return (
            frame_to_parquet(rows_to_frame(spec, rows), stamp(spec)),
            table_to_parquet(steps_table(steps, stamp(spec))),
        )
    return frame_to_parquet(rows_to_frame(spec, rows), stamp(spec))


def run_local(
    spec: RunPlan, indices: list[int], kind: str, threads: int | None, tick: Callable | None
) -> Iterator[tuple[int, object]]:
    """Run the chunks one after another here, each on ``threads`` numba threads.

    For a dataset, chunk ``i`` is encoded to Parquet on a helper thread
    while chunk ``i+1`` is played (the compiled loops release the GIL), so
    the cores do not wait for the encoding; at most two chunks are held.
    Python agents on more than one thread (default: numba's, all cores)
    play in that many worker processes once the run is long enough
    (:mod:`trickgym.sim.python_pool`); chunks still come in order.
    """
    old = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        workers = numba.get_num_threads()
        # Trajectories are recorded here, with every seat's decisions (no worker processes).
        if workers > 1 and has_python_agents(spec) and not spec.trajectories:
            finish = _rows if kind == "rows" else partial(_encode, spec)
            yield from run_python(spec, indices, workers, tick, finish)
            return
        if kind == "rows":
            for index in indices:
                yield index, run_chunk_rows(spec, index, tick)
            return
        with ThreadPoolExecutor(max_workers=1) as encoder:
            pending = None
            for index in indices:
                rows = _play(spec, index, tick)
                if pending is not None:
                    yield pending[0], pending[1].result()
                pending = (index, encoder.submit(_encode, spec, rows))
            if pending is not None:
                yield pending[0], pending[1].result()
    finally:
        numba.set_num_threads(old)


def _dask_task(spec: RunPlan, index: int, kind: str, threads: int | None):
    """One chunk on a Dask worker, with ``threads`` numba threads (default: the worker's)."""
    if threads is None:
        try:
            # lazy: dask's distributed (an optional extra)
            from distributed import get_worker

            threads = get_worker().state.nthreads
        except (ImportError, ValueError, AttributeError):
            threads = None
    old = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    try:
        return chunk_result(spec, index, kind)
    finally:
        numba.set_num_threads(old)


def _client(scheduler):
    """A ``distributed.Client`` (and the cluster we started, if any) for ``scheduler``."""
    distributed = require_extra(
        "distributed", "dask", "the dask backend (backend='dask', --backend dask)"
    )
    Client, LocalCluster = distributed.Client, distributed.LocalCluster
    if isinstance(scheduler, Client):
        return scheduler, None, False
    if scheduler is None:
        cluster = LocalCluster(threads_per_worker=1, processes=True, dashboard_address=None)
        return Client(cluster), cluster, True
    if not isinstance(scheduler, str):
        raise ValueError(
            f"scheduler must be an address such as 'tcp://host:8786' or a Client, got {scheduler!r}"
        )
    return Client(scheduler), None, True


class _Watch:
    """Tells when a Dask cluster has had no worker for ``timeout`` seconds.

    The scheduler keeps tasks waiting for a worker forever, so the run asks
    it (every ``_CHECK_EVERY`` seconds while no chunk finishes) how many
    worker threads it has. The clock runs from the last sign of a worker (a
    chunk finished, or a nonzero answer); a scheduler that does not answer
    gives no such sign. The scheduler drops a worker when its connection
    closes (a killed process), or after ``distributed.scheduler.worker-ttl``
    (default 5 minutes) for a machine that vanished without closing it.
    """

    def __init__(self, client, timeout: float, where: str):
        self.client, self.timeout, self.where = client, timeout, where
        self.seen = time.monotonic()
        self.next_check = self.seen + _CHECK_EVERY

    def alive(self) -> None:
        """A chunk finished: some worker was there."""
        self.seen = time.monotonic()

    def check(self) -> None:
        """Raise :class:`ClusterLostError` once no worker was seen for ``timeout`` seconds."""
        now = time.monotonic()
        if now < self.next_check:
            return
        try:
            threads = sum(self.client.nthreads(callback_timeout=_ASK_TIMEOUT).values())
            problem = ""
        # Any failure to get an answer (CommClosedError is an OSError; a closed client
        # raises others) is no sign of a worker: the clock goes on.
        except Exception as err:
            threads, problem = 0, f"its scheduler does not answer: {type(err).__name__} {err}; "
        now = time.monotonic()
        self.next_check = now + _CHECK_EVERY
        if threads:
            self.seen = now
        elif now - self.seen >= self.timeout:
            raise ClusterLostError(
                f"the Dask run stopped: {self.where} has had no worker for "
                f"{now - self.seen:.0f} s ({problem}no_workers_timeout={self.timeout:g} s)"
            )


def _failed(future, index: int, result, where: str):
    """The error for a chunk's task that did not finish: lost cluster or the task's own."""
    # lazy: dask's distributed (an optional extra)
    from distributed import KilledWorker

    if future.status == "error":
        _, error, traceback = result
        if isinstance(error, KilledWorker):
            return ClusterLostError(
                f"the Dask run stopped: chunk {index}'s task was on workers of {where} that "
                f"died ({error}; distributed.scheduler.allowed-failures); if the chunk itself "
                "kills them (memory), see the workers' logs"
            )
        return error.with_traceback(traceback)
    # Cancelled, not by us: the client lost its scheduler, which dropped every task.
    reason = " ".join(str(result).split())
    return ClusterLostError(f"the Dask run stopped: {where} dropped chunk {index} ({reason})")


def _address(client) -> str:
    """``the Dask cluster of scheduler tcp://...``, for messages."""
    try:
        return f"the Dask cluster of scheduler {client.scheduler.address}"
    except AttributeError:  # pragma: no cover - a client without a scheduler rpc
        return "the Dask cluster"


def run_dask(
    spec: RunPlan,
    indices: list[int],
    kind: str,
    threads: int | None,
    tick: Callable | None,
    scheduler=None,
    no_workers_timeout: float = NO_WORKERS_TIMEOUT,
) -> Iterator[tuple[int, object]]:
    """Run the chunks on a Dask cluster and yield them as they finish.

    ``scheduler`` is an address (``"tcp://host:8786"``), a ``Client``, or
    ``None`` for a ``LocalCluster`` of one single-threaded worker process
    per core. At most two chunks per worker thread are in flight, so memory
    stays bounded by the chunk size. Raises :class:`ClusterLostError` when
    the cluster has had no worker for ``no_workers_timeout`` seconds, when
    the client loses the scheduler, or on ``KilledWorker``; the chunks
    yielded before are complete.
    """
    # lazy: dask's distributed (an optional extra)
    from distributed import as_completed

    client, cluster, owned = _client(scheduler)
    token = uuid.uuid4().hex[:12]  # task keys unique to this run on a shared cluster
    where = "the local Dask cluster" if cluster is not None else _address(client)
    try:
        slots = max(1, 2 * sum(client.nthreads().values()))
        pending = list(indices)[::-1]
        # Results are fetched in the background: fetching one whose worker died waits
        # for it to be recomputed, which must not stop the watch on the workers.
        running = as_completed(with_results=True)
        watch = _Watch(client, no_workers_timeout, where)
        index_of = {}
        submitted = {}

        def submit():
            index = pending.pop()
            key = f"trickgym-chunk-{index}-{token}"
            index_of[key] = index
            submitted[key] = client.submit(_dask_task, spec, index, kind, threads, key=key)
            running.add(submitted[key])

        for _ in range(min(slots, len(pending))):
            submit()
        while not running.is_empty():
            batch = running.next_batch(block=False)
            if not batch:
                watch.check()
                time.sleep(_NAP)
                continue
            watch.alive()
            for future, result in batch:
                index = index_of.pop(future.key)
                submitted.pop(future.key)
                if future.status == "error" or isinstance(result, CancelledError):
                    raise _failed(future, index, result, where)
                future.release()
                if tick is not None:
                    start, stop = spec.chunk_range(index)
                    tick(stop - start)
                if pending:
                    submit()
                yield index, result
    finally:
        # Interrupted: stop the chunks still queued or running (not through a lost
        # scheduler, which has dropped them already and would only time out).
        if submitted and client.status == "running":
            client.cancel(list(submitted.values()))
        if owned:
            client.close()
        if cluster is not None:
            cluster.close()
