"""Troggu determinisation: the unseen cards dealt consistently with one seat's view.

Holders of unseen cards: the other seats (hand size less cards played, no
card of a suit shown out of; a seat out of trumps may still hold the Fool)
and, when the seat has not seen it, one hidden pile: the Tapp during the
auction, in a Solo (the Soloist's, unseen) and in a Misère (set aside), or
a Tappist's discards (never the Fool, XXI or I; the four Kings all or none,
TR-D7, TR-D8). The Tappist knows the Tapp and discards (TR-D14). A revealed
partner holds the called card until it is played; a forced Tappist (TR-D10)
holds the Fool. Past tricks' piles are not in the record, only each seat's
trick points: piles are rebuilt from the played cards with those points
(largest cards first), which fixes every score; which low cards a pile
holds may differ (it matters only to the Fool exchange).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.cards.bits import bit, popcount
from trickgym.cards.decks import TAROT
from trickgym.games.troggu.constants import (
    AUCTION,
    CALL,
    CALL_BASE,
    DISCARD,
    FOOL,
    FORCED_TAPP,
    KINGS,
    NEVER_DISCARD,
    PLAY,
    SOLO,
    TAPP,
)
from trickgym.games.troggu.rules import apply_action, set_deal

from .deal import MAX_HOLDERS, SAMPLE_TRIES, allowed_by_voids, deal_fallback, deal_once, pool_cards
from .restore import restore_play, trick_by_seat

__all__ = ["SAMPLE_TRIES", "deal_hidden", "determinize"]

_ALL = np.uint64((1 << 62) - 1)
_SUIT_MASKS = TAROT.suit_masks.copy()
_POINTS = TAROT.points.copy()
_FOOL_BIT = np.uint64(1 << FOOL)
_KINGS = np.uint64(KINGS)
_NEVER_DISCARD = np.uint64(NEVER_DISCARD)
_TAPP_CALL = 1  # calls[] holds action - CALL_BASE


@njit(cache=True)
def _allowed(voids):
    allowed = allowed_by_voids(voids, _SUIT_MASKS, _ALL)
    if voids & 1:
        allowed |= _FOOL_BIT  # a held-back Fool is no trump for following (TR-D5)
    return allowed


@njit(cache=True)
def _pile_kind(obs):
    """0: no hidden pile; 1: an unconstrained Tapp; 2: a Tappist's discards."""
    if obs.phase == AUCTION:
        return 1
    if obs.phase != PLAY:
        return 0  # the Tappist discarding or calling sees everything but hands
    if obs.contract == TAPP or obs.contract == FORCED_TAPP:
        return 0 if obs.seat == obs.declarer else 2
    return 1


@njit(cache=True)
def deal_hidden(obs, hand_size, tapp_size, rng, hands):
    """Current hands into ``hands[:n]``; returns ``(pile, uniform)``.

    ``pile`` is the hidden pile's cards (0 when the seat sees it or there
    is none).
    """
    n = obs.n_players
    seat = obs.seat
    known = obs.hand | obs.discards | obs.tapp
    for s in range(n):
        known |= obs.played[s]
    fixed = np.zeros(8, dtype=np.uint64)
    c = obs.called_card
    if c >= 0 and obs.partner >= 0 and obs.partner != seat and not (known & bit(c)):
        fixed[obs.partner] |= bit(c)
    if (
        obs.contract == FORCED_TAPP
        and obs.phase == PLAY
        and obs.declarer != seat
        and not (known & _FOOL_BIT)
    ):
        fixed[obs.declarer] |= _FOOL_BIT
    caps = np.zeros(MAX_HOLDERS, dtype=np.int64)
    allowed = np.zeros(MAX_HOLDERS, dtype=np.uint64)
    who = np.zeros(MAX_HOLDERS, dtype=np.int64)
    pool = _ALL & ~known
    k = 0
    for s in range(n):
        pool &= ~fixed[s]
        if s != seat:
            who[k] = s
            caps[k] = hand_size - popcount(obs.played[s]) - popcount(fixed[s])
            allowed[k] = _allowed(obs.voids[s]) if obs.phase == PLAY else _ALL
            k += 1
    kind = _pile_kind(obs)
    if kind > 0:
        caps[k] = tapp_size
        allowed[k] = _ALL if kind == 1 else _ALL & ~_NEVER_DISCARD
        k += 1
    cards = np.empty(62, dtype=np.int64)
    m = pool_cards(pool, cards)
    part = np.zeros(MAX_HOLDERS, dtype=np.uint64)
    uniform = False
    for _ in range(SAMPLE_TRIES):
        if deal_once(cards, m, k, caps, allowed, part, rng):
            if kind != 2:
                uniform = True
                break
            kings = popcount(part[k - 1] & _KINGS)
            if kings == 0 or kings == 4:
                uniform = True
                break
    if not uniform:
        for _ in range(200):  # the fallback knows no King rule: redraw until it holds
            deal_fallback(cards, m, k, caps, allowed, part, rng)
            kings = popcount(part[k - 1] & _KINGS) if kind == 2 else 0
            if kings == 0 or kings == 4:
                break
    hands[seat] = obs.hand
    for j in range(n - 1):
        hands[who[j]] = part[j] | fixed[who[j]]
    pile = part[k - 1] if kind > 0 else np.uint64(0)
    return pile, uniform


