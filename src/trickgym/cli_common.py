"""Pieces the command line's subcommands share: the help formatter, parsers and table flags."""

from __future__ import annotations

import argparse
import re

from .games import GAMES, game_class

__all__ = [
    "HelpFormatter",
    "Parser",
    "add_alias",
    "add_parser",
    "add_table_flags",
    "cli_words",
    "game_flag",
    "game_options",
    "parse_whole",
    "real_number",
    "table_options",
    "whole_number",
]

# Exponents past this are a typo, not a count: 10**1000 would only be refused
# by the range check after being built (and ``1e999999999`` would take minutes).
_MAX_EXPONENT = 100


def parse_whole(text: str) -> int | None:
    """The integer ``text`` spells exactly, or None.

    Besides ``1000000`` it reads ``1_000_000`` and ``1e6`` (``2.5e3`` too):
    people type counts that way, and a value that is a whole number is one
    whatever the spelling. ``1.5``, ``1e-3``, ``nan``, ``0x10`` and ``''``
    are not whole numbers.
    """
    # lazy: keeps the command line's start quick
    from decimal import Decimal, InvalidOperation

    text = text.strip()
    if re.fullmatch(r"[+-]?\d+(?:_\d+)*", text):
        try:
            return int(text)
        except ValueError:  # past Python's 4300-digit limit for str -> int
            return None
    match = re.fullmatch(r"[+-]?\d+(?:\.\d*)?[eE]([+-]?\d+)", text)
    if match is None or abs(int(match[1])) > _MAX_EXPONENT:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return int(value) if value == value.to_integral_value() else None


def whole_number(text: str) -> int:
    """argparse ``type`` of the integer flags: :func:`parse_whole`, or a one-line refusal."""
    value = parse_whole(text)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a whole number (write e.g. 1000, 1_000_000 or 1e6)"
        )
    return value


