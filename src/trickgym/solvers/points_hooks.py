"""Game hooks of the point-trick solver, resolved at compile time by record type.

The search (:mod:`.points_search`) is written once over these stubs; each
game's module (``points_<game>``) registers numba overloads for its own
state dtype, so a search compiled for a Troggu state calls the Troggu rules
directly (no function arguments, so numba's cache keeps working). The
search steps the game's own ``apply_action``: there is one implementation of
every rule, and the solver's answer is exact by construction wherever the
hooks below are.

- ``p_legal(state) -> uint64``: the legal cards of the player to move.
- ``p_apply(state, card)``, ``p_over(state) -> bool``: the game's kernels.
- ``p_in_side(state, seat) -> bool``: whether ``seat`` plays for the side
  whose points are counted (the declaring side).
- ``p_side_points(state) -> int``: the points the side holds now (tricks
  won so far and anything the rules add to them, e.g. the declarer's
  discards); at the end of the deal, the side's final points.
- ``p_bounds(state) -> (low, high)``: sound bounds on the points the side
  still gains from here (``high`` at least the points still in play; ``low``
  below zero where a rule can move points out of the side's pile).
- ``p_key(state) -> (k1, k2)``: two independent 64-bit hashes of everything
  the rest of the deal's value depends on, at a trick boundary (hands,
  leader, trumps, side, per-deal flags).
- ``p_points(state, card) -> int``: the card's points (for move ordering
  and equivalent-card merging).
- ``p_span(state, low_card, high_card) -> uint64``: the cards ranking from
  ``low_card`` to ``high_card`` inclusive, equal ranks included (Pinochle's
  two copies).
- ``p_suit(state, card) -> uint64``: the suit mask of ``card``.
- ``p_fixed(state) -> uint64``: cards never merged with a neighbour (the
  Troggu Fool).
- ``p_wins_now(state, card) -> bool``: whether ``card`` would win the trick
  so far if played now (move ordering only).
- ``p_winner(state) -> int``: the seat winning the trick so far, or -1
  (move ordering only).
- ``p_prepare(state)``: make a copy of a position ready for search (Phat:
  the race to 181 is switched off, so every deal is played out).
- ``p_unit(state) -> int``: the granularity of the side's points (10 in
  Pinochle, whose counters come in tens).
"""

from __future__ import annotations

from numba.extending import overload

from trickgym.records import is_record_of

__all__ = [
    "p_apply",
    "p_bounds",
    "p_fixed",
    "p_in_side",
    "p_key",
    "p_legal",
    "p_over",
    "p_points",
    "p_prepare",
    "p_side_points",
    "p_span",
    "p_suit",
    "p_unit",
    "p_winner",
    "p_wins_now",
    "register_points_game",
]


def p_legal(state):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def p_apply(state, card):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def p_over(state):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def p_in_side(state, seat):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def p_side_points(state):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def p_bounds(state):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def p_key(state):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def p_points(state, card):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def p_suit(state, card):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def p_fixed(state):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def p_wins_now(state, card):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def p_unit(state):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def p_winner(state):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def p_prepare(state):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def p_span(state, low_card, high_card):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


_ARITY = {
    "legal": 1,
    "apply": 2,
    "over": 1,
    "in_side": 2,
    "side_points": 1,
    "bounds": 1,
    "key": 1,
    "points": 2,
    "suit": 2,
    "fixed": 1,
    "wins_now": 2,
    "unit": 1,
    "winner": 1,
    "prepare": 1,
    "span": 3,
}
_STUBS = {
    "legal": p_legal,
    "apply": p_apply,
    "over": p_over,
    "in_side": p_in_side,
    "side_points": p_side_points,
    "bounds": p_bounds,
    "key": p_key,
    "points": p_points,
    "suit": p_suit,
    "fixed": p_fixed,
    "wins_now": p_wins_now,
    "unit": p_unit,
    "winner": p_winner,
    "prepare": p_prepare,
    "span": p_span,
}


def _register(stub, impl, arity, state_dtype):
    # One overload per hook and game; the state is always the first argument.
    if arity == 1:

        @overload(stub)
        def _one(state):
            if is_record_of(state, state_dtype):
                return lambda state: impl(state)
            return None

    elif arity == 2:

        @overload(stub)
        def _two(state, x):
            if is_record_of(state, state_dtype):
                return lambda state, x: impl(state, x)
            return None

    else:

        @overload(stub)
        def _three(state, x, y):
            if is_record_of(state, state_dtype):
                return lambda state, x, y: impl(state, x, y)
            return None


def register_points_game(state_dtype, **impls):
    """Register one game's kernels (keyword per hook name, see the module docstring).

    ``fixed``, ``prepare``, ``unit`` and ``span`` default to
    :data:`.points_common.DEFAULT_HOOKS`.
    """
    from .points_common import DEFAULT_HOOKS

    impls = {**DEFAULT_HOOKS, **impls}
    missing = sorted(set(_STUBS) - set(impls))
    extra = sorted(set(impls) - set(_STUBS))
    if missing or extra:
        raise ValueError(f"hooks missing {missing}, unknown {extra}; hooks: {sorted(_STUBS)}")
    for name, impl in impls.items():
        _register(_STUBS[name], impl, _ARITY[name], state_dtype)
