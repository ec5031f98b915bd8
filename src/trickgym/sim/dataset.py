"""A run's results as a Parquet dataset: one file per chunk, written as chunks finish.

Layout of a dataset folder::

    _trickgym_run.json                          the run's spec (see RunPlan.metadata)
    chunk-000000-deals-000000000000.parquet     chunk 0: deals 0 .. chunk-1
    chunk-000001-deals-000000065536.parquet     chunk 1, named by its first deal
    ...
    _steps-000000-deals-000000000000.parquet    with trajectories: chunk 0's decisions
    ...

A run with trajectories (:mod:`trickgym.sim.recording`) writes each
chunk's decisions to its steps file just before the chunk file; the
chunk's record then also holds ``steps_rows`` and ``steps_sha256``, the
file carries the same settings stamp, and every check below covers it too
(its record, its stamp, the deal ids it holds); a chunk whose steps file
is missing or damaged is redone on resume.

A chunk file is written under a hidden temporary name and renamed into
place, so a killed run never leaves a half-written chunk; just before,
its first item, row count and SHA-256 are recorded under ``"chunks"`` in
the metadata, next to a digest of the run's settings (``"spec_sha256"``),
which every chunk file also carries as its stamp (see
:mod:`trickgym.sim.run_metadata`: an edit of the metadata alone is caught,
whatever it deletes or recomputes). Files are read and written through
:mod:`trickgym.sim.folder_io`: never through a link, never a FIFO or a
directory named as a chunk.
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
redone, a damaged metadata file is kept as ``_trickgym_run.json.damaged``.
Everything is checked before the metadata is rewritten: a refused rebuild
changes nothing. A readable metadata file whose settings differ from the
run's is replaced by a rebuild only when every chunk file in the folder is
shown to be that run's (its stamp, or a replay). Temporary files of an
interrupted write are removed by the next run.

``pandas.read_parquet(folder)`` also reads the chunk files (it skips the
``_`` and ``.`` files) but checks nothing: use :func:`read_dataset` to get
verified rows in chunk order with the same dtypes as ``simulate`` returns.
"""

from __future__ import annotations

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

from ..checks import check_flag, check_int, check_path
from .folder_io import LOCK_NAME, NotRegularFile, lock_folder, read_regular, remove_entry
from .folder_io import write_atomic as _write_atomic
from .plan import (
    MAX_CHUNK_ROWS,
    MAX_CHUNKS,
    MAX_ITEMS,
    RunPlan,
    chunk_bounds,
    count_chunks,
    spec_from_metadata,
)
from .recording import run_chunk_steps, steps_table
from .run_metadata import (
    ADDED_KEYS,
    FORMAT,
    FORMAT_KEY,
    MAX_METADATA_BYTES,
    METADATA_NAME,
    REBUILD,
    SPEC_DIGEST,
    STAMP_KEY,
    check_metadata,
    damaged,
    settings_of,
    spec_digest,
    stamp,
    written_settings,
)

__all__ = [
    "DAMAGED_NAME",
    "LOCK_NAME",
    "METADATA_NAME",
    "Dataset",
    "check_column_list",
    "check_columns",
    "frame_to_parquet",
    "read_dataset",
    "read_metadata",
    "steps_name",
    "table_to_parquet",
    "verify_dataset",
]

DAMAGED_NAME = METADATA_NAME + ".damaged"  # unreadable metadata, kept aside by a rebuild
_CHUNK = re.compile(r"^chunk-(\d{6,})-(deals|matches)-(\d{12,})\.parquet$")
# A chunk's decisions in a run with trajectories (see steps_name); the leading ``_`` keeps
# them out of ``pandas.read_parquet(folder)``, which reads the per-deal chunks.
_STEPS = re.compile(r"^_steps-(\d{6,})-(deals|matches)-(\d{12,})\.parquet$")
# A write's temporary file (see folder_io.write_atomic): left behind only by a killed run or a
# full disk (``-RANDOM``: this version's unpredictable suffix).
_TEMPORARY = re.compile(
    r"^\.(chunk-.*\.parquet|_steps-.*\.parquet|_trickgym_run\.json)\.tmp-\d+(-[0-9a-f]{8})?$"
)
# A chunk file larger than this was not written by a run (a chunk holds at most 2**22 rows).
MAX_CHUNK_BYTES = 1 << 32
_REDO = "resume the run (resume=True, --resume) to redo it"


@dataclass(frozen=True)
class _Layout:
    """How a run is cut into chunks, as its metadata records it (duck-types RunPlan)."""

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


