"""Trajectories (issue 44): every decision written beside the chunks, verified, replayed, read.

The bar: a run's decisions replay each deal from its seed, with the seat
to act and the legal mask of every recorded row, to the recorded payoffs
and the per-deal table's rows (1,000 deals a game were checked by hand;
the suite replays a few dozen a game).
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from pandas.testing import assert_frame_equal

import trickgym.sim.trajectories as trajectories
from trickgym.cli import main
from trickgym.sim import read_dataset, simulate
from trickgym.sim.dataset import METADATA_NAME, verify_dataset
from trickgym.sim.run_metadata import spec_digest
from trickgym.sim.trajectories import check_replay, iter_batches, read_steps, steps_info

RUNS = {
    "solowhist": {"deals": 60},
    "troggu": {"deals": 40, "players": 5},
    "phat": {"matches": 3},
    "pinochle": {"deals": 40},
}


@pytest.mark.parametrize("game", sorted(RUNS))
def test_decisions_replay_every_deal_and_keep_the_rows(game, tmp_path):
    """One row per decision that replays each deal; the per-deal rows are the plain run's."""
    run = {"game": game, "agents": ["rule", "random"] * 2, "seed": 9, **RUNS[game]}
    if game == "troggu":
        run["agents"] = ["rule", "random", "rule", "random", "rule"]
    out = tmp_path / "d"
    written = simulate(**run, out=out, trajectories=True, chunk=2 if game == "phat" else 16)
    assert written.spec.n_chunks >= 2
    assert_frame_equal(read_dataset(out), simulate(**run))
    assert verify_dataset(out, replay=True)["steps"]
    replayed = check_replay(out)
    assert replayed["deals"] == len(read_dataset(out))
    info = steps_info(out)
    assert replayed["decisions"] == info["decisions"] > 20 * replayed["deals"]
    steps = read_steps(out)
    key = info["key"]
    assert steps.column_names == [*key, *trajectories.COLUMNS]
    assert steps.schema.field("features").type.list_size == info["n_features"]
    assert steps.schema.field("mask").type.list_size == info["n_actions"]
    table = read_dataset(out)
    if "payoff_0" in table:  # Solo Whist, Troggu: each decision's payoff is its seat's in the table
        by_deal = table.set_index("deal")
        deal, seat = steps.column("deal").to_numpy(), steps.column("seat").to_numpy()
        payoffs = by_deal[[f"payoff_{s}" for s in range(seat.max() + 1)]].to_numpy()
        rows = by_deal.index.get_indexer(deal)
        assert np.array_equal(steps.column("payoff").to_numpy(), payoffs[rows, seat])


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """A finished Solo Whist run with trajectories: 60 deals in 3 chunks (never changed)."""
    out = tmp_path_factory.mktemp("traj") / "d"
    simulate("solowhist", 60, "rule", 4, out=out, trajectories=True, chunk=20)
    return out


@pytest.fixture
def folder(pristine, tmp_path):
    out = tmp_path / "d"
    shutil.copytree(pristine, out)
    return out


def steps_file(out, index: int = 1):
    return sorted(out.glob("_steps-*.parquet"))[index]


def test_tampered_steps_are_refused_and_redone_by_a_resume(folder, pristine):
    """A changed byte of a steps file: verify, the loader and a resume each catch it."""
    file = steps_file(folder)
    data = bytearray(file.read_bytes())
    data[len(data) // 2] ^= 0xFF
    file.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=rf"steps file {file.name} does not match its recorded"):
        verify_dataset(folder)
    with pytest.raises(ValueError, match="does not match its recorded SHA-256"):
        list(iter_batches(folder, 64))
    run = simulate("solowhist", 60, "rule", 4, out=folder, trajectories=True, chunk=20, resume=True)
    assert run.chunks_run == 1
    assert file.read_bytes() == steps_file(pristine).read_bytes()
    assert verify_dataset(folder)["verified"] == [0, 1, 2]


