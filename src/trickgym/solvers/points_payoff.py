"""A seat's payoff of the side's final points, and the question the point-trick solver is asked.

The point-trick solver (:mod:`.points_search`) values the declaring side's
points; a seat's payoff is the game's scoring of them (:func:`points_payoff`):

- **Phat**: the seat's chance of winning the game (the race to 181) once the
  deal ends with that value (:func:`~trickgym.solvers.phat_race.phat_utility`:
  won or lost at the target, else the scores carried into the next deal,
  valued by a win-probability table measured by simulation);
- **Pinochle**: the hand's score difference by §8 (meld saved by a trick
  taken: a team counted as having taken one once it holds a counter or
  has won a trick so far; with the "20 counters" option, exactly);
- **Troggu**: ``declarer_payoffs`` of the side's points, a sweep when the
  side takes every point (every card is worth at least one) or none but
  its Tapp or discards.

Every payoff is a step or a class of the points (Troggu's card-point
classes, Pinochle's made or set), so the solver is asked the payoff's
question (:func:`payoff_problem`): its steps first, by one null-window probe
each, then the rest within a node budget, instead of the exact points.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import overload

from .. import protocol
from ..games.phat.state import STATE_DTYPE as PHAT_STATE
from ..games.pinochle.state import STATE_DTYPE as PINOCHLE_STATE
from ..games.troggu.constants import TOTAL_POINTS
from ..games.troggu.rules import card_points, declarer_payoffs
from ..games.troggu.state import STATE_DTYPE as TROGGU_STATE
from ..records import is_record_of
from .phat_race import phat_utility
from .points_phat import TOTAL_PHAT
from .points_search import DEFAULT_REFINE_NODES, make_question

__all__ = [
    "MAX_PAY",
    "deal_payoff",
    "deal_score",
    "payoff_curve",
    "payoff_problem",
    "payoff_question",
    "points_payoff",
    "side_seat",
]


def points_payoff(state, seat, final):
    """Stub (overloaded per game): ``seat``'s payoff when the side ends with ``final`` points."""
    raise NotImplementedError


@njit(cache=True)
def _phat_payoff(st, seat, final):
    # The game, not the deal: the chance to win the race to 181 (solvers.phat_race).
    return phat_utility(st, seat, final)


@njit(cache=True)
def _pinochle_payoff(st, seat, final):
    dc = st.declarer % 2
    score = np.zeros(2, dtype=np.float64)
    for t in range(2):
        counters = final if t == dc else 250 - final
        if st.meld_save_twenty:
            saved = counters >= 20
        else:
            saved = counters > 0 or st.tricks_won[t] + st.tricks_won[t + 2] > 0
        total = counters + (st.meld[t] + st.meld[t + 2] if saved else 0)
        if t == dc:
            score[t] = total if total >= st.bid else -st.bid
        else:
            score[t] = total
    return score[seat % 2] - score[1 - seat % 2]


@njit(cache=True)
def _troggu_payoff(st, seat, final):
    n = st.n_players
    partner = st.partner if st.partner != st.declarer else -1
    side_tricks = st.tricks_won[st.declarer] + (st.tricks_won[partner] if partner >= 0 else 0)
    # Points the side holds without any trick: the Tapp or discards in the declarer's pile.
    played = np.uint64(0)
    for s in range(n):
        played |= st.played[s]
    pile_only = card_points(st.won[st.declarer] & ~played)
    tricks = 1
    if final == TOTAL_POINTS:
        tricks = st.hand_size
    elif side_tricks == 0 and final <= pile_only:
        tricks = 0
    out = np.zeros(n, dtype=np.int32)
    declarer_payoffs(st.contract, n, st.declarer, partner, final, tricks, st.hand_size, out)
    return float(out[seat])


@overload(points_payoff)
def _points_payoff(state, seat, final):
    if is_record_of(state, PHAT_STATE):
        return lambda state, seat, final: _phat_payoff(state, seat, final)
    if is_record_of(state, PINOCHLE_STATE):
        return lambda state, seat, final: _pinochle_payoff(state, seat, final)
    if is_record_of(state, TROGGU_STATE):
        return lambda state, seat, final: _troggu_payoff(state, seat, final)
    return None