def check_column_list(columns) -> list[str]:
    """``columns`` as a non-empty list of distinct names, before knowing which exist.

    A string is refused with a hint (a string is a sequence of letters:
    ``columns="contract"`` is not the columns ``c, o, n, t ...``).
    """
    if isinstance(columns, str):
        raise ValueError(
            f"columns must be a list of column names, got the string {columns!r} "
            f"(for one column: columns=[{columns!r}])"
        )
    if not isinstance(columns, list | tuple) or not columns:
        raise ValueError(
            f"columns must be a non-empty list of column names (or None for all), got {columns!r}"
        )
    for c in columns:
        if not isinstance(c, str):
            raise ValueError(f"columns must hold column names (strings), got {c!r} in {columns!r}")
    twice = sorted({c for c in columns if columns.count(c) > 1})
    if twice:
        raise ValueError(
            f"columns names {', '.join(map(repr, twice))} more than once; name each column once"
        )
    return list(columns)


def check_columns(columns, available) -> list[str]:
    """``columns`` as a list of distinct names that all exist, or a ``ValueError`` naming why."""
    columns = check_column_list(columns)
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


def steps_name(spec, index: int) -> str:
    """File name of chunk ``index``'s decisions (a run with trajectories): ``_steps-...``."""
    return "_steps" + chunk_name(spec, index).removeprefix("chunk")


def table_to_parquet(table: pa.Table) -> bytes:
    """A table as Parquet file bytes, compressed as the chunks are (same table, same bytes)."""
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


def frame_to_parquet(frame: pd.DataFrame, settings_stamp: bytes | None = None) -> bytes:
    """A chunk's rows as Parquet file bytes (the same frame always gives the same bytes).

    ``settings_stamp`` (the run's settings digest) is kept in the file's
    key-value metadata, binding the chunk to the settings that made it.
    """
    table = pa.Table.from_pandas(frame, preserve_index=False)
    if settings_stamp is not None:
        table = table.replace_schema_metadata(
            {**(table.schema.metadata or {}), STAMP_KEY: settings_stamp}
        )
    return table_to_parquet(table)


def read_metadata(path) -> dict:
    """The run spec recorded in a dataset folder, checked.

    ``ValueError`` naming the file, and saying how to rebuild it, if it is
    missing, not a regular file, not valid JSON, or inconsistent (its
    format, digest, value types and ranges, ``n_chunks`` against ``count``
    and ``chunk``, the chunk records).
    """
    folder = Path(path)
    meta = _load_metadata(folder)
    check_metadata(folder / METADATA_NAME, meta, MAX_CHUNKS, MAX_ITEMS)
    return meta


def _load_metadata(folder: Path) -> dict:
    """The metadata file's JSON object, unchecked (``ValueError`` if missing or unreadable)."""
    file = folder / METADATA_NAME
    try:
        data = read_regular(file, "dataset metadata", f"move it aside and {REBUILD}",
                            MAX_METADATA_BYTES)  # fmt: skip
    except (FileNotFoundError, NotADirectoryError):
        if folder.exists() and not folder.is_dir():
            raise ValueError(f"{str(folder)!r} is a file, not a dataset folder") from None
        hint = f"; its chunk files are there: {REBUILD}" if _raw_chunk_files(folder) else ""
        raise ValueError(
            f"{str(folder)!r} is not a trickgym dataset (no {METADATA_NAME}){hint}"
        ) from None
    try:
        meta = json.loads(data)
    except (ValueError, RecursionError) as err:  # JSONDecodeError, UnicodeDecodeError, nesting
        raise ValueError(damaged(file, f"not valid JSON: {str(err)[:120]}")) from None
    if not isinstance(meta, dict):
        raise ValueError(damaged(file, "not a JSON object"))
    return meta


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _raw_chunk_files(folder: Path) -> dict[int, Path]:
    """The entries named as chunks in ``folder``, by index (none if it is not a folder)."""
    found = {}
    if folder.is_dir():
        for file in folder.iterdir():
            match = _CHUNK.match(file.name)
            if match:
                found[int(match.group(1))] = file
    return found


def _chunk_files(folder: Path, layout, fix: str = "remove it") -> dict[int, Path]:
    """The chunk files of the run ``layout`` (a RunPlan or its metadata's layout), by index.

    ``ValueError`` for a file named as a chunk that is not one of this
    run's, ending with ``fix`` (what to do about it).
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
                f"of {layout.chunk} {layout.items}); {fix}"
            )
        found[index] = file
    return found


def _read_chunk(file: Path) -> bytes:
    """A chunk file's bytes (``NotRegularFile`` if it is a link, a FIFO, a directory...)."""
    return read_regular(file, "chunk file", f"remove it and {_REDO}", MAX_CHUNK_BYTES)


