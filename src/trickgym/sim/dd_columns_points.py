"""Double-dummy columns of Phat, Pinochle and Troggu rows (``simulate(..., dd=True)``).

Every row with a declaring side gets what that side would take with every
card seen and best play by every seat, in the contract it played, from its
first lead: the point-trick solver
(:func:`~trickgym.solvers.points_search.solve_points`) within a node budget
per solve (``dd_max_nodes``).

- ``dd_points`` (int16): the declaring side's points with best play:
  Phat the pitching team's phat (of 80; the trump suit is the one pitched,
  the pitch the best card of that suit), Pinochle the declaring team's
  counters (of 250: buried counters and the last trick included), Troggu
  the declaring side's card points (of 114, the Tapp or discards included);
- ``dd_made`` (int8 here, a nullable boolean in the DataFrame): whether the
  contract was makeable so: Phat more than 40 phat, Pinochle saved meld
  plus counters reaching the bid (meld saved once the team takes a counter,
  as in :func:`trickgym.solvers.points_payoff.points_payoff`), Troggu more
  than 57 card points;
- ``dd_status`` (int8; a category in the DataFrame): ``solved``,
  ``unsolved`` (past the budget: ``dd_points`` -1, ``dd_made`` unknown, and
  counted as such by :func:`trickgym.analysis.failure_split`), ``no
  contract`` (a passed-out Pinochle hand) or ``no side`` (Troggu's Misère:
  everybody plays for themselves, nothing to solve).

The first lead is rebuilt from the row by the game's own rules: the dealt
hands (and kitty or Tapp) set with ``set_deal``, then the row's auction,
trump suit, buried or passed cards, Tapp discards and partner call applied
with ``apply_action``; so the columns do not depend on the agents, threads,
backend or dealing, and need no replay of the agents. Each row is solved
on a table cleared for it.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from trickgym import protocol
from trickgym.advisor.solve_points import declarer_points
from trickgym.cards.bits import bit, lowest_bit
from trickgym.games.phat import rules as phat_rules
from trickgym.games.phat.rules import SUIT_MASKS as PHAT_SUITS
from trickgym.games.pinochle import rules as pinochle_rules
from trickgym.games.pinochle.constants import BID_BASE, TRUMP_BASE
from trickgym.games.pinochle.constants import PASS as PINOCHLE_PASS
from trickgym.games.pinochle.constants import PLAY as PINOCHLE_PLAY
from trickgym.games.troggu import rules as troggu_rules
from trickgym.games.troggu.constants import AUCTION as TROGGU_AUCTION
from trickgym.games.troggu.constants import CALL as TROGGU_CALL
from trickgym.games.troggu.constants import CALL_BASE as TROGGU_CALL_BASE
from trickgym.games.troggu.constants import DISCARD as TROGGU_DISCARD
from trickgym.games.troggu.constants import HALF, MISERE, NO_PARTNER
from trickgym.records import fields_of
from trickgym.solvers.points_search import (
    META_ABORTED,
    make_points_table,
    reset_points_table,
    solve_points,
)

__all__ = [
    "DD_DEFAULT_MAX_NODES",
    "DD_STATUS",
    "NO_CONTRACT",
    "NO_SIDE",
    "SOLVED",
    "UNSOLVED",
    "add_dd",
    "dd_block",
    "first_lead_at",
    "phat_first_lead",
    "phat_made",
    "phat_solve",
    "pinochle_first_lead",
    "pinochle_made",
    "plain_solve",
    "troggu_first_lead",
    "troggu_made",
    "with_options",
]

#: Node budget of one full-deal solve (about 8 M nodes a second on an idle core today:
#: Pinochle kitty's median deal fits, most Phat and Troggu deals do not yet).
DD_DEFAULT_MAX_NODES = 4_000_000
# Points table per work item: 2**20 slots of 24 bytes (24 MB).
DD_TABLE_LOG2 = 20
DD_WORK_ROWS = 4

# dd_status codes, and their names in the DataFrame.
SOLVED, UNSOLVED, NO_CONTRACT, NO_SIDE = 0, 1, 2, 3
DD_STATUS = ("solved", "unsolved", "no contract", "no side")


# Each point-trick game's description registers, for the protocol's hooks, its
# ``dd_first_lead(row, state)`` (``state`` set to the first lead of ``row``'s deal;
# returns the row's ``dd_status`` so far: SOLVED when there is a side to solve for, else
# NO_CONTRACT or NO_SIDE), ``dd_made(state, final)`` (whether ``final`` side points make
# the contract) and ``dd_solve(row, states, table, work)`` (the side's final points from
# the first lead ``states[0]``, -1 past the budget). The built-in games' are below.


@njit(cache=True)
def phat_first_lead(row, st):
    """Phat: the pitcher to lead the dealt hands."""
    phat_rules.init_match(st, 0, 1 << 30, 1, row.pitcher)
    phat_rules.set_deal(st, row.hands)
    return SOLVED


@njit(cache=True)
def pinochle_first_lead(row, st):
    """Pinochle: the auction, trumps and buried or passed cards replayed (rule options from
    the row's ``dd_options``, see :func:`with_options`)."""
    if row.passed_out or row.declarer < 0:
        return NO_CONTRACT
    opts = row.dd_options
    rule_args = (row.mode, opts[1], opts[2], opts[3], opts[4] != 0, opts[5] != 0, opts[6] != 0)
    pinochle_rules.init_match(st, 0, rule_args, 1 << 30, row.dealer)
    pinochle_rules.set_deal(st, row.hands, row.kitty)
    for j in range(row.n_calls):
        v = row.calls[j]
        pinochle_rules.apply_action(
            st, PINOCHLE_PASS if v == 0 else BID_BASE + (v - st.min_bid) // 10
        )
    pinochle_rules.apply_action(st, TRUMP_BASE + row.trumps)
    # Kitty mode buries ``discards``; exchange mode passes ``passed_in``, then ``passed_back``.
    for cards in (row.discards, row.passed_in, row.passed_back):
        rest = np.uint64(cards)
        while rest and st.phase != PINOCHLE_PLAY:
            c = lowest_bit(rest)
            rest &= ~bit(c)
            pinochle_rules.apply_action(st, c)
    return SOLVED


@njit(cache=True)
def troggu_first_lead(row, st):
    """Troggu: the auction, Tapp discards and partner call replayed; Misère has no side."""
    n = row.players
    troggu_rules.init_match(st, 0, n, 1, row.dealer)
    troggu_rules.set_deal(st, row.hands, row.tapp)
    p = (row.dealer + 1) % n
    while st.phase == TROGGU_AUCTION:
        troggu_rules.apply_action(st, TROGGU_CALL_BASE + row.calls[p])
        p = (p + 1) % n
    if st.contract == MISERE:
        return NO_SIDE
    rest = np.uint64(row.discards)
    while rest and st.phase == TROGGU_DISCARD:
        c = lowest_bit(rest)
        rest &= ~bit(c)
        troggu_rules.apply_action(st, c)
    if st.phase == TROGGU_CALL:
        troggu_rules.apply_action(st, row.called_card if row.called_card >= 0 else NO_PARTNER)
    return SOLVED


@njit(cache=True)
def first_lead_at(rows, i, states):
    """``protocol.dd_first_lead`` of ``rows[i]`` into ``states[0]`` (from Python: tests).

    Pinochle rows must carry ``dd_options`` (see :func:`with_options`).
    """
    return protocol.dd_first_lead(rows[i], states[0])


@njit(cache=True)
def phat_made(st, final):
    """Phat: the pitching team took more than half the phat."""
    return final > 40


@njit(cache=True)
def pinochle_made(st, final):
    """Pinochle: saved meld plus counters reach the bid."""
    return declarer_points(st, final) >= st.bid


@njit(cache=True)
def troggu_made(st, final):
    """Troggu: the side took more than half the card points."""
    return final > HALF


@njit(cache=True)
def plain_solve(row, root, table, work):
    """The side's final points from ``root[0]`` with best play; -1 past the budget."""
    v = solve_points(root, table)
    if table[1][META_ABORTED]:
        return -1
    return protocol.side_points(root[0]) + v


@njit(cache=True)
def phat_solve(row, root, table, work):
    """Phat: the best pitch among the pitcher's cards of the suit pitched (``row.trumps``)."""
    st = root[0]
    best = -1
    cards = st.hands[st.pitcher] & PHAT_SUITS[row.trumps]
    while cards:
        c = lowest_bit(cards)
        cards &= ~bit(c)
        work[0] = st
        protocol.apply_action(work[0], c)
        v = solve_points(work, table)
        if table[1][META_ABORTED]:
            return -1
        best = max(best, protocol.side_points(work[0]) + v)
    return best


@njit(cache=True, parallel=True, nogil=True)
def dd_block(template, rows, node_limit, chunk, out):
    """Fill ``out`` (int16[n, 3]: points, made, status) for the ``n`` rows, in parallel.

    ``template`` is a one-record state array of the game; chunks of
    ``chunk`` rows run in parallel, each with one points table, cleared for
    every row.
    """
    n = rows.shape[0]
    for c in prange((n + chunk - 1) // chunk):
        table = make_points_table(DD_TABLE_LOG2, node_limit)
        root = protocol.new_states(template[0])
        work = protocol.new_states(template[0])
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            out[i, 0] = -1
            out[i, 1] = -1
            status = protocol.dd_first_lead(rows[i], root[0])
            if status == SOLVED:
                reset_points_table(table)
                final = protocol.dd_solve(rows[i], root, table, work)
                if final < 0:
                    status = UNSOLVED
                else:
                    out[i, 0] = final
                    out[i, 1] = 1 if protocol.dd_made(root[0], final) else 0
            out[i, 2] = status


def add_dd(
    game, rows: np.ndarray, dd_dtype: np.dtype, max_nodes: int | None, dd_options=None
) -> np.ndarray:
    """``rows`` as ``dd_dtype`` records with their double-dummy columns (see the module).

    ``dd_dtype`` is the game's ``SimSpec.dd_row_dtype`` (the row's fields,
    then ``dd_points`` int16, ``dd_made`` and ``dd_status`` int8).

    ``max_nodes`` is the node budget of each solve (``None`` or 0: none).
    """
    n = len(rows)
    out = np.zeros((n, 3), dtype=np.int16)
    if n:
        template = np.zeros(1, dtype=game.state_dtype)
        protocol.require(game)
        work = max(1, min(DD_WORK_ROWS, -(-n // (4 * numba.get_num_threads()))))
        dd_block(template, with_options(game, rows, dd_options), int(max_nodes or 0), work, out)
    result = np.zeros(n, dtype=dd_dtype)
    for name in rows.dtype.names:
        result[name] = rows[name]
    result["dd_points"] = out[:, 0]
    result["dd_made"] = out[:, 1]
    result["dd_status"] = out[:, 2]
    return result


def with_options(game, rows, options):
    """``rows`` with the options their first lead reads beside the row (``dd_options``:
    Pinochle's rule options, a row having only ``mode``), from ``options(game)`` (the
    game's ``SimSpec.dd_options``); as they are when ``options`` is None."""
    if options is None:
        return rows
    dtype = np.dtype([*fields_of(rows.dtype), ("dd_options", np.int64, (7,))], align=True)
    out = np.zeros(len(rows), dtype=dtype)
    for name in rows.dtype.names:
        out[name] = rows[name]
    out["dd_options"] = options(game)
    return out
