"""The Gymnasium env ``trickgym/Troggu-v0`` and the Troggu seat's information set."""

from __future__ import annotations

import functools

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from trickgym.agents import RandomAgent, kernel_scratch
from trickgym.agents.loops import act

import trickgym
from trickgym.cards import TAROT
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
    TRUMP_I,
)

ENV_ID = "trickgym/Troggu-v0"
N_CARDS = 62
SUIT_OF = TAROT.suit_of


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
    ("players", "seat"), [(3, 0), (3, 2), (5, 0), (5, 3), (7, 1), (7, 6), (8, 0), (8, 5)]
)
def test_check_env(players, seat):
    """Gymnasium's checker passes for several table sizes and seats with ansi rendering."""
    env = make(players=players, seat=seat, render_mode="ansi")
    check_env(env, skip_render_check=False)
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and f"Troggu, {players} players" in text


def test_registered_and_defaults():
    """The id is registered; players is required; the default seat is 0."""
    assert ENV_ID in trickgym.envs.ENV_IDS and ENV_ID in gym.registry
    with pytest.raises(ValueError, match="players required"):
        gym.make(ENV_ID)
    env = make(players=4)
    assert (env.n_seats, env.seat) == (4, 0)
    obs, _ = env.reset(seed=0)
    assert obs["n_players"] == 4 and obs["seat"] == 0
    assert make(players=4).render() is None


@pytest.mark.parametrize("players", [3, 6, 8])
def test_observation_in_space(players):
    """Every observation of random episodes lies in the observation space."""
    env = make(players=players, seat=players - 1)
    rng = np.random.default_rng(players)
    for episode in range(6):
        trace, _ = play_episode(env, rng, seed=episode)
        for obs in trace:
            assert env.observation_space.contains(obs), obs
            assert obs["n_players"] == players and obs["seat"] == players - 1


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
            obs, reward, done, _, _ = env.step(int(rng.choice(legal(obs["action_mask"]))))
            trace.append((obs, reward, done))
    return trace


@pytest.mark.parametrize(("players", "seat"), [(3, 1), (5, 0), (8, 7)])
def test_same_seed_same_episodes(players, seat):
    """Two envs with one seed and one action sequence give identical traces."""
    a = _play(make(players=players, seat=seat), seed=11, action_seed=4)
    b = _play(make(players=players, seat=seat), seed=11, action_seed=4)
    assert len(a) == len(b)
    for i, ((oa, ra, da), (ob, rb, db)) in enumerate(zip(a, b, strict=True)):
        assert_obs_equal(oa, ob, f"step {i}")
        assert ra == rb and da == db, f"step {i}"


def test_different_seeds_different_deals():
    """Different reset seeds deal different hands and Tapps."""
    env = make(players=5)
    deals = set()
    for seed in range(10):
        env.reset(seed=seed)
        record = env.state.record
        deals.add((*(int(h) for h in record["initial_hands"][:5]), int(record["initial_tapp"])))
    assert len(deals) == 10


def test_reset_is_a_new_one_deal_match():
    """Every reset starts a fresh one-deal match: no scores carried over."""
    env = make(players=4, seat=2)
    rng = np.random.default_rng(0)
    for episode in range(5):
        trace, _ = play_episode(env, rng, seed=None if episode else 3)
        assert (trace[0]["scores"] == 0).all()
        record = env.state.record
        assert record["num_deals"] == 1 and env.state.match_over


