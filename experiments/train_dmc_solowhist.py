"""Train a Solo Whist agent by Deep Monte Carlo (bids and cards), then test it against ``rule``.

Run: ``python experiments/train_dmc_solowhist.py [--steps 36000000] [--seed 1] [--out runs/dmc]``
(``--quick`` for a smoke run of a few seconds). See ``src/trickgym/training/dmc.py``
for the method: a ValueNet Q(s, a) over the seat's features and the rule
agent's action, regressed on whole-deal payoffs, epsilon-greedy batched
actors on the native vector env against three rule agents, warm-started on
rule play.

Budgets count learner steps (``--steps``), not time, so the result does not
depend on the machine's load; the same ``--seed`` and sizes repeat a run.
Writes to ``--out``: ``dmc_solowhist.npz`` (playable by
``LearntAgent("solowhist", weights=...)``), ``curve.csv`` and ``curve.png``
(training payoff and loss per update), ``margins.json`` (the paired
held-out measurements that chose the agent's margins), ``training.json``,
and with ``--tournament-deals N`` ``tournament.txt``: duplicate tournaments
(every seating) of the agent against ``rule``, and of its card play alone
(rule bids) against ``rule``. ``--evaluate NPZ [--force-margins BIDS CARDS]``
plays those tournaments for stored weights without training. Results of the
first full run: ``experiments/results/dmc/README.md``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import train_run


def parse_args(argv=None):
    """Command-line options."""
    from trickgym.training.dmc import DMCConfig

    d = DMCConfig()
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="runs/dmc", help="output folder")
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--steps", type=int, default=d.steps, help="budget: learner decisions")
    p.add_argument("--envs", type=int, default=d.envs)
    p.add_argument("--batch", type=int, default=d.batch)
    p.add_argument("--hidden", type=int, nargs="+", default=list(d.hidden))
    p.add_argument("--lr", type=float, default=d.lr)
    p.add_argument(
        "--no-anchor", dest="anchor", action="store_false",
        help="Q is the net's output (default: V + A - A[rule], A starting at zero)",
    )  # fmt: skip
    p.add_argument("--warm", type=float, default=d.warm, help="fraction of steps with rule actors")
    p.add_argument("--eps-bid", type=float, default=d.eps_bid)
    p.add_argument("--eps-play", type=float, default=d.eps_play)
    p.add_argument("--actor-margin", type=float, default=d.actor_margin)
    p.add_argument("--margins", type=float, nargs="+", default=list(d.margins))
    p.add_argument("--select-deals", type=int, default=d.select_deals)
    p.add_argument("--eval-every", type=int, default=d.eval_every)
    p.add_argument("--eval-deals", type=int, default=d.eval_deals)
    p.add_argument("--log-every", type=int, default=d.log_every)
    p.add_argument("--tournament-deals", type=int, default=0, help="0: no tournament")
    p.add_argument(
        "--evaluate", metavar="NPZ", help="no training: play the tournaments of these weights"
    )
    p.add_argument(
        "--force-margins", nargs=2, metavar=("BIDS", "CARDS"),
        help="with --evaluate: margins (points, or 'rule') instead of the stored ones",
    )  # fmt: skip
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    args = p.parse_args(argv)
    if args.quick:
        args.steps, args.envs, args.batch, args.hidden = 6_000, 32, 256, [32]
        args.select_deals, args.margins, args.log_every = 64, [0.0, 1.0], 1
        args.eval_every, args.eval_deals = 5, 32
        args.tournament_deals = min(args.tournament_deals, 4)
    return args


def config(args):
    """The run's :class:`DMCConfig` from the options."""
    from trickgym.training.dmc import DMCConfig

    return DMCConfig(
        steps=args.steps, envs=args.envs, batch=args.batch, hidden=tuple(args.hidden),
        lr=args.lr, anchor=args.anchor, warm=args.warm, eps_bid=args.eps_bid,
        eps_play=args.eps_play,
        actor_margin=args.actor_margin, margins=tuple(args.margins),
        select_deals=args.select_deals, eval_every=args.eval_every,
        eval_deals=args.eval_deals, seed=args.seed, log_every=args.log_every,
    )  # fmt: skip


