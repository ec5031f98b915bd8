"""Fit the rule agent's bidder by simulation, check it on fresh deals, install it as ``fitted``.

    python experiments/fit_bidder.py experiments/fits/solowhist.toml --install
    python experiments/fit_bidder.py experiments/fits/pinochle.toml --install
    python experiments/fit_bidder.py experiments/fits/solowhist.toml --quick  # smoke run

The experiment file (TOML) holds the game, its ``[options]``, the fitting
deals and seed, the rounds, the acceptance threshold, an optional
``[fields]`` table of fields and first steps, and the check's deals, seed
and (Pinochle) modes.

1. **Fit** (:func:`trickgym.training.fit_bidder.fit_bidder`): coordinate descent
   over the bidding thresholds, each candidate scored by its duplicate
   margin over today's rule agent on the fitting deals.
2. **Check**: a duplicate tournament ``fitted`` against ``rule`` on the
   check deals (a seed the fit never saw), every seating.
3. **Install** (``--install``): the options go to
   ``agents/rule/fitted/<game>.json``, where the ``fitted`` preset reads
   them. The report (fit history, check) goes to
   ``experiments/results/bidding/fitted_<game>.md`` either way.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _check(game, options, deals, seed, modes, game_options, threads):
    from trickgym.training.fit_bidder import fitted_against_rule

    out = []
    for mode in modes or [None]:
        opts = dict(game_options) if mode is None else {**game_options, "mode": mode}
        report = fitted_against_rule(
            game, options, deals, seed, threads=threads, progress=True, **opts
        )
        out.append((", ".join(f"{k}={v}" for k, v in opts.items()) or "default options", report))
    return out


_KEYS = {"description", "game", "deals", "seed", "rounds", "accept_z", "check_deals",
         "check_seed", "check_modes", "options", "fields"}  # fmt: skip


def load_config(path) -> dict:
    """The experiment file's settings, with clear errors for unknown or missing keys."""
    import tomllib

    data = tomllib.loads(Path(path).read_text())
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise SystemExit(f"{path}: unknown keys {unknown}; allowed: {sorted(_KEYS)}")
    if "game" not in data:
        raise SystemExit(f"{path}: missing key 'game'")
    return {
        "deals": 200_000, "seed": 1, "rounds": 3, "accept_z": 2.0, "check_deals": 200_000,
        "check_seed": 2026, "check_modes": None, "options": {}, "fields": None, **data,
    }  # fmt: skip


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("config", help="experiment file, e.g. experiments/fits/solowhist.toml")
    ap.add_argument("--threads", type=int, default=None, help="numba threads (default: all)")
    ap.add_argument("--install", action="store_true", help="write agents/rule/fitted/GAME.json")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 5,000 deals, one round")
    args = ap.parse_args(argv)
    cfg = load_config(args.config)
    if args.quick:
        cfg.update(deals=5000, check_deals=5000, rounds=1)
    game = cfg["game"]

    from trickgym.agents.rule.presets import FITTED_DIR
    from trickgym.training.fit_bidder import fit_bidder

    command = "python experiments/fit_bidder.py " + " ".join(sys.argv[1:] if argv is None else argv)
    t0 = time.perf_counter()
    fit = fit_bidder(
        game,
        cfg["deals"],
        cfg["seed"],
        rounds=cfg["rounds"],
        fields=cfg["fields"],
        accept_z=cfg["accept_z"],
        threads=args.threads,
        progress=True,
        **cfg["options"],
    )
    checks = _check(
        game, fit.options, cfg["check_deals"], cfg["check_seed"], cfg["check_modes"],
        cfg["options"], args.threads,
    )  # fmt: skip
    minutes = (time.perf_counter() - t0) / 60

    defaults = type(fit.options)()
    changed = {
        f.name: (getattr(defaults, f.name), getattr(fit.options, f.name))
        for f in dataclasses.fields(fit.options)
        if getattr(defaults, f.name) != getattr(fit.options, f.name)
    }
    lines = [
        f"# Fitted {game} bidder",
        "",
        f"Command: `{command}` ({minutes:.1f} min).",
        "",
        f"Fit: {fit.deals:,} deals of seed {fit.seed}, {fit.seconds / 60:.1f} min; margin over "
        f"rule on those deals {fit.margin:+.3f} [{fit.ci_low:+.3f}, {fit.ci_high:+.3f}] "
        "(optimistic: the same deals chose it).",
        "",
        "| field | rule | fitted |",
        "|---|---|---|",
        *[f"| {k} | {a:g} | {b:g} |" for k, (a, b) in changed.items()],
        "",
        f"Check: duplicate tournament `fitted` - `rule`, {cfg['check_deals']:,} deals of seed "
        f"{cfg['check_seed']}, every seating:",
        "",
    ]
    for label, report in checks:
        d = report.difference
        lines.append(
            f"- {label}: **{d['mean']:+.3f} [{d['ci_low']:+.3f}, {d['ci_high']:+.3f}]** per deal"
        )
    lines += ["", "```", *(r.format() for _, r in checks), "```", "", "Fit history:", ""]
    lines += ["```", fit.history.to_string(index=False), "```"]
    text = "\n".join(lines) + "\n"
    out = ROOT / "experiments" / "results" / "bidding" / f"fitted_{game}.md"
    if not args.quick:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
    print(text)
    if args.install:
        FITTED_DIR.mkdir(exist_ok=True)
        data = {
            "game": game,
            "options": dataclasses.asdict(fit.options),
            "fit": {"deals": fit.deals, "seed": fit.seed, "rounds": cfg["rounds"],
                    "margin": round(fit.margin, 4)},
            "check": [
                {"options": label, "deals": cfg["check_deals"], "seed": cfg["check_seed"],
                 **{k: round(float(v), 4) for k, v in r.difference.items()}}
                for label, r in checks
            ],
            "command": command,
        }  # fmt: skip
        path = FITTED_DIR / f"{game}.json"
        path.write_text(json.dumps(data, indent=2) + "\n")
        print(f"installed {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
