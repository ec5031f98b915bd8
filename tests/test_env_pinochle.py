"""The Gymnasium env ``trickgym/Pinochle-v0`` and the Pinochle seat's information set."""

from __future__ import annotations

import functools

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from trickgym.agents import RandomAgent, kernel_scratch
from trickgym.agents.loops import act

import trickgym
from trickgym.cards import PINOCHLE
from trickgym.games.pinochle.constants import (
    AUCTION,
    BID_BASE,
    DISCARD,
    HAND_OVER,
    PASS,
    PASS_BACK,
    PASS_IN,
    PLAY,
    TRUMP,
    TRUMP_BASE,
)

ENV_ID = "trickgym/Pinochle-v0"
N_CARDS = 48
SUIT_OF = PINOCHLE.suit_of
MOVES = (DISCARD, PASS_IN, PASS_BACK)


def make(**kwargs):
    """The unwrapped env, as ``gymnasium.make`` builds it."""
    return gym.make(ENV_ID, **kwargs).unwrapped


def legal(mask) -> np.ndarray:
    return np.flatnonzero(np.asarray(mask))


def mask_of(array) -> int:
    """Bit mask of a 0/1 card array of an observation."""
    return sum(1 << int(c) for c in np.flatnonzero(array))


def assert_obs_equal(a: dict, b: dict, context: str = "") -> None:
    assert a.keys() == b.keys(), context
    for key in a:
        x, y = np.asarray(a[key]), np.asarray(b[key])
        assert x.dtype == y.dtype, f"{context} key {key}: dtype {x.dtype} != {y.dtype}"
        np.testing.assert_array_equal(x, y, err_msg=f"{context} key {key}")


def play_episode(env, rng, seed=None):
    """One episode with uniformly random legal actions; returns (observations, last reward)."""
    obs, _ = env.reset(seed=seed)
    trace = [obs]
    done, reward = False, 0.0
    while not done:
        obs, reward, done, truncated, _ = env.step(int(rng.choice(legal(obs["action_mask"]))))
        assert not truncated
        trace.append(obs)
    return trace, reward


# ------------------------------------------------------------------- checker


@pytest.mark.parametrize(
    ("mode", "seat"), [("kitty", 0), ("kitty", 3), ("exchange", 1), ("exchange", 2)]
)
def test_check_env(mode, seat):
    """Gymnasium's checker passes for both modes and several seats with ansi rendering."""
    env = make(mode=mode, seat=seat, render_mode="ansi")
    check_env(env, skip_render_check=False)
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and f"Pinochle ({mode})" in text


def test_registered_and_defaults():
    assert ENV_ID in trickgym.envs.ENV_IDS and ENV_ID in gym.registry
    env = make()
    assert (env.n_seats, env.seat, env.game.options.mode) == (4, 0, "kitty")
    assert env.action_space.n == 128
    obs, _ = env.reset(seed=0)
    assert obs["seat"] == 0 and obs["mode"] == 0 and obs["phase"] == AUCTION
    assert make().render() is None
    env = make(mode="exchange", pass_count=3, min_bid=200, max_bid=500, target=1000)
    o = env.game.options
    assert (o.mode, o.pass_count, o.min_bid, o.max_bid, o.target) == ("exchange", 3, 200, 500, 1000)
    assert env.reset(seed=0)[0]["mode"] == 1


@pytest.mark.parametrize("mode", ["kitty", "exchange"])
def test_observation_in_space(mode):
    env = make(mode=mode, seat=2)
    rng = np.random.default_rng(0)
    for episode in range(5):
        trace, _ = play_episode(env, rng, seed=episode)
        for obs in trace:
            assert env.observation_space.contains(obs), obs
            assert obs["seat"] == 2 and obs["mode"] == (mode == "exchange")


# ------------------------------------------------------------ reproducibility


def _play(env, seed: int, action_seed: int, episodes: int = 3):
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


