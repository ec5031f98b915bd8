"""Bad arguments to the public entry points are refused before any work (issue 29).

Each row of ``REFUSED`` is one bad input to one entry point (simulate,
tournament, seat_score, ``Game.deal``, ``make_agent``, the advisor, the
solvers, the command line): it must raise ``ValueError`` whose message names
the parameter and the bad value, before a deal is played or a table
allocated. Before the fixes these were taken silently (``progress="no"``
showed the bar, ``dealing=""`` ran shuffled, ``samples=2**63`` was
accepted) or crashed with TypeError, KeyError, AttributeError,
OverflowError or MemoryError.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import trickgym
import trickgym.analysis as A
from trickgym.agents.registry import make_agent
from trickgym.analysis import advise_state
from trickgym.duplicate import seat_score
from trickgym.sim.dataset import read_dataset
from trickgym.solvers import card_values, solve

NAN, INF = float("nan"), float("inf")
GAMES = ("solowhist", "troggu", "phat", "pinochle")
OPTIONS = {"troggu": {"players": 4}}
UNIT = {"phat": "matches"}  # what a run of each game counts (Phat: whole matches)
HUGE = (2**62, 2**63, 2**64, 2**70)


class WorkStarted(Exception):
    """A refused call got as far as playing deals or running the advisor."""


@pytest.fixture(autouse=True)
def no_work(monkeypatch):
    """Any deal played (simulate's chunks, the advisor's samples) fails the test."""
    import trickgym.advisor.advise as advise
    import trickgym.sim as sim

    def started(*args, **kwargs):
        raise WorkStarted("work started for an input that should have been refused")

    monkeypatch.setattr(sim, "_execute", started)
    monkeypatch.setattr(advise, "_run_compiled", started)
    monkeypatch.setattr(advise, "_run_pimc", started)


def sim(game="solowhist", **kwargs):
    """simulate with a small run of ``game`` unless the row gives its own count."""
    if "deals" not in kwargs and "matches" not in kwargs:
        kwargs[UNIT.get(game, "deals")] = 2
    return trickgym.simulate(game, **{**OPTIONS.get(game, {}), **kwargs})


def deal(game, **kwargs):
    g = trickgym.game(game, **OPTIONS.get(game, {}))
    seat = {"pitcher": 0} if game == "phat" else {"dealer": 0}
    return g.deal(**({**seat, **kwargs} if "hands" in kwargs else kwargs))


def state():
    return trickgym.game("solowhist").deal(seed=1)


def rows():
    """``(id, call, parameter, bad value)``: one bad input to one entry point."""
    out = []

    def add(entry, param, values, call):
        for v in values:
            out.append(pytest.param(call, param, v, id=f"{entry}-{param}={v!r:.30}"))

    counts = (True, 2.5, "3", -1, 0, *HUGE, NAN, INF)
    flags = (1, 0, "no", "yes", None, NAN)
    progress_flags = tuple(v for v in flags if v is not None)  # None: auto (a terminal shows it)
    for game in GAMES:
        unit = UNIT.get(game, "deals")
        add(f"simulate[{game}]", unit, counts, lambda v, g=game, u=unit: sim(g, **{u: v}))
        add(f"simulate[{game}]", "first", (True, 2.5, "3", -1, None, 2**63, 2**64, NAN),
            lambda v, g=game: sim(g, first=v))  # fmt: skip
        add(f"simulate[{game}]", "chunk", (True, 2.5, "3", -1, 0, *HUGE, NAN),
            lambda v, g=game: sim(g, chunk=v))  # fmt: skip
        add(f"simulate[{game}]", "progress", progress_flags, lambda v, g=game: sim(g, progress=v))
        add(f"{game}.deal", "hands", (5, 5.5, True, "x", [], [1, 2], {}),
            lambda v, g=game: deal(g, hands=v))  # fmt: skip
        add(f"{game}.deal", "seed", (True, 2.5, "3", -1, 2**64, NAN),
            lambda v, g=game: deal(g, seed=v))  # fmt: skip
    # first + deals - 1 past int64: the last deal would be numbered -2**63.
    add("simulate", "first", (2**63 - 1, 2**63 - 2), lambda v: sim(deals=3, first=v))
    add("simulate", "threads", (True, 2.5, "3", 0, *HUGE, NAN), lambda v: sim(threads=v))
    add("simulate", "resume", (1, "no", None), lambda v: sim(resume=v))
    add("simulate", "dd", (1, "yes", None), lambda v: sim(dd=v))
    add("simulate", "dd_max_nodes", (True, 2.5, -1, 2**62, 2**70),
        lambda v: sim(dd=True, dd_max_nodes=v))  # fmt: skip
    add("simulate", "dealing", ("", "nope", 3, [], True), lambda v: sim(dealing=v))
    add("simulate", "pack", ("", "nope", 3, [], True), lambda v: sim(pack=v))
    add("simulate", "backend", ("", "nope", None, 3), lambda v: sim(backend=v))
    add("simulate", "game", ("", "nope", None, 3, []), lambda v: trickgym.simulate(v, deals=2))
    add("simulate", "agents", ("", "nope", None, 3, [], ["rule"] * 3, ["rule", ""] * 2),
        lambda v: sim(agents=v))  # fmt: skip
    add("simulate", "seed", (True, 2.5, "3", -1, 2**64, NAN), lambda v: sim(seed=v))
    add("simulate", "columns", ([], 3, [3], "made"), lambda v: sim(columns=v))
    add("simulate", "on_chunk", ("x", 3, True), lambda v: sim(on_chunk=v))
    add("simulate", "on_warm_up", ("x", 3), lambda v: sim(on_warm_up=v))
    add("simulate", "out", (5, True, ""), lambda v: sim(out=v))
    add("read_dataset", "path", (5, None, ""), lambda v: read_dataset(v))
    add("read_dataset", "partial", (1, "no", None), lambda v: read_dataset("/tmp", partial=v))
    add("simulate", "rule options", ("x", [1, 2]), lambda v: sim(agents="rule", rule_options=v))
    add("simulate[troggu]", "players", (True, 2.5, "5", 2, 9, 2**64),
        lambda v: trickgym.simulate("troggu", deals=2, players=v))  # fmt: skip

    def tour(**kwargs):
        return trickgym.tournament(**{"game": "solowhist", "agents": "rule,random", "deals": 2,
                                      **kwargs})  # fmt: skip

    add("tournament", "deals", (*counts, None), lambda v: tour(deals=v))
    add("tournament", "deals", (True, 0, 2**62), lambda v: tour(game="phat", deals=v))
    add("tournament", "agents",
        ("", "rule,", ",rule", "rule,,random", "nope,rule", None, 3, ["rule"], "rule,rule"),
        lambda v: tour(agents=v))  # fmt: skip
    add("tournament", "seed", (True, 2.5, "3", -1, 2**64, None), lambda v: tour(seed=v))
    add("tournament", "threads", (True, 0, 2**64), lambda v: tour(threads=v))
    add("tournament", "progress", progress_flags, lambda v: tour(progress=v))
    add("tournament", "game", ("", "nope", None, []), lambda v: tour(game=v))
    add("seat_score", "deals", (True, 0, None, *HUGE),
        lambda v: seat_score("solowhist", "rule", deals=v))  # fmt: skip
    add("seat_score", "seat", (True, 2.5, -1, 4),
        lambda v: seat_score("solowhist", "rule", deals=2, seat=v))  # fmt: skip

    add("game", "game", ("", "nope", None, 3, []), lambda v: trickgym.game(v))
    for game in ("solowhist", "troggu", "pinochle"):
        add(f"{game}.deal", "dealer", (True, 2.5, "0", -1, 99, 2**64),
            lambda v, g=game: deal(g, seed=1, dealer=v))  # fmt: skip

    add(
        "make_agent", "agent", ("", "nope", None, 3, [], True), lambda v: make_agent(v, "solowhist")
    )
    add("make_agent", "game", ("", "nope", None, 3), lambda v: make_agent("pimc", v))
    for kind in ("random", "rule", "oracle", "pimc", "ismcts", "learnt"):
        add(
            f"make_agent[{kind}]",
            "bogus",
            (1,),
            lambda v, k=kind: make_agent(k, "solowhist", bogus=v),
        )
    for kind, param in (("pimc", "samples"), ("pimc", "rollouts"), ("ismcts", "iterations")):
        add(f"make_agent[{kind}]", param, counts,
            lambda v, k=kind, p=param: make_agent(k, "solowhist", **{p: v}))  # fmt: skip
    for kind in ("pimc", "ismcts"):
        add(f"make_agent[{kind}]", "tt_mb", (True, "8", None, -1, 0, NAN, INF, 1e12, *HUGE),
            lambda v, k=kind: make_agent(k, "solowhist", tt_mb=v))  # fmt: skip
        add(f"make_agent[{kind}]", "dd_cards", (True, 2.5, "3", -1, 14, 2**64),
            lambda v, k=kind: make_agent(k, "solowhist", dd_cards=v))  # fmt: skip
        add(f"make_agent[{kind}]", "seed", (True, 2.5, "3", -1, 2**64),
            lambda v, k=kind: make_agent(k, "solowhist", seed=v))  # fmt: skip
    add("make_agent[pimc]", "exact_cards", (True, 2.5, -1, 14),
        lambda v: make_agent("pimc", "solowhist", exact_cards=v))  # fmt: skip
    add("make_agent[pimc]", "solve_cards", (True, 2.5, -1, 53, 2**64, 2**70),
        lambda v: make_agent("pimc", "phat", solve_cards=v))  # fmt: skip
    add("make_agent[pimc]", "bids", ("", "nope", 3, True),
        lambda v: make_agent("pimc", "solowhist", bids=v))  # fmt: skip
    add("make_agent[pimc]", "dd_bids", (1, "yes", None),
        lambda v: make_agent("pimc", "solowhist", dd_bids=v))  # fmt: skip
    add("make_agent[ismcts]", "exploration", (True, "1", None, -1, NAN, INF),
        lambda v: make_agent("ismcts", "solowhist", exploration=v))  # fmt: skip
    add("make_agent[ismcts]", "others", ("", "nope", 3),
        lambda v: make_agent("ismcts", "solowhist", others=v))  # fmt: skip
    add("make_agent[learnt]", "margin", (True, "1", -1, NAN, INF),
        lambda v: make_agent("learnt", "solowhist", margin=v))  # fmt: skip
    add("make_agent[learnt]", "weights", (3, ""),
        lambda v: make_agent("learnt", "solowhist", weights=v))  # fmt: skip

    add("advise_state", "state", ("state", None, 3), lambda v: advise_state(v))
    for param, values in (
        ("deals", (True, 2.5, "3", 0, *HUGE, NAN)),
        ("seed", (True, 2.5, -1, 2**64)),
        ("threads", (True, 2.5, "3", 0, *HUGE, NAN)),
        ("progress", progress_flags),
        ("max_nodes", (True, 2.5, 0, 2**63)),
        ("pimc_samples", (True, 0, 2**63)),
        ("play", ("", "nope", None, 3)),
    ):
        add("advise_state", param, values, lambda v, p=param: advise_state(state(), **{p: v}))
    rows_ = pd.DataFrame({"contract": ["Solo"], "made": [True], "declarer": [0], "dealer": [1]})
    for name in ("bid_success", "expected_payoff", "success_by_position", "detect_game",
                 "declarer_payoff", "feature_columns", "html_report"):  # fmt: skip
        add(f"analysis.{name}", "df", (None, 5, "rows"), lambda v, n=name: getattr(A, n)(v))
    for name in ("bid_success", "expected_payoff", "success_by_position", "failure_split"):
        add(f"analysis.{name}", "by", ("nope", 5, None, ["nope"]),
            lambda v, n=name: getattr(A, n)(rows_, by=v))  # fmt: skip
    add("analysis.success_by_feature", "feature", ("nope", 5, None),
        lambda v: A.success_by_feature(rows_, v))  # fmt: skip
    add("analysis.success_by_feature", "min_count", (-1, 1.5, "1", True),
        lambda v: A.success_by_feature(rows_, "made", min_count=v))  # fmt: skip
    add("analysis.success_by_feature", "drop_missing", (1, "no", None),
        lambda v: A.success_by_feature(rows_, "made", drop_missing=v))  # fmt: skip
    add("analysis.wilson_interval", "successes", (-1, 1.5, "1", True, INF, 11),
        lambda v: A.wilson_interval(v, 10))  # fmt: skip
    add("analysis.wilson_interval", "trials", (-1, 1.5, "1", True, INF),
        lambda v: A.wilson_interval(0, v))  # fmt: skip
    add("analysis.wilson_interval", "z", (-1.0, 0, NAN, INF, "1"),
        lambda v: A.wilson_interval(5, 10, z=v))  # fmt: skip
    add("analysis.load_dataset", "path", (None, 5, "", True), lambda v: A.load_dataset(v))
    add("analysis.html_report", "folds", (0, 1.5, "5", True, 2**70),
        lambda v: A.html_report(rows_, folds=v))  # fmt: skip
    add("analysis.html_report", "title", (5, ["x"]), lambda v: A.html_report(rows_, title=v))
    for game in GAMES:
        g = trickgym.game(game, **OPTIONS.get(game, {}))
        add(f"{game}.new_match", "seed", (-1, 1.5, "x", True, None, 2**64),
            lambda v, g=g: g.new_match(v))  # fmt: skip
        add(f"{game}.new_match", "num_deals", (0, "x", 1.5, True, 2**70),
            lambda v, g=g: g.new_match(1, num_deals=v))  # fmt: skip
        add(f"{game}.new_match", "dealer", (-2, 9, "x", None, 1.5),
            lambda v, g=g: g.new_match(1, dealer=v))  # fmt: skip
        add(f"{game}.render", "state", ("state", None, 5), lambda v, g=g: g.render(v))
        for param, values in (("viewer", (-1, 9, "x", 1.5, True)), ("symbols", ("no", 1)),
                              ("color", (5, None)), ("mark_legal", ("x", 0))):  # fmt: skip
            add(f"{game}.render", param, values,
                lambda v, g=g, p=param: g.render(g.deal(1), **{p: v}))  # fmt: skip
    solowhist = trickgym.game("solowhist")
    record = np.zeros(1, dtype=solowhist.obs_dtype)
    for kind in ("pimc", "ismcts", "learnt"):
        add(f"{kind}.start_deal", "seed", (-1, 1.5, "x", 2**64),
            lambda v, k=kind: make_agent(k, solowhist).start_deal(v, 0))  # fmt: skip
        add(f"{kind}.start_deal", "seat", (-1, 4, "x", 1.5),
            lambda v, k=kind: make_agent(k, solowhist).start_deal(1, v))  # fmt: skip
        add(f"{kind}.act_record", "action_mask", (np.ones(3, bool), np.ones((2, 2), bool), "x"),
            lambda v, k=kind: make_agent(k, solowhist).act_record(record, v))  # fmt: skip
    for fn in (solve, card_values):
        name = fn.__name__
        # Checked before the state (in the auction here): the limits are refused first.
        add(name, "tt_mb", (True, "8", None, -1, 0, NAN, INF, 1e12, *HUGE),
            lambda v, fn=fn: fn(state(), tt_mb=v))  # fmt: skip
        add(name, "max_nodes", (True, 2.5, "3", 0, -1, 2**62, 2**63, NAN),
            lambda v, fn=fn: fn(state(), max_nodes=v))  # fmt: skip
    return out


REFUSED = rows()


def names(message: str, value) -> bool:
    """Whether ``message`` shows ``value`` (as its repr or str)."""
    if isinstance(value, float) and math.isnan(value):
        return "nan" in message
    if isinstance(value, dict):
        return "{}" in message or any(k in message for k in value)
    if (isinstance(value, list) and value) or (isinstance(value, str) and "," in value):
        parts = value.split(",") if isinstance(value, str) else value
        return any(names(message, part) for part in parts)  # the bad one of several
    return repr(value) in message or str(value) in message


@pytest.mark.parametrize("call, param, value", REFUSED)
def test_bad_input_is_refused_naming_it(call, param, value):
    with pytest.raises(ValueError) as err:
        call(value)
    message = str(err.value)
    assert param in message, message
    assert names(message, value), message


def test_the_table_covers_every_entry_point():
    ids = {p.id.split("-")[0].split("[")[0] for p in REFUSED}
    assert {"simulate", "tournament", "seat_score", "game", "make_agent", "advise_state",
            "solve", "card_values"} | {f"{g}.deal" for g in GAMES} <= ids  # fmt: skip
    assert len(REFUSED) > 400


@pytest.mark.parametrize(
    "first, deals, message",
    [
        (2**63 - 1, 2, r"first=9223372036854775807 with deals=2 .* must be <= 9223372036854775807"),
        (0, 2**41, r"deals must be an integer 1\.\.1099511627776, got 2199023255552"),
        (0, 2**40, r"would make 16,777,216 chunks; at most 4,194,304: pass chunk= of at least"),
    ],
)
def test_run_extent_is_bounded_with_the_limit(first, deals, message):
    with pytest.raises(ValueError, match=message):
        trickgym.simulate("solowhist", deals=deals, first=first)


@pytest.mark.parametrize("kind", ["pimc", "ismcts", "learnt"])
def test_agents_refuse_another_games_observation(kind):
    """It raised ``KeyError 'dealer'`` (or ``'phat'``) from inside the search."""
    agent = make_agent(kind, "solowhist")
    phat = trickgym.game("phat").deal(seed=1)
    record = np.zeros(1, dtype=phat.game.obs_dtype)
    mask = phat.legal_action_mask()
    with pytest.raises(ValueError, match=r"plays solowhist.*observation record of phat"):
        agent.act_record(record, mask)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["simulate", "--agents", ""], "--agents must be one or more names separated by commas"),
        (["simulate", "--game", ""], "unknown game ''"),
        (["simulate", "--deals", str(2**62)], "deals must be an integer 1..1099511627776"),
        (["tournament", "--deals", str(2**62)], "deals must be an integer 1..1099511627776"),
        (["tournament", "--agents", "rule,"], "--agents 'rule,' has an empty name"),
        (["tournament", "--agents", "rule"], "--agents must be 2 to 4 competitors"),
        (["simulate", "--out", ""], "--out must be a folder path, got ''"),
    ],
)
def test_cli_refuses_before_running(argv, message, capsys):
    from trickgym.cli import main

    assert main([*argv, "--quiet"]) == 2
    assert message in capsys.readouterr().err
