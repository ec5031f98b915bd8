"""Rule-based Solo Whist agent: classic bidding and card-play heuristics.

The agent reads only its seat's observation record (``OBS_DTYPE``): its own
hand, the turn-up, the auction, the contract, the cards played by each seat,
shown voids and the exposed Misère Ouverte hand. Every heuristic is a small
module-level compiled function (no closures, so numba can cache them):

Bidding
    ``hand_tricks``        tricks a hand should take with a given trump suit
                           (top runs, guarded kings and queens, long trumps,
                           ruffs with spare trumps).
    ``misere_danger``      cards that could be forced to win a trick (a card
                           too high for the low cards under it in its suit).
    ``declared_safe``      every card a sure winner at no trumps with the lead.
    ``rule_bid``           the highest legal contract the hand qualifies for:
                           Abundance Declared, Misère Ouverte, Abundance in
                           Trumps, Abundance (best trump suit), Misère, Solo,
                           Cop (accept a Prop with support), Prop; else Pass.
    ``rule_cop_offer``     eldest's Cop re-entry: Cop with support, else Decline.
    ``rule_upgrade``       the lone proposer: a contract it qualifies for (Solo
                           with a little slack) or Pass.
    ``rule_trump_choice``  Abundance trumps: the suit of the best estimate
                           (longest on ties).
Play, trick-taking contracts (both sides want tricks)
    ``rule_lead``          draw trumps when the declaring side holds enough,
                           cash masters where no opponent can ruff, else low
                           from the longest side suit.
    ``rule_follow``        partner's safe winner: low; second hand low unless
                           the cheapest winner is a master or to cover an
                           honour; third hand high (lowest of equals); last
                           hand wins as cheaply as possible; else low.
    ``rule_void``          ruff (or over-ruff) cheaply when the opponents may
                           win, else discard the lowest side card.
Play, Misère and Misère Ouverte (declarer must lose every trick)
    ``rule_misere_declarer``  duck with the highest card under the winner,
                           discard the highest card, lead the safest low card.
    ``rule_misere_defender``  keep the declarer on top (play under its card),
                           play low before it, unload high cards, lead low
                           in suits it has not shown out of (with the exposed
                           hand: where it cannot get under).

Card counting: ``out`` is the set of cards this seat has not seen (not in its
hand, not played); a *master* is a card with no ``out`` card above it in its
suit. Known voids decide who may still ruff or follow.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from trickgym.cards.bits import highest_bit, lowest_bit, popcount
from trickgym.cards.decks import STANDARD
from trickgym.games.solowhist.constants import (
    ABUNDANCE_CALL,
    ABUNDANCE_DECLARED_CALL,
    ABUNDANCE_IN_TRUMPS_CALL,
    AUCTION,
    CALL_BASE,
    COP,
    COP_OFFER,
    DECLINE,
    MISERE,
    MISERE_CALL,
    MISERE_OUVERTE,
    MISERE_OUVERTE_CALL,
    PASS,
    PLAY,
    PROP,
    SOLO_CALL,
    TRUMP_BASE,
    TRUMP_CHOICE,
    UPGRADE,
)

__all__ = [
    "RuleOptions",
    "declared_safe",
    "hand_tricks",
    "misere_danger",
    "rule_action",
    "rule_bid",
    "rule_cop_offer",
    "rule_follow",
    "rule_lead",
    "rule_misere_declarer",
    "rule_misere_defender",
    "rule_trump_choice",
    "rule_upgrade",
    "rule_void",
]


@dataclass(frozen=True)
class RuleOptions:
    """Thresholds of the Solo Whist rule agent's heuristics (``params`` row order).

    solo_min:
        Estimated tricks (turn-up suit trumps) to bid Solo (goal 5 alone).
    prop_min:
        Estimated tricks to Propose (goal 8 with a partner).
    cop_min:
        Estimated tricks to accept a Prop (Cop), in the auction or re-entry.
    abundance_min:
        Estimated tricks with the best trump suit to bid Abundance (goal 9);
        with the turn-up suit, Abundance in Trumps over an Abundance.
    misere_slack:
        A card is *dangerous* for Misère when its rank (2 = 0 .. A = 12)
        exceeds ``2 k + misere_slack``, k = number of own lower cards in its suit.
    misere_max_danger:
        Most dangerous cards allowed to bid Misère.
    ouverte_slack:
        The (stricter) slack for Misère Ouverte, which needs no dangerous card.
    upgrade_slack:
        The lone proposer upgrades to Solo with ``solo_min - upgrade_slack``.
    draw_trumps_min:
        Trumps the declaring side's leader needs to draw trumps.
    king_value:
        Tricks credited to a guarded king not under the ace.
    queen_value:
        Tricks credited to a twice-guarded queen not under the king.
    ruff_value:
        Tricks per void (half per singleton) side suit, while spare trumps last.
    cover_rank:
        Second hand covers a led card of at least this rank (9 = jack).
    """

    solo_min: float = 4.5
    prop_min: float = 2.5
    cop_min: float = 2.0
    abundance_min: float = 9.0
    misere_slack: float = 3.0
    misere_max_danger: float = 0.0
    ouverte_slack: float = 1.0
    upgrade_slack: float = 0.5
    draw_trumps_min: float = 3.0
    king_value: float = 0.7
    queen_value: float = 0.35
    ruff_value: float = 0.6
    cover_rank: float = 9.0


# Indices of the fields in a parameter row (declaration order).
P_SOLO_MIN = 0
P_PROP_MIN = 1
P_COP_MIN = 2
P_ABUNDANCE_MIN = 3
P_MISERE_SLACK = 4
P_MISERE_MAX_DANGER = 5
P_OUVERTE_SLACK = 6
P_UPGRADE_SLACK = 7
P_DRAW_TRUMPS_MIN = 8
P_KING_VALUE = 9
P_QUEEN_VALUE = 10
P_RUFF_VALUE = 11
P_COVER_RANK = 12

SUIT_MASKS = STANDARD.suit_masks.copy()
FULL = np.uint64((1 << 52) - 1)
_U0 = np.uint64(0)
_U1 = np.uint64(1)


# ------------------------------------------------------------------ bit helpers


@njit(cache=True, inline="always")
def _bit(c):
    return _U1 << np.uint64(c)


@njit(cache=True, inline="always")
def _above(c):
    """Cards with a larger id than ``c`` (within a suit mask: higher ranks)."""
    return ~((_U1 << np.uint64(c + 1)) - _U1)


@njit(cache=True, inline="always")
def _below(c):
    """Cards with a smaller id than ``c`` (within a suit mask: lower ranks)."""
    return (_U1 << np.uint64(c)) - _U1


@njit(cache=True, inline="always")
def _has(cards, c):
    return (cards >> np.uint64(c)) & _U1 != _U0


@njit(cache=True, inline="always")
def _lowest_rank(cards, prefer_long):
    """Card of the lowest rank in ``cards`` (-1 if empty); ties: longer suit if ``prefer_long``."""
    best, best_r, best_n = -1, 99, -1
    for s in range(4):
        x = cards & SUIT_MASKS[s]
        if x:
            c = lowest_bit(x)
            r = c - 13 * s
            n = popcount(x) if prefer_long else 0
            if r < best_r or (r == best_r and n > best_n):
                best, best_r, best_n = c, r, n
    return best


@njit(cache=True, inline="always")
def _highest_rank(cards):
    """Card of the highest rank in ``cards`` (-1 if empty); ties: shorter suit."""
    best, best_r, best_n = -1, -1, 99
    for s in range(4):
        x = cards & SUIT_MASKS[s]
        if x:
            c = highest_bit(x)
            r = c - 13 * s
            n = popcount(x)
            if r > best_r or (r == best_r and n < best_n):
                best, best_r, best_n = c, r, n
    return best


@njit(cache=True, inline="always")
def _unseen(obs):
    """Cards this seat has not seen: not in its hand and not played."""
    played = obs.played
    return FULL & ~(obs.hand | played[0] | played[1] | played[2] | played[3])


@njit(cache=True, inline="always")
def _trump_mask(obs):
    return SUIT_MASKS[obs.trumps] if obs.trumps >= 0 else _U0


@njit(cache=True, inline="always")
def _same_side(obs, a, b):
    return ((obs.declarers >> a) & 1) == ((obs.declarers >> b) & 1)


@njit(cache=True, inline="always")
def _legal(obs, action):
    if action < 0:
        return False
    if action < CALL_BASE:
        return _has(obs.legal_cards, action)
    return _has(obs.legal_calls, action - CALL_BASE)


@njit(cache=True, inline="always")
def _trick_winner(obs, trump_mask):
    """Position in play order of the card winning the current trick."""
    cards = obs.trick_cards
    best = 0
    w = np.int64(cards[0])
    for i in range(1, obs.trick_n):
        c = np.int64(cards[i])
        if c // 13 == w // 13:
            if c > w:
                best, w = i, c
        elif _has(trump_mask, c):
            best, w = i, c
    return best


@njit(cache=True)
def _later_can_beat(obs, side, w, out):
    """Whether a player still to play this trick, not on ``side``'s side, may beat card ``w``."""
    led = np.int64(obs.trick_cards[0]) // 13
    ws = w // 13
    tm = _trump_mask(obs)
    for pos in range(obs.trick_n + 1, 4):
        q = (obs.leader + pos) % 4
        if _same_side(obs, q, side):
            continue
        if obs.exposed_hand and ((obs.declarers >> q) & 1):
            cards = obs.exposed_hand
        else:
            cards = out
        if (obs.voids[q] >> led) & 1 == 0 and (cards & SUIT_MASKS[led]):
            if ws == led and (cards & SUIT_MASKS[led] & _above(w)):
                return True
        elif tm and (obs.voids[q] >> obs.trumps) & 1 == 0:
            if ws == obs.trumps:
                if cards & tm & _above(w):
                    return True
            elif cards & tm:
                return True
    return False


