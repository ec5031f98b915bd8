"""Pinochle's kernels for the game protocol: every hook the generic kernels call."""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.agents.mc.playout import rule_leaf
from trickgym.agents.mc.sample_pinochle import candidates, determinize
from trickgym.agents.rule.pinochle import rule_action as rule_policy
from trickgym.envs.vector.hooks import deal_episode_over, deal_payoff
from trickgym.envs.vector.pinochle import new_episode
from trickgym.games.pinochle import rules
from trickgym.games.pinochle.constants import CALL_BASE
from trickgym.games.pinochle.encode import encode_kernel
from trickgym.games.pinochle.state import OBS_DTYPE, STATE_DTYPE
from trickgym.protocol import register
from trickgym.solvers.points_pinochle import POINT_HOOKS


@njit(cache=True)
def _call_base(state):
    return CALL_BASE


@njit(cache=True)
def _new_states(state):
    return np.empty(1, dtype=STATE_DTYPE)


@njit(cache=True)
def _new_obs(state):
    return np.empty(1, dtype=OBS_DTYPE)


@njit(cache=True)
def _encode(observations, j, buf, scalars, wide):
    # the features of row j: auction, meld, bids, scores are the game's wide (non-int8) arrays
    encode_kernel(
        observations, j, buf[j], scalars[j], wide[0][j], wide[1][j], wide[2][j], wide[3][j]
    )


# Solvers and the oracle are named as "module:kernel": imported only when a kernel that
# calls them is compiled, so rule and random runs never load a solver.
register(
    STATE_DTYPE,
    OBS_DTYPE,
    legal_sets=rules.legal_sets,
    apply_action=rules.apply_action,
    deal_over=rules.deal_over,
    call_base=_call_base,
    new_states=_new_states,
    new_obs=_new_obs,
    observe_core=rules.observe_core,
    rule_policy=rule_policy,
    oracle_action="trickgym.agents.oracle:points_oracle",
    oracle_no_table="trickgym.agents.oracle:points_no_table",
    oracle_table="trickgym.agents.oracle:points_table",
    oracle_solves="trickgym.agents.pinochle:oracle_solves",
    is_legal=rules.is_legal,
    match_over=rules.match_over,
    next_deal=rules.next_deal,
    observe=rules.observe,
    determinize=determinize,
    candidates=candidates,
    leaf=rule_leaf,
    encode=_encode,
    new_episode=new_episode,
    episode_over=deal_episode_over,
    episode_reward=deal_payoff,
    **POINT_HOOKS,
)
