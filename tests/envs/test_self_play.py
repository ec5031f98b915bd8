"""Self-play in the native vector env: batched policy opponents, a league, rule bidding."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from trickgym.envs.league import League
from trickgym.envs.vector import kernels

ENV = "trickgym/SoloWhist-v0"


def hand_policy(obs, mask):
    """A deterministic policy that reads the observation: legal action picked by the hand."""
    hand = np.asarray(obs["hand"]).reshape(mask.shape[0], -1).astype(np.int64)
    key = (np.arange(mask.shape[1]) * 7 + hand.sum(axis=1, keepdims=True) * 3) % 11
    return np.argmax(np.where(mask, key, -1), axis=1)


class AsAgent:
    """The batched policy as a single env's Python agent (a batch of one)."""

    def __init__(self, policy):
        self.policy = policy

    def act(self, observation, action_mask):
        obs = {k: np.asarray(v)[None] for k, v in observation.items()}
        return int(self.policy(obs, action_mask.astype(bool)[None])[0])


def make_vec(n, **kwargs):
    return gym.make_vec(ENV, num_envs=n, vectorization_mode="vector_entry_point", **kwargs)


def test_policy_opponents_play_as_python_agents_do():
    """The batch with policy opponents replays single envs with the same policy as agents."""
    n = 5
    opponents = [hand_policy, "rule", hand_policy]
    vec = make_vec(n, opponents=opponents)
    singles = [
        gym.make(ENV, opponents=[AsAgent(hand_policy), "rule", AsAgent(hand_policy)])
        for _ in range(n)
    ]
    obs, _ = vec.reset(seed=11)
    expect = [env.reset(seed=11 + i)[0] for i, env in enumerate(singles)]
    waiting = np.zeros(n, dtype=bool)
    ended = 0
    for _ in range(150):
        for i in range(n):
            for key, value in expect[i].items():
                np.testing.assert_array_equal(obs[key][i], value, err_msg=key)
        actions = hand_policy(obs, obs["action_mask"].astype(bool))
        obs, rewards, terminated, _, _ = vec.step(actions)
        for i, env in enumerate(singles):
            if waiting[i]:
                expect[i], _ = env.reset()
                continue
            o, r, t, _, _ = env.step(int(actions[i]))
            assert (r, t) == (rewards[i], terminated[i])
            expect[i] = o
            ended += t
        waiting = terminated.copy()
    assert ended > 10


def test_each_policy_is_called_once_a_round_for_its_movers_only():
    calls = []

    def policy(obs, mask):
        calls.append(mask.shape[0])
        assert mask.any(axis=1).all()  # only envs where the seat is to move
        assert obs["features"].shape == (mask.shape[0], 1123)
        return np.argmax(mask, axis=1)

    vec = make_vec(16, opponents=policy, obs_mode="features")
    vec.reset(seed=3)
    rounds = len(calls)
    for _ in range(30):
        vec.step(vec.action_space.sample())
    assert len(calls) > rounds and max(calls) > 1 and sum(calls) > len(calls)


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_rule_bidding_leaves_the_learner_the_cards_only(mode):
    """The learner is asked only in card play, and its calls are the rule agent's."""
    n = 8
    vec = make_vec(n, opponents="rule", bidding="rule", autoreset_mode=mode)
    plain = make_vec(1, opponents="rule")
    obs, _ = vec.reset(seed=5)
    to_move = np.zeros(n, dtype=np.int64)
    for _ in range(100):
        live = obs["action_mask"].any(axis=1)
        assert (obs["phase"][live] == 4).all()  # card play (PLAY)
        kernels.seats_to_move(vec.unwrapped._states, ~live, to_move)
        assert (to_move[live] == 0).all()
        obs, *_ = vec.step(vec.action_space.sample())
    # First episodes replayed with the learner driven by the rule agent until card play.
    seen_passed_out = seen_played = False
    for seed in range(5, 40):
        vec.reset(seed=seed)
        plain_obs, _ = plain.reset(seed=seed)
        while plain_obs["phase"][0] not in (4, 5):
            plain_obs, *_ = plain.step(plain.unwrapped.builtin_actions("rule"))
        mine = vec.unwrapped.state(0).observe(0)
        if plain_obs["phase"][0] == 5 or not plain_obs["action_mask"].any():
            # passed out (or over before the learner's first card): that deal is skipped
            assert mine["phase"] == 4 and mine["action_mask"].any()
            seen_passed_out = True
        else:
            theirs = plain.unwrapped.state(0).observe(0)
            for key in ("hand", "auction", "contract", "trick"):
                np.testing.assert_array_equal(mine[key], theirs[key], err_msg=key)
            seen_played = True
        if seen_passed_out and seen_played:
            break
    assert seen_passed_out and seen_played


def test_league_plays_its_snapshots():
    used = []

    def act(weights, obs, mask):
        # weights: a preference per action; the best legal one
        used.append(weights[1])
        return np.argmax(np.where(mask, weights[None, :], -np.inf), axis=1)

    league = League(act, max_snapshots=2, latest_share=0.0, seed=1)
    with pytest.raises(ValueError, match="no snapshot"):
        league.draw()
    weights = np.arange(66, dtype=float)
    league.add(weights)
    weights[:] = -weights  # training goes on: the snapshot must not change
    league.add(weights)
    assert league.draw() == 0  # latest_share 0: an older one
    vec = make_vec(4, opponents=league.opponent)
    vec.reset(seed=2)
    for _ in range(10):
        vec.step(vec.action_space.sample())
    assert used and set(used) == {1.0}  # snapshot 0, unchanged by the training after it
    league.add(weights * 2)
    assert len(league.snapshots) == 2 and league.snapshots[0][1] == -1.0  # oldest dropped
    with pytest.raises(ValueError, match=r"latest_share must be a probability"):
        League(act, latest_share=1.5)


def test_bad_policies_are_named():
    vec = make_vec(3, opponents=lambda obs, mask: np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match=r"must return 3 integer actions|must return \d integer"):
        vec.reset(seed=1)
    vec = make_vec(3, opponents=lambda obs, mask: np.full(mask.shape[0], 51))
    with pytest.raises(ValueError, match=r"the policy of seat \d chose illegal action 51"):
        for _ in range(5):
            vec.reset(seed=1)
            vec.step(vec.action_space.sample())
    with pytest.raises(ValueError, match="bidding must be 'learner' or 'rule'"):
        make_vec(2, bidding="pimc")
