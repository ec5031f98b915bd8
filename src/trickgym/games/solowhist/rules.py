"""Solo Whist rules as numba kernels over one ``STATE_DTYPE`` record.

Kernels assume valid input (the Python API validates and explains); they are
shared by the game API, the envs, the agents and the simulator, so each rule
lives here once. Section numbers and ``SW-Dn`` refer to
``docs/rules/solowhist.md``.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from ...cards.bits import bit, popcount
from ...cards.decks import STANDARD
from ...rng import below, fill_shuffled
from ...tricks.whist import whist_beats, whist_legal
from .. import trick_play
from ..auction import copy_calls
from ..kernels import *  # noqa: F403 (the batch entry points, written once over the protocol)
from .constants import (
    ABUNDANCE,
    ABUNDANCE_DECLARED,
    ABUNDANCE_IN_TRUMPS,
    AUCTION,
    BASE_UNITS,
    CALL_BASE,
    COP,
    COP_OFFER,
    DEAL_OVER,
    DECLINE,
    GOAL,
    MAX_CALLS,
    MISERE,
    MISERE_OUVERTE,
    N_CARDS,
    N_CONTRACTS,
    N_TRICKS,
    NO_CONTRACT,
    PASS,
    PLAY,
    PROP,
    PROP_COP,
    SOLO,
    TRICK_POINTS,
    TRUMP_BASE,
    TRUMP_CHOICE,
    UPGRADE,
)

SUIT_OF = STANDARD.suit_of.copy()
SUIT_MASKS = STANDARD.suit_masks.copy()
_GOAL = np.array(GOAL, dtype=np.int64)
_BASE_UNITS = np.array(BASE_UNITS, dtype=np.int64)
_TRICK_POINTS = np.array(TRICK_POINTS, dtype=np.int64)


def _call_bit(action: int) -> int:
    return 1 << (action - CALL_BASE)


def _contract_call_bits(contracts) -> int:
    return sum(_call_bit(CALL_BASE + 1 + c) for c in contracts)


# Calls that raise a standing contract `high` (index): Solo..Abundance Declared
# above it, Abundance in Trumps only over Abundance (SW-D6).
_PLAIN_RAISES = (SOLO, MISERE, ABUNDANCE, MISERE_OUVERTE, ABUNDANCE_DECLARED)
RAISE_CALLS = np.array(
    [
        _contract_call_bits([c for c in _PLAIN_RAISES if c > high])
        | (_call_bit(CALL_BASE + 1 + ABUNDANCE_IN_TRUMPS) if high == ABUNDANCE else 0)
        for high in range(8)
    ],
    dtype=np.uint64,
)
UPGRADE_CALLS = np.uint64(_call_bit(PASS) | _contract_call_bits(_PLAIN_RAISES))  # SW-D13
PASS_BIT = np.uint64(_call_bit(PASS))
PROP_BIT = np.uint64(_call_bit(PROP))
COP_BIT = np.uint64(_call_bit(COP))
COP_OFFER_CALLS = np.uint64(_call_bit(COP) | _call_bit(DECLINE))
TRUMP_CALLS = np.uint64(sum(_call_bit(TRUMP_BASE + s) for s in range(4)))
SHUFFLE_AFTER = np.array([c >= ABUNDANCE for c in range(8)], dtype=np.bool_)  # §3.1, SW-D5

_U1 = np.uint64(1)
_NO_SETS = (np.uint64(0), np.uint64(0))  # the legal sets of a seat not to move


@njit(cache=True, inline="always")
def eldest(state):
    """The player on the dealer's left: first to speak and (usually) to lead."""
    return (state.dealer + 1) % 4


# --------------------------------------------------------------------------- deal


