"""Pinochle rules as numba kernels over one ``STATE_DTYPE`` record.

Section numbers and ``PN-Dn`` refer to ``docs/rules/pinochle.md``. Legal
actions are two words split at ``CALL_BASE`` (64): cards, Pass, trumps and
the first bids in the low word, the other bids in the high word.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...cards.bits import bit, popcount
from ...cards.decks import PINOCHLE
from ...rng import below, fill_shuffled
from ...tricks.pinochle import pinochle_beats, pinochle_legal
from .. import trick_play
from ..kernels import *  # noqa: F403 (the batch entry points, written once over the protocol)
from .constants import (
    AUCTION,
    BID_BASE,
    CALL_BASE,
    COUNTER_POINTS,
    DISCARD,
    HAND_OVER,
    KITTY_MODE,
    KITTY_SIZE,
    LAST_TRICK_POINTS,
    N_CARDS,
    PASS,
    PASS_BACK,
    PASS_IN,
    PLAY,
    TRUMP,
    TRUMP_BASE,
)
from .meld import HAND_MELD_MAX, meld

SUIT_OF = PINOCHLE.suit_of.copy()
SUIT_MASKS = PINOCHLE.suit_masks.copy()
_COUNTERS = np.uint64(sum(1 << c for c in range(N_CARDS) if PINOCHLE.points[c] > 0))
_ZERO = np.uint64(0)
_ONE = np.uint64(1)


@njit(cache=True, inline="always")
def counter_points(cards):
    """10 points for every A, 10 and K in ``cards`` (PN-D17)."""
    return COUNTER_POINTS * popcount(np.uint64(cards) & _COUNTERS)


@njit(cache=True, inline="always")
def _action_bit(action):
    """``(low, high)`` words with the one bit of ``action``."""
    if action < CALL_BASE:
        return _ONE << np.uint64(action), _ZERO
    return _ZERO, _ONE << np.uint64(action - CALL_BASE)


# --------------------------------------------------------------------------- deal


@njit(cache=True)
def init_match(state, seed, rule_args, target, dealer):
    """Start a match in ``state`` and deal its first hand (``dealer`` -1: random).

    ``rule_args``: the options ``(mode, pass_count, min_bid, max_bid,
    all_pass_redeal, must_head, meld_save_twenty)`` (``PinochleGame.rule_args``).
    """
    mode, pass_count, min_bid, max_bid, all_pass_redeal, must_head, meld_save_twenty = rule_args
    state.rng[0] = np.uint64(seed)
    state.mode = mode
    state.pass_count = pass_count
    state.min_bid = min_bid
    state.max_bid = max_bid
    state.all_pass_redeal = all_pass_redeal
    state.must_head = must_head
    state.meld_save_twenty = meld_save_twenty
    state.target = target
    state.hand_index = 0
    state.scores[0] = 0
    state.scores[1] = 0
    state.game_over = False
    state.winner = -1
    state.dealer = below(state.rng, 4) if dealer < 0 else dealer
    shuffle_and_deal(state)


@njit(cache=True)
def shuffle_and_deal(state):
    """Shuffle; deal 11 each and a 4-card kitty, or 12 each (§3, PN-D3).

    Dealing blocks from eldest instead of 3-card packets gives the same
    distribution after a uniform shuffle.
    """
    pack = np.empty(N_CARDS, dtype=np.int64)
    fill_shuffled(state.rng, pack)
    per_seat = 11 if state.mode == KITTY_MODE else 12
    hands = np.zeros(4, dtype=np.uint64)
    for j in range(4):
        for i in range(per_seat):
            hands[(state.dealer + 1 + j) % 4] |= bit(pack[j * per_seat + i])
    kitty = _ZERO
    for i in range(4 * per_seat, N_CARDS):
        kitty |= bit(pack[i])
    set_deal(state, hands, kitty)


@njit(cache=True)
def set_deal(state, hands, kitty):
    """Put ``hands`` and ``kitty`` on the table and open the auction."""
    for s in range(4):
        state.hands[s] = hands[s]
        state.initial_hands[s] = hands[s]
        state.meld[s] = 0
        state.meld_cards[s] = 0
    for t in range(2):
        state.won[t] = 0
        state.counters[t] = 0
        state.team_meld[t] = 0
        state.saved[t] = False
        state.hand_scores[t] = 0
    state.kitty = kitty
    state.n_tricks = 11 if state.mode == KITTY_MODE else 12
    state.phase = AUCTION
    state.to_move = (state.dealer + 1) % 4
    state.high = 0
    state.holder = -1
    state.passed = 0
    state.n_calls = 0
    state.passed_out = False
    state.declarer = -1
    state.bid = 0
    state.trumps = -1
    state.trump_mask = 0
    state.discards = 0
    state.n_moved = 0
    state.passed_in = 0
    state.passed_back = 0
    trick_play.clear_play(state, 4)
    state.win_pos = 0
    state.made = False


@njit(cache=True)
def deal_over(state):
    """Whether the current hand is over (scored, or passed out for a redeal)."""
    return state.phase == HAND_OVER


@njit(cache=True)
def in_card_play(state):
    """Whether the deal is in its card play (the phase stochastic playouts randomise)."""
    return state.phase == PLAY


@njit(cache=True)
def match_over(state):
    """Whether a team has reached the target (§9)."""
    return state.phase == HAND_OVER and state.game_over


@njit(cache=True)
def next_deal(state):
    """Deal the next hand: the deal passes to the left (§1)."""
    state.dealer = (state.dealer + 1) % 4
    state.hand_index += 1
    shuffle_and_deal(state)


# ------------------------------------------------------------------------ legal


@njit(cache=True)
def _bids_from(state, lowest):
    """Legal-set words holding every bid from ``lowest`` up to ``max_bid``."""
    low, high = _ZERO, _ZERO
    for value in range(lowest, state.max_bid + 1, 10):
        lo, hi = _action_bit(BID_BASE + (value - state.min_bid) // 10)
        low |= lo
        high |= hi
    return low, high


@njit(cache=True)
def legal_sets(state):
    """Legal actions as ``(low, high)`` words split at ``CALL_BASE``."""
    phase = state.phase
    p = state.to_move
    if phase == PLAY:
        hand = state.hands[p]
        if state.trick_n == 0:
            return hand, _ZERO
        win = state.trick_cards[state.win_pos]
        cards = pinochle_legal(hand, state.led_mask, state.trump_mask, win, state.must_head)
        return cards, _ZERO
    if phase == AUCTION:
        lowest = state.min_bid if state.high == 0 else state.high + 10
        low, high = _bids_from(state, lowest)
        stuck = state.high == 0 and popcount(np.uint64(state.passed)) == 3
        if not (stuck and not state.all_pass_redeal):  # PN-D9: the dealer is stuck
            low |= _ONE << np.uint64(PASS)
        return low, high
    if phase == TRUMP:
        return np.uint64(15) << np.uint64(TRUMP_BASE), _ZERO
    if phase == DISCARD or phase == PASS_IN or phase == PASS_BACK:
        return state.hands[p], _ZERO
    return _ZERO, _ZERO


@njit(cache=True)
def is_legal(state, action):
    """Whether ``action`` is legal in ``state``."""
    if not 0 <= action < 2 * CALL_BASE:
        return False
    low, high = legal_sets(state)
    if action < CALL_BASE:
        return (low >> np.uint64(action)) & _ONE != 0
    return (high >> np.uint64(action - CALL_BASE)) & _ONE != 0


# ------------------------------------------------------------------------ apply


@njit(cache=True)
def apply_action(state, action):
    """Apply a legal ``action`` for ``state.to_move``."""
    phase = state.phase
    if phase == PLAY:
        _play_card(state, action)
    elif phase == AUCTION:
        _bid(state, action)
    elif phase == TRUMP:
        _name_trumps(state, action - TRUMP_BASE)
    else:
        _move_card(state, action)


@njit(cache=True)
def _bid(state, action):
    """The auction (§4): Pass, or a bid above the standing one."""
    p = state.to_move
    n = state.n_calls
    state.call_seats[n] = p
    if action == PASS:
        state.passed |= 1 << p
        state.calls[n] = 0
    else:
        state.high = state.min_bid + 10 * (action - BID_BASE)
        state.holder = p
        state.calls[n] = state.high
    state.n_calls = n + 1
    n_passed = popcount(np.uint64(state.passed))
    if state.high > 0 and n_passed == 3:
        _win_auction(state)
    elif n_passed == 4:  # only with all_pass = redeal
        state.passed_out = True
        state.phase = HAND_OVER
        state.to_move = -1
    else:
        q = p
        for _ in range(4):
            q = (q + 1) % 4
            if not (state.passed >> q) & 1:
                break
        state.to_move = q


@njit(cache=True)
def _win_auction(state):
    """The holder declares; in kitty mode the kitty is shown and taken (PN-D4)."""
    d = state.holder
    state.declarer = d
    state.bid = state.high
    if state.mode == KITTY_MODE:
        state.hands[d] |= state.kitty
    state.phase = TRUMP  # PN-D5: trumps before the discard or the passing
    state.to_move = d


@njit(cache=True)
def _name_trumps(state, suit):
    state.trumps = suit
    state.trump_mask = SUIT_MASKS[suit]
    d = state.declarer
    state.n_moved = 0
    if state.mode == KITTY_MODE:
        state.phase = DISCARD
        state.to_move = d
    else:
        state.phase = PASS_IN
        state.to_move = (d + 2) % 4


@njit(cache=True)
def _move_card(state, card):
    """A discard (kitty mode) or a card passed between the partners (exchange mode)."""
    p = state.to_move
    card_bit = bit(card)
    state.hands[p] &= ~card_bit
    d = state.declarer
    state.n_moved += 1
    if state.phase == DISCARD:
        state.discards |= card_bit  # counters here score for the declarers (§8)
        if state.n_moved == KITTY_SIZE:
            _start_play(state)
        return
    if state.phase == PASS_IN:
        state.hands[d] |= card_bit
        state.passed_in |= card_bit
        if state.n_moved == state.pass_count:
            state.phase = PASS_BACK
            state.n_moved = 0
            state.to_move = d
        return
    state.hands[(d + 2) % 4] |= card_bit  # PASS_BACK
    state.passed_back |= card_bit
    if state.n_moved == state.pass_count:
        _start_play(state)


@njit(cache=True)
def _start_play(state):
    """Everyone melds (§6); the declarer leads (PN-D10)."""
    for s in range(4):
        points, shown = meld(state.hands[s], state.trumps)
        state.meld[s] = points
        state.meld_cards[s] = shown
    state.phase = PLAY
    state.leader = state.declarer
    state.to_move = state.declarer


@njit(cache=True)
def _play_card(state, card):
    pos = trick_play.lay_card(state, card, SUIT_OF, SUIT_MASKS)
    # Strictly beats: the first of two identical cards wins.
    if pos and pinochle_beats(card, state.trick_cards[state.win_pos], SUIT_OF, state.trump_mask):
        state.win_pos = pos
    if not trick_play.pass_turn(state, pos, 4):
        return
    winner = (state.leader + state.win_pos) % 4
    team = winner % 2
    for i in range(4):
        state.won[team] |= bit(state.trick_cards[i])
    trick_play.close_trick(state, winner, 4)
    if state.trick_no == state.n_tricks:
        _score_hand(state, team)


@njit(cache=True)
def _score_hand(state, last_team):
    """Counters, saved meld, made or set, and the match end (§8, §9)."""
    dc = state.declarer % 2
    for t in range(2):
        state.counters[t] = counter_points(state.won[t])
        state.team_meld[t] = state.meld[t] + state.meld[t + 2]
    state.counters[last_team] += LAST_TRICK_POINTS
    state.counters[dc] += counter_points(state.discards)
    for t in range(2):
        if state.meld_save_twenty:
            state.saved[t] = state.counters[t] >= 20
        else:
            state.saved[t] = state.tricks_won[t] + state.tricks_won[t + 2] > 0
        total = (state.team_meld[t] if state.saved[t] else 0) + state.counters[t]
        if t == dc:
            state.made = total >= state.bid
            state.hand_scores[t] = total if state.made else -state.bid
        else:
            state.hand_scores[t] = total
    for t in range(2):
        state.scores[t] += state.hand_scores[t]
    for s in range(4):
        state.payoffs[s] = state.hand_scores[s % 2] - state.hand_scores[1 - s % 2]
    reached_dc = state.scores[dc] >= state.target
    reached_df = state.scores[1 - dc] >= state.target
    if reached_dc or reached_df:  # PN-D15: the declaring team wins a tie to the target
        state.game_over = True
        state.winner = dc if reached_dc else 1 - dc
    state.phase = HAND_OVER
    state.to_move = -1


def meld_hand_size(mode: int) -> int:
    """Cards each hand holds when it melds: 11 in kitty mode (0), 12 in exchange mode (1)."""
    return (N_CARDS - (KITTY_SIZE if mode == KITTY_MODE else 0)) // 4


def hand_score_range(mode: int, max_bid: int) -> tuple[int, int]:
    """``(low, high)`` of a team's score for one hand (``mode``: 0 kitty, 1 exchange).

    Minus the highest bid when set; at most the meld of two hands
    (:data:`~trickgym.games.pinochle.meld.HAND_MELD_MAX` each) plus every
    counter and the last trick (250) otherwise.
    """
    counters = int(counter_points(~np.uint64(0) >> np.uint64(64 - N_CARDS))) + LAST_TRICK_POINTS
    return -max_bid, 2 * HAND_MELD_MAX[meld_hand_size(mode)] + counters


def payoff_bound(mode: int, max_bid: int) -> int:
    """The largest payoff magnitude of a seat in one hand: a payoff is its team's
    score minus the other's, both in :func:`hand_score_range`."""
    low, high = hand_score_range(mode, max_bid)
    return high - low


