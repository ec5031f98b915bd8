"""Phat's one description: what the package reads of the game beside its rules."""

from __future__ import annotations

from ...protocol import GameDescription
from ..description import POINTS_ORACLE, point_solver
from .game import Phat, PhatOptions

__all__ = ["DESCRIPTION"]

DESCRIPTION = GameDescription(
    name="phat",
    game=Phat,
    options=PhatOptions,
    rules="trickgym.games.phat.rules",
    encode_wide=4,
    kernels={
        "rule_policy": "trickgym.agents.rule.phat:rule_action",
        "in_card_play": "trickgym.games.phat.rules:in_card_play",
        "determinize": "trickgym.agents.mc.sample_phat:determinize",
        "start_match": "trickgym.envs.vector.phat:start_match",
        "episode_over": "trickgym.envs.vector.phat:episode_over",
        "episode_reward": "trickgym.envs.vector.phat:episode_reward",
        **POINTS_ORACLE,
        "oracle_solves": "trickgym.agents.phat:oracle_solves",
        "rollout_cards": "trickgym.agents.phat:rollout_cards",
        "side_play": "trickgym.games.phat.rules:in_card_play",  # every card play has a side
        "advise_settle": "trickgym.advisor.phat:settle",
        "advise_outcome": "trickgym.advisor.phat:outcome",
        "advise_solver": "trickgym.advisor.solve_points:new_solver",
        "advise_solve": "trickgym.advisor.solve_points:phat_solve",
        # simulate(dd=True): the first lead rebuilt from a row, then solved
        "dd_first_lead": "trickgym.sim.dd_columns_points:phat_first_lead",
        "dd_made": "trickgym.sim.dd_columns_points:phat_made",
        "dd_solve": "trickgym.sim.dd_columns_points:phat_solve",
        **point_solver("trickgym.solvers.points_phat:POINT_HOOKS"),
    },
    rule_options="trickgym.agents.rule.phat:RuleOptions",
    sim="trickgym.sim.specs.PHAT",
    envs=(
        (
            "trickgym/Phat-v0",
            "trickgym.envs.phat.PhatEnv",
            "trickgym.envs.vector.phat.PhatVectorEnv",
        ),
    ),
    compile_cpu=20,
    compile_seconds=(15, 65),
    columns=frozenset({"pitcher", "phat_ns"}),
    # Its rows are races to 181 with pitches, not bids: the analysis reads them through
    # this module (pitches as bids, the race's tables).
    analysis="trickgym.analysis.phat",
    # Cards in the hand to move from which a full point-trick solve fits the agents'
    # budget (trickgym.agents.solved_points; per table size for Troggu).
    solve_lines={"pimc": 9, "oracle": 11, "oracle_rollout": 7},
    # The hf_* columns of its simulation rows, of the declarer's hand as dealt (see
    # trickgym.sim.features), with what each means.
    hand_features={
        "hf_trump_len": "cards of the trump suit (the suit of the pitcher's first card)",
        "hf_hcp": "high-card points of the pitcher's hand: A 4, K 3, Q 2, J 1",
        "hf_voids": "suits the pitcher's hand has no card of",
    },
)