@pytest.mark.parametrize(("mode", "seat"), [("kitty", 1), ("exchange", 3)])
def test_same_seed_same_episodes(mode, seat):
    a = _play(make(mode=mode, seat=seat), seed=11, action_seed=4)
    b = _play(make(mode=mode, seat=seat), seed=11, action_seed=4)
    assert len(a) == len(b)
    for i, ((oa, ra, da), (ob, rb, db)) in enumerate(zip(a, b, strict=True)):
        assert_obs_equal(oa, ob, f"step {i}")
        assert ra == rb and da == db, f"step {i}"


def test_different_seeds_different_deals():
    env = make()
    deals = set()
    for seed in range(10):
        env.reset(seed=seed)
        r = env.state.record
        deals.add((*(int(h) for h in r["initial_hands"]), int(r["kitty"])))
    assert len(deals) == 10


def test_reset_is_a_new_match():
    env = make(seat=1)
    rng = np.random.default_rng(0)
    for episode in range(4):
        trace, _ = play_episode(env, rng, seed=None if episode else 3)
        assert (trace[0]["scores"] == 0).all()
        assert env.state.record["hand_index"] == 0


# -------------------------------------------------------------------- rewards


@pytest.mark.parametrize("mode", ["kitty", "exchange"])
def test_rewards_masks_and_sampling(mode):
    """Reward 0 until the end, then the seat's payoff; masks agree; sample() is legal."""
    nonzero = episodes = 0
    for seat in range(4):
        env = make(mode=mode, seat=seat)
        env.action_space.seed(seat)
        for episode in range(4):
            obs, info = env.reset(seed=100 * seat + episode)
            assert info == {}
            done = False
            while not done:
                mask = obs["action_mask"]
                assert mask.dtype == np.int8 and mask.sum() >= 1 and mask.shape == (128,)
                assert obs["phase"] != HAND_OVER
                np.testing.assert_array_equal(env.action_masks(), mask.astype(bool))
                action = env.action_space.sample()
                assert mask[action] == 1, (action, legal(mask))
                obs, reward, done, truncated, info = env.step(action)
                assert not truncated and "illegal_action" not in info
                if not done:
                    assert reward == 0.0
            payoffs = env.state.payoffs
            assert reward == float(payoffs[seat]) == float(env.state.record["payoffs"][seat])
            assert payoffs.tolist() == [payoffs[0], -payoffs[0], payoffs[0], -payoffs[0]]
            r = env.state.record
            assert payoffs[0] == r["hand_scores"][0] - r["hand_scores"][1]
            assert obs["phase"] == HAND_OVER and obs["action_mask"].sum() == 0
            assert not env.action_masks().any()
            nonzero += reward != 0
            episodes += 1
    assert nonzero > episodes // 2


class Passer(RandomAgent):
    """Passes in the auction whenever allowed, else acts at random."""

    def act(self, observation, action_mask) -> int:
        if action_mask[PASS]:
            return PASS
        return super().act(observation, action_mask)


def test_passed_out_hand_gives_zero():
    env = make(seat=0, opponents=Passer(1), all_pass="redeal")
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        while obs["phase"] == AUCTION and not env.state.is_over:
            obs, reward, done, _, _ = env.step(PASS)
        assert done and reward == 0.0 and env.state.record["passed_out"]


def test_learner_as_declarer_kitty_mode():
    """The learner bids, sees the kitty, names trumps and buries four cards, one per step."""
    env = make(seat=2, opponents=Passer(0))
    rng = np.random.default_rng(0)
    for episode in range(4):
        obs, _ = env.reset(seed=episode)
        assert not obs["kitty"].any()
        obs, *_ = env.step(BID_BASE)
        assert obs["phase"] == TRUMP and obs["declarer"] == 2
        kitty = mask_of(obs["kitty"])
        assert bin(kitty).count("1") == 4 and mask_of(obs["hand"]) & kitty == kitty
        assert obs["hand"].sum() == 15 and legal(obs["action_mask"]).tolist() == [49, 50, 51, 52]
        obs, *_ = env.step(TRUMP_BASE + episode)
        assert obs["trumps"] == episode + 1
        for k in range(4):
            assert obs["phase"] == DISCARD
            assert mask_of(obs["action_mask"][:64]) == mask_of(obs["hand"])
            obs, reward, done, _, _ = env.step(int(rng.choice(legal(obs["action_mask"]))))
            assert obs["discards"].sum() == k + 1 and not done
        assert obs["phase"] == PLAY and obs["hand"].sum() == 11
        assert obs["meld"][2] == env.state.record["meld"][2]
        done = False
        while not done:
            obs, reward, done, _, _ = env.step(int(rng.choice(legal(obs["action_mask"]))))
        assert reward == env.state.payoffs[2]


