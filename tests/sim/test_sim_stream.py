"""Streaming runs to a Parquet dataset: chunk files, metadata, interruption and resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal
from run_helpers import Stop, as_written_before, chunk_files, stop_after

import trickgym
from trickgym.agents import RandomAgent
from trickgym.sim import SimulationRun, read_dataset, simulate
from trickgym.sim.dataset import METADATA_NAME, read_metadata


@pytest.fixture(scope="module")
def whole():
    """The uninterrupted in-memory run the dataset tests compare against."""
    return simulate("solowhist", 2500, "rule", seed=7)


def test_dataset_has_one_file_per_chunk_and_the_run_spec(tmp_path, whole):
    run = simulate("solowhist", 2500, "rule", seed=7, chunk=1000, out=tmp_path / "d")
    assert isinstance(run, SimulationRun)
    assert (run.chunks_run, run.chunks_skipped, run.rows) == (3, 0, 2500)
    assert chunk_files(tmp_path / "d") == [
        "chunk-000000-deals-000000000000.parquet",
        "chunk-000001-deals-000000001000.parquet",
        "chunk-000002-deals-000000002000.parquet",
    ]
    meta = json.loads((tmp_path / "d" / METADATA_NAME).read_text())
    assert meta["game"] == "solowhist" and meta["agents"] == ["rule"] * 4
    assert meta["seed"] == 7 and meta["dealing"] == "shuffled" and meta["unit"] == "deal"
    assert (meta["items"], meta["count"], meta["chunk"], meta["n_chunks"]) == (
        "deals",
        2500,
        1000,
        3,
    )
    assert meta["options"] == {
        "unit": 5,
        "num_deals": 8,
        "always_shuffle": False,
        "early_stop": False,
    }
    assert meta["trickgym_version"] == trickgym.__version__
    assert len(meta["rule_params"]) == 4
    assert_frame_equal(read_dataset(tmp_path / "d"), whole)
    assert_frame_equal(run.read(), whole)
    # Plain pandas reads the folder too (the metadata file is skipped).
    assert len(pd.read_parquet(tmp_path / "d")) == 2500


def test_interrupted_run_resumes_to_the_same_rows(tmp_path, whole):
    """A run stopped after two chunks keeps them; resume runs only the other three."""
    out = tmp_path / "r"
    with pytest.raises(Stop):
        simulate("solowhist", 2500, "rule", seed=7, chunk=500, out=out, on_chunk=stop_after(2))
    assert len(chunk_files(out)) == 2
    before = {f: (out / f).stat().st_mtime_ns for f in chunk_files(out)}
    with pytest.raises(ValueError, match="unfinished: 3 of 5 chunks missing"):
        read_dataset(out)
    assert len(read_dataset(out, partial=True)) == 1000
    done = []
    run = simulate(
        "solowhist", 2500, "rule", seed=7, chunk=500, out=out, resume=True,
        on_chunk=lambda i, n: done.append(i),
    )  # fmt: skip
    assert done == [2, 3, 4] and (run.chunks_run, run.chunks_skipped) == (3, 2)
    assert all((out / f).stat().st_mtime_ns == t for f, t in before.items())  # not redone
    df = read_dataset(out)
    assert df["deal"].is_unique
    assert_frame_equal(df, whole)
    # Resuming a finished run does nothing.
    again = simulate("solowhist", 2500, "rule", seed=7, chunk=500, out=out, resume=True)
    assert (again.chunks_run, again.chunks_skipped, again.rows) == (0, 5, 0)


def test_killed_process_leaves_only_whole_chunks(tmp_path, whole):
    """SIGKILL mid-run: finished chunk files stay, a half-written one never appears."""
    out = tmp_path / "k"
    script = textwrap.dedent(
        f"""
        import time
        from trickgym.sim import simulate
        simulate("solowhist", 2500, "rule", seed=7, chunk=250, out={str(out)!r},
                 on_chunk=lambda i, n: time.sleep(0.3))
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 120
        while len(chunk_files(out) if out.exists() else []) < 2:
            assert proc.poll() is None, "the run ended before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    kept = chunk_files(out)
    assert 2 <= len(kept) < 10
    # Leave a stale temporary like a kill during a write would: resume ignores it.
    (out / ".chunk-000009-deals-000000002250.parquet.tmp-1").write_bytes(b"half a file")
    run = simulate("solowhist", 2500, "rule", seed=7, chunk=250, out=out, resume=True)
    assert run.chunks_skipped == len(kept) and run.chunks_run == 10 - len(kept)
    assert not [f for f in os.listdir(out) if ".tmp-" in f]
    assert_frame_equal(read_dataset(out), whole)


