"""``trickgym dd``: double-dummy tricks for positions given as JSON lines.

Each input line is an object such as::

    {"hands": ["AKQ2.JT9.8765.43", "JT9.8765.43.AKQ2", "8765.43.AKQ2.JT9",
               "43.AKQ2.JT9.8765"], "trumps": "NT", "leader": 0, "declarers": [0, 2]}

with optional ``"trick"`` (cards already played to the current trick, in
order, e.g. ``["QS", "2S"]``) and ``"misere"`` (true: the declarers want
as few tricks as possible). Each output line is the same object with
``"tricks"`` added: the tricks the declarers take from now on. With
``--cards`` it also gets ``"card_values"``: the value of each legal card of
the player to move. Blank lines are skipped; a bad line stops the run with an
error naming its line number.
"""

from __future__ import annotations

import json
import sys

from . import cli_common
from .checks import check_file, check_tt_mb, check_writable
from .cli_common import real_number

__all__ = ["add_parser"]

_KEYS = {"hands", "trumps", "leader", "declarers", "trick", "misere"}


def add_parser(sub) -> None:
    """Register the ``dd`` subcommand on the ``trickgym`` subparsers ``sub``."""
    p = cli_common.add_parser(
        sub,
        "dd",
        help="double-dummy tricks for JSON-lines positions",
        description=(
            "Read positions as JSON lines, e.g. "
            '{"hands": ["AKQ2.JT9.8765.43", "JT9.8765.43.AKQ2", "8765.43.AKQ2.JT9", '
            '"43.AKQ2.JT9.8765"], "trumps": "NT", "leader": 0, "declarers": [0, 2]} '
            '(optional "trick": cards already played to the current trick, '
            '"misere": true), and write each with "tricks" added: the tricks the '
            "declarers take from now on with double-dummy play."
        ),
    )
    p.add_argument("input", nargs="?", default="-", help="JSON-lines file (default: stdin)")
    p.add_argument(
        "--out",
        default="-",
        metavar="FILE.jsonl",
        help="write the JSON lines to this file (default: stdout)",
    )
    p.add_argument("--cards", action="store_true", help="add the value of every legal card")
    p.add_argument("--tt-mb", type=real_number, default=32, help="transposition table size in MB")
    p.set_defaults(run=run)


def solve_line(obj: dict, cards: bool = False, tt_mb: float = 32) -> dict:
    """The object of one input line with ``"tricks"`` (and ``"card_values"``) added."""
    # lazy: the double-dummy solver takes 0.2 s to import
    from .solvers.dd import card_values, solve

    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object, got {type(obj).__name__}")
    missing = [k for k in ("hands", "trumps", "leader", "declarers") if k not in obj]
    if missing:
        raise ValueError(f"missing key(s) {', '.join(missing)}")
    unknown = sorted(set(obj) - _KEYS - {"tricks", "card_values"})
    if unknown:
        raise ValueError(
            f"unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(_KEYS))}"
        )
    misere = obj.get("misere", False)
    if not isinstance(misere, bool):
        raise ValueError(f"misere must be true or false, got {misere!r}")
    args = (obj["hands"], obj["trumps"], obj["leader"], obj["declarers"], obj.get("trick", ()))
    result = dict(obj)
    result["tricks"] = solve(*args, tt_mb=tt_mb, misere=misere)
    if cards:
        result["card_values"] = card_values(*args, tt_mb=tt_mb, misere=misere)  # by name
    return result


def run(args) -> int:
    """Handler of ``trickgym dd``."""
    check_tt_mb(args.tt_mb)  # before the first line: an empty input must not hide it
    source = sys.stdin if args.input == "-" else _open("input", args.input, "r")
    sink = sys.stdout if args.out == "-" else _open("out", args.out, "w")
    try:
        for number, line in enumerate(source, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as err:
                raise ValueError(f"line {number}: not valid JSON ({err.msg})") from None
            try:
                result = solve_line(obj, cards=args.cards, tt_mb=args.tt_mb)
            except ValueError as err:
                raise ValueError(f"line {number}: {err}") from None
            sink.write(json.dumps(result) + "\n")
            sink.flush()
    finally:
        if source is not sys.stdin:
            source.close()
        if sink is not sys.stdout:
            sink.close()
    return 0


def _open(name: str, path: str, mode: str):
    """``path`` opened (``mode`` ``"r"`` or ``"w"``), or a ``ValueError`` naming the argument."""
    if mode == "r":
        check_file(name, path)
    else:
        check_writable(name, path)
    try:
        return open(path, mode, encoding="utf-8")
    except OSError as err:
        raise ValueError(f"cannot open {path!r}: {err.strerror}") from None
