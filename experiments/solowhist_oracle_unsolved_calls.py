"""Repro: the oracle declares sure losers when the natural calls come back unsolved.

    python experiments/solowhist_oracle_unsolved_calls.py

The oracle values each call by the contract it leads to, solved from the
first lead (``trickgym.agents.solved_solowhist.auction_values``); a call whose
solve runs out of the node budget is valued -1e9, and ``_oracle`` then takes
the best of the others. On deal 292 of seed 2026 (seat 2, eldest) Pass,
Prop and Solo come back unsolved, so the oracle calls Misère, valued -30,
and takes 7 tricks; on deal 31 (seat 3, over a Misère Ouverte) Pass comes
back unsolved and it calls Abundance Declared (-90). The Misère Ouverte
probe of deal 31 is not settled in 50 million nodes.
"""

import numpy as np

import trickgym
from trickgym.agents.solowhist import ORACLE_NODE_LIMIT, ORACLE_TABLE_LOG2
from trickgym.agents.solved_solowhist import EXACT_CARDS, auction_values, position_tricks
from trickgym.engine.params import params_matrix
from trickgym.games.solowhist.constants import CALL_BASE, CALL_NAMES, PASS
from trickgym.games.solowhist.rules import legal_sets
from trickgym.rng import derive_seed
from trickgym.solvers.dd_search import META_ABORTED, make_table

g = trickgym.game("solowhist")
params = params_matrix("solowhist", 4)
for deal, before in ((292, []), (31, [PASS, PASS, CALL_BASE + 7])):
    arr = g.new_match(np.uint64(derive_seed(2026, deal, 0)), 1)
    for c in before:
        g.kernels.apply_action_at(arr, 0, c)
    st = arr[0]
    seat = int(st["to_move"])
    vals = np.full(66, -1e9)
    table = make_table(ORACLE_TABLE_LOG2, ORACLE_NODE_LIMIT)
    obs = np.empty(1, dtype=g.obs_dtype)
    auction_values(st, seat, np.array([5], np.uint64), obs, params, table, EXACT_CARDS, vals)
    legal = int(legal_sets(st)[1])
    print(f"deal {deal}, seat {seat}:")
    for a in range(CALL_BASE, CALL_BASE + 9):
        if (legal >> (a - CALL_BASE)) & 1:
            shown = "unsolved" if vals[a] <= -1e8 else f"{vals[a]:+.0f}"
            print(f"  {CALL_NAMES[a - CALL_BASE]:<20}{shown}")
arr = g.new_match(np.uint64(derive_seed(2026, 31, 0)), 1)
for c in [PASS, PASS, CALL_BASE + 7, PASS]:  # the auction closes: Misère Ouverte by seat 2
    g.kernels.apply_action_at(arr, 0, c)
assert int(arr[0]["phase"]) == 4
table = make_table(12, 50_000_000)
print("deal 31, Misère Ouverte by seat 2, 50M nodes: tricks", position_tricks(arr[0], table, 7),
      "aborted", table[1][META_ABORTED])  # fmt: skip
