"""Issue 42: bad command lines and API arguments, each refused in one clear line.

A table of flags x bad values is fed to every ``trickgym`` subcommand (and a
table of parameters x bad values to the public functions). Each case must end
in a refusal of one line that names the flag (or parameter) and the value
(``trickgym: error: ...`` or argparse's ``error: argument ...``, exit 2; a
``ValueError`` in Python), or, for a value that is in fact good, in the work
starting. Nothing may raise another exception, print a traceback, hang or
accept nonsense.

No case plays a deal: the functions where work starts (a simulation's
chunks, the advisor's samples, a solver's search, the warm-up's compiles, a
deal at the terminal) are replaced by one that raises :class:`WorkStarted`,
so a case costs milliseconds and never waits for numba.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import signal
import sys
from dataclasses import dataclass

import pytest

import trickgym
from trickgym.cli import main

# A case that takes longer than this hangs (validation is milliseconds).
TIMEOUT = 10


class WorkStarted(Exception):
    """The arguments were accepted: the work (deals, searches, compiles) began."""


class Hung(Exception):
    """A case ran past TIMEOUT."""


def _started(*args, **kwargs):
    raise WorkStarted


@pytest.fixture
def no_work(monkeypatch):
    """Every function where real work starts raises :class:`WorkStarted` instead."""
    import trickgym.analysis.advise as advise
    import trickgym.rng as rng
    import trickgym.sim as sim
    import trickgym.solvers.dd as dd
    import trickgym.warm as warm

    monkeypatch.setattr(sim, "_execute", _started)
    monkeypatch.setattr(advise, "_run_compiled", _started)
    monkeypatch.setattr(advise, "_run_pimc", _started)
    monkeypatch.setattr(warm, "run_compiling", _started)

    def seed_rng(seed):  # play: its last check, before the deal
        checked(seed)
        raise WorkStarted

    checked = rng.seed_rng
    monkeypatch.setattr(rng, "seed_rng", seed_rng)

    def search(position, tt_mb, *args):  # the table's size is checked before the search
        dd._table(tt_mb, None)
        raise WorkStarted

    monkeypatch.setattr(dd, "_search", search)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))


@contextlib.contextmanager
def deadline(seconds: float = TIMEOUT):
    """Raise :class:`Hung` in the block after ``seconds``."""

    def expire(signum, frame):
        raise Hung(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass(frozen=True)
class Case:
    """One command line; ``bad``: it must be refused; ``names``: what the refusal names."""

    argv: tuple[str, ...]
    bad: bool
    names: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        text = " ".join(repr(a) if (not a or " " in a) else a for a in self.argv)
        return text if len(text) < 100 else f"{text[:90]}...{len(text)}"


def run_cli(argv) -> tuple[str, int | None, str]:
    """``(outcome, exit code, stderr)``; outcome: refused, accepted, crashed or hung."""
    err, out = io.StringIO(), io.StringIO()
    code = None
    try:
        with deadline(), contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            code = main(list(argv))
    except WorkStarted:
        return "accepted", None, err.getvalue()
    except SystemExit as exit_:
        code = exit_.code
    except Hung as hung:
        return "hung", None, str(hung)
    except BaseException as exc:  # noqa: BLE001 - any other exception is the finding
        return "crashed", None, f"{type(exc).__name__}: {exc}"
    text = err.getvalue()
    if code == 0:
        return "accepted", 0, text
    return "refused", code, text


def error_line(text: str) -> str | None:
    """The one error line of a refusal (``trickgym: error: ...``, ``... error: ...``)."""
    lines = [line for line in text.splitlines() if "error: " in line]
    return lines[0] if len(lines) == 1 else None


def shown(message: str, value: str) -> bool:
    """Whether ``message`` shows ``value`` as typed (or its repr, or a part of a list)."""
    if value in message or repr(value) in message:
        return True
    number = whole(value)  # 1e6 is named as the number it spells
    if number is not None and str(number) in message:
        return True
    parts = [p for p in value.replace(",", " ").split() if p]
    return len(parts) > 1 and any(p in message for p in parts)


def problems(case: Case) -> str | None:
    """What is wrong with the outcome of ``case``, or None."""
    outcome, code, text = run_cli(case.argv)
    if outcome in ("crashed", "hung"):
        return f"{outcome}: {text.strip()[-300:]}"
    if "Traceback" in text:
        return f"traceback: {text[-300:]}"
    if outcome == "accepted":
        return "accepted" if case.bad else None
    line = error_line(text)
    if code != 2 or line is None:
        return f"exit {code}, not one error line: {text.strip()[-300:]!r}"
    if not case.bad:  # a good value refused for another reason, clearly: fine
        return None
    missing = [n for n in case.names if not shown(line, n[:60])]
    if missing:
        return f"does not name {missing}: {line}"
    return None


# Values no count, seed or size may take; each is refused by every integer flag.
NOT_INTS = (
    "",
    " ",
    "abc",
    "1.5",
    "1e-3",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "1e400",
    "0x10",
    "1,000",
    "true",
    "None",
    "--",
    "5 deals",
    "1e6.5",
    "12abc",
)
HUGE = (str(2**63), str(2**64), "9" * 40, "1e30")


def whole(text: str) -> int | None:
    """The integer ``text`` spells exactly (``1e6`` and ``1_000`` too), else None."""
    from decimal import Decimal, InvalidOperation

    if not text.strip() or "x" in text.lower() or "," in text:
        return None
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        return None
    if not value.is_finite() or value != value.to_integral_value() or value.adjusted() > 100:
        return None
    return int(value)


@dataclass(frozen=True)
class IntFlag:
    """An integer flag of a subcommand and its allowed range, ``low..high``."""

    command: str
    flag: str
    low: int
    high: int
    base: tuple[str, ...] = ()


def int_flags() -> list[IntFlag]:
    """Every integer flag with the command line it is tried in."""
    import numba

    sw = ("--game", "solowhist")
    advise = ("--hand", "AKQJ5.K2.A7.9832", "--turn-up", "2S", "--seat", "1", "--dealer", "0")
    troggu = ("--game", "troggu")
    seed = (0, 2**64 - 1)
    items = (1, 2**40)  # a run's deals or matches
    cores = (1, numba.config.NUMBA_NUM_THREADS)
    policy = ("--game", "solowhist", "--policy", "rule")
    return [
        IntFlag("simulate", "--deals", *items, sw),
        IntFlag("simulate", "--matches", *items, ("--game", "phat")),
        IntFlag("simulate", "--seed", *seed),
        IntFlag("simulate", "--threads", *cores),
        IntFlag("simulate", "--chunk", 1, 2**22),
        IntFlag("simulate", "--players", 3, 8, troggu),
        IntFlag("simulate", "--dd-max-nodes", 0, 2**62, ("--dd",)),
        IntFlag("tournament", "--deals", *items),
        IntFlag("tournament", "--seed", *seed),
        IntFlag("tournament", "--threads", *cores),
        IntFlag("tournament", "--players", 3, 8, troggu),
        IntFlag("play", "--seat", 0, 3),
        IntFlag("play", "--seed", *seed),
        IntFlag("play", "--players", 3, 8, troggu),
        IntFlag("advise", "--deals", 1, 10_000_000, advise),
        IntFlag("advise", "--seed", *seed, advise),
        IntFlag("advise", "--seat", 0, 3, ("--hand", "AKQJ5.K2.A7.9832", "--turn-up", "2S")),
        IntFlag("advise", "--dealer", 0, 3, ("--hand", "AKQJ5.K2.A7.9832", "--turn-up", "2S")),
        IntFlag("advise", "--pimc-samples", 1, 10_000, (*advise, "--play", "pimc")),
        IntFlag("advise", "--max-nodes", 1, 2**62, advise),
        IntFlag("advise", "--exact-nodes", 0, 2**62, advise),
        IntFlag("advise", "--threads", *cores, advise),
        IntFlag("advise", "--players", 3, 8, (*troggu, "--hand", "Fool")),
        IntFlag("evaluate", "--deals", *items, policy),
        IntFlag("evaluate", "--slow-deals", *items, policy),
        IntFlag("evaluate", "--seed", *seed, policy),
        IntFlag("evaluate", "--threads", *cores, policy),
        IntFlag("report", "--deals", *items, ("--agents", "rule,random")),
        IntFlag("report", "--matches", *items, ("--agents", "rule", "--game", "phat")),
        IntFlag("report", "--seed", *seed, ("--agents", "rule")),
        IntFlag("report", "--threads", *cores, ("--agents", "rule")),
        IntFlag("report", "--dd-max-nodes", 0, 2**62, ("--agents", "dd")),
        IntFlag("warm", "--players", 3, 8),
    ]


# Values no integer flag takes.
NOT_INTS = (
    "", " ", "abc", "1.5", "1e-3", "nan", "NaN", "inf", "-inf", "1e400", "0x10", "1,000",
    "true", "None", "--", "5 deals", "1e6.5", "12abc", "1e999999999", "9" * 5000, "½", "1/2",
)  # fmt: skip
# Spellings of whole numbers, some good for a flag and some past its range.
WHOLE = ("1e6", "1_000_000", "2.5e3", "+2", " 3 ", "1E2", str(2**63), str(2**64), "1e30")


def int_cases() -> list[Case]:
    """Every integer flag with every bad value, each end of its range and just past it."""
    cases = []
    for f in int_flags():
        quiet = () if f.command == "play" else ("--quiet",)
        edges = (f.low - 1, f.low, f.high, f.high + 1, -1, -(2**63))
        for value in (*NOT_INTS, *WHOLE, *map(str, edges)):
            number = whole(value)
            bad = number is None or not f.low <= number <= f.high
            names = (f.flag, value.strip())
            if value.startswith("-") and number is None:  # argparse: an option, not a value
                names = (f"{f.flag}=",)
            cases.append(Case((f.command, *f.base, f.flag, value, *quiet), bad, names))
    return cases


CLI_CASES = int_cases()


@pytest.mark.parametrize("case", CLI_CASES, ids=[c.id for c in CLI_CASES])
def test_cli_refuses_in_one_clear_line(case, no_work):
    problem = problems(case)
    assert problem is None, problem
