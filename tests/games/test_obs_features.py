"""Network-ready observations (``obs_mode="features"``) and the vector env for learners.

The feature vector is checked against a plain-Python reference built from
the observation dict and the games' ``FEATURES`` tables; the envs against
gymnasium's and PettingZoo's checkers, the vector env against single envs.
"""

from __future__ import annotations

import importlib

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test

import trickgym
from trickgym.envs import pettingzoo as tz
from trickgym.games.obs_features import feature_names, feature_plan

GAMES = [
    ("solowhist", {}),
    ("troggu", {"players": 3}),
    ("troggu", {"players": 6}),
    ("phat", {}),
    ("pinochle", {"mode": "kitty"}),
    ("pinochle", {"mode": "exchange"}),
]
ENV_IDS = {
    "solowhist": "trickgym/SoloWhist-v0",
    "troggu": "trickgym/Troggu-v0",
    "phat": "trickgym/Phat-v0",
    "pinochle": "trickgym/Pinochle-v0",
}


def reference_features(game, obs: dict) -> np.ndarray:
    """The feature vector of an observation dict, written out key by key in Python."""
    encode = importlib.import_module(f"trickgym.games.{game.name}.encode")
    shapes = encode.OBS_SHAPES
    players = shapes["seat"][3] + 1
    seat = int(obs["seat"])
    n_seats = int(obs["n_players"]) if "n_players" in obs else players
    out: list[float] = []

    def rotated(values, how):
        """Rows of ``values`` in relative order (absent seats: None)."""
        rows = list(values)
        if how == "seats":
            return [rows[(seat + k) % n_seats] if k < n_seats else None for k in range(len(rows))]
        if how == "teams":
            return [rows[(seat % 2 + k) % 2] for k in range(len(rows))]
        return rows

    def one_hot(v, lo, hi):
        return [1.0 if v == x else 0.0 for x in range(lo, hi + 1)]

    def seat_hot(v):
        return [1.0 if v >= 0 and (v - seat) % n_seats == j else 0.0 for j in range(players)]

    for key, kind, arg in encode.FEATURES:
        value = np.asarray(obs[key])
        if kind == "bits":
            if value.ndim == 1:
                out += value.astype(float).tolist()
            else:
                width = value.shape[1]
                for row in rotated(value, arg):
                    out += [0.0] * width if row is None else row.astype(float).tolist()
        elif kind == "onehot":
            lo, hi = arg[0], arg[1]
            how = arg[2] if len(arg) > 2 else None
            entries = [int(value)] if value.ndim == 0 else rotated(value.tolist(), how)
            for v in entries:
                out += one_hot(-999 if v is None else v, lo, hi)
        elif kind == "seat":
            out += seat_hot(int(value))
        elif kind == "scaled":
            scale, how = (arg, None) if not isinstance(arg, tuple) else arg
            entries = [int(value)] if value.ndim == 0 else rotated(value.tolist(), how)
            out += [0.0 if v is None else v / scale for v in entries]
        elif kind == "calls":
            for who, call in value.tolist():
                out += seat_hot(who) + (one_hot(call, 0, arg) if who >= 0 else [0.0] * (arg + 1))
        elif kind == "last_bid":
            spoken, passed, last = set(), set(), {}
            for who, bid in value.tolist():
                if who >= 0:
                    rel = (who - seat) % n_seats
                    spoken.add(rel)
                    if bid == 0:
                        passed.add(rel)
                    else:
                        last[rel] = bid
            for j in range(players):
                out += [float(j in spoken), float(j in passed), last.get(j, 0) / arg]
    return np.array(out, dtype=np.float32)


def random_state(game, seed: int, steps: int):
    """A state reached by ``steps`` random legal actions from a new deal."""
    state = trickgym.api.State(game, game.new_match(seed, num_deals=1))
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = state.legal_actions()
        if not legal:
            break
        state.apply(int(rng.choice(legal)))
    return state


@pytest.mark.parametrize(("name", "options"), GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 120), seat_shift=st.integers(0, 7))
def test_features_match_the_reference(name, options, seed, steps, seat_shift):
    """Every column, on random states of every game, from every seat's view."""
    game = trickgym.game(name, **options)
    plan = feature_plan(game)
    state = random_state(game, seed, steps)
    seat = seat_shift % game.n_seats
    record = np.zeros(1, dtype=game.obs_dtype)
    game.kernels.observe_at(state.array, 0, seat, record, 0)
    got = plan.observe(game, record)
    obs = state.observe(seat)
    np.testing.assert_allclose(got["features"], reference_features(game, obs), rtol=1e-6)
    assert got["features"].dtype == np.float32
    assert (plan.low <= got["features"]).all() and (got["features"] <= plan.high).all()
    mask = obs["action_mask"][: game.n_actions]
    assert got["action_mask"].any()  # never all zero: action 0 stands in when nothing is legal
    if mask.any():
        np.testing.assert_array_equal(got["action_mask"], mask)
    else:
        assert np.flatnonzero(got["action_mask"]).tolist() == [0]


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_feature_names_are_unique_and_cover_the_vector(name, options):
    game = trickgym.game(name, **options)
    names = feature_names(game)
    assert len(names) == len(set(names)) == feature_plan(game).size
    assert "hand[" + game.deck.card_names[0] + "]" in names


