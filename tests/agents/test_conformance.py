"""The built-in agents, in every game configuration: legal, complete, and rule beats random.

Game-specific heuristics (each rule's worked example), bid success and the
games' own strength measures stay in the per-game ``test_rule_<game>.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from conformance_helpers import (
    CONFIGS,
    IDS,
    builtin_action,
    even_minus_odd,
    game_of,
    row_totals_hold,
    sim_count,
)

from trickgym.sim import simulate

pytestmark = pytest.mark.parametrize("config", CONFIGS, ids=IDS)


@pytest.mark.parametrize("kind", ["random", "rule"])
def test_builtin_agents_play_whole_deals_legally(config, kind):
    """Through the Python API, every action of a built-in agent in every seat is legal."""
    game = game_of(config)
    decisions = 0
    for seed in range(6):
        state = game.deal(100 + seed)
        while not state.is_over:
            action = builtin_action(kind, state, state.current_player, seed + 1)
            assert action in state.legal_actions()
            state.apply(action)
            decisions += 1
    assert decisions >= 6 * game.n_seats * 5


def test_rule_agents_simulate_complete_deals(config):
    """Rule agents in every seat, compiled: every row is a whole deal, its totals the rules'."""
    count = 300 if config.unit == "matches" else 2000
    df = simulate(config.name, agents="rule", seed=11, **sim_count(config, count), **config.options)
    assert len(df) >= count
    row_totals_hold(config, df)


def test_rule_beats_random_in_duplicate(config):
    """Rule agents in the even seats, then the odd: they out-earn random ones (95% interval)."""
    n = config.options.get("players", 4)
    count = 400 if config.unit == "matches" else 2500
    seatings = [["rule" if s % 2 == k else "random" for s in range(n)] for k in (0, 1)]
    runs = [
        simulate(config.name, agents=agents, seed=5, **sim_count(config, count), **config.options)
        for agents in seatings
    ]
    a, b = (even_minus_odd(config, run) for run in runs)
    if len(a) == len(b):  # the same deals in both seatings: compare deal by deal
        diff = (a - b) / 2
    else:  # Phat's matches run to different lengths
        diff = np.concatenate([a, -b])
    mean, half = diff.mean(), 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    print(f"{config.id}: rule - random = {mean:.2f} +- {half:.2f} per deal")
    assert mean - half > 0
