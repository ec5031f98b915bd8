"""The oracle above its solve line: stochastic rollouts of the true deal, reproducible per seed.

(Its solved card play is tested in test_points_agents.)
"""

from __future__ import annotations

import numpy as np

import trickgym
from trickgym.agents.oracle import (
    COUNT_ROLLOUTS,
    N_COUNTS,
    ORACLE_ROLLOUTS,
    oracle_counts,
    points_no_table,
    points_table,
    rollout_value,
)
from trickgym.engine.kinds import ORACLE
from trickgym.engine.loops import act
from trickgym.engine.params import params_matrix


def _scratch(game):
    return params_matrix(game, game.n_seats), np.empty(1, dtype=game.obs_dtype)


def test_oracle_rollouts_differ_and_its_calls_repeat():
    game = trickgym.game("troggu", players=4)
    state = game.deal(seed=5)  # the auction's first call
    seat = state.current_player
    params, obs = _scratch(game)
    lines = set()
    for seed in range(6):
        trial = state.array.copy()
        rng = np.array([seed], dtype=np.uint64)
        table = points_table(trial[0], points_no_table(trial[0]))
        rollout_value(trial, seat, rng, obs, params, table)
        # Where the rollout stopped (the deal's end, or the solve line): its cards played.
        lines.add(tuple(trial[0][f].tobytes() for f in ("played", "won", "hands")))
    assert len(lines) > 1  # one deal, several lines of play: the rollouts carry information
    picks = []
    for _ in range(2):
        rng = np.array([9], dtype=np.uint64)
        picks.append(int(act(ORACLE, state.array[0], seat, rng, obs, params, True)))
        assert rng[0] != 9  # advanced: the next decision draws anew
    assert picks[0] == picks[1]
    assert picks[0] in state.legal_actions()
    # Every legal call valued by ORACLE_ROLLOUTS rollouts, counted; the same call again.
    counts = np.zeros(N_COUNTS, dtype=np.int64)
    rng = np.array([9], dtype=np.uint64)
    assert oracle_counts(state.array[0], seat, rng, obs, params, counts) == picks[0]
    assert counts[COUNT_ROLLOUTS] == ORACLE_ROLLOUTS * len(state.legal_actions())
