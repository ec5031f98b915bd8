"""Datasets that cannot be silently wrong (issue 29): every read and resume verifies the folder.

Small runs (400 deals of the rule agents in chunks of 100) written once per
test into ``tmp_path``; the reference is the same run in memory.
"""

from __future__ import annotations

import errno
import json
import os

import pandas as pd
import pytest
from pandas.testing import assert_frame_equal
from run_helpers import Stop, as_written_before, chunk_files, stop_after

import trickgym.sim.backends as backends
from trickgym.cli import main
from trickgym.sim import read_dataset, simulate
from trickgym.sim.dataset import (
    DAMAGED_NAME,
    LOCK_NAME,
    METADATA_NAME,
    read_metadata,
    verify_dataset,
)

RUN = {"game": "solowhist", "deals": 400, "agents": "rule", "seed": 3, "chunk": 100}


def edit_metadata(path, change) -> None:
    """Rewrite the folder's metadata as ``change(meta)`` leaves it (a hand edit, an old folder)."""
    meta = json.loads((path / METADATA_NAME).read_text())
    change(meta)
    (path / METADATA_NAME).write_text(json.dumps(meta))


@pytest.fixture(scope="module")
def whole():
    """The uninterrupted in-memory run the datasets are compared against."""
    return simulate(**RUN)


@pytest.fixture
def written(tmp_path):
    """A finished dataset of RUN."""
    out = tmp_path / "d"
    simulate(**RUN, out=out)
    return out


@pytest.mark.parametrize("records", [True, False], ids=["records", "no-records"])
def test_swapped_chunks_are_refused_on_read_and_redone_on_resume(written, whole, records):
    """Two chunks' contents exchanged (names kept): caught with or without chunk records."""
    out = written
    if not records:
        as_written_before(out)
    files = chunk_files(out)
    a, b = (out / files[1]).read_bytes(), (out / files[2]).read_bytes()
    (out / files[1]).write_bytes(b)
    (out / files[2]).write_bytes(a)
    with pytest.raises(ValueError, match=files[1]):
        read_dataset(out)
    with pytest.raises(ValueError, match=files[2]):
        read_dataset(out, columns=["deal"], chunks=[2])
    with pytest.raises(ValueError, match=f"{files[1]}.*{files[2]}"):
        verify_dataset(out)
    done = []
    run = simulate(**RUN, out=out, resume=True, on_chunk=lambda i, n: done.append(i))
    assert done == [1, 2] and (run.chunks_run, run.chunks_skipped) == (2, 2)
    assert_frame_equal(read_dataset(out), whole)


def test_content_check_names_what_the_chunk_holds(written):
    out = written
    as_written_before(out)
    files = chunk_files(out)
    (out / files[3]).write_bytes((out / files[0]).read_bytes())
    with pytest.raises(ValueError, match=r"holds deals 0\.\.99 in 100 rows, not deals 300\.\.399"):
        read_dataset(out)


def test_edited_settings_are_refused_by_read_dataset(written, whole):
    out = written
    meta = read_metadata(out)
    edit_metadata(out, lambda m: m.update(seed=4))
    with pytest.raises(ValueError, match=rf"{METADATA_NAME}.*digest.*rebuild"):
        read_dataset(out)
    with pytest.raises(ValueError, match="digest"):  # resume with the edited seed too
        simulate(**{**RUN, "seed": 4}, out=out, resume=True)
    (out / METADATA_NAME).write_text(json.dumps(meta))
    assert_frame_equal(read_dataset(out), whole)
    # n_chunks inconsistent with count and chunk: caught without the digest too.
    as_written_before(out)
    edit_metadata(out, lambda m: m.update(n_chunks=5))
    with pytest.raises(ValueError, match="n_chunks is 5, but 400 deals in chunks of 100 make 4"):
        read_dataset(out)
    edit_metadata(out, lambda m: m.update(n_chunks=2, count=200))
    with pytest.raises(ValueError, match="is not a chunk of this run"):
        read_dataset(out)


