"""Helpers for the Monte Carlo agent tests: reaching states and determinising them."""

from __future__ import annotations

import importlib

import numpy as np

import trickgym
from trickgym.agents.mc.memory import update_memory
from trickgym.engine.loops import act
from trickgym.engine.params import params_matrix

CONFIGS = [
    ("solowhist", {}),
    ("phat", {}),
    ("troggu", {"players": 3}),
    ("troggu", {"players": 5}),
    ("troggu", {"players": 8}),
    ("pinochle", {}),
    ("pinochle", {"mode": "exchange"}),
]


def determinizer(name):
    """The game's ``determinize`` kernel."""
    return importlib.import_module(f"trickgym.agents.mc.sample_{name}").determinize


def record_of(game, array, seat):
    """Seat's observation record of ``array[0]`` (one-record array)."""
    rec = np.zeros(1, dtype=game.obs_dtype)
    game.kernels.observe_at(array, 0, seat, rec, 0)
    return rec


def reach(game, seed, steps):
    """A state after ``steps`` rule-agent actions from deal ``seed`` (or its end), with
    the memory each seat's Monte Carlo agent would have built."""
    params = params_matrix(game, game.n_seats)
    rng = np.array([seed + 1], dtype=np.uint64)
    scratch = np.empty(1, dtype=game.obs_dtype)
    state = game.deal(seed=seed)
    memory = np.zeros((game.n_seats, 4), dtype=np.uint64)
    for _ in range(steps):
        if state.is_over:
            break
        p = state.current_player
        update_memory(game, record_of(game, state.array, p)[0], memory[p])
        state.apply(int(act(1, state.array[0], p, rng, scratch, params, None)))
    if not state.is_over:
        p = state.current_player
        update_memory(game, record_of(game, state.array, p)[0], memory[p])
    return state, memory


def searched(game, state):
    """Whether the player to move faces a decision the agents search."""
    if state.is_over:
        return False
    rec = record_of(game, state.array, state.current_player)
    return int(rec[0]["phase"]) in game.search.phases


def make_game(name, opts):
    return trickgym.game(name, **opts)


def twin_states(game, seed):
    """Two states with the same observation for the seat to move but other hidden cards."""
    for k in range(40):
        state, memory = reach(game, seed + k, 7 + 3 * k)
        if not searched(game, state):
            continue
        seat = state.current_player
        rec = record_of(game, state.array, seat)
        twin = np.zeros(1, dtype=game.state_dtype)
        rng = np.array([seed + 1000 * k + 1], dtype=np.uint64)
        for _ in range(20):
            determinizer(game.name)(rec, memory[seat], game.new_match(0), twin, rng)
            n = game.n_seats
            if not np.array_equal(twin[0]["hands"][:n], state.array[0]["hands"][:n]):
                return state, twin, seat, memory[seat]
    raise AssertionError("no state with hidden cards to permute")
