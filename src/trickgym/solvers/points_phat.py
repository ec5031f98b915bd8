"""Phat's hooks for the point-trick solver (named by ``trickgym.games.phat.description``).

The value is a **terminal utility true to the race to 181** (rules §5,
PH-D4), from the pitcher's team's view, on one scale (``v`` below):

- the pitcher's team reaches the target (mid-deal, or by the muck bonus
  after trick 13): ``v >= RACE_WON`` (81), precisely ``RACE_WON + 80 - the
  other team's phat`` at that moment;
- the other team reaches it: ``v <= RACE_LOST`` (-1), precisely
  ``RACE_LOST - 80 + the pitcher's team's phat`` at that moment;
- nobody does: the pitcher's team's phat of the deal, ``0..80``.

Every won value is above every phat and every lost value below, so a
consumer reads the outcome off ``v >= RACE_WON`` / ``v <= RACE_LOST``
(:func:`race_outcome`); a payoff that is any non-decreasing function of
the outcome class (``trickgym.solvers.phat_race.phat_utility``) has the same
minimax as ``v``. The refinement inside a class (rather than one constant
per class) keeps the value *to come* a function of the rest of the deal
only: ``RACE_WON + 80 - other's phat`` less the pitcher's team's phat so
far is ``RACE_WON + phat still in play - the other's phat to come``, so
positions that share a table key (relative ranks) never need the phat
already won in their key; and it stays monotone under the solver's
"richest card into a settled trick" rule (a side that takes points
earlier reaches the target no later, with the other side holding no more).

The game's own target stays in force in the solver's copy (the kernel ends
the deal at the target, ``game_over`` and ``winner`` set). The muck bonus
enters the search only where it can decide the race at the deal's end; it
does not enter ``v`` otherwise (who took the bonus of a deal that leaves
both teams short of the target is left to the payoff, as a probability).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards.bits import popcount
from ..games.phat.constants import DEAL_OVER, MUCK, MUCK_BONUS, PHAT_PLAIN, PHAT_TRUMP
from ..games.phat.rules import SUIT_MASKS, SUIT_OF, phat_value
from ..tricks.whist import whist_beats
from .points_common import (
    hash_word,
    masters,
    point_hooks,
    position_key,
    relative_key,
    whist_winner,
)

__all__ = [
    "MUCK_HALF",
    "POINT_HOOKS",
    "RACE_LOST",
    "RACE_WON",
    "TOTAL_MUCK",
    "TOTAL_PHAT",
    "V_MAX",
    "V_MIN",
    "race_live",
    "race_outcome",
]

TOTAL_PHAT = 80
TOTAL_MUCK = 80
MUCK_HALF = 40  # more than this takes the bonus (PH-D2)
#: The lowest value of a deal the pitcher's team wins the game in (``v >= RACE_WON``).
RACE_WON = TOTAL_PHAT + 1
#: The highest value of a deal the other team wins the game in (``v <= RACE_LOST``).
RACE_LOST = -1
#: The value's range: ``RACE_LOST - 80 .. RACE_WON + 80``.
V_MIN = RACE_LOST - TOTAL_PHAT
V_MAX = RACE_WON + TOTAL_PHAT

_BIG = np.int64(1 << 14)  # needs (<= the target, at most 10000) and bonuses are clamped here
_MUCK_OWN = 0xFF  # the muck bonus is the pitcher's team's whatever is played
_MUCK_OTHER = 0xFE  # ... the other team's


def _point_classes():
    # Row t: the cards of each nonzero phat value when suit t is trumps (one mask a value).
    values = sorted(set(PHAT_TRUMP) | set(PHAT_PLAIN) - {0})
    out = np.zeros((4, len(values)), dtype=np.uint64)
    for t in range(4):
        for c in range(len(PHAT_TRUMP)):
            v = PHAT_TRUMP[c] if SUIT_OF[c] == t else PHAT_PLAIN[c]
            if v:
                out[t, values.index(v)] |= np.uint64(1 << c)
    return out


def _muck_classes():
    values = sorted(set(MUCK) - {0})
    out = np.zeros(len(values), dtype=np.uint64)
    for c, v in enumerate(MUCK):
        if v:
            out[values.index(v)] |= np.uint64(1 << c)
    return out


_CLASSES = _point_classes()
_VALUES = np.array(sorted(set(PHAT_TRUMP) | set(PHAT_PLAIN) - {0}), dtype=np.int64)
_MUCK_CLASSES = _muck_classes()
_MUCK_CARDS = np.uint64(np.bitwise_or.reduce(_MUCK_CLASSES))
# Phat and muck classes together: the key of a position where the muck can decide the race.
_BOTH_CLASSES = np.concatenate([_CLASSES, np.tile(_MUCK_CLASSES, (4, 1))], axis=1)


@njit(cache=True)
def race_outcome(v):
    """1 if value ``v`` is a game won by the pitcher's team, -1 if lost, 0 if the race goes on."""
    return 1 if v >= RACE_WON else (-1 if v <= RACE_LOST else 0)


