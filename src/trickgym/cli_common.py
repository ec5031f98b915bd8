"""Pieces the command line's subcommands share: the help formatter, parsers and table flags."""

from __future__ import annotations

import argparse

__all__ = [
    "HelpFormatter",
    "add_alias",
    "add_parser",
    "add_table_flags",
    "game_options",
    "table_options",
]


class HelpFormatter(argparse.HelpFormatter):
    """Help that shows every flag's default (unless the help text already says it).

    A description or epilog of one line is wrapped; one of several lines
    (the examples) is kept as written.
    """

    def _fill_text(self, text, width, indent):
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)

    def _get_help_string(self, action):
        text = action.help or ""
        default = action.default
        if (
            "default" in text
            or default is None
            or default is False
            or default == []
            or default == argparse.SUPPRESS
        ):
            return text
        if action.option_strings or action.nargs in ("?", "*"):
            return f"{text} (default: %(default)s)"
        return text


def add_parser(sub, name: str, **kwargs) -> argparse.ArgumentParser:
    """A subcommand parser with the shared help formatter; its description is its help."""
    kwargs.setdefault("description", kwargs.get("help"))
    return sub.add_parser(name, formatter_class=HelpFormatter, **kwargs)


def game_options(pairs: list[str]) -> dict:
    """Parse ``--option unit=2`` style pairs into typed values."""
    options = {}
    for pair in pairs:
        if "=" not in pair:
            raise ValueError(f"option {pair!r} must be written NAME=VALUE, e.g. unit=2")
        name, value = pair.split("=", 1)
        low = value.lower()
        if low in ("true", "false"):
            options[name] = low == "true"
        else:
            try:
                options[name] = int(value)
            except ValueError:
                options[name] = value
    return options


def add_alias(parser, flag: str, dest: str) -> None:
    """``flag`` as a hidden old name of the option stored in ``dest``."""
    parser.add_argument(flag, dest=dest, default=argparse.SUPPRESS, help=argparse.SUPPRESS)


def add_table_flags(parser) -> None:
    """The game's table options: --players, --mode and any --option NAME=VALUE."""
    parser.add_argument(
        "--players", type=int, default=None, help="players, Troggu only: 3..8 (required there)"
    )
    parser.add_argument("--mode", default=None, help="Pinochle only: kitty (default) or exchange")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a table option of the game, e.g. unit=2 (repeat the flag for several)",
    )


def table_options(args) -> dict:
    """The game options the table flags of :func:`add_table_flags` give."""
    options = game_options(args.option)
    if args.players is not None:
        options["players"] = args.players
    if args.mode is not None:
        options["mode"] = args.mode
    return options
