"""The command line of a generated docs page: print it, or write it to the path given."""

from __future__ import annotations

import sys
from collections.abc import Callable

from .games import GAMES


def games_page(header: str, section: Callable[[str], list[str]]) -> str:
    """``header``, then the lines ``section(name)`` gives for every game, ending in one newline."""
    lines = [header]
    for name in GAMES:
        lines += section(name)
    return "\n".join(lines).rstrip("\n") + "\n"


def page_main(make_text: Callable[[], str], argv=None) -> None:
    """Write ``make_text()`` to the path in ``argv`` (default ``sys.argv[1:]``), or print it."""
    args = sys.argv[1:] if argv is None else argv
    text = make_text()
    if not args:
        sys.stdout.write(text)
        return
    with open(args[0], "w", encoding="utf-8") as f:
        f.write(text)