# -------------------------------------------------------------------- rewards


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_rewards_masks_and_sampling(players):
    """Reward 0 until the end, then the seat's payoff; masks agree; sample() is legal."""
    nonzero, episodes = 0, 0
    for seat in sorted({0, players // 2, players - 1}):
        env = make(players=players, seat=seat)
        env.action_space.seed(seat)
        for episode in range(8):
            obs, info = env.reset(seed=100 * seat + episode)
            assert info == {}
            done = False
            while not done:
                mask = obs["action_mask"]
                assert mask.dtype == np.int8 and mask.sum() >= 1
                assert obs["phase"] < 4
                np.testing.assert_array_equal(env.action_masks(), mask.astype(bool))
                assert env.action_masks().dtype == np.bool_
                action = env.action_space.sample()
                assert mask[action] == 1, (action, legal(mask))
                obs, reward, done, truncated, info = env.step(action)
                assert not truncated and "illegal_action" not in info
                if not done:
                    assert reward == 0.0
            payoffs = env.unwrapped.state.payoffs
            assert len(payoffs) == players
            assert reward == float(payoffs[seat]) == float(env.state.record["payoffs"][seat])
            assert payoffs.sum() == 0
            assert obs["phase"] == 4 and obs["action_mask"].sum() == 0
            assert not env.action_masks().any()
            nonzero += reward != 0
            episodes += 1
    assert nonzero > episodes // 2


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


def test_python_agent_opponents():
    """Opponents may be Python Agent objects, alone or mixed with built-in names."""
    for opponents in (RandomAgent(1), [RandomAgent(2), "random", RandomAgent(3), "random"]):
        env = make(players=5, seat=2, opponents=opponents)
        rng = np.random.default_rng(0)
        for episode in range(4):
            _, reward = play_episode(env, rng, seed=episode)
            assert env.unwrapped.state.is_over
            assert reward == env.unwrapped.state.payoffs[2]


def test_opponents_play_the_seats_after_the_learner():
    """``opponents[i]`` plays seat ``seat + 1 + i``: a Python agent sees its own seat."""

    class Recorder(RandomAgent):
        def __init__(self, seed):
            super().__init__(seed)
            self.seats = set()

        def act(self, observation, action_mask):
            self.seats.add(int(observation["seat"]))
            return super().act(observation, action_mask)

    recorder = Recorder(0)
    env = make(players=4, seat=2, opponents=["random", recorder, "random"])
    play_episode(env, np.random.default_rng(0), seed=0)
    assert recorder.seats == {0}


def test_illegal_action_raise():
    """``illegal_action="raise"`` names the action and the legal ones; the state is unchanged."""
    env = make(players=6, seat=3, illegal_action="raise")
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
    """By default an illegal action (a card in the auction) ends the episode with reward -100."""
    env = make(players=3)
    obs, _ = env.reset(seed=3)
    assert obs["phase"] == 0 and obs["action_mask"][:N_CARDS].sum() == 0
    _, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, truncated) == (-100.0, True, False)
    assert info.get("illegal_action") is True
    with pytest.raises(ValueError, match="reset"):
        env.step(PASS)
    env = make(players=3, illegal_penalty=7)
    env.reset(seed=3)
    assert env.step(NO_PARTNER)[1] == -7.0


def test_step_before_reset():
    """Stepping a fresh env asks for reset()."""
    with pytest.raises(ValueError, match="reset"):
        make(players=5).step(PASS)


@pytest.mark.filterwarnings("ignore:.*render_mode")
@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"players": 5, "seat": 5}, r"seat.*0\.\.4.*5"),
        ({"players": 3, "seat": 3}, r"seat.*0\.\.2.*3"),
        ({"players": 8, "seat": -1}, "-1"),
        ({"players": 4, "seat": 4}, r"0\.\.3.*got 4"),
        ({"players": 5, "seat": 1.0}, "1.0"),
        ({"players": 9}, "players.*9"),
        ({"players": 2}, "players.*2"),
        ({"players": "5"}, "players.*'5'"),
        ({"players": 5, "opponents": ["random"] * 3}, r"opponents.*list of 4"),
        ({"players": 5, "opponents": ["random"] * 5}, r"opponents.*list of 4"),
        ({"players": 3, "opponents": ["random", "nobody"]}, "nobody"),
        ({"players": 5, "opponents": RandomAgent}, "RandomAgent"),
        ({"players": 5, "opponents": 5}, "5"),
        ({"colour": "red"}, "colour"),
        ({"players": 4, "num_deals": 0}, "num_deals"),
        ({"render_mode": "human"}, "human"),
        ({"illegal_action": "ignore"}, "ignore"),
    ],
)
def test_bad_arguments(kwargs, named):
    """Bad constructor arguments raise ValueError naming the bad value."""
    with pytest.raises(ValueError, match=named):
        gym.make(ENV_ID, **kwargs)


def test_observations_are_not_views():
    """A returned observation does not change when the env steps on."""
    env = make(players=7)
    obs, _ = env.reset(seed=5)
    saved = {k: np.array(v, copy=True) for k, v in obs.items()}
    rng = np.random.default_rng(0)
    done = False
    while not done:
        _, _, done, _, _ = env.step(int(rng.choice(legal(env.action_masks()))))
    assert_obs_equal(obs, saved)


