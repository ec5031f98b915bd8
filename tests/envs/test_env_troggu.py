"""The Gymnasium env ``trickgym/Troggu-v0``: its defaults, the Tappist's turns, the secret partner.

What every env does (the checker, spaces, seeding, rewards and masks,
illegal actions, opponents, bad arguments, the vector env) is checked in
``tests/envs/test_conformance.py``; that no observation shows a hidden card,
in ``tests/games/test_conformance.py``.
"""

from __future__ import annotations

import functools

import gymnasium as gym
import numpy as np
import pytest

import trickgym
from trickgym.agents import RandomAgent
from trickgym.games.troggu.constants import (
    CALL,
    CALLABLE,
    DISCARD,
    FOOL,
    FORCED_TAPP,
    HAND_SIZE,
    MISERE,
    NO_PARTNER,
    PASS,
    PLAY,
    SOLO,
    SOLO_CALL,
    TAPP,
    TAPP_CALL,
    TAPP_SIZE,
)

ENV_ID = "trickgym/Troggu-v0"
N_CARDS = 62


def make(**kwargs):
    """The unwrapped env, as ``gymnasium.make`` builds it."""
    return gym.make(ENV_ID, **kwargs).unwrapped


def legal(mask) -> np.ndarray:
    """Ids of the true entries of a mask."""
    return np.flatnonzero(np.asarray(mask))


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


def test_registered_and_defaults():
    """The id is registered; players is required; the default seat is 0."""
    assert ENV_ID in trickgym.envs.ENV_IDS and ENV_ID in gym.registry
    with pytest.raises(ValueError, match="players is required for troggu"):
        gym.make(ENV_ID)
    env = make(players=4)
    assert (env.n_seats, env.seat) == (4, 0)
    obs, _ = env.reset(seed=0)
    assert obs["n_players"] == 4 and obs["seat"] == 0
    for players in (3, 6, 8):
        assert make(players=players, seat=players - 1).reset(seed=0)[0]["n_players"] == players


def test_reset_is_a_new_one_deal_match():
    """Every reset starts a fresh one-deal match: no scores carried over."""
    env = make(players=4, seat=2)
    rng = np.random.default_rng(0)
    for episode in range(5):
        trace, _ = play_episode(env, rng, seed=None if episode else 3)
        assert (trace[0]["scores"] == 0).all()
        record = env.state.record
        assert record["num_deals"] == 1 and env.state.match_over


class Passer(RandomAgent):
    """Passes in the auction, else plays at random."""

    def act(self, observation, action_mask) -> int:
        if action_mask[PASS]:
            return PASS
        return super().act(observation, action_mask)


@pytest.mark.parametrize("players", [5, 7, 8])
def test_learner_as_tappist(players):
    """A learner that bids Tapp sees the Tapp, discards one card per step and (7-8) calls."""
    env = make(players=players, seat=1, opponents=Passer(players))
    rng = np.random.default_rng(players)
    tappist_games = 0
    for episode in range(6):
        obs, _ = env.reset(seed=episode)
        assert not obs["tapp"].any() and not obs["discards"].any()
        if not obs["action_mask"][TAPP_CALL]:
            continue  # an earlier seat said Tapp
        obs, *_ = env.step(TAPP_CALL)
        if obs["contract"] != TAPP:
            continue  # a later seat said Solo
        tappist_games += 1
        assert obs["phase"] == DISCARD and obs["declarer"] == 1
        assert obs["tapp"].sum() == TAPP_SIZE[players]
        assert obs["hand"].sum() == HAND_SIZE[players] + TAPP_SIZE[players]
        for k in range(TAPP_SIZE[players]):
            assert obs["phase"] == DISCARD
            assert obs["action_mask"][:N_CARDS].sum() > 0 and not obs["action_mask"][N_CARDS:].any()
            obs, reward, done, _, _ = env.step(int(rng.choice(legal(obs["action_mask"]))))
            assert obs["discards"].sum() == k + 1 and not done
        if players >= 7:
            assert obs["phase"] == CALL
            mask = obs["action_mask"]
            assert legal(mask).tolist() == [*range(1, 20), NO_PARTNER]
            obs, *_ = env.step(int(rng.choice(legal(mask))))
        assert obs["phase"] == PLAY and obs["hand"].sum() == HAND_SIZE[players]
        done = False
        while not done:
            obs, reward, done, _, _ = env.step(int(rng.choice(legal(obs["action_mask"]))))
        assert reward == env.state.payoffs[1]
        # The discards count for the Tappist (its pile holds them, unless it
        # gave one away in the Fool exchange).
        record = env.state.record
        if record["fool_held_back_by"] != 1:
            assert int(record["won"][1]) & int(record["discards"]) == int(record["discards"])
    assert tappist_games == 6


# ------------------------------------------------------------ the secret partner
#
# That no observation changes when the hidden cards (the called card's holder
# among them) are dealt otherwise is checked for every game by the
# conformance suite (tests/games, tests/agents); here, what each seat is told.


@functools.cache
def _game(n: int):
    return trickgym.game("troggu", players=n)


