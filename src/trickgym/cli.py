"""Command line: ``trickgym simulate ...``.

Example::

    trickgym simulate --game solowhist --deals 1000000 --agents random --seed 1 \\
        --out results.parquet
"""

from __future__ import annotations

import argparse
import sys
import time

__all__ = ["main"]


def _game_options(pairs: list[str]) -> dict:
    """Parse ``--option unit=2`` style pairs into typed values."""
    options = {}
    for pair in pairs:
        if "=" not in pair:
            raise ValueError(f"option {pair!r} must be written NAME=VALUE, e.g. unit=2")
        name, value = pair.split("=", 1)
        low = value.lower()
        if low in ("true", "false"):
            options[name] = low == "true"
        else:
            try:
                options[name] = int(value)
            except ValueError:
                options[name] = value
    return options


def _check_writable(path: str) -> None:
    """Fail before a long run, not after it, if ``path`` cannot be written."""
    import os

    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"--out {path!r}: folder {folder!r} does not exist")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"--out {path!r}: folder {folder!r} is not writable")


def _simulate(args) -> int:
    from .analysis import bid_success, format_bid_table, format_phat_summary, phat_summary
    from .sim import simulate

    if args.out:
        _check_writable(args.out)
    options = _game_options(args.option)
    if args.players is not None:
        options["players"] = args.players
    if args.mode is not None:
        options["mode"] = args.mode
    agents = args.agents.split(",")
    if len(agents) == 1:
        agents = agents[0]
    # Phat is a race over a match, so it is simulated in whole matches.
    whole_matches = args.game == "phat"
    if whole_matches and args.deals is not None:
        raise ValueError("phat is simulated in whole matches: use --matches N, not --deals")
    counts = (
        {"matches": args.matches or 1000}
        if whole_matches
        else {"deals": 100_000 if args.deals is None else args.deals, "dealing": args.dealing}
    )
    if not whole_matches and args.matches is not None:
        raise ValueError("--matches is for phat; use --deals N")
    start = time.perf_counter()
    df = simulate(
        args.game,
        agents=agents,
        seed=args.seed,
        threads=args.threads,
        chunk=args.chunk,
        progress=not args.quiet,
        **counts,
        **options,
    )
    elapsed = time.perf_counter() - start
    if args.out:
        df.to_parquet(args.out, index=False)
    shown = ", ".join(f"{k}={v}" for k, v in options.items())
    print(
        f"{args.game}{f' ({shown})' if shown else ''}: {len(df):,} deals, "
        f"agents {args.agents}, seed {args.seed}"
    )
    if whole_matches:
        print(format_phat_summary(phat_summary(df)))
    else:
        print(format_bid_table(bid_success(df)))
    print(f"{len(df) / elapsed:,.0f} deals/s ({elapsed:.2f} s)")
    if args.out:
        print(f"wrote {args.out}")
    return 0


def _tournament(args) -> int:
    from .duplicate import tournament

    options = _game_options(args.option)
    if args.players is not None:
        options["players"] = args.players
    if args.mode is not None:
        options["mode"] = args.mode
    report = tournament(
        args.game,
        args.agents.split(","),
        deals=args.deals,
        seed=args.seed,
        threads=args.threads,
        progress=not args.quiet,
        **options,
    )
    print(report.format())
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``trickgym`` command."""
    parser = argparse.ArgumentParser(prog="trickgym", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="simulate deals and print the bid success table")
    sim.add_argument("--game", default="solowhist")
    sim.add_argument("--deals", type=int, default=None, help="deals to simulate (100000)")
    sim.add_argument("--matches", type=int, default=None, help="phat: whole matches (1000)")
    sim.add_argument(
        "--agents", default="random", help="one name, or one per seat: random,random,..."
    )
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument(
        "--dealing",
        choices=["shuffled", "match"],
        default="shuffled",
        help="independent shuffled deals, or the deals of whole matches dealt as on BGA",
    )
    sim.add_argument("--threads", type=int, default=None)
    sim.add_argument("--chunk", type=int, default=1024)
    sim.add_argument("--players", type=int, default=None, help="players (Troggu: 3..8)")
    sim.add_argument("--mode", default=None, help="Pinochle: kitty (default) or exchange")
    sim.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a game option"
    )
    sim.add_argument("--out", default=None, help="write the rows to this Parquet file")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(run=_simulate)

    tour = sub.add_parser(
        "tournament", help="duplicate tournament: the same deals with the agents in every seat"
    )
    tour.add_argument("--game", default="solowhist")
    tour.add_argument("--agents", default="rule,random", help="two or more agents: rule,random")
    tour.add_argument("--deals", type=int, default=10_000, help="deals (phat: matches)")
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--threads", type=int, default=None)
    tour.add_argument("--players", type=int, default=None, help="players (Troggu: 3..8)")
    tour.add_argument("--mode", default=None, help="Pinochle: kitty (default) or exchange")
    tour.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    tour.add_argument("--quiet", action="store_true", help="no progress bar")
    tour.set_defaults(run=_tournament)
    from .cli_dd import add_parser as add_dd_parser

    add_dd_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``trickgym`` command."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except ValueError as err:
        print(f"trickgym: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
