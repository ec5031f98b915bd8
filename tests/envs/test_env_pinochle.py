"""The Gymnasium env ``trickgym/Pinochle-v0``: the learner bidding, burying, passing cards.

What every env does (the checker, spaces, seeding, rewards and masks,
illegal actions, opponents, bad arguments, the vector env) is checked in
``tests/envs/test_conformance.py``; that no observation shows a hidden card,
in ``tests/games/test_conformance.py``; here, who is shown what.
"""

from __future__ import annotations

import functools

import gymnasium as gym
import numpy as np
import pytest

import trickgym
from trickgym.agents import RandomAgent
from trickgym.games.pinochle.constants import (
    AUCTION,
    BID_BASE,
    DISCARD,
    PASS,
    PASS_IN,
    PLAY,
    TRUMP,
    TRUMP_BASE,
)

ENV_ID = "trickgym/Pinochle-v0"
N_CARDS = 48


def make(**kwargs):
    """The unwrapped env, as ``gymnasium.make`` builds it."""
    return gym.make(ENV_ID, **kwargs).unwrapped


def legal(mask) -> np.ndarray:
    return np.flatnonzero(np.asarray(mask))


def mask_of(array) -> int:
    """Bit mask of a 0/1 card array of an observation."""
    return sum(1 << int(c) for c in np.flatnonzero(array))


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


def test_bids_above_max_bid_are_never_legal():
    """An illegal bid (above ``max_bid``) ends the episode like any illegal action."""
    env = make(illegal_penalty=7, max_bid=300)
    obs, _ = env.reset(seed=3)
    assert not obs["action_mask"][BID_BASE + 6 :].any()
    _, reward, terminated, _, info = env.step(127)
    assert (reward, terminated, info["illegal_action"]) == (-7.0, True, True)


# ------------------------------------------------------------ private fields
#
# That no observation changes when the hidden cards are dealt otherwise is
# checked for every game by the conformance suite (tests/games, tests/agents);
# here, who is shown the discards, the passed cards and the kitty.


@functools.cache
def _game(mode: str):
    return trickgym.game("pinochle", mode=mode)


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
