"""A dataset's metadata file: what it must hold, its settings' digest, and the chunks' stamp.

Format 2 (this version) writes ``"format": 2``, the settings' digest
(``spec_sha256``, SHA-256 of every key but the chunk records) and a record
of every chunk, and stamps every chunk file with the same digest (Parquet
key-value metadata ``trickgym.settings``). So an edited setting is caught
however the metadata is edited: with the digest left, the digest differs;
with the digest recomputed, or deleted with the format key and the records
(making the folder look older), every stamped chunk differs. Folders of
older versions (no ``format`` key, chunks unstamped) are still read, their
chunks checked by content; only ``verify --replay`` tells their seed.
A run with trajectories records ``"trajectories": true`` (so it is in the
digest and the stamps) and each chunk's steps file in its record; runs
without them record no such key, as before it existed.

Every value is checked for its type and its range before anything is
sized by it: a count of ``2**62`` or agents given as numbers are refused
in one line naming the key, never reached by a loop or an allocation.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from pathlib import Path

from ..checks import SEED_MAX, is_int
from ..games import GAMES

__all__ = [
    "FORMAT",
    "FORMAT_KEY",
    "METADATA_NAME",
    "REBUILD",
    "SPEC_DIGEST",
    "STAMP_KEY",
    "check_metadata",
    "damaged",
    "settings_of",
    "spec_digest",
    "written_settings",
]

METADATA_NAME = "_trickgym_run.json"
FORMAT_KEY = "format"
FORMAT = 2  # 2: digest, chunk records and chunk stamps always written (1: none of them, or some)
SPEC_DIGEST = "spec_sha256"
STAMP_KEY = b"trickgym.settings"  # a chunk file's Parquet key holding the settings' digest
# The largest metadata file a run can write: 2**22 chunk records of about 130 bytes each.
MAX_METADATA_BYTES = 1 << 30
REBUILD = (
    "rebuild it from the intact chunk files: run the same simulation again with the same "
    "settings and resume=True, rebuild=True (trickgym simulate ... --resume --rebuild-metadata)"
)
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
# Keys that are not the run's settings (not compared on resume, not in the digest).
_BOOKKEEPING = ("chunks", SPEC_DIGEST)
# Spec keys added to the metadata later (dd: issue 19), with the value every run
# recorded before them had, so such a run can still be resumed.
ADDED_KEYS = {"dd": False, "dd_max_nodes": None}


def spec_digest(meta: dict) -> str:
    """SHA-256 of a run's settings as its metadata records them (all but the chunk records)."""
    spec = settings_of(meta)
    return hashlib.sha256(
        json.dumps(spec, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()


def settings_of(meta: dict) -> dict:
    """The metadata without its bookkeeping (chunk records, digest): the run's settings."""
    return {k: v for k, v in meta.items() if k not in _BOOKKEEPING}


def written_settings(spec) -> dict:
    """The settings this version writes for ``spec`` (its metadata and the format)."""
    return {**spec.metadata(), FORMAT_KEY: FORMAT}


def stamp(spec) -> bytes:
    """The stamp of every chunk file of ``spec``'s run: its settings' digest."""
    return spec_digest(written_settings(spec)).encode()


def damaged(file: Path, problem: str) -> str:
    """The error of a metadata file that is damaged or was edited."""
    return (
        f"dataset metadata {str(file)!r} is damaged or was edited ({problem}); "
        f"restore it, or {REBUILD}"
    )


def check_metadata(file: Path, meta: dict, max_chunks: int, max_items: int) -> None:
    """``ValueError`` naming ``file`` unless the metadata is whole, consistent and in range.

    ``max_chunks`` and ``max_items`` are the largest run ``simulate``
    writes; a larger one was written by hand.
    """

    def bad(problem: str):
        raise ValueError(damaged(file, problem))

    version = meta.get(FORMAT_KEY, 1)
    if FORMAT_KEY in meta and (not is_int(version) or version < 2):
        bad(f"{FORMAT_KEY} is {version!r}, not {FORMAT}")
    if version > FORMAT:
        raise ValueError(
            f"dataset {str(file.parent)!r} was written by a newer trickgym (format {version}; "
            f"this one reads up to {FORMAT}): upgrade trickgym to read it"
        )
    required = ["game", "agents", "seed", "items", "first", "count", "chunk", "n_chunks"]
    if version >= 2:
        required += [*(k for k in _ALL_SPEC_KEYS if k not in _OPTIONAL_KEYS), SPEC_DIGEST]
        required.append("chunks")
    for key in required:
        if key not in meta:
            bad(f"no {key!r}, which a folder of format {version} always has")
    unknown = [k for k in meta if k not in (*_ALL_SPEC_KEYS, *_BOOKKEEPING, FORMAT_KEY)]
    if unknown:
        bad(f"unknown key(s) {', '.join(map(repr, unknown))}")
    _check_layout(meta, max_chunks, max_items, bad)
    for key, check in _FIELD_CHECKS.items():
        if key in meta:
            problem = check(meta[key])
            if problem:
                bad(f"{key} is {_short(meta[key])}, {problem}")
    if SPEC_DIGEST in meta:
        if meta[SPEC_DIGEST] != spec_digest(meta):
            bad(
                f"the run's settings do not match their digest ({SPEC_DIGEST}): the seed, "
                "counts or other settings were changed after the run wrote them"
            )
    _check_records(meta, bad)


def _check_layout(meta: dict, max_chunks: int, max_items: int, bad) -> None:
    """The chunk layout: kinds, bounds, and ``n_chunks`` against ``count`` and ``chunk``."""
    if meta["items"] not in ("deals", "matches"):
        bad(f"items is {_short(meta['items'])}, not 'deals' or 'matches'")
    for key, low, high in (
        ("first", 0, 2**63 - 1),
        ("count", 1, max_items),
        ("chunk", 1, max_items),
        ("n_chunks", 1, max_chunks),
    ):
        value = meta[key]
        if not is_int(value) or not low <= value <= high:
            bad(f"{key} is {_short(value)}, not an integer {low}..{high}")
    if meta["first"] > 2**63 - meta["count"]:
        bad(f"first {meta['first']} + count {meta['count']} passes the largest index 2**63-1")
    n = -(-meta["count"] // meta["chunk"])
    if meta["n_chunks"] != n:
        bad(
            f"n_chunks is {meta['n_chunks']}, but {meta['count']} {meta['items']} in chunks "
            f"of {meta['chunk']} make {n}"
        )


def _check_records(meta: dict, bad) -> None:
    """The chunk records: one per chunk index at most, each ``{first, rows, sha256}``.

    A run with trajectories also records each chunk's steps file:
    ``steps_rows`` and ``steps_sha256``.
    """
    records = meta.get("chunks")
    if records is None:
        return
    keys = RECORD_KEYS + (STEPS_RECORD_KEYS if meta.get("trajectories") is True else ())
    if not isinstance(records, dict):
        bad("'chunks' is not a JSON object")
    n = meta["n_chunks"]
    for key, record in records.items():
        if not (key.isascii() and key.isdigit() and len(key) <= 8 and int(key) < n):
            bad(f"it records chunk {_short(key)}, not one of 0..{n - 1}")
        index = int(key)
        first = meta["first"] + index * meta["chunk"]
        ok = (
            isinstance(record, dict)
            and sorted(record) == sorted(keys)
            and is_int(record["first"])
            and record["first"] == first
            and is_int(record["rows"])
            and 1 <= record["rows"] <= 2**40
            and isinstance(record["sha256"], str)
            and _SHA256.match(record["sha256"]) is not None
            and all(_steps_field_ok(record, k) for k in keys[len(RECORD_KEYS) :])
        )
        if not ok:
            bad(f"the record of chunk {key} is {_short(record)}")


def _steps_field_ok(record: dict, key: str) -> bool:
    value = record[key]
    if key == "steps_rows":
        return is_int(value) and 1 <= value <= 2**40
    return isinstance(value, str) and _SHA256.match(value) is not None


def _short(value) -> str:
    """``repr(value)``, cut to 80 characters (a tampered value may be huge)."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _json_scalar(value) -> bool:
    return value is None or isinstance(value, str | bool) or _is_number(value)


def _game(value):
    if not isinstance(value, str) or value not in GAMES:
        return f"not one of {', '.join(sorted(GAMES))}"
    return None


def _options(value):
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and _json_scalar(v) for k, v in value.items()
    ):
        return "not an object of option names and plain values"
    return None


def _per_seat(value, ok) -> bool:
    """Whether ``value`` is a list of one item per seat (1 to 16), each passing ``ok``."""
    return isinstance(value, list) and 1 <= len(value) <= 16 and all(map(ok, value))


def _agents(value):
    if not _per_seat(value, lambda a: isinstance(a, str) and 0 < len(a) <= 4096):
        return "not a list of one agent name per seat"
    return None


def _rule_params(value):
    if not _per_seat(
        value, lambda row: isinstance(row, list) and len(row) <= 64 and all(map(_is_number, row))
    ):
        return "not a list of one row of finite numbers per seat"
    return None


def _seed(value):
    if is_int(value) and 0 <= value <= SEED_MAX:
        return None
    return f"not an integer 0..{SEED_MAX}"


def _one_of(*allowed):
    def check(value):
        if not isinstance(value, str) or value not in allowed:
            return "not " + " or ".join(map(repr, allowed))
        return None

    return check


def _flag(value):
    return None if isinstance(value, bool) else "not true or false"


def _nodes(value):
    if value is None or (is_int(value) and 0 <= value < 2**62):
        return None
    return "not a whole number of search nodes or null"


def _version(value):
    return None if isinstance(value, str) and 0 < len(value) <= 64 else "not a version string"


_FIELD_CHECKS = {
    "game": _game,
    "options": _options,
    "agents": _agents,
    "rule_params": _rule_params,
    "seed": _seed,
    "dealing": _one_of("shuffled", "match"),
    "unit": _one_of("deal", "match"),
    "dd": _flag,
    "dd_max_nodes": _nodes,
    "trickgym_version": _version,
    "trajectories": _flag,
}
_ALL_SPEC_KEYS = (*_FIELD_CHECKS, "items", "first", "count", "chunk", "n_chunks")
# Settings recorded only when set (their absence is the old behaviour, and keeps the digest).
_OPTIONAL_KEYS = ("trajectories",)
RECORD_KEYS = ("first", "rows", "sha256")  # what a chunk's record holds
STEPS_RECORD_KEYS = ("steps_rows", "steps_sha256")  # and, with trajectories, its steps file
