"""Built-in Solo Whist agents, dispatched by kind inside compiled loops.

Kinds (``trickgym.agents.builtin``): ``RANDOM`` reads only the legal sets;
``RULE`` reads only its seat's observation record; ``ORACLE`` sees the whole
state, plays and bids by the double-dummy solver on the true deal, and is
an upper bound for measurement, never a fair player.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.games.solowhist.constants import CALL_BASE, DEAL_OVER, N_ACTIONS, PLAY
from trickgym.games.solowhist.rules import apply_action, legal_sets, observe_core
from trickgym.games.solowhist.state import OBS_DTYPE
from trickgym.solvers.dd_search import make_table

from .builtin import ORACLE, RANDOM, RULE
from .random import random_action
from .rule.solowhist import rule_action
from .solowhist_dd import EXACT_CARDS, auction_values, card_payoffs
from .solowhist_dd import act_rule as _act_rule

__all__ = ["act_solowhist", "oracle_action", "play_builtin_until"]

# The oracle's table: 2**12 buckets (12 MB), made per deal by the simulation loop
# (per decision by act_solowhist, whose callers have no table to lend); smaller
# tables made full-deal solves several times slower.
ORACLE_TABLE_LOG2 = 12
# Node budget per solver call (a few seconds at worst): rare positions the solver
# cannot settle within it are played by the rule agent instead.
ORACLE_NODE_LIMIT = 5_000_000
# The oracle's cards are valued by exact trick counts from this many cards in hand
# down (one solve per decision, not per sample as in PIMC); calls by probes.
ORACLE_EXACT_CARDS = 10


@njit(cache=True)
def oracle_action(state, seat, rng, obs, params):
    """The legal action worth most to ``seat`` by the double-dummy solver on the true deal.

    Sees every hand: an upper bound for measurement only, never a fair player.
    Cards: the solver's value of each legal card to ``seat``'s payoff
    (:func:`trickgym.agents.solowhist_dd.card_payoffs`: best play by all
    four hands afterwards; exact trick counts from ``ORACLE_EXACT_CARDS``
    cards in hand down). Calls and the Abundance trump choice: the
    payoff of the contract each leads to once the rule agents finish the
    auction, solved from the first lead
    (:func:`trickgym.agents.solowhist_dd.auction_values`; a passed-out deal
    pays 0). Ties go to the rule agent's action, and so does the decision
    when the solver runs out of its node budget (for any legal call, in the
    auction). Makes a table per call;
    the simulation loop keeps one per deal (:func:`_oracle`).
    """
    return _oracle(state, seat, rng, obs, params, make_table(ORACLE_TABLE_LOG2, ORACLE_NODE_LIMIT))


@njit(cache=True)
def _oracle(state, seat, rng, obs, params, table):
    """:func:`oracle_action` with a solver ``table`` kept by the caller."""
    rule = _act_rule(state, seat, rng, obs, params)
    values = np.full(N_ACTIONS, -1e9)
    if state.phase == PLAY:
        # Exact counts (over- and under-tricks) where a solve is affordable for
        # one decision; probes at the goal when the exact count runs out of nodes.
        if card_payoffs(state, seat, table, ORACLE_EXACT_CARDS, values) == 0:
            card_payoffs(state, seat, table, 0, values)
    elif auction_values(state, seat, rng, obs, params, table, EXACT_CARDS, values) > 0:
        # A call left unsolved may be the best one: the best solved call is
        # no safer a choice than the rule agent's (it was often a sure-loser
        # Misère when Pass, Prop and Solo all ran out of nodes).
        return rule
    best = rule
    for a in range(N_ACTIONS):
        if values[a] > values[best]:
            best = a
    return best


@njit(cache=True)
def act_solowhist(kind, state, seat, rng, obs, params):
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
    table = (np.zeros(0, dtype=np.uint64), np.zeros(8, dtype=np.int64))
    while True:
        p = _play_fair_until(state, kinds, agent_rngs, obs, params)
        if p < 0 or kinds[p] != ORACLE:
            return p
        if table[0].size == 0:  # one table per deal: later positions hit earlier searches
            table = make_table(ORACLE_TABLE_LOG2, ORACLE_NODE_LIMIT)
        apply_action(state, _oracle(state, p, agent_rngs[p], obs, params, table))