@njit(cache=True)
def init_match(state, seed, unit, num_deals, always_shuffle, early_stop, dealer):
    """Start a match in ``state``: options, zero scores, and its first deal.

    ``dealer`` is the first dealer, or -1 to draw one at random (§1).
    """
    state.rng[0] = np.uint64(seed)
    state.unit = unit
    state.num_deals = num_deals
    state.always_shuffle = always_shuffle
    state.early_stop = early_stop
    state.deal_index = 0
    state.deals_played = 0
    for s in range(4):
        state.scores[s] = 0
    state.dealer = below(state.rng, 4) if dealer < 0 else dealer
    shuffle_pack(state)
    deal_pack(state)


@njit(cache=True)
def shuffle_pack(state):
    """Put a uniformly shuffled pack in ``state.pack`` (Fisher-Yates).

    The cut that follows a shuffle (SW-D3) leaves the pack uniform, so it is
    not drawn.
    """
    fill_shuffled(state.rng, state.pack)
    state.shuffled = True


@njit(cache=True)
def gather_and_cut(state):
    """Gather the last deal's cards into the pack (SW-D4), then cut it (SW-D3).

    After a played deal the pack is the 52 cards in play order; after a
    passed-out deal it is the hands of seats e, e+1, e+2, d, each in the
    order its cards were dealt (3-3-3-3-1 packets).
    """
    gathered = np.empty(N_CARDS, dtype=np.uint8)
    if state.contract == NO_CONTRACT:
        k = 0
        for j in range(4):
            for r in range(4):
                for i in range(3):
                    gathered[k] = state.pack[r * 12 + j * 3 + i]
                    k += 1
            gathered[k] = state.pack[48 + j]
            k += 1
    else:
        gathered[:] = state.play_order
    cut_pack(state, gathered, 1 + below(state.rng, N_CARDS - 1))
    state.shuffled = False


@njit(cache=True)
def cut_pack(state, gathered, k):
    """``state.pack = gathered[k:] + gathered[:k]``: the top k cards go under."""
    for i in range(N_CARDS):
        state.pack[i] = gathered[(i + k) % N_CARDS]


@njit(cache=True)
def deal_pack(state):
    """Deal ``state.pack`` 3-3-3-3-1 from eldest and open the auction (§3).

    Card ``pack[12 r + 3 j + i]`` goes to seat ``e + j`` in round ``r``; the
    last round gives ``pack[48 + j]``. The dealer's last card (``pack[51]``)
    is turned up.
    """
    e = eldest(state)
    hands = np.zeros(4, dtype=np.uint64)
    for r in range(4):
        for j in range(4):
            for i in range(3):
                hands[j] |= bit(state.pack[r * 12 + j * 3 + i])
    for j in range(4):
        hands[j] |= bit(state.pack[48 + j])
    for j in range(4):
        seat = (e + j) % 4
        state.hands[seat] = hands[j]
        state.initial_hands[seat] = hands[j]
    state.turn_up = state.pack[51]
    _reset_deal(state)
    state.to_move = e


@njit(cache=True)
def _reset_deal(state):
    state.phase = AUCTION
    state.high = NO_CONTRACT
    state.holders = 0
    state.passed = 0
    state.copped = False
    state.proposer = -1
    state.n_calls = 0
    state.contract = NO_CONTRACT
    state.declarer = -1
    state.partner = -1
    state.declarers = 0
    state.trumps = -1
    state.trump_mask = 0
    trick_play.clear_play(state, 4)
    state.win_pos = 0
    state.last_winner = -1
    state.exposed = False
    state.declarer_tricks = 0
    state.made = False


@njit(cache=True)
def match_over(state):
    """Whether the match has played its ``num_deals`` scored deals (SW-D10)."""
    return state.phase == DEAL_OVER and state.deals_played >= state.num_deals


@njit(cache=True)
def next_deal(state):
    """Start the match's next deal: the deal passes left; shuffle or gather (§3.1).

    Call only when the current deal is over.
    """
    shuffle = state.always_shuffle or SHUFFLE_AFTER[state.contract]
    if shuffle:
        shuffle_pack(state)
    else:
        gather_and_cut(state)
    state.dealer = (state.dealer + 1) % 4
    state.deal_index += 1
    deal_pack(state)


