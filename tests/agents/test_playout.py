"""Stochastic playouts: many playouts of one deal differ, each is reproducible from its seed,
and only the card play is randomised (the auction is the rule agents')."""

from __future__ import annotations

import numpy as np
from trickgym.agents.builtin import RULE
from trickgym.agents.loops import act
from trickgym.agents.mc.playout import play_out
from trickgym.agents.rule import params_matrix

import trickgym


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
