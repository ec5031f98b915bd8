"""Train a Solo Whist agent whose bids and cards beat ``rule``: oracle-guided cards, DMC bids.

Run: ``python experiments/train_oracle_solowhist.py --out runs/oracle [--tournament-deals 2000]``
(``--quick``: a smoke run of seconds). One process, step- and deal-based
budgets (no wall time): the same ``--seed`` and sizes repeat a run.

1. **Oracle labels** (``src/trickgym/training/oracle_labels.py``): ``--label-deals``
   deals played by rule agents (random cards 10%, random bids 5%); at every
   card decision with a choice, each legal card is valued double dummy on the
   actual deal and scored by the rules' ``deal_payoffs`` for the seat to move.
2. **Card scorer** (``src/trickgym/training/card_scorer.py``): a per-card MLP over the
   card's features in the seat's observation, fitted (``--card-epochs``) to
   each card's oracle advantage over the rule agent's card.
3. **Bids by Deep Monte Carlo** (``src/trickgym/training/dmc.py``, ``--bid-steps``
   learner steps at seat 0 against three rule agents; the actors play the rule
   agent's cards, so the net's V(s) on card positions is the value of rule
   play, the baseline of step 4).
4. **Cards by Deep Monte Carlo, oracle-guided** (``reinforce_cards``,
   ``--rl-deals``): the scorer plays seat 0; each departure from the rule
   agent's card is regressed on the deal's return minus V(s), mixed with the
   oracle loss whose weight fades from 1 to ``--oracle-end``.
5. **Margins** chosen by paired play against ``rule`` on held-out deals
   (cards with rule bids, bids with rule cards).

Writes to ``--out``: ``cards.npz`` (the scorer, its margin in ``meta``;
``cards_oracle_fit.npz``: the scorer before step 4, margin ``--rl-margin``),
``bids.npz`` (a ``LearntAgent`` ValueNet: bids only), ``curve.csv`` /
``curve.png``, ``training.json`` and with ``--tournament-deals N``
``tournament.txt``: duplicate tournaments, every seating, of bids+cards,
cards alone (rule bids) and bids alone against ``rule``. Play the agent with
``CardNetAgent(cards="cards.npz", bids="bids.npz")``. Results:
``experiments/results/dmc/README.md``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import train_run


def parse_args(argv=None):
    """Command-line options."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="runs/oracle")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--label-deals", type=int, default=16_000)
    p.add_argument("--holdout-deals", type=int, default=400)
    p.add_argument("--max-nodes", type=int, default=500_000, help="solver budget per card")
    p.add_argument("--card-hidden", type=int, nargs="+", default=[256, 256])
    p.add_argument("--card-epochs", type=int, default=8)
    p.add_argument("--card-batch", type=int, default=256, help="decisions per update")
    p.add_argument("--card-lr", type=float, default=1e-3)
    p.add_argument("--bid-steps", type=int, default=20_000_000)
    p.add_argument("--rl-deals", type=int, default=150_000)
    p.add_argument("--rl-margin", type=float, default=0.25)
    p.add_argument("--rl-lr", type=float, default=2e-4)
    p.add_argument("--oracle-end", type=float, default=0.5)
    p.add_argument("--eval-deals", type=int, default=2000, help="per learning-curve point")
    p.add_argument("--select-deals", type=int, default=4000)
    p.add_argument("--card-margins", type=float, nargs="+", default=[0.0, 0.25, 0.5, 1.0])
    p.add_argument("--bid-margins", type=float, nargs="+", default=[0.0, 0.5, 1.0, 2.0])
    p.add_argument("--tournament-deals", type=int, default=0)
    p.add_argument("--evaluate", metavar="DIR", help="no training: tournaments of DIR's nets")
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--quick", action="store_true")
    args = p.parse_args(argv)
    if args.quick:
        args.label_deals, args.holdout_deals, args.card_hidden = 12, 4, [16]
        args.card_epochs, args.card_batch, args.bid_steps = 2, 32, 4_000
        args.rl_deals, args.eval_deals, args.select_deals = 64, 32, 32
        args.card_margins, args.bid_margins = [0.0, 1.0], [0.0]
        args.tournament_deals = min(args.tournament_deals, 2)
    return args


def write_curve(out: Path, rows: list[dict]) -> None:
    """``curve.csv`` and (with matplotlib) ``curve.png``."""
    fields = sorted({k for r in rows for k in r})
    train_run.write_curve(out, rows, fields, lambda plt: _draw(plt, rows))