def test_resume_refuses_a_different_run(tmp_path):
    out = tmp_path / "x"
    with pytest.raises(Stop):
        simulate("solowhist", 600, "random", seed=1, chunk=200, out=out, on_chunk=stop_after(1))
    for change, named in [
        ({"seed": 2}, "seed: folder has 1, this run 2"),
        ({"chunk": 300}, "chunk"),
        ({"agents": "rule"}, "agents"),
        ({"unit": 2}, "options"),
        ({"deals": 800}, "count"),
    ]:
        kwargs = {"deals": 600, "agents": "random", "seed": 1, "chunk": 200, **change}
        with pytest.raises(ValueError, match=named):
            simulate("solowhist", out=out, resume=True, **kwargs)
    with pytest.raises(ValueError, match=r"already holds a run .1 of 3 chunks done.*resume"):
        simulate("solowhist", 600, "random", seed=1, chunk=200, out=out)
    assert read_metadata(out)["seed"] == 1


def test_output_folder_errors(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="is a file"):
        simulate("solowhist", 10, out=tmp_path / "file")
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("x")
    with pytest.raises(ValueError, match="not empty and holds no trickgym run"):
        simulate("solowhist", 10, out=tmp_path / "busy")
    with pytest.raises(ValueError, match="resume=True needs out="):
        simulate("solowhist", 10, resume=True)
    with pytest.raises(ValueError, match="not a trickgym dataset"):
        read_dataset(tmp_path / "busy")


def test_match_units_stream_whole_matches(tmp_path):
    """BGA-dealt Solo Whist, Phat and Pinochle matches: chunk files hold whole matches."""
    sw = simulate("solowhist", 96, "rule", seed=3, pack="bga", num_deals=4, chunk=40,
                  out=tmp_path / "sw")  # fmt: skip
    assert sw.spec.unit == "match" and read_metadata(tmp_path / "sw")["unit"] == "match"
    with pytest.raises(ValueError, match=r"chunk .41. must be a multiple of num_deals .4."):
        simulate("solowhist", 96, "rule", seed=3, pack="bga", num_deals=4, chunk=41)
    mem = simulate("solowhist", 96, "rule", seed=3, dealing="match", num_deals=4, chunk=8)
    assert_frame_equal(read_dataset(tmp_path / "sw"), mem)
    for game, opts in [("phat", {}), ("pinochle", {"target": 500})]:
        run = simulate(game, matches=30, agents="rule", seed=4, chunk=7, out=tmp_path / game,
                       **opts)  # fmt: skip
        assert chunk_files(tmp_path / game)[1] == "chunk-000001-matches-000000000007.parquet"
        df = read_dataset(tmp_path / game)
        assert df["match"].tolist() == sorted(df["match"]) and df["match"].nunique() == 30
        assert_frame_equal(df, simulate(game, matches=30, agents="rule", seed=4, **opts))
        assert run.spec.unit == "match"


def test_pinochle_whole_matches_race_to_the_target():
    df = simulate("pinochle", matches=25, agents="rule", seed=8, target=600)
    for _, m in df.groupby("match"):
        assert m["deal"].tolist() == list(range(len(m)))
        assert (m["match_ns"].to_numpy() == m["score_ns"].cumsum().to_numpy()).all()
        assert (m["match_ew"].to_numpy() == m["score_ew"].cumsum().to_numpy()).all()
        assert m["game_over"].tolist() == [False] * (len(m) - 1) + [True]
        last = m.iloc[-1]
        assert max(last["match_ns"], last["match_ew"]) >= 600
        before = m.iloc[:-1]
        assert (before["match_ns"] < 600).all() and (before["match_ew"] < 600).all()
    part = simulate("pinochle", matches=5, agents="rule", seed=8, target=600, first=10)
    assert_frame_equal(part, df[df["match"].between(10, 14)].reset_index(drop=True))


