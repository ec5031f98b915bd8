"""Game hooks of the Monte Carlo search, resolved at compile time by record type.

The search kernels (:mod:`.pimc`, :mod:`.ismcts`) are written once, over
these stub functions; each game's module (``sample_<game>``) registers a
numba ``overload`` for its own state or observation dtype, so a kernel
compiled for a Solo Whist state calls the Solo Whist rules directly (no
function passed as an argument, so numba's cache keeps working).

- ``g_determinize(obs, memory, template, out, rng) -> bool``: fill
  ``out[0]`` with a full state consistent with the seat's observation record
  ``obs[0]`` (hidden cards dealt uniformly; options from ``template[0]``);
  True when the deal was drawn exactly uniformly.
- ``g_legal(state) -> (low, high)``, ``g_apply(state, action)``,
  ``g_over(state) -> bool``: the game's kernels.
- ``g_call_base(state) -> int``: the first action in the ``high`` word.
- ``g_candidates(state) -> (low, high)``: the legal actions the search
  considers (all of them, except where a game prunes hopeless ones, e.g.
  Pinochle's jump bids).
- ``g_rule(state, seat, rng, obs_scratch, params) -> int``: the rule agent
  acting for ``seat`` from its observation of ``state``.
- ``g_leaf(state, rng, obs_scratch, params, table, dd_cards)``: value a
  search leaf into ``state.payoffs``: by default the rule agents play the
  deal out; a game may value some positions otherwise (Solo Whist: the
  double-dummy solver with at most ``dd_cards`` cards in hand).
"""

from __future__ import annotations

from numba import njit

from trickgym.records import is_record_of

__all__ = [
    "g_apply",
    "g_call_base",
    "g_candidates",
    "g_determinize",
    "g_leaf",
    "g_legal",
    "g_over",
    "g_rule",
    "is_record_of",
    "play_out",
]


def g_determinize(obs, memory, template, out, rng):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def g_legal(state):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def g_apply(state, action):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def g_over(state):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def g_call_base(state):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def g_rule(state, seat, rng, obs_scratch, params):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def g_candidates(state):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def g_leaf(state, rng, obs_scratch, params, table, dd_cards):
    """Stub: see the module docstring (overloaded per game)."""
    raise NotImplementedError


def register_game(
    state_dtype,
    obs_dtype,
    determinize,
    legal_sets,
    apply_action,
    deal_over,
    call_base,
    act_rule,
    candidates=None,
    leaf=None,
):
    """Register one game's kernels as the hooks for its state and observation dtypes.

    ``candidates`` defaults to ``legal_sets``; ``leaf`` (``g_leaf``) to rule-agent
    playouts (:func:`play_out`).
    """
    candidates = legal_sets if candidates is None else candidates
    from numba.extending import overload

    base = int(call_base)

    @overload(g_determinize)
    def _determinize(obs, memory, template, out, rng):
        if is_record_of(obs, obs_dtype):
            return lambda obs, memory, template, out, rng: determinize(
                obs, memory, template, out, rng
            )
        return None

    @overload(g_legal)
    def _legal(state):
        if is_record_of(state, state_dtype):
            return lambda state: legal_sets(state)
        return None

    @overload(g_candidates)
    def _candidates(state):
        if is_record_of(state, state_dtype):
            return lambda state: candidates(state)
        return None

    @overload(g_apply)
    def _apply(state, action):
        if is_record_of(state, state_dtype):
            return lambda state, action: apply_action(state, action)
        return None

    @overload(g_over)
    def _over(state):
        if is_record_of(state, state_dtype):
            return lambda state: deal_over(state)
        return None

    @overload(g_call_base)
    def _call_base(state):
        if is_record_of(state, state_dtype):
            return lambda state: base
        return None

    @overload(g_rule)
    def _rule(state, seat, rng, obs_scratch, params):
        if is_record_of(state, state_dtype):
            return lambda state, seat, rng, obs_scratch, params: act_rule(
                state, seat, rng, obs_scratch, params
            )
        return None

    @overload(g_leaf)
    def _leaf(state, rng, obs_scratch, params, table, dd_cards):
        if not is_record_of(state, state_dtype):
            return None
        if leaf is None:
            return lambda state, rng, obs_scratch, params, table, dd_cards: play_out(
                state, rng, obs_scratch, params
            )
        return lambda state, rng, obs_scratch, params, table, dd_cards: leaf(
            state, rng, obs_scratch, params, table, dd_cards
        )


@njit(cache=True)
def play_out(state, rng, obs_scratch, params):
    """Rule agents play ``state`` to the end of the deal."""
    while not g_over(state):
        p = state.to_move
        g_apply(state, g_rule(state, p, rng, obs_scratch, params))
