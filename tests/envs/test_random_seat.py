"""``seat="random"``: the learner's seat drawn per episode from the env's seeded generator."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import trickgym  # noqa: F401  (registers the env ids)
from trickgym.agents import RandomAgent


class SeatRecorder(RandomAgent):
    """A random agent that records the seats it is asked to play."""

    def __init__(self, seed):
        super().__init__(seed)
        self.seats = set()

    def act(self, observation, action_mask):
        self.seats.add(int(observation["seat"]))
        return super().act(observation, action_mask)


def _play(env, seed):
    """One random-legal episode from ``reset(seed=seed)``: ``(seat, actions, reward)``."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    seat, actions, done, reward = info["seat"], [], False, 0.0
    assert obs["seat"] == seat == env.unwrapped.seat
    while not done:
        actions.append(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        obs, reward, done, _, info = env.step(actions[-1])
        assert obs["seat"] == seat
    return seat, actions, reward


def test_seat_is_seeded_and_every_seat_is_drawn():
    env = gym.make("trickgym/Troggu-v0", players=5, seat="random")
    first = [_play(env, seed) for seed in range(30)]
    again = gym.make("trickgym/Troggu-v0", players=5, seat="random")
    assert [_play(again, seed) for seed in range(30)] == first
    assert {seat for seat, _, _ in first} == set(range(5))
    # Unseeded resets go on drawing from the generator: every seat again.
    env.reset(seed=0)
    assert {env.reset()[1]["seat"] for _ in range(40)} == set(range(5))


def test_same_cards_as_the_fixed_seat_drawn():
    """A seed deals what a fixed-seat env deals: the seat is drawn after the cards."""
    env = gym.make("trickgym/SoloWhist-v0", seat="random")
    for seed in range(4):
        _, info = env.reset(seed=seed)
        fixed = gym.make("trickgym/SoloWhist-v0", seat=info["seat"])
        fixed.reset(seed=seed)
        np.testing.assert_array_equal(
            env.unwrapped.state.record["hands"], fixed.unwrapped.state.record["hands"]
        )


def test_opponents_follow_the_drawn_seat():
    """``opponents[i]`` plays the seat ``i + 1`` after the seat drawn, in every episode."""
    recorder = SeatRecorder(0)
    env = gym.make("trickgym/SoloWhist-v0", seat="random", opponents=["random", recorder, "rule"])
    for seed in range(12):
        recorder.seats.clear()
        seat, _, _ = _play(env, seed)
        assert recorder.seats == {(seat + 2) % 4}
        assert env.unwrapped._kinds[seat] == -1  # the learner's seat runs no built-in agent


def test_check_env():
    """Gymnasium's checker, with the match going on across episodes (Phat's deals)."""
    check_env(gym.make("trickgym/Phat-v0", seat="random").unwrapped)


@pytest.mark.parametrize("seat", ["rand", "RANDOM", "", 4])
def test_bad_seat_is_named(seat):
    allowed = "an integer 0..3 or 'random'"
    with pytest.raises(ValueError, match=rf"seat must be {allowed}, got {seat!r}"):
        gym.make("trickgym/SoloWhist-v0", seat=seat)


def test_native_vector_env_refuses_a_random_seat():
    with pytest.raises(ValueError, match="seat='random' is not available in the native vector"):
        gym.make_vec("trickgym/SoloWhist-v0", num_envs=2, seat="random")
