"""The Gymnasium env ``trickgym/SoloWhist-v0`` and the seat's information set."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from trickgym.agents import RandomAgent, kernel_scratch
from trickgym.agents.loops import act

import trickgym
from trickgym.cards.notation import format_hand
from trickgym.games.solowhist.constants import (
    CALL_BASE,
    PASS,
    PLAY,
    SOLO,
)

ENV_ID = "trickgym/SoloWhist-v0"


def make(**kwargs):
    """The unwrapped env, as ``gymnasium.make`` builds it."""
    return gym.make(ENV_ID, **kwargs).unwrapped


def legal(mask) -> np.ndarray:
    """Ids of the true entries of a mask."""
    return np.flatnonzero(np.asarray(mask))


def assert_obs_equal(a: dict, b: dict, context: str = "") -> None:
    """Two observation dicts have the same keys and equal arrays (values and dtypes)."""
    assert a.keys() == b.keys(), context
    for key in a:
        x, y = np.asarray(a[key]), np.asarray(b[key])
        assert x.dtype == y.dtype, f"{context} key {key}: dtype {x.dtype} != {y.dtype}"
        np.testing.assert_array_equal(x, y, err_msg=f"{context} key {key}")


# ------------------------------------------------------------------- checker


@pytest.mark.parametrize("seat", [0, 1, 3])
def test_check_env(seat):
    """Gymnasium's checker passes for several seats with ansi rendering."""
    env = make(seat=seat, render_mode="ansi")
    check_env(env, skip_render_check=False)
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "Solo Whist" in text


def test_observation_in_space():
    """Every observation of a random episode lies in the observation space."""
    env = make(seat=2)
    rng = np.random.default_rng(0)
    for episode in range(5):
        obs, _ = env.reset(seed=episode)
        assert env.observation_space.contains(obs)
        done = False
        while not done:
            obs, _, done, _, _ = env.step(int(rng.choice(legal(obs["action_mask"]))))
            assert env.observation_space.contains(obs), obs


# ------------------------------------------------------------ reproducibility


def _play(env, seed: int, action_seed: int, episodes: int = 3):
    """Trace of (obs, reward, terminated) over episodes: seeded first reset, then unseeded."""
    rng = np.random.default_rng(action_seed)
    trace = []
    for episode in range(episodes):
        obs, _ = env.reset(seed=seed if episode == 0 else None)
        trace.append((obs, 0.0, False))
        done = False
        while not done:
            action = int(rng.choice(legal(obs["action_mask"])))
            obs, reward, done, truncated, _ = env.step(action)
            assert not truncated
            trace.append((obs, reward, done))
    return trace


@pytest.mark.parametrize("seat", [0, 2])
def test_same_seed_same_episodes(seat):
    """Two envs with one seed and one action sequence give identical traces."""
    a = _play(make(seat=seat), seed=11, action_seed=4)
    b = _play(make(seat=seat), seed=11, action_seed=4)
    assert len(a) == len(b)
    for i, ((oa, ra, da), (ob, rb, db)) in enumerate(zip(a, b, strict=True)):
        assert_obs_equal(oa, ob, f"step {i}")
        assert ra == rb and da == db, f"step {i}"


def test_different_seeds_different_deals():
    """Different reset seeds deal different hands."""
    env = make()
    deals = set()
    for seed in range(10):
        env.reset(seed=seed)
        deals.add(tuple(int(h) for h in env.unwrapped.state.record["initial_hands"]))
    assert len(deals) == 10


# -------------------------------------------------------------------- rewards


def test_rewards_masks_and_sampling():
    """Reward 0 until the end, then the seat's payoff; masks agree; sample() is legal."""
    n_episodes, nonzero = 200, 0
    for seat in range(4):
        env = make(seat=seat)
        env.action_space.seed(seat)
        for episode in range(n_episodes // 4):
            obs, info = env.reset(seed=1000 * seat + episode)
            assert info == {}
            done = False
            while not done:
                mask = obs["action_mask"]
                assert mask.dtype == np.int8 and mask.sum() >= 1
                np.testing.assert_array_equal(env.action_masks(), mask.astype(bool))
                assert env.action_masks().dtype == np.bool_
                action = env.action_space.sample()
                assert mask[action] == 1, (action, legal(mask))
                obs, reward, done, truncated, info = env.step(action)
                assert not truncated and "illegal_action" not in info
                if not done:
                    assert reward == 0.0
            payoffs = env.unwrapped.state.payoffs
            assert reward == float(payoffs[seat])
            assert payoffs.sum() == 0
            assert obs["action_mask"].sum() == 0  # nothing to do once the deal is over
            nonzero += reward != 0
    assert nonzero > n_episodes // 2


def test_illegal_action_raise():
    """``illegal_action="raise"`` names the action and the legal ones; the state is unchanged."""
    env = make(illegal_action="raise")
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.unwrapped.state.array.copy()
    with pytest.raises(ValueError, match=rf"illegal action {illegal}\b") as err:
        env.step(illegal)
    for a in legal(obs["action_mask"]):
        assert str(int(a)) in str(err.value)
    after = env.unwrapped.state.array
    for field in before.dtype.names:
        np.testing.assert_array_equal(after[field], before[field], err_msg=field)
    env.step(int(legal(obs["action_mask"])[0]))  # still playable


def test_illegal_action_terminates():
    """By default an illegal action ends the episode with reward -100."""
    env = make()
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-100.0, True, False)
    assert info.get("illegal_action") is True
    with pytest.raises(ValueError, match="reset"):
        env.step(int(legal(obs["action_mask"])[0]))
    env = make(illegal_penalty=7)
    env.reset(seed=3)
    assert env.step(illegal)[1] == -7.0


