"""Built-in Troggu agents, dispatched by kind inside compiled loops.

Kinds (``trickgym.agents.builtin``): ``RANDOM`` reads only the legal sets;
``RULE`` reads only its seat's observation record; ``ORACLE`` sees the whole
state and is an upper bound for measurement, never a fair player.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.games.troggu.constants import CALL_BASE, DEAL_OVER
from trickgym.games.troggu.rules import apply_action, legal_sets, observe
from trickgym.games.troggu.state import OBS_DTYPE, STATE_DTYPE

from .builtin import ORACLE, RULE
from .random import random_action
from .rule.troggu import rule_action

__all__ = ["act_troggu", "oracle_action", "play_builtin_until"]

ORACLE_ROLLOUTS = 8  # rule-agent playouts per candidate action


@njit(cache=True)
def _act_fair(kind, state, seat, rng, obs, params):
    """Random or rule agent: acts on what ``seat`` may know."""
    if kind == RULE:
        observe(state, seat, obs[0])
        return rule_action(obs[0], params, rng)
    low, high = legal_sets(state)
    return random_action(low, high, CALL_BASE, rng)


@njit(cache=True)
def oracle_action(state, seat, rng, obs, params):
    """The legal action whose rule-agent playouts from the true state pay ``seat`` most.

    Sees every hand: an upper bound for measurement only.
    """
    low, high = legal_sets(state)
    best, best_value = -1, -1e300
    trial = np.empty(1, dtype=STATE_DTYPE)
    for word in range(2):
        bits = low if word == 0 else high
        while bits:
            b = np.uint64(bits & (~bits + np.uint64(1)))
            bits &= ~b
            action = word * CALL_BASE
            while b > np.uint64(1):
                b >>= np.uint64(1)
                action += 1
            total = 0.0
            for _ in range(ORACLE_ROLLOUTS):
                trial[0] = state
                apply_action(trial[0], action)
                while trial[0].phase != DEAL_OVER:
                    p = trial[0].to_move
                    apply_action(trial[0], _act_fair(RULE, trial[0], p, rng, obs, params[p]))
                total += trial[0].payoffs[seat]
            if total > best_value:
                best, best_value = action, total
    return best


@njit(cache=True)
def act_troggu(kind, state, seat, rng, obs, params):
    """Action of built-in agent ``kind`` for ``seat`` (to move) in ``state``.

    ``rng`` is the agent's ``uint64[1]`` generator, ``obs`` a one-record
    ``OBS_DTYPE`` scratch array, ``params`` the per-seat rule parameters
    (``float64[n_seats, MAX_PARAMS]``).
    """
    if kind == ORACLE:
        return oracle_action(state, seat, rng, obs, params)
    return _act_fair(kind, state, seat, rng, obs, params[seat])


@njit(cache=True)
def play_builtin_until(states, i, kinds, agent_rngs, params):
    """Let built-in agents play ``states[i]`` until a seat with ``kinds[seat] < 0`` must act.

    ``kinds`` holds a built-in kind per seat, or -1 for a seat played from
    Python (a learner, a Python agent); ``agent_rngs`` is ``uint64[n, 1]``
    and ``params`` the rule parameters per seat. Returns that seat, or -1
    once the deal is over.
    """
    state = states[i]
    obs = np.empty(1, dtype=OBS_DTYPE)
    while state.phase != DEAL_OVER:
        p = state.to_move
        if kinds[p] < 0:
            return p
        apply_action(state, act_troggu(kinds[p], state, p, agent_rngs[p], obs, params))
    return -1
