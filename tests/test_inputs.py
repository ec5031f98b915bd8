"""Values people give (options, seeds, seats, actions) are checked, never wrapped or truncated.

Issue 17: options stored in 32-bit fields wrapped (``unit=2**31-1`` paid
-2147483648), ``seed=2**64`` was seed 0, ``env.step(52.7)`` played 52, and
a uint64 action ``2**64-1`` was reported as "illegal action -1".
"""

from __future__ import annotations

import re
import sys

import gymnasium as gym
import numpy as np
import pytest

import trickgym
from trickgym.checks import as_int, check_int, check_real
from trickgym.sim import simulate


def same_state(a: np.ndarray, b: np.ndarray) -> bool:
    """Field by field (``tobytes`` would compare the padding too)."""
    return all(np.array_equal(a[name], b[name]) for name in a.dtype.names)


@pytest.mark.parametrize(
    "game, options, message",
    [
        (
            "solowhist",
            {"unit": 2**31 - 1},
            r"option unit must be an integer 1\.\.1000, got 2147483647",
        ),
        ("solowhist", {"unit": 4294967296}, "option unit must be an integer 1..1000"),
        ("solowhist", {"unit": 5.0}, "option unit must be an integer"),
        ("solowhist", {"num_deals": 2**32 + 8}, r"option num_deals must be an integer 1\.\.10000"),
        ("solowhist", {"early_stop": 1}, "option early_stop must be True or False"),
        ("troggu", {"players": 5, "num_deals": 2**32 + 8}, "option num_deals must be an integer"),
        ("troggu", {"players": 5.0}, r"option players must be an integer 3\.\.8"),
        ("phat", {"target": 2**32}, r"option target must be an integer 1\.\.10000, got 4294967296"),
        ("phat", {"target": 2**31 - 1}, "option target must be an integer 1..10000"),
        ("phat", {"games_in_match": 10**6}, r"option games_in_match must be an integer 1\.\.1000"),
        ("pinochle", {"pass_count": 4.0}, "option pass_count must be 3 or 4"),
    ],
)
def test_options_out_of_range_are_refused(game, options, message):
    with pytest.raises(ValueError, match=message):
        trickgym.game(game, **options)


def test_largest_options_fit_the_state():
    """At the top of the documented ranges, payoffs and scores are not wrapped."""
    state = trickgym.game("solowhist", unit=1000, num_deals=10_000).deal(seed=3)
    while not state.is_over:
        state.apply(state.legal_actions()[-1])
    if state.record["contract"]:
        assert abs(int(state.payoffs[0])) >= 1000
    assert int(state.record["num_deals"]) == 10_000
    assert int(trickgym.game("phat", target=10_000).deal(seed=1).record["target"]) == 10_000


def test_options_are_stored_as_python_ints():
    """numpy integers are accepted and normalised (the run metadata is JSON)."""
    g = trickgym.game("solowhist", unit=np.int64(2), early_stop=np.bool_(True))
    assert type(g.options.unit) is int and g.options.early_stop is True


def test_simulate_refuses_a_huge_target_before_allocating():
    """It allocated 5.7 GB and crashed; now the option is refused first."""
    with pytest.raises(ValueError, match="option target"):
        simulate("phat", matches=1, target=2**31 - 1)


@pytest.mark.parametrize("seed", [2**64, 2**70, -1, 1.0, "1", True])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(ValueError, match="seed must be"):
        trickgym.game("solowhist").deal(seed=seed)
    with pytest.raises(ValueError, match="seed must be"):
        simulate("solowhist", deals=10, seed=seed)


def test_largest_seed_is_its_own():
    """``2**64 - 1`` is a valid seed, distinct from 0 and from ``2**63 - 1``."""
    g = trickgym.game("solowhist")
    hands = {s: g.deal(seed=s).record["hands"].tolist() for s in (0, 2**63 - 1, 2**64 - 1)}
    assert len({tuple(h) for h in hands.values()}) == 3