def _record(layout, index: int, parquet: bytes, steps: bytes | None = None) -> dict:
    """What the metadata records of a chunk: its first item, rows and SHA-256.

    With ``steps`` (the chunk's decisions, a run with trajectories) also
    their rows and SHA-256.
    """
    rows = pq.ParquetFile(pa.BufferReader(parquet)).metadata.num_rows
    record = {"first": layout.chunk_range(index)[0], "rows": rows, "sha256": _sha256(parquet)}
    if steps is not None:
        record["steps_rows"] = pq.ParquetFile(pa.BufferReader(steps)).metadata.num_rows
        record["steps_sha256"] = _sha256(steps)
    return record


def _stamp_of(parquet: bytes) -> bytes | None:
    """The settings stamp a chunk's bytes carry (``None``: written before stamps)."""
    return (pq.ParquetFile(pa.BufferReader(parquet)).schema_arrow.metadata or {}).get(STAMP_KEY)


def _footer_problem(data: bytes, record_sha, record_rows, expected, what: str, key: str):
    """``(problem, parquet, rows)``: what a chunk and a steps file are checked for alike.

    From the footer alone: the SHA-256 against the record (if any), the
    settings stamp against ``expected`` (a chunk written before stamps has
    none; a steps file always has one), the row count against the record.
    Bytes that differ from their record are never decoded past the footer.
    """
    altered = record_sha is not None and _sha256(data) != record_sha
    try:
        parquet = pq.ParquetFile(pa.BufferReader(data))
        rows = parquet.metadata.num_rows
        held = (parquet.schema_arrow.metadata or {}).get(STAMP_KEY)
    except (pa.ArrowException, OSError, KeyError, ValueError, IndexError):
        problem = "does not match its recorded SHA-256" if altered else _unreadable(what, key)
        return problem, None, 0
    stamped = what != "chunk"  # chunks of runs before stamps carry none
    if expected is not None and held != expected and (stamped or held is not None):
        problem = (
            "was written with other settings than the metadata records (its settings stamp "
            f"differs{' or is missing' if stamped else ''}): the metadata was edited after the "
            f"run, or the {'file' if stamped else 'chunk'} is another run's"
        )
        return problem, None, 0
    if altered:
        return "does not match its recorded SHA-256", None, 0
    if record_rows is not None and rows != record_rows:
        return f"has {rows} rows, its record {record_rows}", None, 0
    return None, parquet, rows


def _unreadable(what: str, key: str) -> str:
    """The message for a file whose id column cannot be read."""
    return f"is not a readable {what} (truncated or damaged: no {key!r} column to read)"


def _sizes_fit(parquet, key: str, rows: int, least: int, most: int) -> bool:
    """Whether the footer's row count and ``key`` column size fit a chunk (checked before
    the column is read: a crafted file cannot make the reader allocate more)."""
    return least <= rows <= most and _column_bytes(parquet, key) <= 16 * rows + (1 << 20)


def _read_ids(parquet, key: str) -> np.ndarray | None:
    """The ``key`` column alone (``None``: unreadable)."""
    try:
        return parquet.read(columns=[key], use_threads=False).column(0).to_numpy()
    except (pa.ArrowException, OSError, KeyError, ValueError, IndexError):
        return None


def _cover(ids: np.ndarray, start: int, stop: int) -> bool:
    """Whether sorted ``ids`` hold every id of ``start .. stop-1`` and no other."""
    ok = len(ids) > 0 and bool(np.all(np.diff(ids) >= 0))
    return ok and np.array_equal(np.unique(ids), np.arange(start, stop))


def _file_ids(layout, index: int, data: bytes, record: dict | None, expected, checked):
    """The checks a chunk and its steps file share; ``(problem, ids, rows)``.

    ``checked`` (``_CHUNK_FILE``, ``_STEPS_FILE``): ``(what, sha_field,
    rows_field, max_rows, misfit)``: the file's name in messages, the fields
    of its record, the most rows it may hold, and the message (``str.format``
    with ``rows``, ``items``, ``first``, ``last``) when its footer's sizes do
    not fit the chunk.
    ``problem`` is ``None`` once the footer passed and the deal (or match)
    ids were read.
    """
    what, sha_field, rows_field, max_rows, misfit = checked
    key = "deal" if layout.items == "deals" else "match"
    sha, rows_recorded = (record[sha_field], record[rows_field]) if record else (None, None)
    problem, parquet, rows = _footer_problem(data, sha, rows_recorded, expected, what, key)
    if problem:
        return problem, None, rows
    start, stop = layout.chunk_range(index)
    if not _sizes_fit(parquet, key, rows, stop - start, max_rows):
        return misfit.format(rows=rows, items=layout.items, first=start, last=stop - 1), None, rows
    ids = _read_ids(parquet, key)
    if ids is None:
        return _unreadable(what, key), None, rows
    return None, ids, rows


