"""The native vector env's own options: threads, buffers, partial resets, built-in actions.

That it steps like ``SyncVectorEnv`` over single envs, in every game
configuration, is checked in ``tests/envs/test_conformance.py``.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from trickgym.envs.vector import SoloWhistVectorEnv
from trickgym.envs.vector.pcg64 import draw_seed, pcg_state


def make_pair(env_id, options, n):
    """The native vector env and ``SyncVectorEnv`` over ``n`` single envs, same options."""
    native = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", **options)
    single = {k: v for k, v in options.items() if k != "parallel"}
    sync = SyncVectorEnv(
        [lambda: gym.make(env_id, **single) for _ in range(n)],
        autoreset_mode=AutoresetMode.NEXT_STEP,
    )
    return native, sync


def assert_obs_equal(a: dict, b: dict, context: str) -> None:
    assert list(a) == list(b), context
    for key in a:
        x, y = np.asarray(a[key]), np.asarray(b[key])
        assert x.shape == y.shape, f"{context} {key}: shape {x.shape} != {y.shape}"
        np.testing.assert_array_equal(x, y, err_msg=f"{context} key {key}")


def pick_actions(rng, masks, illegal_rate=0.0):
    """A random legal action per env (0 where nothing is legal), some illegal if asked."""
    actions = np.zeros(len(masks), dtype=np.int64)
    for i, row in enumerate(masks):
        legal = np.flatnonzero(row)
        if legal.size:
            actions[i] = rng.choice(legal)
        if rng.random() < illegal_rate:
            illegal = np.flatnonzero(~row.astype(bool))
            actions[i] = rng.choice(illegal) if illegal.size else actions[i]
    return actions


def test_parallel_equals_serial():
    """Splitting the batch over threads changes nothing."""
    envs = [SoloWhistVectorEnv(64, opponents="rule", parallel=p) for p in (False, True)]
    outs = [env.reset(seed=5)[0] for env in envs]
    assert_obs_equal(*outs, "reset")
    rng = np.random.default_rng(1)
    for t in range(30):
        actions = pick_actions(rng, outs[0]["action_mask"])
        results = [env.step(actions) for env in envs]
        assert_obs_equal(results[0][0], results[1][0], f"step {t}")
        np.testing.assert_array_equal(results[0][1], results[1][1])
        outs = [results[0][0]]


def test_pcg64_mirror_draws_like_numpy():
    """The compiled PCG64 draws what ``Generator.integers(0, 2**63, uint64)`` draws."""
    for seed in (0, 1, 2**40 + 3):
        generator = np.random.default_rng(seed)
        state = pcg_state(generator)
        want = generator.integers(0, 2**63, size=50, dtype=np.uint64)
        got = np.array([draw_seed(state) for _ in range(50)], dtype=np.uint64)
        np.testing.assert_array_equal(got, want)


def test_copy_false_returns_the_live_buffers():
    """``copy=False`` hands out the env's buffers; the default hands out copies."""
    fast = SoloWhistVectorEnv(3, copy=False)
    slow = SoloWhistVectorEnv(3)
    a, _ = fast.reset(seed=0)
    b, _ = fast.step(pick_actions(np.random.default_rng(0), a["action_mask"]))[:2]
    assert a["hand"] is b["hand"] or np.shares_memory(a["hand"], b["hand"])
    c, _ = slow.reset(seed=0)
    d = slow.step(pick_actions(np.random.default_rng(0), c["action_mask"]))[0]
    assert not np.shares_memory(c["hand"], d["hand"])
    np.testing.assert_array_equal(fast.flat_observations[:, :52], d["hand"])


def test_observations_handed_out_never_change():
    """With ``copy=True`` a kept observation (or a view of one) survives later steps.

    The env recycles the buffers of observations the caller dropped; these
    keep some whole observations, some single keys, and drop the rest.
    """
    env = SoloWhistVectorEnv(4, opponents="rule")
    rng = np.random.default_rng(3)
    obs, _ = env.reset(seed=2)
    kept = [(obs, {k: v.copy() for k, v in obs.items()})]
    for t in range(40):
        obs = env.step(pick_actions(rng, obs["action_mask"]))[0]
        if t % 3 == 0:
            kept.append((obs, {k: v.copy() for k, v in obs.items()}))
        elif t % 3 == 1:
            kept.append(({"hand": obs["hand"]}, {"hand": obs["hand"].copy()}))
    for held, snapshot in kept:
        for key, value in held.items():
            np.testing.assert_array_equal(value, snapshot[key], err_msg=key)


