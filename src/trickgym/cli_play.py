"""``trickgym play GAME``: play a deal in the terminal against built-in agents.

Example::

    trickgym play solowhist --seat 0 --opponents rule,rule,random --seed 7
    trickgym play troggu --players 5 --opponents rule
"""

from __future__ import annotations

__all__ = ["add_parser"]


def _play(args) -> int:
    from .cli_common import table_options
    from .play import play_deal

    options = table_options(args)
    color = False if args.no_color else (True if args.color else None)
    try:
        play_deal(args.game, args.seat, args.opponents, args.seed, options, color=color)
    except KeyboardInterrupt:
        print("\ndeal abandoned")
        return 1
    return 0


def add_parser(sub) -> None:
    """Register the ``play`` subcommand on the ``trickgym`` parser's subparsers."""
    from .cli_common import add_alias, add_parser, add_table_flags

    play = add_parser(sub, "play", help="play a deal in the terminal against built-in agents")
    play.add_argument("game", help="solowhist, troggu, phat or pinochle")
    play.add_argument("--seat", type=int, default=0, help="your seat")
    play.add_argument(
        "--opponents",
        default="rule",
        help="the agents of the other seats: one name for all of them, or one per seat in "
        "playing order after yours (rule,rule,random)",
    )
    add_alias(play, "--agents", "opponents")
    play.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the deal's seed (default: random; printed, so the deal can be replayed)",
    )
    add_table_flags(play)
    play.add_argument("--no-color", action="store_true", help="no colours (also: NO_COLOR=1)")
    play.add_argument("--color", action="store_true", help="colours even when not a terminal")
    play.set_defaults(run=_play)
