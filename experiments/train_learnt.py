"""Train the ``learnt`` agent of a game: distil PIMC into a value network, numpy only.

    python experiments/train_learnt.py --game troggu --players 3 --workers 1   # about 30 min
    python experiments/train_learnt.py --game phat --install       # ship the weights if better
    python experiments/train_learnt.py --game solowhist --quick    # a smoke run of a minute
    python experiments/train_learnt.py --game pinochle --mode exchange --workers 1
    python experiments/train_learnt.py --game all --workers 1 --install   # every table, in turn

``--game all`` trains every table in turn (:data:`TABLES`: Solo Whist, Phat,
Troggu at 3 to 8 players, Pinochle kitty and exchange), each with its own
default deal counts (:data:`DEFAULT_DEALS`, :data:`DEFAULT_BID_DEALS`: about
30 minutes a table on one core); the other options apply to every table.

What it does (:mod:`trickgym.training.distill`):

1. Labels, in two parts, by today's PIMC (``PIMCAgent(game)`` with the
   game's defaults: the solver asked the payoff's question below the game's
   solve line). Bids: ``--bid-deals`` deals in which only the decisions
   before the card play are labelled (``--bid-samples`` per decision; the
   rule agent plays the cards), since they are few, cheap and worth the
   most. Everything: ``--deals`` deals (Phat: matches) in which every
   searched decision with a choice is labelled (``--samples``): bids, calls
   and card play (Pinochle's too). PIMC plays at every seat, each seat
   taking the rule agent's action instead with probability ``--explore``; a
   label is PIMC's value of each legal action. Discards, partner calls and
   Pinochle's passes are not PIMC's decisions (the rule agent makes them for
   PIMC too), so they have no labels and stay the rule agent's.
2. Fit: a ReLU MLP (``--hidden``) learns each action's value relative to the
   other legal ones, by Adam for ``--epochs`` passes (``--fit-minutes``: an
   optional wall-time cap, none by default, since a fit it stops depends on
   the machine's load); the epoch with the least held-out regret is kept,
   and per phase the margin over the rule agent's action that loses least
   on held-out decisions is stored (or "never", keeping the rule agent's
   action, unless the net then beats it beyond doubt).
3. Check: a duplicate tournament (every seating, 95% interval) of the new
   weights against ``rule`` over ``--eval-deals`` deals, ``--eval-seed``
   (default 2026: deals the labelling never saw, since it uses ``--seed`` and
   ``--seed + 1``). ``--evaluate WEIGHTS`` runs only this check, for weights
   trained before.

The training figures (deals, decisions by phase, seconds, held-out regret of
the net and of the rule agent per phase, the check, the teacher) go into the
weights' meta (``ValueNet.load(path).meta``) and ``report.json``.

Writes ``labels.npz``, ``<tag>.npz`` (the weights: ``troggu-5p.npz``,
``pinochle-exchange.npz``), ``report.json`` and ``tournament.txt`` to
``--out/<tag>``. ``--install`` copies the weights to
``agents/learnt/weights/``, where the registered agent ``learnt`` finds
them, only if their check beats ``rule`` (mean above zero) and, where
weights already ship, beats the shipped weights' check on the same deals
(run then); the report and check go to ``--results`` as ``<tag>-report.json``
and ``<tag>-tournament.txt`` when installed, else as
``<tag>-not-installed-report.json`` beside the reason.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np

import trickgym
from trickgym.agents.learnt import WEIGHTS_DIR, LearntAgent, ValueNet, weights_name
from trickgym.agents.mc import PIMCAgent
from trickgym.training.distill import FitOptions, Labels, Teacher, bidding_phases, collect, fit

# Every table the learnt agent can ship weights for: (game, options).
TABLES = (
    ("solowhist", {}),
    ("phat", {}),
    *(("troggu", {"players": n}) for n in range(3, 9)),
    ("pinochle", {"mode": "kitty"}),
    ("pinochle", {"mode": "exchange"}),
)
# Deals labelled by default (Phat: matches), with every decision and with the bids only,
# and PIMC's samples per labelled decision of the full deals (None: the game's own), by
# weights tag, else by game. Troggu 3 and 8 and Pinochle kitty: the runs of 4 Dec 2026 at
# today's PIMC (20 to 56 minutes each on one core of the shared machine, load 4-7). The
# others: the older runs' counts; at today's PIMC Troggu 5's 1,500 full deals take about
# 15 minutes, Troggu 7's about an hour, Phat's 750 matches about 9 hours of a core
# (benchmarks/README.md, "Distilled from the new PIMC": the rates).
DEFAULT_DEALS = {
    "solowhist": 1500,
    "phat": 750,
    "troggu-3p": 2500,
    "troggu-8p": 30,
    "troggu": 1500,
    "pinochle": 600,
    "pinochle-exchange": 200,
}
DEFAULT_BID_DEALS = {
    "solowhist": 100_000,
    "phat": 0,
    "troggu-3p": 30_000,
    "troggu": 20_000,
    "pinochle": 10_000,
    "pinochle-exchange": 12_000,
}
# Pinochle's full deals at half PIMC's 96 samples: twice the positions in the same time.
DEFAULT_SAMPLES = {"pinochle": 48}
RESULTS_DIR = Path(__file__).resolve().parent / "results" / "learnt"


def _default(table: dict, game):
    """A table's default: by the weights' tag, else by the game's name (else None)."""
    return table.get(game.tag, table.get(game.name))


