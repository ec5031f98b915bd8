"""The hand advisor: how each call the seat could make now would fare, over sampled deals.

:func:`hand_odds` sets up what one seat knows (its hand, the dealer, the
turn-up card, the auction so far), deals the unseen cards ``deals`` times
consistently with that knowledge (the Monte Carlo agents' determinisers:
one implementation of "deal consistently with the information set"), plays
or solves each deal for every call the seat could make now, and returns
one row per call (see :func:`advise_state` for the columns). The compiled
loop over deals is written once (:mod:`trickgym.advisor.kernels`); how each
call is turned into a played contract is the game's part:
:mod:`~trickgym.advisor.solowhist`, :mod:`~trickgym.advisor.pinochle`,
:mod:`~trickgym.advisor.troggu` and :mod:`~trickgym.advisor.phat` (a module
each: how a call is settled and judged, state set-up, candidate calls).
``trickgym advise`` (:mod:`trickgym.advisor.command`) prints its table.

>>> import trickgym.analysis as ta  # doctest: +SKIP
>>> ta.hand_odds("solowhist", "AKQJ5.K2.A7.9832", turn_up="2S", seat=1, dealer=0,
...              deals=2000)  # doctest: +SKIP
"""

from __future__ import annotations

import importlib
import textwrap

import numba
import numpy as np
import pandas as pd

from trickgym.advisor.codes import (
    EXACT,
    EXACT_NODES,
    LOG2_BUCKETS,
    NO_SIDE,
    NODE_LIMIT,
    PASSED_OUT,
    POINTS_DD_DEALS,
    POINTS_DD_NODE_LIMIT,
    UNSOLVED,
)
from trickgym.advisor.kernels import advise_block, outcome_at, settle_sampled
from trickgym.agents.mc import PIMCAgent
from trickgym.analysis.intervals import wilson_interval
from trickgym.analysis.labels import in_words_of
from trickgym.api import Game, State
from trickgym.cards.notation import format_card
from trickgym.checks import check_int, split_names
from trickgym.costs import advise_dd_deals
from trickgym.engine.params import params_matrix
from trickgym.games import GAMES
from trickgym.games import game as make_game
from trickgym.games.dealing import check_seat
from trickgym.progress import progress_bar, want_progress
from trickgym.rng import derive_seed, seed_rng

__all__ = [
    "ADVICE_OPTIONS",
    "DEFAULT_DEALS",
    "DEFAULT_EXACT_NODES",
    "DEFAULT_NODE_LIMIT",
    "DEFAULT_PIMC_SAMPLES",
    "DEFAULT_POINTS_DD_DEALS",
    "DEFAULT_POINTS_NODE_LIMIT",
    "PLAYS",
    "advise_state",
    "apply_auction",
    "default_deals",
    "format_advice",
    "hand_odds",
]

PLAYS = ("dd", "pimc", "rule")
#: The options of :func:`advise_state` that :func:`hand_odds` passes on as they are.
ADVICE_OPTIONS = ("deals", "play", "seed", "max_nodes", "exact_nodes", "pimc_samples")
DEFAULT_DEALS = {"dd": 1000, "rule": 1000, "pimc": 20}
# PIMC plays every card of every seat by its own sampling: a deal per call takes seconds,
# so the advisor's PIMC players sample fewer deals per decision than the agent's default.
DEFAULT_PIMC_SAMPLES = 8
# Node budget of one made-or-beaten probe (about 0.1 us a node): a rare 1-against-3 deal
# takes 5-40 s unbudgeted; past it the deal is counted in ``unsolved``, apart.
DEFAULT_NODE_LIMIT = 2_000_000
# Phat, Pinochle and Troggu (``play="dd"``): see trickgym.advisor.codes.
DEFAULT_POINTS_NODE_LIMIT = POINTS_DD_NODE_LIMIT
DEFAULT_POINTS_DD_DEALS = POINTS_DD_DEALS
# Budget of the exact trick count of a Solo, tried before the probe (about 2 ms): most
# deals of a strong Solo hand finish within it, few of an average one (one against three
# from the first lead is the solver's hardest count), so ``mean_tricks`` is shown only
# where at least ``MEAN_COVERAGE`` of the played deals were counted exactly.
DEFAULT_EXACT_NODES = 20_000
MEAN_COVERAGE = 0.9
# Solver table per chunk of deals: 2**12 buckets, 12 MB (measured: 2v2 probes of Prop &
# Cop twice as fast as with 3 MB; more gained nothing).
TABLE_LOG2 = 12
CHUNK = 32  # deals per parallel work item (fixed: results do not depend on threads)
BLOCK = 8 * CHUNK  # deals per progress-bar step


