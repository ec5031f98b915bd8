"""Phat's win-probability table: measured from rule-agent deals, composed into games.

``W[a, b, c]`` is the probability that the team **pitching the next deal**
wins the game (race to 181) when it has ``a`` points, the other team ``b``
(``0..180``) and ``8 * c`` points are carried on the muck bonus (``c`` in
``0..CARRY_STEPS - 1``; the last step stands for any larger carry), every
seat a rule agent. The other team's probability is ``1 - W[a, b, c]``.

How it is measured. The rule agents never read the scores (their
observation holds the hand, the trick and the cards played), so the deals
of a game are independent and alike; a game is a Markov chain over
``(a, b, carry, who pitches)``. So ``--deals`` deals are played once by rule
agents (pitcher rotating over the four seats, target out of reach), each
kept as its two running phat totals after every trick and its muck result;
every cell then replays *all* of them from its scores: the pitching team
wins a deal's race if its running total reaches ``181 - a`` at an earlier
trick than the other's reaches ``181 - b``, and a deal that ends short of
181 for both leads, with the bonus and the carry applied, to the cell
``(b', a', c')`` of the next deal (the other team pitches next:
``W = 1 - W[b', a', c']``). Every deal adds 80 phat, so the cells are
filled in order of ``a + b`` falling, exactly, in a second or so. Each cell
is thereby an average over every deal measured (the same deals for every
cell: the table is monotone in both scores by construction, no smoothing
needed). Its standard error is estimated by batch means (the deals split
into ``--batches`` batches, a table from each); ``--check-games`` plays
whole rule-agent games from a few score states as a direct check.

The table also holds ``BONUS[p, m]``: the probability of the deal's muck
result ``m`` (0: the pitching team takes the bonus, 1: the other team,
2: a 40-40 tie) given the pitching team's phat ``p`` at the deal's end
(isotonic fits: the bonus no less likely with more phat), for payoffs
that know a deal's phat but not its muck (``trickgym.solvers.phat_race``).

Run from the repository root::

    python experiments/phat_win_table.py            # 4,000,000 deals, seed 41: about 2 min
    python experiments/phat_win_table.py --deals 20000 --out /tmp/w.npz --check-games 0
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from numba import njit

import trickgym
from trickgym.engine.loops import rule_act
from trickgym.engine.params import params_matrix
from trickgym.games.phat import rules
from trickgym.games.phat.state import OBS_DTYPE, STATE_DTYPE
from trickgym.progress import progress_bar

OUT = Path(__file__).resolve().parents[1] / "src/trickgym/games/phat/win_table.npz"
TARGET = 181
CARRY_STEPS = 4  # carry 0, 8, 16 and 24 or more
NEVER = 99  # a running total that never reaches the need


@njit(cache=False)
def play_deals(seed, n, params, cum, muck):
    """``n`` rule-agent deals: ``cum[i, t, k]`` team ``k``'s phat after trick ``t`` (k = 0:
    the pitching team), ``muck[i]`` the muck result (0 pitching team, 1 other, 2 tie)."""
    st = np.zeros(1, dtype=STATE_DTYPE)
    obs = np.empty(1, dtype=OBS_DTYPE)
    rng = np.array([seed ^ 0x5DEECE66D], dtype=np.uint64)
    rules.init_match(st[0], seed, 1 << 30, 1, -1)
    for i in range(n):
        s = st[0]
        team = s.pitcher % 2
        last = 0
        while not rules.deal_over(s):
            a = rule_act(s, s.to_move, rng, obs, params)
            rules.apply_action(s, a)
            if s.trick_no > last:
                last = s.trick_no
                cum[i, last - 1, 0] = s.phat[team]
                cum[i, last - 1, 1] = s.phat[1 - team]
        muck[i] = 2 if s.bonus_to < 0 else (0 if s.bonus_to == team else 1)
        rules.next_deal(s)


@njit(cache=False)
def summarise(cum, muck, hist, first):
    """Add the deals to ``hist[p, m]`` (final phat of the pitching team, muck result) and
    ``first[nP, nO]`` (both teams' totals reach their needs, the pitching team's first)."""
    tp = np.empty(81, dtype=np.int64)
    to = np.empty(81, dtype=np.int64)
    for i in range(cum.shape[0]):
        p = cum[i, 12, 0]
        hist[p, muck[i]] += 1
        tp[:] = NEVER
        to[:] = NEVER
        lo_p, lo_o = 0, 0
        for t in range(13):
            for n in range(lo_p + 1, cum[i, t, 0] + 1):
                tp[n] = t
            lo_p = max(lo_p, cum[i, t, 0])
            for n in range(lo_o + 1, cum[i, t, 1] + 1):
                to[n] = t
            lo_o = max(lo_o, cum[i, t, 1])
        for n_p in range(1, p + 1):
            for n_o in range(1, 80 - p + 1):
                if tp[n_p] < to[n_o]:
                    first[n_p, n_o] += 1


@njit(cache=False)
def win_table(hist, first, steps):
    """``W[a, b, c]`` from the deals' summary (see the module docstring)."""
    n = hist.sum()
    w = np.zeros((TARGET, TARGET, steps))
    by_p = np.zeros(82)  # deals with final phat >= p
    for p in range(80, -1, -1):
        by_p[p] = by_p[p + 1] + hist[p, 0] + hist[p, 1] + hist[p, 2]
    for total in range(2 * TARGET - 2, -1, -1):
        for a in range(max(0, total - TARGET + 1), min(TARGET - 1, total) + 1):
            b = total - a
            need_p, need_o = TARGET - a, TARGET - b
            for c in range(steps):
                bonus = 8 + 8 * c
                won = 0.0
                # The pitching team reaches its need, the other never does its own.
                lo = max(need_p, 81 - need_o)
                if lo <= 80:
                    won += by_p[lo]
                if need_p + need_o <= 80:  # both may reach: who first
                    won += first[need_p, need_o]
                # Neither reaches: the deal ends, the muck bonus, the next deal.
                for p in range(max(0, 81 - need_o), min(80, need_p - 1) + 1):
                    for m in range(3):
                        k = hist[p, m]
                        if k == 0:
                            continue
                        a2, b2, c2 = a + p, b + 80 - p, 0
                        if m == 0:
                            a2 += bonus
                        elif m == 1:
                            b2 += bonus
                        else:
                            c2 = min(c + 1, steps - 1)
                        if a2 >= TARGET:
                            won += k
                        elif b2 < TARGET:
                            won += k * (1.0 - w[b2, a2, c2])
                w[a, b, c] = won / n
    return w