# ---------------------------------------------------------------------- observe


@njit(cache=True)
def observe_core(state, seat, obs):
    """The part of ``observe`` a player needs to choose: hand, auction, trick, legal sets.

    Fills ``seat, phase, hand, trick_no, leader, trick_n, trick_cards,
    played, voids, mode, to_move, high, holder, n_calls, calls, call_seats,
    declarer, trumps, discards, passed_back, meld_cards, legal_low,
    legal_high`` and leaves the other fields as they were: the built-in
    rule agent reads only these, and copying less per decision keeps it fast.
    """
    trick_play.observe_trick(state, seat, obs, 4)
    obs.mode = state.mode
    obs.to_move = state.to_move
    obs.high = state.high
    obs.holder = state.holder
    obs.n_calls = state.n_calls
    for i in range(state.n_calls):  # entries past n_calls are stale: readers stop there
        obs.calls[i] = state.calls[i]
        obs.call_seats[i] = state.call_seats[i]
    obs.declarer = state.declarer
    obs.trumps = state.trumps
    d = state.declarer
    obs.discards = state.discards if seat == d else _ZERO
    partners = d >= 0 and (seat == d or seat == (d + 2) % 4)
    obs.passed_back = state.passed_back if partners else _ZERO
    for s in range(4):
        obs.meld_cards[s] = state.meld_cards[s]
    low, high = legal_sets(state) if state.to_move == seat else (_ZERO, _ZERO)
    obs.legal_low = low
    obs.legal_high = high


@njit(cache=True)
def observe(state, seat, obs):
    """Write ``seat``'s information set into the ``OBS_DTYPE`` record ``obs``.

    Public: the auction, the kitty once shown, trumps, everyone's meld and
    meld cards, all played cards. Private: the declarer's discards (to the
    declarer), the passed cards (to the two partners).
    """
    observe_core(state, seat, obs)
    obs.dealer = state.dealer
    shown = state.mode == KITTY_MODE and state.declarer >= 0
    obs.kitty = state.kitty if shown else _ZERO
    obs.passed = state.passed
    obs.bid = state.bid
    d = state.declarer
    partners = d >= 0 and (seat == d or seat == (d + 2) % 4)
    obs.passed_in = state.passed_in if partners else _ZERO
    trick_play.observe_last_trick(state, obs, 4)
    for s in range(4):
        obs.meld[s] = state.meld[s]
    obs.scores[0] = state.scores[0]
    obs.scores[1] = state.scores[1]
