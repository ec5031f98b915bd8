"""Double-dummy search kernels for whist-family play (numba).

Positions of the 52-card pack (bit ``13*suit + rank``, suits S H D C, rank 0
= '2' .. 12 = 'A'), four seats, follow suit else any card, trumps or none.
Two masks over the seats fix the objective:

- ``count_mask`` (the declaring side): the value of a position is the number
  of tricks won by these seats from now on, the current trick included;
- ``max_mask``: the seats that want that value high; the others want it low.
  A normal contract has ``max_mask == count_mask``; a misère contract
  (the declarers want as few tricks as possible) has ``max_mask`` equal to the
  other seats.

The search answers null-window questions "is the value at least ``target``?"
(:func:`_search`, a boolean alpha-beta) and a driver finds the exact value
with a sequence of such probes, moving the target one trick at a time
(:func:`_value`), as DDS does. At every trick start it

- bounds the value by the tricks the leader can cash from the top (small
  cards too once the top cards have drawn the others) and then its partner
  after an entry, by the tricks of the hand holding the top trumps, and, no
  trumps left, by what a side needing every trick must hold: a suit headed
  by the leader, and (two against two) enough top cards (DDS's "later
  tricks");
- bounds either objective by the trumps of each hand that no higher trump
  of the other side can fall on (:func:`_unbeaten_trumps`);
- decides a misère of one declarer with no trump in play from how its
  suits lie (:func:`_misere_verdict`: the declarer is safe in every suit
  it holds, or must win the trick now), the reasoning of Skat null-game
  solvers rather than the winning side's bounds;
- answers from the transposition table. Its entries hold a lower or upper
  bound and the cards the bound depended on (DDS's "winning ranks": the
  cards that won a trick by rank, or were counted as sure tricks): the bound
  holds for every position with the same suit lengths whose cards agree,
  suit by suit, from the top down to the lowest such card; the cards below
  are "small cards" whose owners did not matter. Buckets are chosen by the
  suit lengths, the leader and the owners of the top cards the entry
  matches: of every suit when it matches them all (one against three and
  misère), else of the longest suit.

A misère's made-or-beaten question ("can the declarer be forced to take a
trick?") is asked first with horizons a few tricks on (iterative deepening,
:func:`_deepening_probe`): a forced trick is usually found within a few
tricks, while a depth-first search must prove the declarer safe to the end
of the deal after every defenders' line that fails. The misère declarer
discards from its suit furthest from the safe shape (:func:`_misere_danger`).

Second in hand (two against two), a side sure to win the trick, and at no
trumps to cash more after it, may already reach its goal (DDS's
QuickTricksSecondHand).

Cards of one hand that are adjacent among the cards still in play (hands
and current trick) are equivalent: only the lowest of such a run is
searched. A table entry generalises the position to others in which those
cards need not be adjacent, so when every move failed and a skipped card of
the run lies at or above the lowest card the answer depends on in its suit,
the searched card joins those cards (the matching positions then hold the
whole run too; without this, found against DDS, answers came out one or two
tricks short). And as in DDS, once a card below every card the answers so
far depend on in its suit has failed, the hand's other cards below those
are not tried: they lead to the same answer.
Moves are ordered by card-play rules after DDS's (cash sure winners, lead
towards a partner's winner, prefer suits where the opponents have few cards,
win cheaply with a card nobody after can beat, play low under a partner's
safe winner, discard from long suits) and the best lead the table remembers.

The transposition table is ``(entries, meta)`` from :func:`new_table`; see
its docstring (its ``meta`` also takes a node budget per call). Besides the
exact count (:func:`dd_tricks`, :func:`dd_card_values`) the kernels answer
the made-or-beaten question in one probe (:func:`dd_reaches`,
:func:`dd_card_reaches`): what a misère pays for. Entries stay valid
across calls (the key holds the whole position and the objective), so a
Monte Carlo agent reusing one table across samples of the same contract
gets hits from earlier samples.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.core.cpu import CPUTargetOptions

from ..cards.bits import highest_bit, lowest_bit, pdep, pext, popcount
from ..checks import check_tt_mb

__all__ = [
    "META_ABORTED",
    "META_GENERATION",
    "META_NODES",
    "META_NODE_LIMIT",
    "META_PROBES",
    "META_TT_HITS",
    "META_TT_STORES",
    "dd_card_reaches",
    "dd_card_values",
    "dd_reaches",
    "dd_tricks",
    "make_table",
    "new_table",
    "reset_table",
]

# The recursive search and the table functions it calls allocate nothing, so
# they are compiled without numba's reference counting (``_nrt=False``): with
# it, every call increfs and decrefs its array arguments with atomic
# instructions, which took about 40% of the solve time.
# ``_nrt`` is a private numba option: without it (a future numba) the
# functions are compiled as usual, correct but slower.
_NO_NRT = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}

SUIT_MASKS = np.array([0x1FFF << (13 * s) for s in range(4)], dtype=np.uint64)

# Workspace layout (int64): killer moves and move lists per node depth, where
# the depth index is the number of cards still in the hands (1..52).
_W_TRUMPS = 0
_W_MAX = 1
_W_COUNT = 2
_W_CONFIG = 3
_W_RET = 4  # cards a search result depends on, returned by the callee
_W_HINT = 5  # best lead remembered by the table for the current node, or -1
_W_LIMIT = 6  # node count at which the search gives up (0: never)
_W_ABORT = 7  # set once it has given up: every answer since is void
_W_META = 8  # a copy of the table's meta (counters, bucket count, generation)
_W_HORIZON = 24  # cards left in hand at which the search stops (0: none; see _deepening_probe)
_W_KILL = 25  # per depth: the last lead that caused a cutoff
_W_MOVES = _W_KILL + 64
_W_SCORES = _W_MOVES + 53 * 16
_WS_SIZE = _W_SCORES + 53 * 16

# meta (int64[8]) slots
META_GENERATION = 0
META_LOG2_BUCKETS = 1
META_NODES = 2
META_TT_HITS = 3
META_PROBES = 4
META_TT_STORES = 5
META_CUT_FIRST = 6
META_CUT_LATER = 7
META_NODE_LIMIT = 8
META_ABORTED = 9
_META_SIZE = 10

_EVEN26 = np.uint64(0x1555555)
_ODD26 = np.uint64(0x2AAAAAA)
_VALID = np.uint64(1)
_WAYS = 64  # entries per bucket (all positions with the same suit lengths share one)
_KILLER_BONUS = 50
_FILING_DEPTH = 1  # entries are filed by the owners of up to this many top cards
_TOPS_DEEP = 2  # ... or, matching them in every suit, of this many in each
_TOPS_SHALLOW = 1
_TT_MIN_TRICKS = 1  # below this many tricks left, searching is cheaper than the table
_WORDS = 6  # lengths, owners of S H, owners of D C, info, owner masks of S H and of D C


def new_table(mb: float = 32):
    """A transposition table of about ``mb`` megabytes for the kernels.

    Returns ``(entries, meta)``:

    - ``entries``: ``uint64[n_buckets * 64 * 6]``, buckets of 64 entries of
      6 words, stored word by word (the 64 first words, then the 64 second
      words...) so a scan reads only the words it compares: the suit lengths
      of every hand (4 bits each), the owners of the cards of each suit by
      rank (2 bits a card, two words, only the matched ones kept), an info word
      (valid bit, lower and upper bound on the declaring side's tricks,
      objective (strain and seat masks), generation, leader, and per suit
      how many top cards must match: the rest are "small cards" whose
      owners did not matter to the stored bound), and the two masks of the
      matched owner bits;
    - ``meta``: ``int64[8]``: [0] generation (bumped by every solve and
      written into the entries it stores, for inspection only: a full bucket
      is overwritten round robin, whatever the entries' age), [1] log2 of
      the bucket count, [2] nodes searched, [3] table hits, [4] null-window
      probes, [5] table stores (the counters accumulate across calls; reset
      them to measure one solve),
      [6] cutoffs by the first move tried, [7] cutoffs by a later move
      (move ordering quality), [8] a node budget per call (0: none, the
      default; set it to bound the time of a call), [9] 1 when the last call
      ran out of that budget: its answer is then meaningless (-1 from
      :func:`dd_tricks`; the table holds nothing from the unfinished search).

    ``n_buckets`` is the largest power of two that fits in ``mb`` (at least 1).
    """
    mb = check_tt_mb(mb)
    bucket_bytes = _WAYS * _WORDS * 8
    n = max(1, int(mb * 2**20) // bucket_bytes)
    return make_table(n.bit_length() - 1, 0)


@njit(cache=True)
def make_table(log2_buckets, node_limit):
    """:func:`new_table`'s table of ``2**log2_buckets`` buckets (3 KB each) with a
    node budget per call (0: none), made in compiled code too (for agents acting
    inside compiled loops, which cannot be handed a table)."""
    entries = np.zeros((1 << log2_buckets) * _WAYS * _WORDS, dtype=np.uint64)
    meta = np.zeros(_META_SIZE, dtype=np.int64)
    meta[META_LOG2_BUCKETS] = log2_buckets
    meta[META_NODE_LIMIT] = node_limit
    return entries, meta


@njit(cache=True)
def reset_table(table):
    """Forget every entry of ``table`` and zero its counters, keeping its node budget.

    The next call then searches exactly as on a fresh :func:`make_table`
    table (same nodes, so the same outcome against the budget), without
    allocating one: only the first word of each entry is cleared, the
    word a lookup stops at and a store looks for (``key == 0``: empty;
    buckets fill from the front), and the counters, whose store count picks
    the entry a full bucket replaces. For callers whose answers must not
    depend on what the table saw before (simulation rows, whatever the
    chunking), at about a sixth of the cost of zeroing the table.
    """
    entries, meta = table
    for b in range(0, entries.shape[0], _WAYS * _WORDS):
        entries[b : b + _WAYS] = 0
    for i in range(meta.shape[0]):
        if i != META_LOG2_BUCKETS and i != META_NODE_LIMIT:
            meta[i] = 0


@njit(cache=True, inline="always")
def _bit(c):
    return np.uint64(1) << np.uint64(c)


@njit(cache=True, inline="always")
def _run_lows(cards, suit_in_play):
    """The lowest card of each run of ``cards`` adjacent among ``suit_in_play``.

    Cards of one hand with no other card in play between them are
    equivalent: ``suit_in_play`` is the suit's cards still in the hands or
    in the current trick, ``cards`` a subset of it.
    """
    rel = pext(cards, suit_in_play)
    return pdep(rel & ~(rel << np.uint64(1)), suit_in_play)


@njit(cache=True, inline="always")
def _beats(card, winner, trumps):
    """Whether ``card`` beats the trick's current winning card ``winner``."""
    if card // 13 == winner // 13:
        return card > winner
    return card // 13 == trumps


@njit(cache=True, inline="always")
def _tt_key(h):
    """Suit lengths of every hand, and owners by rank of every suit (2 bits a card)."""
    allh = h[0] | h[1] | h[2] | h[3]
    own0 = h[1] | h[3]
    own1 = h[2] | h[3]
    lengths = np.uint64(0)
    for s in range(4):
        for p in range(4):
            lengths |= np.uint64(popcount(h[p] & SUIT_MASKS[s])) << np.uint64(16 * s + 4 * p)
    lo = np.uint64(0)
    hi = np.uint64(0)
    for s in range(4):
        a = allh & SUIT_MASKS[s]
        code = pdep(pext(own0, a), _EVEN26) | pdep(pext(own1, a), _ODD26)
        if s < 2:
            lo |= code << np.uint64(32 * s)
        else:
            hi |= code << np.uint64(32 * (s - 2))
    return lengths, lo, hi


@njit(cache=True, inline="always")
def _suit_len(lengths, s):
    x = lengths >> np.uint64(16 * s)
    return np.int64(
        (x & np.uint64(15))
        + ((x >> np.uint64(4)) & np.uint64(15))
        + ((x >> np.uint64(8)) & np.uint64(15))
        + ((x >> np.uint64(12)) & np.uint64(15))
    )


@njit(cache=True, inline="always")
def _top_owner_masks(lengths, info):
    """Masks over the two owner words selecting the top ``j`` cards of each suit."""
    mlo = np.uint64(0)
    mhi = np.uint64(0)
    for s in range(4):
        n = _suit_len(lengths, s)
        j = np.int64((info >> np.uint64(32 + 4 * s)) & np.uint64(15))
        m = ((np.uint64(1) << np.uint64(2 * j)) - np.uint64(1)) << np.uint64(2 * (n - j))
        if s < 2:
            mlo |= m << np.uint64(32 * s)
        else:
            mhi |= m << np.uint64(32 * (s - 2))
    return mlo, mhi


@njit(cache=True, inline="always")
def _tt_bucket(ws, lengths, leader, tops):
    """Start of the bucket for these suit lengths, leader and filing key (``tops``).

    An entry may leave every card of a suit unmatched, so it cannot be
    filed by every card's owner. It is filed by the lengths, the leader and
    the owners of as many of the top cards of the longest suit in play as
    it matches, up to ``_FILING_DEPTH`` (:func:`_filing_key`); a lookup
    reads every bucket a matching entry may be in (one per depth, the
    deepest first). Filing by the lengths alone put every position of one
    suit-length pattern in the same 64 ways, which one against three
    searches overflowed: entries were lost and positions searched again
    (with 16 ways a one-against-three solve took 14 times the nodes).
    """
    x = lengths * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(leader + 1) * np.uint64(
        0xC2B2AE3D27D4EB4F
    )
    x ^= tops * np.uint64(0xD6E8FEB86659FD93)
    x ^= x >> np.uint64(29)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(32)
    log2 = ws[_W_META + META_LOG2_BUCKETS]
    if log2 == 0:
        return 0
    return np.int64(x >> np.uint64(64 - log2)) * (_WAYS * _WORDS)


@njit(cache=True, inline="always")
def _filing_suit(lengths):
    """The suit with the most cards in play (the lowest such), or -1 if none."""
    best = -1
    most = 0
    for s in range(4):
        n = _suit_len(lengths, s)
        if n > most:
            best, most = s, n
    return best


@njit(cache=True, inline="always")
def _filing_key(lengths, lo, hi, s, depth):
    """The filing key of an entry matching the top ``depth`` cards of suit ``s``
    (at most their number): the depth and those cards' owners."""
    if depth <= 0:
        return np.uint64(0)
    n = _suit_len(lengths, s)
    code = (lo >> np.uint64(32 * s)) if s < 2 else (hi >> np.uint64(32 * (s - 2)))
    width = np.uint64(2 * depth)
    owners = (code >> np.uint64(2 * (n - depth))) & ((np.uint64(1) << width) - np.uint64(1))
    return (owners << np.uint64(4)) | np.uint64(depth)


@njit(cache=True, inline="always")
def _files_by_all_tops(config):
    """Whether entries of this objective are filed by the top cards of every suit.

    Two against two, the suit-length pattern and the longest suit's top
    cards spread the entries well enough, and the extra buckets a lookup
    would read cost more than they save (20% slower, measured); one
    against three and misère searches overflowed those buckets.
    """
    return popcount(np.uint64((config >> 7) & 15)) != 2


@njit(cache=True, inline="always")
def _all_tops_key(lengths, lo, hi, depth):
    """The filing key of an entry matching the top ``depth`` cards of every suit
    (all of a shorter suit's): those cards' owners, suit by suit."""
    key = np.uint64(depth) << np.uint64(60)
    for s in range(4):
        n = _suit_len(lengths, s)
        d = min(n, depth)
        if d == 0:
            continue
        code = (lo >> np.uint64(32 * s)) if s < 2 else (hi >> np.uint64(32 * (s - 2)))
        width = np.uint64(2 * d)
        owners = (code >> np.uint64(2 * (n - d))) & ((np.uint64(1) << width) - np.uint64(1))
        key ^= owners << np.uint64(14 * s)
    return key


@njit(cache=True, inline="always")
def _matches_all_tops(lengths, tops, depth):
    """Whether an entry (its per-suit matched counts in ``tops``) matches the top
    ``depth`` cards of every suit."""
    for s in range(4):
        n = _suit_len(lengths, s)
        j = np.int64((tops >> np.uint64(32 + 4 * s)) & np.uint64(15))
        if j < min(n, depth):
            return False
    return True


_INFO_ID = np.uint64((0x7FF << 9) | (3 << 28) | 1)  # config, leader, valid
# An upper bound found under a horizon (see _deepening_probe) holds only for
# searches with the same horizon: the entry is tagged with it (bits 56-59).
_HORIZON_SHIFT = np.uint64(56)


@njit(cache=True, inline="always")
def _info_id(config, leader):
    return np.uint64(config) << np.uint64(9) | np.uint64(leader) << np.uint64(28) | _VALID


@njit(cache=True, **_NO_NRT)
def _tt_lookup(tt, lengths, lo, hi, leader, config, target, allh, ws):
    """1: stored ``value >= target``; 0: ``value < target``; -1: unknown.

    On an answer, ``ws[_W_RET]`` gets the cards whose owners the answer
    depends on (the matched top cards of each suit).
    """
    if _files_by_all_tops(config):
        for depth in (_TOPS_DEEP, _TOPS_SHALLOW):
            b = _tt_bucket(ws, lengths, leader, _all_tops_key(lengths, lo, hi, depth))
            found = _tt_scan(tt, b, lengths, lo, hi, leader, config, target, allh, ws)
            if found >= 0:
                return found
    s = _filing_suit(lengths)
    for depth in range(min(_FILING_DEPTH, _suit_len(lengths, s)), -1, -1):
        b = _tt_bucket(ws, lengths, leader, _filing_key(lengths, lo, hi, s, depth))
        found = _tt_scan(tt, b, lengths, lo, hi, leader, config, target, allh, ws)
        if found >= 0:
            return found
    return -1


@njit(cache=True, **_NO_NRT)
def _tt_scan(tt, b, lengths, lo, hi, leader, config, target, allh, ws):
    """:func:`_tt_lookup` in the bucket starting at ``b``."""
    ident = _info_id(config, leader)
    for w in range(_WAYS):
        e = b + w
        key = tt[e]
        if key != lengths:
            if key == 0:
                break  # buckets fill from the front and are never emptied
            continue
        if (lo & tt[e + 4 * _WAYS]) != tt[e + 1 * _WAYS]:
            continue
        if (hi & tt[e + 5 * _WAYS]) != tt[e + 2 * _WAYS]:
            continue
        info = tt[e + 3 * _WAYS]
        if (info & _INFO_ID) != ident:
            continue
        tag = np.int64((info >> _HORIZON_SHIFT) & np.uint64(15))
        if tag != 0 and tag != ws[_W_HORIZON]:
            continue
        if (info >> np.uint64(48)) & np.uint64(1):
            s = np.int64((info >> np.uint64(49)) & np.uint64(3))
            t = np.int64((info >> np.uint64(51)) & np.uint64(15))
            a = allh & SUIT_MASKS[s]
            n = popcount(a)
            if t < n:
                ws[_W_HINT] = lowest_bit(pdep(np.uint64(1) << np.uint64(n - 1 - t), a))
        lb = np.int64((info >> np.uint64(1)) & np.uint64(15))
        ub = np.int64((info >> np.uint64(5)) & np.uint64(15))
        if lb >= target or ub < target:
            ws[_W_META + META_TT_HITS] += 1
            rel = np.uint64(0)
            for s in range(4):
                a = allh & SUIT_MASKS[s]
                n = popcount(a)
                j = np.int64((info >> np.uint64(32 + 4 * s)) & np.uint64(15))
                rel |= pdep(((np.uint64(1) << np.uint64(j)) - np.uint64(1)) << np.uint64(n - j), a)
            ws[_W_RET] = np.int64(rel)
            return 1 if lb >= target else 0
    return -1


@njit(cache=True, **_NO_NRT)
def _tt_store(tt, ws, lengths, lo, hi, leader, config, allh, relevant, is_lower, target, best):
    """Record ``value >= target`` (``is_lower``) or ``value < target`` in a new entry.

    The bound holds for every position with the same lengths whose owners
    agree on each suit's cards from the top down to the lowest ``relevant``
    card (at least the top card).
    """
    ws[_W_META + META_TT_STORES] += 1
    tops = np.uint64(0)
    for s in range(4):
        a = allh & SUIT_MASKS[s]
        if not a:
            continue
        r = relevant & a
        j = popcount(a >> np.uint64(lowest_bit(r))) if r else 0
        tops |= np.uint64(j) << np.uint64(32 + 4 * s)
    if best >= 0:
        bs = best // 13
        above = popcount((allh & SUIT_MASKS[bs]) >> np.uint64(best + 1))
        tops |= (
            np.uint64(1) << np.uint64(48)
            | np.uint64(bs) << np.uint64(49)
            | np.uint64(above) << np.uint64(51)
        )
    ident = _info_id(config, leader)
    by_tops = _files_by_all_tops(config)
    if by_tops and _matches_all_tops(lengths, tops, _TOPS_DEEP):
        b = _tt_bucket(ws, lengths, leader, _all_tops_key(lengths, lo, hi, _TOPS_DEEP))
    elif by_tops and _matches_all_tops(lengths, tops, _TOPS_SHALLOW):
        b = _tt_bucket(ws, lengths, leader, _all_tops_key(lengths, lo, hi, _TOPS_SHALLOW))
    else:
        fs = _filing_suit(lengths)
        depth = min(np.int64((tops >> np.uint64(32 + 4 * fs)) & np.uint64(15)), _FILING_DEPTH)
        b = _tt_bucket(ws, lengths, leader, _filing_key(lengths, lo, hi, fs, depth))
    gen = np.uint64(ws[_W_META + META_GENERATION] & 255)
    mlo, mhi = _top_owner_masks(lengths, tops)
    # Always a new entry (merging with an equal one cost more than it saved:
    # a lookup takes the first entry that decides): the first empty slot.
    victim = -1
    for w in range(_WAYS):
        if tt[b + w] == 0:
            victim = b + w
            break
    if victim < 0:  # a full bucket: replace round robin
        victim = b + (ws[_W_META + META_TT_STORES] & (_WAYS - 1))
    lb = target if is_lower else 0
    ub = 13 if is_lower else target - 1
    if not is_lower:
        tops |= np.uint64(ws[_W_HORIZON]) << _HORIZON_SHIFT
    tt[victim] = lengths
    tt[victim + 1 * _WAYS] = lo & mlo
    tt[victim + 2 * _WAYS] = hi & mhi
    tt[victim + 4 * _WAYS] = mlo
    tt[victim + 5 * _WAYS] = mhi
    tt[victim + 3 * _WAYS] = (
        ident
        | np.uint64(lb) << np.uint64(1)
        | np.uint64(ub) << np.uint64(5)
        | gen << np.uint64(20)
        | tops
    )


@njit(cache=True, inline="always")
def _quick_tricks(h, leader, trumps, count_mask, ws, need):
    """Tricks the leader can cash from the top without giving up the lead (up to ``need``).

    Side suits first (an opponent holding trumps must still follow, so it
    limits the count to its length), then top trumps; when the top cards
    draw every other card of a suit (and no opponent can ruff it), its small
    cards too. ``ws[_W_RET]`` gets the
    cards counted (the bound depends on their owners and on lengths only).
    """
    side = (count_mask >> leader) & 1
    hand = h[leader]
    others = np.uint64(0)
    for p in range(4):
        if p != leader:
            others |= h[p]
    q = 0
    used = np.uint64(0)
    for s in range(4):
        mine = hand & SUIT_MASKS[s]
        if not mine:
            continue
        rest = others & SUIT_MASKS[s]
        if rest:
            above = mine & ~((np.uint64(2) << np.uint64(highest_bit(rest))) - np.uint64(1))
        else:
            above = mine
        n = popcount(above)
        k = n
        ruffed = False
        if k and trumps >= 0 and s != trumps:
            for p in range(4):
                if ((count_mask >> p) & 1) != side and (h[p] & SUIT_MASKS[trumps]):
                    ruffed = True
                    k = min(k, popcount(h[p] & SUIT_MASKS[s]))
        if k and rest and not ruffed:
            # once the top cards have drawn every other card of the suit,
            # the leader's small cards of it are winners too
            longest = 0
            for p in range(4):
                if p != leader:
                    longest = max(longest, popcount(h[p] & SUIT_MASKS[s]))
            if longest <= n:
                k = popcount(mine)
        if k:
            m = min(k, need - q)
            if rest:
                # only the top cards counted need the same owner elsewhere
                # (the others are counted by lengths); a suit nobody else
                # holds is fixed by the lengths alone
                t = min(m, n)
                used |= pdep(
                    ((np.uint64(1) << np.uint64(t)) - np.uint64(1)) << np.uint64(n - t), above
                )
            q += m
            if q >= need:
                break
    ws[_W_RET] = np.int64(used)
    return q


@njit(cache=True, inline="always")
def _can_reach(h, leader, partner, trumps, count_mask):
    """A top card with which ``partner`` wins a suit ``leader`` can lead, or -1.

    The partner's card must be above every other card of the suit and no
    opponent may ruff the first round.
    """
    side = (count_mask >> leader) & 1
    for s in range(4):
        if not (h[leader] & SUIT_MASKS[s]):
            continue
        mine = h[partner] & SUIT_MASKS[s]
        if not mine:
            continue
        rest = np.uint64(0)
        for p in range(4):
            if p != partner:
                rest |= h[p] & SUIT_MASKS[s]
        if highest_bit(mine) < highest_bit(rest):
            continue
        safe = True
        if trumps >= 0 and s != trumps:
            for p in range(4):
                if (
                    ((count_mask >> p) & 1) != side
                    and not (h[p] & SUIT_MASKS[s])
                    and (h[p] & SUIT_MASKS[trumps])
                ):
                    safe = False
        if safe:
            return highest_bit(mine)
    return -1


@njit(cache=True, inline="always")
def _owner(h, c):
    b = _bit(c)
    for p in range(4):
        if h[p] & b:
            return p
    return 0


@njit(cache=True, **_NO_NRT)
def _leader_side_tops(h, allh, leader, count_mask):
    """For a leader's side that must win every trick left (no trumps in play):
    an upper bound on the tricks it can take in a row, and the cards it
    depends on.

    If every suit the leader holds is headed by an opponent, the opponents
    win this trick: 0, with the top cards of those suits. Otherwise, two
    against two, DDS's "later tricks": while a side wins every trick it leads
    them all, each round of a suit takes a card from each of its hands still
    holding the suit, and a suit headed by an opponent cannot be led before
    that card is gone; so the side takes at most the longer of its two
    holdings in each suit it heads. That bound depends on the opponents' top
    cards. In other splits of the seats: no bound (14).
    """
    side = (count_mask >> leader) & 1
    pair = count_mask == 5 or count_mask == 10
    total = 0
    rel = np.uint64(0)
    lead_rel = np.uint64(0)
    can_win = False
    for s in range(4):
        a = allh & SUIT_MASKS[s]
        if not a:
            continue
        top = highest_bit(a)
        holder = _owner(h, top)
        mine = h[leader] & SUIT_MASKS[s]
        if ((count_mask >> holder) & 1) == side:
            can_win = can_win or mine != 0
            if pair:
                total += max(popcount(mine), popcount(h[leader ^ 2] & SUIT_MASKS[s]))
        else:
            if a & ~h[holder]:
                rel |= _bit(top)
            if mine:
                lead_rel |= _bit(top)
    if not can_win:
        return 0, lead_rel
    if not pair:
        return 14, rel
    return total, rel


@njit(cache=True, **_NO_NRT)
def _second_hand_tricks(h, allh, player, led, led_card, trumps, need):
    """Tricks the side of the second hand (``player``, two against two) surely
    takes from this trick on, counted up to ``need``, and the cards that
    depends on (DDS's QuickTricksSecondHand).

    The side wins this trick if it can ruff and the third hand cannot, or if
    its best card of the suit led beats the card led and every card of the
    third hand (which must not be able to ruff). At no trumps the hand
    winning it then cashes its next card of the suit if that is the best
    left, its top cards of other suits, and suits nobody else holds.
    """
    third = (player + 1) & 3
    mate = player ^ 2
    theirs = h[third] & SUIT_MASKS[led]
    side_suit = trumps >= 0 and led != trumps
    if side_suit and not theirs and (h[third] & SUIT_MASKS[trumps]):
        return 0, np.uint64(0)
    if side_suit:
        for p in (player, mate):
            if not (h[p] & SUIT_MASKS[led]) and (h[p] & SUIT_MASKS[trumps]):
                return 1, np.uint64(0)  # we ruff, they cannot overruff
    ours = (h[player] | h[mate]) & SUIT_MASKS[led]
    if not ours:
        return 0, np.uint64(0)
    top = highest_bit(ours)
    if top < led_card or (theirs and top < highest_bit(theirs)):
        return 0, np.uint64(0)
    dep = _bit(top)
    q = 1
    if q >= need or (trumps >= 0 and (allh & SUIT_MASKS[trumps])):
        return q, dep
    hh = player if h[player] & dep else mate
    rest = allh & SUIT_MASKS[led] & ~dep
    if rest and (h[hh] & _bit(highest_bit(rest))):
        q += 1
        dep |= _bit(highest_bit(rest))
    for s in range(4):
        m = h[hh] & SUIT_MASKS[s]
        if s == led or not m or q >= need:
            continue
        a = allh & SUIT_MASKS[s]
        if a == m:
            q += popcount(m)  # nobody else holds the suit
        elif h[hh] & _bit(highest_bit(a)):
            q += 1
            dep |= _bit(highest_bit(a))
    return q, dep


@njit(cache=True, inline="always")
def _beaten_later(h, card, led, trumps, player, pos, good):
    """Whether a seat still to play this trick, not on ``good``'s side, can beat ``card``."""
    suit = card // 13
    for k in range(1, 4 - pos):
        q = (player + k) & 3
        if (good >> q) & 1:
            continue
        follow = h[q] & SUIT_MASKS[led]
        if follow:
            if suit == led and highest_bit(follow) > card:
                return True
        elif trumps >= 0 and led != trumps:
            tr = h[q] & SUIT_MASKS[trumps]
            if tr and (suit != trumps or highest_bit(tr) > card):
                return True
    return False


@njit(cache=True, **_NO_NRT)
def _misere_verdict(h, allh, leader, count_mask, target):
    """Misère at a trick start with no trump in play and one declarer: the
    value's side of ``target`` when the layout decides it, else -1; and the
    cards the verdict depends on (every card of the suits it looked at).

    - **Safe** (0: the declarer takes no more tricks): an opponent is on
      lead and in every suit the declarer holds, its ``i``-th lowest card
      is below the others' ``i``-th lowest (as far as both go). The
      declarer follows with its highest card below the best card played
      before it and throws the highest card of a suit: that keeps the
      condition (a round takes the declarer's card and at least one of
      the others', and taking more of theirs only raises their ``i``-th
      lowest), so it never wins a trick and never leads (a Skat null-game
      solver's safe suits). On lead the declarer's own lead may give the
      others the choice of which card to spend, so it is not claimed.
    - **Forced** (1, only for ``target == 1``): the declarer on lead, where
      no other hand is forced to head its lowest card of any suit it holds
      (each such hand holds a lower card or none of the suit); or an
      opponent on lead holding a card below the declarer's lowest of a
      suit the declarer holds, every other opponent with that suit too
      (they all play under, and the declarer must win the trick).
    """
    d = lowest_bit(np.uint64(count_mask))
    mine_all = h[d]
    others = allh & ~mine_all
    safe = True
    forced = leader == d and target == 1
    dep_all = np.uint64(0)
    for s in range(4):
        mine = mine_all & SUIT_MASKS[s]
        if not mine:
            continue
        theirs = others & SUIT_MASKS[s]
        dep_all |= mine | theirs
        low = lowest_bit(mine)
        if leader == d and forced:
            for p in range(4):
                if p != d:
                    hp = h[p] & SUIT_MASKS[s]
                    if hp and lowest_bit(hp) > low:
                        forced = False
        elif leader != d and target == 1 and (h[leader] & SUIT_MASKS[s]):
            # every opponent holding the suit can play under the declarer's lowest card
            under = True
            for p in range(4):
                if p != d:
                    hp = h[p] & SUIT_MASKS[s]
                    if hp and lowest_bit(hp) > low:
                        under = False
            if under:
                return 1, mine | theirs
        if safe:
            m = mine
            t = theirs
            while m and t:
                if lowest_bit(m) > lowest_bit(t):
                    safe = False
                    break
                m &= m - np.uint64(1)
                t &= t - np.uint64(1)
    if leader == d and forced:
        return 1, dep_all
    if safe and leader != d:
        return 0, dep_all
    return -1, dep_all


@njit(cache=True, inline="always")
def _misere_danger(mine, theirs):
    """How far a misère declarer's holding ``mine`` of a suit is from the
    safe shape against the others' cards ``theirs`` of it (0: safe, see
    :func:`_misere_verdict`): the most others' cards below its ``i``-th
    lowest card beyond ``i - 1``."""
    worst = 0
    i = 0
    m = mine
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        below = popcount(theirs & (_bit(c) - np.uint64(1)))
        worst = max(worst, below - i)
        i += 1
    return worst


@njit(cache=True, inline="always")
def _misere_lead_bonus(h, d, player, s, c):
    """Ordering of misère leads: the declarer ``d`` leads where someone must
    head its card; an opponent leads under the declarer's lowest card of a
    suit it holds (the forcing lead)."""
    mine = h[d] & SUIT_MASKS[s]
    if player == d:
        for p in range(4):
            if p != d:
                hp = h[p] & SUIT_MASKS[s]
                if hp and lowest_bit(hp) > c:
                    return 40
        return 0
    if mine and c < lowest_bit(mine):
        return 40
    return 0


@njit(cache=True, inline="always")
def _unbeaten_trumps(h, p, trumps, count_mask):
    """Tricks seat ``p``'s trumps take for its side whatever anyone plays.

    Each trump of ``p`` wins its trick unless a higher trump of the other
    side is played to it, and each of those is played to one trick only;
    so ``p``'s trumps less the largest matching of them to higher trumps of
    the other side (greedy, lowest first) is a lower bound for its side.
    """
    mine = h[p] & SUIT_MASKS[trumps]
    if not mine:
        return 0
    side = (count_mask >> p) & 1
    theirs = np.uint64(0)
    for q in range(4):
        if ((count_mask >> q) & 1) != side:
            theirs |= h[q] & SUIT_MASKS[trumps]
    beaten = 0
    m = mine
    while m and theirs:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        above = theirs & ~((_bit(c) << np.uint64(1)) - np.uint64(1))
        if above:
            theirs ^= _bit(lowest_bit(above))
            beaten += 1
    return popcount(mine) - beaten


_SEARCH_SIG = (
    "boolean(uint64[::1], int64[::1], uint64[::1], "
    "int64, int64, uint64, int64, int64, int64, int64)"
)


@njit(_SEARCH_SIG, cache=True, error_model="numpy", **_NO_NRT)
def _search(h, ws, tt, player, pos, trick_mask, win_card, win_seat, led, target):
    """Whether the declaring side's tricks from here (current trick included) reach ``target``.

    ``h`` (uint64[4]) are the hands, changed and restored in place;
    ``player`` is to play the ``pos``-th card (0..3) of the trick, whose cards
    so far are ``trick_mask``, led suit ``led``, current winner ``win_card``
    played by ``win_seat``.
    """
    ws[_W_META + META_NODES] += 1
    if ws[_W_LIMIT] and ws[_W_META + META_NODES] > ws[_W_LIMIT]:
        ws[_W_ABORT] = 1
    if ws[_W_ABORT]:
        return False
    trumps = ws[_W_TRUMPS]
    max_mask = ws[_W_MAX]
    count_mask = ws[_W_COUNT]
    hand = h[player]
    allh = h[0] | h[1] | h[2] | h[3]
    idx = popcount(allh)
    lengths = np.uint64(0)
    key_lo = np.uint64(0)
    key_hi = np.uint64(0)
    if pos == 0:
        r = popcount(hand)
        if target <= 0 or target > r:
            ws[_W_RET] = 0
            return target <= 0
        if r == 1:
            wc = lowest_bit(hand)
            wseat = player
            for k in range(1, 4):
                p = (player + k) & 3
                c = lowest_bit(h[p])
                if _beats(c, wc, trumps):
                    wc = c
                    wseat = p
            # The winner's rank mattered only if it beat a card of its suit.
            by_rank = popcount(allh & SUIT_MASKS[wc // 13]) > 1
            ws[_W_RET] = np.int64(_bit(wc)) if by_rank else 0
            return ((count_mask >> wseat) & 1) == 1
        if max_mask != count_mask and popcount(np.uint64(count_mask)) == 1:
            # Misère, one declarer: decided by how its suits lie, when no trump is in play.
            if trumps < 0 or not (allh & SUIT_MASKS[trumps]):
                verdict, dep = _misere_verdict(h, allh, player, count_mask, target)
                if verdict >= 0:
                    ws[_W_RET] = np.int64(dep)
                    return verdict == 1
        # Quick tricks bound the value only when the leader wants to take
        # them (not a misère side, which may prefer to duck).
        in_count = (count_mask >> player) & 1
        if in_count == (max_mask >> player) & 1:
            need = target if in_count else r - target + 1  # tricks the leader's side must cash
            q = _quick_tricks(h, player, trumps, count_mask, ws, need)
            if q >= need:
                return in_count == 1
            # Or cash those, then lead to a partner's winner and let the
            # partner cash its own: while the leader cashes, the partner
            # discards its other cards first, and when it must throw a
            # winner its side wins every trick left anyway.
            own = ws[_W_RET]
            for p in range(4):
                if p == player or ((count_mask >> p) & 1) != in_count:
                    continue
                entry = _can_reach(h, player, p, trumps, count_mask)
                if entry >= 0:
                    if q + _quick_tricks(h, p, trumps, count_mask, ws, need - q) >= need:
                        ws[_W_RET] |= own | np.int64(_bit(entry))  # the way in counts too
                        return in_count == 1
        if max_mask == count_mask and (trumps < 0 or not (allh & SUIT_MASKS[trumps])):
            # No trumps in play: a side needing every trick left must be
            # able to win this one and hold enough top cards.
            in_count = (count_mask >> player) & 1
            if (target if in_count else r - target + 1) == r:
                most, rel = _leader_side_tops(h, allh, player, count_mask)
                if most < r:
                    ws[_W_RET] = np.int64(rel)
                    return in_count == 0
        if trumps >= 0:
            # The hand holding the top trumps wins a trick with each of
            # them, whatever anyone wants: a bound for either objective.
            all_tr = allh & SUIT_MASKS[trumps]
            if all_tr:
                top = highest_bit(all_tr)
                holder = _owner(h, top)
                others_tr = all_tr & ~h[holder]
                seq = h[holder] & SUIT_MASKS[trumps]
                if others_tr:
                    seq &= ~((np.uint64(2) << np.uint64(highest_bit(others_tr))) - np.uint64(1))
                k = popcount(seq)
                held = (count_mask >> holder) & 1
                need_tr = target if held else r - target + 1
                if k >= need_tr:
                    ws[_W_RET] = np.int64(
                        pdep(
                            ((np.uint64(1) << np.uint64(need_tr)) - np.uint64(1))
                            << np.uint64(k - need_tr),
                            seq,
                        )
                    )
                    return held == 1
                # Each trump of a hand wins its trick unless a higher trump of
                # the other side falls on it, and each of those falls once.
                for p in range(4):
                    unbeaten = _unbeaten_trumps(h, p, trumps, count_mask)
                    if unbeaten == 0:
                        continue
                    held = (count_mask >> p) & 1
                    if (unbeaten >= target) if held else (r - unbeaten < target):
                        ws[_W_RET] = np.int64(all_tr)
                        return held == 1
        ws[_W_HINT] = -1
        if r > _TT_MIN_TRICKS:
            lengths, key_lo, key_hi = _tt_key(h)
            found = _tt_lookup(tt, lengths, key_lo, key_hi, player, ws[_W_CONFIG], target, allh, ws)
            if found >= 0:
                return found == 1
        if r <= ws[_W_HORIZON]:
            # Past the horizon the maximising side is deemed to fail (see
            # _deepening_probe); nothing of the position is relied on.
            ws[_W_RET] = 0
            return False
        legal = hand
    else:
        follow = hand & SUIT_MASKS[led]
        legal = follow if follow else hand
        if pos == 1 and max_mask == count_mask and (count_mask == 5 or count_mask == 10):
            # The second hand's side may surely win this trick and more.
            in_count = (count_mask >> player) & 1
            need = target if in_count else popcount(hand) - target + 1
            q, dep = _second_hand_tricks(h, allh, player, led, win_card, trumps, need)
            if q >= need:
                ws[_W_RET] = np.int64(dep)
                return in_count == 1

    # Objective of the player to move: which seats it wants to win tricks.
    is_max = ((max_mask >> player) & 1) == 1
    good = count_mask if is_max else (~count_mask) & 15
    me_good = ((good >> player) & 1) == 1
    in_play = allh | trick_mask
    base = _W_MOVES + idx * 16
    sbase = _W_SCORES + idx * 16
    hint = ws[_W_HINT] if pos == 0 else -1
    killer = ws[_W_KILL + idx] if pos == 0 else -1
    if hint >= 0 and not (hand & _bit(hint)):
        hint = -1
    n = 0
    lows_all = np.uint64(0)  # the lowest card of each run of equivalent cards
    # a misère declarer (one seat, the side wanting few tricks), for lead ordering
    mis_decl = np.int64(pos - pos - 1)
    if max_mask != count_mask and popcount(np.uint64(count_mask)) == 1:
        mis_decl = lowest_bit(np.uint64(count_mask))
    if pos > 0 and (hand & SUIT_MASKS[led]):
        # Following suit with one run of equivalent cards: nothing to order.
        reps = _run_lows(legal, in_play & SUIT_MASKS[led])
        if popcount(reps) == 1:
            # one card of the run first; the others last (see below)
            ws[base] = lowest_bit(reps)
            n = 1
            lows_all = reps
            rest = legal & ~reps
            while rest:
                ws[base + n] = lowest_bit(rest)
                rest &= rest - np.uint64(1)
                n += 1
    if n == 0:
        for s in range(4):
            m = legal & SUIT_MASKS[s]
            if not m:
                continue
            a = in_play & SUIT_MASKS[s]
            # The lowest of each run of equivalent cards is ordered, the
            # others go last and are skipped in the move loop (see there).
            lows = _run_lows(m, a)
            lows_all |= lows
            reps = m
            suit_len = popcount(hand & SUIT_MASKS[s])
            others_s = a & ~hand
            top_other = highest_bit(others_s)
            suit_base = 0
            top_good = False
            if pos == 0 and me_good:
                # Lead: prefer suits where the opponents have few cards to play
                # (a smaller tree), no opponent ruffs, partner ruffs or wins.
                opp = 0
                ruff_danger = False
                partner_ruffs = False
                for p in range(4):
                    if p == player:
                        continue
                    ln = popcount(h[p] & SUIT_MASKS[s])
                    voided = ln == 0 and trumps >= 0 and s != trumps and (h[p] & SUIT_MASKS[trumps])
                    if (good >> p) & 1:
                        partner_ruffs = partner_ruffs or voided
                    else:
                        opp += ln if ln else popcount(hand) + 1
                        ruff_danger = ruff_danger or voided
                suit_base = -((opp * 4) << 5) // 13
                if ruff_danger:
                    suit_base -= 12
                if partner_ruffs:
                    suit_base += 17
                if top_other >= 0:
                    top_good = ((good >> _owner(h, top_other)) & 1) == 1
            while reps:
                c = lowest_bit(reps)
                reps &= reps - np.uint64(1)
                rank = c - 13 * s
                if pos == 0:
                    if me_good:
                        if c > top_other:
                            score = suit_base + (31 if not ruff_danger else 0) + 20
                        elif top_good:
                            score = suit_base + 45 - rank
                        else:
                            score = suit_base - rank + suit_len
                    else:
                        score = 60 - rank if c < top_other else 10 - rank
                        if mis_decl >= 0:
                            score += _misere_lead_bonus(h, mis_decl, player, s, c)
                else:
                    wins = _beats(c, win_card, trumps)
                    w_good = ((good >> win_seat) & 1) == 1
                    if me_good:
                        if wins:
                            if w_good:
                                # overtake partner only to turn a card that
                                # could be beaten into one that cannot
                                score = 5 - rank
                                if (
                                    pos < 3
                                    and _beaten_later(h, win_card, led, trumps, player, pos, good)
                                    and not _beaten_later(h, c, led, trumps, player, pos, good)
                                ):
                                    score = 90 - rank
                            elif pos == 3 or not _beaten_later(
                                h, c, led, trumps, player, pos, good
                            ):
                                score = 90 - rank  # cheapest sure winner
                            else:
                                score = 45 - rank
                        else:
                            if w_good and (
                                pos == 3
                                or not _beaten_later(h, win_card, led, trumps, player, pos, good)
                            ):
                                score = 60 - rank
                            else:
                                score = 40 - rank
                            if s != led and s != trumps:
                                # discard from long suits, keep a lone top card
                                score += (suit_len * 64) // 36
                                if suit_len == 1 and c > top_other:
                                    score -= 8
                    else:
                        score = 10 - rank if wins else 60 + rank
                        if player == mis_decl and s != led:
                            # a misère declarer discards from its weakest suit
                            score += 30 * _misere_danger(hand & SUIT_MASKS[s], others_s)
                if hint >= 0 and c <= hint and hint // 13 == s:
                    if not (others_s & (_bit(hint) - _bit(c))):
                        score += 100  # the table's best lead (same run of cards)
                if c == killer:
                    score += _KILLER_BONUS
                if not (lows & _bit(c)):
                    score -= 100_000
                # insertion by score, best first
                j = n
                while j > 0 and ws[sbase + j - 1] < score:
                    ws[base + j] = ws[base + j - 1]
                    ws[sbase + j] = ws[sbase + j - 1]
                    j -= 1
                ws[base + j] = c
                ws[sbase + j] = score
                n += 1

    result = not is_max
    nxt = (player + 1) & 3
    zero = np.int64(pos - pos)
    none = zero - np.int64(1)
    no_cards = np.uint64(zero)
    relevant = np.uint64(0)
    best = none
    tried = np.uint64(0)
    small = np.uint64(0)  # cards shown not to matter: below a failed small card's answer
    small_suits = 0
    run_reps = np.uint64(0)  # searched cards whose equivalent cards were skipped
    for i in range(n):
        c = ws[base + i]
        b = _bit(c)
        if small & b:
            continue
        s = c // 13
        if not (lows_all & b):
            # An equivalent card of a run: the same answer as its lowest card
            # if that was searched (the run joins the relevant cards below
            # when a matching position could split it).
            rep = highest_bit(lows_all & SUIT_MASKS[s] & (b - np.uint64(1)))
            if tried & _bit(rep):
                run_reps |= _bit(rep)
                continue
        tried |= b
        h[player] = hand ^ b
        if pos == 0 or _beats(c, win_card, trumps):
            wc = c
            wseat = player
        else:
            wc = win_card
            wseat = win_seat
        if pos == 3:
            # No literal arguments: a recursive call typed on literals breaks
            # numba's on-disk cache (unresolved symbol on load).
            res = _search(
                h, ws, tt, wseat, zero, no_cards, none, none, none,
                target - ((count_mask >> wseat) & 1),
            )  # fmt: skip
            dep = np.uint64(ws[_W_RET])
            if popcount((trick_mask | b) & SUIT_MASKS[wc // 13]) > 1:
                dep |= _bit(wc)  # won by rank, not only by suit
        else:
            res = _search(
                h, ws, tt, nxt, pos + 1, trick_mask | b, wc, wseat,
                s if pos == 0 else led, target,
            )  # fmt: skip
            dep = np.uint64(ws[_W_RET])
        h[player] = hand
        if ws[_W_ABORT]:
            return False  # nothing stored on the way out
        if res == is_max:
            ws[_W_META + (META_CUT_FIRST if i == 0 else META_CUT_LATER)] += 1
            result = res
            relevant = dep
            best = c
            run_reps = no_cards
            if pos == 0:
                ws[_W_KILL + idx] = c
            break
        relevant |= dep
        if not ((small_suits >> s) & 1):
            # DDS's small cards: when a card below every card the answers of
            # this suit depend on fails, any other card below those does too.
            rs = relevant & SUIT_MASKS[s]
            low = lowest_bit(rs) if rs else 13 * s + 13
            if c < low:
                small |= (_bit(low) - np.uint64(1)) & SUIT_MASKS[s]
                small_suits |= 1 << s
    while run_reps:
        # A skipped equivalent card at or above the lowest relevant card of
        # its suit is matched in every position the answer generalises to;
        # the card it stood for must be too (highest runs first: adding a
        # card can only reach into lower runs).
        rep = highest_bit(run_reps)
        run_reps ^= _bit(rep)
        s = rep // 13
        rs = relevant & SUIT_MASKS[s]
        if rs and lowest_bit(rs) > rep:
            a = in_play & SUIT_MASKS[s]
            k = popcount(a & (_bit(rep) - np.uint64(1)))
            x = pext(hand, a) >> np.uint64(k)
            run_len = lowest_bit(~x)
            top = lowest_bit(pdep(np.uint64(1) << np.uint64(k + run_len - 1), a))
            if lowest_bit(rs) <= top:
                relevant |= _bit(rep)
    if pos == 0 and popcount(hand) > _TT_MIN_TRICKS:
        _tt_store(
            tt, ws, lengths, key_lo, key_hi, player, ws[_W_CONFIG], allh, relevant, result,
            target, best,
        )  # fmt: skip
    ws[_W_RET] = np.int64(relevant)
    return result


@njit(cache=True, **_NO_NRT)
def _probe(h, ws, tt, player, pos, trick_mask, win_card, win_seat, led, card, target):
    """``_search`` of the position, or of the position after ``player`` plays ``card``."""
    ws[_W_META + META_PROBES] += 1
    if card < 0:
        return _search(h, ws, tt, player, pos, trick_mask, win_card, win_seat, led, target)
    b = _bit(card)
    h[player] ^= b
    if pos == 0 or _beats(card, win_card, ws[_W_TRUMPS]):
        win_card = card
        win_seat = player
    if pos == 3:
        won = (ws[_W_COUNT] >> win_seat) & 1
        res = _search(h, ws, tt, win_seat, 0, np.uint64(0), -1, -1, -1, target - won)
    else:
        new_led = card // 13 if pos == 0 else led
        res = _search(
            h, ws, tt, (player + 1) & 3, pos + 1, trick_mask | b, win_card, win_seat,
            new_led, target,
        )  # fmt: skip
    h[player] ^= b
    return res


_HORIZONS = (1, 2, 3, 4, 6, 8)  # tricks searched before the full search (deepening)
_DEEPENING_NODES = 8_000_000  # nodes the horizon searches may take in all, then the full search


@njit(cache=True, **_NO_NRT)
def _deepening_probe(h, ws, tt, player, pos, trick_mask, win_card, win_seat, led, card, target):
    """:func:`_probe`, for a misère of one declarer asked "a trick?" by iterative deepening.

    Defenders who can force a trick usually can within a few tricks, but a
    depth-first search that tries a lead which fails must prove the
    declarer safe after it to the end of the deal. So the question is first
    asked with a horizon: the search stops ``depth`` tricks on, the
    defenders deemed to fail there. Every leaf is then a fact of the full
    game or such a failure, so "forced" under a horizon is forced in the
    full game (the answer) and "not forced" holds only for that horizon
    (its table entries are tagged with it); the full search comes last.
    When the declarer is safe the horizon searches are wasted, so they
    share a budget of ``_DEEPENING_NODES`` (8 M: it found the forced trick
    of a rule-bid misère at 5.7 M where the full search took over 100 M),
    at most half the caller's node budget; past it the search gives up
    cleanly, as at the caller's budget, and the full search starts.
    """
    max_mask = ws[_W_MAX]
    count_mask = ws[_W_COUNT]
    if target == 1 and max_mask != count_mask and popcount(np.uint64(count_mask)) == 1:
        r0 = popcount(h[player])
        limit = ws[_W_LIMIT]
        nodes = ws[_W_META + META_NODES]
        budget = _DEEPENING_NODES
        if limit > 0:
            # at most half the caller's budget, the rest kept for the full search
            budget = min(budget, max((limit - nodes) // 2, 1))
        ws[_W_LIMIT] = nodes + budget
        found = False
        for depth in _HORIZONS:
            if r0 - depth < 2:
                break
            ws[_W_HORIZON] = r0 - depth
            found = _probe(h, ws, tt, player, pos, trick_mask, win_card, win_seat, led, card, 1)
            ws[_W_HORIZON] = 0
            if found or ws[_W_ABORT]:
                break
        ws[_W_LIMIT] = limit
        if ws[_W_ABORT] and (limit == 0 or ws[_W_META + META_NODES] <= limit):
            ws[_W_ABORT] = 0  # only the deepening's budget ran out
        if found or ws[_W_ABORT]:
            return found
    return _probe(h, ws, tt, player, pos, trick_mask, win_card, win_seat, led, card, target)


@njit(cache=True, **_NO_NRT)
def _value(h, ws, tt, player, pos, trick_mask, win_card, win_seat, led, card, lo, hi, guess):
    """Exact value in ``[lo, hi]`` by null-window probes stepping from ``guess``."""
    t = min(max(guess, lo + 1), hi)
    while lo < hi and not ws[_W_ABORT]:
        if _probe(h, ws, tt, player, pos, trick_mask, win_card, win_seat, led, card, t):
            lo = t
            t = lo + 1
        else:
            hi = t - 1
            t = hi
    return lo


@njit(cache=True)
def _estimate(h, trumps, count_mask, r):
    """A first guess of the declaring side's tricks: its share of the high cards.

    Only the number of null-window probes depends on it, never the answer.
    """
    ours = 0
    total = 0
    for p in range(4):
        pts = 0
        for s in range(4):
            m = h[p] & SUIT_MASKS[s]
            for k in range(4):  # A K Q J = 4 3 2 1
                if m & _bit(13 * s + 12 - k):
                    pts += 4 - k
            if s == trumps:
                pts += 2 * popcount(m)
        total += pts
        if (count_mask >> p) & 1:
            ours += pts
    if total == 0:
        return (r + 1) // 2
    return (ours * r + total // 2) // total


@njit(cache=True)
def _count_back(ws, meta):
    """Add the search's counters to the table's ``meta``."""
    for i in range(META_NODES, 8):
        meta[i] = ws[_W_META + i]
    meta[META_ABORTED] = ws[_W_ABORT]


@njit(cache=True)
def _setup(hands, trick_cards, n_trick, leader, trumps, declarer_mask, misere, table):
    meta = table[1]
    meta[META_GENERATION] += 1
    h = np.empty(4, dtype=np.uint64)
    for p in range(4):
        h[p] = hands[p]
    ws = np.zeros(_WS_SIZE, dtype=np.int64)
    for i in range(8):
        ws[_W_META + i] = meta[i]
    if meta.shape[0] > META_NODE_LIMIT and meta[META_NODE_LIMIT] > 0:
        ws[_W_LIMIT] = meta[META_NODES] + meta[META_NODE_LIMIT]
    ws[_W_KILL : _W_KILL + 64] = -1
    max_mask = ((~declarer_mask) & 15) if misere else declarer_mask & 15
    ws[_W_TRUMPS] = trumps
    ws[_W_MAX] = max_mask
    ws[_W_COUNT] = declarer_mask & 15
    ws[_W_CONFIG] = (trumps + 1) | (max_mask << 3) | ((declarer_mask & 15) << 7)
    trick_mask = np.uint64(0)
    win_card = -1
    win_seat = -1
    led = -1
    for i in range(n_trick):
        c = trick_cards[i]
        trick_mask |= _bit(c)
        if i == 0 or _beats(c, win_card, trumps):
            win_card = c
            win_seat = (leader + i) & 3
    if n_trick > 0:
        led = trick_cards[0] // 13
    return h, ws, (leader + n_trick) & 3, trick_mask, win_card, win_seat, led


@njit(cache=True)
def dd_tricks(hands, trick_cards, n_trick, leader, trumps, declarer_mask, misere, table):
    """Tricks the declaring side takes from here (current trick included) with best play.

    Parameters
    ----------
    hands : uint64[4]
        Cards of seats 0..3 (cards already played to the current trick removed).
    trick_cards : int64[4]
        The first ``n_trick`` entries are the cards played to the current
        trick, in order, the first by ``leader``.
    n_trick : int
        Cards already played to the current trick (0..3).
    leader : int
        Seat (0..3) that led the current trick.
    trumps : int
        Trump suit index (0..3 = S, H, D, C) or -1 for no trumps.
    declarer_mask : int
        Bit ``s`` set when seat ``s`` is on the declaring side.
    misere : bool
        The declaring side wants as few tricks as possible.
    table : tuple
        ``(entries, meta)`` from :func:`new_table`. With a node budget set
        in ``meta[META_NODE_LIMIT]``, a call that runs out of it returns -1
        and sets ``meta[META_ABORTED]`` (so do the other kernels; their
        answers are then void).

    Notes
    -----
    Inputs are assumed valid (the Python API checks them).
    """
    entries, meta = table
    h, ws, player, trick_mask, win_card, win_seat, led = _setup(
        hands, trick_cards, n_trick, leader, trumps, declarer_mask, misere, table
    )
    r = popcount(h[player])
    guess = _estimate(h, trumps, declarer_mask & 15, r)
    value = _value(
        h, ws, entries, player, n_trick, trick_mask, win_card, win_seat, led, -1, 0, r,
        guess,
    )  # fmt: skip
    _count_back(ws, meta)
    return -1 if ws[_W_ABORT] else value


@njit(cache=True)
def _card_answers(
    hands, trick_cards, n_trick, leader, trumps, declarer_mask, misere, target, table, out
):
    """Per legal card of the player to move: its exact value (``target < 0``)
    or whether it reaches ``target`` (1 / 0); -1 for the cards not legal.
    Equivalent cards are searched once and share their answer."""
    entries, meta = table
    h, ws, player, trick_mask, win_card, win_seat, led = _setup(
        hands, trick_cards, n_trick, leader, trumps, declarer_mask, misere, table
    )
    for i in range(52):
        out[i] = -1
    hand = h[player]
    r = popcount(hand)
    legal = hand
    if n_trick > 0 and (hand & SUIT_MASKS[led]):
        legal = hand & SUIT_MASKS[led]
    in_play = h[0] | h[1] | h[2] | h[3] | trick_mask
    guess = _estimate(h, trumps, declarer_mask & 15, r)
    for s in range(4):
        m = legal & SUIT_MASKS[s]
        if not m:
            continue
        reps = _run_lows(m, in_play & SUIT_MASKS[s])
        answer = -1
        while m:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            if reps & _bit(c):
                if target < 0:
                    answer = _value(
                        h, ws, entries, player, n_trick, trick_mask, win_card, win_seat, led,
                        c, 0, r, guess,
                    )  # fmt: skip
                    guess = answer
                else:
                    answer = np.int64(
                        _deepening_probe(
                            h, ws, entries, player, n_trick, trick_mask, win_card, win_seat,
                            led, c, target,
                        )
                    )  # fmt: skip
            out[c] = answer
        if ws[_W_ABORT]:
            break
    _count_back(ws, meta)


@njit(cache=True)
def dd_card_values(hands, trick_cards, n_trick, leader, trumps, declarer_mask, misere, table, out):
    """Fill ``out`` (int64[52]) with the value of every legal card of the player to move.

    The value of a card is the number of tricks the declaring side takes from
    here (current trick included) after that card, with best play by all
    afterwards; ``-1`` for cards that are not legal. Same inputs as
    :func:`dd_tricks`. Equivalent cards (adjacent among the cards in play)
    are searched once and share their value.
    """
    _card_answers(
        hands, trick_cards, n_trick, leader, trumps, declarer_mask, misere, -1, table, out
    )


@njit(cache=True)
def dd_reaches(hands, trick_cards, n_trick, leader, trumps, declarer_mask, misere, target, table):
    """Whether the declaring side takes at least ``target`` tricks from here with best play.

    One null-window probe: the made-or-beaten question. A misère contract is
    made when ``not dd_reaches(..., misere=True, target=1, ...)`` (the
    defenders cannot force the declarer to take a trick). Same inputs as
    :func:`dd_tricks`, plus ``target`` (tricks, any integer).
    """
    entries, meta = table
    h, ws, player, trick_mask, win_card, win_seat, led = _setup(
        hands, trick_cards, n_trick, leader, trumps, declarer_mask, misere, table
    )
    res = _deepening_probe(
        h, ws, entries, player, n_trick, trick_mask, win_card, win_seat, led, -1, target
    )
    _count_back(ws, meta)
    return res


@njit(cache=True)
def dd_card_reaches(
    hands, trick_cards, n_trick, leader, trumps, declarer_mask, misere, target, table, out
):
    """Fill ``out`` (int64[52]): per legal card of the player to move, 1 when the
    declaring side still takes at least ``target`` tricks from here after it
    (current trick included), 0 when not, -1 for cards that are not legal.

    The per-card made-or-beaten question, for agents that only care whether
    a contract is made (misère: ``target=1``; ``target >= 0``). Same inputs as
    :func:`dd_reaches`; equivalent cards share their answer.
    """
    _card_answers(
        hands, trick_cards, n_trick, leader, trumps, declarer_mask, misere, max(target, 0),
        table, out,
    )  # fmt: skip
