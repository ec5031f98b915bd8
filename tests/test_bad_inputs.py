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
import re
import signal
from dataclasses import dataclass

import pytest

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
    import trickgym.advisor.advise as advise
    import trickgym.cli_replay as cli_replay
    import trickgym.play as play
    import trickgym.replay as replay
    import trickgym.rng as rng
    import trickgym.sim as sim
    import trickgym.sim.trajectories as trajectories
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
    for module in (rng, play, replay, cli_replay, trajectories):  # those that import it
        monkeypatch.setattr(module, "seed_rng", seed_rng)

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
    except BaseException as exc:  # any other exception is the finding
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
    if value.strip() and (value.strip() in message or repr(value.strip()) in message):
        return True
    if value in message or repr(value) in message:
        return True
    if value.startswith("--") and re.search(rf"(?<![\w-]){re.escape(value[2:])}(?![\w-])", message):
        return True  # a flag named by its Python name (policy path ..., hand has ...)
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
    # Each name may list alternatives: "--game|nope" is named by either.
    missing = [n for n in case.names if not any(shown(line, a[:60]) for a in n.split("|"))]
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


def number_like(text: str) -> bool:
    """Whether argparse reads ``text`` as a value though it starts with ``-`` (``-1``, ``-2.5``)."""
    return text == "-" or re.fullmatch(r"-\d+|-\d*\.\d+", text) is not None


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
            if value.startswith("-") and not number_like(value):  # argparse: an option
                names = (f"{f.flag}=",)
            cases.append(Case((f.command, *f.base, f.flag, value, *quiet), bad, names))
    return cases


# Placeholders of the path cases, made in a temporary folder for each case (see paths).
FILE, FOLDER, MISSING, UNDER_FILE, NO_ACCESS = (
    "{file}",
    "{folder}",
    "{missing}",
    "{file}/x",
    "/proc/x/y",
)
NUL = "bad\x00name"
HAND = "AKQJ5.K2.A7.9832"
ADVISE = ("advise", "--hand", HAND, "--turn-up", "2S", "--seat", "1", "--dealer", "0", "--quiet")
POLICY = ("evaluate", "--game", "solowhist", "--policy", "rule", "--quiet")


