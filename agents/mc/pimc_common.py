"""What every PIMC front end shares: its scratch arrays, the candidate list, playout values.

Each front end (:mod:`.pimc`: rule-agent playouts; :mod:`.pimc_points`: the
point-trick solver; :mod:`.pimc_dd`: the double-dummy solver) runs the same
loop: deal ``samples`` determinisations of the seat's information set
(``protocol.determinize``) and add each action's value on that deal to
``values[action]``, counting it in ``counts[action]``. Only the valuation
differs; numba cannot take it as an argument (a jitted function passed to
a cached kernel recompiles in every process), so each front end writes the
loop's three lines and calls these for the rest.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym import protocol
from trickgym.engine.playout import play_out
from trickgym.solvers.points_payoff import deal_payoff

__all__ = [
    "MAX_ACTIONS",
    "N_STATS",
    "STAT_FALLBACKS",
    "STAT_SOLVES",
    "add_valued",
    "legal_list",
    "playout_values",
    "sample_scratch",
]

MAX_ACTIONS = 128
# The solved front ends' counters (an ``int64[N_STATS]`` the agent keeps): valuations
# settled by a solve (a sampled world's cards, or one call's contract), and those whose
# solve ran past the node budget and were valued by rule-agent playouts instead.
STAT_SOLVES = 0
STAT_FALLBACKS = 1
N_STATS = 2
UNVALUED = -1e8  # entries below it are not valued (the solvers write -1e9)


@njit(cache=True)
def legal_list(state, out):
    """Candidate (legal, unpruned) action ids of ``state`` into ``out``; returns their number."""
    low, high = protocol.candidates(state)
    base = protocol.call_base(state)
    n = 0
    for word in range(2):
        bits = low if word == 0 else high
        offset = 0 if word == 0 else base
        for a in range(64):
            if (bits >> np.uint64(a)) & np.uint64(1):
                out[n] = offset + a
                n += 1
    return n


@njit(cache=True)
def sample_scratch(obs, template):
    """``(deal, trial, obs_scratch, actions)``: a sampled deal, a copy to play on (one-record
    state arrays like ``template``), an observation record like ``obs`` and an action list."""
    deal = np.empty(1, dtype=template.dtype)
    trial = np.empty(1, dtype=template.dtype)
    obs_scratch = np.empty(1, dtype=obs.dtype)
    actions = np.empty(MAX_ACTIONS, dtype=np.int64)
    return deal, trial, obs_scratch, actions


@njit(cache=True)
def playout_values(deal, seat, rng, params, rollouts, trial, obs_scratch, actions, values, counts):
    """Every candidate action of ``deal[0]`` played, then the deal played out by rule agents
    ``rollouts`` times: the payoffs to ``seat`` added to ``values`` and ``counts``."""
    n = legal_list(deal[0], actions)
    for k in range(n):
        a = actions[k]
        for _ in range(rollouts):
            trial[0] = deal[0]
            protocol.apply_action(trial[0], a)
            play_out(trial[0], rng, obs_scratch, params)
            values[a] += deal_payoff(trial[0], seat)
            counts[a] += 1


@njit(cache=True)
def add_valued(found, values, counts):
    """``found[a]`` added to ``values[a]`` and counted, for every valued action ``a``."""
    for a in range(len(found)):
        if found[a] > UNVALUED:
            values[a] += found[a]
            counts[a] += 1