# ------------------------------------------------------------------------ legal


@njit(cache=True)
def legal_sets(state):
    """Legal actions as two bit sets ``(cards, calls)``.

    ``cards`` has bit ``c`` for playing card ``c``; ``calls`` has bit ``i``
    for action ``CALL_BASE + i``. At most one of them is non-empty.
    """
    phase = state.phase
    if phase == PLAY:
        return whist_legal(state.hands[state.to_move], state.led_mask), np.uint64(0)
    if phase == AUCTION:
        calls = PASS_BIT | RAISE_CALLS[state.high]
        if state.high == NO_CONTRACT:
            calls |= PROP_BIT
        elif state.high == PROP_COP and not state.copped:
            calls |= COP_BIT
        return np.uint64(0), calls
    if phase == COP_OFFER:
        return np.uint64(0), COP_OFFER_CALLS
    if phase == UPGRADE:
        return np.uint64(0), UPGRADE_CALLS
    if phase == TRUMP_CHOICE:
        return np.uint64(0), TRUMP_CALLS
    return np.uint64(0), np.uint64(0)


@njit(cache=True)
def is_legal(state, action):
    """Whether ``action`` is legal in ``state``."""
    cards, calls = legal_sets(state)
    if 0 <= action < CALL_BASE:
        return (cards >> np.uint64(action)) & _U1 != 0
    if CALL_BASE <= action < 64 + CALL_BASE:
        return (calls >> np.uint64(action - CALL_BASE)) & _U1 != 0
    return False


# ------------------------------------------------------------------------ apply


@njit(cache=True)
def apply_action(state, action):
    """Apply a legal ``action`` for ``state.to_move`` (auction call or card)."""
    if state.phase == PLAY:
        _play_card(state, action)
    else:
        _call(state, action)


@njit(cache=True)
def _log_call(state, seat, action):
    n = state.n_calls
    state.calls[n] = action
    state.call_seats[n] = seat
    state.n_calls = n + 1


@njit(cache=True)
def _call(state, action):
    p = state.to_move
    phase = state.phase
    _log_call(state, p, action)
    if phase == AUCTION:
        if action == PASS:
            state.passed |= 1 << p
        elif action == PROP:
            state.high = PROP_COP
            state.holders = 1 << p
            state.proposer = p
            state.copped = False
        elif action == COP:
            state.holders |= 1 << p
            state.copped = True
        else:
            state.high = action - CALL_BASE - 1
            state.holders = 1 << p
            state.copped = False
        _advance_auction(state)
    elif phase == COP_OFFER:
        if action == COP:
            state.holders |= 1 << p
            _set_contract(state, np.int64(PROP_COP), np.int64(state.proposer), np.int64(p))
        else:
            state.phase = UPGRADE
            state.to_move = state.proposer
    elif phase == UPGRADE:
        if action == PASS:
            _end_deal(state)  # passed out (§5.2)
        else:
            _set_contract(state, np.int64(action - CALL_BASE - 1), np.int64(p), np.int64(-1))
    else:  # TRUMP_CHOICE
        _start_play(state, np.int64(action - TRUMP_BASE))


@njit(cache=True)
def _advance_auction(state):
    """Close the auction (§5.1) or pass the turn to the next bidder."""
    out = state.passed | state.holders
    if state.high == NO_CONTRACT and state.passed == 15:
        _end_deal(state)  # all four passed
        return
    if state.high != NO_CONTRACT and out == 15:
        if state.high == PROP_COP and not state.copped:
            e = eldest(state)
            if state.proposer != e:
                state.phase = COP_OFFER  # SW-D14
                state.to_move = e
            else:
                state.phase = UPGRADE  # SW-D13
                state.to_move = state.proposer
            return
        # Declarer of a Prop & Cop is the proposer; the holders' other bit is the accepter.
        if state.high == PROP_COP:
            partner = -1
            for s in range(4):
                if (state.holders >> s) & 1 and s != state.proposer:
                    partner = s
            _set_contract(state, np.int64(PROP_COP), np.int64(state.proposer), np.int64(partner))
        else:
            for s in range(4):
                if (state.holders >> s) & 1:
                    _set_contract(state, np.int64(state.high), np.int64(s), np.int64(-1))
        return
    p = state.to_move
    for _ in range(4):
        p = (p + 1) % 4
        if not (out >> p) & 1:
            break
    state.to_move = p