def test_pinochle_long_matches_are_replayed_with_room(monkeypatch):
    """With one row slot per match, every match overflows and is replayed: same rows."""
    from trickgym.sim import pinochle as pin

    base = simulate("pinochle", matches=12, agents="rule", seed=2, target=500)
    monkeypatch.setattr(pin, "default_slots", lambda target: 1)
    assert_frame_equal(simulate("pinochle", matches=12, agents="rule", seed=2, target=500), base)


def test_columns_keeps_only_what_is_asked(whole):
    df = simulate("solowhist", 2500, "rule", seed=7, chunk=600, columns=["contract", "made"])
    assert_frame_equal(df, whole[["contract", "made"]])
    with pytest.raises(ValueError, match=r"unknown column.*nope"):
        simulate("solowhist", 20, columns=["nope"])


# ---------------------------------------------------------------- agent registry


class SeededRandom(RandomAgent):
    """A Python random agent re-seeded per deal through start_deal."""

    def start_deal(self, seed, seat):
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask):
        return int(self.rng.choice(np.flatnonzero(action_mask)))


def test_registered_agents_mix_with_built_ins(tmp_path):
    from trickgym.agents.registry import _FACTORIES, make_agent, register_agent

    made = []

    def factory(game, **kwargs):
        made.append(game.name)
        return SeededRandom()

    register_agent("seeded-test", factory)
    try:
        agent = make_agent("seeded-test", "solowhist")
        assert isinstance(agent, SeededRandom) and made == ["solowhist"]
        assert make_agent("rule", "solowhist") == "rule"
        agents = ["rule", "seeded-test", "random", "seeded-test"]
        a = simulate("solowhist", 60, agents, seed=4, chunk=25)
        with pytest.raises(Stop):
            simulate("solowhist", 60, agents, seed=4, chunk=25, out=tmp_path / "a",
                     on_chunk=stop_after(1))  # fmt: skip
        simulate("solowhist", 60, agents, seed=4, chunk=25, out=tmp_path / "a", resume=True)
        assert_frame_equal(read_dataset(tmp_path / "a"), a)
        assert read_metadata(tmp_path / "a")["agents"] == agents
        assert_frame_equal(simulate("solowhist", 60, agents, seed=4, chunk=60), a)
        with pytest.raises(ValueError, match="already registered"):
            register_agent("seeded-test", factory)
        with pytest.raises(ValueError, match="built in"):
            register_agent("rule", factory)
        with pytest.raises(ValueError, match=r"unknown agent 'pimcx'; known agents: .*seeded-test"):
            simulate("solowhist", 10, ["rule", "pimcx", "rule", "rule"])
    finally:
        _FACTORIES.pop("seeded-test", None)
    with pytest.raises(ValueError, match="unknown agent 'seeded-test'; known agents: ") as err:
        make_agent("seeded-test", "solowhist")
    assert "seeded-test" not in str(err.value).split("known agents:")[1]  # unregistered


def test_pinochle_whole_matches_python_loop_matches_the_compiled_loop():
    """The Python loop (used when a seat has a Python agent) plays the same matches."""
    from trickgym.rng import seed_rng
    from trickgym.sim.frames import pinochle_frame
    from trickgym.sim.python_loop import simulate_python_whole_matches
    from trickgym.sim.specs import SPECS

    game = trickgym.game("pinochle", target=500)
    rows = simulate_python_whole_matches(
        game, SPECS["pinochle"], np.uint64(seed_rng(6)), 3, 4, ["rule"] * 4
    )
    expected = simulate("pinochle", matches=4, agents="rule", seed=6, first=3, target=500)
    assert_frame_equal(pinochle_frame(rows, True), expected)


# Issue 17: two processes, one output folder; damaged chunk files.


