"""Helpers of the tests that run simulations: interrupt, resume, inspect datasets, quiet runs."""

from __future__ import annotations

import os


class Stop(Exception):
    """Raised from a chunk callback to interrupt a run."""


def stop_after(n_chunks: int):
    """An ``on_chunk`` callback that raises :class:`Stop` after ``n_chunks`` chunks."""
    seen = []

    def on_chunk(index, rows):
        seen.append(index)
        if len(seen) == n_chunks:
            raise Stop

    return on_chunk


def chunk_files(path) -> list[str]:
    """The chunk file names in a dataset folder, sorted."""
    return sorted(f for f in os.listdir(path) if f.startswith("chunk-"))


def local_cluster():
    """An in-process Dask cluster of two single-threaded workers and its client."""
    import contextlib

    import distributed

    stack = contextlib.ExitStack()
    cluster = stack.enter_context(
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        )
    )
    client = stack.enter_context(distributed.Client(cluster))
    return stack, cluster, client


COMPILE_NOTICE = "trickgym: numba is compiling "


def not_quiet(stderr: str) -> list[str]:
    """The lines of ``stderr`` a ``--quiet`` run must not print.

    Only the one-line notice of a cold compile is allowed there (it shows
    whenever this test happens to be the first to need a kernel).
    """
    return [line for line in stderr.splitlines() if not line.startswith(COMPILE_NOTICE)]


def as_written_before(path, drop=("chunks", "spec_sha256")) -> None:
    """Make the dataset folder ``path`` as an older trickgym wrote it.

    Before format 2 the metadata had no ``format`` key (and, earlier, no
    ``drop`` keys: the chunk records, the settings' digest, the dd keys)
    and the chunk files carried no settings stamp.
    """
    import hashlib
    import io
    import json

    import pyarrow.parquet as pq

    from trickgym.sim.run_metadata import FORMAT_KEY, METADATA_NAME, STAMP_KEY

    meta_file = os.path.join(path, METADATA_NAME)
    with open(meta_file) as f:
        meta = json.load(f)
    for key in (FORMAT_KEY, *drop):
        meta.pop(key, None)
    for name in chunk_files(path):
        file = os.path.join(path, name)
        table = pq.read_table(file)
        kept = {k: v for k, v in (table.schema.metadata or {}).items() if k != STAMP_KEY}
        sink = io.BytesIO()
        pq.write_table(table.replace_schema_metadata(kept), sink, compression="zstd")
        with open(file, "wb") as f:
            f.write(sink.getvalue())
        if "chunks" in meta:  # records kept: of the bytes as they are now
            index = str(int(name.split("-")[1]))
            meta["chunks"][index]["sha256"] = hashlib.sha256(sink.getvalue()).hexdigest()
    with open(meta_file, "w") as f:
        json.dump(meta, f)