def test_seats_are_relative_to_the_observer():
    """A card played to the trick is ``trick[+0]`` for its player, ``trick[+3]`` for the next."""
    game = trickgym.game("phat")
    state = random_state(game, 5, 0)
    leader = state.current_player
    card = state.legal_actions()[0]
    state.apply(card)
    names = feature_names(game)
    plan = feature_plan(game)
    for seat, rel in [(leader, 0), ((leader + 1) % 4, 3), ((leader + 2) % 4, 2)]:
        record = np.zeros(1, dtype=game.obs_dtype)
        game.kernels.observe_at(state.array, 0, seat, record, 0)
        vec = plan.observe(game, record)["features"]
        on = {names[j] for j in np.flatnonzero(vec)}
        assert f"trick[+{rel}]={game.deck.card_names[card]}" in on
        assert f"trick_leader=+{rel}" in on


@pytest.mark.parametrize(("name", "options"), GAMES[::2] + GAMES[5:])
def test_single_env_features_pass_the_checker(name, options):
    env = gym.make(ENV_IDS[name], opponents="rule", obs_mode="features", **options)
    check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=2)
    assert set(obs) == {"features", "action_mask"}
    assert obs["features"].shape == (feature_plan(env.unwrapped.game).size,)


def test_dict_observation_spaces_start_at_zero():
    """A ``Discrete`` from -1 (or Troggu's players from 3) broke SB3's one-hot encoding."""
    for name, options in GAMES:
        env = gym.make(ENV_IDS[name], **options)
        for key, space in env.observation_space.spaces.items():
            if isinstance(space, gym.spaces.Discrete):
                assert space.start == 0, key
        obs, _ = env.reset(seed=1)
        assert env.observation_space.contains(obs)


def test_bad_obs_mode_is_named():
    with pytest.raises(ValueError, match=r"obs_mode must be 'dict' or 'features', got 'pixels'"):
        gym.make("trickgym/Phat-v0", obs_mode="pixels")


@pytest.mark.parametrize(("name", "options"), [GAMES[0], GAMES[2]])
def test_pettingzoo_features(name, options):
    api_test(tz.env(name, obs_mode="features", **options), num_cycles=30)
    env = tz.raw_env(name, obs_mode="features", **options)
    env.reset(seed=4)
    agent = env.agent_selection
    obs = env.observe(agent)
    seat = int(agent.split("_")[1])
    want = reference_features(env.game, env.state_view.observe(seat))
    np.testing.assert_allclose(obs["observation"], want, rtol=1e-6)


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize(("name", "options"), [GAMES[0], GAMES[2], GAMES[4]])
def test_vector_env_features_and_autoreset_as_single_envs(name, options, mode):
    """Batch features equal the single envs'; SAME_STEP returns the next episode at once.

    Actions come from the batch action space's ``sample()``, which must draw
    legal ones.
    """
    n = 6
    vec = gym.make_vec(
        ENV_IDS[name], num_envs=n, vectorization_mode="vector_entry_point",
        opponents="rule", obs_mode="features", autoreset_mode=mode, **options,
    )  # fmt: skip
    vec.action_space.seed(9)
    singles = [
        gym.make(ENV_IDS[name], opponents="rule", obs_mode="features", **options) for _ in range(n)
    ]
    obs, _ = vec.reset(seed=30)
    expect = [env.reset(seed=30 + i)[0] for i, env in enumerate(singles)]
    waiting = np.zeros(n, dtype=bool)  # NEXT_STEP: ended last step, resets on this one
    ended = 0
    for _ in range(80):
        for i in range(n):
            np.testing.assert_array_equal(obs["features"][i], expect[i]["features"])
            np.testing.assert_array_equal(obs["action_mask"][i], expect[i]["action_mask"])
        actions = vec.action_space.sample()
        masks = vec.unwrapped.action_masks()
        assert masks[np.arange(n), actions].all()
        obs, rewards, terminated, _, infos = vec.step(actions)
        for i, env in enumerate(singles):
            if waiting[i]:
                expect[i], _ = env.reset()
                assert rewards[i] == 0 and not terminated[i]
                continue
            o, r, t, _, _ = env.step(int(actions[i]))
            assert (r, t) == (rewards[i], terminated[i])
            if t and mode == AutoresetMode.SAME_STEP:
                assert infos["_final_obs"][i]
                np.testing.assert_array_equal(infos["final_obs"][i]["features"], o["features"])
                o, _ = env.reset()
            expect[i] = o
            ended += t
        waiting = terminated & (mode == AutoresetMode.NEXT_STEP)
    assert ended > 0


def test_vector_sampling_is_legal_in_dict_mode_too():
    vec = gym.make_vec(
        "trickgym/SoloWhist-v0", num_envs=16, vectorization_mode="vector_entry_point"
    )
    vec.reset(seed=1)
    for _ in range(20):
        actions = vec.action_space.sample()
        masks = vec.unwrapped.action_masks()
        live = masks.any(axis=1)  # the others await their autoreset (NEXT_STEP)
        assert masks[np.arange(16), actions][live].all() and (actions[~live] == 0).all()
        vec.step(actions)
