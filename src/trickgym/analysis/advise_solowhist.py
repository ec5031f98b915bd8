"""Solo Whist part of the hand advisor: every call the seat could make, valued on sampled deals.

For each deal drawn consistently with the seat's observation
(:func:`trickgym.agents.mc.sample_solowhist.determinize`, the Monte Carlo
agents' sampler) and each candidate call, the call is applied to the
sampled deal and the auction is settled (:func:`settle`):

- a contract call (Solo, Misère, Abundance, Abundance in Trumps, Misère
  Ouverte, Abundance Declared, and from the upgrade the same) **stands**:
  every other seat passes, and the seat is the lone declarer;
- **Prop** stands too, but needs a Cop: the other seats answer by the rule
  agent allowed only Pass or Cop (no overcall), eldest's Cop re-entry is
  the rule agent's; if nobody accepts, the seat passes in the upgrade and
  the deal is passed out (payoff 0; such deals count in ``deals`` but not in
  ``played``);
- **Cop** (accepting a standing Prop) stands: the others pass, the contract
  is Prop & Cop with the proposer;
- **Abundance** is valued once per trump suit the declarer may name; the
  advisor reports the suit of highest expected payoff (named before the
  play, so chosen on the averages, not deal by deal);
- **Pass** and **Decline** do not declare: the rule agents finish the
  auction for every seat (the seat's own later Cop re-entry or upgrade
  included) and the contract reached is played or solved; only the seat's
  expected payoff is reported.

The contract reached is then played out by the rule agents at every seat
(``play="rule"``) or solved double dummy from the first lead with the
rules' own leader, trumps and declaring side (``play="dd"``, :func:`dd_outcome`);
payoffs always come from the rules' ``settlement`` / ``deal_payoffs``.
PIMC play (``play="pimc"``) settles the auction here and plays in Python.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from trickgym.agents.mc.sample_solowhist import determinize
from trickgym.agents.rule.solowhist import rule_action
from trickgym.agents.solowhist_dd import act_rule

from ..games.solowhist.constants import (
    ABUNDANCE_DECLARED,
    AUCTION,
    CALL_BASE,
    COP,
    COP_OFFER,
    DEAL_OVER,
    DECLINE,
    GOAL,
    MISERE,
    MISERE_OUVERTE,
    PASS,
    PLAY,
    PROP,
    SOLO,
    TRUMP_BASE,
    TRUMP_CHOICE,
)
from ..games.solowhist.rules import (
    apply_action,
    deal_payoffs,
    observe_core,
)
from ..games.solowhist.state import OBS_DTYPE, STATE_DTYPE
from ..rng import derive_seed
from ..solvers.dd_search import META_ABORTED, META_NODE_LIMIT, dd_reaches, dd_tricks, make_table
from .advise_common import DD, EXACT, PASSED_OUT, PROBED, RULE, UNSOLVED

__all__ = [
    "HAS_DD",
    "advise_block",
    "candidates",
    "dd_outcome",
    "evaluate",
    "evaluate_state",
    "record_outcome",
    "settle",
    "settle_sampled",
    "state_for",
]

HAS_DD = True

_GOAL = np.array(GOAL, dtype=np.int64)
_ANSWER_BITS = np.uint64((1 << (PASS - CALL_BASE)) | (1 << (COP - CALL_BASE)))


@njit(cache=True)
def settle(t, seat, call, trump, rng, obs, params):
    """Apply ``call`` for ``seat`` to state ``t`` and settle the auction (see module docstring).

    ``trump`` is the suit the seat names if an Abundance of its own reaches
    the trump choice (-1: the rule agent's choice). Leaves ``t`` in the play
    or, passed out, over.
    """
    apply_action(t, call)
    stands = call != PASS and call != DECLINE
    while t.phase != PLAY and t.phase != DEAL_OVER:
        p = t.to_move
        if t.phase == TRUMP_CHOICE:
            if p == seat and trump >= 0:
                a = TRUMP_BASE + trump
            else:
                a = act_rule(t, p, rng, obs, params)
        elif not stands:
            a = act_rule(t, p, rng, obs, params)
        elif p == seat:
            a = PASS  # the lone proposer's upgrade: an unaccepted Prop is not raised
        elif t.phase == AUCTION and call == PROP:
            observe_core(t, p, obs[0])
            obs[0].legal_calls &= _ANSWER_BITS
            a = rule_action(obs[0], params[p].values, rng)
        elif t.phase == COP_OFFER:
            a = act_rule(t, p, rng, obs, params)
        else:
            a = PASS
        apply_action(t, a)


@njit(cache=True)
def dd_outcome(t, table, node_limit, exact_nodes):
    """``(status, tricks)`` of the contract of state ``t`` (first lead) by double-dummy play.

    Misère and Misère Ouverte: one probe "held to no trick" (tricks 0 or 1,
    i.e. "a trick"); Abundance Declared: one probe at 13 (13 or 12). The
    others: the exact count within ``exact_nodes`` search nodes (0: not
    tried), else one probe at the goal, scored as the goal made exactly or
    missed by one (status ``PROBED``). ``node_limit`` bounds each probe
    (0: none); a probe past it gives ``UNSOLVED``.
    """
    hands = np.empty(4, dtype=np.uint64)
    trick = np.full(4, -1, dtype=np.int64)
    for s in range(4):
        hands[s] = t.hands[s]
    meta = table[1]
    c = t.contract
    args = (hands, trick, 0, t.leader, t.trumps, t.declarers)
    # Exact counts from the first lead only for Solo: an Abundance's (goal 9) costs about
    # ten times as much, and a Prop & Cop's (two against two) rarely fits a small budget.
    if c == SOLO and exact_nodes > 0:
        meta[META_NODE_LIMIT] = exact_nodes
        v = dd_tricks(*args, False, table)
        if meta[META_ABORTED] == 0:
            return EXACT, v
    meta[META_NODE_LIMIT] = node_limit
    if c == MISERE or c == MISERE_OUVERTE:
        r = dd_reaches(*args, True, 1, table)
        tricks = 1 if r else 0
    elif c == ABUNDANCE_DECLARED:
        r = dd_reaches(*args, False, 13, table)
        tricks = 13 if r else 12
    else:
        r = dd_reaches(*args, False, _GOAL[c], table)
        tricks = _GOAL[c] if r else _GOAL[c] - 1
    if meta[META_ABORTED] != 0:
        return UNSOLVED, -1
    if (c == MISERE or c == MISERE_OUVERTE) and tricks == 0:
        return EXACT, 0
    if c == ABUNDANCE_DECLARED and tricks == 13:
        return EXACT, 13
    return PROBED, tricks


@njit(cache=True)
def evaluate(t, seat, call, trump, mode, rng, scratch, params, table, node_limit, exact_nodes, pay):
    """``(status, tricks, made, payoff)`` of ``call`` by ``seat`` on the full deal ``t``.

    The auction is settled (:func:`settle`), then the contract is played out
    by the rule agents (``mode == RULE``) or solved (:func:`dd_outcome`);
    ``payoff`` is the seat's, by the rules' ``deal_payoffs`` (into ``pay``).
    ``t`` is changed; ``rng`` is the agents' generator, ``scratch`` a
    one-record observation array.
    """
    settle(t, seat, call, trump, rng, scratch, params)
    if t.phase == DEAL_OVER:
        return PASSED_OUT, -1, False, t.payoffs[seat]
    if mode == RULE:
        while t.phase != DEAL_OVER:
            apply_action(t, act_rule(t, t.to_move, rng, scratch, params))
        return EXACT, t.declarer_tricks, t.made, t.payoffs[seat]
    st, k = dd_outcome(t, table, node_limit, exact_nodes)
    if st == UNSOLVED:
        return UNSOLVED, -1, False, 0
    ok = deal_payoffs(t.contract, t.declarers, k, t.unit, pay)
    return st, k, ok, pay[seat]


def evaluate_state(state, seat, call, trump=-1, play="rule", seed=0, node_limit=0, exact_nodes=0):
    """:func:`evaluate` on a copy of the full ``State`` ``state`` (tests, one deal at a time)."""
    array = state.array.copy()
    rng = np.array([derive_seed(np.uint64(seed), 0, 1)], dtype=np.uint64)
    from ..agents.rule import params_matrix

    table = make_table(10, node_limit)
    return _evaluate_at(
        array, seat, call, trump, DD if play == "dd" else RULE, rng, params_matrix("solowhist", 4),
        table, node_limit, exact_nodes,
    )  # fmt: skip


@njit(cache=True)
def _evaluate_at(array, seat, call, trump, mode, rng, params, table, node_limit, exact_nodes):
    scratch = np.empty(1, dtype=OBS_DTYPE)
    pay = np.zeros(4, dtype=np.int32)
    return evaluate(
        array[0], seat, call, trump, mode, rng, scratch, params, table, node_limit, exact_nodes, pay
    )


@njit(cache=True, parallel=True, nogil=True)
def advise_block(
    obs, template, params, seed, first, calls, trumps, mode, chunk, log2_buckets,
    node_limit, exact_nodes, status, tricks, made, payoff,
):  # fmt: skip
    """Row ``i`` of ``status, tricks, made, payoff`` (``[n, len(calls)]``): deal ``first + i``.

    ``obs`` is the seat's observation record (one-record array), ``template``
    a one-record state with the table options, ``params`` the rule agents'
    per-seat parameters. Deal ``k`` is drawn from ``derive_seed(seed, k, 0)``
    and its rule agents from ``derive_seed(seed, k, 1)`` (the same for every
    call, so calls are compared on the same deals and the same agents'
    choices). Chunks of ``chunk`` deals run in parallel, each with its own
    solver table (``mode == DD``) of ``2**log2_buckets`` buckets; ``first``
    must be a multiple of ``chunk`` so that chunks, and hence results, do not
    depend on how the deals are split into blocks or threads.
    """
    n = status.shape[0]
    seat = obs[0].seat
    n_chunks = (n + chunk - 1) // chunk
    for c in prange(n_chunks):
        table = make_table(log2_buckets if mode == DD else 0, node_limit)
        base = np.empty(1, dtype=STATE_DTYPE)
        trial = np.empty(1, dtype=STATE_DTYPE)
        scratch = np.empty(1, dtype=OBS_DTYPE)
        memory = np.zeros(4, dtype=np.uint64)
        rng = np.zeros(1, dtype=np.uint64)
        agent_rng = np.zeros(1, dtype=np.uint64)
        pay = np.zeros(4, dtype=np.int32)
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            rng[0] = derive_seed(seed, first + i, 0)
            determinize(obs, memory, template, base, rng)
            for v in range(calls.shape[0]):
                trial[0] = base[0]
                agent_rng[0] = derive_seed(seed, first + i, 1)
                st, k, ok, pv = evaluate(
                    trial[0], seat, calls[v], trumps[v], mode, agent_rng, scratch, params,
                    table, node_limit, exact_nodes, pay,
                )  # fmt: skip
                status[i, v] = st
                tricks[i, v] = k
                made[i, v] = ok
                payoff[i, v] = pv
    return 0


@njit(cache=True)
def settle_sampled(obs, template, params, seed, deal, call, trump, out):
    """Deal ``deal`` of ``seed`` as drawn by :func:`advise_block`, ``call`` settled, in ``out[0]``.

    For play in Python (PIMC): returns the agents' generator state after the
    auction (``derive_seed(seed, deal, 1)`` advanced by its draws).
    """
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = derive_seed(seed, deal, 0)
    memory = np.zeros(4, dtype=np.uint64)
    determinize(obs, memory, template, out, rng)
    agent_rng = np.zeros(1, dtype=np.uint64)
    agent_rng[0] = derive_seed(seed, deal, 1)
    scratch = np.empty(1, dtype=OBS_DTYPE)
    settle(out[0], obs[0].seat, call, trump, agent_rng, scratch, params)
    return agent_rng[0]


def record_outcome(record, seat, i, v, out):
    """Store the outcome of the finished deal ``record`` (played in Python) at ``[i, v]``."""
    if int(record["contract"]) == 0:
        out["status"][i, v] = PASSED_OUT
        out["tricks"][i, v] = -1
    else:
        out["status"][i, v] = EXACT
        out["tricks"][i, v] = int(record["declarer_tricks"])
    out["made"][i, v] = bool(record["made"])
    out["payoff"][i, v] = int(record["payoffs"][seat])


# --------------------------------------------------------------- Python side


def state_for(game, hand, seat, dealer, turn_up):
    """A Solo Whist deal in which ``seat`` holds ``hand`` and ``dealer`` turned up ``turn_up``.

    The other seats get the remaining cards in a fixed order: the advisor
    reads only the seat's observation, so who holds them does not matter.
    """
    from ..cards.decks import STANDARD
    from ..cards.notation import format_card, format_hand, parse_card
    from ..checks import is_int
    from ..games.dealing import check_hands

    (mask,) = check_hands([("hand", hand, 13)], STANDARD, need="a Solo Whist hand has")
    if turn_up is None:
        raise ValueError(
            "turn_up is required for Solo Whist: the dealer's exposed last card (e.g. '2S'), "
            "which fixes the trump suit of Solo and Prop & Cop"
        )
    if isinstance(turn_up, str):
        up = parse_card(turn_up, STANDARD)
    elif is_int(turn_up) and 0 <= turn_up < 52:
        up = int(turn_up)
    else:
        raise ValueError(
            f"turn_up must be a card name such as '2S' or '10H' (or an id 0..51), got {turn_up!r}"
        )
    in_hand = bool(mask >> up & 1)
    if dealer == seat and not in_hand:
        raise ValueError(
            f"turn_up {format_card(up)} is not in the hand {hand!r}: seat {seat} is the dealer, "
            f"and the dealer's turned-up card is its own"
        )
    if dealer != seat and in_hand:
        raise ValueError(
            f"turn_up {format_card(up)} is in the hand {hand!r} of seat {seat}, but the dealer "
            f"(seat {dealer}) holds the turned-up card: give a card the hand does not hold"
        )
    rest = [c for c in range(52) if not (mask | (1 << up)) >> c & 1]
    hands = [0, 0, 0, 0]
    hands[seat] = mask
    if dealer != seat:
        hands[dealer] = 1 << up
    for s in range(4):
        while s != seat and bin(hands[s]).count("1") < 13:
            hands[s] |= 1 << rest.pop()
    return game.deal(
        0, hands=[format_hand(h) for h in hands], dealer=dealer, turn_up=format_card(up)
    )


def candidates(state):
    """``(name, call, trump, declares, trumps_label)`` per variant valued for the seat to move.

    One per legal call, except Abundance: one per trump suit (the advisor
    keeps the best). ``trump`` is the suit the seat would name (-1: none
    to name).
    """
    from ..games.solowhist.constants import (
        ABUNDANCE_CALL,
        ABUNDANCE_DECLARED_CALL,
        CALL_NAMES,
        MISERE_CALL,
        MISERE_OUVERTE_CALL,
    )

    turn = "SHDC"[int(state.record["turn_up"]) // 13]
    out = []
    for a in state.legal_actions():
        name = CALL_NAMES[a - CALL_BASE]
        if a == ABUNDANCE_CALL:
            out.extend((name, a, s, True, "SHDC"[s]) for s in range(4))
        elif a in (PASS, DECLINE):
            out.append((name, a, -1, False, ""))
        elif a >= TRUMP_BASE:
            out.append((name, a, -1, True, "SHDC"[a - TRUMP_BASE]))
        elif a in (MISERE_CALL, MISERE_OUVERTE_CALL, ABUNDANCE_DECLARED_CALL):
            out.append((name, a, -1, True, "NT"))
        else:
            out.append((name, a, -1, True, turn))
    return out
