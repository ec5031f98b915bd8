"""``trickgym evaluate``: a policy's duplicate tournaments against random, rule and pimc.

Example::

    trickgym evaluate --game solowhist --policy experiments/results/cleanrl/policy.npz
    trickgym evaluate --game troggu --players 5 --policy p.npz --opponents random,rule
    trickgym evaluate --benchmark --game solowhist --policy rule --out rule.csv
    trickgym evaluate --policy p.npz --bidding policy   # not the bidding the file records
    trickgym evaluate --policy policy:p.npz:bidding=policy   # the same, as an agent name

The policy bids as its file's settings say (``--bidding`` or the name's
``:bidding=`` overrides them); a file trained for another table is refused.
"""

from __future__ import annotations

from . import cli_common
from .checks import check_writable
from .cli_common import (
    add_alias,
    add_count_flags,
    add_seed_flag,
    add_table_flags,
    count_of,
    table_options,
    whole_number,
)

__all__ = ["add_parser"]


# The flags --benchmark fixes itself (dest: spelling); each defaults to None so that
# one given is seen and refused, not silently replaced.
_FIXED_BY_BENCHMARK = {"agents": "--opponents", "deals": "--deals", "matches": "--matches",
                       "slow_deals": "--slow-deals", "seed": "--seed"}  # fmt: skip


def _evaluate(args) -> int:
    # lazy: trickgym.evaluation loads pandas
    from .evaluation import DEFAULT_OPPONENTS, evaluate

    if args.out is not None:  # before the tournaments, not after them
        check_writable("out", args.out)
    if args.benchmark:
        return _benchmark(args)
    game = "solowhist" if args.game is None else args.game
    count = count_of(args, game)
    report = evaluate(
        args.policy,
        game,
        opponents=",".join(DEFAULT_OPPONENTS) if args.agents is None else args.agents,
        deals=1000 if count is None else count,
        slow_deals=20 if args.slow_deals is None else args.slow_deals,
        seed=0 if args.seed is None else args.seed,
        bidding=args.bidding,
        threads=args.threads,
        progress=False if args.quiet else None,
        **table_options(args),
    )
    print(report.format())
    if args.out:
        report.table.to_csv(args.out)
        print(f"wrote {args.out}")
    return 0


def _benchmark(args) -> int:
    """``--benchmark``: the fixed tables of :mod:`trickgym.benchmark` (of ``--game``, or all)."""
    # lazy: trickgym.benchmark loads pandas
    from .benchmark import run_benchmark

    given = [flag for dest, flag in _FIXED_BY_BENCHMARK.items() if getattr(args, dest) is not None]
    if given:
        raise ValueError(
            f"--benchmark fixes the opponents, deals, seeds and slow deals of every table; "
            f"leave out {', '.join(given)}"
        )
    report = run_benchmark(
        args.policy,
        args.game,
        bidding=args.bidding,
        threads=args.threads,
        progress=False if args.quiet else None,
        **table_options(args),
    )
    print(report.format())
    if args.out:
        report.table.to_csv(args.out, index=False)
        print(f"wrote {args.out}")
    return 0


def add_parser(sub) -> None:
    """Register the ``evaluate`` subcommand on the ``trickgym`` parser's subparsers."""
    # lazy: trickgym.evaluation loads pandas
    from .evaluation import DEFAULT_OPPONENTS

    what = (
        "a policy (.npz MLP weights over the features observation, or an agent name) "
        "in duplicate tournaments against random, rule and pimc: margin per deal, 95{} interval"
    )
    e = cli_common.add_parser(sub, "evaluate", help=what.format("%%"), description=what.format("%"))
    e.add_argument(
        "--game",
        default=None,
        help="solowhist (default), troggu, phat or pinochle; --benchmark without it: every game",
    )
    e.add_argument(
        "--policy",
        required=True,
        help="the policy: an .npz of MLP weights w0, b0, ... and their settings (as "
        "experiments/cleanrl_masked_ppo.py writes) or an agent name (learnt, policy:PATH, "
        "policy:PATH:bidding=rule)",
    )
    e.add_argument(
        "--opponents",
        dest="agents",
        default=None,
        help="one agent per competitor (not per seat): the policy's opponents, "
        "comma-separated, one tournament each (leave pimc out to skip the slow one; "
        f"default: {','.join(DEFAULT_OPPONENTS)})",
    )
    add_alias(e, "--agents", "agents")  # documented before issue 43
    add_count_flags(e, 1000, " per tournament")
    e.add_argument(
        "--slow-deals",
        type=whole_number,
        default=None,
        help="deals against Python or solving opponents (pimc, ismcts, learnt, oracle; "
        "default: 20)",
    )
    add_seed_flag(e)
    e.add_argument(
        "--bidding",
        choices=("policy", "rule"),
        default=None,
        help="who makes the policy's decisions before the card play: rule (the rule agent, "
        "for a policy trained with bidding='rule') or policy; default: what the policy file's "
        "settings say (policy for a file without them). Agent names take it too: "
        "policy:PATH:bidding=rule",
    )
    e.add_argument(
        "--threads", type=whole_number, default=None, help="threads to use (default: all cores)"
    )
    e.add_argument(
        "--out", default=None, metavar="FILE.csv", help="also write the table to this CSV file"
    )
    e.add_argument(
        "--benchmark",
        action="store_true",
        help="play the fixed benchmark (trickgym.benchmark, version 1: its seeds, opponents "
        "and deal counts per table) on --game's tables, or every game's; --players/--mode "
        "pick one table; docs/benchmark.md has the published results",
    )
    add_table_flags(e)
    e.add_argument("--quiet", action="store_true", help="no progress bars")
    e.set_defaults(run=_evaluate)
