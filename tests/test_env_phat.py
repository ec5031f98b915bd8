"""The Gymnasium env ``trickgym/Phat-v0`` ("deal" and "game" episodes) and the information set."""

from __future__ import annotations

import functools

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from trickgym.agents import RandomAgent, kernel_scratch
from trickgym.agents.loops import act

import trickgym
from trickgym.cards import STANDARD

ENV_ID = "trickgym/Phat-v0"
N_CARDS = 52
SUIT_OF = STANDARD.suit_of


def make(**kwargs):
    """The unwrapped env, as ``gymnasium.make`` builds it."""
    return gym.make(ENV_ID, **kwargs).unwrapped


def legal(mask) -> np.ndarray:
    return np.flatnonzero(np.asarray(mask))


def assert_obs_equal(a: dict, b: dict, context: str = "") -> None:
    assert a.keys() == b.keys(), context
    for key in a:
        x, y = np.asarray(a[key]), np.asarray(b[key])
        assert x.dtype == y.dtype, f"{context} key {key}: dtype {x.dtype} != {y.dtype}"
        np.testing.assert_array_equal(x, y, err_msg=f"{context} key {key}")


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


# ------------------------------------------------------------------- checker


@pytest.mark.parametrize("episode", ["deal", "game"])
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_check_env(episode, seat):
    """Gymnasium's checker passes for both episode kinds and every seat, with ansi rendering."""
    env = make(seat=seat, episode=episode, render_mode="ansi")
    check_env(env, skip_render_check=False)
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and text.startswith("Phat") and "to move" in text


def test_registered_and_defaults():
    assert ENV_ID in trickgym.envs.ENV_IDS and ENV_ID in gym.registry
    env = make()
    assert (env.seat, env.episode, env.n_seats) == (0, "deal", 4)
    assert env.game.options.target == 181 and env.game.options.games_in_match == 1
    obs, info = env.reset(seed=0)
    assert info == {} and obs["seat"] == 0 and obs["hand"].sum() == 13
    assert make().render() is None
    assert env.action_space.n == N_CARDS


@pytest.mark.parametrize("episode", ["deal", "game"])
def test_observation_in_space(episode):
    env = make(seat=3, episode=episode)
    rng = np.random.default_rng(0)
    for k in range(4):
        trace, _ = play_episode(env, rng, seed=k)
        for obs in trace:
            assert env.observation_space.contains(obs), obs
            assert obs["seat"] == 3


# ------------------------------------------------------------ reproducibility


def _play(env, seed: int, action_seed: int, episodes: int = 4):
    rng = np.random.default_rng(action_seed)
    trace = []
    for episode in range(episodes):
        obs, _ = env.reset(seed=seed if episode == 0 else None)
        trace.append((obs, 0.0, False))
        done = False
        while not done:
            obs, reward, done, _, _ = env.step(int(rng.choice(legal(obs["action_mask"]))))
            trace.append((obs, reward, done))
    return trace


@pytest.mark.parametrize(("episode", "seat"), [("deal", 0), ("deal", 3), ("game", 1)])
def test_same_seed_same_episodes(episode, seat):
    """One seed and one action sequence: identical traces (across resets, the match included)."""
    a = _play(make(seat=seat, episode=episode), seed=11, action_seed=4)
    b = _play(make(seat=seat, episode=episode), seed=11, action_seed=4)
    assert len(a) == len(b)
    for i, ((oa, ra, da), (ob, rb, db)) in enumerate(zip(a, b, strict=True)):
        assert_obs_equal(oa, ob, f"step {i}")
        assert ra == rb and da == db, f"step {i}"
    c = _play(make(seat=seat, episode=episode), seed=12, action_seed=4)
    assert not np.array_equal(a[0][0]["hand"], c[0][0]["hand"])


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


def test_deal_episode_seeded_reset_starts_a_new_match():
    """``reset(seed=...)`` mid-match starts a fresh match, the same as a fresh env's."""
    env = make(seat=1, episode="deal")
    rng = np.random.default_rng(3)
    play_episode(env, rng, seed=8)
    play_episode(env, rng)
    assert env.state.record["deal_index"] >= 1 or env.state.match_over
    obs, _ = env.reset(seed=21)
    assert env.state.record["deal_index"] == 0 and obs["scores"].tolist() == [0, 0]
    fresh, _ = make(seat=1, episode="deal").reset(seed=21)
    assert_obs_equal(obs, fresh)


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


# --------------------------------------------------------- masks, agents, errors


@pytest.mark.parametrize("episode", ["deal", "game"])
def test_masks_and_sampling(episode):
    env = make(seat=2, episode=episode)
    env.action_space.seed(0)
    for k in range(3):
        obs, _ = env.reset(seed=k)
        done = False
        while not done:
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and mask.sum() >= 1
            np.testing.assert_array_equal(env.action_masks(), mask.astype(bool))
            np.testing.assert_array_equal(mask, obs["hand"] * mask)  # only own cards
            action = env.action_space.sample()
            assert mask[action] == 1
            obs, _, done, _, info = env.step(action)
            assert "illegal_action" not in info
        assert not env.action_masks().any() and not obs["action_mask"].any()


def test_python_agent_opponents():
    for opponents in (RandomAgent(1), [RandomAgent(2), "random", RandomAgent(3)]):
        for episode in ("deal", "game"):
            env = make(seat=3, opponents=opponents, episode=episode)
            rng = np.random.default_rng(0)
            for k in range(2):
                _, reward = play_episode(env, rng, seed=k)
                assert env.state.is_over
                if episode == "deal":
                    assert reward == env.state.payoffs[3]


