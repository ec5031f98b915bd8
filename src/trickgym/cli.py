"""Command line: ``trickgym simulate|tournament|report|play|dd|advise|warm|verify|evaluate``."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time

from .checks import MissingExtraError, check_writable, split_names
from .cli_common import (
    HelpFormatter,
    Parser,
    add_alias,
    add_count_flags,
    add_parser,
    add_seed_flag,
    add_table_flags,
    cli_words,
    count_of,
    real_number,
    table_options,
    whole_number,
)
from .games import GAMES, game_class
from .progress import want_progress

__all__ = ["HelpFormatter", "build_parser", "main"]

DESCRIPTION = (
    "Simulate, analyse and play trick-taking card games as on Board Game Arena "
    "(Solo Whist, Troggu, Phat, Pinochle). Run 'trickgym COMMAND --help' for a "
    "command's flags."
)
EPILOG = """examples:
  trickgym simulate --game solowhist --deals 1000000 --agents rule --seed 1
  trickgym simulate --deals 200000 --agents rule --seed 1 --out runs/sw   # a Parquet dataset
  trickgym simulate --deals 2000 --agents rule --dd     # + why contracts failed (double dummy)
  trickgym report runs/sw --out report.html
  trickgym report --game solowhist --agents rule,learnt --deals 10000   # bid success side by side
  trickgym verify runs/sw                 # check every chunk of a dataset
  trickgym tournament --game pinochle --agents rule,random --deals 1000
  trickgym play --game solowhist --seat 0 --agents rule --seed 7
  trickgym dd positions.jsonl --cards
  trickgym advise --game solowhist --hand AKQJ5.K2.A7.9832 --turn-up 2S --seat 1 --dealer 0
  trickgym warm --agents random,rule    # compile the kernels ahead of time (cluster images)
  trickgym evaluate --game solowhist --policy policy.npz   # vs random, rule and pimc"""


# Progress bars show by default when stderr is a terminal; a cold numba cache is
# announced in one line whatever the flag (see trickgym.compiling.announcing).
QUIET_HELP = "no progress bars (a first run's compile still says so in one line)"


# Flags that decide the rows: an experiment file fixes them, so they may not be given with it.
_RESULT_FLAGS = (
    "game",
    "deals",
    "matches",
    "agents",
    "seed",
    "dealing",
    "pack",
    "chunk",
    "players",
    "mode",
    "dd",
    "dd_max_nodes",
)


def _simulate_kwargs(args) -> tuple[str, dict]:
    """The game and ``simulate`` arguments from an experiment file or the flags."""
    # lazy: keeps the command line's start quick
    from .costs import simulate_dd_default

    if args.experiment is not None:  # '' too: a slip, not "no experiment"
        # lazy: keeps the command line's start quick
        from .experiment import load_experiment

        given = [f"--{k.replace('_', '-')}" for k in _RESULT_FLAGS if getattr(args, k) is not None]
        if args.option:
            given.append("--option")
        if given:
            raise ValueError(
                f"{', '.join(given)} would change the results fixed by --experiment "
                f"{args.experiment}; edit (a copy of) the file instead"
            )
        kwargs = load_experiment(args.experiment)
        return kwargs.pop("game"), kwargs
    options = table_options(args)

    # An empty --agents '' is refused, not read as the default.
    agents = split_names("agents", "random" if args.agents is None else args.agents, "rule,random")
    kwargs = {
        "agents": agents[0] if len(agents) == 1 else agents,
        "seed": 0 if args.seed is None else args.seed,
        "dealing": args.dealing,
        "pack": args.pack,
        "chunk": args.chunk,
        **options,
    }
    if args.dd:
        kwargs["dd"] = True
    if args.dd_max_nodes is not None:
        kwargs["dd_max_nodes"] = args.dd_max_nodes
    game = "solowhist" if args.game is None else args.game
    in_matches = game_class(game).run_unit == "matches"  # Phat: whole races to 181
    # --dd solves every row (0.1-1 s a row): its default is about a minute's worth.
    dd_count = simulate_dd_default(game) if args.dd else None
    if args.matches is not None:
        kwargs["matches"] = args.matches
    elif in_matches:
        kwargs["matches"] = dd_count or 1000
    if args.deals is not None or (args.matches is None and not in_matches):
        kwargs["deals"] = (dd_count or 100_000) if args.deals is None else args.deals
    return game, kwargs


