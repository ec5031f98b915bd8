"""Every determinisation respects every constraint of the seat's information set.

The strongest form of the check: the seat's observation of the sampled
state equals its observation of the true state, field by field (cards
played, voids, exposed hands, the Tapp and discards the Tappist saw, the
kitty, melds shown, passed cards, the called card, scores...), and every
hand has the true size, on random states reached by rule-agent play.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mc_helpers import CONFIGS, determinizer, make_game, reach, record_of, searched

from trickgym.games.pinochle.meld import meld
from trickgym.games.troggu.constants import KINGS, NEVER_DISCARD

GAMES = {f"{n}{o.get('players', '')}{o.get('mode', '')}": make_game(n, o) for n, o in CONFIGS}

TROGGU_FOOL = 21


def _fool_in_trick(game, rec):
    if game.name != "troggu":
        return False
    return TROGGU_FOOL in rec[0]["trick_cards"][: int(rec[0]["trick_n"])].tolist()


@pytest.mark.parametrize("key", list(GAMES))
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 80), draw=st.integers(0, 2**32))
def test_sample_has_the_seats_observation(key, seed, steps, draw):
    game = GAMES[key]
    state, memory = reach(game, seed, steps)
    if not searched(game, state):
        return
    seat = state.current_player
    rec = record_of(game, state.array, seat)
    out = np.zeros(1, dtype=game.state_dtype)
    rng = np.array([draw], dtype=np.uint64)
    uniform = determinizer(game.name)(rec, memory[seat], game.new_match(0), out, rng)
    again = record_of(game, out, seat)
    for field in game.obs_dtype.names:
        if field == "voids" and _fool_in_trick(game, rec):
            continue  # a held-back Fool in the trick may be replayed as a live one (documented)
        assert np.array_equal(rec[0][field], again[0][field]), field
    n = game.n_seats
    true_hands = state.array[0]["hands"][:n]
    hands = out[0]["hands"][:n]
    for s in range(n):
        assert bin(int(hands[s])).count("1") == bin(int(true_hands[s])).count("1")
    assert hands[seat] == true_hands[seat]
    everything = 0
    for s in range(n):
        assert everything & int(hands[s]) == 0, "a card in two hands"
        everything |= int(hands[s]) | int(out[0]["played"][s])
    if game.name in ("solowhist", "phat"):
        assert everything == (1 << 52) - 1
    _check_voids(game, rec[0], hands, seat)
    _check_hidden_constraints(game, rec[0], out[0], seat, uniform)


def _check_voids(game, r, hands, seat):
    """No other seat holds a card of a suit it has shown out of (Troggu: bar the Fool)."""
    masks = [int(m) for m in game.deck.suit_masks]
    for p in range(game.n_seats):
        if p == seat:
            continue
        held = int(hands[p])
        if game.name == "troggu":
            held &= ~(1 << TROGGU_FOOL)
        for suit, mask in enumerate(masks):
            if (int(r["voids"][p]) >> suit) & 1:
                assert held & mask == 0, f"seat {p} holds a card of suit {suit} it showed out of"


def _check_hidden_constraints(game, r, s, seat, uniform):
    """Constraints the observation of the sample does not restate."""
    if game.name == "solowhist":
        turn_up = int(r["turn_up"])
        played = 0
        for p in range(4):
            played |= int(r["played"][p])
        if not (played >> turn_up) & 1:
            assert (int(s["hands"][int(r["dealer"])]) >> turn_up) & 1, "turn-up not the dealer's"
    if game.name == "pinochle" and int(r["phase"]) == 5 and uniform:
        for p in range(4):
            start = int(s["hands"][p]) | int(s["played"][p])
            points, shown = meld(np.uint64(start), int(r["trumps"]))
            assert points == r["meld"][p] and shown == r["meld_cards"][p], "meld not as shown"
    if game.name == "troggu" and int(r["contract"]) in (2, 3) and seat != int(r["declarer"]):
        discards = int(s["discards"])
        assert discards & NEVER_DISCARD == 0
        if uniform:  # the rare fallback redraws for the King rule but cannot promise it
            assert bin(discards & KINGS).count("1") in (0, 4)
