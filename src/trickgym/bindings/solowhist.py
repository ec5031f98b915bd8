"""Solo Whist's kernels for the game protocol: every hook the generic kernels call."""

from __future__ import annotations

from trickgym.agents.mc.sample_solowhist import determinize
from trickgym.agents.rule.solowhist import RuleOptions, rule_action
from trickgym.envs.vector.solowhist import start_match
from trickgym.games import solowhist as game
from trickgym.protocol import register_game

#: The rule agent's options dataclass, for the Python side (trickgym.api.Game.rule_options:
#: the games layer cannot import its agents).
RULE_OPTIONS = RuleOptions

# Solvers, the oracle and the advisor are named as "module:kernel": imported only when a
# kernel that calls them is compiled, so rule and random runs never load a solver.
register_game(
    game,
    encode_wide=1,
    rule_policy=rule_action,
    in_card_play=game.rules.in_card_play,
    determinize=determinize,
    start_match=start_match,
    start_deal="trickgym.sim.solowhist:start_deal",
    write_row="trickgym.sim.solowhist:write_row",
    leaf="trickgym.agents.solved_solowhist:leaf_payoffs",
    oracle_action="trickgym.agents.solowhist:oracle_move",
    oracle_no_table="trickgym.agents.solowhist:oracle_no_table",
    oracle_table="trickgym.agents.solowhist:oracle_table",
    advise_settle="trickgym.advisor.solowhist:settle",
    advise_outcome="trickgym.advisor.solowhist:outcome",
    advise_solver="trickgym.advisor.solve_solowhist:new_solver",
    advise_solve="trickgym.advisor.solve_solowhist:solve",
)
