"""Read a simulation dataset: one Parquet file, or a folder of Parquet chunks and metadata."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from ..checks import check_flag, check_path

__all__ = ["load_dataset"]

RUN_METADATA = "_trickgym_run.json"  # written by the simulator beside its chunks


def _trickgym_reader():
    """The simulator's own dataset reader, when this version of trickgym has one."""
    try:
        from ..sim.dataset import read_dataset  # lazy: sim.dataset loads pyarrow
    except ImportError:
        return None
    return read_dataset


def load_dataset(path, partial: bool = False) -> pd.DataFrame:
    """The rows of a dataset written by ``trickgym simulate --out``.

    ``path`` is a Parquet file or a folder of ``*.parquet`` chunks (read in
    name order, which is chunk order). JSON files in the folder (the run's
    metadata) are read into ``df.attrs["metadata"]``, a dict of file name to
    contents. A simulator run folder (with ``_trickgym_run.json``) is read by
    the simulator's reader, which refuses an unfinished run unless
    ``partial``. Raises ``ValueError`` for a missing path, a folder without
    Parquet files or a file that is not Parquet.
    """
    path = Path(check_path("path", path))
    partial = check_flag("partial", partial)
    if not path.exists():
        raise ValueError(
            f"dataset path {str(path)!r} does not exist: give a .parquet file or a folder"
        )
    metadata = {}
    if path.is_dir():
        for meta in sorted(path.glob("*.json")):
            try:
                metadata[meta.name] = json.loads(meta.read_text())
            except json.JSONDecodeError as err:
                raise ValueError(f"metadata file {str(meta)!r} is not valid JSON: {err}") from None
        reader = _trickgym_reader()
        chunks = sorted(path.glob("*.parquet"))
        if RUN_METADATA in metadata and reader is not None:
            df = reader(path, partial=partial)
        elif chunks:
            df = pd.concat([pd.read_parquet(c) for c in chunks], ignore_index=True)
        else:
            raise ValueError(f"folder {str(path)!r} holds no .parquet files")
    else:
        try:
            df = pd.read_parquet(path)
        except Exception as err:  # pyarrow raises its own types for non-Parquet files
            raise ValueError(f"cannot read {str(path)!r} as Parquet: {err}") from None
    df.attrs["metadata"] = metadata
    df.attrs["source"] = str(path)
    return df