class Bidder(RandomAgent):
    """Opens the auction at the minimum, passes later, else acts at random."""

    def act(self, observation, action_mask) -> int:
        if observation["phase"] == AUCTION:
            return BID_BASE if observation["bids"][0] == 0 else PASS
        return super().act(observation, action_mask)


@pytest.mark.parametrize("pass_count", [4, 3])
def test_learner_as_partner_exchange_mode(pass_count):
    """Exchange mode: the learner's partner declares; the learner passes it cards, one a step,
    and gets cards back; the defenders see none of them."""
    env = make(
        seat=1,
        opponents=[Passer(0), Bidder(1), Passer(2)],
        mode="exchange",
        pass_count=pass_count,
    )
    rng = np.random.default_rng(1)
    for episode in range(4):
        obs, _ = env.reset(seed=episode)
        while obs["phase"] == AUCTION:
            obs, *_ = env.step(PASS)
        assert obs["phase"] == PASS_IN and obs["declarer"] == 3 and obs["trumps"] > 0
        hand = mask_of(obs["hand"])
        given = 0
        for k in range(pass_count):
            assert obs["phase"] == PASS_IN and mask_of(obs["action_mask"][:64]) == mask_of(
                obs["hand"]
            )
            card = int(rng.choice(legal(obs["action_mask"])))
            given |= 1 << card
            obs, *_ = env.step(card)
            assert mask_of(obs["passed_in"]) == given
            if k < pass_count - 1:  # after the last one the declarer passes back at once
                assert obs["hand"].sum() == 12 - k - 1 and not obs["passed_back"].any()
        back = mask_of(obs["passed_back"])
        assert bin(back).count("1") == pass_count and obs["hand"].sum() == 12
        assert mask_of(obs["hand"]) == (hand & ~given) | back
        assert obs["phase"] == PLAY
        for seat in (0, 2):
            view = env.state.observe(seat)
            assert not view["passed_in"].any() and not view["passed_back"].any()
        done = False
        while not done:
            obs, reward, done, _, _ = env.step(int(rng.choice(legal(obs["action_mask"]))))
        assert reward == env.state.payoffs[1]


def test_python_agent_opponents():
    for opponents in (RandomAgent(1), [RandomAgent(2), "random", RandomAgent(3)]):
        env = make(seat=2, opponents=opponents, mode="exchange")
        rng = np.random.default_rng(0)
        for episode in range(3):
            _, reward = play_episode(env, rng, seed=episode)
            assert env.state.is_over and reward == env.state.payoffs[2]


def test_illegal_action_raise():
    env = make(seat=3, illegal_action="raise")
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.state.array.copy()
    with pytest.raises(ValueError, match=rf"illegal action {illegal}\b"):
        env.step(illegal)
    assert env.state.array.tobytes() == before.tobytes()
    env.step(int(legal(obs["action_mask"])[0]))


def test_illegal_action_terminates():
    env = make()
    obs, _ = env.reset(seed=3)
    assert obs["phase"] == AUCTION and obs["action_mask"][:N_CARDS].sum() == 0
    _, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, truncated) == (-100.0, True, False)
    assert info.get("illegal_action") is True
    with pytest.raises(ValueError, match="reset"):
        env.step(PASS)
    env = make(illegal_penalty=7, max_bid=300)
    env.reset(seed=3)
    assert env.step(127)[1] == -7.0  # a bid above max_bid is never legal