# ------------------------------------------------------------ information set
#
# A seat's information set is everything public (the calls, the contract and
# declarer, the called card, the cards played) plus its own hand and, for the
# Tappist, the Tapp and its discards. Deals that differ only in the hidden
# cards -- other seats' hands and, unless the seat is the Tappist, the Tapp --
# and in which the same actions are legal and announce the same contract must
# look identical to the seat, and the random agents must choose alike.


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


def _replay(hands, tapp, dealer, actions, seat):
    """The deal after ``actions`` and ``seat``'s views after each; ``None`` if one is illegal."""
    state = _deal(hands, tapp, dealer)
    views = [state.observe(seat)]
    for action in actions:
        try:
            state.apply(action)
        except ValueError:
            return None
        views.append(state.observe(seat))
    return state, views


def _tappist(record) -> int:
    """The seat that took the Tapp, or -1."""
    return int(record["declarer"]) if record["contract"] in (TAPP, FORCED_TAPP) else -1


def _reshuffle(hands, tapp, seat, keep, tappist, voids, rng) -> tuple[list[int], int] | None:
    """``hands`` and ``tapp`` with the cards hidden from ``seat`` dealt anew, or ``None``.

    Each other seat keeps the cards in ``keep[s]`` (cards it played or
    discarded) and gets no card of a suit it has shown out of (``voids[s]``,
    suit bits; the Fool excepted, as it may have been held back). The Tapp
    is hidden unless ``seat`` is the Tappist; a hidden Tapp and the
    Tappist's hand are one group (the Tappist may have played or discarded
    cards of either). ``None`` when the random fill runs into a dead end.
    """
    n, h, t = len(hands), HAND_SIZE[len(hands)], TAPP_SIZE[len(hands)]
    groups = []  # (slots, fixed cards, allowed cards)
    for s in range(n):
        if s != seat:
            allowed = sum(
                1 << c
                for c in range(N_CARDS)
                if not (int(voids[s]) >> int(SUIT_OF[c]) & 1) or c == FOOL
            )
            groups.append(([s, "tapp"] if s == tappist else [s], keep[s], allowed))
    if tappist < 0:
        groups.append((["tapp"], 0, (1 << N_CARDS) - 1))
    slot_cards = {**dict(enumerate(hands)), "tapp": tapp}
    size = {**dict.fromkeys(range(n), h), "tapp": t}
    room = [sum(size[slot] for slot in slots) - bin(fixed).count("1") for slots, fixed, _ in groups]
    pool = [
        c for slots, fixed, _ in groups for slot in slots for c in _bits(slot_cards[slot] & ~fixed)
    ]
    # Most constrained cards first, each to a group with room, weighted by room.
    options = {c: [g for g, (_, _, allowed) in enumerate(groups) if allowed >> c & 1] for c in pool}
    pool = sorted(rng.permutation(pool).tolist(), key=lambda c: len(options[c]))
    given = [groups[g][1] for g in range(len(groups))]
    for c in pool:
        weights = np.array([room[g] for g in options[c]], dtype=float)
        if weights.sum() == 0:
            return None
        g = options[c][rng.choice(len(weights), p=weights / weights.sum())]
        given[g] |= 1 << c
        room[g] -= 1
    out = dict(slot_cards)
    for (slots, _, _), cards in zip(groups, given, strict=True):
        cards = [int(c) for c in rng.permutation(_bits(cards))]
        for slot in slots:
            out[slot] = sum(1 << c for c in cards[: size[slot]])
            cards = cards[size[slot] :]
        assert not cards
    return [out[s] for s in range(n)], out["tapp"]


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
        python_a = RandomAgent(seed).act(oa, oa["action_mask"])
        assert python_a == RandomAgent(seed).act(ob, ob["action_mask"])
    # With a choice to make, the seeds matter, so the equalities are not vacuous.
    assert len(choices) > 1 or oa["action_mask"].sum() == 1


