"""Fit the calibration of PIMC's solved Solo Whist bidder (agents/mc/solved_bids.py).

    NUMBA_NUM_THREADS=1 python experiments/solowhist_bid_calibration.py HANDS OUT.pkl [--seed 7]

Procedure (seed 7, independent of the tournaments' seed 2026):

1. Deal ``HANDS`` fresh deals (deal ``i`` of the seed). The would-be declarer
   is seat ``eldest + i % 4``; the seats before it pass, and from its
   observation at its first turn PIMC's bidder computes the sampled
   made-rates (24 deals, as in play): double dummy for Solo, Abundance
   (each suit) and Abundance Declared, at the goal (``x_goal``) and one
   trick short (``x_short``); by rule-agent playouts for Misère and Misère
   Ouverte (``x_goal``; ``x_short = 0``).
2. Every contract whose made-rate (Solo, Abundance: one trick short)
   reaches its THRESHOLD is then declared by that seat in a forced auction
   (it calls the contract, everyone else passes; Abundance names the suit
   of the best made-rates) and played out by PIMC (default card play) as
   declarer, PIMC opposite, the rule agent either side: the tournament's
   seating. Recorded: the made-rates, made or not, the declarer's payoff.
3. Per contract, a logistic regression of "made" on ``x_goal`` (and
   ``x_short`` for Solo and Abundance; a feature whose weight comes out
   negative is dropped and the fit redone) gives ``b0, b_goal, b_short``;
   ``win`` and ``loss`` are the declarer's mean payoff when made and when
   beaten. Contracts with fewer than MIN_PLAYS plays (or all made, or none)
   keep the prior in PRIORS (stated, not fitted). Printed with a check of
   the fit by band of the fitted chance.

The calibration of 2026-12-01 ran in two rounds on the same 4,000 deals:
Misère and Misère Ouverte in the first (``calibration_round1_data.pkl``),
Solo, Abundance and Abundance Declared in the second with the two-target
questions, merged (``--merge``).

Prints the table and a ``CALIBRATION`` dict to paste into solved_bids.py.
"""

from __future__ import annotations

import argparse
import pickle
import time

import numpy as np

import trickgym
from trickgym.agents import python_action, start_deal
from trickgym.agents.mc import PIMCAgent
from trickgym.agents.mc.bid_solowhist import (
    K_ABUNDANCE,
    K_ABUNDANCE_SHORT,
    K_DECLARED,
    K_MISERE,
    K_SOLO,
    K_SOLO_SHORT,
    N_KINDS,
)
from trickgym.agents.mc.solved_bids import made_rates, playout_rates
from trickgym.api import State
from trickgym.engine.loops import oracle_flag, play_until
from trickgym.engine.params import params_matrix
from trickgym.games.solowhist.constants import (
    ABUNDANCE_CALL,
    ABUNDANCE_DECLARED_CALL,
    MISERE_CALL,
    MISERE_OUVERTE_CALL,
    PASS,
    SOLO_CALL,
    TRUMP_BASE,
)
from trickgym.rng import derive_seed
from trickgym.sim.python_loop import _kinds
from trickgym.sim.specs import SPECS

# A contract is played when its made-rate reaches this (per contract: the rare ones lower).
# (Solo and Abundance: the made-rate one trick short of the goal.)
THRESHOLD = {"solo": 0.1, "misere": 0.1, "misere_ouverte": 0.1, "abundance": 0.2,
             "abundance_declared": 0.1}  # fmt: skip
MIN_PLAYS = 20
CONTRACTS = ("solo", "misere", "abundance", "misere_ouverte", "abundance_declared")
# Priors for contracts too rare to fit (points: the rules' payoffs at U=5).
# (Abundance Declared: made-rate 0.02 at x = 0, 0.95 at x = 1.)
PRIORS = {
    name: {"b0": -4.0, "b_goal": 7.0, "b_short": 0.0, "win": 3.0 * a, "loss": -3.0 * a}
    for name, a in (("solo", 5), ("misere", 10), ("abundance", 15), ("misere_ouverte", 20),
                    ("abundance_declared", 30))
}  # fmt: skip