def _bits(mask: int) -> list[int]:
    return [c for c in range(N_CARDS) if mask >> c & 1]


def _random_deal(n: int, rng) -> tuple[list[int], int]:
    perm = [int(c) for c in rng.permutation(N_CARDS)]
    h = HAND_SIZE[n]
    hands = [sum(1 << c for c in perm[h * s : h * s + h]) for s in range(n)]
    return hands, sum(1 << c for c in perm[n * h :])


def _deal(hands, tapp, dealer):
    return _game(len(hands)).deal(0, hands=hands, tapp=tapp, dealer=dealer)


def _scenario(n: int, kind: str, role: str, seed: int, min_tricks: int = 2):
    """A deal and actions up to the seat's turn in trick ``min_tricks`` or later.

    ``kind``: ``tapp``, ``solo``, ``misere`` (all pass, 3-6 players),
    ``forced`` (all pass, 7-8), ``partner`` (Tapp and a trump held by another
    seat called), ``alone`` (Tapp and no partner called), ``own`` (Tapp and a
    trump of the Tappist's own called). ``role`` of the seat: ``declarer``,
    ``partner`` or ``other``. With ``partner``/``other`` the called card is
    not yet played at the end. Returns ``hands, tapp, dealer, seat, actions``.
    """
    rng = np.random.default_rng(seed)
    for _attempt in range(500):
        hands, tapp = _random_deal(n, rng)
        dealer, seat = int(rng.integers(n)), int(rng.integers(n))
        others = [s for s in range(n) if s != seat]
        declarer, partner = -1, -1
        if kind == "forced":
            if tapp >> FOOL & 1:
                continue
            declarer = next(s for s in range(n) if hands[s] >> FOOL & 1)
            if (role == "declarer") != (declarer == seat):
                continue
        elif kind != "misere":
            declarer = seat if role == "declarer" else int(rng.choice(others))
        if kind == "partner":
            if role == "partner":
                partner = seat
            else:
                partner = int(rng.choice([s for s in others if s != declarer] or [seat]))
        state, actions = _deal(hands, tapp, dealer), []

        def act(action, state=state, actions=actions):
            actions.append(int(action))
            state.apply(action)

        while state.record["phase"] == 0:
            p = state.current_player
            act(
                (SOLO_CALL if kind == "solo" else TAPP_CALL)
                if p == declarer and kind not in ("forced", "misere")
                else PASS
            )
        if declarer >= 0:
            assert state.record["declarer"] == declarer
        while state.record["phase"] == DISCARD:
            act(rng.choice(state.legal_actions()))
        if state.record["phase"] == CALL:
            holder = {"partner": partner, "own": declarer}.get(kind)
            if holder is None:
                act(NO_PARTNER)
            else:
                trumps = _bits(int(state.record["hands"][holder]) & CALLABLE)
                if not trumps:
                    continue
                act(rng.choice(trumps))
                assert state.record["partner"] == (partner if kind == "partner" else -1)
        called = int(state.record["called_card"])
        while (
            not (state.record["trick_no"] >= min_tricks and state.current_player == seat)
            and state.record["trick_no"] < HAND_SIZE[n] - 1
        ):
            act(rng.choice(state.legal_actions()))
        if state.current_player != seat or state.record["trick_no"] >= HAND_SIZE[n] - 1:
            continue
        if kind == "partner" and role != "declarer":
            hidden = called >= 0 and int(state.record["hands"][partner]) >> called & 1
            if not hidden:
                continue
        contract = {"solo": SOLO, "misere": MISERE, "forced": FORCED_TAPP}.get(kind, TAPP)
        assert state.record["contract"] == contract and state.record["phase"] == PLAY
        return hands, tapp, dealer, seat, actions
    raise AssertionError(f"no {kind}/{role} scenario found")


@pytest.mark.parametrize("players", [7, 8])
@pytest.mark.parametrize("kind", ["partner", "own", "alone"])
def test_partner_identity_hidden_until_card_played(players, kind):
    """7-8 players: nobody but the partner knows the partner until the called card is played."""
    for seed in range(4):
        hands, tapp, dealer, _, actions = _scenario(players, kind, "other", 50 * players + seed, 0)
        state = _deal(hands, tapp, dealer)
        for action in actions:
            state.apply(action)
        record = state.record
        partner, called = int(record["partner"]), int(record["called_card"])
        assert (partner >= 0) == (kind == "partner")
        assert (called >= 0) == (kind != "alone")
        rng = np.random.default_rng(seed)
        revealed = called >= 0 and bool(int(np.bitwise_or.reduce(record["played"])) >> called & 1)
        assert record["partner_revealed"] == revealed
        while True:
            views = [state.observe(s) for s in range(players)]
            for s, obs in enumerate(views):
                assert obs["called_card"] == called
                known = partner if (revealed or s == partner) else -1
                assert obs["partner"] == known, (s, revealed, partner)
            if state.is_over:
                break
            action = int(rng.choice(state.legal_actions()))
            state.apply(action)
            revealed |= action == called
        assert revealed == (called >= 0 and not int(record["discards"]) >> called & 1)
