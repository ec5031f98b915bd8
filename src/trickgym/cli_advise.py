"""``trickgym advise GAME HAND``: the hand advisor's table of calls (see ``hand_odds``)."""

from __future__ import annotations

import time

__all__ = ["add_parser", "run"]


def add_parser(sub) -> None:
    """Register the ``advise`` subcommand on the ``trickgym`` subparsers ``sub``."""
    from .analysis.advise import (
        DEFAULT_EXACT_NODES,
        DEFAULT_NODE_LIMIT,
        DEFAULT_PIMC_SAMPLES,
        PLAYS,
    )
    from .cli_common import add_parser

    p = add_parser(
        sub,
        "advise",
        help="how each call the seat could make now would fare, over sampled deals",
        description=(
            "Deal the unseen cards many times consistently with what the seat knows (its "
            "hand, the dealer, the turn-up, the auction so far), play or solve each deal "
            "for every call the seat could make now, and print one row per call: "
            "made %% with a 95%% Wilson interval, mean tricks and expected payoff."
        ),
        epilog='example: trickgym advise solowhist "AKQJ5.K2.A7.9832" --turn-up 2S '
        "--seat 1 --dealer 0 --deals 2000",
    )
    p.add_argument("game", help="solowhist, pinochle, troggu or phat")
    p.add_argument("hand", help='the seat\'s cards, e.g. "AKQJ5.K2.A7.9832" (suits S.H.D.C)')
    p.add_argument("--turn-up", default=None, help="Solo Whist: the dealer's exposed card, e.g. 2S")
    p.add_argument(
        "--seat", type=int, default=0, help="the seat advised (0..3; Troggu: 0..players-1)"
    )
    p.add_argument(
        "--dealer", type=int, default=None, help="the dealer (default: the seat's right)"
    )
    p.add_argument(
        "--auction",
        default=None,
        help='the calls before the seat\'s turn, from eldest, e.g. "Pass,Prop"',
    )
    p.add_argument(
        "--deals", type=int, default=None, help="deals to sample (default: 1000, pimc 20)"
    )
    p.add_argument("--play", choices=PLAYS, default="dd", help="solve, or play out by agents")
    p.add_argument("--seed", type=int, default=0, help="seed, 0 .. 2**64-1")
    p.add_argument(
        "--pimc-samples",
        type=int,
        default=DEFAULT_PIMC_SAMPLES,
        help="samples per PIMC decision (--play pimc)",
    )
    p.add_argument(
        "--max-nodes",
        type=int,
        default=DEFAULT_NODE_LIMIT,
        help="--play dd: node budget of a probe (deals past it are counted as unsolved)",
    )
    p.add_argument(
        "--exact-nodes",
        type=int,
        default=DEFAULT_EXACT_NODES,
        help="--play dd: node budget of a Solo's exact trick count (0: probes only)",
    )
    p.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    p.add_argument("--players", type=int, default=None, help="players, Troggu only: 3..8")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a table option of the game, e.g. unit=2")  # fmt: skip
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run(args) -> int:
    """Handler of ``trickgym advise``."""
    from .analysis.advise import format_advice, hand_odds
    from .cli_common import game_options
    from .games import game as make_game

    options = game_options(args.option)
    if args.players is not None:
        options["players"] = args.players
    game = make_game(args.game, **options)
    start = time.perf_counter()
    df = hand_odds(
        game,
        args.hand,
        seat=args.seat,
        dealer=args.dealer,
        turn_up=args.turn_up,
        auction_so_far=args.auction,
        deals=args.deals,
        play=args.play,
        seed=args.seed,
        progress=False if args.quiet else None,
        threads=args.threads,
        pimc_samples=args.pimc_samples,
        max_nodes=args.max_nodes,
        exact_nodes=args.exact_nodes,
    )
    elapsed = time.perf_counter() - start
    print(
        f"{args.game}: hand {args.hand}, seat {args.seat}, play {args.play}, "
        f"seed {args.seed}: {int((df['deals'] + df['unsolved']).iloc[0])} deals "
        f"({elapsed:.1f} s)"
    )
    print(format_advice(df))
    return 0