_CHUNK_FILE = (
    "chunk",
    "sha256",
    "rows",
    MAX_CHUNK_ROWS,
    "holds {rows} rows, not the {items} {first}..{last} (damaged)",
)


def _chunk_problem(layout, index: int, data: bytes, record: dict | None, expected) -> str | None:
    """What is wrong with chunk ``index`` held in ``data`` (``None``: nothing).

    Checked against its record (if any), its settings stamp (if it has one:
    it must be ``expected``, the folder's settings digest) and by its
    content: the ids of its deals (or matches), read alone, must be exactly
    the chunk's range, one row per deal (a match has one row or more).
    Cheap: the footer and one integer column. Bytes that differ from their
    record are never decoded beyond the footer, and the footer's sizes are
    checked before the column is read (a crafted file cannot make the
    reader allocate more than a real chunk needs).
    """
    problem, ids, rows = _file_ids(layout, index, data, record, expected, _CHUNK_FILE)
    if problem:
        return problem
    start, stop = layout.chunk_range(index)
    if layout.items == "deals":
        ok = np.array_equal(ids, np.arange(start, stop))
    else:
        ok = _cover(ids, start, stop)
    if not ok:
        held_ids = f"{ids[0]}..{ids[-1]}" if len(ids) else "none"
        return (
            f"holds {layout.items} {held_ids} in {rows} rows, not {layout.items} "
            f"{start}..{stop - 1} (another chunk's content, or damaged)"
        )
    return None


# Decisions a steps file may hold: a deal has fewer than 256.
MAX_STEP_ROWS = MAX_CHUNK_ROWS * 256
_STEPS_FILE = (
    "steps file",
    "steps_sha256",
    "steps_rows",
    MAX_STEP_ROWS,
    "holds {rows} decisions, too few or too many for {items} {first}..{last}",
)


def _steps_problem(layout, index: int, data: bytes, record: dict | None, expected) -> str | None:
    """What is wrong with chunk ``index``'s steps file held in ``data`` (``None``: nothing).

    Checked as :func:`_chunk_problem` checks a chunk: against its record
    (``steps_sha256``, ``steps_rows``), its settings stamp (always written:
    it must be ``expected``) and its content: its deal (or match) ids,
    sorted, must cover exactly the chunk's range (every deal has a decision).
    """
    problem, ids, _ = _file_ids(layout, index, data, record, expected, _STEPS_FILE)
    if problem:
        return problem
    start, stop = layout.chunk_range(index)
    if not _cover(ids, start, stop):
        return (
            f"holds the decisions of other {layout.items} than {start}..{stop - 1} "
            "(another chunk's content, or damaged)"
        )
    return None


def _read_steps(file: Path) -> bytes:
    """A steps file's bytes (``NotRegularFile`` if it is a link, a FIFO, a directory...)."""
    return read_regular(file, "steps file", f"remove it and {_REDO}", MAX_CHUNK_BYTES)


def _column_bytes(parquet, name: str) -> int:
    """Uncompressed bytes the footer declares for column ``name`` (what reading it allocates)."""
    meta = parquet.metadata
    names = [meta.schema.column(i).name for i in range(meta.num_columns)]
    if name not in names:
        return 0  # reading it fails cleanly
    column = names.index(name)
    return sum(
        meta.row_group(g).column(column).total_uncompressed_size for g in range(meta.num_row_groups)
    )


def _foreign(layout, index: int, data: bytes, expected: bytes) -> bool:
    """Whether ``data`` is an intact chunk ``index`` stamped with settings not ``expected``."""
    try:
        held = _stamp_of(data)
    except (pa.ArrowException, OSError, ValueError):
        return False
    return (
        held is not None
        and held != expected
        and _chunk_problem(layout, index, data, None, None) is None
    )


def _replay_problem(spec: RunPlan, index: int, data: bytes) -> str | None:
    """``None`` if chunk ``index``'s first rows are what replaying its first item gives."""
    # lazy: read at each call, so that tests can stand in for run_chunk_rows
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


def _replayable(spec: RunPlan) -> bool:
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
        or _STEPS.match(name)
        or _TEMPORARY.match(name)
    )


def _remove_temporaries(folder: Path) -> None:
    """Delete the temporary files of interrupted writes (call only while holding the lock)."""
    for file in folder.iterdir():
        if _TEMPORARY.match(file.name):
            remove_entry(file)