def test_illegal_action_raise_steps_nothing():
    """``illegal_action="raise"`` names the sub-env and action, and steps no sub-env."""
    env = SoloWhistVectorEnv(4, illegal_action="raise")
    obs, _ = env.reset(seed=2)
    actions = pick_actions(np.random.default_rng(0), obs["action_mask"])
    bad = int(np.flatnonzero(~obs["action_mask"][2].astype(bool))[0])
    actions[2] = bad
    before = env._states.copy()
    with pytest.raises(ValueError, match=f"illegal action {bad} in sub-env 2"):
        env.step(actions)
    assert (env._states == before).all()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"num_envs": 0}, r"num_envs must be an integer 1\.\.1048576, got 0"),
        ({"num_envs": 2, "seat": 4}, "seat must be an integer 0..3"),
        ({"num_envs": 2, "opponents": "nobody"}, "unknown agent 'nobody'"),
        ({"num_envs": 2, "unit": 0}, "option unit must be an integer 1..1000"),
        ({"num_envs": 2, "parallel": "yes"}, "parallel must be None, True or False"),
    ],
)
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        SoloWhistVectorEnv(**kwargs)


class SeededRandom:
    """A Python agent with per-deal state: random legal actions from its deal's seed."""

    def start_deal(self, seed, seat):
        self.rng = np.random.default_rng(seed)
        self.decisions = 0

    def act(self, observation, action_mask):
        self.decisions += 1
        return int(self.rng.choice(np.flatnonzero(action_mask)))


def test_python_agents_play_one_copy_per_sub_env():
    """Python agents (once refused) play each sub-env with their own copy, seeded per
    episode from the sub-env's seed: sub-env i of a batch replays a batch of one seeded s+i."""
    agent = SeededRandom()
    env = SoloWhistVectorEnv(3, opponents=[agent, "rule", agent])
    alone = SoloWhistVectorEnv(1, opponents=[agent, "rule", agent])
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=40)
    one, _ = alone.reset(seed=42)
    for _ in range(80):
        assert_obs_equal({k: v[2:] for k, v in obs.items()}, one, "sub-env 2")
        actions = pick_actions(rng, env.action_masks())
        obs, rewards, *_ = env.step(actions)
        one, reward, *_ = alone.step(actions[2:])
        assert rewards[2] == reward[0]
    copies = env._row_agents[1]  # seat 1, the first opponent of seat 0
    assert len({id(c) for c in copies}) == 3 and all(c.decisions > 0 for c in copies)
    assert not hasattr(agent, "rng")  # the caller's object is left alone


def test_step_checks_actions():
    env = SoloWhistVectorEnv(2)
    with pytest.raises(ValueError, match="call reset"):
        env.step(np.zeros(2, dtype=np.int64))
    env.reset(seed=0)
    with pytest.raises(ValueError, match="actions must be 2 integers"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match=r"seed must be None, an integer 0\.\.\d+ or a list of 2"):
        env.reset(seed=[1])


def test_partial_reset_as_sync_vector_env():
    """``options={"reset_mask": ...}`` resets (and seeds) only the masked envs, as Sync does."""
    native, sync = make_pair("trickgym/SoloWhist-v0", {"opponents": "rule"}, 4)
    rng = np.random.default_rng(2)
    obs_s, _ = sync.reset(seed=1)
    native.reset(seed=1)
    for _ in range(5):
        actions = pick_actions(rng, obs_s["action_mask"])
        native.step(actions)
        obs_s = sync.step(actions)[0]
    mask = np.array([True, False, True, False])
    obs_n, _ = native.reset(seed=[20, 21, None, 23], options={"reset_mask": mask.copy()})
    obs_s, _ = sync.reset(seed=[20, 21, None, 23], options={"reset_mask": mask.copy()})
    assert_obs_equal(obs_n, obs_s, "partial reset")
    for t in range(30):
        actions = pick_actions(rng, obs_s["action_mask"])
        obs_n, rew_n = native.step(actions)[:2]
        obs_s, rew_s = sync.step(actions)[:2]
        assert_obs_equal(obs_n, obs_s, f"step {t}")
        np.testing.assert_array_equal(rew_n, rew_s)