@pytest.mark.filterwarnings("ignore:.*render_mode")
@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"seat": 4}, r"seat.*0\.\.3.*4"),
        ({"seat": -1}, "-1"),
        ({"mode": "x"}, "mode"),
        ({"pass_count": 5}, "pass_count"),
        ({"max_bid": 1000}, "max_bid"),
        ({"colour": "red"}, "colour"),
        ({"opponents": ["random"] * 4}, r"opponents.*list of 3"),
        ({"render_mode": "human"}, "human"),
        ({"illegal_action": "ignore"}, "ignore"),
    ],
)
def test_bad_arguments(kwargs, named):
    with pytest.raises(ValueError, match=named):
        gym.make(ENV_ID, **kwargs)


# ------------------------------------------------------------ information set
#
# A seat's information set: its own cards, everything public (the calls,
# the contract, trumps, the kitty once shown, every seat's meld and meld
# cards, the cards played and so the voids) and what it was shown: the
# declarer its discards, the two partners the passed cards. Deals that
# differ only in what the seat cannot see, played with the same public
# actions, must look the same to it, and the random agents must choose alike.


@functools.cache
def _game(mode: str):
    return trickgym.game("pinochle", mode=mode)


def _bits(mask: int) -> list[int]:
    return [c for c in range(N_CARDS) if mask >> c & 1]


def _deal(mode, hands, kitty, dealer):
    return _game(mode).deal(
        0, hands=list(hands), kitty=kitty if mode == "kitty" else None, dealer=dealer
    )


def _replay(mode, hands, kitty, dealer, actions, seat):
    """The state after ``actions`` and ``seat``'s views after each; ``None`` if one is illegal."""
    state = _deal(mode, hands, kitty, dealer)
    views = [state.observe(seat)]
    for action in actions:
        if not state.legal_action_mask()[action]:
            return None
        state.apply(action)
        views.append(state.observe(seat))
    return state, views


class History:
    """What happened in a replay: who moved what, and the hands once the play began."""

    def __init__(self, mode, hands, kitty, dealer, actions):
        state = _deal(mode, hands, kitty, dealer)
        self.steps = []  # (phase, mover, action)
        self.final = None  # hands at the start of the play
        self.played = [0] * 4
        for action in actions:
            r = state.record
            phase, mover = int(r["phase"]), state.current_player
            self.steps.append((phase, mover, int(action)))
            if phase == PLAY:
                self.played[mover] |= 1 << int(action)
            state.apply(action)
            if state.record["phase"] == PLAY and self.final is None:
                self.final = [int(h) for h in state.record["hands"]]
        r = state.record
        self.state = state
        self.declarer = int(r["declarer"])
        self.kitty_shown = mode == "kitty" and self.declarer >= 0
        self.moved = sum(1 << a for a in {a for p, _, a in self.steps if p in MOVES})
        self.discards = [a for p, _, a in self.steps if p == DISCARD]
        self.passed_in = [a for p, _, a in self.steps if p == PASS_IN]
        self.passed_back = [a for p, _, a in self.steps if p == PASS_BACK]
        self.meld_cards = [int(m) for m in r["meld_cards"]]
        self.voids = [int(v) for v in r["voids"]]

    def actions_with(self, moves: list[int]) -> list[int]:
        """The same calls and plays, with ``moves`` as the discards or passed cards."""
        moves = iter(moves)
        return [next(moves) if p in MOVES else a for p, _, a in self.steps]


def _fill(groups, rng, allowed=None):
    """Deal the free cards of ``groups`` (``(size, fixed, free)``) anew; ``None`` on a dead end.

    ``free`` cards of all groups are pooled and dealt back at random, each
    group getting ``size - |fixed|`` of them, within ``allowed[g]`` if given.
    """
    pool = [c for _, fixed, free in groups for c in _bits(free)]
    room = [size - bin(fixed).count("1") for size, fixed, _ in groups]
    assert sum(room) == len(pool)
    allowed = allowed or [(1 << N_CARDS) - 1] * len(groups)
    options = {c: [g for g in range(len(groups)) if allowed[g] >> c & 1] for c in pool}
    out = [fixed for _, fixed, _ in groups]
    for c in sorted(rng.permutation(pool).tolist(), key=lambda c: len(options[c])):
        weights = np.array([room[g] for g in options[c]], dtype=float)
        if weights.sum() == 0:
            return None
        g = options[c][rng.choice(len(weights), p=weights / weights.sum())]
        out[g] |= 1 << c
        room[g] -= 1
    return out


