"""RunSpec: simulate's run description, checked once when made (issue 47)."""

from __future__ import annotations

import dataclasses

import pytest
from pandas.testing import assert_frame_equal

import trickgym
from trickgym.sim import Agents, Backend, Output, RunSpec, read_dataset, simulate


def test_exported_from_the_package():
    assert trickgym.RunSpec is RunSpec and "RunSpec" in trickgym.__all__


def test_keywords_and_spec_are_the_same_run(tmp_path):
    spec = RunSpec("solowhist", 40, "random", 5, first=8, output=Output(chunk=16))
    by_keywords = simulate("solowhist", 40, "random", 5, first=8, chunk=16)
    assert_frame_equal(simulate(spec), by_keywords)
    assert len(by_keywords) == 40 and by_keywords["deal"].iloc[0] == 8
    written = simulate(dataclasses.replace(spec, output=Output(tmp_path / "run", chunk=16)))
    assert written.spec == spec.plan and written.chunks_run == 3
    assert_frame_equal(read_dataset(tmp_path / "run"), by_keywords)


def test_keywords_land_in_their_groups():
    spec = RunSpec.from_keywords(
        "troggu", 10, "rule", 3, players=5, chunk=5, threads=1, dd=True, progress=False,
        pack="shuffled",
    )  # fmt: skip
    assert spec.agents == Agents("rule", dd=True)
    assert spec.output == Output(chunk=5, progress=False)
    assert spec.backend == Backend(threads=1)
    assert spec.options == {"players": 5} and spec.pack == "shuffled"
    plan = spec.plan
    assert plan.agents == ("rule",) * 5 and plan.chunk == 5 and plan.dd and plan.seed == 3


def test_shorthands_become_records():
    spec = RunSpec("solowhist", agents=["rule", "random"] * 2, output="runs/x", backend="local")
    assert spec.agents == Agents(["rule", "random"] * 2)
    assert spec.output == Output("runs/x") and spec.backend == Backend("local")
    assert spec.plan.agents == ("rule", "random", "rule", "random")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "nope"}, "unknown game 'nope'"),
        ({"deals": 0}, "deals"),
        ({"agents": ["rule"] * 3}, "agents must be one agent or a list of 4"),
        ({"pack": "bga", "dealing": "shuffled"}, "contradicts"),
        ({"backend": "spark"}, "backend must be one of local, dask"),
        ({"backend": Backend(scheduler="tcp://x:1")}, "scheduler= is for backend='dask'"),
        ({"output": Output(resume=True)}, "resume=True needs out="),
        ({"output": Output(columns=["nope"])}, "nope"),
        ({"output": Output("o", columns=["deal"])}, "columns= is for runs without out="),
        ({"output": Output(trajectories=True)}, "trajectories=True writes"),
        ({"output": 3}, "output must be an Output record or a folder path"),
        ({"options": ["unit"]}, "options must be a mapping"),
        ({"agents": Agents("rule", dd_max_nodes=5)}, "dd_max_nodes=5 is for dd=True runs"),
    ],
)
def test_a_bad_value_is_refused_when_the_spec_is_made(kwargs, message):
    with pytest.raises(ValueError, match=message):
        RunSpec(**kwargs)


def test_the_spec_is_frozen_and_replace_checks_again():
    spec = RunSpec("solowhist", 16)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.deals = 5
    with pytest.raises(ValueError, match="unknown game"):
        dataclasses.replace(spec, game="bridge")
    assert dataclasses.replace(spec, seed=9).plan.seed == 9


def test_a_drawn_seed_is_the_specs():
    spec = RunSpec("solowhist", 8, seed=None)
    assert isinstance(spec.plan.seed, int)
    assert RunSpec("solowhist", 8, seed=None).plan.seed != spec.plan.seed  # each spec draws
    # every run of one spec uses its seed
    assert_frame_equal(simulate(spec), simulate(spec))


def test_a_spec_takes_nothing_else():
    spec = RunSpec("solowhist", 8)
    for kwargs in ({"seed": 3}, {"chunk": 4}, {"deals": 2}, {"agents": "rule"}):
        with pytest.raises(ValueError, match="takes the RunSpec alone"):
            simulate(spec, **kwargs)
    with pytest.raises(ValueError, match="given both in agents="):
        RunSpec.from_keywords("solowhist", 8, Agents("rule"), dd=True)
