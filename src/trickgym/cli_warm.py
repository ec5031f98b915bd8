"""``trickgym warm``: compile the kernels ahead of time, for cluster images and Dask workers.

Example::

    trickgym warm                          # every game, random, rule and oracle agents, envs
    trickgym warm --game solowhist --agents random,rule --no-envs
"""

from __future__ import annotations

import argparse

from . import cli_common
from .checks import split_names
from .cli_common import whole_number
from .warm import AGENTS, GAMES, warm

__all__ = ["add_parser"]


def _comma_list(flag: str, values: list[str] | None, example: str, kind=str) -> list | None:
    """A list flag's items: comma-separated as in every other flag (``3,4``), or, as
    documented before issue 43, separated by spaces (``3 4``)."""
    if values is None:
        return None
    items = [item for value in values for item in split_names(flag, value, example)]
    try:
        return [kind(item) for item in items]
    except argparse.ArgumentTypeError as err:
        raise ValueError(f"{flag}: {err}") from None


def _warm(args) -> int:
    warm(
        args.game,
        args.agents,
        players=_comma_list("--players", args.players, "3,4", whole_number),
        modes=_comma_list("--mode", args.mode, "kitty,exchange"),
        envs=not args.no_envs,
        progress=False if args.quiet else None,
        log=lambda line: print(line, flush=True),
    )
    return 0


def add_parser(sub) -> None:
    """Register the ``warm`` subcommand on the ``trickgym`` parser's subparsers."""

    w = cli_common.add_parser(
        sub,
        "warm",
        help="compile the kernels ahead of time (numba caches them on disk), e.g. while "
        "building a cluster image: tiny runs of every game with random, rule and oracle "
        "agents, and the Gymnasium envs; prints what each step compiled and how long it took",
    )
    w.add_argument(
        "--game",
        default=None,
        help=f"the game(s) to build, comma-separated: {', '.join(GAMES)} (default: all)",
    )
    w.add_argument(
        "--agents",
        default=",".join(AGENTS),
        help="the built-in agents to run, comma-separated, among "
        f"{', '.join(AGENTS)}; e.g. random,rule for an image without the oracle",
    )
    w.add_argument(
        "--players",
        nargs="+",
        default=None,
        metavar="N",
        help="Troggu table sizes, comma-separated, 3..8 (default: 4; the kernels do not "
        "depend on it)",
    )
    w.add_argument(
        "--mode",
        nargs="+",
        default=None,
        metavar="MODE",
        help="Pinochle modes, comma-separated: kitty, exchange (default: both)",
    )
    w.add_argument("--no-envs", action="store_true", help="skip the Gymnasium and vector envs")
    w.add_argument("--quiet", action="store_true", help="no progress line while compiling")
    w.set_defaults(run=_warm)
