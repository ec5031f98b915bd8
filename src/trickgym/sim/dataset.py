"""A run's results as a Parquet dataset: one file per chunk, written as chunks finish.

Layout of a dataset folder::

    _trickgym_run.json                          the run's spec (see RunSpec.metadata)
    chunk-000000-deals-000000000000.parquet     chunk 0: deals 0 .. chunk-1
    chunk-000001-deals-000000065536.parquet     chunk 1, named by its first deal
    ...

A chunk file is written under a hidden temporary name and renamed into
place, so a killed run never leaves a half-written chunk: every
``chunk-*.parquet`` file is complete. Resuming checks that the spec is the
same and runs only the chunks whose files are missing. Readers such as
``pandas.read_parquet(folder)`` skip the ``_`` and ``.`` files; use
:func:`read_dataset` to get the rows in chunk order with the same dtypes as
``simulate`` returns.
"""

from __future__ import annotations

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
    "METADATA_NAME",
    "Dataset",
    "check_columns",
    "frame_to_parquet",
    "read_dataset",
    "read_metadata",
]

METADATA_NAME = "_trickgym_run.json"
_CHUNK = re.compile(r"^chunk-(\d{6,})-(deals|matches)-(\d{12,})\.parquet$")


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


class Dataset:
    """The output folder of one run: checks or records its spec, writes chunks.

    ``Dataset(path, spec, resume)`` creates the folder and its metadata, or
    with ``resume`` reopens a folder holding the same run (``ValueError``
    naming every difference otherwise); ``missing`` lists the chunks still
    to run.
    """

    def __init__(self, path, spec: RunSpec, resume: bool = False):
        self.path = Path(path)
        self.spec = spec
        meta = spec.metadata()
        if self.path.exists() and not self.path.is_dir():
            raise ValueError(f"output {str(path)!r} is a file; give a folder for the dataset")
        has_meta = (self.path / METADATA_NAME).is_file()
        if self.path.is_dir() and any(self.path.iterdir()) and not has_meta:
            raise ValueError(
                f"output folder {str(path)!r} is not empty and holds no trickgym run; "
                "choose a new or empty folder"
            )
        if has_meta:
            old = read_metadata(self.path)
            done = len(self._finished_files())
            if not resume:
                raise ValueError(
                    f"output folder {str(path)!r} already holds a run ({done} of "
                    f"{old.get('n_chunks', '?')} chunks done); pass resume=True (--resume) "
                    "to complete it, or choose a new folder"
                )
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
            self.path.mkdir(parents=True, exist_ok=True)
            _write_atomic(self.path / METADATA_NAME, json.dumps(meta, indent=2).encode() + b"\n")

    def _finished_files(self) -> dict[int, Path]:
        found = {}
        for file in self.path.iterdir():
            match = _CHUNK.match(file.name)
            if match:
                found[int(match.group(1))] = file
        return found

    def _remove_stale_temporaries(self) -> None:
        """Delete temporary chunk files a killed run left behind."""
        for file in self.path.iterdir():
            if file.name.startswith(".chunk-") and ".tmp-" in file.name:
                file.unlink(missing_ok=True)

    def finished(self) -> list[int]:
        """Indices of the chunks already written, checked against the spec."""
        done = []
        for index, file in sorted(self._finished_files().items()):
            if index >= self.spec.n_chunks or file.name != chunk_name(self.spec, index):
                raise ValueError(
                    f"{str(file)!r} is not a chunk of this run ({self.spec.n_chunks} chunks "
                    f"of {self.spec.chunk} {self.spec.items}); remove it"
                )
            done.append(index)
        return done

    def missing(self) -> list[int]:
        """Indices of the chunks still to run, in order."""
        done = set(self.finished())
        return [i for i in range(self.spec.n_chunks) if i not in done]

    def write(self, index: int, parquet: bytes) -> None:
        """Store chunk ``index`` (Parquet bytes from :func:`frame_to_parquet`) atomically."""
        _write_atomic(self.path / chunk_name(self.spec, index), parquet)


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
    if columns is not None:
        columns = check_columns(columns, pq.read_schema(files[min(files)]).names)
    parts = [pd.read_parquet(files[i], columns=columns) for i in sorted(files)]
    return pd.concat(parts, ignore_index=True)
