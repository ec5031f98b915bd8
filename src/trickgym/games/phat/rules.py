"""Phat rules as numba kernels over one ``STATE_DTYPE`` record.

Section numbers and ``PH-Dn`` refer to ``docs/rules/phat.md``. A match is
one record: games of races to 181, each a run of deals; the kernels stop at
the end of every deal (``DEAL_OVER``) and ``next_deal`` moves on.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from ...cards.bits import bit
from ...cards.decks import STANDARD
from ...records import copy_fields
from ...rng import below, fill_shuffled
from ...tricks.whist import whist_beats, whist_legal
from .. import trick_play
from ..kernels import *  # noqa: F403 (the batch entry points, written once over the protocol)
from .constants import (
    DEAL_OVER,
    MUCK,
    MUCK_BONUS,
    N_CARDS,
    N_TRICKS,
    PHAT_PLAIN,
    PHAT_TRUMP,
    PLAY,
)

SUIT_OF = STANDARD.suit_of.copy()
SUIT_MASKS = STANDARD.suit_masks.copy()
_PHAT_TRUMP = np.array(PHAT_TRUMP, dtype=np.int64)
_PHAT_PLAIN = np.array(PHAT_PLAIN, dtype=np.int64)
_MUCK = np.array(MUCK, dtype=np.int64)
_U1 = np.uint64(1)
#: The scores every seat sees as the state holds them (the muck too: it is in the played cards).
PUBLIC_SCORES = ("scores", "phat", "muck", "games_won", "carry")


@njit(cache=True, inline="always")
def phat_value(card, trumps):
    """Phat points of ``card`` when ``trumps`` (suit index) are trumps (§2)."""
    return _PHAT_TRUMP[card] if SUIT_OF[card] == trumps else _PHAT_PLAIN[card]


@njit(cache=True, inline="always")
def muck_value(card):
    """Muck points of ``card`` (§2; trumps included)."""
    return _MUCK[card]


# --------------------------------------------------------------------------- deal


@njit(cache=True)
def init_match(state, seed, target, games_in_match, pitcher):
    """Start a match in ``state`` and deal its first deal.

    ``pitcher`` is the first pitcher, or -1 to draw one at random (PH-D7).
    """
    state.rng[0] = np.uint64(seed)
    state.target = target
    state.games_in_match = games_in_match
    state.game_index = 0
    state.deal_index = 0
    for t in range(2):
        state.games_won[t] = 0
    _new_game(state)
    state.pitcher = below(state.rng, 4) if pitcher < 0 else pitcher
    shuffle_and_deal(state)


@njit(cache=True)
def _new_game(state):
    state.deal_in_game = 0
    state.carry = 0
    state.winner = -1
    for t in range(2):
        state.scores[t] = 0


@njit(cache=True)
def shuffle_and_deal(state):
    """Shuffle and deal singly clockwise from the pitcher, 13 each (§3, PH-D6)."""
    pack = np.empty(N_CARDS, dtype=np.int64)
    fill_shuffled(state.rng, pack)
    hands = np.zeros(4, dtype=np.uint64)
    for i in range(N_CARDS):
        hands[(state.pitcher + i) % 4] |= bit(pack[i])
    set_deal(state, hands)


@njit(cache=True)
def set_deal(state, hands):
    """Put ``hands`` on the table; the pitcher is to lead."""
    for s in range(4):
        state.hands[s] = hands[s]
        state.initial_hands[s] = hands[s]
    for t in range(2):
        state.won[t] = 0
        state.phat[t] = 0
        state.muck[t] = 0
    trick_play.clear_play(state, 4)
    state.win_pos = 0
    state.phase = PLAY
    state.to_move = state.pitcher
    state.leader = state.pitcher
    state.trumps = -1
    state.trump_mask = 0
    state.bonus_to = -1
    state.bonus = 0
    state.game_over = False


@njit(cache=True)
def deal_over(state):
    """Whether the current deal is over (played out, or ended by a win at 181)."""
    return state.phase == DEAL_OVER


@njit(cache=True)
def in_card_play(state):
    """Whether the deal is in its card play (the phase stochastic playouts randomise)."""
    return state.phase == PLAY


@njit(cache=True)
def match_over(state):
    """Whether every game of the match has been won."""
    return (
        state.phase == DEAL_OVER
        and state.game_over
        and state.game_index + 1 >= state.games_in_match
    )


@njit(cache=True)
def next_deal(state):
    """Deal the next deal: the pitch passes clockwise (PH-D1); a won game starts anew."""
    if state.game_over:
        state.game_index += 1
        _new_game(state)  # its first deal is deal 0 of the new game
    else:
        state.deal_in_game += 1
    state.pitcher = (state.pitcher + 1) % 4
    state.deal_index += 1
    shuffle_and_deal(state)


# ------------------------------------------------------------------------ legal


@njit(cache=True)
def legal_sets(state):
    """Legal actions as ``(cards, calls)``; Phat has no calls (§4)."""
    if state.phase == PLAY:
        return whist_legal(state.hands[state.to_move], state.led_mask), np.uint64(0)
    return np.uint64(0), np.uint64(0)


@njit(cache=True)
def is_legal(state, action):
    """Whether ``action`` is legal in ``state``."""
    if not 0 <= action < N_CARDS:
        return False
    return (legal_sets(state)[0] >> np.uint64(action)) & _U1 != 0


# ------------------------------------------------------------------------ apply


@njit(cache=True)
def apply_action(state, card):
    """Play ``card`` (legal) for ``state.to_move``; the pitch sets trumps (§2)."""
    if state.trumps < 0:
        state.trumps = SUIT_OF[card]
        state.trump_mask = SUIT_MASKS[state.trumps]
    pos = trick_play.lay_card(state, card, SUIT_OF, SUIT_MASKS)
    if pos and whist_beats(card, state.trick_cards[state.win_pos], SUIT_OF, state.trump_mask):
        state.win_pos = pos
    if trick_play.pass_turn(state, pos, 4):
        _complete_trick(state)


@njit(cache=True)
def _complete_trick(state):
    """Score the trick's phat at once; end the game at the target (§5, PH-D4)."""
    winner = (state.leader + state.win_pos) % 4
    team = winner % 2
    phat = 0
    for i in range(4):
        card = state.trick_cards[i]
        phat += phat_value(card, state.trumps)
        state.muck[team] += muck_value(card)
        state.won[team] |= bit(card)
    state.phat[team] += phat
    state.scores[team] += phat
    trick_play.close_trick(state, winner, 4)
    if state.scores[team] >= state.target:
        _end_deal(state, team)  # the rest of the deal is not played, the muck not counted
    elif state.trick_no == N_TRICKS:
        _muck_bonus(state)


