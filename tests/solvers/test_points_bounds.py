"""The point-trick solver's bounds (``protocol.bounds``: master trumps and quick tricks) never
exclude the true value, against the plain alpha-beta reference, on endings of every game.

A bound that cuts off the true value would make the solver wrong only where the probe's
target falls between the bound and the value: checked here directly, at the endings' root
and at every position of the rest of its trick and of the next one (every line of play,
up to a limit): trick boundaries (quick tricks) and mid-trick (settled tricks).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from points_helpers import (
    GAME_CONFIGS,
    ending,
    ending_cards,
    held_back_fool_endings,
    make,
    prepared,
    reference_final,
    side_points_now,
)

from trickgym import protocol


def _check_bounds(game, array):
    bounds = protocol.kernel(game, "bounds")
    lo, hi = bounds(array[0])
    cur = side_points_now(game, array[0])
    value = reference_final(game, array)
    assert cur + lo <= value <= cur + hi, (int(lo), int(hi), cur, value)


def _positions(game, array, out, limit, boundaries=2):
    """The positions from ``array`` on by every line of play, up to ``limit`` of them, until
    the ``boundaries``-th trick boundary (included)."""
    k = game.kernels
    over, _, _ = k.status_at(array, 0)
    if over or len(out) >= limit:
        return
    out.append(array)
    if int(array[0]["trick_n"]) == 0:
        boundaries -= 1
        if boundaries == 0:
            return
    cards, _ = k.legal_sets_at(array, 0)
    for c in range(64):
        if int(cards) >> c & 1:
            child = array.copy()
            k.apply_action_at(child, 0, c)
            _positions(game, child, out, limit, boundaries)


@pytest.mark.parametrize(("name", "opts"), GAME_CONFIGS)
@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6))
def test_bounds_hold_the_reference_value(name, opts, seed):
    game = make(name, opts)
    state = ending(game, seed, ending_cards(name, opts))
    if state is None:
        return
    array = prepared(game, state.array)
    found = []
    _positions(game, array, found, 60)
    for a in found:
        _check_bounds(game, a)


def test_bounds_hold_with_a_held_back_fool():
    """The Fool's exchange moves a card between piles: held-back endings, every position."""
    checked = 0
    for game, state in held_back_fool_endings():
        found = []
        _positions(game, prepared(game, state.array), found, 60, 3)
        for a in found:
            _check_bounds(game, a)
        checked += 1
    assert checked >= 3, "no ending with a held-back Fool found"