def play_forced(g, spec, seed, i, seat, calls, agents, params):
    """Deal ``i``; the auction ``calls`` from eldest; then the agents play it out."""
    array = g.new_match(np.uint64(derive_seed(seed, i, 0)), 1)
    agent_rngs = np.zeros((8, 1), dtype=np.uint64)
    for s in range(4):
        agent_rngs[s, 0] = derive_seed(seed, i, 1 + s)
    start_deal(agents, seed, i)
    state = State(g, array)
    k = g.kernels
    for c in calls:
        k.apply_action_at(array, 0, c)
    kinds = _kinds(agents)
    while True:
        p = play_until(array, 0, kinds, agent_rngs, params, oracle_flag(kinds))
        if p < 0:
            break
        k.apply_action_at(array, 0, python_action(agents[p], g, array, 0, p))
    rec = state.record
    return int(rec["contract"]), bool(rec["made"]), int(rec["payoffs"][seat])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("hands", type=int)
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--contracts", default=",".join(CONTRACTS))
    ap.add_argument("--merge", default=None, help="earlier plays (pickle) of the other contracts")
    args = ap.parse_args()
    wanted = set(args.contracts.split(","))
    g = trickgym.game("solowhist")
    spec = SPECS["solowhist"]
    params = params_matrix("solowhist", 4)
    bidder = PIMCAgent(g, seed=1, bids="calibrated")
    players = [PIMCAgent(g, seed=1) for _ in range(2)]
    data = []
    t0 = time.perf_counter()
    for i in range(args.hands):
        array = g.new_match(np.uint64(derive_seed(args.seed, i, 0)), 1)
        eldest = (int(array[0]["dealer"]) + 1) % 4
        seat = (eldest + i) % 4
        before = [PASS] * ((seat - eldest) % 4)
        for c in before:
            g.kernels.apply_action_at(array, 0, c)
        rec = np.zeros(1, dtype=g.obs_dtype)
        g.kernels.observe_at(array, 0, seat, rec, 0)
        bidder.start_deal(int(derive_seed(args.seed, i, 9)), seat)
        ask = np.ones(N_KINDS, dtype=np.bool_)
        ask[K_MISERE] = False
        p = made_rates(bidder, rec, ask)
        p_mis, p_mo = playout_rates(bidder, rec, [MISERE_CALL, MISERE_OUVERTE_CALL])
        after = [PASS] * (3 - len(before))
        ab = np.nan_to_num(p[K_ABUNDANCE : K_ABUNDANCE + 4])
        ab_short = np.nan_to_num(p[K_ABUNDANCE_SHORT : K_ABUNDANCE_SHORT + 4])
        suit = int(np.argmax(ab + 0.5 * ab_short))
        todo = []  # (contract, x_goal, x_short, own calls)
        if p[K_SOLO_SHORT] >= THRESHOLD["solo"]:
            todo.append(("solo", p[K_SOLO], p[K_SOLO_SHORT], [SOLO_CALL, *after]))
        if p_mis >= THRESHOLD["misere"]:
            todo.append(("misere", p_mis, 0.0, [MISERE_CALL, *after]))
        if p_mo >= THRESHOLD["misere_ouverte"]:
            todo.append(("misere_ouverte", p_mo, 0.0, [MISERE_OUVERTE_CALL, *after]))
        if ab_short[suit] >= THRESHOLD["abundance"]:
            calls = [ABUNDANCE_CALL, *after, TRUMP_BASE + suit]
            todo.append(("abundance", ab[suit], ab_short[suit], calls))
        if p[K_DECLARED] >= THRESHOLD["abundance_declared"]:
            todo.append(
                ("abundance_declared", p[K_DECLARED], 0.0, [ABUNDANCE_DECLARED_CALL, *after])
            )
        for name, x_goal, x_short, own in todo:
            if name not in wanted or np.isnan(x_goal) or np.isnan(x_short):
                continue
            agents = ["rule"] * 4
            agents[seat] = players[0]
            agents[(seat + 2) % 4] = players[1]
            contract, made, pay = play_forced(
                g, spec, args.seed, i, seat, before + own, agents, params
            )
            data.append((i, seat, name, float(x_goal), float(x_short), made, pay, contract))
        if (i + 1) % 200 == 0:
            print(f"{i + 1} hands, {len(data)} plays, {time.perf_counter() - t0:.0f}s", flush=True)
    if args.merge:
        with open(args.merge, "rb") as f:
            old = pickle.load(f)
        for d in old:
            if d[2] not in wanted:  # earlier format: (i, seat, name, x, made, pay, contract)
                data.append((*d[:4], 0.0, *d[4:]) if len(d) == 7 else d)
    with open(args.out, "wb") as f:
        pickle.dump(data, f)
    print(fit(data))


