"""Train the ``learnt`` agent of a game: distil PIMC into a value network, numpy only.

    python experiments/train_learnt.py --game solowhist            # about 25 minutes on 2 cores
    python experiments/train_learnt.py --game phat --install       # ship the weights in the package
    python experiments/train_learnt.py --game solowhist --quick    # a smoke run of a minute
    python experiments/train_learnt.py --game pinochle --mode exchange --workers 1

What it does (:mod:`trickgym.agents.learnt.distill`):

1. Labels, in two parts. Bids: ``--bid-deals`` deals in which only the
   decisions before the card play are labelled (``--bid-samples`` per
   decision; the rule agent plays the cards), since they are few, cheap and
   worth the most. Everything: ``--deals`` deals (Phat: matches) in which
   every searched decision with a choice is labelled (``--samples``). PIMC
   plays at every seat, each seat taking the rule agent's action instead
   with probability ``--explore``; a label is PIMC's value of each legal
   action.
2. Fit: a ReLU MLP (``--hidden``) learns each action's value relative to the
   other legal ones, by Adam for ``--epochs`` passes (``--fit-minutes``: an
   optional wall-time cap, none by default, since a fit it stops depends on
   the machine's load);
   the epoch with the least held-out regret is kept, and the margin over the
   rule agent's action that loses least on held-out decisions is stored.
3. Check: a duplicate tournament (every seating, 95% interval) of the new
   weights against ``rule`` over ``--eval-deals`` deals, ``--eval-seed``
   (default 2026: deals the labelling never saw, since it uses ``--seed`` and
   ``--seed + 1``). ``--evaluate WEIGHTS`` runs only this check, for weights
   trained before.

Writes ``labels.npz``, ``<tag>.npz`` (the weights: ``troggu-5p.npz``,
``pinochle-exchange.npz``), ``report.json`` and
``tournament.txt`` to ``--out``; ``--install`` copies the weights to
``agents/learnt/weights/``, where the registered agent ``learnt`` finds them.
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path

from trickgym.agents.learnt import WEIGHTS_DIR, LearntAgent, weights_name
from trickgym.agents.learnt.distill import Labels, bidding_phases, collect, fit

import trickgym

# Deals labelled by default (Phat: matches), with every decision and with the bids only:
# together about 20 minutes of 2 cores (Solo Whist: 6 + 11 measured; Phat 3).
DEFAULT_DEALS = {"solowhist": 1500, "phat": 750, "troggu": 1500, "pinochle": 200}
DEFAULT_BID_DEALS = {"solowhist": 100_000, "phat": 0, "troggu": 20_000, "pinochle": 20_000}


def _check(game, name, weights, deals, seed, options):
    """The duplicate tournament of ``weights`` against ``rule``: its text and result."""
    start, cpu = time.perf_counter(), time.process_time()
    agent = LearntAgent(game, weights=weights)
    result = trickgym.tournament(
        name, [agent, "rule"], deals=deals, seed=seed, progress=True, **options
    )
    # The report names agent objects by class; this one is the new weights.
    text = result.format().replace("LearntAgent#0", "learnt".ljust(len("LearntAgent#0")))
    text += (
        f"\nweights {Path(weights).name}, seed {seed}: "
        f"{time.perf_counter() - start:.0f} s wall, {time.process_time() - cpu:.0f} s CPU"
    )
    print(text)
    return text, result


def main(argv=None) -> None:
    """Label, fit, check and (with ``--install``) ship one game's learnt agent."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", default="solowhist", choices=sorted(trickgym.GAMES))
    p.add_argument("--players", type=int, default=None, help="Troggu: players (3-8)")
    p.add_argument("--mode", default=None, help="Pinochle: kitty (default) or exchange")
    p.add_argument("--deals", type=int, default=None, help="deals (Phat: matches) to label")
    p.add_argument("--samples", type=int, default=None, help="PIMC samples per decision")
    p.add_argument("--bid-deals", type=int, default=None, help="deals with the bids labelled")
    p.add_argument("--bid-samples", type=int, default=64, help="PIMC samples per bid")
    p.add_argument("--explore", type=float, default=0.3)
    p.add_argument("--hidden", default="256,256", help="hidden layer sizes, comma-separated")
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument(
        "--fit-minutes", type=float, default=None, help="optional wall-time cap (not reproducible)"
    )
    p.add_argument("--eval-deals", type=int, default=500)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--eval-seed", type=int, default=2026, help="the check's deals (not --seed)")
    p.add_argument(
        "--evaluate", type=Path, default=None, help="only run the check of these weights"
    )
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--labels", type=Path, default=None, help="reuse labels.npz, skip labelling")
    p.add_argument("--out", type=Path, default=Path("runs/learnt"))
    p.add_argument("--install", action="store_true", help="copy the weights into the package")
    p.add_argument("--quick", action="store_true", help="a smoke run: a few deals, one epoch")
    a = p.parse_args(argv)
    options = {} if a.players is None else {"players": a.players}
    if a.mode is not None:
        options["mode"] = a.mode
    game = trickgym.game(a.game, **options)
    hidden = tuple(int(h) for h in a.hidden.split(","))
    deals = DEFAULT_DEALS[a.game] if a.deals is None else a.deals
    bid_deals = DEFAULT_BID_DEALS[a.game] if a.bid_deals is None else a.bid_deals
    if not bidding_phases(game):
        bid_deals = 0
    if a.quick:
        quick = 2 if game.run_unit == "matches" else 6  # Phat: matches of about 4 deals
        deals, bid_deals, a.epochs, a.eval_deals = quick, 40, 2, 20
    out = a.out / weights_name(game).removesuffix(".npz")
    out.mkdir(parents=True, exist_ok=True)
    if a.evaluate is not None:
        text, _ = _check(game, a.game, a.evaluate, a.eval_deals, a.eval_seed, options)
        (out / f"tournament-seed{a.eval_seed}.txt").write_text(text + "\n")
        return
    start = time.perf_counter()

    if a.labels is not None:
        labels = Labels.load(a.labels)
    else:
        parts = []
        if bid_deals:
            parts.append(collect(
                a.game, bid_deals, seed=a.seed + 1, samples=a.bid_samples, explore=a.explore,
                workers=a.workers, chunk=100, phases=bidding_phases(game), progress=True,
                **options,
            ))  # fmt: skip
        if deals:
            parts.append(collect(
                a.game, deals, seed=a.seed, samples=a.samples, explore=a.explore,
                workers=a.workers, progress=True, **options,
            ))  # fmt: skip
        labels = Labels.concat(parts)
        labels.save(out / "labels.npz")
    label_s = time.perf_counter() - start
    print(f"{len(labels):,} labelled decisions in {label_s / 60:.1f} min")

    net, report = fit(
        labels, a.game, hidden=hidden, epochs=a.epochs, minutes=a.fit_minutes,
        seed=a.seed, progress=True, **options,
    )  # fmt: skip
    net.meta.update(
        deals=deals, bid_deals=bid_deals, samples=a.samples, bid_samples=a.bid_samples,
        explore=a.explore, seed=a.seed,
    )  # fmt: skip
    weights = net.save(out / weights_name(game))
    epochs_run = len(report["holdout_regret"])
    report.update(label_seconds=label_s, deals=deals, bid_deals=bid_deals, epochs_run=epochs_run)
    if epochs_run < a.epochs:
        print(
            f"warning: --fit-minutes stopped the fit after {epochs_run} of {a.epochs} epochs: "
            "these weights depend on the machine's load"
        )
    print(
        "held-out regret per decision (payoff lost to PIMC's choice): "
        f"net {report['net_regret']:.3f} (margins {report['margins']}), "
        f"rule {report['rule_regret']:.3f}"
    )

    text, result = _check(game, a.game, weights, a.eval_deals, a.eval_seed, options)
    (out / "tournament.txt").write_text(text + "\n")
    report.update(
        tournament_deals=a.eval_deals,
        learnt_minus_rule=dict(result.difference[["mean", "ci_low", "ci_high"]].astype(float)),
        total_seconds=time.perf_counter() - start,
    )
    (out / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    print(f"total {report['total_seconds'] / 60:.1f} min; wrote {out}")
    if a.install:
        shutil.copy(weights, WEIGHTS_DIR / weights.name)
        print(f"installed {WEIGHTS_DIR / weights.name}")


if __name__ == "__main__":
    main()
