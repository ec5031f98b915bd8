"""The Gymnasium env ``trickgym/Phat-v0``: its "deal" and "game" episodes.

What every env does (the checker, spaces, seeding, rewards and masks,
illegal actions, opponents, bad arguments, the vector env; for both episode
kinds) is checked in ``tests/envs/test_conformance.py``; that no
observation shows a hidden card, in ``tests/games/test_conformance.py``.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import trickgym

ENV_ID = "trickgym/Phat-v0"
N_CARDS = 52


def make(**kwargs):
    """The unwrapped env, as ``gymnasium.make`` builds it."""
    return gym.make(ENV_ID, **kwargs).unwrapped


def legal(mask) -> np.ndarray:
    return np.flatnonzero(np.asarray(mask))


def play_episode(env, rng, seed=None, check=None):
    """One episode with random legal actions; returns (observations, last reward).

    ``check(obs, reward, done)`` is called after every step.
    """
    obs, _ = env.reset(seed=seed)
    trace = [obs]
    done, reward = False, 0.0
    while not done:
        obs, reward, done, truncated, _ = env.step(int(rng.choice(legal(obs["action_mask"]))))
        assert not truncated
        trace.append(obs)
        if check:
            check(obs, reward, done)
    return trace, reward


def test_registered_and_defaults():
    assert ENV_ID in trickgym.envs.ENV_IDS and ENV_ID in gym.registry
    env = make()
    assert (env.seat, env.episode, env.n_seats) == (0, "deal", 4)
    assert env.game.options.target == 181 and env.game.options.games_in_match == 1
    obs, info = env.reset(seed=0)
    assert info["declarer"] == obs["pitcher"] and info["legal_actions"] == obs["action_mask"].sum()
    assert obs["seat"] == 0 and obs["hand"].sum() == 13
    assert make().render() is None
    assert env.action_space.n == N_CARDS


# --------------------------------------------------------- "deal" episodes


def test_deal_episodes_continue_the_match():
    """A reset deals the next deal: scores and carry persist, the pitch moves on (PH-D1)."""
    env = make(seat=2, episode="deal")
    rng = np.random.default_rng(1)
    prev = None
    carried = new_matches = 0
    for episode in range(40):
        trace, reward = play_episode(env, rng, seed=5 if episode == 0 else None)
        start, record = trace[0], env.state.record
        if prev is not None:
            if prev["match_over"]:
                new_matches += 1
                assert record["deal_index"] == 0 and record["game_index"] == 0
                assert start["scores"].tolist() == [0, 0] and start["carry"] == 0
            else:
                assert record["deal_index"] == prev["deal_index"] + 1
                assert start["pitcher"] == (prev["pitcher"] + 1) % 4
                assert start["scores"].tolist() == prev["scores"]
                assert start["carry"] == prev["carry"]
                carried += prev["scores"] != [0, 0]
        assert start["phase"] == 0 and start["hand"].sum() == 13
        assert reward == float(env.state.payoffs[2]) == float(record["payoffs"][2])
        assert env.state.payoffs.sum() == 0
        prev = {
            "match_over": env.state.match_over,
            "deal_index": int(record["deal_index"]),
            "pitcher": int(record["pitcher"]),
            "scores": record["scores"].tolist(),
            "carry": int(record["carry"]),
        }
    assert carried > 10 and new_matches >= 5


def test_deal_episodes_new_game_in_the_match():
    """``games_in_match=2``: after a won game the next reset starts game 2 at 0-0, same match."""
    env = make(seat=0, episode="deal", games_in_match=2)
    rng = np.random.default_rng(2)
    play_episode(env, rng, seed=3)
    pitchers = [int(env.state.record["pitcher"])]
    while not env.state.record["game_over"]:
        play_episode(env, rng)
        pitchers.append(int(env.state.record["pitcher"]))
    assert not env.state.match_over
    obs, _ = env.reset()
    record = env.state.record
    assert record["game_index"] == 1 and obs["scores"].tolist() == [0, 0] and obs["carry"] == 0
    assert obs["games_won"].sum() == 1 and obs["pitcher"] == (pitchers[-1] + 1) % 4


def test_deal_episode_ends_when_the_game_is_won_mid_deal():
    """A deal episode ends with the deal, also when the race is won mid-deal."""
    env = make(seat=0, episode="deal")
    rng = np.random.default_rng(4)
    short = 0
    for episode in range(60):
        trace, reward = play_episode(env, rng, seed=episode if episode % 6 == 0 else None)
        record = env.state.record
        assert env.state.is_over
        if record["trick_no"] < 13:
            short += 1
            assert record["game_over"] and record["scores"].max() >= 181
            assert trace[-1]["hand"].sum() == 13 - record["trick_no"]
        assert reward == float(record["payoffs"][0])
    assert short > 0


# --------------------------------------------------------- "game" episodes


@pytest.mark.parametrize("seat", [0, 3])
def test_game_episode_reward_and_end(seat):
    """+1/-1 for the seat's team at the end of the game, 0 before; it ends at 181 at once."""
    env = make(seat=seat, episode="game")
    rng = np.random.default_rng(seat)
    results, mid_deal, multi_deal = set(), 0, 0
    for episode in range(30):

        def check(obs, reward, done):
            if not done:
                assert reward == 0.0 and obs["scores"].max() < 181
                assert obs["action_mask"].sum() >= 1

        trace, reward = play_episode(env, rng, seed=100 + episode, check=check)
        record = env.state.record
        assert trace[0]["scores"].tolist() == [0, 0] and record["game_over"]
        winner = int(record["winner"])
        assert record["scores"][winner] >= 181 > record["scores"][1 - winner]
        assert reward == (1.0 if winner == seat % 2 else -1.0)
        assert trace[-1]["scores"].tolist() == record["scores"].tolist()
        assert not trace[-1]["action_mask"].any()
        results.add(reward)
        mid_deal += record["trick_no"] < 13
        multi_deal += record["deal_index"] >= 2
    assert results == {1.0, -1.0} and mid_deal > 0 and multi_deal == 30


def test_game_episode_resets_to_a_new_game():
    env = make(seat=1, episode="game", games_in_match=3)
    rng = np.random.default_rng(0)
    for _ in range(3):
        trace, _ = play_episode(env, rng)
        assert trace[0]["scores"].tolist() == [0, 0] and trace[0]["games_won"].sum() == 0
        assert env.state.record["game_index"] == 0
