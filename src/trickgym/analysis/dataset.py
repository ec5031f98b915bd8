"""Read a simulation dataset: one Parquet file, or a folder of Parquet chunks and metadata."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

__all__ = ["load_dataset"]


def load_dataset(path) -> pd.DataFrame:
    """The rows of a dataset written by ``trickgym simulate --out``.

    ``path`` is a Parquet file or a folder of ``*.parquet`` chunks (read in
    name order); JSON files in the folder (the run's metadata) are read into
    ``df.attrs["metadata"]`` (a dict of file name to contents; a file's own
    Parquet metadata is not needed). Raises ``ValueError`` for a missing
    path or a folder without Parquet files.
    """
    path = Path(path)
    if not path.exists():
        raise ValueError(f"dataset {str(path)!r} does not exist: give a .parquet file or a folder")
    metadata = {}
    if path.is_dir():
        chunks = sorted(path.glob("*.parquet"))
        if not chunks:
            raise ValueError(f"folder {str(path)!r} holds no .parquet files")
        df = pd.concat([pd.read_parquet(c) for c in chunks], ignore_index=True)
        for meta in sorted(path.glob("*.json")):
            try:
                metadata[meta.name] = json.loads(meta.read_text())
            except json.JSONDecodeError as err:
                raise ValueError(f"metadata file {str(meta)!r} is not valid JSON: {err}") from None
    else:
        try:
            df = pd.read_parquet(path)
        except Exception as err:  # pyarrow raises its own types for non-Parquet files
            raise ValueError(f"cannot read {str(path)!r} as Parquet: {err}") from None
    df.attrs["metadata"] = metadata
    df.attrs["source"] = str(path)
    return df
