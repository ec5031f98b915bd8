"""A run's results as a Parquet dataset: one file per chunk, written as chunks finish.

Layout of a dataset folder::

    _trickgym_run.json                          the run's spec (see RunSpec.metadata)
    chunk-000000-deals-000000000000.parquet     chunk 0: deals 0 .. chunk-1
    chunk-000001-deals-000000065536.parquet     chunk 1, named by its first deal
    ...

A chunk file is written under a hidden temporary name and renamed into
place, so a killed run never leaves a half-written chunk; just before,
its first item, row count and SHA-256 are recorded under ``"chunks"`` in
the metadata, next to a digest of the run's settings (``"spec_sha256"``).
A run holds an exclusive lock on the folder (``_trickgym_run.lock``,
``fcntl.flock``) from start to end, so a second run or a ``--resume`` into
a folder in use is refused instead of mixing two runs; a finished run
removes the lock file.

Every read and every resume verifies the folder, whatever wrote it: the
metadata (its digest, ``n_chunks`` against ``count`` and ``chunk``, the
chunk records), every chunk file's name, and every chunk read, by its
record (SHA-256, row count) and by its content (the deal or match ids it
holds are exactly its range: a swapped or truncated chunk is caught even
in a folder written before chunks were recorded). Resuming checks that the
spec is the same and runs the chunks that are missing or damaged; reading
refuses a damaged chunk. :func:`verify_dataset` checks a whole folder
(``replay=True`` also replays each chunk's first deal or match from the
recorded settings) and with ``upgrade=True`` records the chunks and the
digest of an older folder.

Damaged or deleted metadata is rebuilt from the chunk files by running
the same simulation again with ``resume=True, rebuild=True``
(``--resume --rebuild-metadata``): the settings given are the run's, so
each chunk is checked by its content and, with built-in or registered
agents (a Python agent object could keep state from a replay), by
replaying its first deal or match with them (a chunk written with other
settings stops the rebuild and nothing is deleted); damaged chunks are
redone, a damaged metadata file is kept as ``_trickgym_run.json.damaged``. Temporary files of an
interrupted write are removed by the next run.

``pandas.read_parquet(folder)`` also reads the chunk files (it skips the
``_`` and ``.`` files) but checks nothing: use :func:`read_dataset` to get
verified rows in chunk order with the same dtypes as ``simulate`` returns.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..checks import check_flag, check_int, check_path, is_int
from .plan import RunSpec, chunk_bounds, count_chunks, spec_from_metadata

__all__ = [
    "DAMAGED_NAME",
    "LOCK_NAME",
    "METADATA_NAME",
    "Dataset",
    "check_columns",
    "frame_to_parquet",
    "read_dataset",
    "read_metadata",
    "verify_dataset",
]

METADATA_NAME = "_trickgym_run.json"
LOCK_NAME = "_trickgym_run.lock"
DAMAGED_NAME = METADATA_NAME + ".damaged"  # unreadable metadata, kept aside by a rebuild
SPEC_DIGEST = "spec_sha256"
_CHUNK = re.compile(r"^chunk-(\d{6,})-(deals|matches)-(\d{12,})\.parquet$")
# A write's temporary file (see _write_atomic): left behind only by a killed run or a full disk.
_TEMPORARY = re.compile(r"^\.(chunk-.*\.parquet|_trickgym_run\.json)\.tmp-\d+$")
REBUILD = (
    "rebuild it from the intact chunk files: run the same simulation again, with the "
    "same settings, and resume=True, rebuild=True (trickgym simulate ... --resume "
    "--rebuild-metadata)"
)


# Spec keys added to the metadata later (dd: issue 19), with the value every run
# recorded before them had, so such a run can still be resumed.
_ADDED_KEYS = {"dd": False, "dd_max_nodes": None}


@dataclass(frozen=True)
class _Layout:
    """How a run is cut into chunks, as its metadata records it (duck-types RunSpec)."""

    items: str
    first: int
    count: int
    chunk: int

    @property
    def n_chunks(self) -> int:
        return count_chunks(self.count, self.chunk)

    def chunk_range(self, index: int) -> tuple[int, int]:
        return chunk_bounds(self.first, self.count, self.chunk, index)


def _layout(meta: dict) -> _Layout:
    return _Layout(meta["items"], meta["first"], meta["count"], meta["chunk"])


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


def chunk_name(spec, index: int) -> str:
    """File name of chunk ``index``: its index and the first deal (or match) it holds."""
    return f"chunk-{index:06d}-{spec.items}-{spec.chunk_range(index)[0]:012d}.parquet"


def frame_to_parquet(frame: pd.DataFrame) -> bytes:
    """A chunk's rows as Parquet file bytes (the same frame always gives the same bytes)."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


