"""The hand advisor's compiled loop, written once over the game protocol.

Deal ``k`` of a run is drawn from ``derive_seed(seed, k, 0)`` by the game's
``determinize`` (the Monte Carlo agents' sampler: one implementation of
"deal consistently with the information set") and its rule agents draw
from ``derive_seed(seed, k, 1)``, the same for every candidate call, so
calls are compared on the same deals and the same agents' choices. Each
call is settled by the game (``protocol.advise_settle``), then either
played out by the rule agents and judged (``protocol.advise_outcome``), or,
when the block is given solver ``limits``, solved from the first lead
(``protocol.advise_solve``).

Rule play passes ``limits=None``: its work items get no solver workspace
(``None``, chosen by type), and numba prunes the ``is None`` branches of a
None-typed argument before typing, so a rule run compiles no solver (and a
game without one registers no solver hooks).
"""

from __future__ import annotations

import importlib

import numpy as np
from numba import njit, prange, types
from numba.extending import overload

from trickgym import protocol
from trickgym.engine.params import params_matrix
from trickgym.engine.playout import rule_play_out
from trickgym.rng import derive_seed

from .codes import EXACT_NODES, LOG2_BUCKETS, NODE_LIMIT

__all__ = [
    "advise_block",
    "evaluate",
    "evaluate_at",
    "evaluate_state",
    "outcome_at",
    "settle_sampled",
]


@njit(cache=True)
def evaluate(state, seat, call, choice, rng, obs_scratch, params, solver, limits):
    """``(status, tricks, made, payoff)`` of ``call`` by ``seat`` on the full deal ``state``.

    The game settles the auction (``advise_settle``; ``choice``: the
    follow-up the seat fixes now, -1: none); the contract reached is solved
    (``advise_solve``) when ``solver`` is a solver workspace, else played
    out by the rule agents and judged (``advise_outcome``), as is a deal
    passed out. ``state`` is changed; ``rng`` is the agents' generator,
    ``obs_scratch`` a one-record observation array.
    """
    protocol.advise_settle(state, seat, call, choice, rng, obs_scratch, params)
    if solver is not None and not protocol.deal_over(state):
        return protocol.advise_solve(state, seat, solver, limits, rng, obs_scratch, params)
    rule_play_out(state, rng, obs_scratch, params)
    return protocol.advise_outcome(state, seat)


def _new_solver(obs, limits):
    """One work item's solver workspace (``protocol.advise_solver``), ``None`` for rule play."""
    raise NotImplementedError("runs only inside compiled kernels")


@overload(_new_solver)
def _new_solver_typer(obs, limits):
    # Chosen by the type of ``limits``: a None-typed one (rule play) links no solver.
    if isinstance(limits, types.NoneType):
        return lambda obs, limits: None
    return lambda obs, limits: protocol.advise_solver(obs, limits)


@njit(cache=True, parallel=True, nogil=True)
def advise_block(obs, template, params, seed, first, variants, chunk, limits, out):
    """Row ``i`` of ``out = (status, tricks, made, payoff)``: deal ``first + i``.

    ``out`` holds four ``[n, n_variants]`` arrays (int64, int64, bool, int64).
    ``obs`` is the seat's observation record (one-record array), ``template``
    a one-record state with the table options, ``params`` the rule agents'
    per-seat parameters, ``variants`` an int64 ``[n_variants, 2]`` array of
    (call, choice). ``limits``: ``None`` for rule play, else the solver's
    int64 row (:mod:`trickgym.advisor.codes`). Chunks of ``chunk`` deals
    run in parallel, each with its own solver workspace; ``first`` must be a
    multiple of ``chunk`` so that chunks, and hence results, do not depend
    on how the deals are split into blocks or threads.
    """
    status, tricks, made, payoff = out
    n = status.shape[0]
    seat = obs[0].seat
    for c in prange((n + chunk - 1) // chunk):
        solver = _new_solver(obs, limits)
        base = protocol.new_states(template[0])
        trial = protocol.new_states(template[0])
        obs_scratch = protocol.new_obs(template[0])
        memory = np.zeros(4, dtype=np.uint64)
        rng = np.zeros(1, dtype=np.uint64)
        agent_rng = np.zeros(1, dtype=np.uint64)
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            rng[0] = derive_seed(seed, first + i, 0)
            protocol.determinize(obs, memory, template, base, rng)
            for v in range(variants.shape[0]):
                trial[0] = base[0]
                agent_rng[0] = derive_seed(seed, first + i, 1)
                st, k, ok, pv = evaluate(
                    trial[0], seat, variants[v, 0], variants[v, 1], agent_rng, obs_scratch,
                    params, solver, limits,
                )  # fmt: skip
                status[i, v] = st
                tricks[i, v] = k
                made[i, v] = ok
                payoff[i, v] = pv
    return 0


@njit(cache=True)
def settle_sampled(obs, template, params, seed, deal, call, choice, out):
    """Deal ``deal`` of ``seed`` as drawn by :func:`advise_block`, ``call`` settled, in ``out[0]``.

    For play in Python (PIMC): returns the agents' generator state after the
    auction (``derive_seed(seed, deal, 1)`` advanced by its draws).
    """
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = derive_seed(seed, deal, 0)
    memory = np.zeros(4, dtype=np.uint64)
    protocol.determinize(obs, memory, template, out, rng)
    agent_rng = np.zeros(1, dtype=np.uint64)
    agent_rng[0] = derive_seed(seed, deal, 1)
    obs_scratch = protocol.new_obs(out[0])
    protocol.advise_settle(out[0], obs[0].seat, call, choice, agent_rng, obs_scratch, params)
    return agent_rng[0]


@njit(cache=True)
def outcome_at(states, i, seat):
    """``advise_outcome`` of the finished deal ``states[i]`` (played in Python) for ``seat``."""
    return protocol.advise_outcome(states[i], seat)


@njit(cache=True)
def evaluate_at(states, i, seat, call, choice, rng, obs_scratch, params, limits):
    """:func:`evaluate` on ``states[i]``, with a solver workspace when ``limits`` is not None."""
    solver = _new_solver(obs_scratch, limits)
    return evaluate(states[i], seat, call, choice, rng, obs_scratch, params, solver, limits)


def evaluate_state(state, seat, call, choice=-1, play="rule", seed=0, node_limit=0, exact_nodes=0):
    """:func:`evaluate` on a copy of the full ``State`` ``state`` (tests, one deal at a time).

    ``play`` is ``"rule"`` or ``"dd"`` (the game's solver, with the table
    size its advisor part gives, ``DD_TABLE_LOG2``, else 2**10 buckets, and
    the budgets ``node_limit`` and ``exact_nodes``).
    """
    game = state.game
    array = state.array.copy()
    rng = np.array([derive_seed(np.uint64(seed), 0, 1)], dtype=np.uint64)
    limits = None
    if play == "dd":
        limits = np.zeros(3, dtype=np.int64)
        log2 = getattr(importlib.import_module(game.advisor), "DD_TABLE_LOG2", 10)
        limits[LOG2_BUCKETS], limits[NODE_LIMIT], limits[EXACT_NODES] = (
            log2,
            node_limit,
            exact_nodes,
        )
    obs_scratch = np.empty(1, dtype=game.obs_dtype)
    params = params_matrix(game.name, game.n_seats)
    return evaluate_at(array, 0, seat, call, choice, rng, obs_scratch, params, limits)
