"""Exact point-trick search: alpha-beta by null-window probes, written once for every game.

A position is a game's own state record in the card play, every hand
visible. Its value is the points the declaring side gains from here to the
end of the deal with best play by every seat (the side maximising, the
others minimising). The search asks one question at a time, "can the side
finish with at least ``target`` points?" (a null-window probe), answered
fail-soft: a bound on the value beyond the question when the search finds
one. :func:`solve_points` narrows the value by such probes (bisection, or
MTD(f) from a first guess: :func:`card_points_values` guesses each card's
value from the card before); every probe's answers are bounds kept in one
transposition table, so later probes (and later solves) reuse them.

What makes it fast, all exact:

- the table: at every trick boundary, a lower and an upper bound on the
  points still to gain, keyed by **relative ranks** (``protocol.key``, see
  :func:`~trickgym.solvers.points_common.relative_key`: positions that
  differ only in which cards are gone are one entry), with the best card
  found there as its place among the cards in play (tried first next time);
- equivalent cards: a chain of one hand's cards of one suit with no other
  seat's card (nor a trick card) between them is one move per points value,
  and one move in all (its richest or its cheapest card) wherever the side
  taking the trick is settled (``protocol.beaters``);
- bounds: the points still in play, less what the other side's master
  trumps take for sure, cap what the side can gain; its own master trumps
  are a floor (``protocol.bounds``), so a probe the side can no longer
  reach, or has already reached, ends at once;
- move ordering: the table's card, then cards that win the trick (cheap
  ones for the side's opponents to lose, rich ones for the side to win),
  then smears onto a partner's winning card, then cheap discards.

The game rules come in through the hooks of the game protocol (:mod:`trickgym.protocol`); the
search never reimplements them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import protocol
from ..cards.bits import bit, lowest_bit, popcount, select_kth
from ..checks import check_tt_mb

__all__ = [
    "DEFAULT_REFINE_NODES",
    "META_ABORTED",
    "META_NODES",
    "META_NODE_LIMIT",
    "META_REFINE",
    "Q_REFINE",
    "Q_STEP",
    "Q_TOL",
    "card_payoff_values",
    "card_points_values",
    "make_points_table",
    "make_question",
    "new_points_table",
    "reset_points_table",
    "solve_payoff",
    "solve_points",
]

MAX_DEPTH = 64  # cards left in a deal, plus one
MAX_MOVES = 32  # legal cards of one hand (Troggu's 3-player hands hold 18)

# meta words.
META_LOG2_SLOTS = 0
META_NODES = 1
META_TT_HITS = 2
META_PROBES = 3
META_TT_STORES = 4
META_NODE_LIMIT = 5  # node budget per call (0: none)
META_ABORTED = 6  # 1 once the last call ran out of its budget: its answer is void
# The node count at which the current call gives up (0: never), set at each call's start:
# the budget is per call, while the node counter accumulates across calls.
_META_STOP = 7
# Nodes the payoff's question may spend per position past the payoff's steps (make_question's
# refine_nodes; read by the agents' questions): DEFAULT_REFINE_NODES unless set.
META_REFINE = 8
_META_SIZE = 9
DEFAULT_REFINE_NODES = 2_000

_WORDS = 3  # k1, k2, info
_OFFSET = 1 << 15  # bounds are stored as value + _OFFSET in 16 bits
_NO_MOVE = 255


def new_points_table(mb: float = 16):
    """A transposition table of about ``mb`` megabytes: ``(entries, meta)``.

    ``entries`` is ``uint64[n_slots * 3]`` (two key words and one word of
    lower bound, upper bound, best card and cards left), ``meta`` the
    counters (``META_*``): nodes, table hits, probes, stores, a node budget
    per call and the flag of a call that ran out of it. Entries stay valid
    across calls and deals: their keys hold the whole position.
    """
    mb = check_tt_mb(mb)
    n = max(2, int(mb * 2**20) // (_WORDS * 8))
    return make_points_table(n.bit_length() - 1, 0)


@njit(cache=True)
def make_points_table(log2_slots, node_limit):
    """:func:`new_points_table`'s table of ``2**log2_slots`` slots (24 bytes each).

    Callable from compiled code (agents acting inside compiled loops)."""
    entries = np.zeros((1 << log2_slots) * _WORDS, dtype=np.uint64)
    meta = np.zeros(_META_SIZE, dtype=np.int64)
    meta[META_LOG2_SLOTS] = log2_slots
    meta[META_NODE_LIMIT] = node_limit
    meta[META_REFINE] = DEFAULT_REFINE_NODES
    return entries, meta


@njit(cache=True)
def reset_points_table(table):
    """Forget every entry and zero the counters, keeping the node and refinement budgets."""
    entries, meta = table
    entries[:] = 0
    for i in range(meta.shape[0]):
        if i != META_LOG2_SLOTS and i != META_NODE_LIMIT and i != META_REFINE:
            meta[i] = 0


@njit(cache=True, inline="always")
def _info(lo, hi, best, left):
    return (
        np.uint64(lo + _OFFSET)
        | (np.uint64(hi + _OFFSET) << np.uint64(16))
        | (np.uint64(best) << np.uint64(32))
        | (np.uint64(left) << np.uint64(40))
    )


@njit(cache=True)
def _lookup(entries, meta, k1, k2):
    """Slot index of the position's entry in its 2-way bucket, or -1."""
    mask = (np.int64(1) << meta[META_LOG2_SLOTS]) - 1
    i = np.int64(k1 & np.uint64(mask)) & ~np.int64(1)
    for j in (i, i + 1):
        w = j * _WORDS
        if entries[w] == k1 and entries[w + 1] == k2 and entries[w + 2] != 0:
            return j
    return -1