def logistic(X, y, ridge=1e-3, iters=50):
    """Logistic regression coefficients by Newton's method (a small ridge for stability)."""
    w = np.zeros(X.shape[1])
    for _ in range(iters):
        z = X @ w
        p = 1 / (1 + np.exp(-z))
        grad = X.T @ (y - p) - ridge * w
        hess = (X * (p * (1 - p))[:, None]).T @ X + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w += step
        if np.abs(step).max() < 1e-9:
            break
    return w


def fit(data):
    lines = [f"{'contract':<20}{'plays':>6}{'made%':>7}{'x_goal':>7}{'x_short':>8}{'b0':>7}"
             f"{'b_goal':>7}{'b_short':>8}{'win':>7}{'loss':>7}  source"]  # fmt: skip
    cal = {}
    for name in CONTRACTS:
        rows = [d for d in data if d[2] == name]
        prior = PRIORS[name]
        x = np.array([d[3] for d in rows]).reshape(-1)
        xs = np.array([d[4] for d in rows]).reshape(-1)
        y = np.array([d[5] for d in rows], dtype=np.float64)
        pay = np.array([d[6] for d in rows], dtype=np.float64)
        if len(rows) < MIN_PLAYS or y.min(initial=0) == y.max(initial=0):
            c = dict(prior)
            source = "prior"
        else:
            use = [True, True, name in ("solo", "abundance")]
            while True:
                X = np.stack([np.ones_like(x), x, xs], axis=1)[:, use]
                w = logistic(X, y)
                full = np.zeros(3)
                full[np.flatnonzero(use)] = w
                neg = [j for j in (1, 2) if use[j] and full[j] < 0]
                if not neg:
                    break
                use[neg[0]] = False  # a negative weight: drop that feature and refit
            win = float(pay[y > 0].mean()) if (y > 0).any() else prior["win"]
            loss = float(pay[y == 0].mean()) if (y == 0).any() else prior["loss"]
            c = {"b0": round(float(full[0]), 3), "b_goal": round(float(full[1]), 3),
                 "b_short": round(float(full[2]), 3), "win": round(win, 2),
                 "loss": round(loss, 2)}  # fmt: skip
            source = "fitted"
        cal[name] = c
        lines.append(f"{name:<20}{len(rows):>6}{100 * y.mean() if len(y) else 0:>7.1f}"
                     f"{x.mean() if len(x) else 0:>7.2f}{xs.mean() if len(xs) else 0:>8.2f}"
                     f"{c['b0']:>7.2f}{c['b_goal']:>7.2f}{c['b_short']:>8.2f}{c['win']:>7.1f}"
                     f"{c['loss']:>7.1f}  {source}")  # fmt: skip
        if source == "fitted":  # calibration check by band of the fitted chance
            z = c["b0"] + c["b_goal"] * x + c["b_short"] * xs
            q = 1 / (1 + np.exp(-z))
            for lo, hi in ((0, 0.3), (0.3, 0.5), (0.5, 0.7), (0.7, 0.9), (0.9, 1.01)):
                m = (q >= lo) & (q < hi)
                if m.any():
                    lines.append(f"    fitted chance [{lo:.1f}, {hi:.1f}): {m.sum():>4} plays, "
                                 f"predicted {q[m].mean():.2f}, made {y[m].mean():.2f}, "
                                 f"mean payoff {pay[m].mean():+.1f}")  # fmt: skip
    lines.append("")
    lines.append("CALIBRATION = " + repr(cal))
    return "\n".join(lines)


if __name__ == "__main__":
    main()