def test_missing_steps_file_is_refused_and_redone(folder):
    steps_file(folder, 0).unlink()
    with pytest.raises(
        ValueError, match=r"steps file _steps-000000-deals-000000000000\.parquet is"
    ):
        verify_dataset(folder)
    run = simulate("solowhist", 60, "rule", 4, out=folder, trajectories=True, chunk=20, resume=True)
    assert run.chunks_run == 1
    assert check_replay(folder)["deals"] == 60


def test_steps_of_another_chunk_are_refused(folder):
    """Steps swapped between chunks: their ids (and records) give them away."""
    a, b = steps_file(folder, 0), steps_file(folder, 1)
    first = a.read_bytes()
    a.write_bytes(b.read_bytes())
    b.write_bytes(first)
    with pytest.raises(ValueError, match="does not match its recorded SHA-256"):
        verify_dataset(folder)


def test_trajectories_are_in_the_settings_digest(folder):
    """A resume without trajectories is refused; so is metadata edited to drop them."""
    with pytest.raises(ValueError, match="trajectories: folder has True, this run has none"):
        simulate("solowhist", 60, "rule", 4, out=folder, chunk=20, resume=True)
    meta = json.loads((folder / METADATA_NAME).read_text())
    assert meta["trajectories"] is True
    del meta["trajectories"]
    for record in meta["chunks"].values():
        del record["steps_rows"], record["steps_sha256"]
    meta["spec_sha256"] = spec_digest(meta)
    (folder / METADATA_NAME).write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="settings stamp differs"):
        verify_dataset(folder)


def test_a_run_without_trajectories_writes_what_it_wrote_before(tmp_path):
    """No ``trajectories`` key, no steps files: the digest and stamps of earlier versions."""
    simulate("solowhist", 10, "rule", 4, out=tmp_path / "d")
    assert "trajectories" not in json.loads((tmp_path / "d" / METADATA_NAME).read_text())
    assert not list((tmp_path / "d").glob("_steps-*"))
    with pytest.raises(ValueError, match="holds no trajectories"):
        next(iter_batches(tmp_path / "d"))


def test_batches(pristine):
    """Sizes, the seat filter, a seeded shuffle of the same rows, a subset of columns."""
    whole = read_steps(pristine)
    n = whole.num_rows
    batches = list(iter_batches(pristine, 500))
    assert [len(b["action"]) for b in batches] == [500] * (n // 500) + [n % 500]
    first = batches[0]
    assert first["features"].dtype == np.float32 and first["features"].shape[0] == 500
    assert first["mask"].dtype == bool and first["action"].dtype == np.int64
    assert first["mask"][np.arange(500), first["action"]].all()  # every action was legal
    assert np.array_equal(
        np.concatenate([b["action"] for b in batches]), whole.column("action").to_numpy()
    )
    mine = list(iter_batches(pristine, 100, columns=["deal", "action"], seats=[1], drop_last=True))
    assert all(sorted(b) == ["action", "deal"] and len(b["action"]) == 100 for b in mine)
    assert sum(len(b["action"]) for b in mine) == (
        (whole.column("seat").to_numpy() == 1).sum() // 100 * 100
    )
    shuffled = [list(iter_batches(pristine, 256, ["deal", "step"], shuffle_seed=3)) for _ in "ab"]
    a, b = (np.concatenate([x["deal"] * 1000 + x["step"] for x in s]) for s in shuffled)
    assert np.array_equal(a, b)
    plain = whole.column("deal").to_numpy() * 1000 + whole.column("step").to_numpy()
    assert not np.array_equal(a, plain) and np.array_equal(np.sort(a), np.sort(plain))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"batch_size": 0}, "batch_size must be"),
        ({"seats": "0"}, "seats must be a seat number"),
        ({"columns": ["features", "reward"]}, "unknown column"),
        ({"shuffle_seed": -1}, "shuffle_seed"),
    ],
)
def test_bad_loader_arguments(pristine, kwargs, message):
    with pytest.raises(ValueError, match=message):
        next(iter_batches(pristine, **kwargs))