@pytest.mark.parametrize("action", [52.7, "52", None, True, np.float64(52.0), [52]])
def test_state_apply_refuses_non_integer_ids(action):
    state = trickgym.game("solowhist").deal(seed=1)
    before = state.array.copy()
    with pytest.raises(ValueError, match="unknown action"):
        state.apply(action)
    assert same_state(state.array, before)


@pytest.mark.parametrize("action", [2**70, np.uint64(2**64 - 1)])
def test_state_apply_names_huge_ids_as_given(action):
    state = trickgym.game("solowhist").deal(seed=1)
    with pytest.raises(ValueError, match=rf"action {int(action)} out of range 0\.\.65"):
        state.apply(action)


def test_state_accepts_integer_like_ids():
    """What a policy returns: numpy integers and 0-d integer arrays."""
    game = trickgym.game("solowhist")
    for action in (52, np.int64(52), np.uint8(52), np.array(52)):
        state = game.deal(seed=1)
        state.apply(action)
        assert state.game.action_name(np.array(52)) == "Pass"


@pytest.mark.parametrize("seat", [1.5, "0", True, 4, -1])
def test_observe_refuses_bad_seats(seat):
    state = trickgym.game("solowhist").deal(seed=1)
    with pytest.raises(ValueError, match=r"seat must be an integer 0\.\.3"):
        state.observe(seat)


HANDS = ["AKQ2.JT9.8765.43", "JT98.AKQ.AKQ.AK7", "7654.8765.JT9.J9", "3.432.432.QT8652"]


@pytest.mark.parametrize("turn_up", [39.9, True, 52, -1, np.float32(39)])
def test_turn_up_must_be_a_card_id(turn_up):
    with pytest.raises(ValueError, match=r"turn_up must be an integer 0\.\.51"):
        trickgym.game("solowhist").deal(hands=HANDS, dealer=3, turn_up=turn_up)


def test_turn_up_as_an_id_still_works():
    state = trickgym.game("solowhist").deal(hands=HANDS, dealer=3, turn_up=np.int64(39))
    assert int(state.record["turn_up"]) == 39


@pytest.mark.parametrize("action", [52.7, "52", None, "Pass", np.float64(52.0), True])
def test_env_step_refuses_non_integer_actions(action):
    env = gym.make("trickgym/SoloWhist-v0", seat=0)
    env.reset(seed=1)
    state = env.unwrapped.state.array.copy()
    with pytest.raises(ValueError, match="action must be an integer"):
        env.step(action)
    assert same_state(env.unwrapped.state.array, state)


@pytest.mark.parametrize("action", [2**70, np.uint64(2**64 - 1), 66, -1])
@pytest.mark.parametrize("mode", ["raise", "terminate"])
def test_env_step_out_of_space_is_refused_and_named_as_given(action, mode):
    """Outside the action space is a wrong value in every mode, not an illegal move (issue 29)."""
    env = gym.make("trickgym/SoloWhist-v0", seat=0, illegal_action=mode).unwrapped
    env.reset(seed=1)
    state = env.state.array.copy()
    with pytest.raises(ValueError, match=rf"action must be an integer 0\.\.65, got {int(action)}"):
        env.step(action)
    assert same_state(env.state.array, state)


def test_env_step_accepts_numpy_and_0d_actions():
    env = gym.make("trickgym/SoloWhist-v0", seat=0)
    obs, _ = env.reset(seed=1)
    action = np.array(np.flatnonzero(obs["action_mask"])[0])
    env.step(action)


@pytest.mark.parametrize("penalty", [float("nan"), float("inf"), -1, "100"])
def test_illegal_penalty_must_be_finite(penalty):
    with pytest.raises(ValueError, match="illegal_penalty must be a finite number"):
        gym.make("trickgym/SoloWhist-v0", illegal_penalty=penalty)
    from trickgym.envs.pettingzoo import env as aec_env

    with pytest.raises(ValueError, match="illegal_penalty must be a finite number"):
        aec_env("solowhist", illegal_penalty=penalty)