def _bid_table(parts, dd: bool = False) -> tuple[str, int]:
    """The bid success table of row frames counted part by part, and the row count.

    With ``dd`` (rows with ``dd_made``) the failure split follows the table.
    """
    # lazy: trickgym.analysis loads pandas
    from .analysis import (
        bid_counts,
        bid_success_from_counts,
        failure_counts,
        failure_split_from_counts,
        format_bid_table,
        format_failure_table,
    )

    total = failures = None
    for part in parts:
        counts = bid_counts(part)
        total = counts if total is None else total.add(counts, fill_value=0)
        if dd:
            f = failure_counts(part)
            failures = f if failures is None else failures.add(f, fill_value=0)
    table = format_bid_table(bid_success_from_counts(total.sort_index()))
    if failures is not None:
        split = failure_split_from_counts(failures.sort_index())
        table += (
            "\nfailures, double dummy (perfect play by every hand in the contract played):\n"
            + format_failure_table(split)
        )
    return table, int(total["count"].sum())


def _import_simulator(game: str, progress: bool, warm_ups: list):
    """Import :mod:`trickgym.sim` under the compile watch; its time joins ``warm_ups``.

    A kernel with an explicit signature compiles as its module is imported
    (the double-dummy search did, 15 s of every first run, before the
    solvers were imported lazily): should one do so again, the compile
    notice and its progress line cover that wait too. The import's seconds
    (modules, and kernels loaded or compiled) are kept apart from the run's.
    """
    # lazy: keeps the command line's start quick
    from .compiling import NOTICE_AFTER, announce, hand_over, run_compiling

    start, noticed = time.perf_counter(), []

    def notice():
        noticed.append(True)
        announce(game)

    module, compiled = run_compiling(
        lambda: importlib.import_module("trickgym.sim"),
        f"compiling the {game} kernels",
        progress,
        NOTICE_AFTER,
        notice,
    )
    if noticed:  # the run's warm-up goes on with the same line and total
        hand_over(game, start, compiled.count)
    warm_ups.append(compiled)
    return module


