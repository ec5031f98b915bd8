"""Where chunks run: this process (``"local"``) or a Dask distributed cluster (``"dask"``).

Both run :func:`chunk_result` on each chunk and yield ``(index, result)``:
the chunk's raw rows (numpy records, to be joined into one DataFrame), or
its Parquet file bytes (for a dataset). Results depend only on the spec and
the chunk index, never on the backend, so the same run gives byte-identical
chunk files everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .plan import RunSpec, rows_to_frame, run_chunk_rows

__all__ = ["BACKENDS", "chunk_result", "run_dask", "run_local"]

BACKENDS = ("local", "dask")


def chunk_result(spec: RunSpec, index: int, kind: str, tick=None):
    """Chunk ``index`` as ``"rows"`` (numpy records) or ``"parquet"`` (file bytes)."""
    rows = run_chunk_rows(spec, index, tick)
    return rows if kind == "rows" else _encode(spec, rows)


def _encode(spec: RunSpec, rows):
    from .dataset import frame_to_parquet

    return frame_to_parquet(rows_to_frame(spec, rows))


def run_local(
    spec: RunSpec, indices: list[int], kind: str, threads: int | None, tick: Callable | None
) -> Iterator[tuple[int, object]]:
    """Run the chunks one after another here, each on ``threads`` numba threads.

    For a dataset, chunk ``i`` is encoded to Parquet on a helper thread
    while chunk ``i+1`` is played (the compiled loops release the GIL), so
    the cores do not wait for the encoding; at most two chunks are held.
    """
    from concurrent.futures import ThreadPoolExecutor

    import numba

    old = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        if kind == "rows":
            for index in indices:
                yield index, run_chunk_rows(spec, index, tick)
            return
        with ThreadPoolExecutor(max_workers=1) as encoder:
            pending = None
            for index in indices:
                rows = run_chunk_rows(spec, index, tick)
                if pending is not None:
                    yield pending[0], pending[1].result()
                pending = (index, encoder.submit(_encode, spec, rows))
            if pending is not None:
                yield pending[0], pending[1].result()
    finally:
        numba.set_num_threads(old)


def _dask_task(spec: RunSpec, index: int, kind: str, threads: int | None):
    """One chunk on a Dask worker, with ``threads`` numba threads (default: the worker's)."""
    import numba

    if threads is None:
        try:
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
    try:
        from distributed import Client, LocalCluster
    except ImportError as err:  # pragma: no cover - dask is an optional extra
        raise ValueError(
            "backend 'dask' needs dask.distributed: pip install 'trickgym[dask]'"
        ) from err
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


def run_dask(
    spec: RunSpec,
    indices: list[int],
    kind: str,
    threads: int | None,
    tick: Callable | None,
    scheduler=None,
) -> Iterator[tuple[int, object]]:
    """Run the chunks on a Dask cluster and yield them as they finish.

    ``scheduler`` is an address (``"tcp://host:8786"``), a ``Client``, or
    ``None`` for a ``LocalCluster`` of one single-threaded worker process
    per core. At most two chunks per worker thread are in flight, so memory
    stays bounded by the chunk size.
    """
    import uuid

    from distributed import as_completed

    client, cluster, owned = _client(scheduler)
    token = uuid.uuid4().hex[:12]  # task keys unique to this run on a shared cluster
    try:
        slots = max(1, 2 * sum(client.nthreads().values()))
        pending = list(indices)[::-1]
        running = as_completed()
        index_of = {}

        def submit():
            index = pending.pop()
            key = f"trickgym-chunk-{index}-{token}"
            index_of[key] = index
            running.add(client.submit(_dask_task, spec, index, kind, threads, key=key))

        for _ in range(min(slots, len(pending))):
            submit()
        for future in running:
            result = future.result()
            index = index_of.pop(future.key)
            future.release()
            if tick is not None:
                start, stop = spec.chunk_range(index)
                tick(stop - start)
            if pending:
                submit()
            yield index, result
    finally:
        if owned:
            client.close()
        if cluster is not None:
            cluster.close()
