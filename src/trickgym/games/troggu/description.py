"""Troggu's one description: what the package reads of the game beside its rules."""

from __future__ import annotations

from ...protocol import GameDescription
from ..description import POINTS_ORACLE, point_solver
from .game import Troggu, TrogguOptions

__all__ = ["DESCRIPTION"]

DESCRIPTION = GameDescription(
    name="troggu",
    game=Troggu,
    options=TrogguOptions,
    rules="trickgym.games.troggu.rules",
    encode_wide=2,
    kernels={
        "rule_policy": "trickgym.agents.rule.troggu:rule_action",
        "in_card_play": "trickgym.games.troggu.rules:in_card_play",
        "determinize": "trickgym.agents.mc.sample_troggu:determinize",
        "start_match": "trickgym.envs.vector.troggu:start_match",
        "start_deal": "trickgym.sim.troggu:start_deal",
        "write_row": "trickgym.sim.troggu:write_row",
        **POINTS_ORACLE,
        "oracle_solves": "trickgym.agents.troggu:oracle_solves",
        "rollout_cards": "trickgym.agents.troggu:rollout_cards",
        "side_play": "trickgym.agents.troggu:side_play",
        "advise_settle": "trickgym.advisor.troggu:settle",
        "advise_outcome": "trickgym.advisor.troggu:outcome",
        "advise_solver": "trickgym.advisor.solve_points:new_solver",
        "advise_solve": "trickgym.advisor.solve_points:troggu_solve",
        # simulate(dd=True): the first lead rebuilt from a row, then solved
        "dd_first_lead": "trickgym.sim.dd_columns_points:troggu_first_lead",
        "dd_made": "trickgym.sim.dd_columns_points:troggu_made",
        "dd_solve": "trickgym.sim.dd_columns_points:plain_solve",
        **point_solver("trickgym.solvers.points_troggu:POINT_HOOKS"),
    },
    rule_options="trickgym.agents.rule.troggu:RuleOptions",
    sim="trickgym.sim.specs.TROGGU",
    envs=(
        (
            "trickgym/Troggu-v0",
            "trickgym.envs.troggu.TrogguEnv",
            "trickgym.envs.vector.troggu.TrogguVectorEnv",
        ),
    ),
    compile_cpu=25,
    compile_seconds=(20, 90),
    # The kernels take the table size as a run-time argument (one compile serves 3 to 8
    # players: a 7-player run after a 4-player one compiles nothing): one size warms all.
    warm_tables=({"players": 4},),
    warm_choices={"players": "players"},
    columns=frozenset({"players", "declarer_points"}),
    # Cards in the hand to move from which a full point-trick solve fits the agents'
    # budget (trickgym.agents.solved_points; per table size for Troggu).
    solve_lines={
        "pimc": (0, 0, 0, 9, 6, 6, 5, 5, 5),
        "oracle": (0, 0, 0, 12, 8, 7, 6, 6, 6),
        "oracle_rollout": (0, 0, 0, 9, 6, 5, 5, 4, 4),
    },
    # The hf_* columns of its simulation rows, of the declarer's hand as dealt (see
    # trickgym.sim.features), with what each means.
    hand_features={
        "hf_trumps": "trumps I..XXI held (the Fool not counted)",
        "hf_high_trumps": "trumps XV..XXI held",
        "hf_fool": "1 if the declarer holds the Fool, else 0",
        "hf_kings": "Kings held",
    },
)
