"""A run's results as a Parquet dataset: one file per chunk, written as chunks finish.

Layout of a dataset folder::

    _trickgym_run.json                          the run's spec (see RunSpec.metadata)
    chunk-000000-deals-000000000000.parquet     chunk 0: deals 0 .. chunk-1
    chunk-000001-deals-000000065536.parquet     chunk 1, named by its first deal
    ...

A chunk file is written under a hidden temporary name and renamed into
place, so a killed run never leaves a half-written chunk; just before,
its first item, row count and SHA-256 are recorded under ``"chunks"`` in
the metadata. A run holds an exclusive lock on the folder (``_trickgym_run.lock``,
``fcntl.flock``) from start to end, so a second run or a ``--resume`` into
a folder in use is refused instead of mixing two runs. Resuming checks that
the spec is the same, verifies every chunk file against its record and runs
the chunks that are missing or damaged (a truncated, swapped or unrecorded
file is redone, never skipped); :func:`read_dataset` verifies the chunks it
reads. Readers such as
``pandas.read_parquet(folder)`` skip the ``_`` and ``.`` files; use
:func:`read_dataset` to get the rows in chunk order with the same dtypes as
``simulate`` returns.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .plan import RunSpec

__all__ = [
    "LOCK_NAME",
    "METADATA_NAME",
    "Dataset",
    "check_columns",
    "frame_to_parquet",
    "read_dataset",
    "read_metadata",
]

METADATA_NAME = "_trickgym_run.json"
LOCK_NAME = "_trickgym_run.lock"
_CHUNK = re.compile(r"^chunk-(\d{6,})-(deals|matches)-(\d{12,})\.parquet$")


# Spec keys added to the metadata later (dd: issue 19), with the value every run
# recorded before them had, so such a run can still be resumed.
_ADDED_KEYS = {"dd": False, "dd_max_nodes": None}


def check_columns(columns, available) -> list[str]:
    """``columns`` as a list of names that all exist, or a ``ValueError`` naming the unknown ones.

    One string is refused with a hint (a string is a sequence of letters:
    ``columns="contract"`` is not the columns ``c, o, n, t ...``).
    """
    if isinstance(columns, str):
        raise ValueError(
            f"columns must be a list of column names, got the string {columns!r} "
            f"(for one column: columns=[{columns!r}])"
        )
    columns = list(columns)
    available = list(available)
    missing = [c for c in columns if c not in available]
    if missing:
        raise ValueError(
            f"unknown column(s) {', '.join(map(repr, missing))}; have: {', '.join(available)}"
        )
    return columns


def chunk_name(spec: RunSpec, index: int) -> str:
    """File name of chunk ``index``: its index and the first deal (or match) it holds."""
    return f"chunk-{index:06d}-{spec.items}-{spec.chunk_range(index)[0]:012d}.parquet"


def frame_to_parquet(frame: pd.DataFrame) -> bytes:
    """A chunk's rows as Parquet file bytes (the same frame always gives the same bytes)."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


def read_metadata(path) -> dict:
    """The run spec recorded in a dataset folder."""
    file = Path(path) / METADATA_NAME
    if not file.is_file():
        raise ValueError(f"{str(path)!r} is not a trickgym dataset (no {METADATA_NAME})")
    return json.loads(file.read_text())


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a hidden temporary file and a rename."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _lock_folder(folder: Path):
    """An open lock file holding an exclusive lock on ``folder``, or a ``ValueError``.

    ``fcntl.flock`` locks are released by the kernel when the process ends,
    however it ends, so a killed run never leaves the folder locked.
    Platforms without ``fcntl``, and file systems refusing locks, run unlocked.
    """
    handle = open(folder / LOCK_NAME, "a+b")  # held until Dataset.close
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return handle
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise ValueError(
            f"output folder {str(folder)!r} is in use by another run (it holds the lock "
            f"{LOCK_NAME}); wait for that run to end, or choose another folder"
        ) from None
    except OSError:  # pragma: no cover - a file system without locks (some NFS): run unlocked
        pass
    return handle