@njit(cache=True)
def _set_contract(state, contract, declarer, partner):
    # Callers cast every argument to int64, so this compiles once, not per mix of types.
    state.contract = contract
    state.declarer = declarer
    state.partner = partner
    state.declarers = (1 << declarer) | ((1 << partner) if partner >= 0 else 0)
    if contract == ABUNDANCE:
        state.phase = TRUMP_CHOICE  # SW-D7
        state.to_move = declarer
    elif contract == PROP_COP or contract == SOLO or contract == ABUNDANCE_IN_TRUMPS:
        _start_play(state, np.int64(SUIT_OF[state.turn_up]))
    else:
        _start_play(state, np.int64(-1))  # Misère, Misère Ouverte, Abundance Declared (SW-D8)


@njit(cache=True)
def _start_play(state, trumps):
    state.trumps = trumps
    state.trump_mask = SUIT_MASKS[trumps] if trumps >= 0 else np.uint64(0)
    state.phase = PLAY
    # SW-D9: the Abundance Declared declarer leads; otherwise eldest.
    leader = state.declarer if state.contract == ABUNDANCE_DECLARED else eldest(state)
    state.leader = leader
    state.to_move = leader


@njit(cache=True)
def _play_card(state, card):
    pos = trick_play.lay_card(state, card, SUIT_OF, SUIT_MASKS)
    state.play_order[state.trick_no * 4 + pos] = card
    if pos and whist_beats(card, state.trick_cards[state.win_pos], SUIT_OF, state.trump_mask):
        state.win_pos = pos
    if not trick_play.pass_turn(state, pos, 4):
        return
    winner = (state.leader + state.win_pos) % 4
    trick_play.close_trick(state, winner, 4)
    state.last_winner = winner
    if state.contract == MISERE_OUVERTE:
        state.exposed = True  # after trick 1, and it stays so
    if state.trick_no == N_TRICKS or (state.early_stop and _result_fixed(state)):
        _end_deal(state)


@njit(cache=True)
def declarer_tricks(state):
    """Tricks won so far by the declaring side of ``state``."""
    total = 0
    for s in range(4):
        if (state.declarers >> s) & 1:
            total += state.tricks_won[s]
    return total


@njit(cache=True)
def _result_fixed(state):
    """SW-D11: a Misère declarer has taken a trick, an Abundance Declared one lost one."""
    c = state.contract
    if c == MISERE or c == MISERE_OUVERTE:
        return declarer_tricks(state) > 0
    if c == ABUNDANCE_DECLARED:
        return declarer_tricks(state) < state.trick_no
    return False


@njit(cache=True)
def settlement(contract, tricks, unit):
    """``(made, a)`` for a contract, the declarer side's tricks and the unit (§7)."""
    if contract == MISERE or contract == MISERE_OUVERTE:
        made = tricks == 0
    elif contract == ABUNDANCE_DECLARED:
        made = tricks == N_TRICKS
    else:
        made = tricks >= _GOAL[contract]
    goal = _GOAL[contract]
    extra = tricks - goal if made else goal - 1 - tricks  # under-tricks from the first losing total
    return made, _BASE_UNITS[contract] * unit + _TRICK_POINTS[contract] * extra