def _check_info_set(hands, tapp, dealer, actions, seat, rng, partner_moves=False) -> None:
    """Replay ``actions`` on reshuffles of the hidden cards: the seat's views never differ.

    With ``partner_moves`` at least one accepted reshuffle must give the
    called card (so the secret partnership) to another seat.
    """
    n = len(hands)
    a, views_a = _replay(hands, tapp, dealer, actions, seat)
    tappist = _tappist(a.record)
    keep = [0] * n
    probe = _deal(hands, tapp, dealer)
    for action in actions:
        if probe.record["phase"] in (PLAY, DISCARD):
            keep[probe.current_player] |= 1 << int(action)
        probe.apply(action)
    if a.record["contract"] == FORCED_TAPP:
        # Public: the forced Tappist held the Fool (or the I, the Fool being in
        # the Tapp). Keeping both in its group saves rejected reshuffles.
        keep[tappist] |= (hands[tappist] | tapp) & (1 << FOOL | 1 << TRUMP_I)
    public = ("contract", "declarer", "called_card")
    found, partner_moved = 0, False
    for _attempt in range(1000):
        reshuffled = _reshuffle(hands, tapp, seat, keep, tappist, a.record["voids"], rng)
        if reshuffled is None or reshuffled == (hands, tapp):
            continue  # a dead end, or the only deal consistent with the history
        other_hands, other_tapp = reshuffled
        assert other_hands[seat] == hands[seat]
        if tappist == seat:
            assert other_tapp == tapp
        replay = _replay(other_hands, other_tapp, dealer, actions, seat)
        if replay is None:
            continue  # an action became illegal (a seat must now follow or trump)
        b, views_b = replay
        if any(a.record[key] != b.record[key] for key in public):
            continue  # a forced Tapp went to another seat (who holds the Fool is public)
        # The reshuffle is real: another seat's hand or the Tapp differs.
        assert other_tapp != tapp or any(
            not np.array_equal(a.observe(s)["hand"], b.observe(s)["hand"])
            for s in range(n)
            if s != seat
        )
        for i, (va, vb) in enumerate(zip(views_a, views_b, strict=True)):
            assert_obs_equal(va, vb, f"after {i} actions")
        _same_choices(a, b, seat)
        found += 1
        partner_moved |= a.record["partner"] != b.record["partner"]
        if found >= 3 and (partner_moved or not partner_moves):
            return
    pytest.fail(f"only {found} consistent reshuffles found (partner moved: {partner_moved})")


@pytest.mark.parametrize(
    ("players", "seat", "dealer"),
    [(3, 0, 0), (3, 2, 0), (4, 1, 2), (5, 0, 1), (5, 4, 1), (6, 3, 3), (7, 2, 0), (8, 7, 3)],
)
def test_info_set_auction(players, seat, dealer):
    """Reshuffling the unseen cards does not change the seat's view of the auction."""
    rng = np.random.default_rng(10 * players + seat)
    hands, tapp = _random_deal(players, rng)
    state, actions = _deal(hands, tapp, dealer), []
    while state.current_player != seat:
        actions.append(
            int(rng.choice([PASS, TAPP_CALL] if state.legal_action_mask()[TAPP_CALL] else [PASS]))
        )
        state.apply(actions[-1])
    assert state.record["phase"] == 0
    _check_info_set(hands, tapp, dealer, actions, seat, rng)


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


PLAY_SCENARIOS = [
    (3, "tapp", "declarer"),
    (3, "tapp", "other"),
    (4, "solo", "declarer"),
    (4, "solo", "other"),
    (5, "tapp", "declarer"),
    (5, "tapp", "other"),
    (5, "misere", "other"),
    (6, "solo", "other"),
    (6, "misere", "other"),
    (7, "partner", "declarer"),
    (7, "partner", "partner"),
    (7, "partner", "other"),
    (7, "forced", "declarer"),
    (7, "alone", "other"),
    (8, "partner", "declarer"),
    (8, "partner", "partner"),
    (8, "partner", "other"),
    (8, "forced", "other"),
    (8, "own", "other"),
]


@pytest.mark.parametrize(("players", "kind", "role"), PLAY_SCENARIOS)
def test_info_set_play(players, kind, role):
    """After the contract and two tricks or more, reshuffling the unseen cards keeps the view."""
    seed = 1000 * players + PLAY_SCENARIOS.index((players, kind, role))
    hands, tapp, dealer, seat, actions = _scenario(players, kind, role, seed)
    rng = np.random.default_rng(seed)
    partner_moves = kind == "partner" and role == "other"
    _check_info_set(hands, tapp, dealer, actions, seat, rng, partner_moves)


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
