"""``trickgym replay --game GAME --seed S --agents ... --out deal.html``: a deal as a web page.

Plays one deal (the deal ``trickgym play --seed S`` deals) with one agent
per seat and writes a self-contained HTML page that steps through it move
by move, with the values each search or learnt agent compared at its
decisions (:mod:`trickgym.replay`). Example::

    trickgym replay --game solowhist --seed 7 --agents pimc,rule,learnt,rule --out deal.html
    trickgym replay --game troggu --players 5 --seed 3 --agents rule --viewer 0
"""

from __future__ import annotations

from . import cli_common
from .checks import check_writable
from .cli_common import add_table_flags, table_options
from .replay import write_replay
from .rng import seed_rng

__all__ = ["add_parser"]


def _replay(args) -> int:

    # Before the deal is played (a search agent's deal takes a while), not after. Missing
    # folders are created (by write_replay), as simulate --out creates them.
    check_writable("out", args.out, parents=True)
    seed = seed_rng(args.seed)
    path = write_replay(
        args.out,
        args.game,
        seed,
        args.agents,
        viewer=args.viewer,
        options=table_options(args),
    )
    print(f"wrote {path} ({path.stat().st_size:,} bytes): {args.game}, seed {seed}")
    return 0


def add_parser(sub) -> None:
    """Register the ``replay`` subcommand on the ``trickgym`` parser's subparsers."""
    p = cli_common.add_parser(
        sub,
        "replay",
        help="write a deal played by agents as a web page that steps through it",
        description=(
            "Play one deal with one agent per seat and write one self-contained HTML page "
            "(no network, no server) that steps through it card by card (buttons or arrow "
            "keys), with the values each search or learnt agent compared at its decisions "
            "and the final scores."
        ),
    )
    p.add_argument("--game", default="solowhist", help="solowhist, troggu, phat or pinochle")
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the deal's seed, as for trickgym play (default: random; printed)",
    )
    p.add_argument(
        "--agents",
        default="rule",
        help="one agent for every seat, or one per seat from seat 0 (pimc,rule,learnt,rule)",
    )
    p.add_argument(
        "--viewer",
        type=int,
        default=None,
        metavar="SEAT",
        help="draw the deal as SEAT sees it (default: every hand open)",
    )
    p.add_argument("--out", default="deal.html", help="the page to write")
    add_table_flags(p)
    p.set_defaults(run=_replay)