def _advised() -> list[str]:
    """The games with an advisor (``Game.advisor`` set), by name."""
    return sorted(name for name, (cls, _options) in GAMES.items() if cls.advisor)


def _part(game):
    """The game's part of the advisor: the module its class names as ``advisor``."""
    if game.advisor is None:
        raise ValueError(
            f"no hand advisor for {game.name!r} yet; games advised: {', '.join(_advised())}"
        )
    return importlib.import_module(game.advisor)


def _as_game(game):
    if isinstance(game, str):
        return make_game(game)
    if not isinstance(game, Game):
        raise ValueError(
            f"game must be a game name ({', '.join(_advised())}) or a trickgym Game, got {game!r}"
        )
    return game


def _auction_steps(auction) -> list:
    if auction is None:
        return []
    if isinstance(auction, str):
        # '' is no call yet; "Pass,,Solo" is a slip, not two calls.
        return split_names("auction_so_far", auction, "Pass,Solo") if auction.strip() else []
    if isinstance(auction, list | tuple):
        return list(auction)
    raise ValueError(
        f"auction_so_far must be a list of calls or a comma-separated string such as "
        f"'Pass,Solo', got {auction!r}"
    )


def apply_auction(state, auction, seat: int):
    """Apply the calls of ``auction`` in turn; then ``seat`` must be to move, at a call.

    Raises ``ValueError`` naming the bad step and the legal calls, or saying
    whose turn it is after the auction.
    """
    game = state.game
    steps = _auction_steps(auction)
    if steps and getattr(_part(game), "ADVISES_CARDS", False):
        raise ValueError(f"{game.name} has no auction: leave auction_so_far out (got {auction!r})")
    for i, step in enumerate(steps):
        p = state.current_player
        if p < 0:
            raise ValueError(
                f"auction step {i + 1} ({step!r}): the deal is already over after the calls "
                f"before it"
            )
        try:
            a = game.parse_action(step)
            if a < game.deck.n_cards:
                raise ValueError(f"{step!r} is a card, not a call")
            state.apply(a)
        except ValueError as err:
            raise ValueError(f"auction step {i + 1} ({step!r}) by seat {p}: {err}") from None
    p = state.current_player
    if p < 0:
        raise ValueError(
            "the auction so far ends the deal (passed out): there is no call to advise"
        )
    if p != seat:
        raise ValueError(
            f"after the auction so far seat {p} is to move, not seat {seat}: give the calls "
            f"up to seat {seat}'s turn"
        )
    if state.legal_actions()[0] < game.deck.n_cards and not getattr(
        _part(game), "ADVISES_CARDS", False
    ):
        raise ValueError("the auction is over and the play has begun: hand_odds advises calls")
    return state


def hand_odds(
    game,
    hand,
    *,
    seat: int = 0,
    dealer: int | None = None,
    turn_up=None,
    auction_so_far=(),
    progress: bool | None = None,
    threads: int | None = None,
    **options,
) -> pd.DataFrame:
    """How each call ``seat`` could make now would fare with ``hand``, over sampled deals.

    Parameters
    ----------
    game : a game name (``"solowhist"``, ``"pinochle"``, ``"phat"``) or a
        ``trickgym.game(...)`` with its table options (Troggu needs ``players=``).
    hand : the seat's cards in the project's notation: Solo Whist and Phat
        ``"AKQJ5.K2.A7.9832"`` (suits S.H.D.C), Pinochle ``"AATKQ.AQ.KQ.9J"`` (a rank
        twice for both copies), Troggu a list such as ``"Fool XXI XX KC QC 1D"``.
    seat, dealer : seats 0..3; ``dealer`` defaults to the seat on ``seat``'s right
        (``seat`` is then eldest, first to speak).
    turn_up : the dealer's exposed card (Solo Whist only, and required there; in ``hand``
        exactly when ``seat`` is the dealer).
    auction_so_far : the calls before the seat's turn, from eldest, as names or ids
        (``["Pass", "Prop"]`` or ``"Pass,Prop"``).
    progress : show a progress bar; ``None`` (default): in a terminal or a notebook.
    threads : numba threads (default: all).
    options : how to sample and play the deals, as :func:`advise_state` takes them
        (``deals``, ``play``, ``seed``, ``max_nodes``, ``exact_nodes``,
        ``pimc_samples``).

    Returns
    -------
    pandas.DataFrame
        The frame of :func:`advise_state`.
    """
    unknown = sorted(set(options) - set(ADVICE_OPTIONS))
    if unknown:
        raise ValueError(
            f"hand_odds has no option {', '.join(unknown)}; its options: seat, dealer, "
            f"turn_up, auction_so_far, progress, threads, {', '.join(ADVICE_OPTIONS)}"
        )
    game = _as_game(game)
    part = _part(game)

    seat = check_seat("seat", seat, game.n_seats)
    dealer = (seat - 1) % game.n_seats if dealer is None else dealer
    dealer = check_seat("dealer", dealer, game.n_seats)
    state = part.state_for(game, hand, seat, dealer, turn_up)
    apply_auction(state, auction_so_far, seat)
    return advise_state(state, progress=progress, threads=threads, **options)


