"""What the rule bidder leaves on the table, from the calibration plays
(experiments/solowhist_bid_calibration.py): per contract and made-rate band,
how often the rule agent (same seat, same auction so far) would itself
declare that contract, and what PIMC scored declaring it.

    python experiments/solowhist_bid_left_on_table.py calibration_data.pkl
"""

import pickle
import sys

import numpy as np
import pandas as pd

import trickgym
from trickgym.agents.rule.solowhist import rule_action
from trickgym.engine.params import params_matrix
from trickgym.games.solowhist.constants import CALL_BASE, CALL_NAMES, PASS
from trickgym.rng import derive_seed

SEED = 7
g = trickgym.game("solowhist")
params = params_matrix("solowhist", 4)
data = pickle.load(open(sys.argv[1], "rb"))
df = pd.DataFrame(data, columns=["i", "seat", "contract", "p", "p_short", "made", "pay", "code"])
rule_calls = {}
for i, seat in set(zip(df["i"], df["seat"], strict=True)):
    array = g.new_match(np.uint64(derive_seed(SEED, i, 0)), 1)
    eldest = (int(array[0]["dealer"]) + 1) % 4
    for _ in range((seat - eldest) % 4):
        g.kernels.apply_action_at(array, 0, PASS)
    rec = np.zeros(1, dtype=g.obs_dtype)
    g.kernels.observe_at(array, 0, seat, rec, 0)
    rng = np.array([1], dtype=np.uint64)
    rule_calls[(i, seat)] = CALL_NAMES[rule_action(rec[0], params[seat]["values"], rng) - CALL_BASE]
df["rule"] = [rule_calls[(i, s)] for i, s in zip(df["i"], df["seat"], strict=True)]
df["band"] = pd.cut(df["p"], [0, 0.25, 0.5, 0.75, 0.9, 1.0001], right=False)
t = df.groupby(["contract", "band", "rule"], observed=True).agg(
    n=("pay", "size"), made=("made", "mean"), mean_pay=("pay", "mean")
)
pd.set_option("display.width", 200)
print(t.round(2).to_string())