def test_old_folder_is_verified_and_upgraded(written, whole, capsys):
    out = written
    as_written_before(out)
    assert_frame_equal(read_dataset(out), whole)  # verified by content
    assert main(["verify", str(out), "--upgrade", "--replay"]) == 0
    said = capsys.readouterr().out
    assert "4 of 4 chunks verified, and the first of their deals replayed to the same rows" in said
    meta = read_metadata(out)
    assert sorted(meta["chunks"]) == ["0", "1", "2", "3"] and "spec_sha256" in meta
    assert not (out / LOCK_NAME).exists() and meta["format"] == 2
    edit_metadata(out, lambda m: (m.update(seed=4), m.pop("spec_sha256")))
    with pytest.raises(ValueError, match="no 'spec_sha256', which a folder of format 2 always"):
        verify_dataset(out)
    # Made to look older still, with chunks written before stamps: only a replay can tell.
    edit_metadata(out, lambda m: (m.pop("format"), m.pop("chunks")))
    assert verify_dataset(out)["verified"] == [0, 1, 2, 3]
    with pytest.raises(ValueError, match=r"replaying its first deals \(0\.\.0\) gives other rows"):
        verify_dataset(out, replay=True)
    assert main(["verify", str(out), "--replay"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("trickgym: error:") and "chunk-000000" in err


def test_corrupt_metadata_names_the_file_and_is_rebuilt(written, whole):
    out = written
    (out / METADATA_NAME).write_text('{"game": "solowhist", ')  # cut short
    pattern = rf"{out / METADATA_NAME}.*not valid JSON.*rebuild=True"
    with pytest.raises(ValueError, match=pattern):
        read_dataset(out)
    with pytest.raises(ValueError, match=pattern):
        simulate(**RUN, out=out, resume=True)
    run = simulate(**RUN, out=out, resume=True, rebuild=True)
    assert (run.chunks_run, run.chunks_skipped) == (0, 4)
    assert (out / DAMAGED_NAME).read_text() == '{"game": "solowhist", '
    assert_frame_equal(read_dataset(out), whole)


@pytest.mark.parametrize("stamped", [True, False], ids=["stamped", "older-chunks"])
def test_missing_metadata_is_rebuilt_and_the_run_completes(tmp_path, whole, stamped):
    out = tmp_path / "m"
    with pytest.raises(Stop):
        simulate(**RUN, out=out, on_chunk=stop_after(2))
    if not stamped:
        as_written_before(out)  # chunks without a settings stamp: checked by a replay
    (out / METADATA_NAME).unlink()
    with pytest.raises(ValueError, match=r"chunk files but no _trickgym_run\.json.*rebuild=True"):
        simulate(**RUN, out=out, resume=True)
    with pytest.raises(ValueError, match="rebuild=True"):
        read_dataset(out)
    with pytest.raises(ValueError, match="rebuild=True is for resume=True"):
        simulate(**RUN, out=out, rebuild=True)
    # Other settings than the run's: refused, with nothing written (issue 42: a refused
    # rebuild used to leave its settings in the metadata and then refuse the right ones).
    why = "settings stamp differs" if stamped else "was not written with these settings"
    for wrong, pattern in (
        ({"seed": 4}, why),
        ({"agents": "random"}, why),
        ({"chunk": 50}, "is not a chunk of this run .*give the settings of the run"),
    ):
        with pytest.raises(ValueError, match=pattern):
            simulate(**{**RUN, **wrong}, out=out, resume=True, rebuild=True)
        assert not (out / METADATA_NAME).exists() and len(chunk_files(out)) == 2
    done = []
    simulate(**RUN, out=out, resume=True, rebuild=True, on_chunk=lambda i, n: done.append(i))
    assert done == [2, 3]
    assert_frame_equal(read_dataset(out), whole)


def test_metadata_of_other_settings_is_replaced_only_by_the_chunks_run(written, whole):
    """A folder whose metadata records other settings than its chunks (an old refused
    rebuild wrote them): a rebuild with the chunks' settings replaces it, no other."""
    out = written
    good = json.loads((out / METADATA_NAME).read_text())
    other = out.parent / "other"
    simulate(**{**RUN, "seed": 4}, out=other)
    (out / METADATA_NAME).write_bytes((other / METADATA_NAME).read_bytes())
    with pytest.raises(ValueError, match=r"seed: folder has 4, this run 3.*rebuild it"):
        simulate(**RUN, out=out, resume=True)
    with pytest.raises(ValueError, match="settings stamp differs"):
        read_dataset(out)
    with pytest.raises(ValueError, match=r"intact chunk of a run with other settings.*nothing"):
        simulate(**{**RUN, "seed": 4}, out=out, resume=True, rebuild=True)
    run = simulate(**RUN, out=out, resume=True, rebuild=True)
    assert (run.chunks_run, run.chunks_skipped) == (0, 4)
    assert read_metadata(out)["spec_sha256"] == good["spec_sha256"]
    assert_frame_equal(read_dataset(out), whole)


def test_temporaries_of_an_interrupted_write_are_removed(tmp_path, whole, monkeypatch):
    out = tmp_path / "t"

    def full_disk(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as m:  # the disk fills while the metadata is written
        m.setattr(os, "fsync", full_disk)
        with pytest.raises(OSError, match=f"cannot write {out / METADATA_NAME}: No space left"):
            simulate(**RUN, out=out)
    assert [f for f in os.listdir(out) if ".tmp-" in f] == []
    # Temporaries left by a killed run (or by an older version on a full disk) go on the next run.
    (out / "._trickgym_run.json.tmp-99999").write_bytes(b"{")
    (out / ".chunk-000001-deals-000000000100.parquet.tmp-99999").write_bytes(b"PAR1")
    simulate(**RUN, out=out)
    assert [f for f in os.listdir(out) if ".tmp-" in f] == []
    assert_frame_equal(read_dataset(out), whole)


def test_chunk_indices_are_checked(written):
    with pytest.raises(ValueError, match=r"chunk index\) must be an integer 0\.\.3, got 1\.0"):
        read_dataset(written, chunks=[1.0])
    with pytest.raises(ValueError, match=r"must be an integer 0\.\.3, got 4"):
        read_dataset(written, chunks=[4])
    with pytest.raises(ValueError, match="chunks must be a list of chunk indices"):
        read_dataset(written, chunks=1)
    assert read_dataset(written, ["deal"], chunks=[3])["deal"].tolist() == list(range(300, 400))


@pytest.fixture
def no_chunk_runs(monkeypatch):
    """Fail the test if a chunk is played."""

    def run_local(*args, **kwargs):
        raise AssertionError("a chunk ran")

    monkeypatch.setattr(backends, "run_local", run_local)


def test_bad_out_and_on_chunk_are_refused_before_any_work(tmp_path, no_chunk_runs):
    (tmp_path / "file").write_text("x")
    for out in (tmp_path / "file", tmp_path / "file" / "sub", "/proc/trickgym-test"):
        with pytest.raises(ValueError, match=r"out=|is a file"):
            simulate(**RUN, out=out)
    with pytest.raises(ValueError, match=r"on_chunk must be a function on_chunk\(index, rows\)"):
        simulate(**RUN, out=tmp_path / "c", on_chunk=5)
    assert not (tmp_path / "c").exists()
    with pytest.raises(ValueError, match="on_chunk must be a function"):
        simulate(**RUN, on_chunk=5)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_folder_is_refused_before_any_work(tmp_path, no_chunk_runs):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(ValueError, match="cannot be used as the dataset folder"):
            simulate(**RUN, out=folder)
    finally:
        folder.chmod(0o700)


def test_cli_os_errors_are_one_line(tmp_path, capsys, monkeypatch):
    argv = ["simulate", "--deals", "200", "--chunk", "100", "--agents", "rule", "--quiet"]
    with monkeypatch.context() as m:
        m.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.ENOSPC, "x")))
        code = main([*argv, "--out", str(tmp_path / "full")])
    err = capsys.readouterr().err
    assert code != 0 and "Traceback" not in err and err.count("\n") == 1
    assert err.startswith(f"trickgym: error: cannot write {tmp_path / 'full'}")
    assert err.endswith(": x\n")
    (tmp_path / "file").write_text("x")
    for out in (tmp_path / "file", tmp_path / "file" / "sub", "/proc/trickgym-test"):
        code = main([*argv, "--out", str(out)])
        err = capsys.readouterr().err
        assert code != 0 and err.startswith("trickgym: error:") and err.count("\n") == 1, err


def test_lock_file_is_removed_when_the_run_is_complete(tmp_path):
    out = tmp_path / "l"
    with pytest.raises(Stop):
        simulate(**RUN, out=out, on_chunk=stop_after(1))
    assert (out / LOCK_NAME).exists()  # unfinished: kept (harmless, the lock is released)
    simulate(**RUN, out=out, resume=True)
    assert not (out / LOCK_NAME).exists()
    run = simulate(**RUN, out=out, resume=True)  # nothing to do, and still no lock file left
    assert run.chunks_run == 0 and not (out / LOCK_NAME).exists()
    assert len(pd.read_parquet(out)) == 400