def _not_void(voids: int) -> int:
    """Cards of the suits a seat has not shown out of."""
    return sum(1 << c for c in range(N_CARDS) if not voids >> int(SUIT_OF[c]) & 1)


def _alternative_before_play(h: History, hands, kitty, seat, rng):
    """Another deal for a history that ends before the play (the auction or the moves).

    Only the moving seat's moves occur here and the seat sees them (its own, or
    passed to it), so they stay where they were, with the kitty once shown.
    """
    known = h.moved | (kitty if h.kitty_shown else 0)
    holders = [s for s in range(4) if s != seat]
    groups = [(len(_bits(hands[s])), hands[s] & known, hands[s] & ~known) for s in holders]
    if not h.kitty_shown and kitty:
        groups.append((4, 0, kitty))
    out = _fill(groups, rng)
    new_hands = list(hands)
    for s, cards in zip(holders, out, strict=False):
        new_hands[s] = cards
    new_kitty = out[-1] if not h.kitty_shown and kitty else kitty
    return new_hands, new_kitty, h.actions_with([a for p, _, a in h.steps if p in MOVES])


def _alternative_in_play(mode, h: History, kitty, seat, rng):
    """Another deal for a history that reaches the play: the hidden cards of the hands
    the seats melded are dealt anew, then the hidden moves are rebuilt to fit."""
    d = h.declarer
    p = (d + 2) % 4
    final = h.final
    public = sum(h.played) | sum(h.meld_cards) | (kitty if mode == "kitty" else 0)
    sees_moves = seat == d or (mode == "exchange" and seat == p)
    known = public | final[seat] | (h.moved if sees_moves else 0)
    holders = [s for s in range(4) if s != seat]
    bury = sum(1 << c for c in h.discards)
    hidden_bury = mode == "kitty" and seat != d
    groups, allowed = [], []
    for s in holders:
        cards = final[s] | (bury if hidden_bury and s == d else 0)
        groups.append((len(_bits(cards)), cards & known, cards & ~known))
        both = hidden_bury and s == d  # the declarer's hand and discards are one group
        allowed.append((1 << N_CARDS) - 1 if both else _not_void(h.voids[s]))
    out = _fill(groups, rng, allowed)
    if out is None:
        return None
    new_final = list(final)
    for s, cards in zip(holders, out, strict=True):
        new_final[s] = cards
    moves = [a for q, _, a in h.steps if q in MOVES]
    if mode == "kitty":
        discards = h.discards
        if hidden_bury:  # four of the fifteen, keeping what the declarer played or melded
            group = new_final[d]
            must = h.played[d] | h.meld_cards[d]
            voids = group & ~_not_void(h.voids[d]) & ~must
            if voids & must or bin(voids).count("1") > 4:
                return None
            rest = [c for c in _bits(group & ~must & ~voids)]
            extra = rng.choice(rest, 4 - bin(voids).count("1"), replace=False).tolist()
            new_bury = voids | sum(1 << int(c) for c in extra)
            discards = h.discards if new_bury == bury else _bits(new_bury)
            new_final[d] = group & ~new_bury
            moves = discards
        new_hands = list(new_final)
        new_hands[d] = (new_final[d] | sum(1 << c for c in discards)) & ~kitty
        return new_hands, kitty, h.actions_with(moves)
    a_in, b_back = h.passed_in, h.passed_back
    if not sees_moves:  # a defender: any cards could have been passed
        k = len(a_in)
        a_in = [int(c) for c in rng.choice(_bits(new_final[d]), k, replace=False)]
        b_back = [int(c) for c in rng.choice(_bits(new_final[p]), k, replace=False)]
    a, b = sum(1 << c for c in a_in), sum(1 << c for c in b_back)
    new_hands = list(new_final)
    new_hands[p] = (new_final[p] & ~b) | a
    new_hands[d] = (new_final[d] & ~a) | (b & ~a)
    return new_hands, 0, h.actions_with([*a_in, *b_back])


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
        choices.add(int(choice))
        assert RandomAgent(seed).act(oa, oa["action_mask"]) == RandomAgent(seed).act(
            ob, ob["action_mask"]
        )
    assert len(choices) > 1 or oa["action_mask"].sum() == 1