def test_card_out_of_auction_is_illegal():
    """Playing a card during the auction is illegal (a card id, not a call)."""
    env = make()
    obs, _ = env.reset(seed=0)
    assert obs["phase"] == 0 and obs["action_mask"][:CALL_BASE].sum() == 0
    assert env.step(0)[3:] == (False, {"illegal_action": True})


# ------------------------------------------------------------ bad arguments


@pytest.mark.filterwarnings("ignore:.*render_mode")
@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"seat": 7}, "7"),
        ({"opponents": ["random", "random"]}, "random"),
        ({"opponents": ["random", "random", "random", "random"]}, "random"),
        ({"opponents": "nobody"}, "nobody"),
        ({"opponents": ["random", "nobody", "random"]}, "nobody"),
        ({"foo": 1}, "foo"),
        ({"unit": 0}, "unit"),
        ({"render_mode": "human"}, "human"),
        ({"illegal_action": "ignore"}, "ignore"),
    ],
)
def test_bad_arguments(kwargs, named):
    """Bad constructor arguments raise ValueError naming the bad value."""
    with pytest.raises(ValueError, match=named):
        gym.make(ENV_ID, **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"seat": 1.0}, "1.0"),  # `1.0 in range(4)` passes; TypeError later
        ({"opponents": 5}, "5"),  # len(5): TypeError
        ({"opponents": RandomAgent}, "RandomAgent"),  # a class passes the Agent check
    ],
)
def test_bad_argument_types(kwargs, named):
    """Arguments of the wrong type raise ValueError naming them, at construction."""
    with pytest.raises(ValueError, match=named):
        make(**kwargs).reset(seed=0)


def test_observations_are_not_views():
    """A returned observation does not change when the env steps on."""
    env = make()
    obs, _ = env.reset(seed=5)
    saved = {k: np.array(v, copy=True) for k, v in obs.items()}
    rng = np.random.default_rng(0)
    done = False
    while not done:
        _, _, done, _, _ = env.step(int(rng.choice(legal(env.action_masks()))))
    assert_obs_equal(obs, saved)


def test_step_before_reset():
    """Stepping a fresh env asks for reset()."""
    with pytest.raises(ValueError, match="reset"):
        make().step(PASS)


def test_python_agent_opponents():
    """Opponents may be Python Agent objects, alone or mixed with built-in names."""
    for opponents in (RandomAgent(1), [RandomAgent(2), "random", RandomAgent(3)]):
        env = make(seat=1, opponents=opponents)
        rng = np.random.default_rng(0)
        for episode in range(5):
            obs, _ = env.reset(seed=episode)
            done = False
            while not done:
                obs, reward, done, _, _ = env.step(int(rng.choice(legal(obs["action_mask"]))))
            assert env.unwrapped.state.is_over
            assert reward == env.unwrapped.state.payoffs[1]


# ------------------------------------------------------------ information set


def _hands(rng) -> list[int]:
    """Four random 13-card hands as masks."""
    perm = rng.permutation(52)
    return [sum(1 << int(c) for c in perm[13 * s : 13 * s + 13]) for s in range(4)]


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _shuffle_hidden(hands, seat, dealer, turn_up, keep, rng) -> list[int]:
    """``hands`` with the cards hidden from ``seat`` shuffled among the other seats.

    ``seat``'s own hand, the turn-up (in the dealer's hand) and each seat's
    cards in ``keep[s]`` (cards it will play) stay where they are; each hand
    keeps 13 cards.
    """
    others = [s for s in range(4) if s != seat]
    fixed = {s: keep[s] | ((1 << turn_up) if s == dealer else 0) for s in others}
    pool = [c for s in others for c in _cards(hands[s] & ~fixed[s])]
    pool = list(rng.permutation(pool))
    out = list(hands)
    for s in others:
        n = 13 - bin(fixed[s]).count("1")
        out[s] = fixed[s] | sum(1 << int(c) for c in pool[:n])
        pool = pool[n:]
    assert not pool
    return out


