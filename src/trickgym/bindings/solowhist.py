"""Solo Whist's kernels for the game protocol: every hook the generic kernels call."""

from __future__ import annotations

from trickgym.agents.mc.sample_solowhist import determinize
from trickgym.agents.rule.solowhist import RuleOptions
from trickgym.agents.rule.solowhist import rule_action as rule_policy
from trickgym.envs.vector.solowhist import start_match
from trickgym.games.solowhist import rules
from trickgym.games.solowhist.constants import CALL_BASE
from trickgym.games.solowhist.encode import encode_kernel
from trickgym.games.solowhist.state import OBS_DTYPE, STATE_DTYPE
from trickgym.protocol import register

# Solvers and the oracle are named as "module:kernel": imported only when a kernel that
# calls them is compiled, so rule and random runs never load a solver.
register(
    STATE_DTYPE,
    OBS_DTYPE,
    rules=rules,
    call_base=CALL_BASE,
    encode_kernel=encode_kernel,
    encode_wide=1,
    rule_policy=rule_policy,
    oracle_action="trickgym.agents.solowhist:oracle_move",
    oracle_no_table="trickgym.agents.solowhist:oracle_no_table",
    oracle_table="trickgym.agents.solowhist:oracle_table",
    determinize=determinize,
    start_deal="trickgym.sim.solowhist:start_deal",
    write_row="trickgym.sim.solowhist:write_row",
    leaf="trickgym.agents.solowhist_dd:leaf_payoffs",
    start_match=start_match,
)

# The rule agent's options dataclass, for the Python side (trickgym.api.Game.rule_options:
# the games layer cannot import its agents).
RULE_OPTIONS = RuleOptions

# The hand advisor's hooks (trickgym.advisor.kernels), imported by advisor runs only (and
# the solver's by its double-dummy runs only).
from trickgym.protocol import register_more  # noqa: E402

register_more(
    STATE_DTYPE,
    OBS_DTYPE,
    advise_settle="trickgym.advisor.solowhist:settle",
    advise_outcome="trickgym.advisor.solowhist:outcome",
    advise_solver="trickgym.advisor.solowhist_dd:new_solver",
    advise_solve="trickgym.advisor.solowhist_dd:solve",
)
