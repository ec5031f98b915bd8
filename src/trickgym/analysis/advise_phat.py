"""Phat part of the hand advisor: the pitch, which suit (and card) to lead first.

Phat has no auction: the pitcher's first card names trumps, and that is
the seat's only decision before the play. For each deal drawn consistently
with the seat's observation (:func:`trickgym.agents.mc.sample_phat.determinize`)
and each card the pitcher could lead, the card is led and the rule agents
play the deal out at every seat. A row per suit held ("Pitch S": spades
trumps) keeps the card of that suit with the highest expected payoff
(column ``card``). "Made" is the pitching team taking more phat in the
deal than the other (as in :func:`trickgym.analysis.pitch_frame`);
``mean_points`` is the pitching team's phat; the payoff is the game's own
(the seat's team's deal points, muck bonus included, less the other's).
There is no double-dummy solver for Phat (``play="dd"`` is refused);
``play="pimc"`` plays with PIMC agents in Python.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from trickgym.agents.loops import rule_act as act_rule
from trickgym.agents.mc.sample_phat import determinize

from ..games.phat.constants import DEAL_OVER
from ..games.phat.rules import apply_action
from ..games.phat.state import OBS_DTYPE, STATE_DTYPE
from ..rng import derive_seed
from .advise_common import EXACT

__all__ = [
    "ADVISES_CARDS",
    "CARD_COLUMN",
    "HAS_DD",
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
ADVISES_CARDS = True  # the pitch is a card
CARD_COLUMN = True  # rows keep the best card of each suit


@njit(cache=True)
def settle(t, seat, call, rng, scratch, params):
    """The pitch: ``seat`` leads card ``call``."""
    apply_action(t, call)


@njit(cache=True)
def evaluate(t, seat, call, rng, scratch, params):
    """``(status, phat, made, payoff)`` of pitching ``call`` by ``seat`` on the full deal ``t``."""
    settle(t, seat, call, rng, scratch, params)
    while t.phase != DEAL_OVER:
        apply_action(t, act_rule(t, t.to_move, rng, scratch, params))
    team = seat % 2
    return EXACT, t.phat[team], t.phat[team] > t.phat[1 - team], t.payoffs[seat]


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
    """Store the outcome of the finished deal ``record`` (played in Python) at ``[i, v]``."""
    team = seat % 2
    phat = record["phat"]
    out["status"][i, v] = EXACT
    out["tricks"][i, v] = int(phat[team])
    out["made"][i, v] = bool(phat[team] > phat[1 - team])
    out["payoff"][i, v] = int(record["payoffs"][seat])


def state_for(game, hand, seat, dealer, turn_up):
    """A Phat deal in which ``seat`` holds ``hand``; the pitcher is the dealer's left."""
    from ..cards.decks import STANDARD
    from ..cards.notation import format_hand
    from ..games.dealing import check_hands

    if turn_up is not None:
        raise ValueError(f"Phat has no turn-up card: leave turn_up out (got {turn_up!r})")
    if (dealer + 1) % 4 != seat:
        raise ValueError(
            f"in Phat the only decision before the play is the pitch, by the dealer's left: "
            f"seat {seat} pitches when the dealer is seat {(seat - 1) % 4}, not {dealer}"
        )
    (mask,) = check_hands([("hand", hand, 13)], STANDARD, need="a Phat hand has")
    rest = [c for c in range(52) if not mask >> c & 1]
    hands = [0] * 4
    hands[seat] = mask
    for s in range(4):
        while s != seat and bin(hands[s]).count("1") < 13:
            hands[s] |= 1 << rest.pop()
    return game.deal(0, hands=[format_hand(h) for h in hands], pitcher=seat)


def candidates(state):
    """``(name, call, trump, declares, trumps_label)``: every card, grouped by suit."""
    out = []
    for a in state.legal_actions():
        suit = "SHDC"[a // 13]
        out.append((f"Pitch {suit}", a, -1, True, suit))
    return out
