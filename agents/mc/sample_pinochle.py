"""Pinochle determinisation: the unseen cards dealt consistently with one seat's view.

Holders of unseen cards: the other seats (their hand size less cards
played; no card of a suit shown out of) and, before the auction ends, the
kitty, or in the play the declarer's buried discards for everyone but the
declarer. Cards known to lie somewhere are fixed there: the kitty, shown to
all (PN-D4), is in the declarer's hand or discards; each seat's meld cards
are in its hand until played; partners know the cards passed between them.
A sampled deal is kept only if every other seat's hand at the start of the
play melds exactly what it showed (rejection keeps the draw uniform).
Team piles of past tricks come from the seat's memory (see ``memory``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.cards.bits import bit, popcount
from trickgym.cards.decks import PINOCHLE
from trickgym.games.pinochle.constants import (
    AUCTION,
    BID_BASE,
    CALL_BASE,
    KITTY_MODE,
    KITTY_SIZE,
    PASS,
    PLAY,
    TRUMP,
)
from trickgym.games.pinochle.meld import meld
from trickgym.games.pinochle.rules import apply_action, legal_sets, set_deal

from .deal import MAX_HOLDERS, SAMPLE_TRIES, allowed_by_voids, deal_fallback, deal_once, pool_cards
from .restore import restore_play, trick_by_seat

__all__ = ["SAMPLE_TRIES", "deal_hidden", "determinize"]

_ALL = np.uint64((1 << 48) - 1)
_SUIT_MASKS = PINOCHLE.suit_masks.copy()


@njit(cache=True)
def _allowed(voids):
    return allowed_by_voids(voids, _SUIT_MASKS, _ALL)


@njit(cache=True)
def _melds_match(obs, hands, seat):
    for s in range(4):
        if s == seat:
            continue
        points, shown = meld(hands[s] | obs.played[s], obs.trumps)
        if points != obs.meld[s] or shown != obs.meld_cards[s]:
            return False
    return True


@njit(cache=True)
def deal_hidden(obs, per_seat, rng, hands):
    """Current hands into ``hands[0:4]``; returns ``(pile, uniform)``.

    ``pile`` is the hidden kitty (auction) or the declarer's discards
    (another seat in the play), else 0.
    """
    seat = obs.seat
    kitty_mode = obs.mode == KITTY_MODE
    in_play = obs.phase == PLAY
    d = obs.declarer
    known = obs.hand | obs.discards
    if obs.phase != AUCTION:
        known |= obs.kitty
    for s in range(4):
        known |= obs.played[s]
    fixed = np.zeros(4, dtype=np.uint64)
    if obs.phase != AUCTION and kitty_mode and d != seat:
        fixed[d] |= obs.kitty & ~obs.played[d]  # unless buried: handled with the pile
    if in_play:
        for s in range(4):
            if s != seat:
                fixed[s] |= obs.meld_cards[s] & ~obs.played[s]
        if not kitty_mode and d >= 0:
            partner = (d + 2) % 4
            if seat == partner:
                fixed[d] |= obs.passed_in & ~obs.passed_back & ~obs.played[d]
            elif seat == d:
                fixed[partner] |= obs.passed_back & ~obs.played[partner]
    pile_cap = 0
    if obs.phase == AUCTION and kitty_mode:
        pile_cap = KITTY_SIZE
    elif in_play and kitty_mode and d != seat:
        pile_cap = KITTY_SIZE
    # Kitty cards not melded may also have been buried: they go to the
    # declarer's holder or the pile, never elsewhere.
    kitty_free = np.uint64(0)
    if pile_cap > 0 and in_play:
        kitty_free = fixed[d] & obs.kitty & ~obs.meld_cards[d]
        fixed[d] &= ~kitty_free
    caps = np.zeros(MAX_HOLDERS, dtype=np.int64)
    allowed = np.zeros(MAX_HOLDERS, dtype=np.uint64)
    who = np.zeros(MAX_HOLDERS, dtype=np.int64)
    pool = _ALL & ~known
    for s in range(4):
        pool &= ~fixed[s]
    pool |= kitty_free
    k = 0
    for s in range(4):
        if s != seat:
            who[k] = s
            caps[k] = per_seat - popcount(obs.played[s]) - popcount(fixed[s])
            allowed[k] = (_allowed(obs.voids[s]) if in_play else _ALL) & ~(
                kitty_free if s != d else np.uint64(0)
            )
            k += 1
    if pile_cap > 0:
        caps[k] = pile_cap
        allowed[k] = _ALL
        k += 1
    cards = np.empty(48, dtype=np.int64)
    m = pool_cards(pool, cards)
    part = np.zeros(MAX_HOLDERS, dtype=np.uint64)
    uniform = False
    for _ in range(SAMPLE_TRIES):
        if deal_once(cards, m, k, caps, allowed, part, rng):
            hands[seat] = obs.hand
            for j in range(3):
                hands[who[j]] = part[j] | fixed[who[j]]
            if not in_play or _melds_match(obs, hands, seat):
                uniform = True
                break
    if not uniform:
        deal_fallback(cards, m, k, caps, allowed, part, rng)
    hands[seat] = obs.hand
    for j in range(3):
        hands[who[j]] = part[j] | fixed[who[j]]
    pile = part[k - 1] if pile_cap > 0 else np.uint64(0)
    return pile, uniform


MAX_BID_STEP = 3  # bids the search considers: the lowest three legal ones


@njit(cache=True)
def candidates(state):
    """Legal actions the search considers: in the auction Pass and the three lowest bids.

    Jump bids of up to 75 levels would spread a search's budget over bids
    that only raise the price; the rule agent's rollouts bid on from there.
    """
    low, high = legal_sets(state)
    if state.phase != AUCTION:
        return low, high
    keep_low = low & (np.uint64(1) << np.uint64(PASS))
    keep_high = np.uint64(0)
    kept = 0
    for a in range(BID_BASE, 2 * CALL_BASE):
        if kept == MAX_BID_STEP:
            break
        if a < CALL_BASE:
            b = np.uint64(1) << np.uint64(a)
            if low & b:
                keep_low |= b
                kept += 1
        else:
            b = np.uint64(1) << np.uint64(a - CALL_BASE)
            if high & b:
                keep_high |= b
                kept += 1
    return keep_low, keep_high


@njit(cache=True)
def _replay_calls(st, obs):
    for i in range(obs.n_calls):
        v = obs.calls[i]
        apply_action(st, PASS if v == 0 else BID_BASE + (v - st.min_bid) // 10)


@njit(cache=True)
def determinize(obs_arr, memory, template, out, rng):
    """A full state in ``out[0]`` consistent with ``obs_arr[0]``; options from ``template[0]``.

    ``memory`` holds the team piles of past tricks (``uint64[4]``, see
    :mod:`.memory`); cards it lacks are split by the teams' trick counts.
    """
    obs = obs_arr[0]
    out[0] = template[0]
    st = out[0]
    per_seat = 11 if st.mode == KITTY_MODE else 12
    hands = np.zeros(4, dtype=np.uint64)
    pile, uniform = deal_hidden(obs, per_seat, rng, hands)
    st.dealer = obs.dealer
    st.scores[0] = obs.scores[0]
    st.scores[1] = obs.scores[1]
    kitty_mode = st.mode == KITTY_MODE
    if obs.phase == AUCTION:
        set_deal(st, hands, pile)
        _replay_calls(st, obs)
        return uniform
    if obs.phase == TRUMP:
        if kitty_mode:
            hands[obs.seat] = obs.hand & ~obs.kitty
        set_deal(st, hands, obs.kitty)
        _replay_calls(st, obs)
        return uniform
    d = obs.declarer
    in_trick, trick_all = trick_by_seat(obs, 4)
    start = np.zeros(4, dtype=np.uint64)
    completed = np.uint64(0)
    for s in range(4):
        start[s] = hands[s] | obs.played[s]
        completed |= obs.played[s]
    completed &= ~trick_all
    set_deal(st, start, obs.kitty)
    st.high = obs.high
    st.holder = obs.holder
    st.passed = obs.passed
    st.n_calls = obs.n_calls
    for i in range(obs.n_calls):
        st.calls[i] = obs.calls[i]
        st.call_seats[i] = obs.call_seats[i]
    st.declarer = d
    st.bid = obs.bid
    st.trumps = obs.trumps
    st.trump_mask = _SUIT_MASKS[obs.trumps]
    if kitty_mode:
        st.discards = obs.discards if obs.seat == d else pile
    st.passed_in = obs.passed_in
    st.passed_back = obs.passed_back
    won0 = np.uint64(memory[0]) & completed
    won1 = np.uint64(memory[1]) & completed & ~won0
    missing = completed & ~won0 & ~won1
    if missing:
        need0 = 4 * (obs.tricks_won[0] + obs.tricks_won[2]) - popcount(won0)
        for c in range(48):
            if (missing >> np.uint64(c)) & np.uint64(1):
                if need0 > 0:
                    won0 |= bit(c)
                    need0 -= 1
                else:
                    won1 |= bit(c)
    st.won[0] = won0
    st.won[1] = won1
    for s in range(4):
        st.meld[s] = obs.meld[s]
        st.meld_cards[s] = obs.meld_cards[s]
    restore_play(st, obs, hands, in_trick, 4)
    st.phase = PLAY
    for i in range(obs.trick_n):
        apply_action(st, obs.trick_cards[i])
    return uniform
