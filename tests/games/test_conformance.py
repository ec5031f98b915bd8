"""Every game configuration passes the same rules checks, through the public game API.

Random matches are played to their end through ``trickgym.game(...)`` and
``State``, checking at every step what every game promises: a player to move
and a non-empty legal set until the deal is over, illegal actions refused
with the state unchanged, each seat's observation holding its own hand and a
legal mask only for the player to move, every card played at most once and
the pack accounted for at the end, zero-sum payoffs (shared by partners),
and the deal passing on. Seeds reproduce deals, a deal given by hand plays
like the shuffled one, and no observation changes when the cards its seat
has not seen are dealt otherwise. The game-specific facts come from
:mod:`conformance_helpers`.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from conformance_helpers import (
    CONFIGS,
    IDS,
    assert_obs_equal,
    choose,
    deal_like,
    deck_mask,
    game_of,
    hidden_twin,
    holdings,
    mask_of,
    or_all,
    play_phase,
    random_history,
    same_state,
    set_aside,
    views,
)
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.parametrize("config", CONFIGS, ids=IDS)

MAX_DEALS = 12  # a short match (Config.short_match) ends well before


def hand_of(obs) -> int:
    """The mask of an observation's ``hand`` (0/1 per card)."""
    return sum(1 << int(c) for c in np.flatnonzero(obs["hand"]))


def check_step(state, rng) -> None:
    """What holds whenever the deal is not over, and an illegal action refused."""
    game, record = state.game, state.record
    n = game.n_seats
    p = state.current_player
    assert 0 <= p < n and p == record["to_move"] and not state.is_over
    mask = state.legal_action_mask()
    assert mask.shape == (game.n_actions,) and mask.dtype == bool and mask.any()
    assert state.legal_actions() == np.flatnonzero(mask).tolist()
    if record["phase"] == play_phase(game):  # a play is a card of the mover's hand
        assert mask_of(np.flatnonzero(mask)) & ~int(record["hands"][p]) == 0
    assert not state.payoffs.any()  # paid when the deal is over
    for s in range(n):
        obs = state.observe(s)
        assert obs["seat"] == s and hand_of(obs) == int(record["hands"][s])
        want = mask if s == p else np.zeros_like(mask)
        np.testing.assert_array_equal(obs["action_mask"], want.astype(np.int8))
    illegal = np.flatnonzero(~mask)
    if illegal.size:
        bad = int(rng.choice(illegal))
        before = state.array.copy()
        with pytest.raises(ValueError, match=rf"illegal action .*\({bad}\).*legal: "):
            state.apply(bad)
        assert same_state(state.array, before)


def play_deal(state, rng, config) -> None:
    """Play the current deal to its end at random, checking every step and the end."""
    game, record = state.game, state.record
    n, play = game.n_seats, play_phase(game)
    plays = [0] * n
    n_plays = 0
    while not state.is_over:
        check_step(state, rng)
        p = state.current_player
        action = choose(state, rng)
        if record["phase"] == play:
            assert action < game.deck.n_cards and int(record["hands"][p]) >> action & 1
            assert not or_all(plays) >> action & 1, "a card played twice"
            plays[p] |= 1 << action
            n_plays += 1
        state.apply(action)
    # The deal is over: nobody to move, nothing legal, nothing to apply.
    assert state.current_player == -1 and state.legal_actions() == []
    for s in range(n):
        assert not state.observe(s)["action_mask"].any()
    with pytest.raises(ValueError, match="over"):
        state.apply(0)
    # Every card once: played (by the seat the record says), left in a hand or set aside.
    assert [int(x) for x in record["played"][:n]] == plays
    parts = [*plays, *(int(h) for h in record["hands"][:n]), set_aside(record, game)]
    assert sum(bin(x).count("1") for x in parts) == game.deck.n_cards
    assert or_all(parts) == deck_mask(game)
    assert n_plays == n * int(record["tricks_won"][:n].sum())
    payoffs = state.payoffs
    assert payoffs.sum() == 0
    if config.teams:
        assert all(payoffs[s] == payoffs[(s + 2) % 4] for s in range(4))


@settings(max_examples=6, derandomize=True, deadline=None)
@given(seed=st.integers(0, 2**64 - 1))
def test_random_matches_keep_the_rules(config, seed):
    """A short match played at random: every step and every deal's end (see module doc)."""
    game = game_of(config, **config.short_match)
    rng = np.random.default_rng(seed % 2**32)
    state = game.deal(seed)
    for _ in range(MAX_DEALS):
        dealer = int(state.record[config.dealer_field])
        play_deal(state, rng, config)
        if state.match_over:
            break
        state.next_deal()
        assert int(state.record[config.dealer_field]) == (dealer + 1) % game.n_seats
        with pytest.raises(ValueError, match="not over"):
            state.next_deal()
    assert state.match_over
    with pytest.raises(ValueError, match="match is over"):
        state.next_deal()


