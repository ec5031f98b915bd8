"""Solo Whist positions valued by the double-dummy solver: one implementation for every agent.

The oracle (true state), PIMC (each sampled deal) and ISMCTS (its leaves)
turn a full Solo Whist state into the declaring side's tricks with best
play by all four hands, then into payoffs by the rules' own
``deal_payoffs``. Only what pays is asked of the solver:

- Misère and Misère Ouverte pay "no trick" against "a trick": one
  made-or-beaten probe (``dd_reaches(..., misere=True, target=1)``);
  Abundance Declared pays "every trick" against "not": one probe;
- Prop & Cop, Solo and the Abundances pay over- and under-tricks too: with
  at most ``exact_cards`` cards in hand, the exact count (``dd_tricks`` /
  ``dd_card_values``); with more, where an exact count of one declarer
  against three can take seconds, one probe at the goal (or, the goal
  already reached, at one trick more), scored as the goal made exactly or
  missed by one. The jump at the goal (the whole base, twice over) is what
  decides a deal; an over- or under-trick is worth one point against a
  base of five. (Probes one trick either side of the goal were tried:
  three times the cost, too slow for PIMC's budget with today's solver.)

The auction is valued through the contract it ends in: the rule agents
finish the auction (:func:`auction_value`) and the contract reached is
solved from the first lead on.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.games.solowhist.constants import (
    ABUNDANCE_DECLARED,
    CALL_BASE,
    DEAL_OVER,
    GOAL,
    MISERE,
    MISERE_OUVERTE,
    N_ACTIONS,
    N_TRICKS,
    PLAY,
)
from trickgym.games.solowhist.rules import (
    apply_action,
    deal_over,
    deal_payoffs,
    declarer_tricks,
    legal_sets,
    observe_core,
)
from trickgym.games.solowhist.state import STATE_DTYPE
from trickgym.solvers.dd_search import (
    META_ABORTED,
    dd_card_reaches,
    dd_card_values,
    dd_reaches,
    dd_tricks,
)

from .rule.solowhist import rule_action

__all__ = [
    "EXACT_CARDS",
    "act_rule",
    "auction_values",
    "card_payoffs",
    "leaf_payoffs",
    "position_payoffs",
    "position_tricks",
]

# Exact counts from this many cards in hand down: at 7 cards a one-against-three
# exact solve takes well under a millisecond; at 13 its tail is seconds (issue 16).
EXACT_CARDS = 7

_GOAL = np.array(GOAL, dtype=np.int64)


@njit(cache=True)
def _aborted(table):
    """Whether the last solver call ran out of the table's node budget (its answer is void)."""
    return table[1][META_ABORTED] != 0


@njit(cache=True)
def _kernel_args(st, hands, trick):
    """Hands and current trick of ``st`` for the solver; returns the side's tricks so far."""
    for s in range(4):
        hands[s] = st.hands[s]
        trick[s] = st.trick_cards[s] if s < st.trick_n else -1
    return declarer_tricks(st)


@njit(cache=True)
def _misere(st):
    return st.contract == MISERE or st.contract == MISERE_OUVERTE


@njit(cache=True)
def position_tricks(st, table, exact_cards):
    """The declaring side's total tricks in ``st`` (PLAY phase) with best play, as far as it pays.

    Exact for misère (0 or 1 = "a trick"), Abundance Declared (13 or 12 =
    "not all") and, with at most ``exact_cards`` cards in hand, the other
    contracts; otherwise the goal made exactly or missed by one (see the
    module docstring). -1 when the solver ran out of its node budget.
    """
    hands = np.empty(4, dtype=np.uint64)
    trick = np.empty(4, dtype=np.int64)
    won = _kernel_args(st, hands, trick)
    left = N_TRICKS - st.trick_no  # tricks still to be won, the current one included
    misere = _misere(st)
    args = (hands, trick, st.trick_n, st.leader, st.trumps, st.declarers)
    if misere:
        r = won + (1 if dd_reaches(*args, True, 1, table) else 0)
    elif st.contract == ABUNDANCE_DECLARED:
        r = won + (left if dd_reaches(*args, False, left, table) else left - 1)
    elif popcount_hand(st) <= exact_cards:
        r = won + dd_tricks(*args, False, table)
    else:
        k = min(max(_GOAL[st.contract] - won, 1), left)
        r = won + k - 1 + (1 if dd_reaches(*args, False, k, table) else 0)
    return -1 if _aborted(table) else r


@njit(cache=True)
def popcount_hand(st):
    """Cards in the hand of the player to move."""
    h = st.hands[st.to_move]
    n = 0
    while h:
        h &= h - np.uint64(1)
        n += 1
    return n


