"""Solo Whist's kernels for the game protocol: every hook the generic kernels call."""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.agents.mc.sample_solowhist import determinize
from trickgym.agents.rule.solowhist import rule_action as rule_policy
from trickgym.envs.vector.hooks import deal_episode_over, deal_payoff
from trickgym.envs.vector.solowhist import new_episode
from trickgym.games.solowhist import rules
from trickgym.games.solowhist.constants import CALL_BASE
from trickgym.games.solowhist.encode import encode_kernel
from trickgym.games.solowhist.state import OBS_DTYPE, STATE_DTYPE
from trickgym.protocol import register


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
    # the features of row j: scores are the game's wide (non-int8) arrays
    encode_kernel(observations, j, buf[j], scalars[j], wide[0][j])


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
    oracle_action="trickgym.agents.solowhist:oracle_move",
    oracle_no_table="trickgym.agents.solowhist:oracle_no_table",
    oracle_table="trickgym.agents.solowhist:oracle_table",
    is_legal=rules.is_legal,
    match_over=rules.match_over,
    next_deal=rules.next_deal,
    observe=rules.observe,
    determinize=determinize,
    candidates=rules.legal_sets,
    leaf="trickgym.agents.solowhist_dd:leaf_payoffs",
    encode=_encode,
    new_episode=new_episode,
    episode_over=deal_episode_over,
    episode_reward=deal_payoff,
)
