"""Solo Whist's one description: what the package reads of the game beside its rules."""

from __future__ import annotations

from ...protocol import GameDescription
from .game import SoloWhist, SoloWhistOptions

__all__ = ["DESCRIPTION"]

DESCRIPTION = GameDescription(
    name="solowhist",
    game=SoloWhist,
    options=SoloWhistOptions,
    rules="trickgym.games.solowhist.rules",
    encode_wide=1,
    kernels={
        "rule_policy": "trickgym.agents.rule.solowhist:rule_action",
        "in_card_play": "trickgym.games.solowhist.rules:in_card_play",
        "determinize": "trickgym.agents.mc.sample_solowhist:determinize",
        "start_match": "trickgym.envs.vector.solowhist:start_match",
        "start_deal": "trickgym.sim.solowhist:start_deal",
        "write_row": "trickgym.sim.solowhist:write_row",
        "leaf": "trickgym.agents.solved_solowhist:leaf_payoffs",
        "oracle_action": "trickgym.agents.solowhist:oracle_move",
        "oracle_no_table": "trickgym.agents.solowhist:oracle_no_table",
        "oracle_table": "trickgym.agents.solowhist:oracle_table",
        "advise_settle": "trickgym.advisor.solowhist:settle",
        "advise_outcome": "trickgym.advisor.solowhist:outcome",
        "advise_solver": "trickgym.advisor.solve_solowhist:new_solver",
        "advise_solve": "trickgym.advisor.solve_solowhist:solve",
    },
    rule_options="trickgym.agents.rule.solowhist:RuleOptions",
    sim="trickgym.sim.specs.SOLOWHIST",
    envs=(
        (
            "trickgym/SoloWhist-v0",
            "trickgym.envs.solowhist.SoloWhistEnv",
            "trickgym.envs.vector.solowhist.SoloWhistVectorEnv",
        ),
    ),
    compile_cpu=25,
    compile_seconds=(20, 90),
    feature_compile={"match": (7, (5, 25)), "dd": (30, (30, 110))},
    # BGA's dealing: whole matches, a kernel of their own (one match of the default table).
    warm_runs=({"deals": SoloWhistOptions().num_deals, "dealing": "match"},),
    columns=frozenset({"turn_up", "declarer_tricks"}),
    # The hf_* columns of its simulation rows, of the declarer's hand as dealt (see
    # trickgym.sim.features), with what each means.
    hand_features={
        "hf_trump_len": "cards of the trump suit in the declarer's hand as dealt",
        "hf_trump_top": "how many of A K Q J of trumps the declarer holds",
        "hf_hcp": "high-card points of the hand: A 4, K 3, Q 2, J 1",
        "hf_voids": "suits the hand has no card of",
        "hf_singletons": "suits with exactly one card",
        "hf_longest": "cards of the hand's longest suit",
    },
)