@njit(cache=True)
def payoff_curve(st, seat, pay):
    """``seat``'s payoff for every final side-point count ``st`` can still end with.

    ``pay[i]`` is the payoff of ``pay_base + i`` points, from the side's
    points now plus the lower to the upper bound of what it can still gain
    (``protocol.bounds``); returns ``(pay_base, n)``, the first ``n`` entries
    filled. ``pay`` needs ``MAX_PAY`` entries. This is the question the
    solver is asked (:func:`~trickgym.solvers.points_search.solve_payoff`):
    where the payoff is a step (Troggu's classes, Pinochle's made or set),
    only the step is searched.
    """
    cur = protocol.side_points(st)
    lo, hi = protocol.bounds(st)
    base = cur + lo
    n = min(hi - lo + 1, pay.shape[0])
    for i in range(n):
        pay[i] = points_payoff(st, seat, base + i)
    return base, n


@njit(cache=True)
def payoff_question(st, pay):
    """The question (:func:`~trickgym.solvers.points_search.make_question`) for the payoff
    curve ``pay`` of ``st`` (:func:`payoff_curve`): a difference between neighbouring counts
    over twice the median one is a step (Troggu's payoff is flat between its steps, so any
    difference is one); then the exact payoff within ``DEFAULT_REFINE_NODES`` nodes (the
    agents set their own budget from their table's ``META_REFINE``)."""
    unit = protocol.unit(st)
    m = (pay.shape[0] - 1) // unit
    step = 0.0
    if m > 0:
        diffs = np.empty(m, dtype=np.float64)
        for i in range(m):
            diffs[i] = abs(pay[(i + 1) * unit] - pay[i * unit])
        step = 2.0 * np.median(diffs)
    return make_question(step, 0.0, DEFAULT_REFINE_NODES)


# Enough payoff entries for any game's range of final points (Pinochle's counters: 0-250).
MAX_PAY = 512


@njit(cache=True)
def payoff_problem(root, seat, pay):
    """What the solver is asked for ``seat``'s payoff of ``root[0]``: ``(prepared, pay_base, n,
    question)``, a prepared copy of the position (``protocol.prepare``), the payoff curve
    in ``pay[:n]`` from ``pay_base`` points (:func:`payoff_curve`) and its question
    (:func:`payoff_question`)."""
    prepared = np.empty(1, dtype=root.dtype)
    prepared[0] = root[0]
    protocol.prepare(prepared[0])
    base, n = payoff_curve(prepared[0], seat, pay)
    return prepared, base, n, payoff_question(prepared[0], pay[:n])


@njit(cache=True)
def side_seat(st):
    """The first seat of the declaring side (whose payoff a benchmark's question is)."""
    for s in range(st.hands.shape[0]):
        if protocol.in_side(st, s):
            return s
    return 0


def deal_payoff(state, seat):
    """Stub (overloaded per game): ``seat``'s payoff of the finished deal ``state`` on the scale
    the solver's values are (:func:`points_payoff`), for the playouts that stand beside them:
    Phat's chance to win the game, the game's own ``payoffs[seat]`` elsewhere."""
    raise NotImplementedError


@njit(cache=True)
def _phat_deal_payoff(st, seat):
    return phat_utility(st, seat, protocol.side_points(st))


@overload(deal_payoff)
def _deal_payoff(state, seat):
    if is_record_of(state, PHAT_STATE):
        return lambda state, seat: _phat_deal_payoff(state, seat)
    return lambda state, seat: float(state.payoffs[seat])


def deal_score(state, seat, final):
    """Stub (overloaded per game): ``seat``'s score for the deal alone when the side ends it with
    ``final`` points (what the advisor reports): Phat's phat difference (a won or lost race
    counted as all the phat), :func:`points_payoff` elsewhere."""
    raise NotImplementedError


@njit(cache=True)
def _phat_deal_score(st, seat, final):
    own = min(max(final, 0), TOTAL_PHAT)  # a race won or lost: all the phat, or none
    mine = own if seat % 2 == st.pitcher % 2 else TOTAL_PHAT - own
    return 2.0 * mine - TOTAL_PHAT


@overload(deal_score)
def _deal_score(state, seat, final):
    if is_record_of(state, PHAT_STATE):
        return lambda state, seat, final: _phat_deal_score(state, seat, final)
    return lambda state, seat, final: points_payoff(state, seat, final)