def _check_info_set(mode, hands, kitty, dealer, actions, seat, rng, need_moves_changed=False):
    """Replay ``actions`` on other deals the seat cannot tell apart: its views never differ."""
    a, views_a = _replay(mode, hands, kitty, dealer, actions, seat)
    h = History(mode, hands, kitty, dealer, actions)
    found, moves_changed = 0, False
    for _attempt in range(3000):
        if h.final is None:
            alt = _alternative_before_play(h, hands, kitty, seat, rng)
        else:
            alt = _alternative_in_play(mode, h, kitty, seat, rng)
        if alt is None:
            continue
        other_hands, other_kitty, other_actions = alt
        assert other_hands[seat] == hands[seat]
        if (other_hands, other_kitty) == (list(hands), kitty):
            continue
        replay = _replay(mode, other_hands, other_kitty, dealer, other_actions, seat)
        if replay is None:
            continue  # a play became illegal (must follow, head or trump)
        b, views_b = replay
        ra, rb = a.record, b.record
        if (ra["meld"] != rb["meld"]).any() or (ra["meld_cards"] != rb["meld_cards"]).any():
            continue  # the seats melded differently: public, so another information set
        for i, (va, vb) in enumerate(zip(views_a, views_b, strict=True)):
            assert_obs_equal(va, vb, f"after {i} actions")
        _same_choices(a, b, seat)
        found += 1
        moves_changed |= other_actions != list(actions)
        if found >= 3 and (moves_changed or not need_moves_changed):
            return
    pytest.fail(f"only {found} consistent deals found (hidden moves changed: {moves_changed})")


def _random_deal(mode, rng):
    perm = [int(c) for c in rng.permutation(N_CARDS)]
    n = 11 if mode == "kitty" else 12
    hands = [sum(1 << c for c in perm[n * s : n * s + n]) for s in range(4)]
    return hands, sum(1 << c for c in perm[4 * n :])


def _call(state, rng, declarer=None):
    """An auction call: the chosen declarer bids (once, or when stuck), others mostly pass."""
    mask = state.legal_action_mask()
    p = state.current_player
    if declarer is not None:
        if p == declarer and state.record["holder"] != declarer:
            return BID_BASE + int(rng.integers(3))
        return PASS
    if mask[PASS] and rng.random() < 0.5:
        return PASS
    bids = legal(mask[BID_BASE:]) + BID_BASE
    return int(bids[0]) if len(bids) else PASS


@pytest.mark.parametrize(
    ("mode", "seat", "dealer"), [("kitty", 0, 0), ("kitty", 2, 1), ("exchange", 3, 2)]
)
def test_info_set_auction(mode, seat, dealer):
    """In the auction every card but the seat's own is hidden, the kitty included."""
    rng = np.random.default_rng(10 * seat + dealer)
    for _ in range(50):
        hands, kitty = _random_deal(mode, rng)
        state, actions = _deal(mode, hands, kitty, dealer), []
        while state.record["phase"] == AUCTION and (
            state.current_player != seat or len(actions) < 3
        ):
            actions.append(_call(state, rng))
            state.apply(actions[-1])
        if state.record["phase"] == AUCTION:
            break
    _check_info_set(mode, hands, kitty, dealer, actions, seat, rng)


