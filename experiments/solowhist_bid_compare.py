"""Two tournaments on the same deals and seatings (rows saved by solowhist_bid_tournament.py):
which contract changes moved the first agent's margin, per (before, after) pair of
(contract / declaring side: P = the Monte Carlo agent, R = rule).

    python experiments/solowhist_bid_compare.py BEFORE.pkl AFTER.pkl
"""

import pickle
import sys

import numpy as np
import pandas as pd


def load(path):
    r = pickle.load(open(path, "rb"))["rows"]
    ag = r[[f"agent_{s}" for s in range(4)]].to_numpy()
    d = r["declarer"].to_numpy()
    side = np.where(ag[np.arange(len(r)), np.maximum(d, 0)] == "rule", "R", "P")
    side = np.where(d < 0, "-", side)
    pay = r[[f"payoff_{s}" for s in range(4)]].to_numpy(float)
    isp = ag != "rule"
    delta = (pay * isp).sum(1) / isp.sum(1) - (pay * ~isp).sum(1) / (~isp).sum(1)
    key = r["contract"].astype(str) + "/" + side
    n = r["deal"].nunique() * r["seating"].nunique()
    return pd.DataFrame({"key": key, "delta": delta / n})


a, b = load(sys.argv[1]), load(sys.argv[2])
m = pd.DataFrame({"before": a["key"], "after": b["key"], "da": a["delta"], "db": b["delta"]})
g = m.groupby(["before", "after"]).agg(n=("da", "size"), before_pts=("da", "sum"),
                                       after_pts=("db", "sum"))  # fmt: skip
g["gain"] = g["after_pts"] - g["before_pts"]
print(f"total: before {a['delta'].sum():+.3f}, after {b['delta'].sum():+.3f} per deal")
pd.set_option("display.width", 200)
print(g[g["n"] >= 5].sort_values("gain").round(3).to_string())
