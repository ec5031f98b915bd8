"""Rule-based Pinochle agent: classic partnership heuristics on the seat's observation.

Rules: ``shared/rules/pinochle.md``. Cards are bits ``12*suit + 2*rank + copy``
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


@njit(cache=True)
def meld_points(hand, t):
    """Meld of ``hand`` with trump suit ``t`` (§6), without allocating."""
    run = _count(hand, t, _ACE)
    for r in (_TEN, _KING, _QUEEN, _JACK):
        run = min(run, _count(hand, t, r))
    points = 1500 if run == 2 else 150 * run
    points += 40 * min(_count(hand, t, _KING) - run, _count(hand, t, _QUEEN) - run)
    for s in range(4):
        if s != t:
            points += 20 * min(_count(hand, s, _KING), _count(hand, s, _QUEEN))
    points += 10 * _count(hand, t, _NINE)
    for r, single in ((_ACE, 100), (_KING, 80), (_QUEEN, 60), (_JACK, 40)):
        around = min(
            min(_count(hand, 0, r), _count(hand, 1, r)),
            min(_count(hand, 2, r), _count(hand, 3, r)),
        )
        if around == 2:
            points += 10 * single
        elif around == 1:
            points += single
    pin = min(_count(hand, 0, _QUEEN), _count(hand, 2, _JACK))
    if pin == 2:
        points += 300
    elif pin == 1:
        points += 40
    return points


# --------------------------------------------------------------------- bidding


@njit(cache=True)
def hand_estimate(hand, t, params):
    """Expected team score with trump ``t``: own meld, partner's meld, counters."""
    n_trumps = popcount(hand & _suit_mask(t))
    n_aces = popcount(hand & _ACES)
    counters = params[COUNTER_BASE] + params[PER_TRUMP] * n_trumps + params[PER_ACE] * n_aces
    return meld_points(hand, t) + params[PARTNER_MELD] + counters


@njit(cache=True)
def best_estimate(hand, params):
    """``(estimate, suit)`` of the best trump suit for ``hand``."""
    best, best_suit = -1.0, 0
    for t in range(4):
        e = hand_estimate(hand, t, params)
        if e > best:
            best, best_suit = e, t
    return best, best_suit


@njit(cache=True)
def _lowest_bid_action(obs):
    """Lowest legal bid action, or -1."""
    low = obs.legal_low & ~((_U1 << np.uint64(BID_BASE)) - _U1)
    if low:
        return lowest_bit(low)
    if obs.legal_high:
        return CALL_BASE + lowest_bit(obs.legal_high)
    return -1


@njit(cache=True)
def bid_rule(obs, params):
    """Raise by 10 while the hand's estimate covers the next bid; pass otherwise."""
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
    estimate, _ = best_estimate(obs.hand, params)
    for i in range(obs.n_calls):
        if obs.call_seats[i] == partner and obs.calls[i] > 0:
            estimate += params[PARTNER_BID_BONUS]
            break
    if obs.mode == KITTY_MODE:
        estimate += params[KITTY_BONUS]
    if estimate - params[BID_MARGIN] >= next_bid:
        return action
    return PASS


@njit(cache=True)
def trump_rule(obs, params):
    """Name the suit with the best meld-and-length estimate."""
    _, suit = best_estimate(obs.hand, params)
    return TRUMP_BASE + suit


# ------------------------------------------------------------ discard / passing


@njit(cache=True)
def _keep_value(hand, c, t, base_meld, bury):
    """How much the declarer wants to keep card ``c`` (lower goes first).

    ``bury``: kitty discards, where side counters score safely for the
    declarers; otherwise (passing back) counters are merely neutral.
    """
    s = c // 12
    r = _rank(c)
    if s == t:
        return 1000 + r
    loss = base_meld - meld_points(hand & ~_bit(c), t)
    value = 10.0 * loss
    if r == _ACE:
        value += 300.0
    elif bury and (r == _TEN or r == _KING):
        value -= 5.0
    else:
        value += r
    value += 3.0 * popcount(hand & _suit_mask(s))  # empty short suits first
    return value


@njit(cache=True)
def _least_kept(obs, bury):
    hand = obs.hand
    t = obs.trumps
    base = meld_points(hand, t)
    best, best_value = -1, 1e300
    cards = obs.legal_low & _ALL
    while cards:
        c = lowest_bit(cards)
        cards &= cards - _U1
        v = _keep_value(hand, c, t, base, bury)
        if v < best_value:
            best, best_value = c, v
    return best


@njit(cache=True)
def discard_rule(obs):
    """Kitty mode: bury the card the declarer needs least (side counters first)."""
    return _least_kept(obs, True)


@njit(cache=True)
def pass_back_rule(obs):
    """Exchange mode: the declarer passes back the card it needs least."""
    return _least_kept(obs, False)


@njit(cache=True)
def pass_in_rule(obs):
    """Exchange mode: the partner passes trumps (highest first), then aces, then counters."""
    hand = obs.hand & obs.legal_low
    t = obs.trumps
    best, best_value = -1, -1e300
    cards = hand
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


@njit(cache=True)
def _unseen(obs):
    """Cards this seat has not seen: not its own, not played, not its own discards."""
    seen = obs.hand | obs.discards
    for s in range(4):
        seen |= obs.played[s]
    return _ALL & ~seen


@njit(cache=True)
def _possible(obs, o, unseen):
    """Cards opponent ``o`` may hold: unseen, not shown by another seat, not in a void suit."""
    poss = unseen
    for s in range(4):
        if s != o and s != obs.seat:
            poss &= ~(obs.meld_cards[s] & ~obs.played[s])
    if obs.seat == obs.declarer and o != (obs.seat + 2) % 4:
        poss &= ~(obs.passed_back & ~obs.played[(obs.seat + 2) % 4])
    for s in range(4):
        if (obs.voids[o] >> s) & 1:
            poss &= ~_suit_mask(s)
    return poss


