"""Troggu rules as numba kernels over one ``STATE_DTYPE`` record.

Section numbers and ``TR-Dn`` refer to ``docs/rules/troggu.md``. Kernels
assume valid input; the Python API validates and explains.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from ...cards.bits import bit, lowest_bit, popcount
from ...cards.decks import TAROT
from ...rng import below, fill_shuffled
from ...tricks.troggu import troggu_holds_back, troggu_legal, troggu_trick_winner
from .. import trick_play
from ..kernels import *  # noqa: F403 (the batch entry points, written once over the protocol)
from .constants import (
    AUCTION,
    BASE,
    CALL,
    CALL_BASE,
    CALLABLE,
    DEAL_OVER,
    DISCARD,
    FOOL,
    FORCED_TAPP,
    HALF,
    HAND_SIZE,
    KINGS,
    MISERE,
    N_CARDS,
    NEVER_DISCARD,
    NO_CONTRACT,
    NO_PARTNER,
    PASS,
    PLAY,
    SOLO,
    SOLO_CALL,
    TAPP,
    TAPP_CALL,
    TAPP_SIZE,
    TOTAL_POINTS,
    TRUMP_I,
    TRUMPS,
)

SUIT_OF = TAROT.suit_of.copy()
SUIT_MASKS = TAROT.suit_masks.copy()
POINTS = TAROT.points.copy()
_HAND_SIZE = np.array([HAND_SIZE.get(n, 0) for n in range(9)], dtype=np.int64)
_TAPP_SIZE = np.array([TAPP_SIZE.get(n, 0) for n in range(9)], dtype=np.int64)
_BASE = np.array(BASE, dtype=np.int64)
_TRUMPS = np.uint64(TRUMPS)
_KINGS = np.uint64(KINGS)
_FOOL_BIT = np.uint64(1 << FOOL)
_NEVER_DISCARD = np.uint64(NEVER_DISCARD)
_CALLABLE = np.uint64(CALLABLE)
# Cards by point value, so a pile's points are five popcounts.
_POINT_CLASSES = np.array(
    [sum(1 << c for c in range(N_CARDS) if TAROT.points[c] == v) for v in range(6)],
    dtype=np.uint64,
)
_NO_CALLS = np.uint64(0)
_PASS_BIT = np.uint64(1 << (PASS - CALL_BASE))
_TAPP_BIT = np.uint64(1 << (TAPP_CALL - CALL_BASE))
_SOLO_BIT = np.uint64(1 << (SOLO_CALL - CALL_BASE))
_NO_PARTNER_BIT = np.uint64(1 << (NO_PARTNER - CALL_BASE))
_U1 = np.uint64(1)


@njit(cache=True, inline="always")
def card_points(cards):
    """Total card points of a set of cards."""
    total = 0
    for v in range(1, 6):
        total += v * popcount(cards & _POINT_CLASSES[v])
    return total


# --------------------------------------------------------------------------- deal


@njit(cache=True)
def init_match(state, seed, n_players, num_deals, dealer):
    """Start a match of ``n_players`` in ``state`` and deal its first deal.

    ``dealer`` is the first dealer, or -1 to draw one at random (§1).
    """
    state.rng[0] = np.uint64(seed)
    state.n_players = n_players
    state.hand_size = _HAND_SIZE[n_players]
    state.tapp_size = _TAPP_SIZE[n_players]
    state.num_deals = num_deals
    state.deal_index = 0
    for s in range(8):
        state.scores[s] = 0
    state.dealer = below(state.rng, n_players) if dealer < 0 else dealer
    shuffle_and_deal(state)


@njit(cache=True)
def shuffle_and_deal(state):
    """Shuffle the 62 cards and give ``hand_size`` to each seat from ``next(dealer)``.

    The rest is the Tapp. Dealing blocks rather than the packets of §3 gives
    the same distribution after a uniform shuffle (TR-D2).
    """
    pack = np.empty(N_CARDS, dtype=np.int64)
    fill_shuffled(state.rng, pack)
    n = state.n_players
    h = state.hand_size
    hands = np.zeros(8, dtype=np.uint64)
    for j in range(n):
        seat = (state.dealer + 1 + j) % n
        for i in range(h):
            hands[seat] |= bit(pack[j * h + i])
    tapp = np.uint64(0)
    for i in range(n * h, N_CARDS):
        tapp |= bit(pack[i])
    set_deal(state, hands, tapp)


@njit(cache=True)
def set_deal(state, hands, tapp):
    """Put ``hands`` (per seat) and ``tapp`` on the table and open the auction."""
    n = state.n_players
    for s in range(8):
        h = hands[s] if s < n else np.uint64(0)
        state.hands[s] = h
        state.initial_hands[s] = h
        state.calls[s] = -1
        state.won[s] = 0
        state.points[s] = 0
    trick_play.clear_play(state, 8)
    state.initial_tapp = tapp
    state.phase = AUCTION
    state.to_move = (state.dealer + 1) % n
    state.tappist = -1
    state.contract = NO_CONTRACT
    state.declarer = -1
    state.called_card = -1
    state.partner = -1
    state.partner_revealed = False
    state.discards = 0
    state.n_discarded = 0
    state.kings_discarded = 0
    state.held_back_pos = -1
    state.held_back = 0
    state.fool_held_back_by = -1
    state.fool_exchange_card = -1
    state.declarer_points = 0
    state.made = False


@njit(cache=True)
def deal_over(state):
    """Whether the current deal is over (scored)."""
    return state.phase == DEAL_OVER


@njit(cache=True)
def in_card_play(state):
    """Whether the deal is in its card play (the phase stochastic playouts randomise)."""
    return state.phase == PLAY


@njit(cache=True)
def match_over(state):
    """Whether the match has played its ``num_deals`` deals (TR-D15)."""
    return state.phase == DEAL_OVER and state.deal_index >= state.num_deals


@njit(cache=True)
def next_deal(state):
    """Start the next deal: the deal passes to ``next(dealer)`` (§1), freshly shuffled."""
    state.dealer = (state.dealer + 1) % state.n_players
    shuffle_and_deal(state)


# ------------------------------------------------------------------------ legal


@njit(cache=True)
def legal_discards(state):
    """Cards the Tappist may discard next (§5, TR-D7, TR-D8).

    Never the Fool, XXI or I. Kings only when the Tappist holds all four,
    and then all four or none: once one King is discarded only Kings may
    follow until all four are gone, and the first needs four free slots.
    """
    hand = state.hands[state.tappist]
    allowed = hand & ~_NEVER_DISCARD
    kings = hand & _KINGS
    left = state.tapp_size - state.n_discarded
    done = state.kings_discarded
    if 0 < done < 4:
        return kings
    if not (done == 0 and kings == _KINGS and left >= 4):
        allowed &= ~_KINGS
    return allowed


@njit(cache=True)
def legal_sets(state):
    """Legal actions as two bit sets ``(cards, calls)``; calls bit ``i`` is ``CALL_BASE + i``."""
    phase = state.phase
    if phase == PLAY:
        p = state.to_move
        last = state.trick_no == state.hand_size - 1
        held = (state.held_back >> p) & 1 != 0
        cards = troggu_legal(state.hands[p], state.led_mask, _TRUMPS, _FOOL_BIT, held, last)
        return cards, _NO_CALLS
    if phase == AUCTION:
        calls = _PASS_BIT | _SOLO_BIT
        if state.tappist < 0:
            calls |= _TAPP_BIT
        return np.uint64(0), calls
    if phase == DISCARD:
        return legal_discards(state), _NO_CALLS
    if phase == CALL:
        return _CALLABLE, _NO_PARTNER_BIT
    return np.uint64(0), _NO_CALLS


@njit(cache=True)
def is_legal(state, action):
    """Whether ``action`` is legal in ``state``."""
    cards, calls = legal_sets(state)
    if 0 <= action < CALL_BASE:
        return (cards >> np.uint64(action)) & _U1 != 0
    if CALL_BASE <= action < CALL_BASE + 64:
        return (calls >> np.uint64(action - CALL_BASE)) & _U1 != 0
    return False


# ------------------------------------------------------------------------ apply


@njit(cache=True)
def apply_action(state, action):
    """Apply a legal ``action`` for ``state.to_move``."""
    phase = state.phase
    if phase == PLAY:
        _play_card(state, action)
    elif phase == AUCTION:
        _bid(state, action)
    elif phase == DISCARD:
        _discard(state, action)
    else:
        _call_partner(state, action)


@njit(cache=True)
def _holder(state, card):
    """Seat holding ``card``, or -1 if it is in no hand."""
    for s in range(state.n_players):
        if (state.hands[s] >> np.uint64(card)) & _U1:
            return s
    return -1


@njit(cache=True)
def _bid(state, action):
    """The one-round auction (§4)."""
    p = state.to_move
    state.calls[p] = action - CALL_BASE
    if action == SOLO_CALL:  # Solo ends the auction; the Tapp goes unseen to the Soloist
        state.contract = SOLO
        state.declarer = p
        state.won[p] |= state.initial_tapp
        _start_play(state, p)
        return
    if action == TAPP_CALL:
        state.tappist = p
    if p != state.dealer:  # the dealer speaks last
        state.to_move = (p + 1) % state.n_players
        return
    if state.tappist >= 0:
        _take_tapp(state, TAPP, state.tappist)
    elif state.n_players <= 6:
        _start_misere(state)
    else:  # 7-8 players: forced Tapp for the Fool's holder, else the I's holder
        holder = _holder(state, FOOL)
        if holder < 0:
            holder = _holder(state, TRUMP_I)
        if holder < 0:
            _start_misere(state)
        else:
            _take_tapp(state, FORCED_TAPP, holder)


@njit(cache=True)
def _take_tapp(state, contract, tappist):
    state.contract = contract
    state.declarer = tappist
    state.tappist = tappist
    state.hands[tappist] |= state.initial_tapp
    state.phase = DISCARD
    state.to_move = tappist


@njit(cache=True)
def _start_misere(state):
    """Misère: the Tapp is set aside for nobody (TR-D13); next(dealer) leads."""
    state.contract = MISERE
    _start_play(state, (state.dealer + 1) % state.n_players)


@njit(cache=True)
def _discard(state, card):
    p = state.to_move
    card_bit = bit(card)
    state.hands[p] &= ~card_bit
    state.discards |= card_bit
    state.won[p] |= card_bit  # discards count for the Tappist's side (§5)
    state.n_discarded += 1
    if card_bit & _KINGS:
        state.kings_discarded += 1
    if state.n_discarded == state.tapp_size:
        if state.n_players >= 7:
            state.phase = CALL
        else:
            _start_play(state, p)


@njit(cache=True)
def _call_partner(state, action):
    """Name a trump II-XX (its holder is the secret partner) or none (TR-D9)."""
    if action != NO_PARTNER:
        state.called_card = action
        holder = _holder(state, action)
        state.partner = holder if holder != state.declarer else -1
    _start_play(state, state.declarer)


@njit(cache=True)
def _start_play(state, leader):
    state.phase = PLAY
    state.leader = leader
    state.to_move = leader


@njit(cache=True)
def _play_card(state, card):
    p = state.to_move
    n = state.n_players
    card_bit = bit(card)
    held = (state.held_back >> p) & 1 != 0
    hand = state.hands[p]
    if troggu_holds_back(hand, state.led_mask, _TRUMPS, _FOOL_BIT, held, card):
        state.held_back |= 1 << p  # §6.2
        state.fool_held_back_by = p
    pos = state.trick_n
    if card == FOOL and held:
        state.held_back_pos = pos  # no suit, never wins
    elif state.led_mask == 0:
        state.led_mask = SUIT_MASKS[SUIT_OF[card]]
    elif not (card_bit & state.led_mask):
        state.voids[p] |= 1 << SUIT_OF[lowest_bit(state.led_mask)]
    state.hands[p] = hand & ~card_bit
    state.played[p] |= card_bit
    state.trick_cards[pos] = card
    if card == state.called_card:
        state.partner_revealed = True
    if not trick_play.pass_turn(state, pos, n):
        return
    hb = state.held_back_pos
    win_pos = troggu_trick_winner(state.trick_cards, n, SUIT_OF, _TRUMPS, hb)
    winner = (state.leader + win_pos) % n
    fool_holder = (state.leader + hb) % n
    for i in range(n):
        # A held-back Fool returns to its holder (§6.2).
        state.won[fool_holder if i == hb else winner] |= bit(state.trick_cards[i])
    trick_play.close_trick(state, winner, n)
    if hb >= 0:
        _fool_exchange(state, fool_holder, winner)
    state.held_back_pos = -1
    if state.trick_no == state.hand_size:
        _end_deal(state)


@njit(cache=True)
def _fool_exchange(state, holder, winner):
    """TR-D6: the holder gives the last-trick winner a lowest-value card of their pile.

    The pile is looked at without the Fool just returned to it; an empty
    pile gives nothing.
    """
    pile = state.won[holder] & ~_FOOL_BIT
    for v in range(1, 6):
        cards = pile & _POINT_CLASSES[v]
        if cards:
            card = lowest_bit(cards)
            state.won[holder] &= ~bit(card)
            state.won[winner] |= bit(card)
            state.fool_exchange_card = card
            return


# ----------------------------------------------------------------------- score


@njit(cache=True)
def _end_deal(state):
    """Score the deal (§7) into ``payoffs`` and the match scores."""
    n = state.n_players
    for s in range(n):
        state.points[s] = card_points(state.won[s])
    if state.contract == MISERE:
        misere_payoffs(state.points, n, state.payoffs)
    else:
        partner = state.partner
        points = state.points[state.declarer] + (state.points[partner] if partner >= 0 else 0)
        tricks = state.tricks_won[state.declarer] + (
            state.tricks_won[partner] if partner >= 0 else 0
        )
        state.declarer_points = points
        state.made = points > HALF
        declarer_payoffs(
            state.contract,
            n,
            state.declarer,
            partner,
            points,
            tricks,
            state.hand_size,
            state.payoffs,
        )
    for s in range(n):
        state.scores[s] += state.payoffs[s]
    state.deal_index += 1
    state.phase = DEAL_OVER
    state.to_move = -1


@njit(cache=True)
def declarer_payoffs(contract, n, declarer, partner, points, tricks, n_tricks, out):
    """Payoffs of a Tapp or Solo (§7, TR-D11, TR-D12, TR-D16) into ``out[:n]``.

    ``points`` and ``tricks`` are the declarer side's card points and tricks.
    """
    for s in range(n):
        out[s] = 0
    if points == HALF:
        return
    sign = 1 if points > HALF else -1
    if sign > 0:
        m = 3 if tricks == n_tricks else (2 if points > 84 else 1)
    else:
        m = 3 if tricks == 0 else (2 if TOTAL_POINTS - points > 84 else 1)
    a = _BASE[contract] * m
    if partner < 0:
        for s in range(n):
            out[s] = sign * (n - 1) * a if s == declarer else -sign * a
        return
    k = n - 2
    for s in range(n):
        if s == declarer:
            out[s] = sign * (k - 2) * a
        elif s == partner:
            out[s] = sign * 2 * a
        else:
            out[s] = -sign * a


@njit(cache=True)
def misere_payoffs(points, n, out):
    """Misère (§7): every seat with the most points pays 10 to each seat with fewer."""
    most = 0
    for s in range(n):
        most = max(most, points[s])
    n_top = 0
    for s in range(n):
        n_top += points[s] == most
    for s in range(n):
        out[s] = -10 * (n - n_top) if points[s] == most else 10 * n_top


@functools.cache  # a pure function of the options, read by every env built
def payoff_bound(n: int) -> int:
    """The largest payoff magnitude of a seat in one deal at a table of ``n``.

    Every declared contract (with and without a partner) settled by
    :func:`declarer_payoffs` at every point total, with no trick, some and
    all of them, and every Misère split by :func:`misere_payoffs`: a lone
    Soloist taking every trick (or none) is the worst, ``(n - 1) * 60``.
    """
    out = np.zeros(n, dtype=np.int64)
    worst = 0
    n_tricks = HAND_SIZE[n]
    for contract in (TAPP, FORCED_TAPP, SOLO):
        for partner in (-1, 1):
            for points in range(TOTAL_POINTS + 1):
                for tricks in (0, n_tricks // 2, n_tricks):
                    declarer_payoffs(contract, n, 0, partner, points, tricks, n_tricks, out)
                    worst = max(worst, int(np.abs(out).max()))
    for n_top in range(1, n + 1):
        points = np.array([1] * n_top + [0] * (n - n_top), dtype=np.int64)
        misere_payoffs(points, n, out)
        worst = max(worst, int(np.abs(out).max()))
    return worst


# ---------------------------------------------------------------------- observe


@njit(cache=True)
def observe_core(state, seat, obs):
    """The part of ``observe`` a player needs to choose: hand, contract, trick, legal sets.

    Fills ``seat, phase, hand, trick_no, leader, trick_n, trick_cards,
    played, voids, n_players, to_move, contract, declarer, called_card,
    partner, tapp, discards, held_back, legal_cards, legal_calls`` and
    leaves the other fields as they were: the built-in rule agent reads only
    these, and copying less per decision keeps it fast.
    """
    trick_play.observe_trick(state, seat, obs, 8)
    obs.n_players = state.n_players
    obs.to_move = state.to_move
    obs.contract = state.contract
    obs.declarer = state.declarer
    obs.called_card = state.called_card
    knows_partner = state.partner_revealed or state.partner == seat
    obs.partner = state.partner if knows_partner else -1
    tappist_view = state.contract in (TAPP, FORCED_TAPP) and seat == state.declarer
    obs.tapp = state.initial_tapp if tappist_view else np.uint64(0)
    obs.discards = state.discards if tappist_view else np.uint64(0)
    obs.held_back = (state.held_back >> seat) & 1 != 0
    cards, calls = legal_sets(state) if state.to_move == seat else (_NO_CALLS, _NO_CALLS)
    obs.legal_cards = cards
    obs.legal_calls = calls


@njit(cache=True)
def observe(state, seat, obs):
    """Write ``seat``'s information set into the ``OBS_DTYPE`` record ``obs``.

    Hidden: other hands, the Tapp and the discards (seen only by the
    Tappist, TR-D14), who holds the called card until it is played (the
    partner knows), and others' Fool hold-backs.
    """
    observe_core(state, seat, obs)
    obs.dealer = state.dealer
    trick_play.observe_last_trick(state, obs, 8)
    # Cards only the Tappist saw leave the piles: discards, and a Soloist's Tapp.
    unseen = state.discards | (state.initial_tapp if state.contract == SOLO else np.uint64(0))
    for s in range(8):
        obs.calls[s] = state.calls[s]
        obs.scores[s] = state.scores[s]
        obs.trick_points[s] = card_points(state.won[s] & ~unseen)
