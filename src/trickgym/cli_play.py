"""``trickgym play GAME``: play a deal in the terminal against built-in agents.

Example::

    trickgym play solowhist --seat 0 --agents rule,rule,random --seed 7
    trickgym play troggu --players 5 --agents rule
"""

from __future__ import annotations

__all__ = ["add_parser"]


def _play(args) -> int:
    from .cli import _game_options
    from .play import play_deal

    options = _game_options(args.option)
    if args.players is not None:
        options["players"] = args.players
    if args.mode is not None:
        options["mode"] = args.mode
    color = False if args.no_color else (True if args.color else None)
    try:
        play_deal(args.game, args.seat, args.agents, args.seed, options, color=color)
    except KeyboardInterrupt:
        print("\ndeal abandoned")
        return 1
    return 0


def add_parser(sub) -> None:
    """Register the ``play`` subcommand on the ``trickgym`` parser's subparsers."""
    play = sub.add_parser("play", help="play a deal in the terminal against agents")
    play.add_argument("game", help="solowhist, troggu, phat or pinochle")
    play.add_argument("--seat", type=int, default=0, help="your seat (0)")
    play.add_argument(
        "--agents",
        default="rule",
        help="one agent for all other seats, or one per seat: rule,random",
    )
    play.add_argument(
        "--seed", type=int, default=None, help="the deal's seed (printed; replays it)"
    )
    play.add_argument("--players", type=int, default=None, help="players (Troggu: 3..8)")
    play.add_argument("--mode", default=None, help="Pinochle: kitty (default) or exchange")
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    play.add_argument("--no-color", action="store_true", help="no colours (also: NO_COLOR=1)")
    play.add_argument("--color", action="store_true", help="colours even when not a terminal")
    play.set_defaults(run=_play)
