"""Pinochle's one description: what the package reads of the game beside its rules."""

from __future__ import annotations

from ...protocol import GameDescription
from ..description import POINTS_ORACLE, point_solver
from .game import Pinochle, PinochleOptions

__all__ = ["DESCRIPTION"]

DESCRIPTION = GameDescription(
    name="pinochle",
    game=Pinochle,
    options=PinochleOptions,
    rules="trickgym.games.pinochle.rules",
    encode_wide=4,
    kernels={
        "rule_policy": "trickgym.agents.rule.pinochle:rule_action",
        "in_card_play": "trickgym.games.pinochle.rules:in_card_play",
        "determinize": "trickgym.agents.mc.sample_pinochle:determinize",
        "candidates": "trickgym.agents.mc.sample_pinochle:candidates",
        "start_match": "trickgym.envs.vector.pinochle:start_match",
        "start_deal": "trickgym.sim.pinochle:start_deal",
        "write_row": "trickgym.sim.pinochle:write_row",
        **POINTS_ORACLE,
        "oracle_solves": "trickgym.agents.pinochle:oracle_solves",
        "rollout_cards": "trickgym.agents.pinochle:rollout_cards",
        "side_play": "trickgym.games.pinochle.rules:in_card_play",  # every card play has a side
        "advise_settle": "trickgym.advisor.pinochle:settle",
        "advise_outcome": "trickgym.advisor.pinochle:outcome",
        "advise_solver": "trickgym.advisor.solve_points:new_solver",
        "advise_solve": "trickgym.advisor.solve_points:pinochle_solve",
        # simulate(dd=True): the first lead rebuilt from a row, then solved
        "dd_first_lead": "trickgym.sim.dd_columns_points:pinochle_first_lead",
        "dd_made": "trickgym.sim.dd_columns_points:pinochle_made",
        "dd_solve": "trickgym.sim.dd_columns_points:plain_solve",
        **point_solver("trickgym.solvers.points_pinochle:POINT_HOOKS"),
    },
    rule_options="trickgym.agents.rule.pinochle:RuleOptions",
    sim="trickgym.sim.specs.PINOCHLE",
    envs=(
        (
            "trickgym/Pinochle-v0",
            "trickgym.envs.pinochle.PinochleEnv",
            "trickgym.envs.vector.pinochle.PinochleVectorEnv",
        ),
    ),
    compile_cpu=25,
    compile_seconds=(20, 90),
    feature_compile={"races": (7, (5, 25))},
    warm_tables=({"mode": "kitty"}, {"mode": "exchange"}),
    # The learnt agent's guards: the auction's candidates, no bid over one's partner.
    learnt_guards="trickgym.agents.learnt.guards_pinochle",
    warm_choices={"modes": "mode"},
    # Races to the target: a kernel of their own, whatever the target; a low one, as
    # random agents might not reach 1500 in the hands allowed.
    warm_runs=({"matches": 1, "target": 10},),
    columns=frozenset({"bid", "meld_ns"}),
    # Cards in the hand to move from which a full point-trick solve fits the agents'
    # budget (trickgym.agents.solved_points; per table size for Troggu).
    solve_lines={"pimc": 8, "oracle": 10, "oracle_rollout": 7},
    # The hf_* columns of its simulation rows, of the declarer's hand as dealt (see
    # trickgym.sim.features), with what each means.
    hand_features={
        "hf_meld": "meld of the hand as dealt, in the declared trump",
        "hf_trump_len": "cards of the trump suit, both copies counted",
        "hf_aces": "Aces held (0..8)",
    },
)