@njit(cache=True)
def _store(entries, meta, k1, k2, lo, hi, best, left):
    """Keep the bounds; a full bucket gives up its entry with fewer cards left."""
    mask = (np.int64(1) << meta[META_LOG2_SLOTS]) - 1
    i = np.int64(k1 & np.uint64(mask)) & ~np.int64(1)
    victim = i
    best_left = 1 << 30
    for j in (i, i + 1):
        w = j * _WORDS
        if entries[w + 2] == 0 or (entries[w] == k1 and entries[w + 1] == k2):
            victim = j
            break
        jl = np.int64((entries[w + 2] >> np.uint64(40)) & np.uint64(0xFF))
        if jl < best_left:
            best_left, victim = jl, j
    w = victim * _WORDS
    entries[w] = k1
    entries[w + 1] = k2
    entries[w + 2] = _info(lo, hi, best, left)
    meta[META_TT_STORES] += 1


@njit(cache=True, inline="always")
def _entry_bounds(entries, slot):
    info = entries[slot * _WORDS + 2]
    lo = np.int64(info & np.uint64(0xFFFF)) - _OFFSET
    hi = np.int64((info >> np.uint64(16)) & np.uint64(0xFFFF)) - _OFFSET
    best = np.int64((info >> np.uint64(32)) & np.uint64(0xFF))
    return lo, hi, best


@njit(cache=True, inline="always")
def _in_hands(st):
    out = np.uint64(0)
    for s in range(st.hands.shape[0]):
        out |= st.hands[s]
    return out


@njit(cache=True)
def _others(st):
    """Cards still in play outside the mover's hand: other hands and the trick."""
    p = st.to_move
    out = np.uint64(0)
    for s in range(st.hands.shape[0]):
        if s != p:
            out |= st.hands[s]
    for i in range(st.trick_n):
        c = st.trick_cards[i]
        if c >= 0:
            out |= bit(c)
    return out


