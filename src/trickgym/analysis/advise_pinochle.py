"""Pinochle part of the hand advisor: each bid level the seat could make, valued on sampled deals.

For each deal drawn consistently with the seat's observation
(:func:`trickgym.agents.mc.sample_pinochle.determinize`) and each candidate
call:

- a **bid** stands: every other seat passes, so the seat declares at that
  level; then the rule agents name trumps, bury the kitty (or pass cards)
  and play the hand at every seat. The contract is made when the declaring
  team's points (its meld, if saved by a trick, plus counters, the kitty's
  buried counters and the last trick) reach the bid; ``mean_points`` is
  the mean of those points;
- **Pass** lets the rule agents finish the auction and play the hand; only
  the seat's expected payoff is reported.

The payoff is the game's own: the seat's team's hand score less the other
team's (``rules._score_hand``). Rows: Pass (when legal) and the lowest
``LEVELS`` legal bids (a higher bid is made on a subset of the deals a
lower one is made on, with the same play). There is no double-dummy solver
for Pinochle yet (``play="dd"`` is refused); ``play="pimc"`` plays with PIMC
agents in Python.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from trickgym.agents.loops import rule_act as act_rule
from trickgym.agents.mc.sample_pinochle import determinize

from ..games.pinochle.constants import AUCTION, HAND_OVER, PASS
from ..games.pinochle.rules import apply_action
from ..games.pinochle.state import OBS_DTYPE, STATE_DTYPE
from ..rng import derive_seed
from .advise_common import EXACT, PASSED_OUT

__all__ = [
    "HAS_DD",
    "LEVELS",
    "MEAN",
    "advise_block",
    "candidates",
    "evaluate",
    "record_outcome",
    "settle_sampled",
    "state_for",
]

HAS_DD = False
MEAN = "mean_points"
LEVELS = 16  # bid levels shown (250..400 at the opening)


@njit(cache=True)
def settle(t, seat, call, rng, scratch, params):
    """Apply ``call`` for ``seat`` to ``t``; a bid stands (the others pass), Pass lets them bid."""
    apply_action(t, call)
    while t.phase == AUCTION:
        p = t.to_move
        a = PASS if call != PASS else act_rule(t, p, rng, scratch, params)
        apply_action(t, a)


@njit(cache=True)
def declarer_points(t):
    """The declaring team's points of a finished hand: saved meld plus counters."""
    dc = t.declarer % 2
    return (t.team_meld[dc] if t.saved[dc] else 0) + t.counters[dc]


@njit(cache=True)
def evaluate(t, seat, call, rng, scratch, params):
    """``(status, points, made, payoff)`` of ``call`` by ``seat`` on the full deal ``t``."""
    settle(t, seat, call, rng, scratch, params)
    while t.phase != HAND_OVER:
        apply_action(t, act_rule(t, t.to_move, rng, scratch, params))
    if t.passed_out:
        return PASSED_OUT, -1, False, t.payoffs[seat]
    return EXACT, declarer_points(t), t.made, t.payoffs[seat]


@njit(cache=True, parallel=True, nogil=True)
def advise_block(
    obs, template, params, seed, first, calls, trumps, mode, chunk, log2_buckets,
    node_limit, exact_nodes, status, tricks, made, payoff,
):  # fmt: skip
    """As :func:`trickgym.analysis.advise_solowhist.advise_block`, rule play only.

    ``trumps``, ``mode``, ``log2_buckets``, ``node_limit`` and
    ``exact_nodes`` are unused (the signature is shared by every game part).
    """
    n = status.shape[0]
    seat = obs[0].seat
    n_chunks = (n + chunk - 1) // chunk
    for c in prange(n_chunks):
        base = np.empty(1, dtype=STATE_DTYPE)
        trial = np.empty(1, dtype=STATE_DTYPE)
        scratch = np.empty(1, dtype=OBS_DTYPE)
        memory = np.zeros(4, dtype=np.uint64)
        rng = np.zeros(1, dtype=np.uint64)
        agent_rng = np.zeros(1, dtype=np.uint64)
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            rng[0] = derive_seed(seed, first + i, 0)
            determinize(obs, memory, template, base, rng)
            for v in range(calls.shape[0]):
                trial[0] = base[0]
                agent_rng[0] = derive_seed(seed, first + i, 1)
                st, k, ok, pv = evaluate(trial[0], seat, calls[v], agent_rng, scratch, params)
                status[i, v] = st
                tricks[i, v] = k
                made[i, v] = ok
                payoff[i, v] = pv
    return 0


@njit(cache=True)
def settle_sampled(obs, template, params, seed, deal, call, trump, out):
    """Deal ``deal`` of ``seed`` as in :func:`advise_block`, ``call`` settled, in ``out[0]``."""
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = derive_seed(seed, deal, 0)
    memory = np.zeros(4, dtype=np.uint64)
    determinize(obs, memory, template, out, rng)
    agent_rng = np.zeros(1, dtype=np.uint64)
    agent_rng[0] = derive_seed(seed, deal, 1)
    scratch = np.empty(1, dtype=OBS_DTYPE)
    settle(out[0], obs[0].seat, call, agent_rng, scratch, params)
    return agent_rng[0]


def record_outcome(record, seat, i, v, out):
    """Store the outcome of the finished hand ``record`` (played in Python) at ``[i, v]``."""
    if bool(record["passed_out"]):
        out["status"][i, v] = PASSED_OUT
        out["tricks"][i, v] = -1
    else:
        out["status"][i, v] = EXACT
        dc = int(record["declarer"]) % 2
        saved = bool(record["saved"][dc])
        out["tricks"][i, v] = int(record["team_meld"][dc]) * saved + int(record["counters"][dc])
    out["made"][i, v] = bool(record["made"])
    out["payoff"][i, v] = int(record["payoffs"][seat])


def state_for(game, hand, seat, dealer, turn_up):
    """A Pinochle deal in which ``seat`` holds ``hand`` (the others' cards in a fixed order)."""
    from ..cards.decks import PINOCHLE
    from ..cards.notation import format_hand
    from ..games.dealing import check_hands

    if turn_up is not None:
        raise ValueError(f"Pinochle has no turn-up card: leave turn_up out (got {turn_up!r})")
    kitty_mode = game.options.mode == "kitty"
    size = 11 if kitty_mode else 12
    (mask,) = check_hands(
        [("hand", hand, size)], PINOCHLE, need=f"a Pinochle hand ({game.options.mode} mode) has"
    )
    rest = [c for c in range(48) if not mask >> c & 1]
    hands = [0, 0, 0, 0]
    hands[seat] = mask
    for s in range(4):
        while s != seat and bin(hands[s]).count("1") < size:
            hands[s] |= 1 << rest.pop()
    kitty = sum(1 << c for c in rest)
    return game.deal(
        0,
        hands=[format_hand(h, PINOCHLE) for h in hands],
        kitty=format_hand(kitty, PINOCHLE) if kitty_mode else None,
        dealer=dealer,
    )


def candidates(state):
    """``(name, call, trump, declares, trumps_label)``: Pass and the lowest ``LEVELS`` bids."""
    out = []
    bids = 0
    for a in state.legal_actions():
        if a == PASS:
            out.append(("Pass", a, -1, False, ""))
        elif bids < LEVELS:
            out.append((state.action_name(a), a, -1, True, ""))
            bids += 1
    return out