def test_illegal_actions():
    env = make(seat=0, illegal_action="raise")
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.state.array.copy()
    with pytest.raises(ValueError, match=rf"illegal action {illegal}\b"):
        env.step(illegal)
    assert env.state.array.tobytes() == before.tobytes()
    env = make(seat=0, illegal_penalty=7)
    obs, _ = env.reset(seed=3)
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info) == (-7.0, True, False, {"illegal_action": True})
    with pytest.raises(ValueError, match="reset"):
        env.step(int(legal(obs["action_mask"])[0]))


@pytest.mark.filterwarnings("ignore:.*render_mode")
@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"episode": "match"}, "episode.*'match'"),
        ({"episode": None}, "episode.*None"),
        ({"seat": 4}, r"seat.*0\.\.3.*4"),
        ({"seat": -1}, "seat.*-1"),
        ({"seat": True}, "seat.*True"),
        ({"opponents": ["random"] * 2}, "opponents.*list of 3"),
        ({"opponents": "nobody"}, "nobody"),
        ({"games_in_match": 0}, "games_in_match"),
        ({"target": 181.0}, "target"),
        ({"players": 4}, "unknown option.*players"),
        ({"render_mode": "human"}, "human"),
        ({"illegal_action": "ignore"}, "ignore"),
    ],
)
def test_bad_arguments(kwargs, named):
    with pytest.raises(ValueError, match=named):
        gym.make(ENV_ID, **kwargs)


# ------------------------------------------------------------ information set
#
# A seat sees its own hand and everything played (§6). Deals that differ only
# in the other seats' unplayed cards, dealt so that every seat still holds
# the cards it played and no card of a suit it has shown out of, replay the
# same actions legally and must look identical to the seat; the random
# agents must choose alike in them.


@functools.cache
def _game():
    return trickgym.game("phat")


def _bits(mask: int) -> list[int]:
    return [c for c in range(N_CARDS) if mask >> c & 1]


def _replay(hands, pitcher, actions, seat):
    state = _game().deal(0, hands=hands, pitcher=pitcher)
    views = [state.observe(seat)]
    for action in actions:
        state.apply(action)  # legal in every consistent reshuffle
        views.append(state.observe(seat))
    return state, views


def _reshuffle(hands, seat, played, voids, rng) -> list[int] | None:
    """The other seats' unplayed cards dealt anew (voids respected), or ``None`` on a dead end."""
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in _bits(hands[s] & ~played[s])]
    room = {s: 13 - bin(played[s]).count("1") for s in others}
    options = {c: [s for s in others if not int(voids[s]) >> int(SUIT_OF[c]) & 1] for c in pool}
    pool = sorted(rng.permutation(pool).tolist(), key=lambda c: len(options[c]))
    out = {s: played[s] for s in others}
    for c in pool:
        weights = np.array([room[s] for s in options[c]], dtype=float)
        if weights.sum() == 0:
            return None
        s = options[c][rng.choice(len(weights), p=weights / weights.sum())]
        out[s] |= 1 << c
        room[s] -= 1
    return [hands[s] if s == seat else out[s] for s in range(4)]


def _same_choices(a, b, seat: int) -> None:
    assert a.current_player == seat == b.current_player
    oa, ob = a.observe(seat), b.observe(seat)
    choices = set()
    for seed in range(20):
        ra = np.array([seed + 1], dtype=np.uint64)
        rb = ra.copy()
        choice = act(0, a.record, seat, ra, *kernel_scratch(a.game), None)
        assert choice == act(0, b.record, seat, rb, *kernel_scratch(b.game), None)
        assert oa["action_mask"][choice] == 1
        choices.add(int(choice))
        assert RandomAgent(seed).act(oa, oa["action_mask"]) == RandomAgent(seed).act(
            ob, ob["action_mask"]
        )
    assert len(choices) > 1 or oa["action_mask"].sum() == 1


@pytest.mark.parametrize(
    ("seat", "pitcher", "min_tricks", "seed"),
    [(0, 0, 0, 1), (1, 0, 2, 2), (2, 3, 5, 3), (3, 1, 8, 4), (0, 2, 11, 5), (2, 2, 6, 6)],
)
def test_info_set(seat, pitcher, min_tricks, seed):
    """Reshuffling the unseen cards consistently with the play leaves the seat's view unchanged."""
    rng = np.random.default_rng(seed)
    perm = [int(c) for c in rng.permutation(N_CARDS)]
    hands = [sum(1 << c for c in perm[13 * s : 13 * s + 13]) for s in range(4)]
    state, actions = _game().deal(0, hands=hands, pitcher=pitcher), []
    played = [0] * 4
    while not (state.record["trick_no"] >= min_tricks and state.current_player == seat):
        p = state.current_player
        action = int(rng.choice(state.legal_actions()))
        played[p] |= 1 << action
        actions.append(action)
        state.apply(action)
    a, views_a = _replay(hands, pitcher, actions, seat)
    found = 0
    for _attempt in range(200):
        other = _reshuffle(hands, seat, played, a.record["voids"], rng)
        if other is None or other == hands:
            continue
        assert other[seat] == hands[seat]
        b, views_b = _replay(other, pitcher, actions, seat)
        for i, (va, vb) in enumerate(zip(views_a, views_b, strict=True)):
            assert_obs_equal(va, vb, f"after {i} actions")
        _same_choices(a, b, seat)
        found += 1
        if found >= 4:
            return
    pytest.fail(f"only {found} consistent reshuffles found")