def default_deals(game, play: str) -> int:
    """The deals :func:`hand_odds` samples when given none: ``DEFAULT_DEALS[play]``; with
    ``play="dd"`` the game's own (:data:`trickgym.costs.ADVISE_DD`: about a minute)."""
    if play != "dd":
        return DEFAULT_DEALS[play]
    return advise_dd_deals(game.name, getattr(_part(game), "DD_DEALS", DEFAULT_DEALS[play]))


def _check_options(game, deals, play, seed, max_nodes, exact_nodes, pimc_samples):
    if not isinstance(play, str) or play not in PLAYS:
        raise ValueError(f"play must be one of {', '.join(PLAYS)}, got {play!r}")
    if play == "dd" and not getattr(_part(game), "HAS_DD", False):
        raise ValueError(
            f"play='dd' needs a double-dummy solver, which {game.name} has not (yet): "
            f"use play='rule' or play='pimc'"
        )
    part = _part(game)
    if deals is None:
        deals = default_deals(game, play)
    else:
        deals = check_int("deals", deals, 1, 10_000_000)
    seed = seed_rng(seed)
    if max_nodes is None:
        max_nodes = getattr(part, "DD_NODE_LIMIT", DEFAULT_NODE_LIMIT)
    max_nodes = check_int("max_nodes", max_nodes, 1, 2**62)
    exact_nodes = check_int("exact_nodes", exact_nodes, 0, 2**62)
    pimc_samples = check_int("pimc_samples", pimc_samples, 1, 10_000)
    return deals, seed, max_nodes, exact_nodes, pimc_samples