class Dataset:
    """The output folder of one run: checks or records its spec, writes chunks.

    ``Dataset(path, spec, resume)`` locks the folder, creates it and its
    metadata, or with ``resume`` reopens a folder holding the same run
    (``ValueError`` naming every difference otherwise); with ``rebuild``
    also a folder whose metadata is missing, damaged, or records other
    settings (see the module's notes). ``missing`` lists the chunks still
    to run (missing or damaged); :meth:`close` releases the lock, and
    removes the lock file once every chunk is written (also a context
    manager).
    """

    def __init__(self, path, spec: RunPlan, resume: bool = False, rebuild: bool = False):
        self.path = Path(path)
        self.spec = spec
        self._lock, self._locked, self._meta, self._chunks = None, False, None, {}
        self._stamp = stamp(spec)
        if self.path.exists() and not self.path.is_dir():
            raise ValueError(f"output {str(path)!r} is a file; give a folder for the dataset")
        if self.path.is_dir() and not os.path.lexists(self.path / METADATA_NAME):
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
            self._lock, self._locked = lock_folder(self.path)
        except OSError as err:
            raise ValueError(
                f"out={str(path)!r} cannot be used as the dataset folder: "
                f"{err.strerror or err} ({err.filename or path})"
            ) from None
        try:
            self._open(resume or rebuild, rebuild)
        except BaseException:
            self.close()
            raise

    def _open(self, resume: bool, rebuild: bool) -> None:
        path = self.path
        _remove_temporaries(path)  # we hold the lock: any temporary is a dead run's
        old, replace = None, False
        if os.path.lexists(path / METADATA_NAME):
            try:
                old = read_metadata(path)
            except ValueError:
                if not rebuild:
                    raise
                replace = True
        if old is not None:
            if not resume:
                raise ValueError(
                    f"output folder {str(path)!r} already holds a run "
                    f"({len(_raw_chunk_files(path))} of {old['n_chunks']} chunks done); "
                    "resume it with the same settings (resume=True), or choose a new folder"
                )
            diffs = self._differences(old)
            if diffs and not rebuild:
                raise ValueError(
                    f"cannot resume into {str(path)!r}: the run differs from the one started "
                    "there (" + "; ".join(diffs) + "); resume with the folder's settings, or, "
                    "if the folder's metadata is the wrong one and its chunk files are this "
                    "run's, rebuild it (rebuild=True, --rebuild-metadata)"
                )
            replace = bool(diffs)
        if old is None or replace:
            # Rebuilding: every chunk file must be shown to be this run's before anything
            # is written, so a refused rebuild changes nothing.
            self._check_rebuild(strict=old is not None)
            if os.path.lexists(path / METADATA_NAME):
                os.replace(path / METADATA_NAME, path / DAMAGED_NAME)  # kept for a look
            self._chunks, self._unrecorded = {}, True
        else:
            self._chunks = dict(old.get("chunks", {}))
            # Written before chunks were recorded: its chunks are checked by content.
            self._unrecorded = "chunks" not in old
        self._meta = written_settings(self.spec)
        self._write_metadata()

    def _differences(self, old: dict) -> list[str]:
        """How the settings recorded in ``old`` differ from this run's (empty: the same)."""
        meta = self.spec.metadata()
        old = {k: v for k, v in settings_of(old).items() if k != FORMAT_KEY}
        old = {**ADDED_KEYS, **old}  # a folder written before these keys were recorded
        diffs = [
            f"{k}: folder has {old.get(k)!r}, this run {meta[k]!r}"
            for k in meta
            if old.get(k) != meta[k]
        ]
        return diffs + [
            f"{k}: folder has {old[k]!r}, this run has none" for k in old if k not in meta
        ]

    def _check_rebuild(self, strict: bool) -> None:
        """``ValueError`` (nothing changed) unless every readable chunk file is this run's.

        A chunk is this run's if it carries this run's settings stamp, or,
        written before stamps, if replaying its first item gives its rows.
        ``strict`` (the folder's readable metadata records other settings):
        a chunk that cannot be checked either way stops the rebuild too.
        Unreadable chunks are left to :meth:`finished`, which redoes them.
        """
        refuse = f"cannot rebuild the metadata of {str(self.path)!r}"
        fix = "give the settings of the run that wrote the folder"
        files = _chunk_files(self.path, self.spec, f"{fix} (its chunk size and counts)")
        for index, file in sorted(files.items()):
            try:
                data = _read_chunk(file)
            except NotRegularFile:
                continue
            if _chunk_problem(self.spec, index, data, None, None) is not None:
                continue
            held = _stamp_of(data)
            if held is not None:
                if held != self._stamp:
                    raise ValueError(
                        f"{refuse}: chunk file {file.name} was written with other settings "
                        f"(its settings stamp differs); {fix}"
                    )
            elif _replayable(self.spec):
                replayed = _replay_problem(self.spec, index, data)
                if replayed is not None:
                    raise ValueError(f"{refuse}: chunk file {file.name} {replayed}; {fix}")
            elif strict:
                raise ValueError(
                    f"{refuse}: its metadata records other settings, and chunk file {file.name} "
                    "(written before chunks were stamped) cannot be replayed with Python agent "
                    "objects to show whose it is; give registered agents by name"
                )

    def close(self) -> None:
        """Release the folder's lock; a finished run's lock file is removed first."""
        if self._lock is None:
            return
        try:
            if self._locked and self._complete():
                (self.path / LOCK_NAME).unlink(missing_ok=True)  # still held: see lock_folder
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

        A chunk file that does not match its record, its range or this run's
        settings stamp (truncated, another chunk's content, never recorded
        because the run was killed just after writing it), and an entry
        named as a chunk that is not a regular file (a link, a FIFO, an
        empty directory), is deleted, so that the chunk is run again.
        """
        done = []
        for index, file in sorted(_chunk_files(self.path, self.spec).items()):
            try:
                data = _read_chunk(file)
            except NotRegularFile:
                remove_entry(file)  # never followed: a link goes, its target stays
                self._chunks.pop(str(index), None)
                continue
            record = self._chunks.get(str(index))
            if record is None and not self._unrecorded:
                problem = "is not recorded"
            else:
                problem = _chunk_problem(self.spec, index, data, record, self._stamp)
            steps = None
            if problem is None and self.spec.trajectories:
                steps, problem = self._steps_of(index, record)
            if problem is not None and _foreign(self.spec, index, data, self._stamp):
                raise ValueError(
                    f"cannot resume into {str(self.path)!r}: chunk file {file.name} is an intact "
                    "chunk of a run with other settings (its settings stamp differs), so the "
                    "metadata was replaced or edited; nothing was deleted: resume with the "
                    "chunks' settings and rebuild=True (--rebuild-metadata), or choose a new folder"
                )
            if problem is not None:
                file.unlink()
                self._chunks.pop(str(index), None)
                continue
            if record is None:
                self._chunks[str(index)] = _record(self.spec, index, data, steps)
            done.append(index)
        self._write_metadata()
        return done

    def _steps_of(self, index: int, record: dict | None) -> tuple[bytes | None, str | None]:
        """``(bytes, problem)`` of chunk ``index``'s steps file (a run with trajectories).

        A steps file that is missing, not a regular file (removed here) or
        damaged is a problem: the chunk is then run again, with its steps.
        """
        file = self.path / steps_name(self.spec, index)
        try:
            data = _read_steps(file)
        except FileNotFoundError:
            return None, "has no steps file"
        except NotRegularFile:
            remove_entry(file)
            return None, "has a steps file that is not a regular file"
        return data, _steps_problem(self.spec, index, data, record, self._stamp)

    def missing(self) -> list[int]:
        """Indices of the chunks still to run (missing or damaged), in order."""
        done = set(self.finished())
        return [i for i in range(self.spec.n_chunks) if i not in done]

    def write(self, index: int, parquet: bytes, steps: bytes | None = None) -> None:
        """Store chunk ``index`` (Parquet bytes from :func:`frame_to_parquet`) and record it.

        ``steps``: the chunk's decisions (a run with trajectories), written
        before the chunk file, so a chunk file in place always has its steps.
        ``ValueError`` (nothing written) if the bytes carry another run's
        settings stamp: a worker running another trickgym version.
        """
        if (steps is not None) != self.spec.trajectories:
            raise ValueError(
                f"chunk {index} came back {'with' if steps is not None else 'without'} "
                f"decisions, but the run has trajectories={self.spec.trajectories}"
            )
        if _stamp_of(parquet) != self._stamp or (
            steps is not None and _stamp_of(steps) != self._stamp
        ):
            raise ValueError(
                f"chunk {index} came back computed with other settings than this run's (its "
                "settings stamp differs): do the workers run the same trickgym version?"
            )
        # Recorded first: a chunk file in place always has its record (a kill between the
        # two leaves a record without a file, and the chunk is run again).
        self._chunks[str(index)] = _record(self.spec, index, parquet, steps)
        self._write_metadata()
        if steps is not None:
            _write_atomic(self.path / steps_name(self.spec, index), steps)
        _write_atomic(self.path / chunk_name(self.spec, index), parquet)


def _recorded_chunk_problem(layout, index: int, data: bytes, meta: dict):
    """What is wrong with chunk ``index``'s bytes against the folder's metadata ``meta``."""
    records = meta.get("chunks")  # None: written before chunks were recorded
    record = None if records is None else records.get(str(index))
    if records is not None and record is None:
        return "is not recorded"
    return _chunk_problem(layout, index, data, record, spec_digest(meta).encode())


def _checked_chunk(path, layout, index: int, file: Path, meta: dict) -> bytes:
    """Chunk ``index``'s file bytes, verified (``ValueError`` saying what is wrong)."""
    data = _read_chunk(file)
    problem = _recorded_chunk_problem(layout, index, data, meta)
    if problem is not None:
        raise ValueError(f"dataset {str(path)!r}: chunk file {file.name} {problem}; {_REDO}")
    return data


