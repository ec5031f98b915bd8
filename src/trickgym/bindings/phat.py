"""Phat's kernels for the game protocol: every hook the generic kernels call."""

from __future__ import annotations

from trickgym.agents.mc.sample_phat import determinize
from trickgym.agents.rule.phat import RuleOptions
from trickgym.agents.rule.phat import rule_action as rule_policy
from trickgym.envs.vector.phat import episode_over, episode_reward, start_match
from trickgym.games.phat import rules
from trickgym.games.phat.constants import CALL_BASE
from trickgym.games.phat.encode import encode_kernel
from trickgym.games.phat.state import OBS_DTYPE, STATE_DTYPE
from trickgym.protocol import register
from trickgym.solvers.points_phat import POINT_HOOKS

from . import POINTS_ORACLE

# Solvers and the oracle are named as "module:kernel": imported only when a kernel that
# calls them is compiled, so rule and random runs never load a solver.
register(
    STATE_DTYPE,
    OBS_DTYPE,
    rules=rules,
    call_base=CALL_BASE,
    encode_kernel=encode_kernel,
    encode_wide=4,
    rule_policy=rule_policy,
    **POINTS_ORACLE,
    oracle_solves="trickgym.agents.phat:oracle_solves",
    determinize=determinize,
    start_match=start_match,
    episode_over=episode_over,
    episode_reward=episode_reward,
    **POINT_HOOKS,
)

# The rule agent's options dataclass, for the Python side (trickgym.api.Game.rule_options:
# the games layer cannot import its agents).
RULE_OPTIONS = RuleOptions

# The hand advisor's hooks (trickgym.advisor.kernels), imported by advisor runs only.
from trickgym.protocol import register_more  # noqa: E402

register_more(
    STATE_DTYPE,
    OBS_DTYPE,
    advise_settle="trickgym.advisor.phat:settle",
    advise_outcome="trickgym.advisor.phat:outcome",
)
