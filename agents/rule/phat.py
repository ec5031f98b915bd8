"""Rule-based Phat agent: classic whist card play tuned to Phat's scoring.

Phat has no auction: the only "contract" decision is the pitch (the first
lead sets trumps). Every other decision is card play, and points come from
the phat cards (9s and 5s, trump honours) won in tricks, plus a small muck
bonus (10s and honours). The agent reads only its seat's observation record
(own hand, the trick, cards played per seat, known voids, trumps).

Named rules (each a small compiled function below):

``choose_pitch``
    As pitcher, pick trumps in the suit with the best length/honours and a
    protected 9 or 5; pitch its ace if held, else a low card without value.
``lead_draw_trumps``
    Lead the boss trump (higher than every unseen trump) while opponents may
    still hold trumps: it wins the trick and pulls their trumps (maybe phat).
``lead_boss_side``
    Lead a boss card of a side suit that the opponents are not known (or
    likely) to ruff.
``lead_to_partner_void``
    Lead low in a suit where partner has shown out (and may ruff) while the
    opponents have not.
``lead_low``
    Otherwise lead the cheapest card (no phat, no muck, not a trump).
``feed_partner``
    Partner's card is sure to win: throw the most valuable card (9s, 5s,
    10s; the trump 9/5 if held), keeping trumps and bosses.
``win_last``
    Fourth in hand: take the trick with the best winner (a phat card if it
    wins, else the cheapest); ruff only a trick worth ``ruff_min``.
``win_safe``
    Second or third in hand: win with a card no remaining opponent can beat
    (counting unseen cards and known or likely voids), cheapest first.
``third_hand_high``
    Third in hand, opponent winning, no safe winner: play the lowest card
    that beats the current winner if it carries no phat (force the fourth).
``duck_low``
    Otherwise play the card losing least: low, no phat (protect the 9s and
    5s), no muck, no trump (second hand low, discard low).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from trickgym.cards.bits import bit, highest_bit, lowest_bit, popcount
from trickgym.cards.decks import STANDARD
from trickgym.games.phat.constants import MUCK, PHAT_PLAIN, PHAT_TRUMP

__all__ = [
    "RuleOptions",
    "choose_pitch",
    "duck_low",
    "feed_partner",
    "lead_boss_side",
    "lead_draw_trumps",
    "lead_low",
    "lead_to_partner_void",
    "rule_action",
    "third_hand_high",
    "win_last",
    "win_safe",
]


@dataclass(frozen=True)
class RuleOptions:
    """Thresholds of the Phat rule agent's heuristics (a parameter row, in this order).

    len_weight:
        Pitch: score per card of length in a candidate trump suit.
    honour_weight:
        Pitch: score per honour point (A 3, K 2, Q 1) in the suit.
    nine_bonus:
        Pitch: bonus for holding the suit's 9 (Big Phat) with protection.
    five_bonus:
        Pitch: bonus for holding the suit's 5 (Little Phat) with protection.
    protect_len:
        A 9 or 5 counts as protected with this many cards in the suit (or
        with the ace or king).
    muck_weight:
        Worth of one muck point relative to one phat point in card values.
    keep_trump:
        Cost of giving up a trump (its ruffing power) when feeding, winning
        or discarding.
    trump_rank_weight:
        Extra cost per rank step of a trump given up (keep high trumps).
    keep_boss:
        Cost of giving up a side-suit card that is the boss of its suit.
    ruff_min:
        Least trick value (phat + muck_weight * muck) worth a ruff.
    ruff_risk_len:
        An opponent not known void in the led suit is still feared to ruff
        when fewer than this many cards of the suit are unseen.
    draw_min_trumps:
        Trumps needed in hand to lead the boss trump (draw trumps).
    overtake_min:
        Third hand overtakes partner's unsafe winner with a safe card only
        for a trick worth at least this.
    """

    len_weight: float = 1.0
    honour_weight: float = 0.5
    nine_bonus: float = 2.0
    five_bonus: float = 1.0
    protect_len: float = 3.0
    muck_weight: float = 0.4
    keep_trump: float = 3.0
    trump_rank_weight: float = 1.0
    keep_boss: float = 3.0
    ruff_min: float = 1.0
    ruff_risk_len: float = 1.0
    draw_min_trumps: float = 1.0
    overtake_min: float = 5.0


# Index of each option in the parameter row.
P_LEN_WEIGHT = 0
P_HONOUR_WEIGHT = 1
P_NINE_BONUS = 2
P_FIVE_BONUS = 3
P_PROTECT_LEN = 4
P_MUCK_WEIGHT = 5
P_KEEP_TRUMP = 6
P_TRUMP_RANK_WEIGHT = 7
P_KEEP_BOSS = 8
P_RUFF_MIN = 9
P_RUFF_RISK_LEN = 10
P_DRAW_MIN_TRUMPS = 11
P_OVERTAKE_MIN = 12

SUIT_OF = STANDARD.suit_of.copy()
SUIT_MASKS = STANDARD.suit_masks.copy()
_PHAT_TRUMP = np.array(PHAT_TRUMP, dtype=np.float64)
_PHAT_PLAIN = np.array(PHAT_PLAIN, dtype=np.float64)
_MUCK = np.array(MUCK, dtype=np.float64)
_PITCH_HONOUR = np.array([0.0] * 10 + [1.0, 2.0, 3.0], dtype=np.float64)  # by rank: Q K A
_FULL = np.uint64((1 << 52) - 1)
_U0 = np.uint64(0)
_U1 = np.uint64(1)
R_FIVE = 3  # rank indices (2 is rank 0)
R_NINE = 7
R_TEN = 8
R_KING = 11
R_ACE = 12
NONE = -1


def _ranks(ranks) -> np.uint64:
    """The cards of the given rank indices in every suit."""
    return np.uint64(sum(1 << (13 * s + r) for s in range(4) for r in ranks))


_BLANK = _ranks((0, 1, 2, 4, 5, 6))  # no phat, no muck: 2-4, 6-8
_HIGH = _ranks(range(R_TEN, 13))  # T J Q K A
_NOT_PHAT = _ranks((0, 1, 2, 4, 5, 6, 8, 9, 10, 11, 12))  # all but the 9s and 5s
_LOW_NOT_PHAT = _ranks((0, 1, 2, 4, 5, 6, 8))  # ... and below the jack
_RANK_ROW = _ranks((0,))  # the 2s; shifted left by r: the cards of rank r
_RANK_BITS = np.uint64((1 << 13) - 1)
# Smearing masks: the cards that may receive a bit from k ranks higher in their suit.
_SMEAR1 = _ranks(range(12))
_SMEAR2 = _ranks(range(11))
_SMEAR4 = _ranks(range(9))
_SMEAR8 = _ranks(range(5))


# ------------------------------------------------------------------- helpers


@njit(cache=True, inline="always")
def _has(mask, card):
    return (mask >> np.uint64(card)) & _U1 != _U0


@njit(cache=True, inline="always")
def card_value(card, trumps, mw):
    """Points a trick gains from ``card``: its phat plus ``mw`` times its muck."""
    if card // 13 == trumps:
        return _PHAT_TRUMP[card] + mw * _MUCK[card]
    return _PHAT_PLAIN[card] + mw * _MUCK[card]


@njit(cache=True, inline="always")
def unseen_cards(obs):
    """Cards neither in our hand nor played: held by the other three seats."""
    p = obs.played
    return _FULL & ~(obs.hand | p[0] | p[1] | p[2] | p[3])


@njit(cache=True, inline="always")
def above(card):
    """Cards of ``card``'s suit ranked above it."""
    return SUIT_MASKS[card // 13] & ~((bit(card) << _U1) - _U1)


@njit(cache=True, inline="always")
def bosses(unseen):
    """Cards with no unseen card of their suit above them (``above(c) & unseen == 0``)."""
    x = (unseen >> np.uint64(1)) & _SMEAR1  # unseen cards one rank higher
    x |= (x >> np.uint64(1)) & _SMEAR1
    x |= (x >> np.uint64(2)) & _SMEAR2
    x |= (x >> np.uint64(4)) & _SMEAR4
    x |= (x >> np.uint64(8)) & _SMEAR8
    return _FULL & ~x


@njit(cache=True, inline="always")
def _keep(card, trumps, boss, params):
    if card // 13 == trumps:
        return params[P_KEEP_TRUMP] + params[P_TRUMP_RANK_WEIGHT] * (card % 13)
    if _has(boss & _HIGH, card):
        return params[P_KEEP_BOSS]
    return 0.0


@njit(cache=True)
def keep_cost(card, trumps, unseen, params):
    """What giving up ``card`` costs in future tricks (trumps, side-suit bosses)."""
    return _keep(card, trumps, bosses(unseen), params)


@njit(cache=True, inline="always")
def trick_state(obs, trump_mask):
    """``(winning position, winning card)`` of the trick so far."""
    wpos = 0
    wcard = np.int64(obs.trick_cards[0])
    for i in range(1, obs.trick_n):
        c = np.int64(obs.trick_cards[i])
        if c // 13 == wcard // 13:
            if c > wcard:
                wpos, wcard = i, c
        elif _has(trump_mask, c):
            wpos, wcard = i, c
    return wpos, wcard


@njit(cache=True, inline="always")
def trick_value(obs, trumps, mw):
    """Value (phat + ``mw`` * muck) of the cards in the current trick."""
    v = 0.0
    for i in range(obs.trick_n):
        v += card_value(np.int64(obs.trick_cards[i]), trumps, mw)
    return v


@njit(cache=True, inline="always")
def beats(card, wcard, trump_mask):
    """Whether ``card`` beats the trick's winning card ``wcard``."""
    if card // 13 == wcard // 13:
        return card > wcard
    return _has(trump_mask, card)


@njit(cache=True, inline="always")
def _beaters(cards, wcard, trumps):
    """The cards of ``cards`` that beat the winning card ``wcard`` (see ``beats``)."""
    if wcard // 13 == trumps:
        return cards & above(wcard)
    return cards & (above(wcard) | SUIT_MASKS[trumps])


@njit(cache=True, inline="always")
def may_ruff(obs, seat, led, trumps, unseen, params):
    """Whether ``seat`` may be out of suit ``led`` and hold a trump."""
    if trumps < 0 or led == trumps or obs.voids[seat] >> trumps & 1:
        return False
    if unseen & SUIT_MASKS[trumps] == _U0:
        return False
    if obs.voids[seat] >> led & 1:
        return True
    return popcount(unseen & SUIT_MASKS[led]) < params[P_RUFF_RISK_LEN]


@njit(cache=True, inline="always")
def _holding(obs, led, trumps, unseen, boss, params):
    """The cards of suit ``led`` or trumps that, winning once we play, stay winning.

    Only the opponents still to play after us are feared; they may hold any
    unseen card of a suit they have not shown out of.
    """
    team = obs.seat % 2
    trump_ok = SUIT_MASKS[trumps]
    side_ok = _U0 if led == trumps else SUIT_MASKS[led]
    for pos in range(obs.trick_n + 1, 4):
        s = (obs.leader + pos) % 4
        if s % 2 == team:
            continue
        if led == trumps:
            if not (obs.voids[s] >> trumps & 1):
                trump_ok &= boss
        elif may_ruff(obs, s, led, trumps, unseen, params):
            trump_ok &= boss
            side_ok = _U0
        elif not (obs.voids[s] >> led & 1):
            side_ok &= boss
    return trump_ok | side_ok


@njit(cache=True)
def holds_against(obs, card, led, trumps, unseen, params):
    """Whether ``card`` (of suit ``led`` or trumps), winning the trick once we play, stays
    winning against the opponents still to play after us."""
    return _has(_holding(obs, led, trumps, unseen, bosses(unseen), params), card)


@njit(cache=True, inline="always")
def _lowest_blank(cards):
    """Lowest-ranked card of ``cards & _BLANK`` (lowest suit on ties), or NONE."""
    b = cards & _BLANK
    if b == _U0:
        return NONE
    ranks = (b | (b >> np.uint64(13)) | (b >> np.uint64(26)) | (b >> np.uint64(39))) & _RANK_BITS
    return lowest_bit(b & (_RANK_ROW << np.uint64(lowest_bit(ranks))))


@njit(cache=True, inline="always")
def _best(cards, trumps, boss, params, mode):
    """Argmax over ``cards`` of a score; ties go to the lowest card.

    ``mode`` 0: value - keep (feeding, winning); 1: -(value + keep) (ducking).
    """
    mw = params[P_MUCK_WEIGHT]
    if (
        mode == 1
        and mw >= 0.0
        and params[P_KEEP_BOSS] >= 0.0
        and params[P_TRUMP_RANK_WEIGHT] >= 0.0
        and params[P_KEEP_TRUMP] >= 0.07
    ):
        # Every blank side card (score -0.01 * rank >= -0.06) beats every other card.
        tm = SUIT_MASKS[trumps] if trumps >= 0 else _U0
        c = _lowest_blank(cards & ~tm)
        if c != NONE:
            return c
    best, best_score = NONE, -1e300
    bits = cards
    while bits:
        c = lowest_bit(bits)
        bits &= bits - _U1
        v = card_value(c, trumps, mw)
        k = _keep(c, trumps, boss, params)
        score = v - k if mode == 0 else -(v + k) - 0.01 * (c % 13)
        if score > best_score + 1e-9:
            best, best_score = c, score
    return best


@njit(cache=True)
def best_by_score(cards, trumps, unseen, params, mode):
    """Argmax over ``cards`` of a score; ties go to the lowest card.

    ``mode`` 0: value - keep (feeding, winning); 1: -(value + keep) (ducking).
    """
    return _best(cards, trumps, bosses(unseen), params, mode)


# --------------------------------------------------------------------- rules


@njit(cache=True)
def choose_pitch(obs, params):
    """The pitch: ace or a low blank card of the best trump suit (or NONE)."""
    hand = obs.hand
    best_suit, best_score = -1, -1e300
    for s in range(4):
        cards = hand & SUIT_MASKS[s]
        n = popcount(cards)
        if n == 0:
            continue
        score = params[P_LEN_WEIGHT] * n
        bits = cards
        while bits:
            c = lowest_bit(bits)
            bits &= bits - _U1
            score += params[P_HONOUR_WEIGHT] * _PITCH_HONOUR[c % 13]
        top = _has(hand, 13 * s + R_ACE) or _has(hand, 13 * s + R_KING)
        protected = n >= params[P_PROTECT_LEN] or top
        if protected and _has(hand, 13 * s + R_NINE):
            score += params[P_NINE_BONUS]
        if protected and _has(hand, 13 * s + R_FIVE):
            score += params[P_FIVE_BONUS]
        if score > best_score:
            best_suit, best_score = s, score
    if best_suit < 0:
        return NONE
    cards = hand & SUIT_MASKS[best_suit]
    ace = 13 * best_suit + R_ACE
    if _has(cards, ace):
        return ace
    # Low card without phat or muck: ranks 2-4, 6-8.
    if cards & _BLANK:
        return lowest_bit(cards & _BLANK)
    return lowest_bit(cards)


@njit(cache=True, inline="always")
def lead_draw_trumps(obs, trumps, unseen, params):
    """Lead the boss trump while the opponents may hold trumps (or NONE)."""
    tm = SUIT_MASKS[trumps]
    mine = obs.hand & tm
    if mine == _U0 or popcount(mine) < params[P_DRAW_MIN_TRUMPS]:
        return NONE
    if unseen & tm == _U0:
        return NONE
    me = obs.seat
    if obs.voids[(me + 1) % 4] >> trumps & 1 and obs.voids[(me + 3) % 4] >> trumps & 1:
        return NONE
    top = highest_bit(mine)
    if above(top) & unseen:
        return NONE
    return top


@njit(cache=True, inline="always")
def lead_boss_side(obs, trumps, unseen, params):
    """Lead a side-suit boss the opponents are not expected to ruff (or NONE)."""
    me = obs.seat
    boss = bosses(unseen)
    best, best_left = NONE, -1
    for s in range(4):
        if s == trumps:
            continue
        mine = obs.hand & SUIT_MASKS[s]
        if mine == _U0:
            continue
        top = highest_bit(mine)
        if not _has(boss, top):
            continue
        if may_ruff(obs, (me + 1) % 4, s, trumps, unseen, params):
            continue
        if may_ruff(obs, (me + 3) % 4, s, trumps, unseen, params):
            continue
        left = popcount(unseen & SUIT_MASKS[s])
        if left > best_left:
            best, best_left = top, left
    return best


@njit(cache=True)
def _cheapest_blank(cards, trumps):
    """Lowest card of ``cards`` with no phat and no muck (ranks 2-4, 6-8), or NONE."""
    if trumps >= 0:
        cards &= ~SUIT_MASKS[trumps]
    return _lowest_blank(cards)


@njit(cache=True, inline="always")
def lead_to_partner_void(obs, trumps, unseen, params):
    """Lead low where partner has shown out and may ruff, the opponents not (or NONE)."""
    me = obs.seat
    partner = (me + 2) % 4
    pv = np.int64(obs.voids[partner])
    if pv >> trumps & 1:
        return NONE
    opp_void = np.int64(obs.voids[(me + 1) % 4]) | np.int64(obs.voids[(me + 3) % 4])
    for s in range(4):
        if s == trumps or not (pv >> s & 1) or opp_void >> s & 1:
            continue
        blank = obs.hand & SUIT_MASKS[s] & _BLANK
        if blank:
            return lowest_bit(blank)
    return NONE


@njit(cache=True, inline="always")
def lead_low(obs, trumps, unseen, params):
    """The cheapest lead: a blank side card from the longest suit, else least loss."""
    best, best_len = NONE, -1
    hand = obs.hand
    for s in range(4):
        if s == trumps:
            continue
        mine = hand & SUIT_MASKS[s]
        blank = mine & _BLANK
        if blank and popcount(mine) > best_len:
            best, best_len = lowest_bit(blank), popcount(mine)
    if best != NONE:
        return best
    return best_by_score(obs.legal_cards, trumps, unseen, params, 1)


@njit(cache=True)
def feed_partner(obs, trumps, unseen, params):
    """Throw partner's sure trick the most valuable card, keeping trumps and bosses."""
    return best_by_score(obs.legal_cards, trumps, unseen, params, 0)


@njit(cache=True, inline="always")
def _win_last(obs, wcard, value, trumps, boss, params):
    winners = _beaters(obs.legal_cards, wcard, trumps)
    if winners == _U0:
        return NONE
    best = _best(winners, trumps, boss, params, 0)
    led = np.int64(obs.trick_cards[0]) // 13
    if led != trumps and winners & SUIT_MASKS[trumps] == winners and value < params[P_RUFF_MIN]:
        if card_value(best, trumps, params[P_MUCK_WEIGHT]) < params[P_RUFF_MIN]:
            return NONE  # a worthless trick: keep the trump
    return best


@njit(cache=True)
def win_last(obs, wcard, value, trumps, unseen, params):
    """Fourth hand: take the trick with the best winner (or NONE if not worth it)."""
    return _win_last(obs, wcard, value, trumps, bosses(unseen), params)


@njit(cache=True, inline="always")
def _win_safe(obs, wcard, value, trumps, holding, boss, params, partner_winning):
    if partner_winning and value < params[P_OVERTAKE_MIN]:
        return NONE
    safe = _beaters(obs.legal_cards, wcard, trumps) & holding
    if safe == _U0:
        return NONE
    led = np.int64(obs.trick_cards[0]) // 13
    if led != trumps and safe & SUIT_MASKS[trumps] == safe and value < params[P_RUFF_MIN]:
        return NONE
    return _best(safe, trumps, boss, params, 0)


@njit(cache=True)
def win_safe(obs, wcard, value, trumps, unseen, params, partner_winning):
    """Second or third hand: the best winner no opponent still to play can beat (or NONE)."""
    led = np.int64(obs.trick_cards[0]) // 13
    boss = bosses(unseen)
    holding = _holding(obs, led, trumps, unseen, boss, params)
    return _win_safe(obs, wcard, value, trumps, holding, boss, params, partner_winning)


@njit(cache=True, inline="always")
def third_hand_high(obs, wcard, trumps):
    """Third hand, opponent winning: the lowest winner carrying no phat (or NONE).

    Forces the fourth hand's honours without risking a 9 or 5 (or a trump honour).
    """
    led = np.int64(obs.trick_cards[0]) // 13
    if wcard // 13 != led:
        return NONE  # trumped: no card of the led suit beats it
    ok = _LOW_NOT_PHAT if led == trumps else _NOT_PHAT
    cands = obs.legal_cards & above(wcard) & ok
    if cands == _U0:
        return NONE
    return lowest_bit(cands)


@njit(cache=True)
def duck_low(obs, trumps, unseen, params):
    """The card losing least: low, blank, not a trump, not a boss."""
    return best_by_score(obs.legal_cards, trumps, unseen, params, 1)


# ------------------------------------------------------------------- driver


@njit(cache=True, inline="always")
def _lead(obs, params):
    trumps = np.int64(obs.trumps)
    if trumps < 0:
        return choose_pitch(obs, params)
    unseen = unseen_cards(obs)
    c = lead_draw_trumps(obs, trumps, unseen, params)
    if c == NONE:
        c = lead_boss_side(obs, trumps, unseen, params)
    if c == NONE:
        c = lead_to_partner_void(obs, trumps, unseen, params)
    if c == NONE:
        c = lead_low(obs, trumps, unseen, params)
    return c


@njit(cache=True, inline="always")
def _follow(obs, params):
    trumps = np.int64(obs.trumps)
    tm = SUIT_MASKS[trumps]
    unseen = unseen_cards(obs)
    boss = bosses(unseen)
    wpos, wcard = trick_state(obs, tm)
    wseat = (obs.leader + wpos) % 4
    partner_winning = wseat % 2 == obs.seat % 2
    if obs.trick_n == 3:
        if partner_winning:
            return _best(obs.legal_cards, trumps, boss, params, 0)  # feed_partner
        value = trick_value(obs, trumps, params[P_MUCK_WEIGHT])
        c = _win_last(obs, wcard, value, trumps, boss, params)
        if c != NONE:
            return c
        return _best(obs.legal_cards, trumps, boss, params, 1)  # duck_low
    led = np.int64(obs.trick_cards[0]) // 13
    holding = _holding(obs, led, trumps, unseen, boss, params)
    if partner_winning and _has(holding, wcard):
        return _best(obs.legal_cards, trumps, boss, params, 0)  # feed_partner
    value = trick_value(obs, trumps, params[P_MUCK_WEIGHT])
    c = _win_safe(obs, wcard, value, trumps, holding, boss, params, partner_winning)
    if c != NONE:
        return c
    if obs.trick_n == 2 and not partner_winning:
        c = third_hand_high(obs, wcard, trumps)
        if c != NONE:
            return c
    return _best(obs.legal_cards, trumps, boss, params, 1)  # duck_low


@njit(cache=True)
def rule_action(obs, params, rng):
    """The rule agent's card for the seat's observation ``obs`` (always legal)."""
    legal = obs.legal_cards
    if legal & (legal - _U1) == _U0:
        return lowest_bit(legal) if legal else 0  # no choice
    if obs.trick_n == 0:
        c = _lead(obs, params)
    else:
        c = _follow(obs, params)
    if c < 0 or c >= 52 or not _has(legal, c):
        return lowest_bit(legal)
    return c