def test_replay_catches_an_action_that_is_not_the_deals(pristine, monkeypatch):
    """The replay is a real check: one recorded action changed makes it fail."""
    tables = trajectories._chunk_tables

    def altered(*args, **kwargs):
        for index, table in tables(*args, **kwargs):
            actions = table.column("action").to_numpy().copy()
            masks = trajectories._numpy(table.column("mask"))
            row = 30  # a card play: more than one legal action
            actions[row] = np.flatnonzero(masks[row] & (np.arange(masks.shape[1]) != actions[row]))[
                0
            ]
            at = table.column_names.index("action")
            yield index, table.set_column(at, "action", pa.array(actions))

    monkeypatch.setattr(trajectories, "_chunk_tables", altered)
    with pytest.raises(ValueError, match=r"replaying deal 0|recorded payoffs differ|other rows"):
        check_replay(pristine)


def test_refused_settings(tmp_path):
    with pytest.raises(ValueError, match=r"trajectories=True writes the decisions .* pass out="):
        simulate("solowhist", 10, trajectories=True)
    with pytest.raises(ValueError, match="trajectories must be True or False"):
        simulate("solowhist", 10, out=tmp_path / "d", trajectories=1)
    with pytest.raises(ValueError, match="dealing='match'"):
        simulate("solowhist", 16, out=tmp_path / "e", trajectories=True, dealing="match")


class FirstLegal:
    """A Python agent object: plays the lowest legal action."""

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[0])


def test_python_agents_and_the_cli(tmp_path, capsys):
    """A Python agent's decisions are recorded too; the CLI writes and verifies trajectories."""
    agents = ["rule", FirstLegal(), "random", "rule"]
    out = tmp_path / "py"
    simulate("solowhist", 12, agents, 2, out=out, trajectories=True, threads=1)
    assert_frame_equal(read_dataset(out), simulate("solowhist", 12, agents, 2, threads=1))
    assert check_replay(out)["deals"] == 12
    steps = read_steps(out)
    seat1 = steps.filter(pc.equal(steps.column("seat"), 1))
    assert seat1.num_rows > 12
    cli = tmp_path / "cli"
    args = ["simulate", "--deals", "20", "--agents", "rule", "--out", str(cli), "--quiet"]
    assert main([*args, "--trajectories"]) == 0
    assert "decisions in _steps-*.parquet" in capsys.readouterr().out
    assert main(["verify", str(cli)]) == 0
    assert "with their steps files" in capsys.readouterr().out


def test_a_steps_file_of_no_chunk_is_named(folder):
    """A steps file beyond the run's chunks is refused by verify, not silently kept."""
    shutil.copy(steps_file(folder, 0), folder / "_steps-000007-deals-000000000140.parquet")
    with pytest.raises(ValueError, match="named as a steps file but is not one of this run's"):
        verify_dataset(folder)


def test_dask_writes_the_same_files(tmp_path):
    """Chunks and their steps come back from Dask workers byte for byte as a local run's."""
    pytest.importorskip("distributed")
    from run_helpers import local_cluster

    kwargs = {"deals": 40, "agents": ["rule", "random"] * 2, "seed": 9, "chunk": 20}
    simulate("solowhist", out=tmp_path / "local", trajectories=True, **kwargs)
    stack, _, client = local_cluster()
    with stack:
        simulate(
            "solowhist", out=tmp_path / "dask", trajectories=True, backend="dask",
            scheduler=client, **kwargs,
        )  # fmt: skip
    local, dask = (
        {f.name: f.read_bytes() for f in sorted((tmp_path / d).iterdir())}
        for d in ("local", "dask")
    )
    assert len([n for n in local if n.startswith("_steps-")]) == 2
    assert local == dask