def _simulate(args) -> int:
    # lazy: pandas is slow to import
    import pandas as pd

    if args.out is not None:  # '' is a slip (an unset shell variable), not an in-memory run
        check_writable("out", args.out, folder=True)
    if args.resume and not args.out:
        raise ValueError("--resume needs --out (the dataset folder to complete)")
    if args.rebuild_metadata and not args.resume:
        raise ValueError("--rebuild-metadata is for --resume (the run to complete)")
    if args.trajectories and not args.out:
        raise ValueError("--trajectories needs --out (the dataset folder to write them to)")
    if args.scheduler and args.backend != "dask":
        raise ValueError("--scheduler is for --backend dask")
    game, kwargs = _simulate_kwargs(args)
    if args.trajectories:  # with an experiment file too: the rows stay the same
        kwargs["trajectories"] = True
    # lazy: keeps the command line's start quick
    from .costs import simulate_warning

    notice = simulate_warning(game, kwargs, args.threads)  # a long --dd run says so first
    if notice:
        print(notice, file=sys.stderr, flush=True)
    warm_ups = []  # what compiling (or loading) the kernels took, timed apart from the run
    start = time.perf_counter()
    progress = False if args.quiet else want_progress(None)  # bars where someone watches
    sim = _import_simulator(game, progress, warm_ups)
    read_dataset, simulate = sim.read_dataset, sim.simulate
    run = {
        "threads": args.threads,
        "progress": progress,
        "backend": args.backend,
        "scheduler": args.scheduler,
        "no_workers_timeout": args.no_workers_timeout,
        "on_warm_up": warm_ups.append,
    }
    # The printed summary needs a few columns only, summed chunk by chunk, so a huge
    # run is never held in memory.
    from .analysis.columns import analysis_part

    part = analysis_part(game)  # rows that are not bids (Phat's races): the game's own table
    summary = None if part is not None else ["contract", "made", "declarer"]
    dd = bool(kwargs.get("dd"))
    if dd and summary is not None:
        summary.append("dd_made")
    try:
        if args.out:
            rebuild = {"rebuild": True} if args.rebuild_metadata else {}
            result = simulate(game, out=args.out, resume=args.resume, **rebuild, **kwargs, **run)
        else:
            df = simulate(game, columns=summary, **kwargs, **run)
    except sim.ClusterLostError as err:  # says what was kept and how to resume
        print(f"trickgym: error: {err}", file=sys.stderr)
        return 1
    if args.out:
        spec = result.spec
        parts = (read_dataset(args.out, summary, chunks=[i]) for i in range(spec.n_chunks))
    else:
        result, spec = None, None
        step = 1 << 20
        parts = (df.iloc[i : i + step] for i in range(0, len(df), step))
    if part is not None:
        df = pd.concat(parts, ignore_index=True)
        table, n_rows = part.summary_text(df), len(df)
        if dd:  # the pitcher as a declarer (its rows as bids), its failures split
            table += "\n" + _bid_table([part.bids(df)], dd=True)[0]
    else:
        table, n_rows = _bid_table(parts, dd)
    elapsed = time.perf_counter() - start
    agents = kwargs["agents"]
    agents = agents if isinstance(agents, str) else ",".join(agents)
    options = {k: v for k, v in kwargs.items() if k not in _NOT_OPTIONS}
    shown = ", ".join(f"{k}={v}" for k, v in options.items())
    print(
        f"{game}{f' ({shown})' if shown else ''}: {n_rows:,} deals, "
        f"agents {agents}, seed {kwargs['seed']}"
    )
    print(table)
    made = n_rows if result is None else result.rows
    print(_speed_line(made, elapsed, warm_ups))
    if result is not None:
        if result.chunks_skipped:
            print(
                f"resumed: {result.chunks_skipped} of {spec.n_chunks} chunks were already done, "
                f"ran {result.chunks_run}"
            )
        print(_wrote_line(args.out, spec))
        if spec.trajectories:
            # lazy: trickgym.sim.trajectories loads pandas
            from .sim.trajectories import steps_info

            print(
                f"with {steps_info(args.out)['decisions']:,} decisions in _steps-*.parquet "
                "(read them with trickgym.sim.trajectories.iter_batches)"
            )
    return 0


def _wrote_line(out, spec) -> str:
    """``wrote DIR: 100,000 deals in 2 chunk files of up to 65,536 deals``."""
    files = "1 chunk file" if spec.n_chunks == 1 else f"{spec.n_chunks:,} chunk files"
    line = f"wrote {out}: {spec.count:,} {spec.items} in {files}"
    if spec.n_chunks > 1:
        line += f" of up to {spec.chunk:,} {spec.items}"
    if spec.unit == "match" and spec.items == "deals":  # Solo Whist dealt as on BGA
        line += f" (whole matches of {spec.options['num_deals']} deals)"
    return line


def _speed_line(deals: int, elapsed: float, warm_ups: list) -> str:
    """``N deals in S s (R deals/s)``, the rate of the simulation alone, and the warm-up apart.

    ``elapsed`` is the whole command's time; the warm-up (compiling the
    kernels, or loading them from numba's cache) is taken out of it, so the
    rate is that of a run whose kernels are ready.
    """
    warm = sum(w.seconds for w in warm_ups)
    compiled = sum(w.count for w in warm_ups)
    seconds = max(elapsed - warm, 1e-9)
    line = f"{deals:,} deals in {seconds:.2f} s ({deals / seconds:,.0f} deals/s)"
    if compiled:
        line += f"; compiling took {warm:.0f} s ({compiled} function{'s' * (compiled != 1)})"
    elif warm_ups:
        line += f"; loading the kernels took {warm:.2f} s"
    return line


_NOT_OPTIONS = {
    "trajectories",
    "agents",
    "seed",
    "dealing",
    "pack",
    "chunk",
    "deals",
    "matches",
    "first",
    "rule_options",
    "dd",
    "dd_max_nodes",
}