@njit(cache=True, inline="always")
def _is_master(c, out):
    """No unseen card of ``c``'s suit ranks above ``c``."""
    return (out & SUIT_MASKS[c // 13] & _above(c)) == _U0


@njit(cache=True, inline="always")
def _lowest_equal(c, hand, out):
    """The lowest card of ``hand`` worth the same as ``c`` (no unseen card between them)."""
    suit = SUIT_MASKS[c // 13]
    lower_out = out & suit & _below(c)
    floor = _above(highest_bit(lower_out)) if lower_out else suit
    return lowest_bit(hand & suit & floor & (_below(c) | _bit(c)))


# -------------------------------------------------------------- hand evaluation


_SUIT13 = np.uint64(0x1FFF)


@njit(cache=True, inline="always")
def _suit_bits(hand, s):
    """The 13 rank bits (2 = bit 0 .. A = bit 12) of ``hand`` in suit ``s``."""
    return (hand >> np.uint64(13 * s)) & _SUIT13


@njit(cache=True, inline="always")
def _top_run(y):
    """Length of the unbroken run from the ace in the rank bits ``y``."""
    gaps = ~y & _SUIT13
    if gaps == _U0:
        return 13
    return 12 - highest_bit(gaps)


@njit(cache=True, inline="always")
def _suit_values(y, king_value, queen_value):
    """(cards, value as a side suit with trumps, value as the trump suit) of rank bits ``y``.

    The same float operations, in the same order, as the per-suit loop of
    ``hand_tricks`` (the run sums are exact halves), so results are identical.
    """
    n = popcount(y)
    run = _top_run(y)
    side = float(min(run, 2)) + 0.5 * float(max(0, run - 2))
    trump = float(run)
    if run == 0 and n >= 2 and (y >> np.uint64(11)) & _U1:
        side += king_value
        trump += king_value
    if run <= 1 and n >= 3 and (y >> np.uint64(10)) & _U1:
        side += queen_value
        trump += queen_value
    trump += max(0, n - 4 - max(0, run - 4))
    trump = min(trump, float(n))
    return n, side, trump


@njit(cache=True, inline="always")
def _suit_tricks(is_trump, n, side, trump):
    """One suit's part of :func:`_tricks_with`: ``(tricks, shortness a ruff may use)``."""
    if is_trump:
        return float(trump), 0.0
    return float(side), float(2 - n) if n < 2 else 0.0


@njit(cache=True, inline="always")
def _tricks_with(t, n0, n1, n2, n3, s0, s1, s2, s3, t0, t1, t2, t3, ruff_value):
    """``hand_tricks`` with trump suit ``t`` (>= 0) from the four suits' ``_suit_values``."""
    v0, h0 = _suit_tricks(t == 0, n0, s0, t0)
    v1, h1 = _suit_tricks(t == 1, n1, s1, t1)
    v2, h2 = _suit_tricks(t == 2, n2, s2, t2)
    v3, h3 = _suit_tricks(t == 3, n3, s3, t3)
    total = 0.0 + v0 + v1 + v2 + v3
    short = 0.0 + h0 + h1 + h2 + h3
    nt = n0 if t == 0 else (n1 if t == 1 else (n2 if t == 2 else n3))
    total += ruff_value * min(short, float(max(0, nt - 3)))
    return total


@njit(cache=True, inline="always")
def hand_tricks(hand, trump, king_value, queen_value, ruff_value):
    """Estimated tricks of ``hand`` with ``trump`` (suit index, -1 for none).

    Per suit: each card of the unbroken run from the ace is a trick (in a
    side suit the third round only half, as it is often ruffed); a king off
    the run is ``king_value`` with a guard, a queen ``queen_value`` with two.
    Trumps add one per card beyond four; spare trumps (beyond three) ruff
    void and singleton side suits at ``ruff_value`` each.
    """
    if trump < 0:
        total = 0.0
        for s in range(4):
            y = _suit_bits(hand, s)
            n = popcount(y)
            run = _top_run(y)
            value = float(run)
            if run == 0 and n >= 2 and (y >> np.uint64(11)) & _U1:
                value += king_value
            if run <= 1 and n >= 3 and (y >> np.uint64(10)) & _U1:
                value += queen_value
            total += value
        return total
    n0, s0, t0 = _suit_values(_suit_bits(hand, 0), king_value, queen_value)
    n1, s1, t1 = _suit_values(_suit_bits(hand, 1), king_value, queen_value)
    n2, s2, t2 = _suit_values(_suit_bits(hand, 2), king_value, queen_value)
    n3, s3, t3 = _suit_values(_suit_bits(hand, 3), king_value, queen_value)
    return _tricks_with(trump, n0, n1, n2, n3, s0, s1, s2, s3, t0, t1, t2, t3, ruff_value)


@njit(cache=True)
def misere_danger(hand, slack):
    """Number of cards that may be forced to win: rank > 2 k + slack, k own lower cards."""
    danger = 0
    for s in range(4):
        y = _suit_bits(hand, s)
        k = 0
        while y:
            danger += np.int64(lowest_bit(y) > 2 * k + slack)
            y &= y - _U1
            k += 1
    return danger


@njit(cache=True, inline="always")
def declared_safe(hand):
    """Every card a sure winner at no trumps with the lead (Abundance Declared).

    In each suit the unbroken run from the ace covers the suit or the most
    cards one opponent could hold.
    """
    for s in range(4):
        y = _suit_bits(hand, s)
        n = popcount(y)
        run = _top_run(y)
        if run < n and run < 13 - n:
            return False
    return True


@njit(cache=True, inline="always")
def _best_trump(hand, params):
    """(suit, estimate) of the best trump suit for ``hand``; ties go to the longer suit."""
    kv, qv, rv = params[P_KING_VALUE], params[P_QUEEN_VALUE], params[P_RUFF_VALUE]
    n0, s0, t0 = _suit_values(_suit_bits(hand, 0), kv, qv)
    n1, s1, t1 = _suit_values(_suit_bits(hand, 1), kv, qv)
    n2, s2, t2 = _suit_values(_suit_bits(hand, 2), kv, qv)
    n3, s3, t3 = _suit_values(_suit_bits(hand, 3), kv, qv)
    best, best_v, best_n = 0, -1.0, -1
    for s in range(4):
        v = _tricks_with(s, n0, n1, n2, n3, s0, s1, s2, s3, t0, t1, t2, t3, rv)
        n = n0 if s == 0 else (n1 if s == 1 else (n2 if s == 2 else n3))
        if v > best_v or (v == best_v and n > best_n):
            best, best_v, best_n = s, v, n
    return best, best_v


@njit(cache=True)
def _solo_call(obs, params, solo_min, with_prop):
    """The highest legal call among the contracts ``obs.hand`` qualifies for, or -1."""
    hand = obs.hand
    turn = obs.turn_up // 13
    calls = obs.legal_calls
    kv, qv, rv = params[P_KING_VALUE], params[P_QUEEN_VALUE], params[P_RUFF_VALUE]
    n0, s0, t0 = _suit_values(_suit_bits(hand, 0), kv, qv)
    n1, s1, t1 = _suit_values(_suit_bits(hand, 1), kv, qv)
    n2, s2, t2 = _suit_values(_suit_bits(hand, 2), kv, qv)
    n3, s3, t3 = _suit_values(_suit_bits(hand, 3), kv, qv)
    est = _tricks_with(turn, n0, n1, n2, n3, s0, s1, s2, s3, t0, t1, t2, t3, rv)
    if _has(calls, ABUNDANCE_DECLARED_CALL - CALL_BASE) and declared_safe(hand):
        return ABUNDANCE_DECLARED_CALL
    if (
        _has(calls, MISERE_OUVERTE_CALL - CALL_BASE)
        and misere_danger(hand, params[P_OUVERTE_SLACK]) == 0
    ):
        return MISERE_OUVERTE_CALL
    if _has(calls, ABUNDANCE_IN_TRUMPS_CALL - CALL_BASE) and est >= params[P_ABUNDANCE_MIN]:
        return ABUNDANCE_IN_TRUMPS_CALL
    if _has(calls, ABUNDANCE_CALL - CALL_BASE):
        best_v = -1.0
        for s in range(4):
            best_v = max(
                best_v, _tricks_with(s, n0, n1, n2, n3, s0, s1, s2, s3, t0, t1, t2, t3, rv)
            )
        if best_v >= params[P_ABUNDANCE_MIN]:
            return ABUNDANCE_CALL
    if (
        _has(calls, MISERE_CALL - CALL_BASE)
        and misere_danger(hand, params[P_MISERE_SLACK]) <= params[P_MISERE_MAX_DANGER]
    ):
        return MISERE_CALL
    if _has(calls, SOLO_CALL - CALL_BASE) and est >= solo_min:
        return SOLO_CALL
    if with_prop:
        if _has(calls, COP - CALL_BASE) and est >= params[P_COP_MIN]:
            return COP
        if _has(calls, PROP - CALL_BASE) and est >= params[P_PROP_MIN]:
            return PROP
    return -1


# ---------------------------------------------------------------------- bidding


@njit(cache=True, inline="always")
def rule_bid(obs, params):
    """Auction: the highest legal contract the hand qualifies for, else Pass."""
    a = _solo_call(obs, params, params[P_SOLO_MIN], True)
    return PASS if a < 0 else a


@njit(cache=True, inline="always")
def rule_cop_offer(obs, params):
    """Cop re-entry: accept the Prop with ``cop_min`` estimated tricks, else Decline."""
    est = hand_tricks(
        obs.hand,
        obs.turn_up // 13,
        params[P_KING_VALUE],
        params[P_QUEEN_VALUE],
        params[P_RUFF_VALUE],
    )
    return COP if est >= params[P_COP_MIN] else DECLINE


@njit(cache=True, inline="always")
def rule_upgrade(obs, params):
    """Lone proposer: a contract it qualifies for (Solo with slack), else Pass."""
    a = _solo_call(obs, params, params[P_SOLO_MIN] - params[P_UPGRADE_SLACK], False)
    return PASS if a < 0 else a


@njit(cache=True, inline="always")
def rule_trump_choice(obs, params):
    """Abundance trumps: the suit with the best estimate (longest on ties)."""
    s, _ = _best_trump(obs.hand, params)
    return TRUMP_BASE + s


# -------------------------------------------------- play: trick-taking contracts


@njit(cache=True, inline="always")
def _card_view(obs):
    """``(hand, seat, unseen cards, trump mask)``: what the card-play rules start from."""
    return obs.hand, obs.seat, _unseen(obs), _trump_mask(obs)


@njit(cache=True, inline="always")
def rule_lead(obs, params):
    """Lead: draw trumps (declaring side), cash a safe master, else low from the longest suit."""
    hand, me, out, tm = _card_view(obs)
    declaring = (obs.declarers >> me) & 1 == 1
    my_trumps = hand & tm
    out_trumps = out & tm
    # Draw trumps: the declaring side with enough trumps while opponents may hold some.
    if declaring and my_trumps and out_trumps:
        if popcount(my_trumps) >= params[P_DRAW_TRUMPS_MIN]:
            top = highest_bit(my_trumps)
            if _is_master(top, out):
                return _lowest_equal(top, hand, out)
            if popcount(my_trumps) >= popcount(out_trumps):
                return lowest_bit(my_trumps)
    # Cash a master in a side suit no opponent can ruff.
    ruff_suits = 0  # suits an opponent has shown out of while it may hold trumps
    if out_trumps:
        voids = obs.voids
        for q in range(4):
            v = np.int64(voids[q])
            if not _same_side(obs, q, me) and (v >> obs.trumps) & 1 == 0:
                ruff_suits |= v
    best, best_n = -1, -1
    for s in range(4):
        x = hand & SUIT_MASKS[s]
        if not x or s == obs.trumps:
            continue
        top = highest_bit(x)
        if not _is_master(top, out):
            continue
        ruff_risk = out_trumps != _U0 and (
            popcount(out & SUIT_MASKS[s]) < 2 or (ruff_suits >> s) & 1 == 1
        )
        if not ruff_risk and popcount(x) > best_n:
            best, best_n = _lowest_equal(top, hand, out), popcount(x)
    if best >= 0:
        return best
    # A master trump drags the opponents' trumps (defenders too).
    if my_trumps and out_trumps and _is_master(highest_bit(my_trumps), out):
        return _lowest_equal(highest_bit(my_trumps), hand, out)
    # Low from the longest side suit (trumps only when nothing else is left).
    side = hand & ~tm
    if not side:
        return lowest_bit(hand)
    best, best_n = -1, -1
    for s in range(4):
        x = side & SUIT_MASKS[s]
        if x and popcount(x) > best_n:
            best, best_n = lowest_bit(x), popcount(x)
    return best


@njit(cache=True, inline="always")
def rule_follow(obs, params):
    """Follow suit: partner's safe winner low, 2nd low / cover, 3rd high, last cheapest."""
    hand, me, out, tm = _card_view(obs)
    led = np.int64(obs.trick_cards[0]) // 13
    follow = hand & SUIT_MASKS[led]
    wpos = _trick_winner(obs, tm)
    w = np.int64(obs.trick_cards[wpos])
    partner_wins = _same_side(obs, (obs.leader + wpos) % 4, me)
    last = obs.trick_n == 3
    low = lowest_bit(follow)
    winners = follow & _above(w) if w // 13 == led else _U0
    if partner_wins:
        if last or not _later_can_beat(obs, me, w, out):
            return low
        # Overtake only with a master that no one after can beat.
        top = highest_bit(follow)
        if winners and _is_master(top, out) and not _later_can_beat(obs, me, top, out):
            return _lowest_equal(top, hand, out)
        return low
    if not winners:
        return low
    cheap = lowest_bit(winners)
    if last:
        return cheap
    if obs.trick_n == 1:  # second hand
        if _is_master(cheap, out) and not _later_can_beat(obs, me, cheap, out):
            return cheap
        if w - 13 * led >= params[P_COVER_RANK]:
            return cheap  # cover an honour
        top = highest_bit(follow)
        if _is_master(top, out) and not _later_can_beat(obs, me, top, out):
            return _lowest_equal(top, hand, out)
        return low
    # Third hand high: the lowest of the top equals.
    top = highest_bit(winners)
    return _lowest_equal(top, hand, out)


@njit(cache=True, inline="always")
def rule_void(obs, params):
    """Out of the led suit: ruff (over-ruff) when the opponents may win, else discard low."""
    hand, me, out, tm = _card_view(obs)
    wpos = _trick_winner(obs, tm)
    w = np.int64(obs.trick_cards[wpos])
    partner_wins = _same_side(obs, (obs.leader + wpos) % 4, me)
    my_trumps = hand & tm
    if my_trumps and (not partner_wins or _later_can_beat(obs, me, w, out)):
        ruffs = my_trumps & _above(w) if _has(tm, w) else my_trumps
        if ruffs:
            return lowest_bit(ruffs)
    side = hand & ~tm
    if side:
        return _lowest_rank(side, True)
    return lowest_bit(hand)


# ------------------------------------------------------------- play: misère


@njit(cache=True, inline="always")
def rule_misere_declarer(obs, params):
    """Misère declarer: duck under the winner, discard the highest, lead the safest low card."""
    hand = obs.hand
    out = _unseen(obs)
    if obs.trick_n == 0:
        best, best_lower, best_r = -1, 99, 99
        for s in range(4):
            x = hand & SUIT_MASKS[s]
            if not x:
                continue
            c = lowest_bit(x)
            others = out & SUIT_MASKS[s]
            all_void = True
            for q in range(4):
                if q != obs.seat and (obs.voids[q] >> s) & 1 == 0:
                    all_void = False
            if not (others & _above(c)) or all_void:
                lower = 50  # sure to win: only if nothing else
            else:
                lower = popcount(others & _below(c))
            r = c - 13 * s
            if lower < best_lower or (lower == best_lower and r < best_r):
                best, best_lower, best_r = c, lower, r
        return best
    led = np.int64(obs.trick_cards[0]) // 13
    follow = hand & SUIT_MASKS[led]
    w = np.int64(obs.trick_cards[_trick_winner(obs, _U0)])
    if follow:
        under = follow & _below(w)
        if under:
            return highest_bit(under)
        if obs.trick_n == 3:
            return highest_bit(follow)  # the trick is lost anyway: shed the top
        return lowest_bit(follow)
    return _highest_rank(hand)


@njit(cache=True, inline="always")
def rule_misere_defender(obs, params):
    """Misère defender: stay under the declarer's card, low before it, unload high cards."""
    hand = obs.hand
    dec = lowest_bit(np.uint64(obs.declarers))
    exposed = obs.exposed_hand
    if obs.trick_n == 0:
        best, best_score = -1, -1e9
        for s in range(4):
            x = hand & SUIT_MASKS[s]
            if not x:
                continue
            c = lowest_bit(x)
            score = -float(c - 13 * s)
            if (obs.voids[dec] >> s) & 1:
                score -= 100.0  # the declarer would discard
            if exposed:
                d = exposed & SUIT_MASKS[s]
                if not d:
                    score -= 100.0
                elif lowest_bit(d) > c:
                    score += 50.0  # the declarer cannot get under
            if score > best_score:
                best, best_score = c, score
        return best
    led = np.int64(obs.trick_cards[0]) // 13
    follow = hand & SUIT_MASKS[led]
    wpos = _trick_winner(obs, _U0)
    w = np.int64(obs.trick_cards[wpos])
    dec_pos = (dec - obs.leader) % 4
    dec_played = dec_pos < obs.trick_n
    if follow:
        if dec_played:
            if wpos == dec_pos:
                under = follow & _below(w)
                if under:
                    return highest_bit(under)
            return highest_bit(follow)
        return lowest_bit(follow)
    return _highest_rank(hand)


# ------------------------------------------------------------------ dispatch


@njit(cache=True)
def rule_action(obs, params, rng):
    """The rule agent's action from the seat's observation record obs (always legal)."""
    phase = obs.phase
    if phase == AUCTION:
        a = rule_bid(obs, params)
    elif phase == COP_OFFER:
        a = rule_cop_offer(obs, params)
    elif phase == UPGRADE:
        a = rule_upgrade(obs, params)
    elif phase == TRUMP_CHOICE:
        a = rule_trump_choice(obs, params)
    elif phase == PLAY:
        lc = obs.legal_cards
        if lc & (lc - _U1) == _U0:
            return lowest_bit(lc) if lc else -1
        misere = obs.contract == MISERE or obs.contract == MISERE_OUVERTE
        if misere:
            if (obs.declarers >> obs.seat) & 1:
                a = rule_misere_declarer(obs, params)
            else:
                a = rule_misere_defender(obs, params)
        elif obs.trick_n == 0:
            a = rule_lead(obs, params)
        elif obs.hand & SUIT_MASKS[np.int64(obs.trick_cards[0]) // 13]:
            a = rule_follow(obs, params)
        else:
            a = rule_void(obs, params)
    else:
        a = -1
    if _legal(obs, a):
        return a
    if obs.legal_cards:
        return lowest_bit(obs.legal_cards)
    if obs.legal_calls:
        return CALL_BASE + lowest_bit(obs.legal_calls)
    return -1