def test_builtin_actions_are_the_agents_and_legal():
    """``builtin_actions`` gives a legal action wherever the learner acts, 0 where it cannot."""
    env = SoloWhistVectorEnv(8, opponents="rule")
    obs, _ = env.reset(seed=3)
    pending = np.zeros(8, dtype=bool)
    for _ in range(40):
        actions = env.builtin_actions("rule")
        live = ~pending
        assert obs["action_mask"][live, actions[live]].all()
        obs, _, terminated, _, _ = env.step(actions)
        pending = terminated
    assert (env.builtin_actions("random")[pending] == 0).all()


def test_parallel_steps_leave_the_callers_openmp_threads(tmp_path):
    """A learner's PyTorch shares the OpenMP runtime: its thread count must stay as set.

    Run in a fresh process, where the first parallel kernel starts numba's pool.
    """
    import subprocess
    import sys

    script = tmp_path / "threads.py"
    script.write_text(
        "import ctypes, gymnasium, numpy as np, trickgym\n"
        "gomp = ctypes.CDLL('libgomp.so.1')\n"
        "gomp.omp_set_num_threads(1)\n"
        "envs = gymnasium.make_vec('trickgym/SoloWhist-v0', num_envs=64,\n"
        "    vectorization_mode='vector_entry_point', parallel=True)\n"
        "envs.reset(seed=1)\n"
        "envs.step(envs.action_space.sample())\n"
        "print(gomp.omp_get_max_threads())\n"
    )
    import ctypes

    try:
        ctypes.CDLL("libgomp.so.1")
    except OSError:
        pytest.skip("no GNU OpenMP runtime here")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True)
    assert out.stdout.split()[-1] == "1"


def test_threads_by_default_only_for_large_batches_on_idle_cores_without_torch(monkeypatch):
    """The default step is serial unless the batch is large, cores are idle and torch is absent.

    A threaded step collapses when another process holds a core
    (benchmarks/README.md, vector env threading), so 64 envs stay serial even
    on an idle machine.
    """
    import sys

    from trickgym.envs.vector import base

    def make(n=64, **kwargs):
        return gym.make_vec(
            "trickgym/SoloWhist-v0", num_envs=n, vectorization_mode="vector_entry_point", **kwargs
        ).unwrapped

    monkeypatch.delitem(sys.modules, "torch", raising=False)
    monkeypatch.setattr(base, "_free_cores", lambda: 64.0)
    assert not make().parallel
    assert make(parallel=True).parallel
    large = base.PARALLEL_MIN_ENVS
    assert base._default_parallel(large) and not base._default_parallel(large - 1)
    monkeypatch.setattr(base, "_free_cores", lambda: 0.9)  # another process holds a core
    assert not base._default_parallel(large)
    monkeypatch.setattr(base, "_free_cores", lambda: 64.0)
    monkeypatch.setitem(sys.modules, "torch", object())
    assert not base._default_parallel(large)


def test_kernel_groups_follow_their_records():
    """The step, reset and act kernels read the batch by position: the env's tuples must
    hold its arrays in the order of the named records."""
    from trickgym.envs.vector import kernels

    env = SoloWhistVectorEnv(num_envs=3, opponents="rule")
    groups = (
        (kernels.EnvArrays, env._env_arrays()),
        (kernels.Encoded, env._encoded()),
        (kernels.StepResults, env._results()),
    )
    for record, values in groups:
        assert len(values) == len(record._fields)
        for name, value in zip(record._fields, values, strict=True):
            assert value is getattr(env, f"_{name}"), (record.__name__, name)


def test_batch_options_record_or_keywords():
    from trickgym.envs.vector import BatchOptions

    by_record = SoloWhistVectorEnv(num_envs=2, batch=BatchOptions(copy=False, parallel=False))
    by_keywords = SoloWhistVectorEnv(num_envs=2, copy=False, parallel=False)
    for env in (by_record, by_keywords):
        assert env.copy is False and env.parallel is False
    with pytest.raises(ValueError, match="copy given both in batch= and as a keyword"):
        SoloWhistVectorEnv(num_envs=2, batch=BatchOptions(), copy=False)
    with pytest.raises(ValueError, match="batch must be a BatchOptions record"):
        SoloWhistVectorEnv(num_envs=2, batch={"copy": False})
    with pytest.raises(ValueError, match="copy must be True or False"):
        SoloWhistVectorEnv(num_envs=2, batch=BatchOptions(copy="no"))