def _deal(hands, dealer, turn_up):
    game = trickgym.game("solowhist")
    return game.deal(
        0, hands=[format_hand(h) for h in hands], dealer=dealer, turn_up=game.action_name(turn_up)
    )


def _replay(hands, dealer, turn_up, actions, seat):
    """The deal after ``actions`` and ``seat``'s views after each; ``None`` if one is illegal."""
    state = _deal(hands, dealer, turn_up)
    views = [state.observe(seat)]
    for action in actions:
        try:
            state.apply(action)
        except ValueError:
            return None
        views.append(state.observe(seat))
    return state, views


def _same_choices(a, b, seat: int) -> None:
    """The built-in and the Python random agents choose alike in two states of one info set."""
    assert a.current_player == seat == b.current_player
    oa, ob = a.observe(seat), b.observe(seat)
    choices = set()
    for seed in range(20):
        ra = np.array([seed + 1], dtype=np.uint64)
        rb = ra.copy()
        choice = act(0, a.record, seat, ra, *kernel_scratch(a.game), None)
        assert choice == act(0, b.record, seat, rb, *kernel_scratch(b.game), None)
        assert oa["action_mask"][choice] == 1
        choices.add(choice)
        python_a = RandomAgent(seed).act(oa, oa["action_mask"])
        assert python_a == RandomAgent(seed).act(ob, ob["action_mask"])
    # With a choice to make, the seeds matter, so the equalities are not vacuous.
    assert len(choices) > 1 or oa["action_mask"].sum() == 1


def _check_info_set(hands, dealer, turn_up, actions, seat, rng) -> None:
    """Replay ``actions`` on reshuffles of the unseen cards: the seat's views never differ."""
    a, views_a = _replay(hands, dealer, turn_up, actions, seat)
    keep = [0] * 4
    probe = _deal(hands, dealer, turn_up)
    for action in actions:
        if probe.record["phase"] == PLAY:
            keep[probe.current_player] |= 1 << int(action)
        probe.apply(action)
    found = 0
    for _attempt in range(200):
        other = _shuffle_hidden(hands, seat, dealer, turn_up, keep, rng)
        replay = _replay(other, dealer, turn_up, actions, seat)
        if replay is None:
            continue  # a seat that showed out of a suit was given one
        b, views_b = replay
        assert other[seat] == hands[seat] and other != hands
        # The reshuffle is real: another seat's view differs.
        assert any(
            not np.array_equal(a.observe(s)["hand"], b.observe(s)["hand"])
            for s in range(4)
            if s != seat
        )
        for i, (va, vb) in enumerate(zip(views_a, views_b, strict=True)):
            assert_obs_equal(va, vb, f"after {i} actions")
        _same_choices(a, b, seat)
        found += 1
        if found == 3:
            return
    pytest.fail(f"only {found} consistent reshuffles found")


@pytest.mark.parametrize("seat", range(4))
def test_info_set_auction(seat):
    """Shuffling the unseen cards does not change the seat's view of the auction."""
    rng = np.random.default_rng(100 + seat)
    dealer = 3
    while True:
        hands = _hands(rng)
        turn_up = int(rng.choice(_cards(hands[dealer])))
        state, actions = _deal(hands, dealer, turn_up), []
        while len(actions) < 4 or state.current_player != seat:
            if state.record["phase"] == PLAY or state.is_over:
                break
            actions.append(int(rng.choice(state.legal_actions())))
            state.apply(actions[-1])
        else:
            break
    _check_info_set(hands, dealer, turn_up, actions, seat, rng)


@pytest.mark.parametrize("seat", range(4))
def test_info_set_play(seat):
    """After a Solo and two tricks and more, shuffling the unseen cards keeps the seat's view."""
    rng = np.random.default_rng(200 + seat)
    dealer = 2
    hands = _hands(rng)
    turn_up = int(rng.choice(_cards(hands[dealer])))
    state = _deal(hands, dealer, turn_up)
    actions = ["Solo", "Pass", "Pass", "Pass"]  # eldest (seat 3) bids Solo
    for call in actions:
        state.apply(call)
    assert state.record["contract"] == SOLO and state.record["phase"] == PLAY
    assert state.record["trumps"] == turn_up // 13
    while len(actions) < 4 + 9 or state.current_player != seat:
        actions.append(int(rng.choice(state.legal_actions())))
        state.apply(actions[-1])
    _check_info_set(hands, dealer, turn_up, actions, seat, rng)