def _checked_steps(path, layout, index: int, meta: dict) -> bytes:
    """Chunk ``index``'s steps file bytes, verified (``ValueError`` saying what is wrong)."""
    name = steps_name(layout, index)
    try:
        data = _read_steps(Path(path) / name)
    except FileNotFoundError:
        raise ValueError(f"dataset {str(path)!r}: steps file {name} is missing; {_REDO}") from None
    except NotRegularFile as err:
        raise ValueError(f"dataset {str(path)!r}: {err}") from None
    records = meta.get("chunks") or {}
    problem = _steps_problem(
        layout, index, data, records.get(str(index)), spec_digest(meta).encode()
    )
    if problem is not None:
        raise ValueError(f"dataset {str(path)!r}: steps file {name} {problem}; {_REDO}")
    return data


def _replay_steps_problem(spec: RunPlan, index: int, data: bytes) -> str | None:
    """``None`` if chunk ``index``'s first decisions are what replaying its first item gives."""
    part = spec.smallest_part(spec.chunk_range(index)[0])
    expected = steps_table(run_chunk_steps(part, 0)[1])
    got = pq.read_table(pa.BufferReader(data)).slice(0, expected.num_rows)
    if got.replace_schema_metadata(None).equals(expected):
        return None
    return (
        f"was not written with these settings: replaying its first {spec.items} gives other "
        "decisions (the seed, agents, options or trickgym version differ)"
    )