def _tournament(args) -> int:
    # lazy: trickgym.duplicate loads pandas
    from .duplicate import tournament

    options = table_options(args)
    count = count_of(args, args.game)
    report = tournament(
        args.game,
        args.agents,
        deals=10_000 if count is None else count,
        seed=args.seed,
        threads=args.threads,
        progress=False if args.quiet else None,
        **options,
    )
    print(report.format())
    return 0


def _game_choices(default: str = "solowhist") -> str:
    """``"solowhist (default), troggu, phat or pinochle"``: the registered games, for help."""
    names = [f"{n} (default)" if n == default else n for n in GAMES]
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``trickgym`` command."""
    parser = Parser(
        prog="trickgym", description=DESCRIPTION, epilog=EPILOG, formatter_class=HelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    games = _game_choices()
    sim = add_parser(sub, "simulate", help="simulate deals and print the bid success table")
    sim.add_argument("--game", default=None, help=games)
    sim.add_argument(
        "--deals",
        type=whole_number,
        default=None,
        help="deals to simulate (default: 100000; with --dd about a minute's worth: "
        "solowhist 500, pinochle 300, troggu 50)",
    )
    sim.add_argument(
        "--matches",
        type=whole_number,
        default=None,
        help="whole matches instead of deals: phat (default: 1000 matches, 15 with --dd), pinochle",
    )
    sim.add_argument(
        "--agents",
        default=None,
        help="one agent per seat: one name for every seat, or one per seat "
        "(rule,rule,random,pimc); default: random",
    )
    add_seed_flag(sim)
    sim.add_argument(
        "--dealing",
        choices=["shuffled", "match"],
        default=None,
        help="independent shuffled deals (default), or the deals of whole matches dealt as on BGA",
    )
    sim.add_argument(
        "--pack",
        choices=["bga", "shuffled"],
        default=None,
        help="bga is --dealing match, shuffled is --dealing shuffled",
    )
    sim.add_argument(
        "--threads",
        type=whole_number,
        default=None,
        help="threads to use (default: all cores); Python agents (pimc, learnt, ...) play "
        "in as many worker processes",
    )
    sim.add_argument(
        "--chunk",
        type=whole_number,
        default=None,
        help="deals (or matches) per chunk file (default: about 65536 rows; 1024 with --dd)",
    )
    add_table_flags(sim)
    sim.add_argument(
        "--dd",
        action="store_true",
        default=None,
        help="add what the declaring side could have taken with every card seen (Solo "
        "Whist: dd_tricks, dd_made; Phat, Pinochle, Troggu: dd_points, dd_made, dd_status) "
        "and split the failures into not makeable and misplayed; slow (Solo Whist about "
        "15 deals/s per core; the point-trick games a full solve a row)",
    )
    sim.add_argument(
        "--dd-max-nodes",
        type=whole_number,
        default=None,
        metavar="N",
        help="with --dd: search nodes per solver call before a row is flagged unsolved "
        "(default: Solo Whist 4000000, the others 4000000; 0: no budget)",
    )
    sim.add_argument(
        "--trajectories",
        action="store_true",
        default=None,
        help="with --out: also write every decision (seat, phase, observation features, legal "
        "mask, action, the deal's payoff for the seat) beside each chunk, for offline RL and "
        "behaviour cloning (trickgym.sim.trajectories.iter_batches reads them); chunks of 256 "
        "deals by default",
    )
    sim.add_argument(
        "--experiment", default=None, metavar="FILE", help="a TOML file fixing the whole run"
    )
    sim.add_argument(
        "--out",
        default=None,
        metavar="DIR",
        help="write a Parquet dataset (one file per chunk) to this folder (created if absent)",
    )
    sim.add_argument("--resume", action="store_true", help="complete the interrupted run in --out")
    sim.add_argument(
        "--rebuild-metadata",
        action="store_true",
        help="with --resume: rebuild the missing or damaged metadata of --out from its chunk "
        "files; give the run's exact settings (each chunk is checked by replaying its first "
        "deal; damaged chunks are redone)",
    )
    sim.add_argument(
        "--backend",
        choices=["local", "dask"],
        default="local",
        help="local threads, or a Dask cluster (needs the dask extra)",
    )
    sim.add_argument(
        "--scheduler",
        default=None,
        help="Dask scheduler address, tcp://host:8786 (default: a LocalCluster)",
    )
    sim.add_argument(
        "--no-workers-timeout",
        type=real_number,
        default=None,
        metavar="SECONDS",
        help="Dask: fail (keeping the chunks done in --out, for --resume) once the cluster "
        "has had no worker this long (default: 60)",
    )
    sim.add_argument("--quiet", action="store_true", help=QUIET_HELP)
    sim.set_defaults(run=_simulate)

    tour = add_parser(
        sub,
        "tournament",
        help="duplicate tournament: the same deals with the competitors rotated through the seats",
    )
    tour.add_argument("--game", default="solowhist", help=games)
    tour.add_argument(
        "--competitors",
        dest="agents",
        default="rule,random",
        help="one agent per competitor (not per seat): two or more different agents, each "
        "named once; they are rotated through the seats (partnership games: exactly two, "
        "one per team)",
    )
    add_alias(tour, "--agents", "agents")  # documented before issue 43
    add_count_flags(tour, 10_000)
    add_seed_flag(tour, 0)
    tour.add_argument(
        "--threads",
        type=whole_number,
        default=None,
        help="threads to use (default: all cores); Python agents (pimc, learnt, ...) play "
        "in as many worker processes",
    )
    add_table_flags(tour)
    tour.add_argument("--quiet", action="store_true", help=QUIET_HELP)
    tour.set_defaults(run=_tournament)
    # lazy: keeps the command line's start quick
    from . import (
        cli_dd,
        cli_evaluate,
        cli_play,
        cli_replay,
        cli_report,
        cli_verify,
        cli_warm,
    )
    from .advisor import command as cli_advise  # lazy, as the other commands above

    cli_report.add_parser(sub)
    cli_play.add_parser(sub)
    cli_dd.add_parser(sub)
    cli_advise.add_parser(sub)
    cli_warm.add_parser(sub)
    cli_verify.add_parser(sub)
    cli_evaluate.add_parser(sub)
    cli_replay.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``trickgym`` command."""
    # lazy: keeps the command line's start quick
    from .compiling import announcing

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with announcing():  # a cold compile says so in one line, even under --quiet
            return args.run(args)
    except ValueError as err:  # worded for Python: say it in the flags the person typed
        typed = sys.argv[1:] if argv is None else argv
        message = cli_words(str(err), _subparser(parser, args.command), typed)
        print(f"trickgym: error: {message}", file=sys.stderr)
        return 2
    except MissingExtraError as err:
        print(f"trickgym: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader left (``trickgym dd ... | head``): stop quietly, as Unix tools do.
        _silence_stdout()
        return 1
    except OSError as err:  # a full disk, a folder that cannot be written: one line, no traceback
        print(f"trickgym: error: {_os_error(err)}", file=sys.stderr)
        return 1


def _subparser(parser, command: str) -> argparse.ArgumentParser:
    """The parser of the subcommand ``command``."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[command]


def _os_error(err: OSError) -> str:
    """``err`` in one line: ``cannot write PATH: No space left on device``."""
    message = err.strerror or str(err)
    if err.filename is not None and str(err.filename) not in message:
        message = f"{err.filename}: {message}"
    return message


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (captured in tests)
        pass


def console() -> None:
    """The installed ``trickgym`` command: :func:`main`, then an exit that skips teardown.

    Once the output is flushed the process ends at once (``os._exit``):
    pyarrow's thread pools can abort the interpreter's teardown ("terminate
    called without an active exception", exit 134; apache/arrow issue
    34314), which turned a run that had printed its result into a failure.
    Nothing trickgym keeps needs the teardown: files are closed, numba
    caches are written when compiled.
    """
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a reader that left (BrokenPipeError), a closed stream
        _silence_stdout()
        code = code or 1
    os._exit(code)


if __name__ == "__main__":
    console()