def test_seeds_reproduce_deals(config):
    """One seed, one deal (and one history for one list of actions); other seeds, other deals."""
    game = game_of(config)
    a, b = game.deal(7), game.deal(7)
    assert same_state(a.array, b.array)
    rng = np.random.default_rng(0)
    while not a.is_over:
        action = choose(a, rng)
        a.apply(action)
        b.apply(action)
        assert same_state(a.array, b.array)
    dealt = {tuple(holdings(game.deal(seed).record, game)) for seed in range(12)}
    assert len(dealt) == 12
    assert same_state(game.new_match(5), game.new_match(5))


def test_a_deal_given_by_hand_plays_like_the_shuffled_one(config):
    """``deal_like`` (hands, dealer, turn-up given) reproduces a shuffled deal seat by seat."""
    game = game_of(config)
    rng = np.random.default_rng(1)
    for seed in range(3):
        shuffled = game.deal(seed)
        given_ = deal_like(game, shuffled.record, holdings(shuffled.record, game))
        while True:
            for s in range(game.n_seats):
                assert_obs_equal(shuffled.observe(s), given_.observe(s), f"seat {s}")
            if shuffled.is_over:
                break
            action = choose(shuffled, rng)
            shuffled.apply(action)
            given_.apply(action)
        np.testing.assert_array_equal(shuffled.payoffs, given_.payoffs)


def test_observations_never_show_hidden_cards(config):
    """A seat's every observation is the same in a deal with its unseen cards dealt otherwise.

    Histories stop at random points of random deals, their auctions steered
    (``conformance_helpers.choose``) so that every contract occurs; the seat
    is any seat. A probe that leaks another seat's hand, the Tapp or the
    discards to the others, the kitty before it is shown, the passed cards
    to the defenders or the secret partner is caught by these 40 histories.
    """
    game = game_of(config)
    rng = np.random.default_rng(11)
    checked = 0
    for seed in range(40):
        final, actions = random_history(game, seed, int(rng.integers(0, 80)), rng)
        seat = int(rng.integers(game.n_seats))
        twin = hidden_twin(game, final, actions, seat, rng)
        if twin is None:
            continue
        cards, twin_actions = twin
        _, mine = views(game, final.record, holdings(final.record, game), actions, seat)
        _, theirs = views(game, final.record, cards, twin_actions, seat)
        for i, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            assert_obs_equal(a, b, f"seed {seed} seat {seat} after {i} actions")
        checked += 1
    assert checked >= 20


def test_state_api_refuses_bad_input(config):
    """Unknown and out-of-range actions, bad seats and early ``next_deal`` raise ValueError."""
    game = game_of(config)
    state = game.deal(3)
    before = state.array.copy()
    for bad in (game.n_actions, -1, "no such action", 2.5, None):
        with pytest.raises(ValueError):
            state.apply(bad)
    for seat in (game.n_seats, -1, 1.5, "0"):
        with pytest.raises(ValueError, match="seat"):
            state.observe(seat)
    with pytest.raises(ValueError, match="not over"):
        state.next_deal()
    assert same_state(state.array, before)


def test_action_names_round_trip(config):
    """Every action id has a name, and the name is parsed back to it (a card: its first copy)."""
    game = game_of(config)
    copies = game.deck.copies
    for action in range(game.n_actions):
        name = game.action_name(action)
        assert isinstance(name, str) and name
        want = action - action % copies if action < game.deck.n_cards else action
        assert game.parse_action(name) == want
    state = game.deal(0)
    first = state.legal_actions()[0]
    by_name = state.clone().apply(state.action_name(first))
    assert same_state(by_name.array, state.clone().apply(first).array)


def test_clone_pickle_and_render(config):
    """A clone and a pickled copy are independent and play on identically; ``str`` renders."""
    game = game_of(config)
    state = game.deal(4)
    rng = np.random.default_rng(4)
    for _ in range(game.n_seats + 3):
        state.apply(choose(state, rng))
    copy, clone = pickle.loads(pickle.dumps(state)), state.clone()
    assert same_state(copy.array, state.array) and same_state(clone.array, state.array)
    action = state.legal_actions()[-1]
    clone.apply(action)
    assert not same_state(clone.array, state.array)
    copy.apply(action)
    assert same_state(copy.array, clone.array)
    text = str(state)
    assert config.title.split(" (")[0] in text and str(state.current_player) in repr(state)
