"""``trickgym play --game GAME``: play a deal in the terminal against built-in agents.

Example::

    trickgym play --game solowhist --seat 0 --agents rule,rule,random --seed 7
    trickgym play --game troggu --players 5 --agents rule
"""

from __future__ import annotations

import argparse

from . import cli_common
from .cli_common import add_alias, add_table_flags, game_flag, table_options, whole_number
from .play import DealAbandoned, play_deal

__all__ = ["add_parser"]


def _play(args) -> int:
    game = game_flag(args.game, args.positional_game)
    options = table_options(args)
    if args.color and args.no_color:  # opposite asks: neither silently wins
        raise ValueError("--color and --no-color say opposite things: give one of them")
    color = False if args.no_color else (True if args.color else None)
    # Stopping (quit, Ctrl-D, Ctrl-C) is the person's choice, not an error: exit 0.
    try:
        play_deal(game, args.seat, args.agents, args.seed, options, color=color)
    except DealAbandoned as stop:
        print(f"\ndeal abandoned ({stop}); replay it with --seed {stop.seed}")
    except KeyboardInterrupt:
        print("\ndeal abandoned (Ctrl-C)")
    return 0


def add_parser(sub) -> None:
    """Register the ``play`` subcommand on the ``trickgym`` parser's subparsers."""
    play = cli_common.add_parser(
        sub, "play", help="play a deal in the terminal against built-in agents"
    )
    play.add_argument("--game", default=None, help="solowhist (default), troggu, phat or pinochle")
    # ``trickgym play solowhist``, as before --game: still accepted, no longer shown.
    play.add_argument("positional_game", nargs="?", default=None, help=argparse.SUPPRESS)
    play.add_argument("--seat", type=whole_number, default=0, help="your seat")
    play.add_argument(
        "--agents",
        default="rule",
        help="one agent per seat, yours left out: one name for every other seat, or one per "
        "seat in playing order after yours (rule,rule,random)",
    )
    add_alias(play, "--opponents", "agents")  # the flag's old name
    play.add_argument(
        "--seed",
        type=whole_number,
        default=None,
        help="the deal's seed (default: random; printed, so the deal can be replayed)",
    )
    add_table_flags(play)
    play.add_argument("--no-color", action="store_true", help="no colours (also: NO_COLOR=1)")
    play.add_argument("--color", action="store_true", help="colours even when not a terminal")
    play.set_defaults(run=_play)