def advise_state(
    state,
    *,
    deals: int | None = None,
    play: str = "dd",
    seed: int = 0,
    progress: bool | None = None,
    threads: int | None = None,
    max_nodes: int | None = None,
    exact_nodes: int = DEFAULT_EXACT_NODES,
    pimc_samples: int = DEFAULT_PIMC_SAMPLES,
) -> pd.DataFrame:
    """Advise the player to move in ``state`` (a call decision) from its observation alone.

    Only that seat's observation is read: the hidden cards of ``state`` do
    not matter.

    Parameters
    ----------
    deals : deals to sample (default ``DEFAULT_DEALS[play]``: 1000, PIMC 20; ``play="dd"``
        the game's :func:`default_deals`, about a minute of solving on two cores: Solo
        Whist 1000, Troggu 100, Pinochle 60, Phat 5; full-deal point-trick solves are dear).
    play : ``"dd"`` (solved with every card seen from the first lead, every game: the
        contract settled, then any follow-up before the first lead by the rule agents),
        ``"rule"`` (the rule agents play it out) or ``"pimc"`` (PIMC agents at every
        seat, ``pimc_samples`` samples per decision: slow).
    seed : the same seed gives the same frame.
    progress : show a progress bar; ``None`` (default): in a terminal or a notebook.
    threads : numba threads (default: all).
    max_nodes, exact_nodes : solver budgets (``play="dd"``): ``max_nodes`` of a
        made-or-beaten probe (Solo Whist, default ``DEFAULT_NODE_LIMIT``) or of a whole
        point-trick solve (the others, default ``DEFAULT_POINTS_NODE_LIMIT``); a deal past
        it is counted in ``unsolved``, never dropped silently. ``exact_nodes``: of a Solo's
        exact count, tried first (0: never).

    Returns one row per call the seat could make now, in the game's call order:

    ``contract``
        the call, named as the game names it;
    ``trumps``
        the trump suit it is played in (``NT``: none; Abundance: the suit of
        highest expected payoff; empty for calls that do not declare);
    ``deals``
        deals valued (sampled deals less ``unsolved``);
    ``played``
        of them, deals in which the seat's side declared and played (fewer
        for a Prop nobody accepts; 0 for Pass);
    ``made``, ``made_pct``, ``ci_low_pct``, ``ci_high_pct``
        contracts made among ``played``, with a 95% Wilson interval;
    ``made_low_pct``, ``made_high_pct``
        the made % of a declaring call with its ``unsolved`` deals counted
        too, all beaten and all made: a budget leaves out the hard deals,
        not a random sample, so the true made % lies in this range, not
        necessarily in the Wilson interval of the solved ones;
    ``exact``, ``mean_tricks``
        played deals whose tricks were counted exactly, and the declaring
        side's mean tricks over them, shown when they are at least
        ``MEAN_COVERAGE`` (90%) of the played deals (with ``play="dd"`` a
        deal whose exact count ran past ``exact_nodes`` is scored from the
        probe at the goal, as made exactly or missed by one: a mean over the
        cheap deals alone would be biased); other games: ``mean_points``;
    ``expected_payoff``
        the seat's mean payoff over ``deals`` (passed out: 0), by the rules'
        own scoring;
    ``unsolved``
        deals past the solver's budget ``max_nodes``: counted here and in
        the made % range, left out of the other columns;
    ``no_side``
        deals whose contract had no declaring side to solve for (Troggu's
        Misère, all passing): the rule agents play them out, and their
        payoff counts in ``expected_payoff``;
    ``best``
        the call of highest expected payoff.
    """
    if not isinstance(state, State):
        raise ValueError(
            f"state must be a trickgym State (trickgym.game(name).deal(...)), got {state!r}"
        )
    progress = want_progress(progress)
    if threads is not None:
        check_int("threads", threads, 1, _max_threads())
    game = state.game
    part = _part(game)
    seat = state.current_player
    cards = getattr(part, "ADVISES_CARDS", False)
    if seat < 0 or (state.legal_actions()[0] < game.deck.n_cards and not cards):
        raise ValueError("advise_state needs a state where a seat is to make a call")
    if cards and int(state.record["trick_no"]) + int(state.record["trick_n"]) > 0:
        raise ValueError(f"advise_state advises the {game.name} pitch: the first card of a deal")
    deals, seed, max_nodes, exact_nodes, pimc_samples = _check_options(
        game, deals, play, seed, max_nodes, exact_nodes, pimc_samples
    )
    obs = np.zeros(1, dtype=game.obs_dtype)
    game.kernels.observe_at(state.array, 0, seat, obs, 0)
    variants = part.candidates(state)
    # (call, choice) per variant: the choice is the trump suit the seat would name (-1: none)
    calls = np.array([(v[1], v[2]) for v in variants], dtype=np.int64).reshape(-1, 2)
    template = game.new_match(0)

    params = params_matrix(game.name, game.n_seats)
    shape = (deals, len(variants))
    out = {
        "status": np.zeros(shape, dtype=np.int64),
        "tricks": np.zeros(shape, dtype=np.int64),
        "made": np.zeros(shape, dtype=np.bool_),
        "payoff": np.zeros(shape, dtype=np.int64),
    }
    bar = None
    if progress:
        bar = progress_bar(total=deals, desc=f"advise {game.name} ({play})", unit="deal")
    try:
        if play == "pimc":
            _run_pimc(game, obs, template, params, seed, calls, pimc_samples, out, bar)
        else:
            limits = None  # rule play
            if play == "dd":
                limits = np.zeros(3, dtype=np.int64)
                table_log2 = getattr(part, "DD_TABLE_LOG2", TABLE_LOG2)
                limits[LOG2_BUCKETS], limits[NODE_LIMIT] = table_log2, max_nodes
                limits[EXACT_NODES] = exact_nodes
            _run_compiled(obs, template, params, seed, calls, limits, threads, out, bar)
    finally:
        if bar is not None:
            bar.close()
    df = _frame(part, variants, out)
    # What format_advice needs to say which columns mean something here.
    df.attrs.update(game=game.name, play=play)
    if play == "dd":
        df.attrs["exact_nodes"] = exact_nodes
    return df


