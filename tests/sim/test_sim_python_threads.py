"""Python agents on several threads: worker processes, the same rows as on one thread."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from multiprocessing import get_context

import numpy as np
import pytest
from pandas.testing import assert_frame_equal
from run_helpers import chunk_files

from trickgym.agents import RandomAgent, registry
from trickgym.agents.mc import make_mc_agent
from trickgym.duplicate import tournament
from trickgym.sim import python_pool, read_dataset, simulate

# PIMC at a small budget (a few milliseconds a decision), by a name the workers
# learn from the registered factory this process sends them.
TINY = "pimc_tiny_test"
SEATS = [TINY, "rule", "rule", "rule"]


@pytest.fixture(scope="module")
def kept():
    """One pool of workers for the module's runs (started once: about 2 s)."""
    with python_pool.keep_workers():
        yield


@pytest.fixture
def pools(monkeypatch, kept):
    """A tiny PIMC registered, workers from the third deal on; the runs given to workers."""
    monkeypatch.setitem(
        registry._FACTORIES, TINY, partial(make_mc_agent, "pimc", samples=2, rollouts=1)
    )
    monkeypatch.setattr(python_pool, "PROBE_SECONDS", 0.0)
    monkeypatch.setattr(python_pool, "POOL_MIN_SECONDS", 0.0)
    monkeypatch.setattr(python_pool, "STEP_SECONDS", 0.0)  # one deal (or match) a step here
    runs = []
    run_pool = python_pool._run_pool

    def spy(spec, who, blob, chunk, queue, workers, *rest):
        runs.append(workers)
        return run_pool(spec, who, blob, chunk, queue, workers, *rest)

    monkeypatch.setattr(python_pool, "_run_pool", spy)
    return runs


def test_rows_and_dataset_are_the_same_on_two_threads(pools, tmp_path):
    """Chunks split between this process and two workers give one thread's rows and files."""
    kwargs = {"deals": 8, "agents": SEATS, "seed": 5, "chunk": 3, "progress": False}
    one = simulate("solowhist", threads=1, **kwargs)
    assert pools == []
    ticks = []
    two = simulate("solowhist", threads=2, on_chunk=lambda i, n: ticks.append((i, n)), **kwargs)
    assert pools == [2]
    assert_frame_equal(one, two)
    assert one["deal"].tolist() == list(range(8))
    assert sorted(ticks) == [(0, 3), (1, 3), (2, 2)]
    run = simulate("solowhist", threads=2, out=tmp_path / "d", **kwargs)
    assert (run.chunks_run, run.rows) == (3, 8)
    assert_frame_equal(read_dataset(tmp_path / "d"), one)
    files = chunk_files(tmp_path / "d")
    (tmp_path / "d" / files[1]).unlink()  # an interrupted run: resume redoes the chunk
    again = simulate("solowhist", threads=2, out=tmp_path / "d", resume=True, **kwargs)
    assert (again.chunks_run, again.chunks_skipped) == (1, 2)
    assert_frame_equal(read_dataset(tmp_path / "d"), one)
    assert pools == [2, 2, 2]


def test_tournament_is_the_same_on_two_threads(pools, monkeypatch):
    """A tournament's seatings share one pool of workers and give one thread's rows."""
    monkeypatch.setattr(python_pool, "_kept", None)  # out of the module's pool
    started = []
    new_pool = python_pool._new_pool
    monkeypatch.setattr(python_pool, "_new_pool", lambda n: started.append(n) or new_pool(n))
    one = tournament("solowhist", [TINY, "rule"], deals=3, seed=2, threads=1, progress=False)
    two = tournament("solowhist", [TINY, "rule"], deals=3, seed=2, threads=2, progress=False)
    assert pools == [2, 2]  # both seatings (ABAB, BABA) went to the workers
    assert started == [2]  # started once
    assert_frame_equal(one.rows, two.rows)
    assert_frame_equal(one.standings, two.standings)


def test_small_runs_stay_in_this_process(monkeypatch):
    """A run shorter than the workers' start-up never starts them."""
    monkeypatch.setattr(python_pool, "_run_pool", lambda *args: pytest.fail("workers used"))
    df = simulate("solowhist", 50, [RandomAgent(3), "rule", "rule", "rule"], seed=1, threads=2)
    assert len(df) == 50


class Seeded(RandomAgent):
    """A random agent that draws from the deal's seed: it replays any deal alone."""

    def start_deal(self, seed: int, seat: int) -> None:
        self._rng = np.random.default_rng(seed)


@pytest.mark.parametrize("seeded", [True, False])
def test_agents_workers_cannot_replay_play_here_with_a_warning(pools, seeded):
    """An agent that cannot be pickled, or has no start_deal, plays in this process."""

    class Local(Seeded):  # a local class cannot be pickled
        pass

    agent = Local if seeded else RandomAgent  # RandomAgent draws on from deal to deal
    why = "cannot be pickled" if seeded else "RandomAgent has no start_deal"
    kwargs = {"seed": 3, "chunk": 1}
    with pytest.warns(RuntimeWarning, match=why):
        two = simulate("solowhist", 6, [agent(4), "rule", "rule", "rule"], threads=2, **kwargs)
    assert pools == []
    one = simulate("solowhist", 6, [agent(4), "rule", "rule", "rule"], threads=1, **kwargs)
    assert_frame_equal(two, one)


def test_agent_objects_are_copied_to_the_workers(pools):
    """A picklable agent object with start_deal plays on the workers, the same rows."""
    kwargs = {"seed": 8, "chunk": 2, "progress": False}
    two = simulate("solowhist", 6, [Seeded(), "rule", Seeded(), "rule"], threads=2, **kwargs)
    assert pools == [2]
    one = simulate("solowhist", 6, [Seeded(), "rule", Seeded(), "rule"], threads=1, **kwargs)
    assert_frame_equal(two, one)


def test_workers_that_cannot_start_leave_the_run_here(pools, monkeypatch):
    """Workers dying at start (a script without a __main__ guard): this process plays on."""

    def dying(workers):  # every worker exits at once, as one importing such a script
        return ProcessPoolExecutor(
            workers, mp_context=get_context("spawn"), initializer=partial(os._exit, 3)
        )

    monkeypatch.setattr(python_pool, "_kept", None)  # out of the module's pool
    monkeypatch.setattr(python_pool, "_new_pool", dying)
    kwargs = {"deals": 7, "agents": SEATS, "seed": 5, "chunk": 4, "progress": False}
    with pytest.warns(RuntimeWarning, match="could not start"):
        two = simulate("solowhist", threads=2, **kwargs)
    assert_frame_equal(two, simulate("solowhist", threads=1, **kwargs))


@pytest.mark.parametrize(
    ("game", "size"),
    [
        ("phat", {"matches": 5, "chunk": 2}),  # whole matches, rows per match vary
        ("solowhist", {"deals": 40, "chunk": 16, "dealing": "match"}),  # parts of 8 deals
    ],
)
def test_matches_are_the_same_on_two_threads(pools, game, size):
    """Matches are handed out whole; their rows join in order as on one thread."""
    agents = [Seeded(), "rule", Seeded(), "rule"]
    two = simulate(game, agents=agents, seed=4, threads=2, progress=False, **size)
    assert pools == [2]
    assert_frame_equal(two, simulate(game, agents=agents, seed=4, threads=1, **size))