def write_curve(out: Path, curve: list[dict]) -> None:
    """``curve.csv`` and (with matplotlib) ``curve.png``."""
    fields = ["update", "steps", "deals", "phase", "train_payoff", "loss", "seconds"]
    fields += [k for k in ("greedy_vs_rule", "greedy_ci") if any(k in r for r in curve)]
    train_run.write_curve(out, curve, fields, lambda plt: _draw(plt, curve))


def _draw(plt, curve: list[dict]):
    """The figure of ``curve.png``: payoff and loss by learner steps."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    steps = [r["steps"] for r in curve]
    axes[0].plot(
        steps, [r["train_payoff"] for r in curve], label="training deals (with exploration)"
    )
    if any("greedy_vs_rule" in r for r in curve):
        rows = [r for r in curve if "greedy_vs_rule" in r]
        axes[0].errorbar(
            [r["steps"] for r in rows], [r["greedy_vs_rule"] for r in rows],
            yerr=[r["greedy_ci"] for r in rows], fmt="o-",
            label="greedy (actor margin) minus rule, same deals",
        )  # fmt: skip
    axes[0].axhline(0.0, color="black", linestyle=":")
    axes[0].set_xlabel("learner steps")
    axes[0].set_ylabel("payoff per deal, seat 0 vs 3 rule agents")
    axes[0].legend()
    axes[1].plot(steps, [r["loss"] for r in curve])
    axes[1].set_xlabel("learner steps")
    axes[1].set_ylabel("squared error of Q (points^2)")
    fig.suptitle("Solo Whist, Deep Monte Carlo (bids and cards)")
    return fig


def tournaments(net_path: Path, deals: int, seed: int, margins=None) -> str:
    """Duplicate tournaments (every seating) of the agent, and of its card play alone
    (the rule agent's bids), against ``rule``; the report text. ``margins``: (bids,
    cards) in points to play instead of the chosen ones (``None`` in it: the rule's)."""
    import trickgym
    from trickgym.agents.learnt.agent import LearntAgent
    from trickgym.agents.learnt.net import ValueNet
    from trickgym.training.dmc import NEVER, margins_by_phase, tournament_summary

    net = ValueNet.load(net_path)
    cards = ValueNet.load(net_path)
    if margins is not None:
        bid, play = (NEVER if m is None else float(m) for m in margins)
        net.meta["margins"] = cards.meta["margins"] = margins_by_phase(bid, play)
    play = cards.meta["margins"][str(4)]
    cards.meta["margins"] = margins_by_phase(NEVER, play)
    parts = []
    for label, weights in (("dmc (bids and cards)", net), ("dmc cards, rule bids", cards)):
        agent = LearntAgent("solowhist", weights=weights, seed=seed)
        report = trickgym.tournament("solowhist", [agent, "rule"], deals=deals, seed=seed)
        parts.append(tournament_summary(label, report, deals, seed))
        print(parts[-1], flush=True)
    return "\n".join(parts)


def main(argv=None) -> int:
    """Train, choose the margins, save; optionally play the tournaments."""
    args, out = train_run.start(parse_args, argv)
    from tqdm import tqdm

    from trickgym.training import dmc

    if args.evaluate:
        forced = None
        if args.force_margins:
            forced = [None if m == "rule" else float(m) for m in args.force_margins]
        seed = args.seed + 30_000
        text = tournaments(Path(args.evaluate), args.tournament_deals or 2000, seed, forced)
        (out / "tournament.txt").write_text(f"margins (bids, cards): {forced}\n{text}")
        return 0
    cfg = config(args)
    bar = tqdm(total=cfg.steps, desc="learner steps", unit_scale=True, disable=args.quiet)
    log = (lambda row: None) if args.quiet else (lambda row: bar.write(json.dumps(row)))
    learner, curve, stats = dmc.train(cfg, progress=bar.update, log=log)
    bar.close()
    print(f"trained: {stats}", flush=True)
    chosen = dmc.choose_margins(learner, cfg.margins, cfg.select_deals, cfg.seed + 20_000)
    print(f"margins: {json.dumps(chosen)}", flush=True)
    (out / "margins.json").write_text(json.dumps(chosen, indent=2) + "\n")
    net = dmc.finish_net(learner, chosen["bid"], chosen["play"], stats)
    path = net.save(out / "dmc_solowhist.npz")
    (out / "training.json").write_text(json.dumps(stats, indent=2) + "\n")
    write_curve(out, curve)
    train_run.play_tournaments(out, args, tournaments, path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
