"""``trickgym advise --game GAME --hand HAND``: the hand advisor's table of calls."""

from __future__ import annotations

import argparse
import sys
import time

from trickgym import cli_common
from trickgym.cli_common import add_table_flags, table_options, whole_number
from trickgym.costs import ADVISE_DD, advise_warning
from trickgym.games import GAMES
from trickgym.games import game as make_game

__all__ = ["add_parser", "run"]


def add_parser(sub) -> None:
    """Register the ``advise`` subcommand on the ``trickgym`` subparsers ``sub``."""
    # lazy: trickgym.advisor.advise loads pandas
    from trickgym.advisor.advise import (
        DEFAULT_EXACT_NODES,
        DEFAULT_NODE_LIMIT,
        DEFAULT_PIMC_SAMPLES,
        DEFAULT_POINTS_NODE_LIMIT,
        PLAYS,
    )

    p = cli_common.add_parser(
        sub,
        "advise",
        help="how each call the seat could make now would fare, over sampled deals",
        description=(
            "Deal the unseen cards many times consistently with what the seat knows (its "
            "hand, the dealer, the turn-up, the auction so far), play or solve each deal "
            "for every call the seat could make now, and print one row per call: "
            "made % with a 95% Wilson interval, mean tricks and expected payoff."
        ),
        epilog="example: trickgym advise --game solowhist --hand AKQJ5.K2.A7.9832 --turn-up 2S "
        "--seat 1 --dealer 0 --deals 2000",
    )
    p.add_argument("--game", default=None, help="solowhist (default), pinochle, troggu or phat")
    p.add_argument(
        "--hand", default=None, help='the seat\'s cards, e.g. "AKQJ5.K2.A7.9832" (suits S.H.D.C)'
    )
    # ``trickgym advise solowhist HAND``, as before --game and --hand: still accepted, unshown.
    p.add_argument("words", nargs="*", default=[], help=argparse.SUPPRESS)
    p.add_argument("--turn-up", default=None, help="Solo Whist: the dealer's exposed card, e.g. 2S")
    p.add_argument(
        "--seat", type=whole_number, default=0, help="the seat advised (0..3; Troggu: 0..players-1)"
    )
    p.add_argument(
        "--dealer", type=whole_number, default=None, help="the dealer (default: the seat's right)"
    )
    p.add_argument(
        "--auction",
        default=None,
        help='the calls before the seat\'s turn, from eldest, e.g. "Pass,Prop"',
    )
    p.add_argument(
        "--deals",
        type=whole_number,
        default=None,
        help="deals to sample (default: rule 1000, pimc 20; dd about a minute's worth: "
        + ", ".join(f"{g} {d}" for g, (_, d) in ADVISE_DD.items())
        + ")",
    )
    p.add_argument(
        "--play",
        choices=PLAYS,
        default="dd",
        help="dd: solve each deal with every card seen (every game); rule, pimc: play it "
        "out by those agents",
    )
    p.add_argument("--seed", type=whole_number, default=0, help="seed, 0 .. 2**64-1")
    p.add_argument(
        "--pimc-samples",
        type=whole_number,
        default=DEFAULT_PIMC_SAMPLES,
        help="samples per PIMC decision (--play pimc)",
    )
    p.add_argument(
        "--max-nodes",
        type=whole_number,
        default=None,
        help=f"--play dd: node budget of a Solo Whist probe (default {DEFAULT_NODE_LIMIT:,}) "
        f"or of a full point-trick solve (default {DEFAULT_POINTS_NODE_LIMIT:,}); deals past "
        "it are counted as unsolved and shown",
    )
    p.add_argument(
        "--exact-nodes",
        type=whole_number,
        default=DEFAULT_EXACT_NODES,
        help="--play dd: node budget of a Solo's exact trick count (0: probes only)",
    )
    p.add_argument(
        "--threads", type=whole_number, default=None, help="threads (default: all cores)"
    )
    add_table_flags(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run(args) -> int:
    """Handler of ``trickgym advise``."""
    # lazy: trickgym.advisor.advise loads pandas
    from trickgym.advisor.advise import format_advice, hand_odds

    words = list(args.words)
    if len(words) > 2:
        raise ValueError(f"give the game with --game and the hand with --hand, got {words}")
    # One old positional word is the game if it names one (advise troggu --hand ...), else the hand.
    game_word = words.pop(0) if len(words) == 2 or (words and words[0] in GAMES) else None
    hand_word = words[0] if words else None
    for flag, value, word in (("--game", args.game, game_word), ("--hand", args.hand, hand_word)):
        if value is not None and word is not None and value != word:
            raise ValueError(f"{flag} {value} and {word!r}: give it once, with {flag}")
    # '' given is a slip, refused by the game or the hand: never the default.
    args.game = next((v for v in (args.game, game_word) if v is not None), "solowhist")
    args.hand = args.hand if args.hand is not None else hand_word
    if args.hand is None:
        raise ValueError('--hand is required: the seat\'s cards, e.g. --hand "AKQJ5.K2.A7.9832"')
    game = make_game(args.game, **table_options(args))
    _say_cost(game, args)
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
    unsolved = ""
    if args.play == "dd":
        # Solves of one deal: a call's follow-up may differ, so counted per call.
        unsolved = f", {int(df['unsolved'].sum())} call-deals unsolved"
    print(
        f"{args.game}: hand {args.hand}, seat {args.seat}, play {args.play}, "
        f"seed {args.seed}: {int((df['deals'] + df['unsolved']).iloc[0])} deals "
        f"({elapsed:.1f} s{unsolved})"
    )
    print(format_advice(df))
    return 0


def _say_cost(game, args) -> None:
    """One line on stderr before a long ``--play dd`` run: its expected time, how to shrink."""
    # lazy: trickgym.advisor.advise loads pandas
    from trickgym.advisor.advise import default_deals

    deals = default_deals(game, args.play) if args.deals is None else args.deals
    line = advise_warning(game.name, args.play, deals, args.threads)
    if line:
        print(line, file=sys.stderr, flush=True)
