"""``simulate(..., dd=True)`` in Phat, Pinochle and Troggu (issue 32, part 5).

The first lead each row is solved from is rebuilt from the row by the
rules; here it is checked against the same deal played by the rule agents
through the Python API, and a solved row against a direct solve. Unsolved
rows (a tiny node budget) are counted, never dropped, and reach the
failure split.
"""

from __future__ import annotations

import numpy as np
import pytest

import trickgym
from trickgym.analysis import failure_split, pitch_frame
from trickgym.engine.loops import rule_choice
from trickgym.engine.params import params_matrix
from trickgym.rng import derive_seed
from trickgym.sim import Agents, RunSpec
from trickgym.sim.dd_columns_points import SOLVED, UNSOLVED, first_lead_at, with_options
from trickgym.sim.plan import rows_to_frame, run_chunk_rows
from trickgym.sim.specs import sim_spec
from trickgym.solvers import solve

SEED = 5


def _rows(name, options, deals, max_nodes, seed=SEED):
    """The raw rows of a rule-agent run (Phat: one whole match); dd ones unless ``max_nodes``
    is None."""
    dd = max_nodes is not None
    matches = 1 if name == "phat" else None
    deals = None if name == "phat" else deals
    agents = Agents("rule", dd=dd, dd_max_nodes=max_nodes)
    spec = RunSpec(name, deals, agents, seed, matches=matches, options=options).plan
    return spec, run_chunk_rows(spec, 0)


def _played_to_first_lead(game, seed):
    """Deal ``seed`` (the simulator's ``start_deal``), the rule agents to the first lead."""
    state = game.deal(int(seed))
    obs = np.zeros(1, dtype=game.obs_dtype)
    params = params_matrix(game.name, game.n_seats)
    rng = np.zeros(1, dtype=np.uint64)
    while int(state.record["phase"]) != game.play_phase:
        p = state.current_player
        game.kernels.observe_at(state.array, 0, p, obs, 0)
        state.apply(rule_choice(obs[0], params, rng))
    return state


FIELDS = {
    "phat": ("hands", "to_move", "leader", "pitcher", "phase"),
    "pinochle": ("hands", "to_move", "leader", "declarer", "bid", "trumps", "discards", "meld"),
    "troggu": ("hands", "to_move", "contract", "declarer", "partner", "won", "called_card"),
}


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("phat", {}),
        ("pinochle", {}),
        ("pinochle", {"mode": "exchange"}),
        ("troggu", {"players": 3}),
        ("troggu", {"players": 5}),
        ("troggu", {"players": 8}),
    ],
)
def test_first_lead_is_rebuilt_from_the_row(name, options):
    game = trickgym.game(name, **options)
    _spec, rows = _rows(name, options, 4, None)
    rows = with_options(game, rows, sim_spec(game).dd_options)
    states = np.zeros(1, dtype=game.state_dtype)
    checked = 0
    for i in range(1 if name == "phat" else len(rows)):  # a match's later deals: no seed
        played = _played_to_first_lead(game, derive_seed(np.uint64(SEED), i, 0))
        assert (played.record["initial_hands"] == rows[i]["hands"]).all()
        status = first_lead_at(rows, i, states)
        if status != SOLVED:
            assert name == "troggu" and int(played.record["contract"]) == 1  # Misère
            continue
        for field in FIELDS[name]:
            np.testing.assert_array_equal(states[0][field], played.record[field], err_msg=field)
        checked += 1
    assert checked > 0


def test_pinochle_dd_columns_are_the_direct_solve():
    """Solved rows against ``solve`` of the first lead; unsolved ones counted and split."""
    game = trickgym.game("pinochle")
    spec, rows = _rows("pinochle", {}, 6, 300_000, seed=0)
    df = rows_to_frame(spec, rows)
    solved = df.index[df["dd_status"] == "solved"]
    assert len(solved) > 0 and (df["dd_status"] == "unsolved").any()
    from trickgym.games.pinochle.rules import counter_points

    for i in solved:
        played = _played_to_first_lead(game, derive_seed(np.uint64(0), int(i), 0))
        direct = solve(played, max_nodes=300_000)
        assert direct is not None
        final = int(counter_points(np.uint64(played.record["discards"]))) + direct
        assert df.loc[i, "dd_points"] == final
    unknown = df["dd_status"] == "unsolved"
    assert (df.loc[unknown, "dd_points"] == -1).all() and df.loc[unknown, "dd_made"].isna().all()
    split = failure_split(df, by="mode")
    assert int(split["unsolved"].sum()) == int(unknown.sum())


def test_tiny_budget_leaves_every_row_unsolved_and_counted():
    spec, rows = _rows("troggu", {"players": 4}, 4, 1)
    df = rows_to_frame(spec, rows)
    assert set(df["dd_status"]) <= {"unsolved", "no side"}
    assert (rows["dd_status"] == UNSOLVED).sum() == (df["declarer"] >= 0).sum()
    spec, rows = _rows("phat", {}, None, 1)
    split = failure_split(pitch_frame(rows_to_frame(spec, rows)))
    assert (split["unsolved"] == split["count"]).all()
