"""Playing a card into a trick: the state bookkeeping every game's rules share.

Games differ in what may be played and which card wins; what a played card
and a finished trick do to the state record is the same in all of them, and
is written here once. The kernels read and write the play fields every
state dtype has (``hands, to_move, played, voids, trick_cards, trick_n,
leader, trick_no, tricks_won, last_trick_cards, last_leader``, and for
the whist-like games ``led_mask`` and ``win_pos``; see
:mod:`trickgym.games.fields`). The winner of a trick stays each game's own
rule: the caller decides it and passes it on.

The kernels of a card played are inlined into each game's play kernel (numba IR inlining):
called as functions, they make a whole random-agent simulation some 20%
slower.
"""

from __future__ import annotations

from numba import njit

from ..cards.bits import bit

__all__ = [
    "clear_play",
    "close_trick",
    "lay_card",
    "observe_last_trick",
    "observe_trick",
    "pass_turn",
]


@njit(cache=True, inline="always")
def lay_card(state, card, suit_of, suit_masks):
    """Move ``card`` from the hand of the player to move into the trick; return its position.

    A lead sets the led suit and is the winning card so far; a card off the
    led suit shows its player void in it. Whether a later card takes the
    lead (``win_pos``) is the game's rule, applied by the caller.
    """
    p = state.to_move
    card_bit = bit(card)
    state.hands[p] &= ~card_bit
    state.played[p] |= card_bit
    pos = state.trick_n
    state.trick_cards[pos] = card
    if pos == 0:
        state.led_mask = suit_masks[suit_of[card]]
        state.win_pos = 0
    elif not (card_bit & state.led_mask):
        state.voids[p] |= 1 << suit_of[state.trick_cards[0]]
    return pos


@njit(cache=True, inline="always")
def pass_turn(state, pos, n_players):
    """After the card at trick position ``pos``: whether the trick is complete.

    While it is not, the card is counted and the next seat is to play.
    """
    if pos + 1 < n_players:
        state.trick_n = pos + 1
        state.to_move = (state.to_move + 1) % n_players
        return False
    return True


@njit(cache=True, inline="always")
def close_trick(state, winner, n_players):
    """Close the complete trick won by seat ``winner``, who leads the next one.

    The trick becomes the last trick and the table is cleared; where its
    cards go (a seat's or a team's pile) the caller has recorded first.
    """
    state.tricks_won[winner] += 1
    for i in range(n_players):
        state.last_trick_cards[i] = state.trick_cards[i]
        state.trick_cards[i] = -1
    state.last_leader = state.leader
    state.trick_no += 1
    state.trick_n = 0
    state.led_mask = 0
    state.leader = winner
    state.to_move = winner


@njit(cache=True)
def clear_play(state, n_seats):
    """Empty the table for a new deal: no trick yet, nothing played, won or paid.

    ``n_seats`` is the length of the per-seat arrays to clear; the first
    leader is the game's to set afterwards.
    """
    for s in range(n_seats):
        state.trick_cards[s] = -1
        state.last_trick_cards[s] = -1
        state.tricks_won[s] = 0
        state.played[s] = 0
        state.voids[s] = 0
        state.payoffs[s] = 0
    state.trick_no = 0
    state.leader = -1
    state.trick_n = 0
    state.led_mask = 0
    state.last_leader = -1


@njit(cache=True, inline="always")
def observe_trick(state, seat, obs, n_seats):
    """Copy what every seat sees of the play into ``obs``, with ``seat``'s own hand.

    The phase, the trick on the table (leader, cards so far, trick number)
    and each seat's played cards and shown voids: the fields a rule agent
    reads, so this runs on every decision (inlined).
    """
    obs.seat = seat
    obs.phase = state.phase
    obs.hand = state.hands[seat]
    obs.trick_no = state.trick_no
    obs.leader = state.leader
    obs.trick_n = state.trick_n
    for s in range(n_seats):
        obs.trick_cards[s] = state.trick_cards[s]
        obs.played[s] = state.played[s]
        obs.voids[s] = state.voids[s]


@njit(cache=True)
def observe_last_trick(state, obs, n_seats):
    """Copy the last complete trick and the tricks each seat has won into ``obs``."""
    obs.last_leader = state.last_leader
    for s in range(n_seats):
        obs.last_trick_cards[s] = state.last_trick_cards[s]
        obs.tricks_won[s] = state.tricks_won[s]