def text_cases() -> list[Case]:
    """Names, lists, hands and paths: each bad value of each flag, and a few good ones."""
    cases = []

    def bad(base, flag, values, named=True):
        for value in values:
            names = (f"{flag}|{value}",) if value.strip() else (f"{flag}|{value!r}",)
            if value.startswith("-") and not number_like(value):
                names = (f"{flag}=",)
            if not flag.startswith("-"):  # a positional argument
                argv, names = (*base, value), ((value if value.strip() else "''") + "|" + flag,)
            else:
                argv = (*base, flag, value)
            cases.append(Case(argv, True, names if named else ()))

    def good(*argv):
        cases.append(Case(argv, False))

    sim, tour = ("simulate", "--quiet"), ("tournament", "--quiet", "--deals", "2")
    games = ("", " ", "nope", "SOLOWHIST ", "solowhist,phat", NUL, "x" * 5000)
    for base in (sim, tour, ("play",), ("report", "--agents", "rule"), POLICY,
                 ("advise", "--hand", HAND, "--quiet")):  # fmt: skip
        bad(base, "--game", games)
    bad(("warm", "--quiet"), "--game", ("", ",", "nope", "solowhist,", "solowhist,,phat", NUL))
    good("warm", "--quiet", "--game", "solowhist,phat")
    bad(("play",), "game", ("nope", NUL))
    agents = ("", ",", "rule,", ",rule", "nope", "rule,nope", NUL)
    bad(sim, "--agents", (*agents, "rule,rule,rule", ",".join(["rule"] * 5)))
    bad(
        tour,
        "--agents",
        (*agents, "rule", "rule,rule", "rule,,random", "rule,random,pimc,oracle,ismcts"),
    )
    bad(("play",), "--agents", (*agents, "rule,rule"))
    bad(POLICY, "--agents", (*agents, "rule,rule", "rule,random,"))
    bad(("report",), "--agents", (*agents, "rule,rule"))
    bad(("warm", "--quiet"), "--agents", ("", ",", "nope", "rule,", "pimc", NUL))
    modes = ("", "nope", "kitty,exchange", NUL)
    for base in (("simulate", "--quiet", "--game", "pinochle"), ("play", "--game", "pinochle")):
        bad(base, "--mode", modes)
    bad(("warm", "--quiet"), "--mode", ("", "nope", "kitty,", "kitty,,exchange", NUL))
    good("warm", "--quiet", "--mode", "kitty,exchange")  # one list syntax (issue 43)
    good("warm", "--quiet", "--players", "3,4")
    good("warm", "--quiet", "--players", "3", "4")  # the old spelling, still read
    bad(("warm", "--quiet"), "--players", ("", "3,", "3,x", "2", "9", NUL))
    bad(sim, "--mode", ("kitty",))  # a Pinochle option given to Solo Whist
    options = ("", "=", "unit", "unit=", "unit=x", "unit=1.5", "nope=1", "=1", "unit=0",
               "unit=-1", "unit=1e400", "unit=" + "9" * 30, "num_deals=0",
               f"unit={NUL}")  # fmt: skip
    for base in (sim, tour, ("play",), POLICY, ("report", "--agents", "rule")):
        bad(base, "--option", options, named=False)
    good(*sim, "--option", "unit=1e1")
    for flag, values in (("--dealing", ("", "x", "MATCH")), ("--pack", ("", "x")),
                         ("--backend", ("", "x", "dask,local"))):  # fmt: skip
        bad(sim, flag, values)
    bad(sim, "--scheduler", ("tcp://localhost:1", ""), named=False)  # without --backend dask
    bad(sim, "--no-workers-timeout", ("", "abc", "nan", "inf", "-1", "0", "-inf", "1e400"))
    bad(sim, "--experiment", ("", MISSING, FOLDER, FILE, NUL, UNDER_FILE))
    bad(sim, "--out", ("", NUL, FILE, UNDER_FILE, NO_ACCESS))
    bad(("simulate", "--quiet", "--resume"), "--deals", ("2",), named=False)  # no --out
    bad(("simulate", "--quiet", "--rebuild-metadata"), "--deals", ("2",), named=False)
    bad(("dd",), "input", (MISSING, FOLDER, NUL, ""))
    bad(("dd",), "--out", (FOLDER, NUL, UNDER_FILE, NO_ACCESS))
    bad(("dd", FILE), "--tt-mb", ("", "abc", "nan", "inf", "-1", "0", "1e12", "-inf", "1e400"))
    hands = ("", " ", "AKQ", "XX", "AKQJ5.K2.A7.9832.2", "AA.KQJ5.K2A7.9832",
             "AKQJT98765432.AK.Q.J", HAND.replace("A", "1"), NUL, "A K Q J", "AKQJ5.K2.A7", "-",
             ".", "...", "x" * 5000)  # fmt: skip
    bad(("advise", "--turn-up", "2S", "--seat", "1", "--dealer", "0", "--quiet"), "--hand", hands)
    bad(ADVISE[:3] + ADVISE[5:], "--turn-up", ("", "ZZ", "2S,3S", "AS", NUL, "10", "S2S"))
    bad(ADVISE, "--auction", ("nope", ",", "Pass,,Pass", ",".join(["Pass"] * 20), NUL))
    bad(ADVISE, "--play", ("", "x", "DD"))
    bad(("advise", "--quiet"), "words", ("solowhist a b",), named=False)
    bad(POLICY[:3] + POLICY[5:], "--policy", ("", "nope", MISSING, FOLDER, FILE, NUL))
    # A policy file is read where its agent is built, as the run starts (agents/policy.py,
    # the weights' part of issue 42): refused there in a second, after the stubbed start.
    for value in ("policy:", f"policy:{MISSING}"):
        good(*sim, "--agents", value)
        good(*POLICY[:3], *POLICY[5:], "--policy", value)
    bad(POLICY, "--bidding", ("", "x"))
    bad(POLICY, "--out", ("", FOLDER, NUL, UNDER_FILE, NO_ACCESS))
    bad(("report",), "dataset", ("", MISSING, NUL, FILE))
    bad(("report", "--agents", "rule", "--quiet"), "dataset", (FILE,), named=False)
    bad(("report", FILE), "--out", ("", FOLDER, NUL, UNDER_FILE, NO_ACCESS))
    bad(("report", FILE), "--folds", ("1", "101"))
    # verify '' is read as '.' by trickgym.sim.dataset.verify_dataset (the dataset folders'
    # part of issue 42, not this one's).
    bad(("verify",), "folder", (MISSING, NUL, FILE, UNDER_FILE))
    cases.append(Case(("play", "--color", "--no-color"), True, ("--color",)))
    return cases


