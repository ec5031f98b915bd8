"""Solo Whist calls valued by sampled double-dummy made-rates (PIMC's own bidder).

For a bid decision the seat deals the unseen cards ``samples`` times
consistently with its observation (:func:`.sample_solowhist.determinize`)
and, on each sampled deal, asks the solver one made-or-beaten question per
candidate contract, as if the seat were its lone declarer from the first
lead (:func:`dd_made_counts`):

- Solo (turn-up suit trumps, 5 tricks, and 4: one short), each Abundance
  trump suit (9 tricks, and 8; the turn-up suit's is also Abundance in
  Trumps) and Abundance Declared (13 tricks, no trumps, the declarer leads).

Misère and Misère Ouverte are instead valued by rule-agent playouts
(:func:`rule_made_counts`): double dummy they are almost never made (three
defenders who see the declarer's hand nearly always force a trick; measured:
no hand of 300 random ones made in any of 24 samples), so the solver's
made-rate carries no signal. On each sampled deal the seat declares the
contract (everyone else passes) and the rule agents play it out.

The made-rates are turned into expected payoffs in Python
(:mod:`.solved_bids`) with a per-contract calibration from the solver's
made-rate to the rate PIMC achieves in play.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.agents.solved_solowhist import act_rule
from trickgym.borrow import borrowed
from trickgym.games.solowhist.constants import (
    ABUNDANCE,
    ABUNDANCE_DECLARED,
    DEAL_OVER,
    GOAL,
    PASS,
    PLAY,
    SOLO,
)
from trickgym.games.solowhist.rules import apply_action
from trickgym.solvers.dd_search import META_ABORTED, dd_reaches

from .sample_solowhist import determinize

__all__ = [
    "K_ABUNDANCE",
    "K_ABUNDANCE_SHORT",
    "K_DECLARED",
    "K_MISERE",
    "K_SOLO",
    "K_SOLO_SHORT",
    "N_KINDS",
    "dd_made_counts",
    "rule_made_counts",
]

# Question indices (rows of ``counts``). Solo and Abundance are asked at their goal and
# one trick short: double-dummy defenders are stronger than real ones, so "one
# trick short" carries much of the signal of whether the goal is made in play.
K_SOLO = 0  # Solo: 5 tricks, turn-up suit trumps
K_SOLO_SHORT = 1  # 4 tricks
K_ABUNDANCE = 2  # + suit (S H D C): 9 tricks with that suit trumps
K_ABUNDANCE_SHORT = 6  # + suit: 8 tricks
K_DECLARED = 10  # all 13 tricks at no trumps, the declarer leading
K_MISERE = 11  # no trick at no trumps (for the record: almost never made, see above)
N_KINDS = 12
# The goals come from the scoring table (rules §4), not restated here.
_SOLO_GOAL = GOAL[SOLO]
_ABUNDANCE_GOAL = GOAL[ABUNDANCE]
_DECLARED_GOAL = GOAL[ABUNDANCE_DECLARED]


@njit(cache=True)
def _question(k, turn):
    """(trumps, target, misere) of question ``k``; ``turn`` is the turn-up suit."""
    if k == K_SOLO:
        return turn, _SOLO_GOAL, False
    if k == K_SOLO_SHORT:
        return turn, _SOLO_GOAL - 1, False
    if k < K_ABUNDANCE_SHORT:
        return k - K_ABUNDANCE, _ABUNDANCE_GOAL, False
    if k < K_DECLARED:
        return k - K_ABUNDANCE_SHORT, _ABUNDANCE_GOAL - 1, False
    if k == K_DECLARED:
        return -1, _DECLARED_GOAL, False
    return -1, 1, True  # misère: "at least one trick" is the beaten side


@njit(cache=True)
def dd_made_counts(obs, memory, template, rng, samples, table, ask, counts):
    """Per question ``k`` with ``ask[k]``: ``counts[k]`` += (deals made, deals solved).

    ``obs`` is the seat's Solo Whist observation record (one-record array) in
    the auction (or the Cop offer, upgrade, trump choice); ``table`` the
    solver's ``(entries, meta)``. A solve that runs out of the table's node
    budget is left out (not counted as solved). Returns the number of
    exactly uniform samples.
    """
    obs, memory, template = borrowed(obs), borrowed(memory), borrowed(template)
    rng = borrowed(rng)
    seat = obs[0].seat
    eldest = (obs[0].dealer + 1) % 4
    turn = obs[0].turn_up // 13
    base = np.empty(1, dtype=template.dtype)
    hands = np.empty(4, dtype=np.uint64)
    trick = np.full(4, -1, dtype=np.int64)
    me = 1 << seat
    n_uniform = 0
    for _ in range(samples):
        n_uniform += determinize(obs, memory, template, base, rng)
        st = base[0]
        for s in range(4):
            hands[s] = st.initial_hands[s]
        for k in range(N_KINDS):
            if not ask[k]:
                continue
            trumps, target, misere = _question(k, turn)
            leader = seat if k == K_DECLARED else eldest
            reached = dd_reaches(hands, trick, 0, leader, trumps, me, misere, target, table)
            if table[1][META_ABORTED] != 0:
                continue
            counts[k, 1] += 1
            if reached != misere:
                counts[k, 0] += 1
    return n_uniform


@njit(cache=True)
def rule_made_counts(obs, memory, template, rng, samples, obs_scratch, params, calls, counts):
    """Per call ``calls[j]``: ``counts[j, 0]`` += deals made, ``counts[j, 1]`` += deals played.

    On each of ``samples`` deals consistent with the seat's observation the
    seat makes call ``calls[j]`` (legal for it now), every other seat
    passes (an Abundance declarer would name trumps by the rule agent) and
    the rule agents play the contract out. Returns the number of exactly
    uniform samples.
    """
    obs, memory, template = borrowed(obs), borrowed(memory), borrowed(template)
    rng = borrowed(rng)
    base = np.empty(1, dtype=template.dtype)
    trial = np.empty(1, dtype=template.dtype)
    n_uniform = 0
    for _ in range(samples):
        n_uniform += determinize(obs, memory, template, base, rng)
        for j in range(len(calls)):
            trial[0] = base[0]
            t = trial[0]
            apply_action(t, calls[j])
            while t.phase != PLAY and t.phase != DEAL_OVER:
                if t.to_move == obs[0].seat:
                    apply_action(t, act_rule(t, t.to_move, rng, obs_scratch, params))
                else:
                    apply_action(t, PASS)
            while t.phase != DEAL_OVER:
                apply_action(t, act_rule(t, t.to_move, rng, obs_scratch, params))
            counts[j, 1] += 1
            if t.made:
                counts[j, 0] += 1
    return n_uniform
