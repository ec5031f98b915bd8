"""Phat, Pinochle and Troggu contracts solved with every card seen (``play="dd"``).

One implementation for the three point-trick games, registered per game
for the protocol's ``advise_solver`` and ``advise_solve`` hooks by name
(``"module:kernel"``), so rule and PIMC advice never load the solver. The
settled contract's follow-ups before the first lead (Pinochle's trumps,
buried kitty or passed cards; Troggu's Tapp discard and partner call) are
the rule agents'; from the first lead the point-trick solver
(:func:`~trickgym.solvers.points_search.solve_points`) plays every seat
best for or against the declaring side, within the node budget
``limits[NODE_LIMIT]`` (past it: ``UNSOLVED``, never guessed). The side's
final points become the seat's payoff by
:func:`trickgym.solvers.points_payoff.deal_score` (the deal's own score:
Phat's phat difference, where the agents value the game's race instead;
Pinochle's meld counts as saved once the team takes a counter).

A Troggu Misère has no declaring side (everybody plays for themselves), so
nothing is solved: the rule agents play it out and the outcome is
``NO_SIDE`` (its payoff counts, it is no contract made or beaten).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym import protocol
from trickgym.engine.loops import rule_act
from trickgym.engine.playout import rule_play_out
from trickgym.solvers.points_payoff import deal_score

from ..games.phat.constants import PLAY as PHAT_PLAY
from ..games.pinochle.constants import PLAY as PINOCHLE_PLAY
from ..games.troggu.constants import HALF, MISERE
from ..games.troggu.constants import PLAY as TROGGU_PLAY
from ..solvers.points_search import META_ABORTED, make_points_table, solve_points
from .codes import EXACT, LOG2_BUCKETS, NO_SIDE, NODE_LIMIT, UNSOLVED

__all__ = [
    "declarer_points",
    "final_points",
    "new_solver",
    "phat_solve",
    "pinochle_solve",
    "troggu_solve",
]


_NO_GAIN = -(1 << 20)  # a memo of a solve that ran out of its budget


@njit(cache=True)
def new_solver(obs, limits):
    """One thread's workspace: a points table of ``2**limits[LOG2_BUCKETS]`` slots, a memo.

    The memo holds the last root solved (its two key words) and its answer:
    the calls of one deal often reach the very same first lead (Pinochle's
    bid levels), and a warm table could solve the second within the budget
    that the first ran out of; the memo gives every such call the first
    answer, so a call's status does not depend on the calls valued before it.
    """
    return make_points_table(limits[LOG2_BUCKETS], limits[NODE_LIMIT]), np.zeros(3, np.uint64)


@njit(cache=True)
def final_points(t, solver, play_phase, rng, obs_scratch, params):
    """The declaring side's points at the end of the deal ``t`` with best play by all.

    The rule agents first act until ``t`` is in its card play
    (``play_phase``); ``t`` is left there. -1 when the solve ran out of the
    table's node budget.
    """
    table, memo = solver
    while not protocol.deal_over(t) and t.phase != play_phase:
        protocol.apply_action(t, rule_act(t, t.to_move, rng, obs_scratch, params))
    k1, k2 = protocol.key(t)
    if memo[0] == k1 and memo[1] == k2 and (k1 | k2) != 0:
        gained = np.int64(memo[2]) + _NO_GAIN
    else:
        root = protocol.new_states(t)
        root[0] = t
        gained = solve_points(root, table)
        if table[1][META_ABORTED]:
            gained = _NO_GAIN
        memo[0], memo[1], memo[2] = k1, k2, np.uint64(gained - _NO_GAIN)
    if gained == _NO_GAIN:
        return -1
    return protocol.side_points(t) + gained


@njit(cache=True)
def _outcome(t, seat, final, made):
    if final < 0:
        return UNSOLVED, -1, False, 0
    return EXACT, final, made, np.int64(deal_score(t, seat, final))


@njit(cache=True)
def phat_solve(t, seat, solver, limits, rng, obs_scratch, params):
    """Phat: the pitching team's phat from the pitch on; made: more than the other's 40."""
    final = final_points(t, solver, PHAT_PLAY, rng, obs_scratch, params)
    return _outcome(t, seat, final, final > 40)


@njit(cache=True)
def declarer_points(t, final):
    """The declaring team's saved meld plus its ``final`` counters (made: they reach the bid).

    Meld is saved as in :func:`~trickgym.solvers.points_payoff.points_payoff`:
    once the team holds a counter (the "20 counters" option: at least 20).
    """
    dc = t.declarer % 2
    saved = final >= 20 if t.meld_save_twenty else final > 0
    return final + (t.meld[dc] + t.meld[dc + 2] if saved else 0)


@njit(cache=True)
def pinochle_solve(t, seat, solver, limits, rng, obs_scratch, params):
    """Pinochle: the declaring team's counters (last trick, buried counters included)."""
    final = final_points(t, solver, PINOCHLE_PLAY, rng, obs_scratch, params)
    if final < 0:
        return UNSOLVED, -1, False, 0
    # What the advisor's mean counts, as in rule play: saved meld plus counters.
    points = declarer_points(t, final)
    return EXACT, points, points >= t.bid, np.int64(deal_score(t, seat, final))


@njit(cache=True)
def troggu_solve(t, seat, solver, limits, rng, obs_scratch, params):
    """Troggu: the declaring side's card points (of 114); made: more than half.

    A Misère (no side) is played out by the rule agents: ``NO_SIDE``.
    """
    if t.contract == MISERE:
        rule_play_out(t, rng, obs_scratch, params)
        return NO_SIDE, -1, False, np.int64(t.payoffs[seat])
    final = final_points(t, solver, TROGGU_PLAY, rng, obs_scratch, params)
    return _outcome(t, seat, final, final > HALF)