CLI_CASES = int_cases() + text_cases()


@pytest.fixture
def paths(tmp_path):
    """The placeholders of the path cases, as paths in a fresh folder."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("not what was asked for\n")
    return {
        FILE: str(tmp_path / "file"),
        FOLDER: str(tmp_path / "folder"),
        MISSING: str(tmp_path / "missing"),
    }


def placed(case: Case, paths: dict) -> Case:
    """``case`` with its placeholders replaced by paths."""

    def fill(text: str) -> str:
        for key, path in paths.items():
            text = text.replace(key, path)
        return text

    return Case(tuple(map(fill, case.argv)), case.bad, tuple(map(fill, case.names)))


@pytest.mark.parametrize("case", CLI_CASES, ids=[c.id for c in CLI_CASES])
def test_cli_refuses_in_one_clear_line(case, no_work, paths):
    problem = problems(placed(case, paths))
    assert problem is None, problem


def _parser(command: str):
    from trickgym.cli import _subparser, build_parser

    return _subparser(build_parser(), command)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # Prose that holds a flag's name is left alone.
        (
            "dataset 'r': chunk file chunk-000000-deals-000000001024.parquet was not written "
            "with these settings",
            "dataset 'r': chunk file chunk-000000-deals-000000001024.parquet was not written "
            "with these settings",
        ),
        ("chunk 3 is damaged; resume the run", "chunk 3 is damaged; resume the run"),
        # A Python spelling next to the flag it means is not said twice.
        (
            "output folder 'r' already holds a run; pass resume=True (--resume) to complete it",
            "output folder 'r' already holds a run; pass --resume to complete it",
        ),
        (
            "resume the run (resume=True, --resume) to redo it",
            "resume the run (--resume) to redo it",
        ),
        (
            "run it again with the same settings, and resume=True, rebuild=True (trickgym "
            "simulate ... --resume --rebuild-metadata)",
            "run it again with the same settings, and --resume, --rebuild-metadata",
        ),
        ("pass --resume (resume=True) to complete it", "pass --resume to complete it"),
        # Python spellings become the flags typed.
        ("deals must be an integer 1..5, got 0", "--deals must be an integer 1..5, got 0"),
        ("pass matches=N, not deals=100", "pass --matches N, not --deals 100"),
        ("dd_max_nodes=9 is for dd=True runs", "--dd-max-nodes 9 is for --dd runs"),
        ("no_workers_timeout is for backend='dask'", "--no-workers-timeout is for --backend dask"),
        ("agents 'rule,' has an empty name", "--agents 'rule,' has an empty name"),
        ("chunk=5 with deals=100", "--chunk 5 with --deals 100"),
        ("seed must be 0..9, or None, got -1", "--seed must be 0..9, got -1"),
        ("the option is bad", "the option is bad"),
    ],
)
def test_cli_words_rewrites_python_spellings_only(message, expected):
    """Issue 42: ``--chunk file ... was not written``, ``pass --resume (--resume)`` and
    ``--resume, rebuild=True (... --resume --rebuild-metadata)`` came out of cli_words."""
    from trickgym.cli_common import cli_words

    assert cli_words(message, _parser("simulate")) == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("turn_up 2S is not in the hand: seat 1 is the dealer",
         "--turn-up 2S is not in the hand: seat 1 is the dealer"),
        ("hand 'AKQ': unknown card", "--hand 'AKQ': unknown card"),
        ("leave auction_so_far out (got 'x')", "leave --auction out (got 'x')"),
    ],
)  # fmt: skip
def test_cli_words_in_advise(message, expected):
    from trickgym.cli_common import cli_words

    assert cli_words(message, _parser("advise")) == expected


@pytest.mark.parametrize(
    ("text", "value"),
    [("1e6", 10**6), ("1_000_000", 10**6), ("2.5e3", 2500), (" 7 ", 7), ("-3", -3), ("1E2", 100)],
)
def test_whole_number_reads_exact_integers(text, value):
    from trickgym.cli_common import whole_number

    assert whole_number(text) == value


def test_one_line_usage_and_the_bad_value(capsys):
    """``simulate --deals 1e6x`` printed ten lines of usage before the error."""
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "--deals", "1e6x"])
    err = capsys.readouterr().err.splitlines()
    assert exit_.value.code == 2 and len(err) == 2, err
    assert err[1] == (
        "trickgym simulate: error: argument --deals: '1e6x' is not a whole number "
        "(write e.g. 1000, 1_000_000 or 1e6)"
    )


NAN = float("nan")


def api_cases() -> list:
    """``(id, call, bad value, bad)``: one argument of a public function, bad or good."""
    import numpy as np

    import trickgym
    from trickgym.analysis import hand_odds, load_dataset
    from trickgym.experiment import load_experiment
    from trickgym.warm import warm

    def solve(*args):
        # Imported when called: importing the solver compiles its search (explicitly typed,
        # so numba compiles it as the module loads), which collection must not wait for.
        from trickgym.solvers.dd import solve

        return solve(*args)

    out = []

    def add(entry, values, call, bad=True):
        for v in values:
            param = entry.split(".")[-1]
            out.append(pytest.param(call, param, v, bad, id=f"{entry}={v!r:.40}"))

    counts = ("1e6", "3", 2.0, np.float64(3), True, -1, 0, 2**64, NAN, [3], b"3")
    add("simulate.deals", counts, lambda v: trickgym.simulate(deals=v))
    add(
        "simulate.deals", (np.int64(2), np.uint8(2), 2), lambda v: trickgym.simulate(deals=v), False
    )
    add("simulate.game", (b"solowhist", ["solowhist"], {"solowhist": 1}, "solowhist ", NUL),
        lambda v: trickgym.simulate(v, deals=2))  # fmt: skip
    add("simulate.agents", ("rule,", ["rule", None, "rule", "rule"], ("rule",) * 5, {"rule"}),
        lambda v: trickgym.simulate(deals=2, agents=v))  # fmt: skip
    add("simulate.out", (NUL, b"dir", 3.5), lambda v: trickgym.simulate(deals=2, out=v))
    add("simulate.option", ("5", 2.0, -1, 2**70), lambda v: trickgym.simulate(deals=2, unit=v))

    def evaluate(**kwargs):
        return trickgym.evaluate(**{"policy": "rule", "game": "solowhist", **kwargs})

    add("evaluate.policy", ("", None, 5, NUL, "nope"), lambda v: evaluate(policy=v))
    add("evaluate.game", ("", "nope", None, 5), lambda v: evaluate(game=v))
    add("evaluate.opponents", ("", "rule,", ",", [], ["rule", "rule"], 5, [5], "nope"),
        lambda v: evaluate(opponents=v))  # fmt: skip
    add(
        "evaluate.slow_deals",
        (0, -1, 2**41, 2.5, "3", True, None),
        lambda v: evaluate(slow_deals=v),
    )
    add("evaluate.bidding", ("", "x", 1), lambda v: evaluate(bidding=v))  # None: the file's
    add("evaluate.deals", (0, 2**41, "1e6"), lambda v: evaluate(deals=v))
    add("warm.game", ("", ",", "nope", "solowhist,", 5, [], ["solowhist", ""], [5]),
        lambda v: warm(v, progress=False))  # fmt: skip
    add(
        "warm.agents",
        ("", "nope", "pimc", "rule,", 5, []),
        lambda v: warm(agents=v, progress=False),
    )
    add("warm.players", (2, 9, "4", True, [4, 9], 4.0, []),
        lambda v: warm("troggu", players=v, progress=False))  # fmt: skip
    add(
        "warm.modes",
        ("", "x", 5, ["kitty", "x"]),
        lambda v: warm("pinochle", modes=v, progress=False),
    )
    add("warm.game", ("solowhist,phat", ["troggu"]), lambda v: warm(v, progress=False), False)

    sw = trickgym.game("solowhist")

    def odds(**kwargs):
        return hand_odds(sw, **{"hand": HAND, "turn_up": "2S", "seat": 1, "dealer": 0, **kwargs})

    hands = ("", "AKQ", "XX", "AKQJ5.K2.A7.9832.2", "AA.KQJ5.K2A7.9832", "AKQJT98765432.AK.Q.J",
             NUL, None, ["AS"] * 13, b"AKQ")  # fmt: skip
    add("hand_odds.hand", hands, lambda v: odds(hand=v))
    add("hand_odds.turn_up", ("", "ZZ", "AS", 5.5, NUL, "2S,3S"), lambda v: odds(turn_up=v))
    add("hand_odds.auction_so_far", ("Pass,,Pass", ",", "nope", 5, ["nope"]),
        lambda v: odds(auction_so_far=v))  # fmt: skip
    add("hand_odds.seat", (-1, 4, "1", 1.0, None), lambda v: odds(seat=v))
    add("hand_odds.dealer", (-1, 4, "0", 0.0), lambda v: odds(dealer=v))
    add("hand_odds.game", ("nope", None, 5), lambda v: hand_odds(v, HAND, turn_up="2S"))
    four = ["AKQ2.JT9.8765.43", "JT9.8765.43.AKQ2", "8765.43.AKQ2.JT9", "43.AKQ2.JT9.8765"]
    add("solve.hands", ("AKQ", ["AKQ"] * 4, [*four[:3], "XX"], [*four[:3], four[0]], [NUL] * 4,
        [*four, four[0]], None), lambda v: solve(v, "NT", 0, [0, 2]))  # fmt: skip
    add("solve.trumps", ("", "X", None, 0, "NTT"), lambda v: solve(four, v, 0, [0, 2]))
    add("solve.declarers", ([], [0, 0], [0, 1, 2, 3], "02", [4], None),
        lambda v: solve(four, "NT", 0, v))  # fmt: skip
    add("load_experiment.path", ("", NUL, "/nonexistent.toml", "/", 5, None), load_experiment)
    add("load_dataset.path", (NUL, "/nonexistent"), load_dataset)
    return out


API_CASES = api_cases()


@pytest.mark.parametrize(("call", "param", "value", "bad"), API_CASES)
def test_api_refuses_with_a_value_error(call, param, value, bad, no_work):
    """A bad argument raises one ``ValueError`` of one line naming it or its value; nothing else."""
    try:
        with deadline():
            call(value)
    except WorkStarted:
        assert not bad, f"{value!r} was accepted"
        return
    except ValueError as err:
        message = str(err)
        assert "\n" not in message and message, message
        if bad:
            parts = value if isinstance(value, list | tuple) else [value]  # the bad one of a list
            named = any(repr(v)[:40] in message or str(v)[:40] in message for v in parts)
            assert named or param in message, message
        return
    assert not bad, f"{value!r} was accepted"


def test_the_tables_are_large():
    """Issue 42's hidden set holds 1,000+ bad inputs: this one is no smaller."""
    assert len(CLI_CASES) + len(API_CASES) > 1000