@njit(cache=True)
def _muck_bonus(state):
    """After trick 13: 8 (plus carry) to the team with more than 40 muck (PH-D2, PH-D3)."""
    bonus = MUCK_BONUS + state.carry
    winner = -1
    for team in range(2):
        if state.muck[team] > 40:
            state.bonus_to = team
            state.bonus = bonus
            state.scores[team] += bonus
            state.carry = 0
            if state.scores[team] >= state.target:
                winner = team
    if state.bonus_to < 0:
        state.carry += MUCK_BONUS
    _end_deal(state, winner)


@njit(cache=True)
def _end_deal(state, winner):
    """Close the deal; ``winner`` is the team that reached the target, or -1."""
    if winner >= 0:
        state.game_over = True
        state.winner = winner
        state.games_won[winner] += 1
    for s in range(4):
        team = s % 2
        mine = state.phat[team] + (state.bonus if state.bonus_to == team else 0)
        theirs = state.phat[1 - team] + (state.bonus if state.bonus_to == 1 - team else 0)
        state.payoffs[s] = mine - theirs
    state.phase = DEAL_OVER
    state.to_move = -1


def deal_phat() -> int:
    """Phat in one deal's 52 cards: the same 80 whichever suit is trumps (§2)."""
    return max(sum(int(phat_value(c, t)) for c in range(N_CARDS)) for t in range(4))


def max_carry(target: int) -> int:
    """The largest muck carry-over a deal of a game to ``target`` can start with (PH-D3).

    A played-out deal adds its :func:`deal_phat` to the two scores, so
    while both stay below the target at most ``2 * (target - 1) // 80``
    deals end without a winner, each carrying :data:`MUCK_BONUS` at most
    (a won game resets the carry).
    """
    return MUCK_BONUS * (2 * (target - 1) // deal_phat())


@functools.cache  # a pure function of the options, read by every env built
def payoff_bound(target: int) -> int:
    """The largest payoff magnitude of a seat in one deal of a game to ``target``.

    A team's margin is at most every phat of the deal plus the muck bonus
    with the largest carry: ``80 + 8 + max_carry(target)`` (120 at 181).
    """
    return deal_phat() + MUCK_BONUS + max_carry(target)


# ---------------------------------------------------------------------- observe


@njit(cache=True)
def observe_core(state, seat, obs):
    """The part of ``observe`` a player needs to choose: hand, trumps, trick, legal set.

    Fills ``seat, phase, hand, trick_no, leader, trick_n, trick_cards,
    played, voids, to_move, trumps, legal_cards`` and leaves the other
    fields as they were: the built-in rule agent reads only these.
    """
    trick_play.observe_trick(state, seat, obs, 4)
    obs.to_move = state.to_move
    obs.trumps = state.trumps
    obs.legal_cards = legal_sets(state)[0] if state.to_move == seat else np.uint64(0)


@njit(cache=True)
def observe(state, seat, obs):
    """Write ``seat``'s information set into the ``OBS_DTYPE`` record ``obs``.

    Everything but the other hands is public (§6).
    """
    observe_core(state, seat, obs)
    obs.pitcher = state.pitcher
    trick_play.observe_last_trick(state, obs, 4)
    copy_fields(obs, state, PUBLIC_SCORES)