@njit(cache=True)
def _still_to_play(st, mine):
    """Cards of the seats still to play to the trick: ``(the mover's side's, the others')``.

    Seats that have played to the trick hold one card fewer than the mover."""
    n_mine = popcount(st.hands[st.to_move])
    ours = np.uint64(0)
    theirs = np.uint64(0)
    for s in range(st.hands.shape[0]):
        if s != st.to_move and popcount(st.hands[s]) == n_mine:
            if protocol.in_side(st, s) == mine:
                ours |= st.hands[s]
            else:
                theirs |= st.hands[s]
    return ours, theirs


@njit(cache=True)
def _lead_score(st, c, suit, mine, pts, rank):
    """A lead's place in the move order: sure winners first (no seat of the other side can
    beat it: it follows below it or cannot ruff), rich ones first; then leads a partner
    can beat, cheap ones first; then losing leads, cheap and low first."""
    beat = np.uint64(protocol.beaters(st, c))
    theirs = False
    ours = False
    for s in range(st.hands.shape[0]):
        if s == st.to_move:
            continue
        h = st.hands[s]
        follow = h & suit
        can = (follow & beat) if follow else (h & beat)
        if can:
            if protocol.in_side(st, s) == mine:
                ours = True
            else:
                theirs = True
    if not theirs:
        return (np.int64(3) << 50) + 512 + 8 * pts + rank
    if ours:
        return (np.int64(2) << 50) + 512 + 4 * rank + pts
    return (np.int64(1) << 50) + 512 + 4 * rank + pts


@njit(cache=True)
def _moves(st, hint, moves, scores, chain):
    """The mover's legal cards, one per class of equivalent cards, best first.

    A chain is a run of the mover's cards of one suit with no card of
    another seat (or of the trick) between them: its cards have the same
    power, so playing one or another leads to the same game but for the
    points each card carries. Cards of a chain with equal points are one
    move. When the side taking the trick is settled whichever chain card
    is played (the mover closes it, or no seat of the other side still to
    play holds a card that ``beaters`` says would beat the winning card;
    beating is transitive), only the chain's richest card is searched if the
    mover's side takes the trick and only its cheapest otherwise (playing a
    richer card into a trick the side wins gives it those points now instead
    of to whoever wins the card later: never worse), unless ``unequal_ok``
    says no (Troggu's Fool exchange takes a pile's cheapest card, which
    breaks that argument while the card it would give is not settled).

    Returns their number."""
    legal = np.uint64(protocol.legal_sets(st)[0])
    others = _others(st)
    fixed = np.uint64(protocol.fixed(st))
    mine = protocol.in_side(st, st.to_move)
    partner_winning = False
    if st.trick_n > 0:
        w = protocol.winner(st)
        partner_winning = w >= 0 and protocol.in_side(st, w) == mine
    unequal = st.trick_n > 0 and protocol.unequal_ok(st)
    ours = np.uint64(0)
    theirs = np.uint64(0)
    looked = False  # the seats still to play are read once, when a chain needs them
    n = 0
    rest = legal
    while rest:
        # The chain starting at the lowest card left.
        c = lowest_bit(rest)
        rest &= ~bit(c)
        suit = np.uint64(protocol.suit(st, c))
        m = 1
        chain[0] = c
        if not (bit(c) & fixed):
            while True:
                higher = rest & suit & ~fixed
                if not higher:
                    break
                h = lowest_bit(higher)
                if np.uint64(protocol.span(st, chain[m - 1], h)) & others:
                    break
                chain[m] = h
                m += 1
                rest &= ~bit(h)
        wins = protocol.wins_now(st, chain[0])
        take = m
        side_takes = wins or partner_winning  # the side of the card winning after this one
        settled = unequal and m > 1
        if settled:
            if not looked:
                ours, theirs = _still_to_play(st, mine)
                looked = True
            rivals = theirs if side_takes else ours
            if rivals:
                settled = (rivals & protocol.beaters(st, chain[0] if wins else -1)) == 0
        if settled:
            pick = chain[m - 1]
            pick_pts = protocol.points(st, pick)
            for i in range(m - 2, -1, -1):
                p = protocol.points(st, chain[i])
                if (p > pick_pts) if side_takes else (p < pick_pts):
                    pick, pick_pts = chain[i], p
            chain[0] = pick
            take = 1
        for i in range(take):
            c = chain[i]
            pts = protocol.points(st, c)
            dup = False
            for j in range(i + 1, take):
                if protocol.points(st, chain[j]) == pts:
                    dup = True  # a higher card of equal points stands for it
                    break
            if dup:
                continue
            cb = bit(c)
            rank = popcount(suit & (cb - np.uint64(1)))
            # Class of the move first, then a static preference within it.
            if c == hint:
                sc = np.int64(1) << 60
            elif st.trick_n == 0:
                sc = _lead_score(st, c, suit, mine, pts, rank)
            elif wins or partner_winning:
                # Win rich tricks with low cards, smear onto a partner's; first where no seat of
                # the other side still to play can beat the card that will be winning.
                if not looked:
                    ours, theirs = _still_to_play(st, mine)
                    looked = True
                sure = (theirs & protocol.beaters(st, c if wins else -1)) == 0
                sc = (np.int64(4 if sure else (3 if wins else 2)) << 50) + 512 + pts * 4 - rank
            else:
                sc = (np.int64(1) << 50) + 512 - pts * 4 - rank  # discard cheap
            moves[n] = c
            scores[n] = sc
            n += 1
    # Insertion sort, best first (n is small).
    for i in range(1, n):
        m, sc = moves[i], scores[i]
        j = i - 1
        while j >= 0 and scores[j] < sc:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = m
        scores[j + 1] = sc
    return n