@njit(cache=True)
def _in_side(st, seat):
    return seat % 2 == st.pitcher % 2


@njit(cache=True)
def _side_points(st):
    s = st.pitcher % 2
    if st.phase == DEAL_OVER and st.game_over:
        if st.winner == s:
            return np.int64(RACE_WON + TOTAL_PHAT - st.phat[1 - s])
        return np.int64(RACE_LOST - TOTAL_PHAT + st.phat[s])
    return np.int64(st.phat[s])


@njit(cache=True, inline="always")
def _muck_left(st):
    return np.int64(TOTAL_MUCK - st.muck[0] - st.muck[1])


@njit(cache=True, inline="always")
def _bonus(st):
    return min(np.int64(MUCK_BONUS) + np.int64(st.carry), _BIG)


@njit(cache=True, inline="always")
def _need(st, team):
    return min(np.int64(st.target) - np.int64(st.scores[team]), _BIG)


@njit(cache=True)
def race_live(st):
    """Whether a team may still reach the target in this deal (with all the phat still in
    play and the muck bonus): only then does the race enter the value."""
    cap = np.int64(TOTAL_PHAT - st.phat[0] - st.phat[1]) + _bonus(st)
    return _need(st, 0) <= cap or _need(st, 1) <= cap


@njit(cache=True, inline="always")
def _muck_open(st):
    # Neither team has more than half the muck yet: the bonus still depends on the play.
    return st.muck[0] <= MUCK_HALF and st.muck[1] <= MUCK_HALF


@njit(cache=True)
def _bounds(st):
    left = np.int64(TOTAL_PHAT - st.phat[0] - st.phat[1])
    s = st.pitcher % 2
    mine = np.int64(0)
    theirs = np.int64(0)
    if st.trumps >= 0 and st.trick_n == 0:  # masters at trick boundaries only: cheap nodes
        # Master trumps: their phat is their side's whatever is played.
        side = st.hands[s] | st.hands[s + 2]
        other = st.hands[1 - s] | st.hands[3 - s]
        m, t = masters(side | _played(st, s), other | _played(st, 1 - s), st.trump_mask, 0)
        mine = _phat_of(m & side, st.trumps)
        theirs = _phat_of(t & other, st.trumps)
    if not race_live(st):
        return mine, left - theirs
    # Whether each team can still reach the target: phat it may take, then the bonus if
    # its muck may still pass half.
    muck_left = _muck_left(st)
    bonus = _bonus(st)
    need_own = _need(st, s)
    need_other = _need(st, 1 - s)
    own_max = left - theirs + (bonus if st.muck[s] + muck_left > MUCK_HALF else 0)
    other_max = left - mine + (bonus if st.muck[1 - s] + muck_left > MUCK_HALF else 0)
    own_reach = need_own <= own_max
    other_reach = need_other <= other_max
    # A team whose master trumps alone reach the target wins once the other cannot.
    if need_own <= mine and not other_reach:
        return np.int64(RACE_WON + mine), np.int64(RACE_WON + left)
    if need_other <= theirs and not own_reach:
        return np.int64(V_MIN), np.int64(V_MIN + left - theirs)
    lo = np.int64(V_MIN) if other_reach else mine
    hi = np.int64(RACE_WON + left) if own_reach else left - theirs
    return lo, hi


