"""Datasets tried as an auditor would (issue 42): tampered folders and crafted files.

One small finished run (300 Solo Whist deals in 3 chunks) is written once;
each test tampers with a copy. Every tampering must end in one clear
``ValueError`` (the CLI: one line, exit 2) or be repaired by a resume into
exactly the uninterrupted run: never accepted silently, never another
exception, never a hang, never a file written outside the folder.
"""

from __future__ import annotations

import json
import math
import os
import random
import shutil

import pytest
from pandas.testing import assert_frame_equal
from run_helpers import chunk_files

from trickgym.cli import main
from trickgym.sim import folder_io, read_dataset, simulate
from trickgym.sim.dataset import LOCK_NAME, METADATA_NAME, verify_dataset
from trickgym.sim.run_metadata import spec_digest

RUN = {"game": "solowhist", "deals": 300, "agents": "rule", "seed": 5, "chunk": 100}


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """The finished run's folder (never changed) and its rows."""
    out = tmp_path_factory.mktemp("pristine") / "d"
    simulate(**RUN, out=out)
    return out, read_dataset(out)


@pytest.fixture
def folder(pristine, tmp_path):
    """A copy of the finished run's folder, to tamper with."""
    out = tmp_path / "d"
    shutil.copytree(pristine[0], out)
    return out


def load(out) -> dict:
    return json.loads((out / METADATA_NAME).read_text())


def save(out, meta: dict, redigest: bool) -> None:
    """Write ``meta`` as the folder's metadata, its digest recomputed if ``redigest``."""
    if redigest and "spec_sha256" in meta:
        meta["spec_sha256"] = spec_digest(meta)
    (out / METADATA_NAME).write_text(json.dumps(meta))


def readers(out, chunk: int = 0):
    """Every way of reading or checking a folder, each to raise ``ValueError`` if tampered.

    ``chunk``: the chunk read alone (the one tampered with, if only one is).
    """
    return [
        lambda: verify_dataset(out),
        lambda: verify_dataset(out, replay=True),
        lambda: verify_dataset(out, upgrade=True),
        lambda: read_dataset(out),
        lambda: read_dataset(out, partial=True),
        lambda: read_dataset(out, columns=["deal"], chunks=[chunk]),
    ]


def assert_refused(out, pattern: str = "", chunk: int = 0) -> None:
    """Every reader refuses ``out`` with a ``ValueError`` (matching ``pattern``)."""
    for read in readers(out, chunk):
        with pytest.raises(ValueError, match=pattern):
            read()