def _check_chunk_list(chunks, n: int) -> list[int]:
    """``chunks`` as a non-empty list of distinct chunk indices ``0..n-1``."""
    if isinstance(chunks, str) or not hasattr(chunks, "__iter__"):
        raise ValueError(f"chunks must be a list of chunk indices 0..{n - 1}, got {chunks!r}")
    chunks = [check_int("each of chunks (a chunk index)", i, 0, n - 1) for i in chunks]
    if not chunks:
        raise ValueError(
            f"chunks=[] selects no chunk; give chunk indices 0..{n - 1}, or None for all"
        )
    if len(set(chunks)) != len(chunks):
        raise ValueError(f"chunks lists a chunk more than once: {chunks!r}; name each once")
    return chunks


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
    if columns is not None:
        columns = check_column_list(columns)
    meta = read_metadata(path)
    layout = _layout(meta)
    files = _chunk_files(Path(path), layout)
    recorded = meta.get("chunks")  # None: written before chunks were recorded
    if recorded is not None and partial:  # a chunk being recorded right now is not there yet
        files = {i: f for i, f in files.items() if str(i) in recorded}
    n = layout.n_chunks
    if chunks is not None:
        chunks = _check_chunk_list(chunks, n)
        absent = [i for i in chunks if i not in files]
        if absent:
            raise ValueError(
                f"dataset {str(path)!r} has no chunk(s) {absent} yet (it holds "
                f"{len(files)} of {n}); resume the run to write them"
            )
        files = {i: files[i] for i in chunks}
    elif len(files) < n and not partial:
        raise ValueError(
            f"dataset {str(path)!r} is unfinished: {n - len(files)} of {n} chunks "
            "missing (resume the run, or pass partial=True)"
        )
    if not files:
        raise ValueError(f"dataset {str(path)!r} holds no chunk yet (0 of {n}); resume the run")
    data = {i: _checked_chunk(path, layout, i, files[i], meta) for i in sorted(files)}
    if columns is not None:
        columns = check_columns(columns, pq.read_schema(pa.BufferReader(data[min(data)])).names)
    parts = [pd.read_parquet(io.BytesIO(data[i]), columns=columns) for i in sorted(data)]
    return pd.concat(parts, ignore_index=True)


def _strays(folder: Path) -> list[str]:
    """Entries of ``folder`` that are no part of a run and that ``pandas.read_parquet`` reads.

    pyarrow's dataset discovery skips names starting with ``_`` or ``.``.
    """
    return sorted(e.name for e in os.scandir(folder) if not _ours(e.name) and e.name[0] not in "._")