@njit(cache=True, inline="always")
def _played(st, team):
    # The trick's cards of one team: they contest the trick the hands' cards may join.
    out = np.uint64(0)
    for i in range(st.trick_n):
        if (st.leader + i) % 2 == team:
            out |= np.uint64(1) << np.uint64(st.trick_cards[i])
    return out


@njit(cache=True, inline="always")
def _phat_of(cards, trumps):
    total = np.int64(0)
    for i in range(_VALUES.shape[0]):
        total += _VALUES[i] * popcount(cards & _CLASSES[trumps, i])
    return total


@njit(cache=True)
def _race_word(st):
    """What the rest of the deal depends on beyond the cards: 0 while the race is out of
    reach; else each team's points still needed (capped where out of reach), the bonus
    and the pitcher's team's muck (or who has the bonus for sure)."""
    if not race_live(st):
        return np.uint64(0)
    s = st.pitcher % 2
    bonus = _bonus(st)
    cap = np.int64(TOTAL_PHAT - st.phat[0] - st.phat[1]) + bonus + 1
    if st.muck[s] > MUCK_HALF:
        muck = _MUCK_OWN
    elif st.muck[1 - s] > MUCK_HALF:
        muck = _MUCK_OTHER
    else:
        muck = np.int64(st.muck[s])
    return (
        np.uint64(min(_need(st, s), cap))
        | np.uint64(min(_need(st, 1 - s), cap)) << np.uint64(14)
        | np.uint64(bonus) << np.uint64(28)
        | np.uint64(muck) << np.uint64(42)
        | np.uint64(1) << np.uint64(63)
    )


@njit(cache=True)
def _key(st):
    info = st.leader | (st.trumps + 1) << 4 | (st.pitcher % 2) << 8 | 1 << 12
    race = _race_word(st)
    if st.trumps < 0:  # before the pitch a card's points are not known yet
        k1, k2 = position_key(st.hands, 4, info)
    elif race != 0 and _muck_open(st):  # the muck of each place counts too
        k1, k2 = relative_key(
            st.hands, 4, info, SUIT_MASKS, _BOTH_CLASSES[st.trumps], np.uint64(0), False
        )
    else:
        k1, k2 = relative_key(
            st.hands, 4, info, SUIT_MASKS, _CLASSES[st.trumps], np.uint64(0), False
        )
    if race == 0:
        return k1, k2
    return hash_word(k1, k2, race)


@njit(cache=True)
def _fixed(st):
    # Where the muck can still decide the race a card is worth its phat and its muck, two
    # counts no one order ranks: no chain merges or settles such cards (see points_search).
    if _muck_open(st) and race_live(st):
        return (st.hands[0] | st.hands[1] | st.hands[2] | st.hands[3]) & _MUCK_CARDS
    return np.uint64(0)


@njit(cache=True)
def _points(st, card):
    # Before the pitch a card is valued as the trump it would make.
    return phat_value(card, st.trumps if st.trumps >= 0 else SUIT_OF[card])


@njit(cache=True)
def _suit(st, card):
    return SUIT_MASKS[SUIT_OF[card]]


@njit(cache=True)
def _wins_now(st, card):
    return st.trick_n == 0 or whist_beats(card, st.trick_cards[st.win_pos], SUIT_OF, st.trump_mask)


@njit(cache=True)
def _beaters(st, card):
    # Cards that would beat ``card`` (-1: the trick's winning card) played after it.
    if card < 0:
        card = st.trick_cards[st.win_pos]
    above = SUIT_MASKS[SUIT_OF[card]] & ~((np.uint64(2) << np.uint64(card)) - np.uint64(1))
    if (st.trump_mask >> np.uint64(card)) & np.uint64(1):
        return above
    return above | st.trump_mask


#: The point-trick solver's hooks of the game protocol (see :mod:`trickgym.protocol`); the
#: default ``prepare`` (nothing): the game's target stays in force in the solver's copy.
POINT_HOOKS = point_hooks(
    _in_side,
    _side_points,
    _bounds,
    _key,
    _points,
    _suit,
    _wins_now,
    _fixed,
    _beaters,
    winner=whist_winner,
)