class Dataset:
    """The output folder of one run: checks or records its spec, writes chunks.

    ``Dataset(path, spec, resume)`` locks the folder, creates it and its
    metadata, or with ``resume`` reopens a folder holding the same run
    (``ValueError`` naming every difference otherwise); ``missing`` lists
    the chunks still to run (missing or damaged); :meth:`close` releases the
    lock (also a context manager).
    """

    def __init__(self, path, spec: RunSpec, resume: bool = False):
        self.path = Path(path)
        self.spec = spec
        meta = spec.metadata()
        if self.path.exists() and not self.path.is_dir():
            raise ValueError(f"output {str(path)!r} is a file; give a folder for the dataset")
        if self.path.is_dir() and not (self.path / METADATA_NAME).is_file():
            if any(f.name != LOCK_NAME for f in self.path.iterdir()):
                raise ValueError(
                    f"output folder {str(path)!r} is not empty and holds no trickgym run; "
                    "choose a new or empty folder"
                )
        self.path.mkdir(parents=True, exist_ok=True)
        self._lock = _lock_folder(self.path)
        try:
            self._open(meta, resume)
        except BaseException:
            self.close()
            raise

    def _open(self, meta: dict, resume: bool) -> None:
        path = self.path
        if (path / METADATA_NAME).is_file():
            old = read_metadata(path)
            self._chunks = dict(old.get("chunks", {}))
            self._legacy = "chunks" not in old  # written before chunks were recorded
            done = len(self._finished_files())
            if not resume:
                raise ValueError(
                    f"output folder {str(path)!r} already holds a run ({done} of "
                    f"{old.get('n_chunks', '?')} chunks done); pass resume=True (--resume) "
                    "to complete it, or choose a new folder"
                )
            old = {k: v for k, v in old.items() if k != "chunks"}
            old = {**_ADDED_KEYS, **old}  # a folder written before these keys were recorded
            diffs = [
                f"{k}: folder has {old.get(k)!r}, this run {meta[k]!r}"
                for k in meta
                if old.get(k) != meta[k]
            ]
            diffs += [
                f"{k}: folder has {old[k]!r}, this run has none" for k in old if k not in meta
            ]
            if diffs:
                raise ValueError(
                    f"cannot resume into {str(path)!r}: the run differs from the one started "
                    "there (" + "; ".join(diffs) + ")"
                )
            self._remove_stale_temporaries()
        else:
            self._chunks, self._legacy = {}, False
        self._meta = meta
        self._write_metadata()

    def close(self) -> None:
        """Release the folder's lock."""
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _write_metadata(self) -> None:
        meta = {**self._meta, "chunks": {str(i): self._chunks[str(i)] for i in self._order()}}
        _write_atomic(self.path / METADATA_NAME, json.dumps(meta, indent=2).encode() + b"\n")

    def _order(self) -> list[int]:
        return sorted(int(i) for i in self._chunks)

    def _finished_files(self) -> dict[int, Path]:
        found = {}
        for file in self.path.iterdir():
            match = _CHUNK.match(file.name)
            if match:
                found[int(match.group(1))] = file
        return found

    def _remove_stale_temporaries(self) -> None:
        """Delete temporary chunk files a killed run left behind (we hold the lock)."""
        for file in self.path.iterdir():
            if file.name.startswith(".chunk-") and ".tmp-" in file.name:
                file.unlink(missing_ok=True)

    def finished(self) -> list[int]:
        """Indices of the chunks already written and intact, checked against the spec.

        A chunk file that does not match its record (truncated, another
        chunk's content, or never recorded because the run was killed just
        after writing it) is deleted, so that the chunk is run again.
        """
        done = []
        for index, file in sorted(self._finished_files().items()):
            if index >= self.spec.n_chunks or file.name != chunk_name(self.spec, index):
                raise ValueError(
                    f"{str(file)!r} is not a chunk of this run ({self.spec.n_chunks} chunks "
                    f"of {self.spec.chunk} {self.spec.items}); remove it"
                )
            data = file.read_bytes()
            record = self._chunks.get(str(index))
            if record is None and self._legacy:
                record = self._record(index, data)  # trusted if it reads, and recorded now
                if record is not None:
                    self._chunks[str(index)] = record
            if record is None or _sha256(data) != record["sha256"]:
                file.unlink()
                self._chunks.pop(str(index), None)
                continue
            done.append(index)
        self._write_metadata()
        return done

    def _record(self, index: int, parquet: bytes) -> dict | None:
        """What the metadata records of a chunk: first item, rows, SHA-256 (None: unreadable)."""
        try:
            rows = pq.ParquetFile(pa.BufferReader(parquet)).metadata.num_rows
        except (pa.ArrowException, OSError):
            return None
        return {"first": self.spec.chunk_range(index)[0], "rows": rows, "sha256": _sha256(parquet)}

    def missing(self) -> list[int]:
        """Indices of the chunks still to run (missing or damaged), in order."""
        done = set(self.finished())
        return [i for i in range(self.spec.n_chunks) if i not in done]

    def write(self, index: int, parquet: bytes) -> None:
        """Store chunk ``index`` (Parquet bytes from :func:`frame_to_parquet`) and record it."""
        # Recorded first: a chunk file in place always has its record (a kill between the
        # two leaves a record without a file, and the chunk is run again).
        self._chunks[str(index)] = self._record(index, parquet)
        self._write_metadata()
        _write_atomic(self.path / chunk_name(self.spec, index), parquet)