def _max_threads() -> int:
    return numba.config.NUMBA_NUM_THREADS


def _run_compiled(obs, template, params, seed, calls, limits, threads, out, bar):
    old = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(check_int("threads", threads, 1, _max_threads()))
    try:
        deals = out["status"].shape[0]
        for first in range(0, deals, BLOCK):
            last = min(deals, first + BLOCK)
            rows = tuple(a[first:last] for a in out.values())
            advise_block(obs, template, params, np.uint64(seed), first, calls, CHUNK, limits, rows)
            if bar is not None:
                bar.update(last - first)
    finally:
        numba.set_num_threads(old)


def _run_pimc(game, obs, template, params, seed, calls, samples, out, bar):
    agents = [PIMCAgent(game, samples=samples, seed=seed) for _ in range(game.n_seats)]
    record = np.zeros(1, dtype=game.obs_dtype)
    deals = out["status"].shape[0]
    seat = int(obs[0]["seat"])
    for i in range(deals):
        for v in range(len(calls)):
            array = np.zeros(1, dtype=game.state_dtype)
            call, choice = calls[v]
            settle_sampled(obs, template, params, np.uint64(seed), i, call, choice, array)
            state = State(game, array)
            for s, agent in enumerate(agents):
                agent.start_deal(int(derive_seed(seed, i, 2 + s)), s)
            while not state.is_over:
                p = state.current_player
                game.kernels.observe_at(array, 0, p, record, 0)
                mask = state.legal_action_mask()
                state.apply(int(agents[p].act_record(record, mask)))
            for a, value in zip(out.values(), outcome_at(array, 0, seat), strict=True):
                a[i, v] = value
        if bar is not None:
            bar.update(1)


def _frame(part, variants, out) -> pd.DataFrame:
    status, tricks, made, payoff = out["status"], out["tricks"], out["made"], out["payoff"]
    rows = []
    for v, (name, call, _trump, declares, label) in enumerate(variants):
        ok = status[:, v] != UNSOLVED
        played = ok & (status[:, v] != PASSED_OUT) & (status[:, v] != NO_SIDE) & declares
        exact = played & (status[:, v] == EXACT)
        n_ok, n_played = int(ok.sum()), int(played.sum())
        rows.append(
            {
                "contract": name,
                "call": int(call),
                "trumps": label,
                "deals": n_ok,
                "played": n_played,
                "made": int((made[:, v] & played).sum()) if declares else np.nan,
                "exact": int(exact.sum()),
                "mean_tricks": float(tricks[exact, v].mean())
                if exact.any() and exact.sum() >= MEAN_COVERAGE * n_played
                else np.nan,
                "expected_payoff": float(payoff[ok, v].mean()) if n_ok else np.nan,
                "unsolved": int((~ok).sum()),
                "no_side": int((status[:, v] == NO_SIDE).sum()),
            }
        )
    df = pd.DataFrame(rows)
    # Variants of one row (Abundance's trump suits, Phat's cards of a suit): the one of
    # highest expected payoff is kept.
    keep = df.sort_values("expected_payoff", ascending=False, kind="stable")
    keep = keep.drop_duplicates("contract")
    df = df.loc[sorted(keep.index)].reset_index(drop=True)
    low, high = wilson_interval(df["made"].astype(float), df["played"].where(df["played"] > 0))
    with np.errstate(invalid="ignore", divide="ignore"):
        df.insert(df.columns.get_loc("made") + 1, "made_pct", 100 * df["made"] / df["played"])
    df.insert(df.columns.get_loc("made_pct") + 1, "ci_low_pct", 100 * low)
    df.insert(df.columns.get_loc("ci_low_pct") + 1, "ci_high_pct", 100 * high)
    df["made_pct"] = df["made_pct"].where(df["played"] > 0)
    # A solve past its budget is no random miss (the hard deals run out), so the made %
    # of the solved deals is bounded by counting every unsolved one beaten, then made.
    # A declaring call is played on every deal it is solved for (a Prop nobody accepts
    # is passed out before any solve), so its unsolved deals were all to be played.
    declared = df["made"].notna()
    every = (df["played"] + df["unsolved"]).where(declared & (df["played"] + df["unsolved"] > 0))
    with np.errstate(invalid="ignore", divide="ignore"):
        low_made = 100 * df["made"] / every
        high_made = 100 * (df["made"] + df["unsolved"]) / every
    df.insert(df.columns.get_loc("ci_high_pct") + 1, "made_low_pct", low_made)
    df.insert(df.columns.get_loc("made_low_pct") + 1, "made_high_pct", high_made)
    df["best"] = False
    if df["expected_payoff"].notna().any():
        df.loc[df["expected_payoff"].idxmax(), "best"] = True
    if getattr(part, "CARD_COLUMN", False):
        df.insert(2, "card", [format_card(c) for c in df["call"]])
    df = df.sort_values("call", kind="stable").drop(columns="call").reset_index(drop=True)
    return df.rename(columns={"mean_tricks": getattr(part, "MEAN", "mean_tricks")})