def real_number(text: str) -> float:
    """argparse ``type`` of the flags that take a number (``32``, ``0.5``, ``1e3``).

    ``nan`` and ``inf`` parse: the checks of the API refuse them, naming
    what they allow.
    """
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number (write e.g. 32 or 0.5)"
        ) from None


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line after a one-line usage.

    argparse prints the whole usage (ten lines for ``simulate``) before the
    error, which is then easy to miss; here the usage names the command and
    where its flags are listed, and the error says how to give a value that
    starts with ``-`` (argparse takes ``--deals -inf`` for a missing value).
    """

    def error(self, message):
        """Print the short usage and ``PROG: error: MESSAGE``, exit 2."""
        match = re.fullmatch(
            r"argument (--[\w-]+)(?:/[\w-]+)*: expected (one|at least one) argument", message
        )
        if match:
            flag = match[1]
            message = (
                f"argument {flag}: expected a value (one that starts with '-' is written "
                f"{flag}=VALUE, e.g. {flag}=-1)"
            )
        self.exit(
            2,
            f"usage: {self.prog} ... ('{self.prog} --help' lists the flags)\n"
            f"{self.prog}: error: {message}\n",
        )


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
            whole = parse_whole(value)
            options[name] = value if whole is None else whole
    return options


def add_alias(parser, flag: str, dest: str) -> None:
    """``flag`` as a hidden old name of the option stored in ``dest``."""
    parser.add_argument(flag, dest=dest, default=argparse.SUPPRESS, help=argparse.SUPPRESS)


def add_count_flags(parser, default: int, per: str = "") -> None:
    """``--deals`` and ``--matches`` of a command that plays Phat in whole matches.

    The same words and the same rule as ``simulate``'s (see :func:`count_of`):
    Phat counts matches, every other game deals. ``per`` ends each help
    ("per tournament").
    """
    parser.add_argument(
        "--deals",
        type=whole_number,
        default=None,
        help=f"deals{per} (default: {default:,}); phat is played in whole matches: --matches",
    )
    parser.add_argument(
        "--matches",
        type=whole_number,
        default=None,
        help=f"whole matches{per}, for phat (default: {default:,})",
    )


def add_seed_flag(parser, default: int | None = None) -> None:
    """``--seed``, a whole number; ``None`` (the default) stands for seed 0."""
    note = " (default: 0)" if default is None else ""
    parser.add_argument(
        "--seed", type=whole_number, default=default, help=f"seed, 0 .. 2**64-1{note}"
    )


def count_of(args, game) -> int | None:
    """What ``--deals``/``--matches`` ask of ``game`` (``None``: the command's default).

    Phat is played in whole matches (``--matches``); every other game here in
    deals (``--deals``). The wrong one is refused in one line, as ``simulate``
    refuses it.
    """
    if not isinstance(game, str) or game not in GAMES:
        return args.deals if args.matches is None else args.matches  # the game is refused next
    if game_class(game).run_unit == "matches":
        if args.deals is not None:
            raise ValueError(
                f"{game} is played in whole matches: pass --matches N, not --deals {args.deals}"
            )
        return args.matches
    if args.matches is not None:
        raise ValueError(
            f"{game} is played in deals here: pass --deals N, not --matches {args.matches} "
            "(--matches is for phat, raced to 181)"
        )
    return args.deals


def add_table_flags(parser) -> None:
    """The game's table options: --players, --mode and any --option NAME=VALUE."""
    parser.add_argument(
        "--players",
        type=whole_number,
        default=None,
        help="players, Troggu only: 3..8 (required there)",
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


# Python parameter names whose flag is not ``--`` and the name with dashes.
_PARAM_DESTS = {
    "auction_so_far": "auction",
    "competitors": "agents",
    "opponents": "agents",
    "modes": "mode",
    "rebuild": "rebuild_metadata",
}
# What follows a plain word (``deals``, ``chunk``) at the start of a clause when it is a
# parameter's name: a predicate (``deals must be ...``), a quoted value (``hand 'AKQ':
# ...``) or an alias (``agents (competitors) must ...``). Anything else is prose: ``chunk
# file ... was not written``, ``resume the run``.
_PREDICATE = r"(?:must|is required|are required|is for|are for|needs|given|cannot)\b"
_NAMED = (
    rf"(?= (?:{_PREDICATE}|has\b|'[^']*'|\"[^\"]*\"|\([\w ]+\) {_PREDICATE}|-?\d\S* {_PREDICATE}))"
)
_CLAUSE = r"(?:(?<=^)|(?<=: )|(?<=; ))"
# Words after "option" that are prose, not a game option's name.
_PROSE = {"a", "an", "and", "are", "for", "is", "must", "of", "or", "the", "to"}
# A rewritten flag is marked while the message is tidied (see _tidy).
_MARK, _END = "\x01", "\x02"


def _flags(parser, typed=()) -> dict[str, tuple[str, bool]]:
    """``dest -> (flag, takes no value)`` for the visible long flags of ``parser``.

    A flag in ``typed`` (the words of the command line) wins over the visible
    one of its dest: ``tournament --agents`` (an old spelling of
    ``--competitors``) is named as typed.
    """
    typed = {word.split("=", 1)[0] for word in typed if word.startswith("--")}
    flags = {}
    for action in parser._actions:
        longs = [o for o in action.option_strings if o.startswith("--")]
        if not longs or action.dest == "help":
            continue
        said = [o for o in longs if o in typed]
        if said:
            flags[action.dest] = (said[0], action.nargs == 0)
        elif action.help != argparse.SUPPRESS:
            flags.setdefault(action.dest, (longs[0], action.nargs == 0))
    return flags


def cli_words(message: str, parser, typed=()) -> str:
    """A Python API error ``message`` reworded in the flags of the subcommand ``parser``.

    The Python API names its parameters (``pass matches=N, not deals=100``,
    ``turn_up is required``, ``option players``); at the command line the
    person typed ``--matches``, ``--turn-up``, ``--players``. Only Python
    spellings of this subcommand's flags are rewritten: ``NAME=VALUE``, a
    name with an underscore (``turn_up``), ``option NAME`` (a game option
    without a flag of its own becomes ``--option NAME``) and a plain name
    that is a clause's subject followed by a predicate or a value
    (``deals must be``, ``hand 'AKQ': ...``). Prose is left alone (``chunk
    file``, ``resume the run``), and a flag the message already spells next
    to its Python spelling is not doubled (``resume=True (--resume)``).
    ``typed``: the command line's words, so that a flag is named as typed.
    """
    flags = _flags(parser, typed)
    has_option = "option" in flags

    def dest(name: str) -> str:
        return _PARAM_DESTS.get(name, name)

    def flag(name: str) -> str | None:
        return flags[dest(name)][0] if dest(name) in flags and dest(name) != "option" else None

    def option(name: str) -> str:
        return flag(name) or (f"--option {name}" if has_option else name)

    def options(names: str) -> str:  # "a, b" -> "--players, --option b"
        return ", ".join(option(n) for n in names.split(", "))

    def option_words(match) -> str:
        name = match.group(1)
        return match.group(0) if name in _PROSE else option(name)

    message = re.sub(r"(?<![\w-])option (\w+)\b", option_words, message)
    message = re.sub(
        r"unknown option\(s\) ((?:\w+, )*\w+); allowed: ((?:\w+, )*\w+)",
        lambda m: f"not an option of this game: {options(m[1])}; its options: {options(m[2])}",
        message,
    )
    names = sorted({n for n in [*flags, *_PARAM_DESTS] if flag(n)}, key=len, reverse=True)
    if not names:
        return message
    alternation = "|".join(map(re.escape, names))

    def marked(name: str, value: str = "") -> str:
        return f"{_MARK}{flag(name)}{f' {value}' if value else ''}{_END}"

    def assignment(match) -> str:
        name, value = match.group(1), match.group(2).strip("'\"")
        if flags[dest(name)][1]:  # a switch: dd=True is --dd, dd=False is no --dd
            return marked(name) if value != "False" else f"no {marked(name)}"
        return marked(name, value)

    message = re.sub(rf"(?<![\w-])({alternation})=('[^']*'|[^\s,;:)]*)", assignment, message)
    python = "|".join(re.escape(n) for n in names if "_" in n)
    if python:  # turn_up, dd_max_nodes: never prose
        message = re.sub(rf"(?<![\w.-])({python})(?![\w=-])", lambda m: marked(m[1]), message)
    message = re.sub(rf"{_CLAUSE}({alternation}){_NAMED}", lambda m: marked(m[1]), message)
    # None is the Python default of a flag left out; a person cannot type it.
    message = message.replace(", or None,", ",").replace(", or None", "")
    return _tidy(message)


def _tidy(message: str) -> str:
    """``message`` with the marks of rewritten flags removed, and no flag said twice.

    A run of rewritten flags followed by a parenthesis that only spells
    them for the command line loses the parenthesis (``resume=True
    (--resume)``, ``resume=True, rebuild=True (trickgym simulate ... --resume
    --rebuild-metadata)``); a parenthesis that starts with them and repeats
    them loses the repetition (``(resume=True, --resume)``).
    """
    item = rf"(?:{_MARK}[^{_END}]*{_END}|--[a-z][\w-]*)"
    run = rf"{item}(?:(?:, | and | or | ){item})*"

    def tokens(text: str) -> set[str]:
        return set(re.findall(r"[^\s,]+", text.replace(_MARK, "").replace(_END, "")))

    def flags_of(text: str) -> set[str]:
        return {t for t in tokens(text) if t.startswith("--")}

    def dedup(text: str) -> str:
        items = re.findall(item, text)
        seps = re.findall(rf"(?<={_END}|[\w-])(, | and | or | )(?={_MARK}|--)", text)
        kept = list(dict.fromkeys(i.replace(_MARK, "").replace(_END, "") for i in items))
        sep = seps[0] if seps else ", "
        return sep.join(kept)

    def spelled_again(match) -> str:
        first, inside = match.group(1), match.group(2)
        rest = tokens(inside) - tokens(first) - {"trickgym", "..."}
        command = re.match(r"\s*trickgym (\w+)", inside)
        if command:
            rest.discard(command[1])
        if flags_of(inside) and not rest:
            return dedup(first)
        return f"{dedup(first)} ({inside})"

    def repeated(match) -> str:
        first, rest = match.group(1), match.group(3)
        if flags_of(first) <= flags_of(rest):
            return f"({rest})"
        return match.group(0)

    message = re.sub(rf"({run}) \(([^()]*)\)", spelled_again, message)
    message = re.sub(rf"\(({run})(, | or | and )([^()]*)\)", repeated, message)
    message = re.sub(run, lambda m: dedup(m.group(0)), message)
    return message.replace(_MARK, "").replace(_END, "")


def game_flag(flag: str | None, positional: str | None, default: str = "solowhist") -> str:
    """The game of ``--game``, or of the old positional spelling (``play solowhist``)."""
    if flag is not None and positional is not None and flag != positional:
        raise ValueError(f"--game {flag} and the game {positional!r}: give the game once")
    if flag is not None:
        return flag
    return default if positional is None else positional