def verify_dataset(path, upgrade: bool = False, replay: bool = False) -> dict:
    """Check a whole dataset folder; ``ValueError`` listing every problem found.

    Checks the metadata and every chunk file (see the module's notes), and
    that the folder holds nothing else that ``pandas.read_parquet(folder)``
    would read. ``replay`` also replays each chunk's first deal (or match)
    from the recorded settings and compares the rows, which catches a chunk
    of another seed; it needs the run's agents to be built-in or
    registered, and the trickgym version that wrote it. ``upgrade`` writes
    the chunk records and the settings' digest into the metadata of a
    folder written before they were recorded (under the folder's lock; only
    once every chunk present is intact). A run with trajectories has each
    chunk's steps file checked too (record, stamp, deal ids; with
    ``replay`` also its first item's decisions). Returns ``{"n_chunks",
    "items", "verified", "missing", "upgraded", "steps"}``: the chunk count,
    what a chunk counts (``"deals"`` or ``"matches"``), the indices
    verified, those missing, whether the metadata was upgraded, and whether
    steps files were verified.
    """
    check_path("path", path)
    upgrade, replay = check_flag("upgrade", upgrade), check_flag("replay", replay)
    folder = Path(path)
    meta = read_metadata(folder)
    layout = _layout(meta)
    spec = spec_from_metadata({**ADDED_KEYS, **meta}) if replay else None
    files = _chunk_files(folder, layout, f"remove it, then {_REDO}")
    problems, step_problems, verified, found = [], [], [], {}
    for index, file in sorted(files.items()):
        try:
            data = _read_chunk(file)
        except NotRegularFile as err:
            problems.append(f"chunk file {file.name} is {err.kind}, not a regular file (remove it)")
            continue
        problem = _recorded_chunk_problem(layout, index, data, meta)
        if problem is None and spec is not None:
            problem = _replay_problem(spec, index, data)
        if problem is not None:
            problems.append(f"chunk file {file.name} {problem}")
            continue
        steps = None
        if meta.get("trajectories") is True:
            name = steps_name(layout, index)
            try:
                steps = _checked_steps(path, layout, index, meta)
            except ValueError as err:
                problem = str(err).removeprefix(f"dataset {str(path)!r}: ")
                step_problems.append(problem.removesuffix(f"; {_REDO}"))
                continue
            if spec is not None:
                problem = _replay_steps_problem(spec, index, steps)
                if problem is not None:
                    step_problems.append(f"steps file {name} {problem}")
                    continue
        verified.append(index)
        found[str(index)] = _record(layout, index, data, steps)
    problems = _grouped(problems) + step_problems + _foreign_steps(folder, layout, meta)
    problems += [
        f"{name!r} is not part of the run (pandas.read_parquet of the folder would read it "
        "too); move it out of the folder"
        for name in _strays(folder)
    ]
    if problems:
        raise ValueError(
            f"dataset {str(path)!r}: " + "; ".join(problems) + "; resume the run "
            "(resume=True, --resume) to redo the damaged chunks"
        )
    upgraded = False
    if upgrade and meta.get(FORMAT_KEY) != FORMAT:
        _upgrade(folder, meta, found)
        upgraded = True
    missing = [i for i in range(layout.n_chunks) if i not in files]
    return {
        "n_chunks": layout.n_chunks,
        "items": layout.items,
        "verified": verified,
        "missing": missing,
        "upgraded": upgraded,
        "steps": meta.get("trajectories") is True,
    }


def _foreign_steps(folder: Path, layout, meta: dict) -> list[str]:
    """Files named as steps files that are none of this run's (a run without trajectories
    has none)."""
    ours = meta.get("trajectories") is True
    names = {steps_name(layout, i) for i in range(layout.n_chunks)} if ours else set()
    return [
        f"{name!r} is named as a steps file but is not one of this run's "
        f"({'another run' if ours else 'the run records no trajectories'}); move it out"
        for name in sorted(e.name for e in os.scandir(folder))
        if _STEPS.match(name) and name not in names
    ]


def _grouped(problems: list[str]) -> list[str]:
    """``"chunk file NAME PROBLEM"`` lines with one problem said once for all its chunks."""
    by_problem: dict[str, list[str]] = {}
    for line in problems:
        name, _, problem = line.removeprefix("chunk file ").partition(" ")
        by_problem.setdefault(problem, []).append(name)
    return [
        f"chunk file {names[0]} {problem}"
        if len(names) == 1
        else f"chunk files {', '.join(names)} each {problem}"
        for problem, names in by_problem.items()
    ]


def _upgrade(folder: Path, meta: dict, found: dict) -> None:
    """Write the metadata of an older folder in this version's format (its chunks verified)."""
    handle, locked = lock_folder(folder)
    try:
        if _load_metadata(folder) != meta:
            raise ValueError(f"dataset {str(folder)!r} changed while it was verified; try again")
        settings = {**ADDED_KEYS, **settings_of(meta), FORMAT_KEY: FORMAT}
        new = {**settings, SPEC_DIGEST: spec_digest(settings), "chunks": found}
        _write_atomic(folder / METADATA_NAME, json.dumps(new, indent=2).encode() + b"\n")
        if locked:
            (folder / LOCK_NAME).unlink(missing_ok=True)  # still held: see lock_folder
    finally:
        handle.close()