# Column legends of the CLI table (the game's part says what "made", the mean and the
# trumps column count: its MADE, MEAN_MEANS and TRUMPS).
_LEGEND = {
    "trumps": "the trump suit the call is played in",
    "deals": "sampled deals valued",
    "made %": "contracts made, of the deals where the call was played, with a 95% Wilson "
    "interval; blank: the call does not declare",
    "E[payoff]": "the seat's mean payoff per deal by the game's scoring (passed out: 0)",
    "unsolved": "deals past the solver's node budget (--max-nodes): counted apart, in no "
    "column but the made % range",
    "if unsolved": "made % with the unsolved deals counted too, all beaten .. all made (the "
    "budget leaves out the hard deals, so the truth lies in this range)",
    "no side": "deals whose contract has no declaring side to solve (Troggu's Misère, all "
    "passing): played out by the rule agents, their payoff counted in E[payoff]",
    "best": "<- best: the call of highest E[payoff]",
}
_WIDTH = {
    "contract": 22,
    "trumps": 8,
    "deals": 8,
    "made %": 9,
    "95% Wilson": 17,
    "if unsolved": 17,
}
_INTERVALS = ("95% Wilson", "if unsolved")  # left-aligned [low, high] cells


def _cells(df: pd.DataFrame, mean: str) -> dict[str, list[str]]:
    """Each column of the CLI table as text, one cell per row ("" where it has no value)."""
    blank = df["made_pct"].isna()
    made = ["" if b else f"{v:.1f}%" for b, v in zip(blank, df["made_pct"], strict=True)]
    ci = [
        "" if b else f"[{lo:5.1f}, {hi:5.1f}]"
        for b, lo, hi in zip(blank, df["ci_low_pct"], df["ci_high_pct"], strict=True)
    ]
    nan = pd.Series(np.nan, index=df.index)
    ranges = [
        f"[{lo:5.1f}, {hi:5.1f}]" if u > 0 and not np.isnan(lo) else ""
        for u, lo, hi in zip(
            df["unsolved"],
            df.get("made_low_pct", nan),
            df.get("made_high_pct", nan),
            strict=True,
        )
    ]
    return {
        "trumps": [str(t) for t in df["trumps"]],
        "deals": [str(int(v)) for v in df["deals"]],
        "made %": made,
        "95% Wilson": ci,
        "if unsolved": ranges,
        mean.replace("_", " "): ["" if np.isnan(v) else f"{v:.2f}" for v in df[mean]],
        "E[payoff]": ["" if np.isnan(v) else f"{v:+.2f}" for v in df["expected_payoff"]],
        "unsolved": [str(int(v)) for v in df["unsolved"]],
        "no side": [str(int(v)) if v else "" for v in df.get("no_side", 0 * df["unsolved"])],
    }