def _check(game, name, weights, deals, seed, options, workers=None):
    """The duplicate tournament of ``weights`` against ``rule`` on ``workers`` processes
    (default: the cores): its text and result."""
    start, cpu = time.perf_counter(), time.process_time()
    agent = LearntAgent(game, weights=weights)
    result = trickgym.tournament(
        name, [agent, "rule"], deals=deals, seed=seed, progress=True, threads=workers, **options
    )
    # The report names agent objects by class; this one is the new weights.
    text = result.format().replace("LearntAgent#0", "learnt".ljust(len("LearntAgent#0")))
    text += (
        f"\nweights {Path(weights).name}, seed {seed}: "
        f"{time.perf_counter() - start:.0f} s wall, {time.process_time() - cpu:.0f} s CPU"
    )
    print(text)
    return text, result


def _difference(result) -> dict:
    """The check's learnt - rule per deal: mean and 95% interval, as floats."""
    return {k: float(result.difference[k]) for k in ("mean", "ci_low", "ci_high")}


def _commit() -> str | None:
    """The repository's commit, to tie weights to the code that made them (None outside git)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.stdout.strip() or None


def _install_decision(game, name, new_check, a, options) -> tuple[bool, str, dict | None, str]:
    """Whether to ship the new weights, why, and the shipped weights' check and its text
    (if run).

    New weights ship only if they beat ``rule`` on the check's deals and, where weights
    already ship, beat the shipped weights on the same deals.
    """
    if new_check["mean"] <= 0:
        return False, f"the check is not above zero ({new_check['mean']:+.3f} a deal)", None, ""
    shipped = WEIGHTS_DIR / weights_name(game)
    if not shipped.is_file():
        return True, "no weights shipped for this table; the check is above zero", None, ""
    try:
        text, result = _check(game, name, shipped, a.eval_deals, a.eval_seed, options, a.workers)
    except ValueError as e:  # weights of an older feature table: they no longer load
        return True, f"the shipped weights do not load ({e})", None, ""
    old = _difference(result)
    if new_check["mean"] > old["mean"]:
        why = f"beats the shipped weights' {old['mean']:+.3f} on the same deals"
        return True, why, old, text
    why = f"does not beat the shipped weights' {old['mean']:+.3f} on the same deals"
    return False, why, old, text


def train(a, name: str, options: dict) -> dict:
    """Label, fit, check and (with ``a.install``) ship one table's learnt agent; its report."""
    game = trickgym.game(name, **options)
    hidden = tuple(int(h) for h in a.hidden.split(","))
    deals = _default(DEFAULT_DEALS, game) if a.deals is None else a.deals
    bid_deals = _default(DEFAULT_BID_DEALS, game) if a.bid_deals is None else a.bid_deals
    if not bidding_phases(game):
        bid_deals = 0
    samples = _default(DEFAULT_SAMPLES, game) if a.samples is None else a.samples
    epochs, eval_deals = a.epochs, a.eval_deals
    if a.quick:
        quick = 2 if game.run_unit == "matches" else 6  # Phat: matches of about 4 deals
        deals, bid_deals, epochs, eval_deals = quick, 40, 2, 20
    out = a.out / game.tag
    out.mkdir(parents=True, exist_ok=True)
    if a.evaluate is not None:
        text, result = _check(game, name, a.evaluate, eval_deals, a.eval_seed, options, a.workers)
        (out / f"tournament-seed{a.eval_seed}.txt").write_text(text + "\n")
        return {"learnt_minus_rule": _difference(result)}
    start = time.perf_counter()

    if a.labels is not None:
        labels = Labels.load(a.labels)
    else:
        parts = []
        if bid_deals:
            bidder = Teacher(a.bid_samples, a.explore, phases=bidding_phases(game))
            parts.append(collect(
                name, bid_deals, seed=a.seed + 1, teacher=bidder, workers=a.workers, chunk=100,
                progress=True, **options,
            ))  # fmt: skip
        if deals:
            parts.append(collect(
                name, deals, seed=a.seed, teacher=Teacher(samples, a.explore),
                workers=a.workers, progress=True, **options,
            ))  # fmt: skip
        labels = Labels.concat(parts)
        labels.save(out / "labels.npz")
    label_s = time.perf_counter() - start
    phases, counts = np.unique(labels.phase, return_counts=True)
    by_phase = {str(int(p)): int(c) for p, c in zip(phases, counts, strict=True)}
    print(f"{len(labels):,} labelled decisions ({by_phase} by phase) in {label_s / 60:.1f} min")

    training = FitOptions(hidden=tuple(hidden), epochs=epochs, minutes=a.fit_minutes, seed=a.seed)
    net, report = fit(labels, name, training, progress=True, **options)
    teacher = PIMCAgent(game, samples=samples, seed=1)
    net.meta.update(
        deals=deals, bid_deals=bid_deals, samples=teacher.samples, bid_samples=a.bid_samples,
        explore=a.explore, seed=a.seed, teacher=repr(teacher), decisions_by_phase=by_phase,
        label_seconds=round(label_s), fit_seconds=round(report["seconds"]), commit=_commit(),
        holdout_by_phase={
            p: {k: r[k] for k in ("decisions", "margin", "net_regret", "rule_regret")}
            for p, r in report["phases"].items()
        },
    )  # fmt: skip
    if a.labels is not None:
        net.meta["labels"] = str(a.labels)  # the figures above are the fit's; labelled before
    weights = net.save(out / weights_name(game))
    epochs_run = len(report["holdout_regret"])
    report.update(label_seconds=label_s, deals=deals, bid_deals=bid_deals, epochs_run=epochs_run)
    report.update(decisions_by_phase=by_phase, teacher=repr(teacher))
    if epochs_run < epochs:
        print(
            f"warning: --fit-minutes stopped the fit after {epochs_run} of {epochs} epochs: "
            "these weights depend on the machine's load"
        )
    print(
        "held-out regret per decision (payoff lost to PIMC's choice): "
        f"net {report['net_regret']:.3f} (margins {report['margins']}), "
        f"rule {report['rule_regret']:.3f}"
    )

    text, result = _check(game, name, weights, eval_deals, a.eval_seed, options, a.workers)
    (out / "tournament.txt").write_text(text + "\n")
    check = _difference(result)
    total = time.perf_counter() - start
    report.update(tournament_deals=eval_deals, learnt_minus_rule=check, total_seconds=total)
    # The check goes into the weights' own record: the same arrays, saved again.
    net.meta.update(
        check={"opponent": "rule", "deals": eval_deals, "seed": a.eval_seed, **check},
        seconds=round(total),
    )
    net.save(weights)
    ValueNet.load(weights)  # what ships must read back
    if a.install:
        install, why, old, old_text = _install_decision(game, name, check, a, options)
        report.update(installed=install, install_reason=why, shipped_check=old)
        results = Path(a.results)
        results.mkdir(parents=True, exist_ok=True)
        stem = game.tag if install else f"{game.tag}-not-installed"
        (results / f"{stem}-report.json").write_text(json.dumps(report, indent=2) + "\n")
        if old_text:  # the shipped weights' check on the same deals, beside the new one's
            text += f"\n\nthe shipped {weights.name} on the same deals:\n{old_text}"
        (results / f"{stem}-tournament.txt").write_text(f"{text}\n{why}\n")
        if install:
            shutil.copy(weights, WEIGHTS_DIR / weights.name)
        print(f"{'installed' if install else 'not installed'} {weights.name}: {why}")
    (out / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    print(f"total {total / 60:.1f} min; wrote {out}")
    return report


def main(argv=None) -> None:
    """Train one table's learnt agent, or every table's (``--game all``), in turn."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", default="solowhist", choices=[*sorted(trickgym.GAMES), "all"])
    p.add_argument("--players", type=int, default=None, help="Troggu: players (3-8)")
    p.add_argument("--mode", default=None, help="Pinochle: kitty (default) or exchange")
    p.add_argument("--deals", type=int, default=None, help="deals (Phat: matches) to label")
    p.add_argument(
        "--samples", type=int, default=None, help="PIMC samples per decision of the full deals"
    )
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
    p.add_argument(
        "--install", action="store_true", help="ship the weights if they beat rule and the shipped"
    )
    p.add_argument("--results", type=Path, default=RESULTS_DIR, help="where --install reports")
    p.add_argument("--quick", action="store_true", help="a smoke run: a few deals, one epoch")
    a = p.parse_args(argv)
    if a.game == "all":
        if a.players is not None or a.mode is not None or a.labels or a.evaluate:
            p.error("--game all takes no --players, --mode, --labels or --evaluate")
        for name, options in TABLES:
            train(a, name, options)
        return
    options = {} if a.players is None else {"players": a.players}
    if a.mode is not None:
        options["mode"] = a.mode
    train(a, a.game, options)


if __name__ == "__main__":
    main()
