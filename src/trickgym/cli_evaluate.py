"""``trickgym evaluate``: a policy's duplicate tournaments against random, rule and pimc.

Example::

    trickgym evaluate --game solowhist --policy experiments/results/cleanrl/policy.npz
    trickgym evaluate --game troggu --players 5 --policy p.npz --opponents random,rule
    trickgym evaluate --policy p.npz --bidding policy   # not the bidding the file records
    trickgym evaluate --policy policy:p.npz:bidding=policy   # the same, as an agent name

The policy bids as its file's settings say (``--bidding`` or the name's
``:bidding=`` overrides them); a file trained for another table is refused.
"""

from __future__ import annotations

__all__ = ["add_parser"]


def _evaluate(args) -> int:
    from .checks import check_writable
    from .cli_common import count_of, table_options
    from .evaluation import evaluate

    if args.out is not None:  # before the tournaments, not after them
        check_writable("out", args.out)
    count = count_of(args, args.game)
    report = evaluate(
        args.policy,
        args.game,
        opponents=args.agents,
        deals=1000 if count is None else count,
        slow_deals=args.slow_deals,
        seed=args.seed,
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


def add_parser(sub) -> None:
    """Register the ``evaluate`` subcommand on the ``trickgym`` parser's subparsers."""
    from .cli_common import add_alias, add_count_flags, add_parser, add_table_flags, whole_number
    from .evaluation import DEFAULT_OPPONENTS

    what = (
        "a policy (.npz MLP weights over the features observation, or an agent name) "
        "in duplicate tournaments against random, rule and pimc: margin per deal, 95{} interval"
    )
    e = add_parser(sub, "evaluate", help=what.format("%%"), description=what.format("%"))
    e.add_argument(
        "--game", default="solowhist", help="solowhist (default), troggu, phat or pinochle"
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
        default=",".join(DEFAULT_OPPONENTS),
        help="one agent per competitor (not per seat): the policy's opponents, "
        "comma-separated, one tournament each (leave pimc out to skip the slow one)",
    )
    add_alias(e, "--agents", "agents")  # documented before issue 43
    add_count_flags(e, 1000, " per tournament")
    e.add_argument(
        "--slow-deals",
        type=whole_number,
        default=20,
        help="deals against Python or solving opponents (pimc, ismcts, learnt, oracle)",
    )
    e.add_argument("--seed", type=whole_number, default=0, help="seed, 0 .. 2**64-1")
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
    add_table_flags(e)
    e.add_argument("--quiet", action="store_true", help="no progress bars")
    e.set_defaults(run=_evaluate)