def format_advice(df: pd.DataFrame) -> str:
    """The advisor's frame as a readable table (the CLI's output): one line per call.

    Every column shown has a value on some row: one with none (``trumps``
    in a game without trump calls, ``unsolved`` unless the deals were
    solved, ``mean tricks`` when too few deals were counted exactly) is
    left out, and one with the same value on every row that has one (the
    ``deals``; Pinochle's mean points, which the level bid does not change)
    is printed once under the table. ``made %``, the table's subject, always
    stays. A legend under the table says what each column counts.
    """
    mean = "mean_points" if "mean_points" in df.columns else "mean_tricks"
    play = df.attrs.get("play")
    names = [
        f"{r['contract']} ({r['card']})" if "card" in df.columns else str(r["contract"])
        for _, r in df.iterrows()
    ]
    cells = _cells(df, mean)
    if play is not None and play != "dd":
        del cells["unsolved"], cells["if unsolved"]  # only a solver runs out of its budget
    notes = []
    for key in [k for k in cells if k != "95% Wilson"]:
        shown = [c for c in cells[key] if c]
        if not shown:
            del cells[key]
            if key == "made %":
                del cells["95% Wilson"]
        elif len(shown) > 1 and len(set(shown)) == 1 and key != "made %":
            missing = [n for n, c in zip(names, cells[key], strict=True) if not c]
            but = f" but {', '.join(missing)}" if missing else ""
            notes.append(f"{key}: {shown[0]} on every row{but}")
            del cells[key]

    def line(first: str, row: list[str]) -> str:
        text = f"{first:<{_WIDTH['contract']}}"
        for key, cell in zip(cells, row, strict=True):
            w = _WIDTH.get(key, max(9, len(key)) + 2)
            text += f"   {cell:<{w - 3}}" if key in _INTERVALS else f"{cell:>{w}}"
        return text.rstrip()

    lines = [line("contract", list(cells))]
    for i, name in enumerate(names):
        best = "  <- best" if df["best"].iloc[i] else ""
        lines.append(line(name, [col[i] for col in cells.values()]) + best)
    return "\n".join([*lines, "", *notes, *_legend(df, cells, mean, play)])


def _legend(df: pd.DataFrame, cells: dict, mean: str, play) -> list[str]:
    """What each column of the table counts, wrapped, one entry per column shown or noted."""
    part = None
    if df.attrs.get("game"):
        part = importlib.import_module(GAMES[df.attrs["game"]][0].advisor)
    label = mean.replace("_", " ")
    entries = {k: _LEGEND[k] for k in ("trumps", "deals") if k in cells or k == "deals"}
    if "trumps" in entries:  # each game's own words: Phat pitches, Solo Whist has Abundance
        entries["trumps"] = getattr(part, "TRUMPS", _LEGEND["trumps"])
    if "made %" in cells:
        made = getattr(part, "MADE", None)
        entries["made %"] = _LEGEND["made %"] + (f"; made: {made}" if made else "")
    if df[mean].notna().any():
        entries[label] = getattr(part, "MEAN_MEANS", "the declaring side's mean count")
        if play == "dd" and mean == "mean_tricks":
            entries[label] += f" (blank: under {MEAN_COVERAGE:.0%} of them counted exactly)"
    elif play == "dd" and mean == "mean_tricks":
        counted = [
            f"{r['contract']} {int(r['exact'])} of {int(r['played'])}"
            for _, r in df.iterrows()
            if r["exact"] > 0
        ]
        budget = df.attrs.get("exact_nodes")
        entries[label] = (
            f"left out: under {MEAN_COVERAGE:.0%} of the played deals were counted exactly "
            f"(--play dd counts only a Solo's tricks, within --exact-nodes"
            + (f" {budget:,}" if budget is not None else "")
            + (f"; counted: {', '.join(counted)}" if counted else "")
            + "); --play rule counts every deal's"
        )
    entries["E[payoff]"] = _LEGEND["E[payoff]"]
    if play == "dd" and getattr(part, "DD_PAYOFF", None):
        entries["E[payoff]"] += f" ({part.DD_PAYOFF})"
    if "unsolved" in cells or play == "dd":
        entries["deals"] += " (the unsolved ones counted apart)"
        entries["unsolved"] = _LEGEND["unsolved"]
    for key in ("if unsolved", "no side"):
        if key in cells:
            entries[key] = _LEGEND[key]
    out = []
    for key, text in entries.items():
        text = in_words_of(text, df.attrs.get("game"))  # Phat: pitches, not contracts
        out += textwrap.wrap(f"{key}: {text}", 96, initial_indent="  ", subsequent_indent="    ")
    return [*out, "  " + _LEGEND["best"]]