def test_a_folder_in_use_is_refused(tmp_path):
    """Two runs started together (different seeds) both 'succeeded', mixing their chunks;
    a --resume started meanwhile deleted the first run's in-flight temporary file."""
    from trickgym.sim import Output, RunSpec
    from trickgym.sim.dataset import Dataset

    out = tmp_path / "busy"
    spec = RunSpec("solowhist", 200, "random", 12, output=Output(chunk=100)).plan
    with Dataset(out, spec) as first:
        tmp = out / ".chunk-000000-deals-000000000000.parquet.tmp-99999"
        tmp.write_bytes(b"being written")
        for kwargs in ({"seed": 11}, {"seed": 12, "resume": True}):
            with pytest.raises(ValueError, match="is in use by another run"):
                simulate("solowhist", 200, "random", chunk=100, out=out, **kwargs)
        assert tmp.exists()  # the other run's file is untouched
        tmp.unlink()
        assert first.missing() == [0, 1]
    # Released at the end: the run can be completed now.
    run = simulate("solowhist", 200, "random", seed=12, chunk=100, out=out, resume=True)
    assert run.chunks_run == 2
    assert_frame_equal(read_dataset(out), simulate("solowhist", 200, "random", seed=12))


def test_lock_is_held_by_a_running_process(tmp_path):
    """Across processes: a run in progress in a child refuses a second run in this one."""
    out = tmp_path / "p"
    script = textwrap.dedent(
        f"""
        import time
        from trickgym.sim import simulate
        simulate("solowhist", 400, "random", seed=1, chunk=100, out={str(out)!r},
                 on_chunk=lambda i, n: time.sleep(30))
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 120
        while not (out.exists() and chunk_files(out)):
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        with pytest.raises(ValueError, match="in use by another run"):
            simulate("solowhist", 400, "random", seed=1, chunk=100, out=out, resume=True)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    run = simulate("solowhist", 400, "random", seed=1, chunk=100, out=out, resume=True)
    assert run.chunks_skipped == 1 and run.chunks_run == 3  # the kill released the lock


def test_damaged_chunks_are_caught_and_redone(tmp_path, whole):
    """A truncated chunk, or one holding another chunk's rows, passed --resume and read."""
    out = tmp_path / "dmg"
    simulate("solowhist", 2500, "rule", seed=7, chunk=500, out=out)
    meta = read_metadata(out)
    files = chunk_files(out)
    assert [meta["chunks"][str(i)]["first"] for i in range(5)] == [0, 500, 1000, 1500, 2000]
    assert [meta["chunks"][str(i)]["rows"] for i in range(5)] == [500] * 5
    a, b = (out / files[0]).read_bytes(), (out / files[1]).read_bytes()
    (out / files[0]).write_bytes(b)  # swapped: 500 deals twice, 500 missing
    (out / files[1]).write_bytes(a)
    data = (out / files[3]).read_bytes()
    (out / files[3]).write_bytes(data[: len(data) // 2])  # truncated
    with pytest.raises(ValueError, match="does not match its recorded SHA-256"):
        read_dataset(out)
    with pytest.raises(ValueError, match="does not match"):
        read_dataset(out, columns=["deal"], chunks=[3])
    done = []
    simulate(
        "solowhist", 2500, "rule", seed=7, chunk=500, out=out, resume=True,
        on_chunk=lambda i, n: done.append(i),
    )  # fmt: skip
    assert done == [0, 1, 3]
    assert_frame_equal(read_dataset(out), whole)


def test_unrecorded_chunk_is_redone_and_old_datasets_still_resume(tmp_path, whole):
    out = tmp_path / "old"
    simulate("solowhist", 2500, "rule", seed=7, chunk=500, out=out)
    meta = read_metadata(out)
    del meta["chunks"]["4"]  # as if the record had been lost
    (out / METADATA_NAME).write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="is not recorded"):
        read_dataset(out)
    run = simulate("solowhist", 2500, "rule", seed=7, chunk=500, out=out, resume=True)
    assert (run.chunks_run, run.chunks_skipped) == (1, 4)
    # A dataset written before chunks were recorded: its files are trusted and recorded.
    as_written_before(out)
    assert_frame_equal(read_dataset(out), whole)
    run = simulate("solowhist", 2500, "rule", seed=7, chunk=500, out=out, resume=True)
    assert (run.chunks_run, run.chunks_skipped) == (0, 5)
    assert sorted(read_metadata(out)["chunks"]) == ["0", "1", "2", "3", "4"]