@njit(cache=True)
def rebuild_piles(completed, targets, n, piles):
    """Split the set ``completed`` into ``piles[:n]`` with ``targets`` card points each.

    Largest cards first, each to the seat furthest below its target (exact
    whenever enough one-point cards remain, as they do in practice).
    """
    assigned = np.zeros(8, dtype=np.int64)
    for s in range(n):
        piles[s] = 0
    for v in range(5, 0, -1):
        for c in range(62):
            if not (completed >> np.uint64(c)) & np.uint64(1) or _POINTS[c] != v:
                continue
            best, best_gap = 0, -(1 << 30)
            for s in range(n):
                gap = targets[s] - assigned[s]
                fits = gap >= v
                score = gap + (1 << 20 if fits else 0)
                if score > best_gap:
                    best, best_gap = s, score
            piles[best] |= bit(c)
            assigned[best] += v


@njit(cache=True)
def _replay_auction(st, obs):
    n = obs.n_players
    for j in range(n):
        s = (obs.dealer + 1 + j) % n
        if obs.calls[s] < 0 or st.phase != AUCTION:
            break
        apply_action(st, CALL_BASE + obs.calls[s])


@njit(cache=True)
def determinize(obs_arr, memory, template, out, rng):
    """A full state in ``out[0]`` consistent with ``obs_arr[0]``; options from ``template[0]``."""
    obs = obs_arr[0]
    out[0] = template[0]
    st = out[0]
    n = obs.n_players
    hands = np.zeros(8, dtype=np.uint64)
    pile, uniform = deal_hidden(obs, st.hand_size, st.tapp_size, rng, hands)
    st.dealer = obs.dealer
    for s in range(8):
        st.scores[s] = obs.scores[s]
    if obs.phase == AUCTION:
        set_deal(st, hands, pile)
        _replay_auction(st, obs)
        return uniform
    if obs.phase == DISCARD or obs.phase == CALL:
        hands[obs.seat] = (obs.hand | obs.discards) & ~obs.tapp
        set_deal(st, hands, obs.tapp)
        _replay_auction(st, obs)
        for first_kings in range(2):
            rest = obs.discards & (_KINGS if first_kings == 0 else ~_KINGS)
            for c in range(62):
                if (rest >> np.uint64(c)) & np.uint64(1):
                    apply_action(st, c)
        return uniform
    # The play: public fields as observed, piles rebuilt, the current trick replayed.
    in_trick, trick_all = trick_by_seat(obs, n)
    start = np.zeros(8, dtype=np.uint64)
    completed = np.uint64(0)
    for s in range(n):
        start[s] = hands[s] | obs.played[s]
        completed |= obs.played[s]
    completed &= ~trick_all
    is_tapp = obs.contract == TAPP or obs.contract == FORCED_TAPP
    hidden = obs.discards if (is_tapp and obs.seat == obs.declarer) else pile
    set_deal(st, start, obs.tapp if obs.seat == obs.declarer and is_tapp else hidden)
    st.contract = obs.contract
    st.declarer = obs.declarer
    st.tappist = obs.declarer if is_tapp else -1
    for s in range(n):
        st.calls[s] = obs.calls[s]
        if obs.calls[s] == _TAPP_CALL and not is_tapp:
            st.tappist = s
    if is_tapp:
        st.discards = hidden
        st.n_discarded = st.tapp_size
        st.kings_discarded = popcount(hidden & _KINGS)
    st.called_card = obs.called_card
    if obs.called_card >= 0:
        if (completed | trick_all) & bit(obs.called_card):
            st.partner = obs.partner
            st.partner_revealed = True
        else:
            st.partner = -1
            for s in range(n):
                if s != obs.declarer and hands[s] & bit(obs.called_card):
                    st.partner = s
    piles = np.zeros(8, dtype=np.uint64)
    rebuild_piles(completed, obs.trick_points, n, piles)
    if obs.contract == SOLO or is_tapp:
        piles[obs.declarer] |= hidden
    for s in range(n):
        st.won[s] = piles[s]
    restore_play(st, obs, hands, in_trick, n)
    if obs.held_back:
        st.held_back = 1 << obs.seat
        st.fool_held_back_by = obs.seat
    st.phase = PLAY
    for i in range(obs.trick_n):
        apply_action(st, obs.trick_cards[i])
    return uniform
