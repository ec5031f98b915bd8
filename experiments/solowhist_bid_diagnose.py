"""Where a Solo Whist duplicate tournament's points are won and lost (rows saved by
solowhist_bid_tournament.py): per contract and declaring agent, each category's
share of the per-deal difference (first agent minus second), counts and made-rates.

    python experiments/solowhist_bid_diagnose.py OUT.pkl
"""

import pickle
import sys

import numpy as np

d = pickle.load(open(sys.argv[1], "rb"))
r = d["rows"].copy()
names = sorted({a for c in ("agent_0", "agent_1") for a in r[c]})
a_name = r["agent_0"].iloc[0]
b_name = next(n for n in names if n != a_name)
agents = r[[f"agent_{s}" for s in range(4)]].to_numpy()
pay = r[[f"payoff_{s}" for s in range(4)]].to_numpy(np.float64)
isa = agents == a_name
a_pay = (pay * isa).sum(1) / isa.sum(1)
b_pay = (pay * ~isa).sum(1) / (~isa).sum(1)
n_deals = r["deal"].nunique()
n_seat = r["seating"].nunique()
r["delta"] = (a_pay - b_pay) / (n_deals * n_seat)
decl = r["declarer"].to_numpy()
r["by"] = np.where(decl < 0, "-", agents[np.arange(len(r)), np.maximum(decl, 0)])
r.loc[decl < 0, "by"] = "-"
g = r.groupby(["contract", "by"])
t = g.agg(rows=("delta", "size"), made=("made", "mean"), share=("delta", "sum"))
t["share_per_deal"] = t.pop("share")
print(
    f"{a_name} - {b_name}: {r['delta'].sum():+.3f} per deal ({n_deals} deals x {n_seat} seatings)"
)
print(t.round(3).to_string())