@njit(cache=True)
def _safe(obs, c, t, led, n_after, unseen):
    """Whether card ``c``, winning the trick, survives the opponents still to play."""
    me = obs.seat
    for k in range(1, n_after + 1):
        o = (me + k) % 4
        if k == 2:
            continue  # the partner
        poss = _possible(obs, o, unseen)
        if poss & _higher(c):
            return False
        if c // 12 != t and (poss & _suit_mask(led)) == 0 and (poss & _suit_mask(t)):
            return False  # the opponent is out of the led suit and may trump
    return True


@njit(cache=True)
def _throw_cost(c, t, unseen):
    """Cost of giving card ``c`` away: counters, trumps and masters are dear."""
    r = _rank(c)
    cost = float(r)
    if _is_counter(c):
        cost += 10.0
    if c // 12 == t:
        cost += 30.0
    if (unseen & _higher(c)) == 0:
        cost += 5.0
    return cost


@njit(cache=True)
def _feed_value(c, t, unseen):
    """Value of giving card ``c`` to the partner's trick: counters that would not win later."""
    r = _rank(c)
    if _is_counter(c):
        v = 20.0 + r
        if (unseen & _higher(c)) == 0:
            v -= 10.0  # a master may win its own trick later
    else:
        v = -float(r)
    if c // 12 == t:
        v -= 15.0
    return v


@njit(cache=True)
def _min_cost(cards, t, unseen):
    best, best_cost = -1, 1e300
    while cards:
        c = lowest_bit(cards)
        cards &= cards - _U1
        v = _throw_cost(c, t, unseen)
        if v < best_cost:
            best, best_cost = c, v
    return best


@njit(cache=True)
def lead_rule(obs, params):
    """Lead: draw trumps, cash masters, lead to the partner's void, else lead low."""
    hand = obs.hand & obs.legal_low
    t = obs.trumps
    me = obs.seat
    partner = (me + 2) % 4
    unseen = _unseen(obs)
    trumps = hand & _suit_mask(t)
    opp_trumps = _U0
    for k in (1, 3):
        opp_trumps |= _possible(obs, (me + k) % 4, unseen) & _suit_mask(t)
    # 1. Draw trumps: the declarer with a long trump suit leads its master trump.
    if me == obs.declarer and popcount(trumps) >= params[DRAW_TRUMPS_MIN] and opp_trumps:
        top = highest_bit(trumps)
        if (unseen & _higher(top)) == 0:
            return top
    # 2. Cash side masters the opponents can follow (or cannot trump).
    best, best_v = -1, -1.0
    side = hand & ~_suit_mask(t)
    c_set = side
    while c_set:
        c = lowest_bit(c_set)
        c_set &= c_set - _U1
        if unseen & _higher(c):
            continue
        s = c // 12
        ok = True
        for k in (1, 3):
            poss = _possible(obs, (me + k) % 4, unseen)
            if (poss & _suit_mask(s)) == 0 and (poss & _suit_mask(t)):
                ok = False
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
        best, best_v = -1, 1e300
        c_set = side
        while c_set:
            c = lowest_bit(c_set)
            c_set &= c_set - _U1
            v = _throw_cost(c, t, unseen) + 0.5 * popcount(hand & _suit_mask(c // 12))
            if v < best_v:
                best, best_v = c, v
        return best
    return lowest_bit(hand)


@njit(cache=True)
def follow_rule(obs):
    """Follow: feed a safe partner trick, win cheaply and safely, else throw low."""
    legal = obs.legal_low & _ALL
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
    winners = _U0
    c_set = legal
    while c_set:
        c = lowest_bit(c_set)
        c_set &= c_set - _U1
        if _beats(c, w, t):
            winners |= _bit(c)
    if winner_seat == (me + 2) % 4 and _safe(obs, w, t, led, n_after, unseen):
        pool = legal & ~winners if legal & ~winners else legal
        best, best_v = -1, -1e300
        while pool:
            c = lowest_bit(pool)
            pool &= pool - _U1
            v = _feed_value(c, t, unseen)
            if v > best_v:
                best, best_v = c, v
        return best
    # Cheapest safe winner (lowest kind; a side card before a trump).
    c_set = winners
    while c_set:
        c = lowest_bit(c_set)
        c_set &= c_set - _U1
        if _safe(obs, c, t, led, n_after, unseen):
            return c
    if winner_seat == (me + 2) % 4 or winners == 0:
        return _min_cost(legal, t, unseen)
    # Only unsafe winners: the cheapest one still may hold.
    if legal & ~winners:
        return _min_cost(legal & ~winners, t, unseen)
    return _min_cost(winners, t, unseen)


# ---------------------------------------------------------------------- driver


@njit(cache=True)
def _fallback(obs):
    if obs.legal_low:
        return lowest_bit(obs.legal_low)
    return CALL_BASE + lowest_bit(obs.legal_high)


@njit(cache=True)
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
    phase = obs.phase
    if phase == AUCTION:
        a = bid_rule(obs, params)
    elif phase == TRUMP:
        a = trump_rule(obs, params)
    elif phase == DISCARD:
        a = discard_rule(obs)
    elif phase == PASS_IN:
        a = pass_in_rule(obs)
    elif phase == PASS_BACK:
        a = pass_back_rule(obs)
    elif phase == PLAY:
        a = lead_rule(obs, params) if obs.trick_n == 0 else follow_rule(obs)
    else:
        a = -1
    if _is_legal(obs, a):
        return a
    return _fallback(obs)
