"""Pinochle's kernels for the game protocol: every hook the generic kernels call."""

from __future__ import annotations

from trickgym.agents.mc.sample_pinochle import candidates, determinize
from trickgym.agents.rule.pinochle import RuleOptions, rule_action
from trickgym.envs.vector.pinochle import start_match
from trickgym.games import pinochle as game
from trickgym.protocol import register_game
from trickgym.solvers.points_pinochle import POINT_HOOKS

from . import POINTS_ORACLE

#: The rule agent's options dataclass, for the Python side (trickgym.api.Game.rule_options:
#: the games layer cannot import its agents).
RULE_OPTIONS = RuleOptions

# Solvers, the oracle and the advisor are named as "module:kernel": imported only when a
# kernel that calls them is compiled, so rule and random runs never load a solver.
register_game(
    game,
    encode_wide=4,
    rule_policy=rule_action,
    in_card_play=game.rules.in_card_play,
    determinize=determinize,
    start_match=start_match,
    candidates=candidates,
    start_deal="trickgym.sim.pinochle:start_deal",
    write_row="trickgym.sim.pinochle:write_row",
    **POINTS_ORACLE,
    oracle_solves="trickgym.agents.pinochle:oracle_solves",
    advise_settle="trickgym.advisor.pinochle:settle",
    advise_outcome="trickgym.advisor.pinochle:outcome",
    advise_solver="trickgym.advisor.solve_points:new_solver",
    advise_solve="trickgym.advisor.solve_points:pinochle_solve",
    **POINT_HOOKS,
)
