"""Rule-based Pinochle agent: classic partnership heuristics on the seat's observation.

Rules: ``docs/rules/pinochle.md``. Cards are bits ``12*suit + 2*rank + copy``
(ranks 9 J Q K 10 A, weakest first), so ``card >> 1`` orders the kinds of one
suit and identical copies compare equal. Every rule reads only the
``OBS_DTYPE`` record and works on ``uint64`` card sets without allocating.

Named rules (one ``@njit`` function each):

* ``meld_points`` -- allocation-free meld count of a hand for a trump (§6).
* ``hand_estimate`` -- meld + partner's expected meld + expected counters
  for one trump suit; ``best_estimate`` takes the best suit.
* ``bid_rule`` -- raise by 10 while the estimate (plus the partner's
  signalled strength and the kitty) covers the next bid, else pass.
* ``trump_rule`` -- the suit of the best estimate (meld and length).
* ``discard_rule`` -- kitty mode: bury non-meld side counters (10s, Ks,
  kept for the declarers) and short-suit low cards; keep trumps, aces, meld.
* ``pass_in_rule`` -- exchange mode, partner: pass trumps (highest first),
  then aces, then counters.
* ``pass_back_rule`` -- exchange mode, declarer: pass back the non-trump,
  non-meld cards that matter least, emptying short suits.
* ``lead_rule`` -- draw trumps with a long trump hand, cash masters, lead
  to the partner's void, else lead low from a short side suit.
* ``follow_rule`` -- feed counters to a trick the partner safely wins,
  win as cheaply as possible with a safe winner, else discard low.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from trickgym.cards.bits import highest_bit, lowest_bit, popcount
from trickgym.games.pinochle.constants import (
    AUCTION,
    BID_BASE,
    CALL_BASE,
    DISCARD,
    KITTY_MODE,
    PASS,
    PASS_BACK,
    PASS_IN,
    PLAY,
    TRUMP,
    TRUMP_BASE,
)

__all__ = [
    "BID_MARGIN",
    "COUNTER_BASE",
    "DRAW_TRUMPS_MIN",
    "KITTY_BONUS",
    "MIN_BID",
    "PARTNER_BID_BONUS",
    "PARTNER_MELD",
    "PER_ACE",
    "PER_TRUMP",
    "RuleOptions",
    "best_estimate",
    "bid_rule",
    "discard_rule",
    "follow_rule",
    "hand_estimate",
    "lead_rule",
    "meld_points",
    "pass_back_rule",
    "pass_in_rule",
    "rule_action",
    "trump_rule",
]


@dataclass(frozen=True)
class RuleOptions:
    """Thresholds of the Pinochle rule agent's heuristics (points on the 10-scale).

    counter_base:
        Counters (of 250) the declaring team expects before trump length and aces.
    per_trump:
        Expected counters per trump held.
    per_ace:
        Expected counters per ace held.
    partner_meld:
        The partner's expected meld when it has not bid.
    partner_bid_bonus:
        Extra partner meld assumed once the partner has bid (a strength signal).
    kitty_bonus:
        Kitty mode: correction for the 11-card hand (the unseen kitty and the
        buried counters do not make up the missing 12th card).
    bid_margin:
        Safety margin: bid only while ``estimate - bid_margin >= next bid``.
    min_bid:
        The table's minimum bid (only used before anyone has bid; later bids
        are read from the auction). Must match the game option.
    draw_trumps_min:
        The declarer leads master trumps while holding at least this many trumps.
    """

    counter_base: float = 140.0
    per_trump: float = 10.0
    per_ace: float = 10.0
    partner_meld: float = 30.0
    partner_bid_bonus: float = 30.0
    kitty_bonus: float = -30.0
    bid_margin: float = 0.0
    min_bid: float = 250.0
    draw_trumps_min: float = 4.0


# Indices of the fields in the parameter row (declaration order).
COUNTER_BASE = 0
PER_TRUMP = 1
PER_ACE = 2
PARTNER_MELD = 3
PARTNER_BID_BONUS = 4
KITTY_BONUS = 5
BID_MARGIN = 6
MIN_BID = 7
DRAW_TRUMPS_MIN = 8

_U0 = np.uint64(0)
_U1 = np.uint64(1)
_ALL = np.uint64((1 << 48) - 1)
_SUIT = np.uint64(0xFFF)
_COUNTERS = np.uint64(sum(0xFC0 << (12 * s) for s in range(4)))  # K, 10, A
_ACES = np.uint64(sum(0xC00 << (12 * s) for s in range(4)))
_NINE, _JACK, _QUEEN, _KING, _TEN, _ACE = 0, 1, 2, 3, 4, 5
_EVEN = np.uint64(sum(1 << (2 * i) for i in range(24)))  # the first copy of every kind
_AROUND = np.uint64(sum(1 << (12 * s) for s in range(4)))  # one kind in every suit
_KINGS = _AROUND << np.uint64(2 * _KING)
_RUN = np.uint64(sum(1 << (2 * r) for r in (_JACK, _QUEEN, _KING, _TEN, _ACE)))
_ROYAL = np.uint64((1 << (2 * _KING)) | (1 << (2 * _QUEEN)))
_PIN = np.uint64((1 << (2 * _QUEEN)) | (1 << (24 + 2 * _JACK)))  # Q spades, J diamonds


# ------------------------------------------------------------------ card helpers


@njit(cache=True, inline="always")
def _suit_mask(s):
    return _SUIT << np.uint64(12 * s)


@njit(cache=True, inline="always")
def _bit(c):
    return _U1 << np.uint64(c)


@njit(cache=True, inline="always")
def _rank(c):
    return (c % 12) >> 1


@njit(cache=True, inline="always")
def _kinds(cards):
    """``cards`` without the second copy of a kind whose first copy is there.

    Every rule values both copies alike and keeps the first (lowest) on a
    tie, so the candidate loops only visit these.
    """
    return cards & ~((cards & _EVEN) << _U1)


@njit(cache=True, inline="always")
def _higher(c):
    """Cards of ``c``'s suit of a strictly higher kind."""
    above = ~((_bit(c | 1) << _U1) - _U1)
    return above & _suit_mask(c // 12)


@njit(cache=True, inline="always")
def _count(hand, s, r):
    pair = (np.uint64(hand) >> np.uint64(12 * s + 2 * r)) & np.uint64(3)
    return np.int64((pair & _U1) + (pair >> _U1))


@njit(cache=True, inline="always")
def _beats(c, w, trump):
    if c // 12 == w // 12:
        return (c >> 1) > (w >> 1)
    return c // 12 == trump


@njit(cache=True, inline="always")
def _is_counter(c):
    return _rank(c) >= _KING


# ------------------------------------------------------------------------ meld


@njit(cache=True, inline="always")
def _pairs(hand):
    """``(one, two)``: bit ``12*s + 2*r`` set where ``hand`` holds at least one / both copies."""
    hand = np.uint64(hand)
    lo = hand & _EVEN
    hi = (hand >> _U1) & _EVEN
    return lo | hi, lo & hi


@njit(cache=True, inline="always")
def _levels(one, two, mask):
    """How many times every kind in ``mask`` is held (0, 1 or 2): the min of their counts."""
    return np.int64((one & mask) == mask) + np.int64((two & mask) == mask)


@njit(cache=True, inline="always")
def _common_meld(one, two):
    """Trump-independent meld: arounds, pinochles and every marriage at 20."""
    points = 0
    for r, single in ((_ACE, 100), (_KING, 80), (_QUEEN, 60), (_JACK, 40)):
        around = _levels(one, two, _AROUND << np.uint64(2 * r))
        if around == 2:
            points += 10 * single
        elif around == 1:
            points += single
    pin = _levels(one, two, _PIN)
    if pin == 2:
        points += 300
    elif pin == 1:
        points += 40
    kq = _KINGS & one & (one << np.uint64(2))
    kq2 = _KINGS & two & (two << np.uint64(2))
    return points + 20 * (popcount(kq) + popcount(kq2))


@njit(cache=True, inline="always")
def _trump_meld(one, two, t):
    """Meld of trump suit ``t`` on top of ``_common_meld`` (run, royal marriages, dix)."""
    sh = np.uint64(12 * t)
    run = _levels(one, two, _RUN << sh)
    points = 1500 if run == 2 else 150 * run
    royal = _levels(one, two, _ROYAL << sh)
    points += 40 * (royal - run) - 20 * royal  # the common part counted them at 20
    nine = np.uint64(1) << sh
    return points + 10 * (np.int64((one & nine) != _U0) + np.int64((two & nine) != _U0))


@njit(cache=True, inline="always")
def _meld(hand, t):
    one, two = _pairs(hand)
    return _common_meld(one, two) + _trump_meld(one, two, t)


@njit(cache=True, inline="always")
def meld_points(hand, t):
    """Meld of ``hand`` with trump suit ``t`` (§6), without allocating."""
    return _meld(hand, t)


# --------------------------------------------------------------------- bidding


@njit(cache=True, inline="always")
def _options(params):
    """The parameter row as a tuple of floats.

    The rules take this tuple rather than the array: passing an array between
    compiled functions costs two atomic reference-count updates per call.
    """
    return (
        params[0],
        params[1],
        params[2],
        params[3],
        params[4],
        params[5],
        params[6],
        params[7],
        params[8],
    )


@njit(cache=True, inline="always")
def hand_estimate(hand, t, params):
    """Expected team score with trump ``t``: own meld, partner's meld, counters."""
    n_trumps = popcount(hand & _suit_mask(t))
    n_aces = popcount(hand & _ACES)
    counters = params[COUNTER_BASE] + params[PER_TRUMP] * n_trumps + params[PER_ACE] * n_aces
    return meld_points(hand, t) + params[PARTNER_MELD] + counters


@njit(cache=True, inline="always")
def best_estimate(hand, params):
    """``(estimate, suit)`` of the best trump suit for ``hand`` (``hand_estimate`` of each)."""
    return _best_estimate(hand, _options(params))


@njit(cache=True, inline="always")
def _best_estimate(hand, params):
    hand = np.uint64(hand)
    one, two = _pairs(hand)
    base = params[COUNTER_BASE] + params[PER_ACE] * popcount(hand & _ACES)
    base += _common_meld(one, two) + params[PARTNER_MELD]
    best, best_suit = -1.0, 0
    for t in range(4):
        n_trumps = popcount(hand & _suit_mask(t))
        e = base + _trump_meld(one, two, t) + params[PER_TRUMP] * n_trumps
        if e > best:
            best, best_suit = e, t
    return best, best_suit


@njit(cache=True, inline="always")
def _lowest_bid_action(obs):
    """Lowest legal bid action, or -1."""
    low = obs.legal_low & ~((_U1 << np.uint64(BID_BASE)) - _U1)
    if low:
        return lowest_bit(low)
    if obs.legal_high:
        return CALL_BASE + lowest_bit(obs.legal_high)
    return -1


@njit(cache=True, inline="always")
def bid_rule(obs, params):
    """Raise by 10 while the hand's estimate covers the next bid; pass otherwise."""
    return _bid(obs, _options(params))


@njit(cache=True, inline="always")
def _bid(obs, params):
    action = _lowest_bid_action(obs)
    can_pass = (obs.legal_low >> np.uint64(PASS)) & _U1
    if action < 0:
        return PASS
    if not can_pass:
        return action  # the dealer is stuck
    next_bid = obs.high + 10 if obs.high > 0 else params[MIN_BID]
    partner = (obs.seat + 2) % 4
    if obs.holder == partner and obs.high > 0:
        return PASS  # do not outbid the partner; its bid stands
    estimate, _ = _best_estimate(obs.hand, params)
    for i in range(obs.n_calls):
        if obs.call_seats[i] == partner and obs.calls[i] > 0:
            estimate += params[PARTNER_BID_BONUS]
            break
    if obs.mode == KITTY_MODE:
        estimate += params[KITTY_BONUS]
    if estimate - params[BID_MARGIN] >= next_bid:
        return action
    return PASS


@njit(cache=True, inline="always")
def trump_rule(obs, params):
    """Name the suit with the best meld-and-length estimate."""
    _, suit = _best_estimate(obs.hand, _options(params))
    return TRUMP_BASE + suit


# ------------------------------------------------------------ discard / passing


@njit(cache=True, inline="always")
def _keep_value(hand, c, t, base_meld, bury):
    """How much the declarer wants to keep card ``c`` (lower goes first).

    ``bury``: kitty discards, where side counters score safely for the
    declarers; otherwise (passing back) counters are merely neutral.
    """
    s = c // 12
    r = _rank(c)
    if s == t:
        return 1000 + r
    value = 0.0
    if r != _NINE and r != _TEN:  # side nines and tens are in no meld
        value = 10.0 * (base_meld - _meld(hand & ~_bit(c), t))
    if r == _ACE:
        value += 300.0
    elif bury and (r == _TEN or r == _KING):
        value -= 5.0
    else:
        value += r
    value += 3.0 * popcount(hand & _suit_mask(s))  # empty short suits first
    return value


@njit(cache=True, inline="always")
def _least_kept(obs, bury):
    hand = obs.hand
    t = obs.trumps
    base = _meld(hand, t)
    best, best_value = -1, 1e300
    legal = obs.legal_low & _ALL
    # The second copy of a kind is worth the first and loses the tie: skip it.
    cards = _kinds(legal)
    while cards:
        c = lowest_bit(cards)
        cards &= cards - _U1
        v = _keep_value(hand, c, t, base, bury)
        if v < best_value:
            best, best_value = c, v
    return best


@njit(cache=True, inline="always")
def discard_rule(obs):
    """Kitty mode: bury the card the declarer needs least (side counters first)."""
    return _least_kept(obs, True)


@njit(cache=True, inline="always")
def pass_back_rule(obs):
    """Exchange mode: the declarer passes back the card it needs least."""
    return _least_kept(obs, False)


@njit(cache=True, inline="always")
def pass_in_rule(obs):
    """Exchange mode: the partner passes trumps (highest first), then aces, then counters."""
    hand = obs.hand & obs.legal_low
    t = obs.trumps
    best, best_value = -1, -1e300
    cards = _kinds(hand)
    while cards:
        c = lowest_bit(cards)
        cards &= cards - _U1
        r = _rank(c)
        if c // 12 == t:
            v = 1000.0 + r
        elif r == _ACE:
            v = 500.0
        elif r == _TEN:
            v = 100.0
        else:
            v = float(r)
        if v > best_value:
            best, best_value = c, v
    return best


# ------------------------------------------------------------------------ play


@njit(cache=True, inline="always")
def _unseen(obs):
    """Cards this seat has not seen: not its own, not played, not its own discards."""
    played = obs.played
    seen = obs.hand | obs.discards | played[0] | played[1] | played[2] | played[3]
    return _ALL & ~seen


@njit(cache=True, inline="always")
def _void_mask(voids):
    """The cards of the suits flagged in the 4-bit ``voids`` (branch-free)."""
    v = np.uint64(voids) & np.uint64(15)
    # Spread bit s to bit 12*s, then fill each suit's 12 bits.
    spread = (
        (v & _U1)
        | ((v & np.uint64(2)) << np.uint64(11))
        | ((v & np.uint64(4)) << np.uint64(22))
        | ((v & np.uint64(8)) << np.uint64(33))
    )
    return spread * _SUIT


@njit(cache=True, inline="always")
def _opponents(obs, unseen):
    """``(poss1, poss3)``: cards the next / the last seat may hold.

    Unseen, not shown in another seat's meld (nor passed back to the
    declarer's partner), not in a suit the seat is void in.
    """
    me = obs.seat
    o1 = (me + 1) % 4
    p = (me + 2) % 4
    o3 = (me + 3) % 4
    shown1 = obs.meld_cards[o1] & ~obs.played[o1]
    shown_p = obs.meld_cards[p] & ~obs.played[p]
    shown3 = obs.meld_cards[o3] & ~obs.played[o3]
    poss = unseen & ~shown_p
    if me == obs.declarer:
        poss &= ~(obs.passed_back & ~obs.played[p])
    poss1 = poss & ~shown3 & ~_void_mask(obs.voids[o1])
    poss3 = poss & ~shown1 & ~_void_mask(obs.voids[o3])
    return poss1, poss3


@njit(cache=True, inline="always")
def _safe(c, t, led, n_after, poss1, poss3):
    """Whether card ``c``, winning the trick, survives the opponents still to play.

    ``poss1`` / ``poss3``: what the next / the last seat may hold (``_opponents``).
    """
    higher = _higher(c)
    side = c // 12 != t
    led_mask = _suit_mask(led)
    t_mask = _suit_mask(t)
    if n_after >= 1:
        if poss1 & higher:
            return False
        if side and (poss1 & led_mask) == 0 and (poss1 & t_mask):
            return False  # the opponent is out of the led suit and may trump
    if n_after >= 3:
        if poss3 & higher:
            return False
        if side and (poss3 & led_mask) == 0 and (poss3 & t_mask):
            return False
    return True


@njit(cache=True, inline="always")
def _throw_cost(c, t, unseen):
    """Cost of giving card ``c`` away: counters, trumps and masters are dear (an int)."""
    r = _rank(c)
    cost = r
    if _is_counter(c):
        cost += 10
    if c // 12 == t:
        cost += 30
    if (unseen & _higher(c)) == 0:
        cost += 5
    return cost


@njit(cache=True, inline="always")
def _feed_value(c, t, unseen):
    """Value of giving card ``c`` to the partner's trick: counters that would not win later."""
    r = _rank(c)
    if _is_counter(c):
        v = 20 + r
        if (unseen & _higher(c)) == 0:
            v -= 10  # a master may win its own trick later
    else:
        v = -r
    if c // 12 == t:
        v -= 15
    return v


@njit(cache=True, inline="always")
def _min_cost(cards, t, unseen):
    best, best_cost = -1, 1 << 30
    cards = _kinds(cards)
    while cards:
        c = lowest_bit(cards)
        cards &= cards - _U1
        v = _throw_cost(c, t, unseen)
        if v < best_cost:
            best, best_cost = c, v
    return best


@njit(cache=True, inline="always")
def lead_rule(obs, params):
    """Lead: draw trumps, cash masters, lead to the partner's void, else lead low."""
    return _lead(obs, params[DRAW_TRUMPS_MIN])


@njit(cache=True, inline="always")
def _lead(obs, draw_trumps_min):
    hand = obs.hand & obs.legal_low
    t = obs.trumps
    me = obs.seat
    partner = (me + 2) % 4
    if _kinds(hand) & (_kinds(hand) - _U1) == 0:
        return lowest_bit(hand)  # a single legal kind
    unseen = _unseen(obs)
    trumps = hand & _suit_mask(t)
    poss1, poss3 = _opponents(obs, unseen)
    t_mask = _suit_mask(t)
    opp_trumps = (poss1 | poss3) & t_mask
    # An opponent out of a suit that may hold trumps.
    trump1 = (poss1 & t_mask) != _U0
    trump3 = (poss3 & t_mask) != _U0
    # 1. Draw trumps: the declarer with a long trump suit leads its master trump.
    if me == obs.declarer and popcount(trumps) >= draw_trumps_min and opp_trumps:
        top = highest_bit(trumps)
        if (unseen & _higher(top)) == 0:
            return top
    # 2. Cash side masters the opponents can follow (or cannot trump).
    best, best_v = -1, -1.0
    side = hand & ~_suit_mask(t)
    c_set = _kinds(side)
    while c_set:
        c = lowest_bit(c_set)
        c_set &= c_set - _U1
        if unseen & _higher(c):
            continue
        s = c // 12
        s_mask = _suit_mask(s)
        ok = not (trump1 and (poss1 & s_mask) == 0) and not (trump3 and (poss3 & s_mask) == 0)
        if ok:
            v = float(_rank(c)) + 0.1 * popcount(unseen & _suit_mask(s))
            if v > best_v:
                best, best_v = c, v
    if best >= 0:
        return best
    # 3. Lead low to the partner's void so that it can trump.
    if obs.voids[partner] != 0 and not ((obs.voids[partner] >> t) & 1):
        for s in range(4):
            if s != t and (obs.voids[partner] >> s) & 1 and hand & _suit_mask(s):
                return _min_cost(hand & _suit_mask(s), t, unseen)
    # 4. Lead low from a side suit (short suits first); only trumps left: low trump.
    if side:
        best, best_v = -1, 1 << 30
        c_set = _kinds(side)
        while c_set:
            c = lowest_bit(c_set)
            c_set &= c_set - _U1
            # Twice (throw cost + half the suit length), in integers.
            v = 2 * _throw_cost(c, t, unseen) + popcount(hand & _suit_mask(c // 12))
            if v < best_v:
                best, best_v = c, v
        return best
    return lowest_bit(hand)


@njit(cache=True, inline="always")
def follow_rule(obs):
    """Follow: feed a safe partner trick, win cheaply and safely, else throw low."""
    legal = obs.legal_low & _ALL
    kinds = _kinds(legal)
    if kinds & (kinds - _U1) == 0:
        return lowest_bit(legal)  # a single legal kind
    t = obs.trumps
    me = obs.seat
    n = obs.trick_n
    led = obs.trick_cards[0] // 12
    wpos = 0
    for i in range(1, n):
        if _beats(obs.trick_cards[i], obs.trick_cards[wpos], t):
            wpos = i
    w = obs.trick_cards[wpos]
    winner_seat = (obs.leader + wpos) % 4
    n_after = 3 - n
    unseen = _unseen(obs)
    poss1, poss3 = _opponents(obs, unseen)
    winners = legal & _higher(w)  # _beats: a higher card of the winner's suit
    if w // 12 != t:
        winners |= legal & _suit_mask(t)  # or any trump on a side card
    if winner_seat == (me + 2) % 4 and _safe(w, t, led, n_after, poss1, poss3):
        pool = _kinds(legal & ~winners if legal & ~winners else legal)
        best, best_v = -1, -(1 << 30)
        while pool:
            c = lowest_bit(pool)
            pool &= pool - _U1
            v = _feed_value(c, t, unseen)
            if v > best_v:
                best, best_v = c, v
        return best
    # Cheapest safe winner (lowest kind; a side card before a trump).
    c_set = _kinds(winners)
    while c_set:
        c = lowest_bit(c_set)
        c_set &= c_set - _U1
        if _safe(c, t, led, n_after, poss1, poss3):
            return c
    if winner_seat == (me + 2) % 4 or winners == 0:
        return _min_cost(legal, t, unseen)
    # Only unsafe winners: the cheapest one still may hold.
    if legal & ~winners:
        return _min_cost(legal & ~winners, t, unseen)
    return _min_cost(winners, t, unseen)


# ---------------------------------------------------------------------- driver


@njit(cache=True, inline="always")
def _fallback(obs):
    if obs.legal_low:
        return lowest_bit(obs.legal_low)
    return CALL_BASE + lowest_bit(obs.legal_high)


@njit(cache=True, inline="always")
def _is_legal(obs, a):
    if a < 0:
        return False
    if a < CALL_BASE:
        return (obs.legal_low >> np.uint64(a)) & _U1 != 0
    return (obs.legal_high >> np.uint64(a - CALL_BASE)) & _U1 != 0


@njit(cache=True)
def rule_action(obs, params, rng):
    """The rule agent's action from the seat's observation record ``obs``.

    Deterministic (``rng`` is unused); falls back to the lowest legal action.
    """
    opts = _options(params)  # the array is not used past this point
    phase = obs.phase
    if phase == AUCTION:
        a = _bid(obs, opts)
    elif phase == TRUMP:
        a = TRUMP_BASE + _best_estimate(obs.hand, opts)[1]
    elif phase == DISCARD:
        a = discard_rule(obs)
    elif phase == PASS_IN:
        a = pass_in_rule(obs)
    elif phase == PASS_BACK:
        a = pass_back_rule(obs)
    elif phase == PLAY:
        a = _lead(obs, opts[DRAW_TRUMPS_MIN]) if obs.trick_n == 0 else follow_rule(obs)
    else:
        a = -1
    if _is_legal(obs, a):
        return a
    return _fallback(obs)