@njit(cache=False)
def play_games(seed, n, a, b, carry, params):
    """Whole rule-agent games from scores ``(a, b)`` and ``carry``, ``a`` the pitching
    team's; the pitcher seat cycles. Returns the pitching team's wins."""
    st = np.zeros(1, dtype=STATE_DTYPE)
    obs = np.empty(1, dtype=OBS_DTYPE)
    rng = np.array([seed ^ 0x2545F4914F6CDD1D], dtype=np.uint64)
    wins = 0
    for g in range(n):
        s = st[0]
        rules.init_match(s, seed * 1_000_003 + g, TARGET, 1, g % 4)
        team = g % 2
        s.scores[team] = a
        s.scores[1 - team] = b
        s.carry = carry
        while True:
            while not rules.deal_over(s):
                rules.apply_action(s, rule_act(s, s.to_move, rng, obs, params))
            if s.game_over:
                break
            rules.next_deal(s)
        if s.winner == team:
            wins += 1
    return wins


def isotonic(y: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """The non-decreasing fit of ``y`` closest in weighted squares (pool adjacent violators)."""
    blocks: list[list[float]] = []  # [mean, weight, length]
    for v, w in zip(y, weight, strict=True):
        blocks.append([float(v), float(w), 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            m2, w2, n2 = blocks.pop()
            m1, w1, n1 = blocks.pop()
            blocks.append([(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, n1 + n2])
    return np.concatenate([np.full(n, m) for m, _, n in blocks])


def bonus_table(hist: np.ndarray) -> np.ndarray:
    """``P(muck result | final phat p)``: the pitching team's bonus non-decreasing in ``p``,
    the other team's non-increasing (isotonic fits), a tie the rest; a half deal of prior."""
    counts = hist + 0.5 * hist.sum(axis=0) / hist.sum()
    n = counts.sum(axis=1)
    own = isotonic(counts[:, 0] / n, n)
    other = isotonic((counts[:, 1] / n)[::-1], n[::-1])[::-1]
    tie = np.clip(1.0 - own - other, 0.0, None)
    out = np.stack([own, other, tie], axis=1)
    return out / out.sum(axis=1, keepdims=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=4_000_000)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--batches", type=int, default=10)
    ap.add_argument("--chunk", type=int, default=50_000)
    ap.add_argument("--check-games", type=int, default=20_000, help="games per checked cell")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    if args.deals % args.batches or (args.deals // args.batches) % args.chunk:
        ap.error("--deals must be --batches times a multiple of --chunk")
    game = trickgym.game("phat")
    params = params_matrix(game, 4)
    t0 = time.time()
    per_batch = args.deals // args.batches
    hists = np.zeros((args.batches, 81, 3), dtype=np.int64)
    firsts = np.zeros((args.batches, 81, 81), dtype=np.int64)
    cum = np.zeros((args.chunk, 13, 2), dtype=np.int64)
    muck = np.zeros(args.chunk, dtype=np.int64)
    with progress_bar(total=args.deals, desc="rule-agent deals", unit="deal") as bar:
        for k in range(args.batches):
            for j in range(per_batch // args.chunk):
                play_deals(args.seed * 7919 + k * 1009 + j, args.chunk, params, cum, muck)
                summarise(cum, muck, hists[k], firsts[k])
                bar.update(args.chunk)
    t_deals = time.time() - t0
    hist, first = hists.sum(axis=0), firsts.sum(axis=0)
    w = win_table(hist.astype(np.float64), first.astype(np.float64), CARRY_STEPS)
    batch = np.stack(
        [
            win_table(hists[k].astype(np.float64), firsts[k].astype(np.float64), CARRY_STEPS)
            for k in range(args.batches)
        ]
    )
    se = batch.std(axis=0, ddof=1) / np.sqrt(args.batches)
    ties = hist[:, 2].sum() / hist.sum()
    print(
        f"{args.deals:,} deals in {t_deals:.0f} s; pitching team's mean phat "
        f"{(hist.sum(axis=1) * np.arange(81)).sum() / hist.sum():.2f}, muck to it "
        f"{hist[:, 0].sum() / hist.sum():.3f}, ties {ties:.3f}"
    )
    print(
        f"standard error (batch means, {args.batches} batches): median {np.median(se):.4f}, "
        f"95th percentile {np.quantile(se, 0.95):.4f}, max {se.max():.4f}"
    )
    for name, (a, b) in {"0-0": (0, 0), "90-90": (90, 90), "150-150": (150, 150)}.items():
        print(f"W[{name}] carry 0: {w[a, b, 0]:.4f} (the team pitching next)")
    checks = []
    if args.check_games:
        cells = [(0, 0, 0), (60, 100, 0), (120, 120, 0), (150, 160, 8), (170, 140, 0)]
        for a, b, carry in cells:
            wins = play_games(args.seed + a + b, args.check_games, a, b, carry, params)
            p = wins / args.check_games
            err = np.sqrt(p * (1 - p) / args.check_games)
            c = min(carry // 8, CARRY_STEPS - 1)
            checks.append((a, b, carry, p, err, w[a, b, c]))
            print(
                f"games from {a}-{b} carry {carry}: pitching team won {p:.4f} +- {err:.4f} "
                f"({args.check_games} games); table {w[a, b, c]:.4f}"
            )
    np.savez_compressed(
        args.out,
        # Probabilities in steps of 1/65535 (far below the standard error): a small file.
        win=np.round(w * 65535).astype(np.uint16),
        se_median=np.float64(np.median(se)),
        se_p95=np.float64(np.quantile(se, 0.95)),
        se_max=np.float64(se.max()),
        bonus=bonus_table(hist).astype(np.float32),
        hist=hist,
        deals=np.int64(args.deals),
        seed=np.int64(args.seed),
        target=np.int64(TARGET),
        checks=np.array(checks, dtype=np.float64).reshape(-1, 6),
    )
    print(f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} KB) in {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
