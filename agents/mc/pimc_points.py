"""PIMC valued by the point-trick solver (Phat, Pinochle, Troggu): cards, and calls on request.

Card play: on each sampled deal where the player to move holds at most
``solve_cards`` cards, every legal card is valued by the seat's payoff
with best play by every hand afterwards
(:func:`trickgym.agents.solved_points.solved_payoffs`): one solve per
sampled world, from the first card when the line is the hand's size. A
world whose solve runs out of the table's node budget is valued by
rule-agent playouts instead, as every decision above the line is
(:func:`.pimc.pimc_values`), and counted in ``stats[STAT_FALLBACKS]``.

Calls (``bids="dd"``, :func:`pimc_leaf_values`): each candidate action is
applied, the rule agents finish the auction and play on until the card
play reaches the solve line, and that position is solved
(:func:`leaf_value`): from the first lead when the line is the hand's
size, as the advisor's ``play="dd"`` values calls.

One table serves every sample of a decision (entries are keyed by the
whole position); the agent empties it before the next decision, so that
what was searched before never changes a decision.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym import protocol
from trickgym.agents.solved_points import (
    MAX_PAY,
    hand_size,
    side_play,
    solved_payoff,
    solved_payoffs,
)
from trickgym.borrow import borrowed
from trickgym.engine.loops import rule_act
from trickgym.engine.playout import play_out
from trickgym.solvers.points_payoff import deal_payoff

from .pimc_common import (
    STAT_FALLBACKS,
    STAT_SOLVES,
    add_valued,
    legal_list,
    playout_values,
    sample_scratch,
)

__all__ = ["leaf_value", "pimc_leaf_values", "pimc_points_values"]


@njit(cache=True)
def pimc_points_values(obs, memory, template, params, rng, samples, table, values, counts, stats):
    """Sum of the seat's solved payoffs per card over ``samples`` deals.

    ``obs`` is the seat's observation record (one-record array) in the card
    play, ``table`` the solver's ``(entries, meta)`` with its node budget;
    ``values`` and ``counts`` (length ``MAX_ACTIONS``) are accumulated, and
    ``stats`` (``int64[2]``) counts the worlds solved and those past the
    budget (valued by one playout per card). Returns the number of exactly
    uniform samples.
    """
    obs, memory, template, params, rng, values, counts = borrowed(
        (obs, memory, template, params, rng, values, counts)
    )
    seat = obs[0].seat
    deal, trial, obs_scratch, actions = sample_scratch(obs, template)
    curve = np.empty(MAX_PAY, dtype=np.float64)
    pays = np.empty(64, dtype=np.float64)
    n_uniform = 0
    for _ in range(samples):
        n_uniform += protocol.determinize(obs, memory, template, deal, rng)
        if solved_payoffs(deal, seat, table, curve, pays):
            add_valued(pays, values, counts)
            stats[STAT_SOLVES] += 1
        else:  # past the budget: one playout per card
            playout_values(deal, seat, rng, params, 1, trial, obs_scratch, actions, values, counts)
            stats[STAT_FALLBACKS] += 1
    return n_uniform


@njit(cache=True)
def leaf_value(trial, seat, rng, obs_scratch, params, table, line, stats):
    """``seat``'s payoff of ``trial[0]`` (played on in place): the rule agents act until the card
    play has a side and the player to move holds at most ``line`` cards, then the position is
    solved; past the node budget (counted in ``stats``), or without a side, played out."""
    st = trial[0]
    while not protocol.deal_over(st):
        if side_play(st) and hand_size(st) <= line:
            v = solved_payoff(trial, seat, table)
            if not np.isnan(v):
                stats[STAT_SOLVES] += 1
                return v
            stats[STAT_FALLBACKS] += 1
            break
        protocol.apply_action(st, rule_act(st, st.to_move, rng, obs_scratch, params))
    play_out(st, rng, obs_scratch, params)
    return deal_payoff(st, seat)


@njit(cache=True)
def pimc_leaf_values(obs, memory, template, params, rng, samples, table, line, sums):
    """Sum of the seat's payoffs per candidate action over ``samples`` deals, each action's
    deal valued by :func:`leaf_value` (rule agents to the solve ``line``, then solved).

    For decisions before the card play (calls, Troggu's and Pinochle's
    bids); arguments as :func:`pimc_points_values`, with ``sums`` its
    ``(values, counts, stats)``. Returns the number of exactly uniform samples.
    """
    values, counts, stats = sums
    obs, memory, template, params, rng, values, counts = borrowed(
        (obs, memory, template, params, rng, values, counts)
    )
    seat = obs[0].seat
    deal, trial, obs_scratch, actions = sample_scratch(obs, template)
    n_uniform = 0
    for _ in range(samples):
        n_uniform += protocol.determinize(obs, memory, template, deal, rng)
        n = legal_list(deal[0], actions)
        for k in range(n):
            a = actions[k]
            trial[0] = deal[0]
            protocol.apply_action(trial[0], a)
            values[a] += leaf_value(trial, seat, rng, obs_scratch, params, table, line, stats)
            counts[a] += 1
    return n_uniform
