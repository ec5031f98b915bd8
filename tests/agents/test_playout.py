"""Stochastic playouts: many playouts of one deal differ, each is reproducible from its seed,
and only the card play is randomised (the auction is the rule agents')."""

from __future__ import annotations

import numpy as np
import pytest
from conformance_helpers import builtin_action
from numba import njit

import trickgym
from trickgym import protocol
from trickgym.engine.kinds import RULE
from trickgym.engine.loops import act
from trickgym.engine.params import params_matrix
from trickgym.engine.playout import play_out


def _played(game, state, seed):
    """The finished deal of one playout of ``state`` drawn from generator ``seed``."""
    array = state.array.copy()
    params = params_matrix(game, game.n_seats)
    obs = np.empty(1, dtype=game.obs_dtype)
    play_out(array[0], np.array([seed], dtype=np.uint64), obs, params)
    return array


def _fields(array):
    """Every field of ``array[0]`` (the record's padding bytes are not part of the state)."""
    return tuple(array[0][name].tobytes() for name in array.dtype.names)


def test_playouts_differ_repeat_and_keep_the_auction():
    game = trickgym.game("troggu", players=4)
    state = game.deal(seed=7)
    rule = state.array.copy()
    params = params_matrix(game, game.n_seats)
    obs = np.empty(1, dtype=game.obs_dtype)
    rng = np.array([1], dtype=np.uint64)
    while rule[0]["phase"] != game.play_phase:
        p = int(rule[0]["to_move"])
        game.kernels.apply_action(rule[0], int(act(RULE, rule[0], p, rng, obs, params, None)))
    outcomes = set()
    for seed in range(8):
        first = _played(game, state, seed)
        assert bool(first[0]["phase"] != game.play_phase)  # played to the end
        assert _fields(first) == _fields(_played(game, state, seed))  # same seed, same play
        for field in ("contract", "declarer", "partner"):
            assert first[0][field] == rule[0][field]  # the rule agents' auction, every time
        outcomes.add(_fields(first))
    # The rule agents never draw: without deviations all eight would be one playout.
    assert len(outcomes) > 1


@njit
def _in_card_play(state):
    return protocol.in_card_play(state)


@pytest.mark.parametrize(
    "name, options",
    [
        ("solowhist", {}),
        ("phat", {}),
        ("pinochle", {"mode": "exchange"}),
        ("troggu", {"players": 3}),
    ],
)
def test_in_card_play_is_the_games_play_phase(name, options):
    """Each game's ``in_card_play`` hook is true exactly in its card play, through the
    auction, discards and exchanges (where cards, not calls, may be the legal actions)."""
    game = trickgym.game(name, **options)
    protocol.require(game)
    seen = set()
    for seed in range(4):
        state = game.deal(seed=seed)
        while not state.is_over:
            in_play = int(state.record["phase"]) == game.play_phase
            assert bool(_in_card_play(state.array[0])) == in_play
            seen.add(in_play)
            state.apply(builtin_action("rule", state, state.current_player, seed + 1))
    assert True in seen and (False in seen or name == "phat")  # Phat's deal is all card play
