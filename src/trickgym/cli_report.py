"""``trickgym report``: an HTML report of a dataset, or bid success under several agents.

Examples::

    trickgym simulate --game solowhist --deals 100000 --agents rule --out runs/sw
    trickgym report runs/sw --out sw.html
    trickgym report --game solowhist --agents rule,learnt --deals 10000
    trickgym report --game troggu --players 5 --agents rule,learnt,dd --deals 2000
"""

from __future__ import annotations

import time
from pathlib import Path

from . import cli_common
from .checks import check_path, check_writable
from .cli_common import add_alias, add_seed_flag, add_table_flags, table_options, whole_number
from .games import game_class
from .progress import want_progress

__all__ = ["add_parser"]

# Default size of a comparison: the learnt agent plays a few hundred deals a second.
AGENT_DEALS = 10_000
AGENT_MATCHES = 1_000  # Phat's unit: whole races to 181, about four deals each

# Flags of the comparison (--agents) that a dataset's report does not take, and back.
_AGENT_FLAGS = ("game", "deals", "matches", "seed", "players", "mode", "threads", "dd_max_nodes")
_DATASET_FLAGS = ("out", "title")


def _default_out(dataset: str) -> Path:
    """``results.parquet`` -> ``results.html``; a folder ``runs/a`` -> ``runs/a.html``."""
    path = Path(dataset.rstrip("/\\"))
    return path.with_suffix(".html") if path.suffix == ".parquet" else Path(f"{path}.html")


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _report(args) -> int:
    if args.agents is not None:
        if args.dataset is not None:
            raise ValueError(
                f"give a DATASET ({args.dataset!r}) or --agents {args.agents}, not both: "
                "a dataset was played by its own agents"
            )
        given = [_flag(k) for k in _DATASET_FLAGS if getattr(args, k) is not None]
        if given:
            raise ValueError(f"{', '.join(given)} is for a DATASET's HTML report, not --agents")
        return _agents_report(args)
    if args.dataset is None:
        raise ValueError(
            "give a DATASET (a Parquet file or a simulate --out folder) for its HTML report, "
            "or --agents rule,learnt to compare agents' bid success"
        )
    given = [_flag(k) for k in _AGENT_FLAGS if getattr(args, k) is not None]
    if args.option:
        given.append("--option")
    if given:
        raise ValueError(f"{', '.join(given)} is for --agents (a new simulation), not a DATASET")
    return _dataset_report(args)


def _dataset_report(args) -> int:
    # lazy: matplotlib is slow to import
    import matplotlib

    matplotlib.use("Agg")  # figures are written to PNG, never shown
    # lazy: trickgym.analysis loads pandas
    from .analysis import load_dataset, write_report

    # lazy: trickgym.analysis.report loads pandas
    from .analysis.report import check_folds

    check_path("dataset", args.dataset, "file or folder path")
    # Checked before the dataset is read (minutes, for a large one).
    out = Path(
        check_writable("out", args.out if args.out is not None else _default_out(args.dataset))
    )
    check_folds(args.folds)
    df = load_dataset(args.dataset)
    write_report(df, out, title=args.title, folds=args.folds)
    print(f"{len(df):,} deals from {args.dataset}; wrote {out}")
    return 0


def _agents_report(args) -> int:
    # lazy: trickgym.analysis loads pandas
    from .analysis import bid_success_by_agent, format_agent_table, simulate_agents

    game = "solowhist" if args.game is None else args.game
    options = table_options(args)
    size = {}
    if game_class(game).run_unit == "matches":  # Phat: whole races, as simulate does
        if args.deals is not None:
            raise ValueError(
                f"{game} is played in whole matches: pass --matches N, not --deals {args.deals}"
            )
        size["matches"] = AGENT_MATCHES if args.matches is None else args.matches
    elif args.matches is not None:
        size["matches"] = args.matches
    else:
        size["deals"] = AGENT_DEALS if args.deals is None else args.deals
    seed = 0 if args.seed is None else args.seed
    start = time.perf_counter()
    frames = simulate_agents(
        game,
        args.agents,
        seed=seed,
        threads=args.threads,
        progress=False if args.quiet else want_progress(None),
        dd_max_nodes=args.dd_max_nodes,
        **size,
        **options,
    )
    elapsed = time.perf_counter() - start
    shown = ", ".join(f"{k}={v}" for k, v in options.items())
    unit, n = next(iter(size.items()))
    rows = ", ".join(f"{name} {len(df):,}" for name, df in frames.items())
    print(
        f"{game}{f' ({shown})' if shown else ''}: {n:,} {unit} per agent, seed {seed}; "
        f"every seat played by the agent; rows: {rows}"
    )
    print(format_agent_table(bid_success_by_agent(frames)))
    print(f"{len(frames)} simulations in {elapsed:.1f} s")
    return 0


def add_parser(sub) -> None:
    """Register the ``report`` subcommand on the ``trickgym`` parser's subparsers."""
    rep = cli_common.add_parser(
        sub,
        "report",
        help="write an HTML report (tables and plots) of a simulation dataset, or, with "
        "--agents, print each contract's success under several agents side by side",
    )
    rep.add_argument(
        "dataset",
        nargs="?",
        default=None,
        help="a Parquet file, or a dataset folder written by simulate --out",
    )
    rep.add_argument(
        "--out",
        default=None,
        metavar="FILE.html",
        help="the HTML report to write (default: DATASET.html)",
    )
    rep.add_argument("--title", default=None, help="the report's title (default: from the dataset)")
    rep.add_argument("--folds", type=whole_number, default=5, help="folds of the calibration model")
    group = rep.add_argument_group(
        "agents compared (no DATASET)",
        "one simulation per agent, every seat played by it, the same deals (seed) for each; "
        "prints one row per contract and a column group per agent: deals, made % and its "
        "95% Wilson interval, † on rates of fewer than 30 deals",
    )
    group.add_argument(
        "--competitors",
        dest="agents",
        default=None,
        help="one agent per competitor (not per seat), each playing every seat in its own "
        "run, e.g. rule,learnt: any agent name (random, rule, learnt, pimc, policy:PATH, ...) "
        "and dd, the rule agent's contracts played double dummy (slow: Solo Whist about 15 "
        "deals/s per core)",
    )
    add_alias(group, "--agents", "agents")  # documented before issue 43
    group.add_argument("--game", default=None, help="solowhist (default), troggu, phat or pinochle")
    group.add_argument(
        "--deals",
        type=whole_number,
        default=None,
        help=f"deals per agent (default: {AGENT_DEALS}; the learnt agent plays a few hundred "
        "a second)",
    )
    group.add_argument(
        "--matches",
        type=whole_number,
        default=None,
        help=f"whole matches per agent instead of deals: phat (default: {AGENT_MATCHES}), pinochle",
    )
    add_seed_flag(group)
    group.add_argument(
        "--threads",
        type=whole_number,
        default=None,
        help="threads to use (default: all cores); Python agents (learnt, pimc, ...) play in "
        "as many worker processes",
    )
    group.add_argument(
        "--dd-max-nodes",
        type=whole_number,
        default=None,
        metavar="N",
        help="with the agent dd: search nodes per solver call before a deal is left unsolved "
        "(default: 4000000)",
    )
    add_table_flags(group)
    group.add_argument("--quiet", action="store_true", help="no progress bars")
    rep.set_defaults(run=_report)