@njit(cache=True)
def deal_payoffs(contract, declarers, tricks, unit, out):
    """Fill ``out[0:4]`` with each seat's payoff; return whether the contract was made.

    ``declarers`` is the bit set of the declaring side and ``tricks`` its
    tricks (§7). Prop & Cop pays in pairs, one defender to one declarer; a
    lone declarer is paid by, or pays, all three defenders.
    """
    made, a = settlement(contract, tricks, unit)
    sign = 1 if made else -1
    declarer_gets = sign * a if contract == PROP_COP else 3 * sign * a
    for s in range(4):
        out[s] = declarer_gets if (declarers >> s) & 1 else -sign * a
    return made


@functools.cache  # a pure function of the options, read by every env built
def payoff_bound(unit: int) -> int:
    """The largest payoff magnitude of a seat in one deal at this ``unit``.

    Every contract settled at every trick count by :func:`deal_payoffs`
    (Prop & Cop by its two declarers, the others by a lone one): an
    Abundance that takes no trick is the worst, ``3 * (3 * unit + 16)``.
    """
    out = np.zeros(4, dtype=np.int64)
    worst = 0
    for contract in range(PROP_COP, N_CONTRACTS):
        declarers = 0b0011 if contract == PROP_COP else 0b0001
        for tricks in range(N_TRICKS + 1):
            deal_payoffs(contract, declarers, tricks, unit, out)
            worst = max(worst, int(np.abs(out).max()))
    return worst


@njit(cache=True)
def _end_deal(state):
    """Score the deal (§7) and close it; a passed-out deal scores nothing."""
    state.phase = DEAL_OVER
    state.to_move = -1
    if state.contract == NO_CONTRACT:
        return
    tricks = declarer_tricks(state)
    state.made = deal_payoffs(state.contract, state.declarers, tricks, state.unit, state.payoffs)
    for s in range(4):
        state.scores[s] += state.payoffs[s]
    state.declarer_tricks = tricks
    state.deals_played += 1


# ---------------------------------------------------------------------- observe


@njit(cache=True)
def observe_core(state, seat, obs):
    """The part of ``observe`` a player needs to choose: hand, contract, trick, legal sets.

    Fills ``seat, phase, hand, trick_no, leader, trick_n, trick_cards,
    played, voids, turn_up, contract, declarers, trumps, exposed_hand,
    legal_cards, legal_calls`` and leaves the other fields as they were: the
    built-in rule agent reads only these, and copying less per decision
    keeps it fast.
    """
    trick_play.observe_trick(state, seat, obs, 4)
    obs.turn_up = state.turn_up
    obs.contract = state.contract
    obs.declarers = state.declarers
    obs.trumps = state.trumps
    obs.exposed_hand = state.hands[state.declarer] if state.exposed else np.uint64(0)
    cards, calls = legal_sets(state) if state.to_move == seat else _NO_SETS
    obs.legal_cards = cards
    obs.legal_calls = calls


@njit(cache=True)
def observe(state, seat, obs):
    """Write seat ``seat``'s information set into the ``OBS_DTYPE`` record ``obs``.

    Holds only what that seat may know: its own hand, the turn-up, the
    auction, the contract, the cards played (by whom), tricks won, shown
    voids and the exposed Misère Ouverte hand. Legal sets are filled only
    when ``seat`` is to move.
    """
    observe_core(state, seat, obs)
    obs.dealer = state.dealer
    obs.to_move = state.to_move
    copy_calls(obs, state, MAX_CALLS)
    obs.high = state.high
    trick_play.observe_last_trick(state, obs, 4)
    for s in range(4):
        obs.scores[s] = state.scores[s]


@njit(cache=True)
def n_legal(state):
    """Number of legal actions."""
    cards, calls = legal_sets(state)
    return popcount(cards) + popcount(calls)


@njit(cache=True)
def deal_over(state):
    """Whether the current deal is over (scored or passed out)."""
    return state.phase == DEAL_OVER


@njit(cache=True)
def in_card_play(state):
    """Whether the deal is in its card play (the phase stochastic playouts randomise)."""
    return state.phase == PLAY
