"""Per-game operations the batch kernels call, resolved by the state's record type.

The batch kernels in :mod:`trickgym.envs.vector.kernels` are written once
for every game. They call the stubs below; each game registers, with
:func:`register_game`, numba overloads that route a stub to that game's own
kernels (``*_at`` entry points of its ``rules`` module, its ``encode``
kernel, its built-in agents' ``act_<game>`` dispatch and its episode hooks) when the arrays
are of its dtypes. Numba picks the overload while compiling, so there is no
run-time dispatch and no dispatcher passed as an argument (which would stop
the kernels being cached).

The episode hooks a game provides (module-level ``@njit`` functions):

- ``new_episode(states, i, gen, seed_given, live, opts)``: start a new
  episode in ``states[i]``, drawing its seed with
  :func:`trickgym.envs.vector.pcg64.draw_seed` from the env's generator
  ``gen`` exactly as the single env's ``_new_episode`` draws from
  ``np_random``; ``opts`` is the game's ``int64`` option row.
- ``episode_over(states, i, opts)``: whether the episode ends now that the
  current deal is over.
- ``episode_reward(states, i, seat, opts)``: the learner's reward then.

Games whose episode is one deal, rewarded by the deal's payoff, use
:func:`deal_episode_over` and :func:`deal_payoff`.
"""

from __future__ import annotations

import numba
from numba import njit, types
from numba.extending import overload

__all__ = [
    "deal_episode_over",
    "deal_payoff",
    "game_act",
    "game_apply",
    "game_encode",
    "game_episode_over",
    "game_episode_reward",
    "game_is_legal",
    "game_new_episode",
    "game_next_deal",
    "game_observe",
    "game_status",
    "register_game",
]


def _stub(name):
    def stub(*args):
        raise NotImplementedError(f"{name} runs only inside compiled batch kernels")

    stub.__name__ = stub.__qualname__ = name
    return stub


game_apply = _stub("game_apply")
game_is_legal = _stub("game_is_legal")
game_status = _stub("game_status")
game_observe = _stub("game_observe")
game_encode = _stub("game_encode")
game_act = _stub("game_act")
game_next_deal = _stub("game_next_deal")
game_new_episode = _stub("game_new_episode")
game_episode_over = _stub("game_episode_over")
game_episode_reward = _stub("game_episode_reward")


@njit(cache=True)
def deal_episode_over(states, i, opts):
    """Episode hook: every deal is an episode."""
    return True


@njit(cache=True)
def deal_payoff(states, i, seat, opts):
    """Episode hook: the seat's payoff for the deal."""
    return float(states[i].payoffs[seat])


_REGISTERED: set = set()


def _is(array_type, record) -> bool:
    return isinstance(array_type, types.Array) and array_type.dtype == record


def register_game(state_dtype, obs_dtype, rules, encode_kernel, act, n_wide, episode) -> None:
    """Route the stubs to one game's kernels for arrays of ``state_dtype``/``obs_dtype``.

    ``rules`` is the game's rules module, ``act`` its ``act_<game>(kind,
    state, seat, rng, obs, params)`` built-in agent dispatch, ``n_wide`` the number of wide
    (non-int8) arrays its encode kernel fills, ``episode`` a triple of the
    njit hooks ``(new_episode, episode_over, episode_reward)``.
    """
    key = state_dtype
    if key in _REGISTERED:
        return
    _REGISTERED.add(key)
    state_t = numba.from_dtype(state_dtype)
    obs_t = numba.from_dtype(obs_dtype)
    apply_at, is_legal_at, status_at = rules.apply_action_at, rules.is_legal_at, rules.status_at
    observe_at, next_deal_at = rules.observe_at, rules.next_deal_at
    new_episode, episode_over, episode_reward = episode

    @overload(game_apply, inline="always")
    def _apply(states, i, action):
        if _is(states, state_t):
            return lambda states, i, action: apply_at(states, i, action)

    @overload(game_is_legal, inline="always")
    def _is_legal(states, i, action):
        if _is(states, state_t):
            return lambda states, i, action: is_legal_at(states, i, action)

    @overload(game_status, inline="always")
    def _status(states, i):
        if _is(states, state_t):
            return lambda states, i: status_at(states, i)

    @overload(game_observe, inline="always")
    def _observe(states, i, seat, observations, j):
        if _is(states, state_t):
            return lambda states, i, seat, observations, j: observe_at(
                states, i, seat, observations, j
            )

    @overload(game_act, inline="always")
    def _act(kind, states, i, seat, rng, obs, params):
        if _is(states, state_t):
            return lambda kind, states, i, seat, rng, obs, params: act(
                kind, states[i], seat, rng, obs, params
            )

    @overload(game_next_deal, inline="always")
    def _next_deal(states, i):
        if _is(states, state_t):
            return lambda states, i: next_deal_at(states, i)

    @overload(game_new_episode, inline="always")
    def _new_episode(states, i, gen, seed_given, live, opts):
        if _is(states, state_t):
            return lambda states, i, gen, seed_given, live, opts: new_episode(
                states, i, gen, seed_given, live, opts
            )

    @overload(game_episode_over, inline="always")
    def _episode_over(states, i, opts):
        if _is(states, state_t):
            return lambda states, i, opts: episode_over(states, i, opts)

    @overload(game_episode_reward, inline="always")
    def _episode_reward(states, i, seat, opts):
        if _is(states, state_t):
            return lambda states, i, seat, opts: episode_reward(states, i, seat, opts)

    # The encode kernels take their wide arrays as separate arguments: one
    # implementation per count, each passing row ``j`` of every batch array.
    if n_wide == 1:

        def encode_impl(observations, j, buf, scalars, wide):
            encode_kernel(observations, j, buf[j], scalars[j], wide[0][j])
    elif n_wide == 2:

        def encode_impl(observations, j, buf, scalars, wide):
            encode_kernel(observations, j, buf[j], scalars[j], wide[0][j], wide[1][j])
    elif n_wide == 4:

        def encode_impl(observations, j, buf, scalars, wide):
            encode_kernel(
                observations,
                j,
                buf[j],
                scalars[j],
                wide[0][j],
                wide[1][j],
                wide[2][j],
                wide[3][j],
            )
    else:  # pragma: no cover - a new game with another count adds a branch here
        raise ValueError(f"no encode adapter for {n_wide} wide arrays")

    @overload(game_encode, inline="always")
    def _encode(observations, j, buf, scalars, wide):
        if _is(observations, obs_t):
            return encode_impl