def _scenario(mode, role, end, seed):
    """A deal and actions up to the seat's turn; ``role`` of the seat is ``declarer``,
    ``partner`` or ``defender``; ``end`` is ``"moves"`` (the seat is discarding or passing)
    or ``"play"`` (trick 3 or later)."""
    rng = np.random.default_rng(seed)
    for _attempt in range(200):
        hands, kitty = _random_deal(mode, rng)
        dealer, seat = int(rng.integers(4)), int(rng.integers(4))
        declarer = {
            "declarer": seat,
            "partner": (seat + 2) % 4,
            "defender": (seat + 1 + 2 * int(rng.integers(2))) % 4,
        }[role]
        state, actions = _deal(mode, hands, kitty, dealer), []

        def act(action, state=state, actions=actions):
            actions.append(int(action))
            state.apply(int(action))

        while state.record["phase"] == AUCTION:
            act(_call(state, rng, declarer))
        assert state.record["declarer"] == declarer
        act(TRUMP_BASE + int(rng.integers(4)))
        if end == "moves":
            stop = int(rng.integers(3))
            while not (state.current_player == seat and state.record["n_moved"] >= stop):
                if state.record["phase"] == PLAY:
                    break
                act(rng.choice(state.legal_actions()))
            if state.record["phase"] in MOVES and state.current_player == seat:
                return hands, kitty, dealer, seat, actions
            continue
        while not (state.record["trick_no"] >= 2 and state.current_player == seat):
            act(rng.choice(state.legal_actions()))
        assert state.record["phase"] == PLAY
        return hands, kitty, dealer, seat, actions
    raise AssertionError(f"no {mode}/{role}/{end} scenario found")


MOVE_SCENARIOS = [("kitty", "declarer"), ("exchange", "declarer"), ("exchange", "partner")]


@pytest.mark.parametrize(("mode", "role"), MOVE_SCENARIOS)
def test_info_set_moves(mode, role):
    """The declarer burying, the partners passing: the others' hands stay hidden."""
    seed = 100 + MOVE_SCENARIOS.index((mode, role))
    hands, kitty, dealer, seat, actions = _scenario(mode, role, "moves", seed)
    _check_info_set(mode, hands, kitty, dealer, actions, seat, np.random.default_rng(seed))


PLAY_SCENARIOS = [
    (mode, role) for mode in ("kitty", "exchange") for role in ("declarer", "partner", "defender")
]


@pytest.mark.parametrize(("mode", "role"), PLAY_SCENARIOS)
def test_info_set_play(mode, role):
    """In the play: the discards hidden from all but the declarer, the passed cards from
    the defenders, the unplayed unmelded cards from everyone."""
    seed = 200 + PLAY_SCENARIOS.index((mode, role))
    hands, kitty, dealer, seat, actions = _scenario(mode, role, "play", seed)
    hidden_moves = (mode == "kitty" and role != "declarer") or (
        mode == "exchange" and role == "defender"
    )
    rng = np.random.default_rng(seed)
    _check_info_set(mode, hands, kitty, dealer, actions, seat, rng, hidden_moves)


def test_private_fields_of_the_observation():
    """Who sees the discards and the passed cards; the kitty is shown to all."""
    for mode in ("kitty", "exchange"):
        for seed in range(6):
            state = _game(mode).deal(seed)
            rng = np.random.default_rng(seed)
            while state.record["phase"] != PLAY:
                state.apply(int(rng.choice(state.legal_actions())))
            r = state.record
            d = int(r["declarer"])
            for s in range(4):
                view = state.observe(s)
                partners = s in (d, (d + 2) % 4)
                assert mask_of(view["discards"]) == (int(r["discards"]) if s == d else 0)
                assert mask_of(view["passed_in"]) == (int(r["passed_in"]) if partners else 0)
                assert mask_of(view["passed_back"]) == (int(r["passed_back"]) if partners else 0)
                assert mask_of(view["kitty"]) == int(r["kitty"])
                assert mask_of(view["hand"]) == int(r["hands"][s])
                assert view["meld"].tolist() == r["meld"].tolist()
                if s != state.current_player:
                    assert not view["action_mask"].any()


def test_bug_observation_space_holds_large_bids():
    try:
        env = make(min_bid=20_000, max_bid=20_000)
    except ValueError:
        return  # options bounded: fixed
    obs, _ = env.reset(seed=0)
    while obs["phase"] == AUCTION:
        obs, *_ = env.step(int(legal(obs["action_mask"])[-1]))  # bid when able
        assert env.observation_space.contains(obs)
