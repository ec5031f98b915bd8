"""Troggu part of the hand advisor: Pass, Tapp and Solo valued on sampled deals.

For each deal drawn consistently with the seat's observation
(:func:`trickgym.agents.mc.sample_troggu.determinize`: the Tapp is unseen,
dealt with the other hands) and each candidate call:

- **Tapp** or **Solo** stands: every other seat passes, so the seat
  declares; the rule agents do the Tappist's discard and (7-8 players)
  partner call and play the deal at every seat. The contract is made when
  the declarer side's card points exceed half (57 of 114, rules §7);
  ``mean_points`` is the mean of those points (a Soloist's include the
  unseen Tapp);
- **Pass** lets the rule agents finish the round (all passing: Misère, or
  with 7-8 players a forced Tapp); only the seat's expected payoff is
  reported.

The payoff is the game's own (``rules._end_deal``). There is no
double-dummy solver for Troggu yet (``play="dd"`` is refused);
``play="pimc"`` plays with PIMC agents in Python.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from trickgym.agents.loops import rule_act as act_rule
from trickgym.agents.mc.sample_troggu import determinize

from ..games.troggu.constants import AUCTION, DEAL_OVER, NO_CONTRACT, PASS
from ..games.troggu.rules import apply_action
from ..games.troggu.state import OBS_DTYPE, STATE_DTYPE
from ..rng import derive_seed
from .advise_common import EXACT, PASSED_OUT

__all__ = [
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


@njit(cache=True)
def settle(t, seat, call, rng, scratch, params):
    """Apply ``call`` for ``seat`` to ``t``; Tapp or Solo stands (the others pass), Pass not."""
    apply_action(t, call)
    while t.phase == AUCTION:
        p = t.to_move
        a = PASS if call != PASS else act_rule(t, p, rng, scratch, params)
        apply_action(t, a)


@njit(cache=True)
def evaluate(t, seat, call, rng, scratch, params):
    """``(status, points, made, payoff)`` of ``call`` by ``seat`` on the full deal ``t``."""
    settle(t, seat, call, rng, scratch, params)
    while t.phase != DEAL_OVER:
        apply_action(t, act_rule(t, t.to_move, rng, scratch, params))
    if t.contract == NO_CONTRACT:
        return PASSED_OUT, -1, False, t.payoffs[seat]
    return EXACT, t.declarer_points, t.made, t.payoffs[seat]


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
    out["status"][i, v] = EXACT
    out["tricks"][i, v] = int(record["declarer_points"])
    out["made"][i, v] = bool(record["made"])
    out["payoff"][i, v] = int(record["payoffs"][seat])


def state_for(game, hand, seat, dealer, turn_up):
    """A Troggu deal in which ``seat`` holds ``hand`` (the others' cards and the Tapp fixed)."""
    from ..cards.decks import TAROT
    from ..cards.notation import format_hand
    from ..games.dealing import check_hands
    from ..games.troggu.constants import HAND_SIZE

    if turn_up is not None:
        raise ValueError(f"Troggu has no turn-up card: leave turn_up out (got {turn_up!r})")
    n = game.n_seats
    size = HAND_SIZE[n]
    (mask,) = check_hands([("hand", hand, size)], TAROT, need=f"a Troggu hand of {n} players has")
    rest = [c for c in range(62) if not mask >> c & 1]
    hands = [0] * n
    hands[seat] = mask
    for s in range(n):
        while s != seat and bin(hands[s]).count("1") < size:
            hands[s] |= 1 << rest.pop()
    tapp = sum(1 << c for c in rest)
    return game.deal(
        0,
        hands=[format_hand(h, TAROT) for h in hands],
        tapp=format_hand(tapp, TAROT),
        dealer=dealer,
    )


def candidates(state):
    """``(name, call, trump, declares, trumps_label)`` per legal call: Pass, Tapp, Solo."""
    return [(state.action_name(a), a, -1, a != PASS, "") for a in state.legal_actions()]