def _draw(plt, rows: list[dict]):
    """The figure of ``curve.png``: the card fit, the bids' DMC and the cards' DMC."""
    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    fit = [r for r in rows if r["stage"] == "card fit"]
    axes[0].plot([r["epoch"] for r in fit], [r["holdout_gain"] for r in fit], "o-")
    axes[0].set_xlabel("epoch over the oracle labels")
    axes[0].set_ylabel("held-out oracle gain per decision (points)")
    axes[0].set_title("card scorer vs the rule card (margin 0)")
    axes[0].axhline(0.0, color="black", linestyle=":")
    bids = [r for r in rows if r["stage"] == "bids dmc"]
    axes[1].plot([r["steps"] for r in bids], [r["train_payoff"] for r in bids])
    axes[1].set_xlabel("learner steps")
    axes[1].set_ylabel("seat-0 payoff per training deal")
    axes[1].set_title("bids by Deep Monte Carlo")
    rl = [r for r in rows if r["stage"] == "cards rl" and "vs_rule" in r]
    axes[2].errorbar(
        [r["deals"] for r in rl], [r["vs_rule"] for r in rl], yerr=[r["ci"] for r in rl], fmt="o-"
    )
    axes[2].axhline(0.0, color="black", linestyle=":")
    axes[2].set_xlabel("deals of card DMC (0: the oracle fit alone)")
    axes[2].set_ylabel("scorer cards - rule cards, seat 0, rule bids")
    axes[2].set_title("cards by oracle-guided Deep Monte Carlo")
    return fig


def tournaments(out: Path, deals: int, seed: int) -> str:
    """Duplicate tournaments (every seating) against ``rule``: bids and cards, cards alone
    (rule bids), bids alone (rule cards); the report text."""
    import trickgym
    from trickgym.agents.learnt.agent import LearntAgent
    from trickgym.agents.learnt.card_net import CardNetAgent
    from trickgym.training.dmc import tournament_summary

    cards, bids = out / "cards.npz", out / "bids.npz"
    entries = (
        ("bids and cards", lambda: CardNetAgent(cards, bids=bids, seed=seed)),
        ("cards alone (rule bids)", lambda: CardNetAgent(cards, seed=seed)),
        ("bids alone (rule cards)", lambda: LearntAgent("solowhist", weights=bids, seed=seed)),
    )
    parts = []
    for label, make in entries:
        start = time.perf_counter()
        report = trickgym.tournament("solowhist", [make(), "rule"], deals=deals, seed=seed)
        seconds = time.perf_counter() - start
        parts.append(tournament_summary(label, report, deals, seed, seconds))
        print(parts[-1], flush=True)
    return "\n".join(parts)


