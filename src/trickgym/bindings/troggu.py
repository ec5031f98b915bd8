"""Troggu's kernels for the game protocol: every hook the generic kernels call."""

from __future__ import annotations

from numba import njit

from trickgym.agents.mc.playout import rule_leaf
from trickgym.agents.mc.sample_troggu import determinize
from trickgym.agents.troggu import _act_rule as act_rule
from trickgym.agents.troggu import act_troggu
from trickgym.envs.vector.hooks import deal_episode_over, deal_payoff
from trickgym.envs.vector.troggu import new_episode
from trickgym.games.troggu import rules
from trickgym.games.troggu.constants import CALL_BASE
from trickgym.games.troggu.encode import encode_kernel
from trickgym.games.troggu.state import OBS_DTYPE, STATE_DTYPE
from trickgym.protocol import register
from trickgym.solvers.points_troggu import POINT_HOOKS


@njit(cache=True)
def _call_base(state):
    return CALL_BASE


@njit(cache=True)
def _encode(observations, j, buf, scalars, wide):
    # the features of row j: points, scores are the game's wide (non-int8) arrays
    encode_kernel(observations, j, buf[j], scalars[j], wide[0][j], wide[1][j])


register(
    STATE_DTYPE,
    OBS_DTYPE,
    legal_sets=rules.legal_sets,
    apply_action=rules.apply_action,
    deal_over=rules.deal_over,
    call_base=_call_base,
    is_legal=rules.is_legal,
    match_over=rules.match_over,
    next_deal=rules.next_deal,
    observe=rules.observe,
    rule_action=act_rule,
    act=act_troggu,
    determinize=determinize,
    candidates=rules.legal_sets,
    leaf=rule_leaf,
    encode=_encode,
    new_episode=new_episode,
    episode_over=deal_episode_over,
    episode_reward=deal_payoff,
    **POINT_HOOKS,
)