def test_vector_env_names_a_uint64_action_as_given():
    envs = gym.make_vec(
        "trickgym/SoloWhist-v0",
        num_envs=2,
        vectorization_mode="vector_entry_point",
        illegal_action="raise",
    )
    envs.reset(seed=1)
    with pytest.raises(
        ValueError, match=r"0\.\.65 \(shape \(2,\)\), got 18446744073709551615 for sub-env 0"
    ):
        envs.step(np.array([2**64 - 1, 52], dtype=np.uint64))


def test_pettingzoo_step_refuses_non_integer_actions():
    from trickgym.envs.pettingzoo import env as aec_env

    aec = aec_env("solowhist")
    aec.reset(seed=1)
    with pytest.raises(ValueError, match="action must be an integer"):
        aec.step(52.7)


def test_pettingzoo_missing_names_the_extra(monkeypatch):
    """Without pettingzoo installed, importing the AEC envs says which extra to install."""
    import importlib

    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.delitem(sys.modules, "trickgym.envs.pettingzoo", raising=False)
    from trickgym.checks import install_hint

    with pytest.raises(ImportError, match=re.escape(install_hint("pettingzoo"))):
        importlib.import_module("trickgym.envs.pettingzoo")


def test_check_helpers():
    assert check_int("n", np.int16(3), 1, 5) == 3
    assert as_int("a", np.array(7, dtype=np.uint8)) == 7
    assert check_real("x", np.float32(1.5)) == 1.5
    for bad in (2.0, "2", True, None, np.array([2])):
        with pytest.raises(ValueError, match="n must be an integer"):
            check_int("n", bad)
    with pytest.raises(ValueError, match=r"n must be an integer >= 1, got 0"):
        check_int("n", 0, 1)


def test_columns_given_as_one_string_is_named():
    """It said "unknown column(s) c, o, n, t ..."."""
    with pytest.raises(ValueError, match=r"got the string 'contract' \(for one column"):
        simulate("solowhist", deals=10, seed=1, columns="contract")


def test_read_dataset_names_unknown_columns(tmp_path):
    """It gave pyarrow's schema dump; now the unknown name and the available ones."""
    from trickgym.sim import read_dataset

    simulate("solowhist", deals=20, seed=1, out=tmp_path / "run", progress=False)
    with pytest.raises(ValueError, match=r"unknown column\(s\) 'nope'; have: deal, "):
        read_dataset(tmp_path / "run", columns=["nope"])
    with pytest.raises(ValueError, match="got the string 'made'"):
        read_dataset(tmp_path / "run", columns="made")
    assert list(read_dataset(tmp_path / "run", columns=["made"]).columns) == ["made"]


def test_tournament_repeated_agents_are_explained():
    """It said "agents must be different" to ``rule,random,rule,random,rule``."""
    with pytest.raises(ValueError, match=r"each named once.*'random' 2 times, 'rule' 3 times"):
        trickgym.tournament("troggu", "rule,random,rule,random,rule", deals=10, players=5)


def test_a_chunk_too_large_for_memory_is_refused_before_allocating():
    """Options in range can still ask for a huge buffer through chunk=: refused first."""
    with pytest.raises(ValueError, match=r"chunk=1000 matches would hold up to 250,000,000 rows"):
        simulate("phat", matches=1000, chunk=1000, games_in_match=1000, target=10_000)
    with pytest.raises(ValueError, match=r"at most 4,194,304 \(4,194,304 deals\)"):
        simulate("solowhist", deals=10**8, chunk=10**7)
    with pytest.raises(ValueError, match=r"chunk must be an integer >= 1, got 2\.5"):
        simulate("solowhist", deals=10, chunk=2.5)
