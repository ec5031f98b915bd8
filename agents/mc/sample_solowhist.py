"""Solo Whist determinisation: the unseen cards dealt consistently with one seat's view.

Constraints (rules §3, §6): every other seat holds 13 cards less those it
has played; no card of a suit it has shown out of; the turned-up card is
the dealer's until played; the Misère Ouverte declarer's hand, once
exposed, is known. The auction is replayed from the record's calls on the
sampled deal, so the determinised state is the game's own state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.cards.bits import bit
from trickgym.games.solowhist.constants import MISERE_OUVERTE, PLAY
from trickgym.games.solowhist.rules import (
    _reset_deal,
    apply_action,
)

from .deal import SAMPLE_TRIES, deal_standard_hands
from .restore import restore_play, trick_by_seat

__all__ = ["SAMPLE_TRIES", "deal_hidden", "determinize"]


@njit(cache=True)
def deal_hidden(obs, rng, hands):
    """Fill ``hands[0:4]`` with the seats' current hands, the seat's own as observed.

    Returns True when the draw was exactly uniform over consistent deals.
    """
    known = obs.hand
    for s in range(4):
        known |= obs.played[s]
    fixed = np.zeros(4, dtype=np.uint64)
    dealer = obs.dealer
    if dealer != obs.seat and obs.turn_up >= 0 and not (known & bit(obs.turn_up)):
        fixed[dealer] |= bit(obs.turn_up)
    if obs.exposed_hand != 0:
        for s in range(4):
            if (obs.declarers >> s) & 1 and s != obs.seat:
                fixed[s] |= obs.exposed_hand
    return deal_standard_hands(obs, fixed, rng, hands)


@njit(cache=True)
def determinize(obs_arr, memory, template, out, rng):
    """A full state in ``out[0]`` consistent with ``obs_arr[0]``; options from ``template[0]``."""
    obs = obs_arr[0]
    hands = np.zeros(4, dtype=np.uint64)
    uniform = deal_hidden(obs, rng, hands)
    out[0] = template[0]
    st = out[0]
    st.dealer = obs.dealer
    st.turn_up = obs.turn_up
    for s in range(4):
        st.initial_hands[s] = hands[s] | obs.played[s]
        st.hands[s] = st.initial_hands[s]
        st.scores[s] = obs.scores[s]
    _reset_deal(st)
    st.to_move = (obs.dealer + 1) % 4
    for i in range(obs.n_calls):
        apply_action(st, obs.calls[i])
    if obs.phase != PLAY:
        return uniform
    # The play so far: public fields as observed, then the current trick replayed.
    in_trick, _ = trick_by_seat(obs, 4)
    restore_play(st, obs, hands, in_trick, 4)
    st.last_winner = obs.leader if obs.trick_no > 0 else -1
    st.exposed = st.contract == MISERE_OUVERTE and obs.trick_no > 0
    for i in range(obs.trick_n):
        apply_action(st, obs.trick_cards[i])
    return uniform