@njit(cache=True)
def card_payoffs(st, seat, table, exact_cards, out):
    """``out[c]``: ``seat``'s payoff after card ``c`` of the player to move, best play after.

    ``-1e9`` for cards that are not legal, and for every card when the
    solver ran out of its node budget. Tricks are counted as in
    :func:`position_tricks`. Returns the number of cards valued.
    """
    hands = np.empty(4, dtype=np.uint64)
    trick = np.empty(4, dtype=np.int64)
    won = _kernel_args(st, hands, trick)
    left = N_TRICKS - st.trick_no
    tricks = np.empty(52, dtype=np.int64)  # the side's total after each card
    probe = np.empty(52, dtype=np.int64)
    args = (hands, trick, st.trick_n, st.leader, st.trumps, st.declarers)
    if _misere(st):
        dd_card_reaches(*args, True, 1, table, probe)
        for c in range(52):
            tricks[c] = won + probe[c] if probe[c] >= 0 else -1
    elif st.contract == ABUNDANCE_DECLARED:
        dd_card_reaches(*args, False, left, table, probe)
        for c in range(52):
            tricks[c] = won + left - 1 + probe[c] if probe[c] >= 0 else -1
    elif popcount_hand(st) <= exact_cards:
        dd_card_values(*args, False, table, probe)
        for c in range(52):
            tricks[c] = won + probe[c] if probe[c] >= 0 else -1
    else:
        k = min(max(_GOAL[st.contract] - won, 1), left)
        dd_card_reaches(*args, False, k, table, probe)
        for c in range(52):
            tricks[c] = won + k - 1 + probe[c] if probe[c] >= 0 else -1
    pay = np.zeros(4, dtype=np.int32)
    n = 0
    aborted = _aborted(table)
    for c in range(52):
        if tricks[c] < 0 or aborted:
            out[c] = -1e9
            continue
        deal_payoffs(st.contract, st.declarers, tricks[c], st.unit, pay)
        out[c] = pay[seat]
        n += 1
    return n


@njit(cache=True)
def position_payoffs(st, table, exact_cards, pay):
    """Fill ``pay[0:4]`` with every seat's payoff of ``st`` (PLAY phase) under best play.

    Returns False (``pay`` untouched) when the solver ran out of its node budget.
    """
    tricks = position_tricks(st, table, exact_cards)
    if tricks < 0:
        return False
    deal_payoffs(st.contract, st.declarers, tricks, st.unit, pay)
    return True


@njit(cache=True)
def act_rule(state, seat, rng, obs, params):
    """The rule agent: acts on ``seat``'s observation only (the fields it reads)."""
    observe_core(state, seat, obs[0])
    return rule_action(obs[0], params[seat].values, rng)


@njit(cache=True)
def auction_values(st, seat, rng, obs, params, table, exact_cards, out):
    """``out[a]``: ``seat``'s payoff for each legal call ``a`` of ``st`` (others untouched).

    A call's payoff is that of the contract reached when the rule agents
    finish the auction (``seat``'s own later calls included: the value of a
    call is that of the contract it leads to among rule bidders), solved
    from the first lead; a passed-out deal pays 0; -1e9 when the solver ran
    out of its node budget. Calls that reach the same contract share one
    solve. Returns the number of legal calls left unsolved that way (a
    caller choosing among the calls should then not trust the others alone:
    the best solved call may be a sure loser).
    """
    _, high = legal_sets(st)
    trial = np.empty(1, dtype=STATE_DTYPE)
    keys = np.empty(N_ACTIONS, dtype=np.int64)
    vals = np.empty(N_ACTIONS, dtype=np.float64)
    n_keys = 0
    pay = np.zeros(4, dtype=np.int32)
    unsolved = 0
    for a in range(CALL_BASE, N_ACTIONS):
        if not (high >> np.uint64(a - CALL_BASE)) & np.uint64(1):
            continue
        trial[0] = st
        t = trial[0]
        apply_action(t, a)
        while t.phase != DEAL_OVER and t.phase != PLAY:
            apply_action(t, act_rule(t, t.to_move, rng, obs, params))
        if t.phase == DEAL_OVER:
            out[a] = t.payoffs[seat]
            continue
        key = (t.contract * 16 + t.declarers) * 8 + t.trumps + 1
        found = -1
        for i in range(n_keys):
            if keys[i] == key:
                found = i
        if found < 0:
            keys[n_keys] = key
            vals[n_keys] = pay[seat] if position_payoffs(t, table, exact_cards, pay) else -1e9
            found = n_keys
            n_keys += 1
        out[a] = vals[found]
        if vals[found] < -1e8:
            unsolved += 1
    return unsolved


@njit(cache=True)
def leaf_payoffs(state, rng, obs_scratch, params, table, dd_cards):
    """A search leaf's payoffs into ``state.payoffs``: solved with at most ``dd_cards`` in hand.

    In the play, with at most ``dd_cards`` cards in the hand to move, the
    double-dummy solver's payoffs (one made-or-beaten probe, exact where
    cheap: :func:`trickgym.agents.solved_solowhist.position_payoffs`); otherwise the
    rule agents play the deal out (so they do when the solver runs out of
    its node budget).
    """
    if state.phase == PLAY and popcount_hand(state) <= dd_cards:
        if position_payoffs(state, table, EXACT_CARDS, state.payoffs):
            return
    while not deal_over(state):
        apply_action(state, act_rule(state, state.to_move, rng, obs_scratch, params))