def _verify(path, index: int, file: Path, meta: dict) -> None:
    """``ValueError`` unless chunk ``index``'s file matches its record in the metadata."""
    record = meta["chunks"].get(str(index))
    if record is None or _sha256(file.read_bytes()) != record["sha256"]:
        what = "is not recorded" if record is None else "does not match its recorded SHA-256"
        raise ValueError(
            f"dataset {str(path)!r}: chunk file {file.name} {what} (damaged, or another "
            "chunk's); resume the run (resume=True, --resume) to redo it"
        )


def read_dataset(
    path, columns: list[str] | None = None, partial: bool = False, chunks=None
) -> pd.DataFrame:
    """The rows of a dataset folder in chunk order, as ``simulate`` would return them.

    ``columns`` reads only those columns (cheap: Parquet is columnar), and
    ``chunks`` only those chunk indices. An unfinished run raises
    ``ValueError`` unless ``partial`` is true.
    """
    meta = read_metadata(path)
    files = {}
    for file in Path(path).iterdir():
        match = _CHUNK.match(file.name)
        if match:
            files[int(match.group(1))] = file
    recorded = meta.get("chunks")  # None: written before chunks were recorded
    if recorded is not None and partial:  # a chunk being recorded right now is not there yet
        files = {i: f for i, f in files.items() if str(i) in recorded}
    missing = [i for i in range(meta["n_chunks"]) if i not in files]
    if missing and not partial:
        raise ValueError(
            f"dataset {str(path)!r} is unfinished: {len(missing)} of {meta['n_chunks']} chunks "
            "missing (resume the run, or pass partial=True)"
        )
    if chunks is not None:
        absent = [i for i in chunks if i not in files]
        if absent:
            raise ValueError(f"dataset {str(path)!r} has no chunk(s) {absent}")
        files = {i: files[i] for i in chunks}
    if not files:
        raise ValueError(f"dataset {str(path)!r} holds no chunks yet")
    if recorded is not None:
        for i in sorted(files):
            _verify(path, i, files[i], meta)
    if columns is not None:
        columns = check_columns(columns, pq.read_schema(files[min(files)]).names)
    parts = [pd.read_parquet(files[i], columns=columns) for i in sorted(files)]
    return pd.concat(parts, ignore_index=True)