@njit(cache=True)
def _probe(stack, d, target, entries, meta, moves, scores, chain):
    """Can the side finish with at least ``target`` points from ``stack[d]``? Fail-soft.

    Returns a bound ``v`` on the side's final points: ``v >= target`` (yes,
    and the value is at least ``v``) or ``v < target`` (no, and it is at
    most ``v``). A bound beyond the target is what lets the driver jump
    and the table store more than the question asked.
    """
    st = stack[d]
    meta[META_NODES] += 1
    if meta[_META_STOP] > 0 and meta[META_NODES] > meta[_META_STOP]:
        meta[META_ABORTED] = 1
        return target - 1
    cur = protocol.side_points(st)
    if protocol.deal_over(st):
        return cur
    lo_b, hi_b = protocol.bounds(st)
    if cur + hi_b < target:
        return cur + hi_b
    if cur + lo_b >= target:
        return cur + lo_b
    boundary = st.trick_n == 0
    k1 = np.uint64(0)
    k2 = np.uint64(0)
    hint = -1
    if boundary:
        k1, k2 = protocol.key(st)
        slot = _lookup(entries, meta, k1, k2)
        if slot >= 0:
            t_lo, t_hi, best = _entry_bounds(entries, slot)
            meta[META_TT_HITS] += 1
            lo_b = max(lo_b, t_lo)
            hi_b = min(hi_b, t_hi)
            if cur + lo_b >= target:
                return cur + lo_b
            if cur + hi_b < target:
                return cur + hi_b
            if best != _NO_MOVE:
                # Stored as the card's place among the cards in play (the key is by places).
                hint = select_kth(_in_hands(st), best)
    maximizing = protocol.in_side(st, st.to_move)
    base = d * MAX_MOVES
    n = _moves(st, hint, moves[base : base + MAX_MOVES], scores[base : base + MAX_MOVES], chain)
    best_v = np.int64(-(1 << 40)) if maximizing else np.int64(1 << 40)
    best_move = _NO_MOVE
    for k in range(n):
        c = moves[base + k]
        stack[d + 1] = st
        protocol.apply_action(stack[d + 1], c)
        v = _probe(stack, d + 1, target, entries, meta, moves, scores, chain)
        if meta[META_ABORTED]:
            return target - 1
        if maximizing:
            if v > best_v:
                best_v = v
            if v >= target:
                best_move = c
                break
        else:
            if v < best_v:
                best_v = v
            if v < target:
                best_move = c
                break
    # Never claim more than the bounds already known.
    best_v = min(max(best_v, cur + lo_b), cur + hi_b)
    if boundary:
        left = popcount(st.hands[st.to_move])
        if best_v >= target:
            lo_b = max(lo_b, best_v - cur)
        else:
            hi_b = min(hi_b, best_v - cur)
        if best_move == _NO_MOVE and hint >= 0:
            best_move = hint  # no cutoff: keep the card the table knew
        if best_move != _NO_MOVE:
            best_move = popcount(_in_hands(st) & (bit(best_move) - np.uint64(1)))
        _store(entries, meta, k1, k2, lo_b, hi_b, best_move, left)
    return best_v


