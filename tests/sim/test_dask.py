"""The Dask backend writes the same rows and the same chunk files as a local run."""

from __future__ import annotations

import os

import pytest
from pandas.testing import assert_frame_equal
from run_helpers import local_cluster

from trickgym.sim import read_dataset, simulate

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    """A small in-process cluster: two single-threaded workers."""
    stack, cluster, client = local_cluster()
    with stack:
        yield cluster, client


def files(path) -> dict[str, bytes]:
    return {f: (path / f).read_bytes() for f in sorted(os.listdir(path))}


def test_dask_dataset_is_byte_equal_to_local(tmp_path, cluster):
    _, client = cluster
    kwargs = {"deals": 3000, "agents": ["rule", "random", "rule", "random"], "seed": 9}
    local = simulate("solowhist", chunk=700, out=tmp_path / "local", **kwargs)
    dask = simulate(
        "solowhist", chunk=700, out=tmp_path / "dask", backend="dask", scheduler=client, **kwargs
    )
    assert local.chunks_run == dask.chunks_run == 5
    assert files(tmp_path / "local") == files(tmp_path / "dask")
    frame = read_dataset(tmp_path / "dask")
    assert_frame_equal(frame, simulate("solowhist", **kwargs))
    assert frame["deal"].tolist() == list(range(3000))


def test_rows_do_not_depend_on_backend_threads_or_chunks(cluster):
    _, client = cluster
    base = simulate("troggu", 2000, "rule", seed=4, players=5, threads=1, chunk=2000)
    for backend, threads, chunk in [
        ("local", 2, 2000),
        ("local", 1, 333),
        ("local", 2, 7),
        ("dask", None, 250),
        ("dask", 2, 999),
    ]:
        scheduler = client if backend == "dask" else None
        df = simulate(
            "troggu", 2000, "rule", seed=4, players=5, threads=threads, chunk=chunk,
            backend=backend, scheduler=scheduler,
        )  # fmt: skip
        assert_frame_equal(df, base)


def test_dask_whole_matches_and_resume(tmp_path, cluster):
    """Phat matches on Dask; a run started locally is completed on the cluster."""
    scheduler_address = cluster[0].scheduler_address
    base = simulate("phat", matches=40, agents="rule", seed=2)
    df = simulate(
        "phat", matches=40, agents="rule", seed=2, chunk=6, backend="dask", scheduler=cluster[1]
    )
    assert_frame_equal(df, base)

    def stop(index, rows):
        raise KeyboardInterrupt

    out = tmp_path / "phat"
    with pytest.raises(KeyboardInterrupt):
        simulate("phat", matches=40, agents="rule", seed=2, chunk=6, out=out, on_chunk=stop)
    run = simulate(
        "phat", matches=40, agents="rule", seed=2, chunk=6, out=out, resume=True,
        backend="dask", scheduler=scheduler_address,
    )  # fmt: skip
    assert (run.chunks_skipped, run.chunks_run) == (1, 6)
    assert_frame_equal(read_dataset(out), base)


def test_interrupted_dask_run_resumes(tmp_path, cluster):
    """Stopping a Dask run cancels its queued chunks; resuming completes it exactly."""
    _, client = cluster
    out = tmp_path / "sw"
    kwargs = {"deals": 1200, "agents": "rule", "seed": 3, "chunk": 100, "out": out}

    def stop(index, rows):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate("solowhist", backend="dask", scheduler=client, on_chunk=stop, **kwargs)
    kept = [f for f in os.listdir(out) if f.startswith("chunk-")]
    assert len(kept) == 1
    run = simulate("solowhist", backend="dask", scheduler=client, resume=True, **kwargs)
    assert (run.chunks_skipped, run.chunks_run) == (1, 11)
    df = read_dataset(out)
    assert df["deal"].tolist() == list(range(1200))
    assert_frame_equal(df, simulate("solowhist", 1200, "rule", seed=3))


def test_backend_errors():
    with pytest.raises(ValueError, match="backend must be one of local, dask"):
        simulate("solowhist", 10, backend="spark")
    with pytest.raises(ValueError, match="scheduler= is for backend='dask'"):
        simulate("solowhist", 10, scheduler="tcp://localhost:8786")
    with pytest.raises(ValueError, match="scheduler must be an address"):
        simulate("solowhist", 10, backend="dask", scheduler=42)


def test_learnt_agent_runs_on_dask_as_locally(cluster):
    """The registered ``learnt`` agent (numpy weights, no PyTorch) resolves on the workers."""
    _, client = cluster
    kwargs = {"deals": 40, "agents": ["learnt", "rule", "learnt", "rule"], "seed": 6, "chunk": 15}
    local = simulate("solowhist", **kwargs)
    remote = simulate("solowhist", backend="dask", scheduler=client, **kwargs)
    assert_frame_equal(local, remote)


def test_policy_file_runs_on_dask_as_locally(cluster, tmp_path):
    """An agent named ``policy:PATH`` (numpy MLP weights) is loaded by the workers themselves."""
    import numpy as np

    import trickgym
    from trickgym.games.obs_features import feature_plan

    _, client = cluster
    game = trickgym.game("solowhist")
    rng = np.random.default_rng(0)
    path = tmp_path / "policy.npz"
    np.savez(path, w0=rng.normal(0, 0.3, (feature_plan(game).size, 8)), b0=np.zeros(8),
             w1=rng.normal(0, 1, (8, game.n_actions)), b1=np.zeros(game.n_actions))  # fmt: skip
    kwargs = {"deals": 40, "agents": [f"policy:{path}", "rule"] * 2, "seed": 6, "chunk": 15}
    local = simulate("solowhist", **kwargs)
    remote = simulate("solowhist", backend="dask", scheduler=client, **kwargs)
    assert_frame_equal(local, remote)
    assert not local.equals(simulate("solowhist", **{**kwargs, "agents": "rule"}))


def test_pimc_runs_on_dask_as_on_one_thread(cluster):
    """Python agents' chunks run on the workers and give one local thread's rows."""
    _, client = cluster
    kwargs = {"deals": 4, "agents": ["pimc", "rule", "rule", "rule"], "seed": 2, "chunk": 2}
    local = simulate("solowhist", threads=1, **kwargs)
    remote = simulate("solowhist", backend="dask", scheduler=client, **kwargs)
    assert_frame_equal(local, remote)
