"""A Dask run whose cluster can no longer finish it fails with a resumable error, never hangs."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest
from pandas.testing import assert_frame_equal
from run_helpers import chunk_files, local_cluster

from trickgym.cli import main
from trickgym.sim import ClusterLostError, backends, read_dataset, simulate

distributed = pytest.importorskip("distributed")

RUN = {"deals": 1200, "agents": "random", "seed": 5, "chunk": 30}  # 40 small chunks


@pytest.fixture
def cluster():
    """An in-process cluster of two single-threaded workers, for this test only."""
    stack, cluster, client = local_cluster()
    with stack:
        yield cluster, client


@pytest.fixture
def killing_chunk(monkeypatch):
    """Chunk 3's task fails as a task that killed its workers does (``KilledWorker``).

    The in-process workers look ``chunk_result`` up when they run a task.
    """
    real = backends.chunk_result

    def chunk_result(spec, index, kind, tick=None):
        if index == 3:
            gone = SimpleNamespace(address="tcp://gone:1")  # the scheduler's WorkerState
            raise distributed.KilledWorker("trickgym-chunk-3", gone, 3)
        return real(spec, index, kind, tick)

    monkeypatch.setattr(backends, "chunk_result", chunk_result)


def test_run_stops_when_every_worker_dies_and_resumes_locally(tmp_path):
    """Both worker processes killed mid-run: an error soon after, chunks kept, resume exact."""
    whole = simulate("solowhist", **RUN)  # also puts the kernels in numba's cache for the workers
    with (
        distributed.LocalCluster(
            n_workers=0, processes=False, protocol="tcp", host="127.0.0.1", dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        # Worker processes without a nanny, so that nothing restarts them once killed.
        command = [sys.executable, "-m", "distributed.cli.dask_worker", cluster.scheduler_address]
        command += ["--no-nanny", "--nthreads", "1", "--no-dashboard"]
        workers = [subprocess.Popen(command, stderr=subprocess.DEVNULL) for _ in range(2)]
        try:
            client.wait_for_workers(2, timeout=120)
            killed = []

            def kill(index, rows):
                if not killed:
                    for worker in workers:
                        worker.kill()
                    killed.append(time.monotonic())

            out = tmp_path / "run"
            with pytest.raises(ClusterLostError) as lost:
                simulate(
                    "solowhist", **RUN, out=out, backend="dask", scheduler=client,
                    no_workers_timeout=2, on_chunk=kill,
                )  # fmt: skip
            waited = time.monotonic() - killed[0]
        finally:
            for worker in workers:
                worker.kill()
                worker.wait()
    message = str(lost.value)
    assert "has had no worker for" in message and "no_workers_timeout=2 s" in message
    assert "resume=True (CLI: --resume) and the same settings" in message
    assert waited < 20  # 2 s of grace, a poll, the scheduler noticing; it hung forever before
    kept = chunk_files(out)
    assert 1 <= len(kept) < 40
    assert f"{len(kept)} of 40 chunks are kept in {str(out)!r}" in message
    run = simulate("solowhist", **RUN, out=out, resume=True)
    assert (run.chunks_skipped, run.chunks_run) == (len(kept), 40 - len(kept))
    assert_frame_equal(read_dataset(out), whole)


def test_killed_worker_is_a_resumable_error(tmp_path, cluster, killing_chunk):
    out = tmp_path / "run"
    with pytest.raises(ClusterLostError, match=r"chunk 3's task was on workers .* that died"):
        simulate("solowhist", **RUN, out=out, backend="dask", scheduler=cluster[1])
    kept = len(chunk_files(out))
    assert kept >= 1
    run = simulate("solowhist", **RUN, out=out, resume=True)
    assert run.chunks_skipped == kept
    assert_frame_equal(read_dataset(out), simulate("solowhist", **RUN))


def test_without_out_the_error_says_what_is_lost(cluster, killing_chunk):
    with pytest.raises(ClusterLostError, match=r"chunks finished are lost with it \(no out=\)"):
        simulate("solowhist", **RUN, backend="dask", scheduler=cluster[1])


def test_cli_reports_a_lost_cluster(tmp_path, cluster, killing_chunk, capsys):
    out = tmp_path / "run"
    argv = ["simulate", "--deals", "1200", "--chunk", "30", "--seed", "5", "--quiet"]
    argv += ["--out", str(out), "--backend", "dask", "--scheduler", cluster[0].scheduler_address]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "trickgym: error: the Dask run stopped" in err and "--resume" in err


def test_lost_scheduler_is_a_resumable_error(tmp_path, cluster):
    """The client loses its scheduler mid-run: the run fails at once, chunks kept.

    The client's connection is cut from its side: what it sees when the
    scheduler dies (it drops every task), without the wait for a dead one.
    The cut client is this test's own: closing it afterwards races with its
    dying connection inside dask (CommClosedError, AssertionError), which is
    not what is tested, so that close may fail quietly.
    """
    client = distributed.Client(cluster[0])

    def cut(index, rows):
        if client.scheduler_comm is not None:
            client.loop.add_callback(client.scheduler_comm.comm.abort)

    out = tmp_path / "run"
    try:
        with pytest.raises(ClusterLostError, match=r"dropped chunk .*scheduler-connection-lost"):
            simulate("solowhist", **RUN, out=out, backend="dask", scheduler=client, on_chunk=cut)
    finally:
        with contextlib.suppress(distributed.comm.CommClosedError, AssertionError, OSError):
            client.close()
    kept = len(chunk_files(out))
    assert kept >= 1
    assert simulate("solowhist", **RUN, out=out, resume=True).chunks_skipped == kept


@pytest.mark.parametrize("bad", [0, -1, 0.0, float("nan"), float("inf"), "5", True])
def test_no_workers_timeout_is_checked(bad):
    with pytest.raises(ValueError, match=f"no_workers_timeout must be a finite number.*{bad!r}"):
        simulate("solowhist", 10, backend="dask", no_workers_timeout=bad)


def test_no_workers_timeout_is_for_dask(capsys):
    with pytest.raises(ValueError, match="no_workers_timeout= is for backend='dask'"):
        simulate("solowhist", 10, no_workers_timeout=5)
    assert main(["simulate", "--deals", "10", "--no-workers-timeout", "5", "--quiet"]) == 2
    assert "--no-workers-timeout is for --backend dask" in capsys.readouterr().err