def spec_digest(meta: dict) -> str:
    """SHA-256 of a run's settings as its metadata records them (all but the chunk records)."""
    spec = {k: v for k, v in meta.items() if k not in ("chunks", SPEC_DIGEST)}
    return _sha256(json.dumps(spec, sort_keys=True, separators=(",", ":")).encode())


def read_metadata(path) -> dict:
    """The run spec recorded in a dataset folder, checked.

    ``ValueError`` naming the file, and saying how to rebuild it, if it is
    missing, not valid JSON, or inconsistent (its digest, ``n_chunks``
    against ``count`` and ``chunk``, the chunk records).
    """
    folder = Path(path)
    meta = _load_metadata(folder)
    _check_metadata(folder / METADATA_NAME, meta)
    return meta


def _load_metadata(folder: Path) -> dict:
    """The metadata file's JSON object, unchecked (``ValueError`` if missing or unreadable)."""
    file = folder / METADATA_NAME
    if not file.is_file():
        hint = f"; its chunk files are there: {REBUILD}" if _raw_chunk_files(folder) else ""
        raise ValueError(f"{str(folder)!r} is not a trickgym dataset (no {METADATA_NAME}){hint}")
    try:
        meta = json.loads(file.read_bytes())
    except ValueError as err:  # JSONDecodeError, UnicodeDecodeError
        raise ValueError(_damaged(file, f"not valid JSON: {err}")) from None
    if not isinstance(meta, dict):
        raise ValueError(_damaged(file, "not a JSON object"))
    return meta


def _damaged(file: Path, problem: str) -> str:
    return (
        f"dataset metadata {str(file)!r} is damaged or was edited ({problem}); "
        f"restore it, or {REBUILD}"
    )


