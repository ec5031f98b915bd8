"""``trickgym verify``: check a dataset folder written by ``simulate --out``, or upgrade it.

Example::

    trickgym verify runs/sw10m              # metadata, every chunk's name, hash and ids
    trickgym verify runs/sw10m --replay     # also replay each chunk's first deal
    trickgym verify runs/old --upgrade      # record the chunks of a folder from an older version
"""

from __future__ import annotations

from . import cli_common

__all__ = ["add_parser"]


def _verify(args) -> int:
    # lazy: trickgym.sim.dataset loads pandas
    from .sim.dataset import verify_dataset

    result = verify_dataset(args.folder, upgrade=args.upgrade, replay=args.replay)
    n, verified, missing = result["n_chunks"], result["verified"], result["missing"]
    line = f"{args.folder}: {len(verified)} of {n} chunks verified"
    if args.replay and verified:
        items = "matches" if result["items"] == "matches" else "deals"
        line += f", and the first of their {items} replayed to the same rows"
    if result.get("steps"):
        line += ", with their steps files (trajectories)"
    if missing:
        line += f"; {len(missing)} missing (resume the run to complete it)"
    print(line)
    if result["upgraded"]:
        print(f"upgraded {args.folder}: chunk records and the settings' digest written")
    return 0


def add_parser(sub) -> None:
    """Register the ``verify`` subcommand on the ``trickgym`` parser's subparsers."""

    v = cli_common.add_parser(
        sub,
        "verify",
        help="check a dataset folder written by 'simulate --out': its metadata, and every chunk "
        "file by its recorded SHA-256 and row count and by the deal (match) ids it holds; "
        "exit 2 naming every problem",
    )
    v.add_argument("folder", metavar="DIR", help="the dataset folder")
    v.add_argument(
        "--upgrade",
        action="store_true",
        help="a folder written before chunks were recorded: once every chunk is verified, "
        "write their records and the settings' digest into its metadata",
    )
    v.add_argument(
        "--replay",
        action="store_true",
        help="also replay each chunk's first deal (or match) from the recorded settings and "
        "compare the rows (catches a chunk of another seed; built-in agents only)",
    )
    v.set_defaults(run=_verify)