def assert_one_line_cli_error(out, capsys, pattern: str) -> None:
    """``trickgym verify`` exits 2 with one line saying ``pattern``."""
    capsys.readouterr()
    assert main(["verify", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("trickgym: error:") and "\n" not in err and pattern in err, err


# 1. The settings' digest cannot be deleted to turn the checks off.


@pytest.mark.parametrize(
    "deleted",
    [("spec_sha256",), ("spec_sha256", "chunks"), ("spec_sha256", "chunks", "format")],
    ids=["digest", "digest+records", "digest+records+format"],
)
def test_an_edited_seed_is_caught_whatever_is_deleted(folder, deleted, capsys):
    meta = load(folder)
    meta["seed"] = 6
    for key in deleted:
        del meta[key]
    save(folder, meta, redigest=False)
    why = "format 2 always has" if "format" not in deleted else "settings stamp differs"
    assert_refused(folder, why)
    assert_one_line_cli_error(folder, capsys, why)
    assert load(folder) == meta  # --upgrade wrote nothing over the edit


def test_an_edited_seed_with_its_digest_recomputed_is_caught_by_the_stamps(folder):
    meta = load(folder)
    meta["seed"] = 6
    save(folder, meta, redigest=True)
    assert_refused(folder, "settings stamp differs")


# 3. Counts are bounded before anything is sized by them.


@pytest.mark.parametrize(
    "change",
    [
        {"count": 2**62, "chunk": 1, "n_chunks": 2**62},
        {"count": 2**40, "chunk": 1, "n_chunks": 2**40},
        {"count": 2**62, "chunk": 2**62, "n_chunks": 1},
        {"first": 2**63 - 5},
    ],
)
def test_huge_counts_are_refused_before_any_allocation(folder, change):
    meta = {**load(folder), **change}
    save(folder, meta, redigest=True)
    assert_refused(folder, "damaged or was edited")


# 4. Entries named as chunks that are not regular files.


def _fifo(path):
    os.mkfifo(path)


def _dev_zero(path):
    os.symlink("/dev/zero", path)


def _directory(path):
    path.mkdir()


def _full_directory(path):
    path.mkdir()
    (path / "x").write_text("x")


@pytest.mark.parametrize(
    "make, kind",
    [
        (_fifo, "a FIFO"),
        (_dev_zero, "a symbolic link"),
        (_directory, "a directory"),
        (_full_directory, "a directory"),
    ],
)
def test_chunk_names_that_are_not_regular_files(folder, pristine, make, kind, capsys):
    name = chunk_files(folder)[1]
    (folder / name).unlink()
    make(folder / name)
    assert_refused(folder, f"is {kind}.*not a regular file", chunk=1)
    assert_one_line_cli_error(folder, capsys, kind)
    if make is _full_directory:  # never deleted: someone's files may be in it
        with pytest.raises(ValueError, match="is not empty; move it out"):
            simulate(**RUN, out=folder, resume=True)
        shutil.rmtree(folder / name)
    run = simulate(**RUN, out=folder, resume=True)
    assert (run.chunks_run, run.chunks_skipped) == (1, 2)
    assert_frame_equal(read_dataset(folder), pristine[1])


def test_a_link_to_a_file_outside_is_never_followed(folder, pristine, tmp_path):
    outside = tmp_path / "outside.parquet"
    name = chunk_files(folder)[0]
    shutil.copy(folder / name, outside)  # even a link to the very chunk is refused
    (folder / name).unlink()
    os.symlink(outside, folder / name)
    assert_refused(folder, "a symbolic link")
    before = outside.read_bytes()
    simulate(**RUN, out=folder, resume=True)
    assert outside.read_bytes() == before and not (folder / name).is_symlink()
    assert_frame_equal(read_dataset(folder), pristine[1])


def test_metadata_that_is_not_a_regular_file(folder):
    meta = (folder / METADATA_NAME).read_bytes()
    (folder / METADATA_NAME).unlink()
    os.mkfifo(folder / METADATA_NAME)
    assert_refused(folder, "dataset metadata .* is a FIFO")
    (folder / METADATA_NAME).unlink()
    (folder / "elsewhere.json").write_bytes(meta)
    os.symlink(folder / "elsewhere.json", folder / METADATA_NAME)
    assert_refused(folder, "is a symbolic link")


# 5 and the rest of the metadata: every value of the wrong type or range, each key deleted.

BAD_VALUES = [
    None, True, False, -1, 0, 7, 2**62, 2**64, 1.5, math.inf, "", "x", "deals", "rule",
    [], {}, [1, 2, 3, 4], ["rule"] * 3, ["rule"] * 4 + ["x"], {"a": 1}, [[1.0] * 16] * 4,
    "a" * 5000,
]  # fmt: skip


def _mutations(meta: dict):
    """``(label, new metadata)`` for each bad value of each key, and each key deleted."""
    paths = [(k,) for k in meta if k != "chunks"]
    paths += [("chunks", "1", f) for f in ("first", "rows", "sha256")]
    paths += [("options", k) for k in meta["options"]]
    for path in paths:
        for value in BAD_VALUES:
            new = json.loads(json.dumps(meta))
            target = new
            for key in path[:-1]:
                target = target[key]
            if target[path[-1]] == value:
                continue
            target[path[-1]] = value
            yield f"{'.'.join(path)}={str(value)[:20]}", new
        new = json.loads(json.dumps(meta))
        target = new
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
        yield f"del {'.'.join(path)}", new
    new = json.loads(json.dumps(meta))
    new["extra"] = 1
    yield "extra key", new
    new = json.loads(json.dumps(meta))
    new["chunks"]["7"] = new["chunks"]["0"]
    yield "record of chunk 7", new


def test_every_tampered_metadata_value_is_refused(folder, pristine):
    """Hundreds of edits, with and without the digest recomputed: each a ValueError."""
    meta = load(folder)
    silent, other = [], []
    cases = list(_mutations(meta))
    assert len(cases) > 400
    for label, new in cases:
        for redigest in (False, True):
            if redigest and label.startswith("spec_sha256="):
                continue  # recomputing would undo the edit
            save(folder, json.loads(json.dumps(new)), redigest)
            for read in readers(folder, chunk=1):  # the record edited is chunk 1's
                try:
                    read()
                except ValueError:
                    continue
                except Exception as err:
                    other.append(f"{label} (redigest={redigest}): {type(err).__name__}: {err}")
                else:
                    silent.append(f"{label} (redigest={redigest})")
    (folder / METADATA_NAME).write_text(json.dumps(meta))
    assert not other, other[:10]
    assert not silent, silent[:10]
    assert_frame_equal(read_dataset(folder), pristine[1])


def test_a_resume_into_tampered_metadata_refuses_or_repairs(pristine, tmp_path):
    """A sample of the edits above, resumed: a ValueError, or exactly the uninterrupted run."""
    meta = load(pristine[0])
    cases = list(_mutations(meta))[::12]
    other = []
    for n, (label, new) in enumerate(cases):
        out = tmp_path / f"r{n}"
        shutil.copytree(pristine[0], out)
        save(out, new, redigest=n % 2 == 1)
        before = (out / METADATA_NAME).read_bytes()
        try:
            simulate(**RUN, out=out, resume=True, progress=False)
        except ValueError:
            assert (out / METADATA_NAME).read_bytes() == before, label  # refused: untouched
            continue
        except Exception as err:
            other.append(f"{label}: {type(err).__name__}: {err}")
            continue
        assert_frame_equal(read_dataset(out), pristine[1])  # repaired: the same run
    assert not other, other[:10]


@pytest.mark.parametrize(
    "text",
    [
        b"",
        b"null",
        b"[]",
        b"{",
        b"[" * 100_000 + b"]" * 100_000,
        b"1" * 5000,
        b"NaN",
        b"\xff\xfe{\x00}\x00",
        b"\x00" * 64,
        '{"game": "solowhist"}'.encode("utf-16"),
    ],
    ids=lambda t: repr(t[:12]),
)
def test_garbage_metadata_files_are_refused(folder, text):
    (folder / METADATA_NAME).write_bytes(text)
    assert_refused(folder, "damaged or was edited")


def test_recorded_python_agents_and_numbers_cannot_be_replayed(folder):
    meta = load(folder)
    meta["agents"] = [1, 2, 3, 4]
    save(folder, meta, redigest=True)
    with pytest.raises(ValueError, match=r"agents is .*not a list of one agent name per seat"):
        verify_dataset(folder, replay=True)
    meta["agents"] = ["python:mymodule.Agent"] * 4
    save(folder, meta, redigest=True)
    with pytest.raises(ValueError, match="Python agent objects"):
        verify_dataset(folder, replay=True)


# Damaged chunk bytes: refused on read, redone on resume into the uninterrupted run.


def test_damaged_chunk_bytes_are_refused_and_redone(folder, pristine):
    rng = random.Random(42)
    names = chunk_files(folder)
    originals = {n: (folder / n).read_bytes() for n in names}
    for trial in range(40):
        name = rng.choice(names)
        data = bytearray(originals[name])
        kind = trial % 4
        if kind == 0:
            data = data[: rng.randrange(len(data))]
        elif kind == 1:
            for _ in range(rng.randint(1, 8)):
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif kind == 2:
            data = bytearray(originals[rng.choice([n for n in names if n != name])])
        else:
            data = data + bytes(rng.randrange(1, 64))
        (folder / name).write_bytes(bytes(data))
        assert_refused(folder, name, chunk=names.index(name))
        (folder / name).write_bytes(originals[name])
    (folder / names[2]).write_bytes(originals[names[2]][:100])
    run = simulate(**RUN, out=folder, resume=True)
    assert (run.chunks_run, run.chunks_skipped) == (1, 2)
    assert_frame_equal(read_dataset(folder), pristine[1])


# 7. Temporary and lock files never follow a planted link.


def test_a_link_planted_at_the_temporary_name_is_not_followed(tmp_path, monkeypatch):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    out = tmp_path / "d"
    out.mkdir()
    monkeypatch.setattr(folder_io.secrets, "token_hex", lambda n: "0" * (2 * n))
    planted = out / f".{METADATA_NAME}.tmp-{os.getpid()}-00000000"
    os.symlink(victim, planted)
    with pytest.raises(OSError, match=f"cannot write {out / METADATA_NAME}: File exists"):
        folder_io.write_atomic(out / METADATA_NAME, b"{}")
    assert victim.read_text() == "keep me" and planted.is_symlink()


def test_a_planted_lock_link_is_refused(tmp_path):
    out = tmp_path / "d"
    out.mkdir()
    target = tmp_path / "created-outside"
    os.symlink(target, out / LOCK_NAME)
    with pytest.raises(ValueError, match=r"lock file .* is a symbolic link"):
        simulate(**RUN, out=out)
    assert not target.exists()


# 9 and 10: what read_dataset and verify say of a selection or a stray file.


def test_selections_and_stray_files(folder):
    with pytest.raises(ValueError, match=r"chunks=\[\] selects no chunk"):
        read_dataset(folder, chunks=[])
    with pytest.raises(ValueError, match="columns must be a non-empty list"):
        read_dataset(folder, columns=[])
    with pytest.raises(ValueError, match="'deal' more than once"):
        read_dataset(folder, columns=["deal", "deal"])
    with pytest.raises(ValueError, match="lists a chunk more than once"):
        read_dataset(folder, chunks=[1, 1])
    shutil.copy(folder / chunk_files(folder)[0], folder / "other.parquet")
    with pytest.raises(ValueError, match=r"'other\.parquet' is not part of the run"):
        verify_dataset(folder)
