"""Built-in Troggu agents, dispatched by kind inside compiled loops.

Kinds (``trickgym.agents.builtin``): ``RANDOM`` reads only the legal sets;
``RULE`` reads only its seat's observation record; ``ORACLE`` sees the whole
state and is an upper bound for measurement, never a fair player.
"""

from __future__ import annotations

import numpy as np
from numba import njit, objmode

from trickgym.games.troggu.constants import CALL_BASE, DEAL_OVER, MISERE, PLAY
from trickgym.games.troggu.rules import apply_action, legal_sets, observe_core
from trickgym.games.troggu.state import OBS_DTYPE, STATE_DTYPE

from .builtin import ORACLE, RANDOM, RULE
from .random import random_action
from .rule.troggu import rule_action
from .solved_points import (
    ORACLE_SOLVE_CARDS,
    hand_size,
    no_table,
    oracle_card,
    oracle_table,
    solve_cards,
)

__all__ = ["act_troggu", "oracle_action", "play_builtin_until"]

# Rule-agent playouts per candidate action: one, since the rule agents never draw from
# their generator (8 played the same playout 8 times: same decisions, 8x the time).
ORACLE_ROLLOUTS = 1
# Cards in hand from which the oracle solves the card play exactly, per table size.
_ORACLE_CARDS = np.array([solve_cards(ORACLE_SOLVE_CARDS, "troggu", n) for n in range(9)])


@njit(cache=True)
def _act_rule(state, seat, rng, obs, params):
    """The rule agent: acts on ``seat``'s observation only (the fields it reads)."""
    observe_core(state, seat, obs[0])
    return rule_action(obs[0], params[seat].values, rng)


@njit(cache=True)
def oracle_action(state, seat, rng, obs, params):
    """The oracle's action (sees every hand: for measurement only).

    Solved card play near the end of the deal, rule-agent playouts from the
    true state elsewhere (:mod:`.solved_points`). Makes a solver table per
    call; the simulation loop keeps one per deal (:func:`_oracle`).
    """
    return _oracle(state, seat, rng, obs, params, oracle_table())


@njit(cache=True)
def _solved(state):
    """Whether the oracle solves this decision (Misère has no side to solve for)."""
    if state.phase != PLAY or state.contract == MISERE:
        return False
    return hand_size(state) <= _ORACLE_CARDS[state.n_players]


@njit(cache=True)
def _oracle(state, seat, rng, obs, params, table):
    """:func:`oracle_action` with a solver ``table`` kept by the caller."""
    if _solved(state):
        root = np.empty(1, dtype=STATE_DTYPE)
        root[0] = state
        with objmode(card="int64"):
            card = oracle_card(root, seat, table)
        if card >= 0:
            return card
    return _rollout_oracle(state, seat, rng, obs, params)


@njit(cache=True)
def _rollout_oracle(state, seat, rng, obs, params):
    """The legal action whose rule-agent playouts from the true state pay ``seat`` most."""
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
                    apply_action(trial[0], _act_rule(trial[0], p, rng, obs, params))
                total += trial[0].payoffs[seat]
            if total > best_value:
                best, best_value = action, total
    return best


@njit(cache=True)
def act_troggu(kind, state, seat, rng, obs, params):
    """Action of built-in agent ``kind`` for ``seat`` (to move) in ``state``.

    ``rng`` is the agent's ``uint64[1]`` generator, ``obs`` a one-record
    ``OBS_DTYPE`` scratch array, ``params`` the per-seat rule parameters
    (``PARAMS_DTYPE[n_seats]`` records from ``params_matrix``).
    """
    # Random first and without touching params: the hot path of random simulations.
    if kind == RANDOM:
        low, high = legal_sets(state)
        return random_action(low, high, CALL_BASE, rng)
    if kind == RULE:
        # _act_rule written out, as in the play loop: one call less that passes arrays.
        observe_core(state, seat, obs[0])
        return rule_action(obs[0], params[seat].values, rng)
    return oracle_action(state, seat, rng, obs, params)


@njit(cache=True)
def _play_random(state, agent_rngs):
    """Every seat random: the leanest loop, for random-agent simulations."""
    while state.phase != DEAL_OVER:
        p = state.to_move
        low, high = legal_sets(state)
        apply_action(state, random_action(low, high, CALL_BASE, agent_rngs[p]))


@njit(cache=True)
def _play_fair_until(state, kinds, agent_rngs, obs, params):
    """Random and rule agents play until an oracle or a Python-played seat must act.

    Kept apart from the oracle so that this hot loop stays small.
    """
    while state.phase != DEAL_OVER:
        p = state.to_move
        kind = kinds[p]
        if kind == RANDOM:
            low, high = legal_sets(state)
            action = random_action(low, high, CALL_BASE, agent_rngs[p])
        elif kind == RULE:
            # _act_rule written out: as a call (or a numba-inlined one) the arrays
            # passed cost atomic reference-count updates, a quarter of the time
            # of a rule-agent deal.
            observe_core(state, p, obs[0])
            action = rule_action(obs[0], params[p].values, agent_rngs[p])
        else:
            return p
        apply_action(state, action)
    return -1


@njit(cache=True)
def play_builtin_until(states, i, kinds, agent_rngs, params):
    """Let built-in agents play ``states[i]`` until a seat with ``kinds[seat] < 0`` must act.

    ``kinds`` holds a built-in kind per seat, or -1 for a seat played from
    Python (a learner, a Python agent); ``agent_rngs`` is ``uint64[n, 1]``
    and ``params`` the rule parameters per seat. Returns that seat, or -1
    once the deal is over.
    """
    state = states[i]
    all_random = True
    for kind in kinds:
        all_random &= kind == RANDOM
    if all_random:
        _play_random(state, agent_rngs)
        return -1
    obs = np.empty(1, dtype=OBS_DTYPE)
    table = no_table()
    while True:
        p = _play_fair_until(state, kinds, agent_rngs, obs, params)
        if p < 0 or kinds[p] != ORACLE:
            return p
        if table[0].size <= 6 and _solved(state):
            table = oracle_table()  # one table per deal: later positions hit earlier searches
        apply_action(state, _oracle(state, p, agent_rngs[p], obs, params, table))