def _check_metadata(file: Path, meta: dict) -> None:
    """``ValueError`` naming ``file`` unless the metadata is whole and consistent."""

    def bad(problem: str):
        raise ValueError(_damaged(file, problem))

    for key in ("game", "agents", "seed", "items", "first", "count", "chunk", "n_chunks"):
        if key not in meta:
            bad(f"no {key!r}")
    if meta["items"] not in ("deals", "matches"):
        bad(f"items is {meta['items']!r}, not 'deals' or 'matches'")
    for key, low in (("first", 0), ("count", 1), ("chunk", 1), ("n_chunks", 1)):
        if not is_int(meta[key]) or meta[key] < low:
            bad(f"{key} is {meta[key]!r}, not an integer >= {low}")
    n = count_chunks(meta["count"], meta["chunk"])
    if meta["n_chunks"] != n:
        bad(
            f"n_chunks is {meta['n_chunks']}, but {meta['count']} {meta['items']} in chunks "
            f"of {meta['chunk']} make {n}"
        )
    if SPEC_DIGEST in meta and meta[SPEC_DIGEST] != spec_digest(meta):
        bad(
            f"the run's settings do not match their digest ({SPEC_DIGEST}): the seed, counts "
            "or other settings were changed after the run wrote them"
        )
    records = meta.get("chunks")
    if records is None:
        return
    if not isinstance(records, dict):
        bad("'chunks' is not a JSON object")
    layout = _layout(meta)
    for key, record in records.items():
        if not (key.isascii() and key.isdigit() and int(key) < n):
            bad(f"it records chunk {key!r}, not one of 0..{n - 1}")
        ok = (
            isinstance(record, dict)
            and record.get("first") == layout.chunk_range(int(key))[0]
            and is_int(record.get("rows"))
            and isinstance(record.get("sha256"), str)
        )
        if not ok:
            bad(f"the record of chunk {key} is {record!r}")


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a hidden temporary file and a rename.

    A failed write (a full disk) removes its temporary file and raises an
    ``OSError`` naming ``path``.
    """
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as err:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise OSError(err.errno, f"cannot write {path}: {err.strerror or err}") from err


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _lock_folder(folder: Path):
    """``(lock file, locked)``: an exclusive lock on ``folder``, or a ``ValueError``.

    ``fcntl.flock`` locks are released by the kernel when the process ends,
    however it ends, so a killed run never leaves the folder locked.
    Platforms without ``fcntl``, and file systems refusing locks, run
    unlocked (``locked`` false). A finished run deletes the lock file while
    holding its lock; whoever locked that deleted file meanwhile sees that
    the file at the path is another one, and locks that instead.
    """
    for _ in range(100):
        handle = open(folder / LOCK_NAME, "a+b")  # held until Dataset.close
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX
            return handle, False
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            break
        except OSError:  # pragma: no cover - a file system without locks (some NFS): run unlocked
            return handle, False
        held = os.fstat(handle.fileno())
        try:
            now = os.stat(folder / LOCK_NAME)
        except FileNotFoundError:
            now = None
        if now is not None and (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino):
            return handle, True
        handle.close()  # pragma: no cover - a run finished just now and removed its lock file
    raise ValueError(
        f"output folder {str(folder)!r} is in use by another run (it holds the lock "
        f"{LOCK_NAME}); wait for that run to end, or choose another folder"
    )


def _raw_chunk_files(folder: Path) -> dict[int, Path]:
    """The files named as chunks in ``folder``, by index (none if it is not a folder)."""
    found = {}
    if folder.is_dir():
        for file in folder.iterdir():
            match = _CHUNK.match(file.name)
            if match:
                found[int(match.group(1))] = file
    return found


def _chunk_files(folder: Path, layout) -> dict[int, Path]:
    """The chunk files of the run ``layout`` (a RunSpec or its metadata's layout), by index.

    ``ValueError`` for a file named as a chunk that is not one of this run's.
    """
    found = {}
    for file in folder.iterdir():
        match = _CHUNK.match(file.name)
        if not match:
            continue
        index = int(match.group(1))
        if index >= layout.n_chunks or file.name != chunk_name(layout, index):
            raise ValueError(
                f"{str(file)!r} is not a chunk of this run ({layout.n_chunks} chunks "
                f"of {layout.chunk} {layout.items}); remove it"
            )
        found[index] = file
    return found


def _record(layout, index: int, parquet: bytes) -> dict:
    """What the metadata records of a chunk: its first item, rows and SHA-256."""
    rows = pq.ParquetFile(pa.BufferReader(parquet)).metadata.num_rows
    return {"first": layout.chunk_range(index)[0], "rows": rows, "sha256": _sha256(parquet)}


def _chunk_problem(layout, index: int, data: bytes, record: dict | None) -> str | None:
    """What is wrong with chunk ``index`` held in ``data`` (``None``: nothing).

    Checked against its record (if any) and by its content: the ids of its
    deals (or matches), read alone, must be exactly the chunk's range, one
    row per deal (a match has one row or more). Cheap: one integer column.
    """
    if record is not None and _sha256(data) != record["sha256"]:
        return "does not match its recorded SHA-256"
    key = "deal" if layout.items == "deals" else "match"
    try:
        parquet = pq.ParquetFile(pa.BufferReader(data))
        rows = parquet.metadata.num_rows
        ids = parquet.read(columns=[key]).column(0).to_numpy()
    except (pa.ArrowException, OSError, KeyError, ValueError):
        return f"is not a readable chunk (truncated or damaged: no {key!r} column to read)"
    if record is not None and rows != record["rows"]:
        return f"has {rows} rows, its record {record['rows']}"
    start, stop = layout.chunk_range(index)
    if layout.items == "deals":
        ok = np.array_equal(ids, np.arange(start, stop))
    else:
        ok = len(ids) > 0 and bool(np.all(np.diff(ids) >= 0))
        ok = ok and np.array_equal(np.unique(ids), np.arange(start, stop))
    if not ok:
        held = f"{ids[0]}..{ids[-1]}" if len(ids) else "none"
        return (
            f"holds {layout.items} {held} in {rows} rows, not {layout.items} {start}..{stop - 1} "
            "(another chunk's content, or damaged)"
        )
    return None


def _replay_problem(spec: RunSpec, index: int, data: bytes) -> str | None:
    """``None`` if chunk ``index``'s first rows are what replaying its first item gives."""
    from .plan import rows_to_frame, run_chunk_rows

    part = spec.smallest_part(spec.chunk_range(index)[0])
    expected = rows_to_frame(part, run_chunk_rows(part, 0))
    got = pd.read_parquet(io.BytesIO(data)).iloc[: len(expected)].reset_index(drop=True)
    if got.equals(expected):
        return None
    return (
        f"was not written with these settings: replaying its first {spec.items} "
        f"({part.first}..{part.first + part.count - 1}) gives other rows (the seed, agents, "
        "options or trickgym version differ)"
    )


def _replayable(spec: RunSpec) -> bool:
    """Whether replaying a chunk's first item cannot change what the run's agents do.

    Built-in and registered agents are made afresh for each chunk; a Python
    agent object given to the run could keep state from the replay.
    """
    return all(isinstance(a, str) for a in spec.agents)


def _ours(name: str) -> bool:
    """Whether a file of this name belongs in a dataset folder."""
    return bool(
        name in (METADATA_NAME, LOCK_NAME, DAMAGED_NAME)
        or _CHUNK.match(name)
        or _TEMPORARY.match(name)
    )


def _remove_temporaries(folder: Path) -> None:
    """Delete the temporary files of interrupted writes (call only while holding the lock)."""
    for file in folder.iterdir():
        if _TEMPORARY.match(file.name):
            file.unlink(missing_ok=True)


class Dataset:
    """The output folder of one run: checks or records its spec, writes chunks.

    ``Dataset(path, spec, resume)`` locks the folder, creates it and its
    metadata, or with ``resume`` reopens a folder holding the same run
    (``ValueError`` naming every difference otherwise); with ``rebuild``
    also a folder whose metadata is missing or damaged (see the module's
    notes). ``missing`` lists the chunks still to run (missing or damaged);
    :meth:`close` releases the lock, and removes the lock file once every
    chunk is written (also a context manager).
    """

    def __init__(self, path, spec: RunSpec, resume: bool = False, rebuild: bool = False):
        self.path = Path(path)
        self.spec = spec
        self._lock, self._locked, self._meta, self._chunks = None, False, None, {}
        meta = spec.metadata()
        if self.path.exists() and not self.path.is_dir():
            raise ValueError(f"output {str(path)!r} is a file; give a folder for the dataset")
        if self.path.is_dir() and not (self.path / METADATA_NAME).exists():
            if not all(_ours(f.name) for f in self.path.iterdir()):
                raise ValueError(
                    f"output folder {str(path)!r} is not empty and holds no trickgym run; "
                    "choose a new or empty folder"
                )
            if _raw_chunk_files(self.path) and not rebuild:
                raise ValueError(
                    f"output folder {str(path)!r} holds chunk files but no {METADATA_NAME} "
                    f"(deleted?): to keep them, {REBUILD}; or choose another folder"
                )
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self._lock, self._locked = _lock_folder(self.path)
        except OSError as err:
            raise ValueError(
                f"out={str(path)!r} cannot be used as the dataset folder: "
                f"{err.strerror or err} ({err.filename or path})"
            ) from None
        try:
            self._open(meta, resume or rebuild, rebuild)
        except BaseException:
            self.close()
            raise

    def _open(self, meta: dict, resume: bool, rebuild: bool) -> None:
        path = self.path
        _remove_temporaries(path)  # we hold the lock: any temporary is a dead run's
        old = None
        if (path / METADATA_NAME).exists():
            try:
                old = read_metadata(path)
            except ValueError:
                if not rebuild:
                    raise
                os.replace(path / METADATA_NAME, path / DAMAGED_NAME)  # kept for a look
        if old is not None:
            self._chunks = dict(old.get("chunks", {}))
            # Written before chunks were recorded: its chunks are checked by content.
            self._unrecorded = "chunks" not in old
            if not resume:
                raise ValueError(
                    f"output folder {str(path)!r} already holds a run "
                    f"({len(_raw_chunk_files(path))} of {old['n_chunks']} chunks done); pass "
                    "resume=True (--resume) to complete it, or choose a new folder"
                )
            old = {k: v for k, v in old.items() if k not in ("chunks", SPEC_DIGEST)}
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
        else:
            self._chunks, self._unrecorded = {}, True
        # Rebuilding: the chunk files are checked against these settings by replaying them.
        self._replay = old is None and _replayable(self.spec)
        self._meta = meta
        self._write_metadata()

    def close(self) -> None:
        """Release the folder's lock; a finished run's lock file is removed first."""
        if self._lock is None:
            return
        try:
            if self._locked and self._complete():
                (self.path / LOCK_NAME).unlink(missing_ok=True)  # still held: see _lock_folder
        finally:
            self._lock.close()
            self._lock = None

    def _complete(self) -> bool:
        n = self.spec.n_chunks
        return (
            self._meta is not None
            and len(self._chunks) == n
            and all((self.path / chunk_name(self.spec, i)).is_file() for i in range(n))
        )

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _write_metadata(self) -> None:
        order = sorted(int(i) for i in self._chunks)
        meta = {
            **self._meta,
            SPEC_DIGEST: spec_digest(self._meta),
            "chunks": {str(i): self._chunks[str(i)] for i in order},
        }
        _write_atomic(self.path / METADATA_NAME, json.dumps(meta, indent=2).encode() + b"\n")

    def finished(self) -> list[int]:
        """Indices of the chunks already written and intact, checked against the spec.

        A chunk file that does not match its record or its range (truncated,
        another chunk's content, or never recorded because the run was
        killed just after writing it) is deleted, so that the chunk is run
        again. When the metadata is being rebuilt, a readable chunk whose
        first item replays to other rows stops the run (``ValueError``,
        nothing deleted): the settings given are not the run's.
        """
        done = []
        for index, file in sorted(_chunk_files(self.path, self.spec).items()):
            data = file.read_bytes()
            record = self._chunks.get(str(index))
            if record is None and not self._unrecorded:
                problem = "is not recorded"
            else:
                problem = _chunk_problem(self.spec, index, data, record)
            if problem is None and self._replay:
                replayed = _replay_problem(self.spec, index, data)
                if replayed is not None:
                    raise ValueError(
                        f"cannot rebuild the metadata of {str(self.path)!r}: chunk file "
                        f"{file.name} {replayed}; give the settings of the run that wrote "
                        "the folder"
                    )
            if problem is not None:
                file.unlink()
                self._chunks.pop(str(index), None)
                continue
            if record is None:
                self._chunks[str(index)] = _record(self.spec, index, data)
            done.append(index)
        self._write_metadata()
        return done

    def missing(self) -> list[int]:
        """Indices of the chunks still to run (missing or damaged), in order."""
        done = set(self.finished())
        return [i for i in range(self.spec.n_chunks) if i not in done]

    def write(self, index: int, parquet: bytes) -> None:
        """Store chunk ``index`` (Parquet bytes from :func:`frame_to_parquet`) and record it."""
        # Recorded first: a chunk file in place always has its record (a kill between the
        # two leaves a record without a file, and the chunk is run again).
        self._chunks[str(index)] = _record(self.spec, index, parquet)
        self._write_metadata()
        _write_atomic(self.path / chunk_name(self.spec, index), parquet)


def _recorded_chunk_problem(layout, index: int, data: bytes, records: dict | None):
    """What is wrong with chunk ``index``'s bytes against ``records`` (None: no records kept)."""
    record = None if records is None else records.get(str(index))
    if records is not None and record is None:
        return "is not recorded"
    return _chunk_problem(layout, index, data, record)


def _checked_chunk(path, layout, index: int, file: Path, records: dict | None) -> bytes:
    """Chunk ``index``'s file bytes, verified (``ValueError`` saying what is wrong)."""
    data = file.read_bytes()
    problem = _recorded_chunk_problem(layout, index, data, records)
    if problem is not None:
        raise ValueError(
            f"dataset {str(path)!r}: chunk file {file.name} {problem}; resume the run "
            "(resume=True, --resume) to redo it"
        )
    return data


def read_dataset(
    path, columns: list[str] | None = None, partial: bool = False, chunks=None
) -> pd.DataFrame:
    """The rows of a dataset folder in chunk order, as ``simulate`` would return them.

    ``columns`` reads only those columns (cheap: Parquet is columnar), and
    ``chunks`` only those chunk indices. An unfinished run raises
    ``ValueError`` unless ``partial`` is true. The metadata and every chunk
    read are verified first (see the module's notes): a damaged or edited
    folder raises ``ValueError`` saying what is wrong.
    """
    check_path("path", path)
    partial = check_flag("partial", partial)
    meta = read_metadata(path)
    layout = _layout(meta)
    files = _chunk_files(Path(path), layout)
    recorded = meta.get("chunks")  # None: written before chunks were recorded
    if recorded is not None and partial:  # a chunk being recorded right now is not there yet
        files = {i: f for i, f in files.items() if str(i) in recorded}
    n = layout.n_chunks
    missing = [i for i in range(n) if i not in files]
    if missing and not partial:
        raise ValueError(
            f"dataset {str(path)!r} is unfinished: {len(missing)} of {n} chunks "
            "missing (resume the run, or pass partial=True)"
        )
    if chunks is not None:
        if isinstance(chunks, str) or not hasattr(chunks, "__iter__"):
            raise ValueError(f"chunks must be a list of chunk indices 0..{n - 1}, got {chunks!r}")
        chunks = [check_int("each of chunks (a chunk index)", i, 0, n - 1) for i in chunks]
        absent = [i for i in chunks if i not in files]
        if absent:
            raise ValueError(f"dataset {str(path)!r} has no chunk(s) {absent}")
        files = {i: files[i] for i in chunks}
    if not files:
        raise ValueError(f"dataset {str(path)!r} holds no chunks yet")
    data = {i: _checked_chunk(path, layout, i, files[i], recorded) for i in sorted(files)}
    if columns is not None:
        columns = check_columns(columns, pq.read_schema(pa.BufferReader(data[min(data)])).names)
    parts = [pd.read_parquet(io.BytesIO(data[i]), columns=columns) for i in sorted(data)]
    return pd.concat(parts, ignore_index=True)


def verify_dataset(path, upgrade: bool = False, replay: bool = False) -> dict:
    """Check a whole dataset folder; ``ValueError`` listing every problem found.

    Checks the metadata and every chunk file (see the module's notes).
    ``replay`` also replays each chunk's first deal (or match) from the
    recorded settings and compares the rows, which catches a chunk of
    another seed; it needs the run's agents to be built-in or registered,
    and the trickgym version that wrote it. ``upgrade`` writes the chunk
    records and the settings' digest into the metadata of a folder written
    before they were recorded (under the folder's lock; only once every
    chunk present is intact). Returns ``{"n_chunks", "verified", "missing",
    "upgraded"}``: the chunk count, the indices verified, those missing,
    and whether the metadata was upgraded.
    """
    folder = Path(path)
    meta = read_metadata(folder)
    layout = _layout(meta)
    spec = spec_from_metadata({**_ADDED_KEYS, **meta}) if replay else None
    files = _chunk_files(folder, layout)
    records = meta.get("chunks")
    problems, verified, found = [], [], {}
    for index, file in sorted(files.items()):
        data = file.read_bytes()
        problem = _recorded_chunk_problem(layout, index, data, records)
        if problem is None and spec is not None:
            problem = _replay_problem(spec, index, data)
        if problem is not None:
            problems.append(f"chunk file {file.name} {problem}")
            continue
        verified.append(index)
        found[str(index)] = _record(layout, index, data)
    if problems:
        raise ValueError(
            f"dataset {str(path)!r}: " + "; ".join(problems) + "; resume the run "
            "(resume=True, --resume) to redo the damaged chunks"
        )
    upgraded = False
    if upgrade and (records is None or SPEC_DIGEST not in meta):
        handle, locked = _lock_folder(folder)
        try:
            if _load_metadata(folder) != meta:
                raise ValueError(f"dataset {str(path)!r} changed while it was verified; try again")
            spec_meta = {k: v for k, v in meta.items() if k not in ("chunks", SPEC_DIGEST)}
            new = {**spec_meta, SPEC_DIGEST: spec_digest(spec_meta), "chunks": found}
            _write_atomic(folder / METADATA_NAME, json.dumps(new, indent=2).encode() + b"\n")
            upgraded = True
            if locked:
                (folder / LOCK_NAME).unlink(missing_ok=True)  # still held: see _lock_folder
        finally:
            handle.close()
    missing = [i for i in range(layout.n_chunks) if i not in files]
    return {
        "n_chunks": layout.n_chunks,
        "verified": verified,
        "missing": missing,
        "upgraded": upgraded,
    }
