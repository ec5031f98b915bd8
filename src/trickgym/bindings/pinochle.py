"""Pinochle's kernels for the game protocol: every hook the generic kernels call."""

from __future__ import annotations

from trickgym.agents.mc.sample_pinochle import candidates, determinize
from trickgym.agents.rule.pinochle import RuleOptions
from trickgym.agents.rule.pinochle import rule_action as rule_policy
from trickgym.envs.vector.pinochle import start_match
from trickgym.games.pinochle import rules
from trickgym.games.pinochle.constants import CALL_BASE
from trickgym.games.pinochle.encode import encode_kernel
from trickgym.games.pinochle.state import OBS_DTYPE, STATE_DTYPE
from trickgym.protocol import register
from trickgym.solvers.points_pinochle import POINT_HOOKS

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
    oracle_solves="trickgym.agents.pinochle:oracle_solves",
    determinize=determinize,
    start_deal="trickgym.sim.pinochle:start_deal",
    write_row="trickgym.sim.pinochle:write_row",
    candidates=candidates,
    start_match=start_match,
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
    advise_settle="trickgym.advisor.pinochle:settle",
    advise_outcome="trickgym.advisor.pinochle:outcome",
)