@njit(cache=True)
def _start_call(meta):
    """Clear the abort flag and give this call its own node budget.

    Counted from the nodes searched so far, not from zero: the counter
    accumulates across calls, so a budget compared with it directly ran out
    for good once a table had searched that many nodes in all.
    """
    meta[META_ABORTED] = 0
    meta[_META_STOP] = meta[META_NODES] + meta[META_NODE_LIMIT] if meta[META_NODE_LIMIT] > 0 else 0


_NO_GUESS = -(1 << 40)


@njit(cache=True)
def _solve_from(stack, table, moves, scores, chain, guess):
    """Exact points the side gains from ``stack[0]`` on; -1 << 20 when out of budget.

    Fail-soft null-window probes narrow ``[lo, hi]`` (on multiples of the
    unit: the gain is one, the points so far may not be), each probe's bound
    moving one end at once. With a first ``guess`` of the gain the probes
    follow MTD(f): ask "at least the guess?", then step from the bound the
    answer gave (an exact guess costs two probes); they bisect without one,
    or after two MTD(f) steps.
    """
    entries, meta = table
    st = stack[0]
    if protocol.deal_over(st):
        return 0
    cur = protocol.side_points(st)
    lo, hi = protocol.bounds(st)
    unit = protocol.unit(st)
    lo = -((-lo) // unit) * unit
    hi = (hi // unit) * unit
    # A depth read at run time: a recursive call typed on a literal breaks
    # numba's on-disk cache (a crash on load).
    root_depth = meta[META_LOG2_SLOTS] * 0
    # MTD(f) probes before bisecting: a near guess converges in two, a far one creeps.
    mtd = 0 if guess == _NO_GUESS else 2
    ok = True
    first = True
    while lo < hi:
        if mtd > 0 and first:
            t = min(max((guess // unit) * unit, lo + unit), hi)
        elif mtd > 0:
            t = lo + unit if ok else hi
        else:
            t = lo + ((hi - lo) // unit + 1) // 2 * unit
        first = False
        mtd -= 1
        meta[META_PROBES] += 1
        v = _probe(stack, root_depth, cur + t, entries, meta, moves, scores, chain) - cur
        if meta[META_ABORTED]:
            return -(1 << 20)
        ok = v >= t
        if ok:
            lo = max(lo, -((-v) // unit) * unit)
        else:
            hi = min(hi, (v // unit) * unit)
    return lo


@njit(cache=True)
def solve_points(root, table):
    """Points the declaring side gains from ``root[0]`` (a one-record state array) with best play.

    ``table`` is ``(entries, meta)`` from :func:`new_points_table`. Returns
    ``-(1 << 20)`` (and sets ``meta[META_ABORTED]``) when the call ran out
    of the table's node budget.
    """
    _start_call(table[1])
    stack, moves, scores, chain = _scratch(root)
    stack[0] = root[0]
    protocol.prepare(stack[0])
    return _solve_from(stack, table, moves, scores, chain, _NO_GUESS)


@njit(cache=True)
def card_points_values(root, table, out):
    """Each legal card's value into ``out[card]``: the side's points gained from ``root[0]`` on
    if that card is played now and best play follows (-1e9 for the others).

    Returns the number of cards valued, or -1 when a solve ran out of the
    table's node budget (``out`` is then incomplete).
    """
    root_copy = np.empty(1, dtype=root.dtype)
    root_copy[0] = root[0]
    protocol.prepare(root_copy[0])
    no_pay = np.zeros(1, dtype=np.float64)
    return _card_values(root_copy, table, no_pay, 0, make_question(-1.0, -1.0, -1), out, True)


# ------------------------------------------------------------------ the payoff's question
#
# A question is float64[3]: the step size, the tolerance and the refinement budget
# (make_question). The payoff of the side's final points f is pay[f - pay_base].

Q_STEP = 0  # payoff differences between neighbouring counts above this are steps
Q_TOL = 1  # then narrow until the payoff varies by at most this (negative: to one count)
Q_REFINE = 2  # nodes a position may spend past its steps (negative: no limit)


@njit(cache=True)
def make_question(step, tol, refine_nodes):
    """A payoff question (float64[3]) for :func:`solve_payoff` and :func:`card_payoff_values`.

    The search first settles every **step** of the payoff (a difference
    above ``step`` between neighbouring point counts: Troggu's card-point
    classes, Pinochle's made or set and saved meld, Phat's race), then
    narrows the rest until the payoff varies by at most ``tol`` over the
    bounds found (``tol < 0``: the exact count), spending at most
    ``refine_nodes`` nodes on that (negative: no limit); a position whose
    refinement runs out is valued at the middle of its payoff range.
    ``make_question(-1.0, -1.0, -1)`` asks for the exact points.
    """
    q = np.empty(3, dtype=np.float64)
    q[Q_STEP] = step
    q[Q_TOL] = tol
    q[Q_REFINE] = refine_nodes
    return q


@njit(cache=True, inline="always")
def _pay_at(pay, pay_base, final):
    """The payoff of ``final`` points: ``pay[final - pay_base]``, clamped to the array.

    Values past the array's ends are never reached from the position the
    array was made for (its ends are the position's bounds), so the edge
    value stands for them."""
    i = min(max(final - pay_base, 0), pay.shape[0] - 1)
    return pay[i]


@njit(cache=True)
def _split(cur, lo, hi, unit, pay, pay_base, step, tol):
    """The next probe's target gain in ``(lo, hi]``, or ``lo`` when there is none to ask.

    With ``step >= 0``: a target where the payoff steps (a difference above
    ``step`` between neighbouring gains), ``lo`` once none is left between
    ``lo`` and ``hi``. Otherwise the payoff is settled once it varies by at
    most ``tol`` over ``lo, lo + unit, .., hi`` (``tol < 0``: once
    ``lo == hi``). Either way the target splits the gains where the larger
    of the two sides' payoff ranges is least (a class boundary of a step
    payoff, the middle of a linear one), nearest the middle on ties.
    """
    n = (hi - lo) // unit + 1
    if n <= 1:
        return lo
    if step < 0 and tol < 0:
        return lo + (n // 2) * unit
    # Suffix ranges first, then one pass with running prefix ranges.
    smin = np.empty(n, dtype=np.float64)
    smax = np.empty(n, dtype=np.float64)
    v = _pay_at(pay, pay_base, cur + hi)
    smin[n - 1] = v
    smax[n - 1] = v
    for j in range(n - 2, -1, -1):
        v = _pay_at(pay, pay_base, cur + lo + j * unit)
        smin[j] = min(smin[j + 1], v)
        smax[j] = max(smax[j + 1], v)
    if step < 0 and smax[0] - smin[0] <= tol:
        return lo
    best_j = 0
    best_cost = np.inf
    best_off = n
    pmin = np.inf
    pmax = -np.inf
    prev = _pay_at(pay, pay_base, cur + lo)
    for j in range(1, n):
        pmin = min(pmin, prev)
        pmax = max(pmax, prev)
        v = _pay_at(pay, pay_base, cur + lo + j * unit)
        jumps = abs(v - prev) > step
        prev = v
        if step >= 0 and not jumps:
            continue
        cost = max(pmax - pmin, smax[j] - smin[j])
        off = abs(2 * j - n)
        if cost < best_cost or (cost == best_cost and off < best_off):
            best_j, best_cost, best_off = j, cost, off
    return lo + best_j * unit


@njit(cache=True)
def _narrow_stage(stack, table, moves, scores, chain, pay, pay_base, step, tol, lo, hi):
    """Probe at :func:`_split`'s targets until it has none: ``(lo, hi)`` narrowed.

    Each answer's fail-soft bound moves one end at once. Stops early when
    the call runs out of its node budget (``meta[META_ABORTED]``)."""
    entries, meta = table
    st = stack[0]
    cur = protocol.side_points(st)
    unit = protocol.unit(st)
    root_depth = meta[META_LOG2_SLOTS] * 0  # read at run time: see _solve_from
    while lo < hi:
        t = _split(cur, lo, hi, unit, pay, pay_base, step, tol)
        if t == lo:
            break
        meta[META_PROBES] += 1
        v = _probe(stack, root_depth, cur + t, entries, meta, moves, scores, chain) - cur
        if meta[META_ABORTED]:
            break
        if v >= t:
            lo = min(hi, max(t, -((-v) // unit) * unit))
        else:
            hi = max(lo, min(t - unit, (v // unit) * unit))
    return lo, hi


@njit(cache=True)
def _narrow_from(stack, table, moves, scores, chain, pay, pay_base, question):
    """``(lo, hi)``: the gains from ``stack[0]`` on that the payoff's ``question`` leaves.

    The steps first (within the call's node budget: ``meta[META_ABORTED]``
    tells the caller it ran out), then the refinement within its own
    budget, which ends the refinement, not the call."""
    meta = table[1]
    st = stack[0]
    if protocol.deal_over(st):
        return np.int64(0), np.int64(0)
    lo, hi = protocol.bounds(st)
    unit = protocol.unit(st)
    lo = -((-lo) // unit) * unit
    hi = (hi // unit) * unit
    step, tol, refine = question[Q_STEP], question[Q_TOL], np.int64(question[Q_REFINE])
    if step >= 0:
        lo, hi = _narrow_stage(stack, table, moves, scores, chain, pay, pay_base, step, tol, lo, hi)
        if meta[META_ABORTED] or refine == 0:
            return lo, hi
    stop = meta[_META_STOP]  # the call's own budget (0: none)
    own = meta[META_NODES] + refine if refine > 0 else 0
    limited = own > 0 and (stop == 0 or own < stop)
    if limited:
        meta[_META_STOP] = own
    lo, hi = _narrow_stage(stack, table, moves, scores, chain, pay, pay_base, -1.0, tol, lo, hi)
    if limited and meta[META_ABORTED]:
        meta[META_ABORTED] = 0  # the refinement's budget ran out, not the call's: keep [lo, hi]
    meta[_META_STOP] = stop
    return lo, hi


@njit(cache=True)
def _settled_payoff(cur, lo, hi, unit, pay, pay_base):
    """The payoff of gains ``lo..hi``: the middle of its range over them (exact when constant)."""
    pmin = np.inf
    pmax = -np.inf
    for g in range(lo, hi + 1, unit):
        v = _pay_at(pay, pay_base, cur + g)
        pmin = min(pmin, v)
        pmax = max(pmax, v)
    return 0.5 * (pmin + pmax)


@njit(cache=True)
def _scratch(root):
    """The search's stack of positions and its move lists, for states like ``root``'s."""
    stack = np.empty(MAX_DEPTH, dtype=root.dtype)
    moves = np.empty(MAX_DEPTH * MAX_MOVES, dtype=np.int64)
    scores = np.empty(MAX_DEPTH * MAX_MOVES, dtype=np.int64)
    chain = np.empty(MAX_MOVES, dtype=np.int64)
    return stack, moves, scores, chain


@njit(cache=True)
def solve_payoff(root, table, pay, pay_base, question):
    """The payoff of ``root[0]`` with best play, asking only what the payoff needs.

    ``pay[i]`` is the payoff when the side ends the deal with ``pay_base + i``
    points; ``question`` (:func:`make_question`) says how far to narrow the
    side's final points: a step payoff asks only which class the value falls
    in (Troggu's card-point classes, Pinochle's made or set), by null-window
    probes at its steps. Returns the middle of the payoff's range over what
    is left (exact when it is constant there). NaN (and ``meta[META_ABORTED]``
    set) past the table's node budget. ``root[0]`` is taken as it is:
    ``protocol.prepare`` it first, as :func:`solve_points` does.
    """
    _start_call(table[1])
    stack, moves, scores, chain = _scratch(root)
    stack[0] = root[0]
    st = stack[0]
    cur = protocol.side_points(st)
    unit = protocol.unit(st)
    if question[Q_STEP] < 0 and question[Q_TOL] < 0 and question[Q_REFINE] < 0:
        g = _solve_from(stack, table, moves, scores, chain, _NO_GUESS)
        if table[1][META_ABORTED]:
            return np.nan
        return _pay_at(pay, pay_base, cur + g)
    lo, hi = _narrow_from(stack, table, moves, scores, chain, pay, pay_base, question)
    if table[1][META_ABORTED]:
        return np.nan
    return _settled_payoff(cur, lo, hi, unit, pay, pay_base)


@njit(cache=True)
def card_payoff_values(root, table, pay, pay_base, question, out):
    """Each legal card's payoff into ``out[card]`` (-1e9 for the others), as :func:`solve_payoff`.

    ``pay``, ``pay_base`` and ``question`` as there, the payoff being that
    of the side's final points from ``root[0]`` (taken as it is: prepared).
    Returns the number of cards valued, or -1 when a search ran out of the
    table's node budget (``out`` is then incomplete).
    """
    return _card_values(root, table, pay, pay_base, question, out, False)


@njit(cache=True)
def _card_values(root, table, pay, pay_base, question, out, as_points):
    """Each legal card of ``root[0]`` (prepared) valued into ``out[card]``: its payoff as
    :func:`solve_payoff`, or with ``as_points`` the side's exact points gained from
    ``root[0]`` on; -1 when a search ran out of the table's node budget, else the count."""
    _start_call(table[1])
    stack, moves, scores, chain = _scratch(root)
    out[:] = -1e9
    st = root[0]
    root_points = protocol.side_points(st)
    exact = as_points or (question[Q_STEP] < 0 and question[Q_TOL] < 0 and question[Q_REFINE] < 0)
    legal = np.uint64(protocol.legal_sets(st)[0])
    n = 0
    guess = _NO_GUESS
    while legal:
        c = lowest_bit(legal)
        legal &= ~bit(c)
        stack[0] = st
        protocol.apply_action(stack[0], c)
        cur = protocol.side_points(stack[0])
        unit = protocol.unit(stack[0])
        if exact:
            # The card before's value is a good first guess: most cards are worth about the same.
            g = _solve_from(
                stack, table, moves, scores, chain, _NO_GUESS if guess == _NO_GUESS else guess - cur
            )
            if table[1][META_ABORTED]:
                return -1
            guess = cur + g
            out[c] = cur + g - root_points if as_points else _pay_at(pay, pay_base, cur + g)
        else:
            lo, hi = _narrow_from(stack, table, moves, scores, chain, pay, pay_base, question)
            if table[1][META_ABORTED]:
                return -1
            out[c] = _settled_payoff(cur, lo, hi, unit, pay, pay_base)
        n += 1
    return n
