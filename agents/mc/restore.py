"""The observed play put back into a determinised state: what every game's sampler shares.

A sampler deals the unseen cards (:mod:`.deal`), sets the deal up with its
game's rules and then restores the play so far: the public per-seat fields
as observed, each seat's card of the current trick back in its hand, and
the trick leader to move, so that replaying the trick's cards with the
game's ``apply_action`` leaves the state where the observation is.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.cards.bits import bit

__all__ = ["restore_play", "trick_by_seat"]


@njit(cache=True)
def trick_by_seat(obs, n_seats):
    """``(in_trick, trick_all)``: each seat's card of the current trick, and all of them.

    ``in_trick`` has 8 entries (the largest table); seats past ``n_seats``
    are empty.
    """
    in_trick = np.zeros(8, dtype=np.uint64)
    trick_all = np.uint64(0)
    for i in range(obs.trick_n):
        in_trick[(obs.leader + i) % n_seats] |= bit(obs.trick_cards[i])
        trick_all |= bit(obs.trick_cards[i])
    return in_trick, trick_all


@njit(cache=True)
def restore_play(st, obs, hands, in_trick, n_seats):
    """Put the observed play into ``st``, the trick's leader to move.

    ``hands`` are the seats' current hands (sampled); each gets back its
    card of the current trick (``in_trick``), which the caller then replays.
    """
    for s in range(n_seats):
        st.hands[s] = hands[s] | in_trick[s]
        st.played[s] = obs.played[s] & ~in_trick[s]
        st.voids[s] = obs.voids[s]
        st.tricks_won[s] = obs.tricks_won[s]
        st.last_trick_cards[s] = obs.last_trick_cards[s]
    st.trick_no = obs.trick_no
    st.leader = obs.leader
    st.to_move = obs.leader
    st.last_leader = obs.last_leader