def main(argv=None) -> int:
    """Label, fit, reinforce, choose margins, save; optionally play the tournaments."""
    args, out = train_run.start(parse_args, argv)
    from trickgym.training import card_scorer, dmc
    from trickgym.training.oracle_labels import label_deals

    say = (lambda *a: None) if args.quiet else (lambda *a: print(*a, flush=True))
    if args.evaluate:
        text = tournaments(Path(args.evaluate), args.tournament_deals or 2000, args.seed + 30_000)
        (out / "tournament.txt").write_text(text)
        return 0
    t0 = time.perf_counter()
    stats: dict = {"args": vars(args)}
    rows: list[dict] = []

    # 1. oracle labels (training and held-out deals)
    labels, records, lstats = label_deals(
        args.label_deals, args.seed, max_nodes=args.max_nodes, with_features=False
    )
    held, held_records, _ = label_deals(
        args.holdout_deals, args.seed + 7_777, max_nodes=args.max_nodes, with_features=False
    )
    data = card_scorer.CardData.from_labels(records, labels.values, labels.rule)
    holdout = card_scorer.CardData.from_labels(held_records, held.values, held.rule)
    del labels, records
    stats["labels"] = lstats.as_dict()
    stats["labels"]["rows"] = len(data.rows)
    stats["seconds_labels"] = round(time.perf_counter() - t0, 1)
    say("labels:", json.dumps(stats["labels"]))

    # 2. the card scorer on the oracle labels
    trainer = card_scorer.CardTrainer(
        card_scorer.new_card_net(tuple(args.card_hidden), seed=args.seed), lr=args.card_lr
    )
    for epoch in range(args.card_epochs):
        loss = trainer.fit(data, 1, args.card_batch, seed=args.seed * 1000 + epoch)[0]
        share, gain = card_scorer.departures(trainer, holdout, [0.0])[0.0]
        rows.append(
            {"stage": "card fit", "epoch": epoch + 1, "loss": loss, "holdout_gain": gain,
             "holdout_departs": share, "seconds": round(time.perf_counter() - t0, 1)}
        )  # fmt: skip
        say(rows[-1])
    stats["seconds_card_fit"] = round(time.perf_counter() - t0, 1)

    # 3. bids by Deep Monte Carlo (rule cards: V(s) of rule play on card positions)
    cfg = dmc.DMCConfig(steps=args.bid_steps, seed=args.seed, cards=False, eval_every=0)
    if args.quick:
        cfg = dmc.DMCConfig(
            steps=args.bid_steps, envs=32, batch=256, hidden=(32,), seed=args.seed,
            cards=False, eval_every=0, log_every=1,
        )  # fmt: skip

    def bid_log(row):
        rows.append({"stage": "bids dmc", **row})
        say(rows[-1])

    value, _, bid_stats = dmc.train(cfg, log=bid_log)
    stats["bids"] = bid_stats
    stats["seconds_bids"] = round(time.perf_counter() - t0, 1)

    # the scorer before any deal return (for the ablation: oracle fit alone)
    trainer.net.meta["margin"] = args.rl_margin
    trainer.net.save(out / "cards_oracle_fit.npz")

    # 4. cards by oracle-guided Deep Monte Carlo
    sel_seed = args.seed + 20_000
    trainer.lr = args.rl_lr
    chunks = 5
    for k in range(chunks + 1):
        mean, half = card_scorer.evaluate_cards(
            trainer.net, args.rl_margin, args.eval_deals, args.seed + 10_000
        )
        done = k * (args.rl_deals // chunks)
        rows.append({"stage": "cards rl", "deals": done, "vs_rule": mean, "ci": half})
        say(rows[-1])
        if k == chunks:
            break
        lo = 1.0 + (args.oracle_end - 1.0) * k / chunks
        hi = 1.0 + (args.oracle_end - 1.0) * (k + 1) / chunks
        options = card_scorer.ReinforceOptions(
            margin=args.rl_margin, weights=(lo, hi), seed=args.seed * 100 + k,
            envs=32 if args.quick else 256, batch=64 if args.quick else 2048,
            oracle_batch=8 if args.quick else 256,
        )  # fmt: skip
        curve = card_scorer.reinforce_cards(trainer, data, value, args.rl_deals // chunks, options)
        rows.extend({"stage": "cards rl", **r, "deals": done + r["deals"]} for r in curve)
    stats["seconds_cards_rl"] = round(time.perf_counter() - t0, 1)

    # 5. margins by paired play on held-out deals
    select = {"cards": {}, "bids": {}}
    for m in args.card_margins:
        select["cards"][str(m)] = card_scorer.evaluate_cards(
            trainer.net, m, args.select_deals, sel_seed
        )
    for m in args.bid_margins:
        select["bids"][str(m)] = dmc.evaluate_vs_rule(
            value, (m, None), args.select_deals, sel_seed, envs=min(256, args.select_deals)
        )

    def best(group):
        m, (mean, _) = max(select[group].items(), key=lambda kv: kv[1][0])
        return float(m) if mean > 0 else None

    card_margin, bid_margin = best("cards"), best("bids")
    say("selection:", json.dumps(select), "chosen cards", card_margin, "bids", bid_margin)
    stats["selection"] = select
    stats["chosen"] = {"cards": card_margin, "bids": bid_margin}
    net = trainer.net
    net.meta["margin"] = card_agent_margin = card_margin if card_margin is not None else 1e9
    net.meta["trained_by"] = "oracle labels + oracle-guided DMC (train_oracle_solowhist.py)"
    net.save(out / "cards.npz")
    bids = dmc.finish_net(value, bid_margin, None, bid_stats)
    bids.save(out / "bids.npz")
    stats["seconds_total"] = round(time.perf_counter() - t0, 1)
    (out / "training.json").write_text(json.dumps(stats, indent=2, default=float) + "\n")
    write_curve(out, rows)
    say(f"done in {stats['seconds_total']} s; card margin {card_agent_margin}")
    train_run.play_tournaments(out, args, tournaments, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
