"""Phat determinisation: the unseen cards dealt consistently with one seat's view.

Everything but the other hands is public in Phat (rules §6): each other
seat holds 13 cards less those it has played, and none of a suit it has
shown out of. Trumps, scores, phat and muck come from the record.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.cards.decks import STANDARD
from trickgym.games.phat.rules import PUBLIC_SCORES, apply_action, set_deal
from trickgym.records import copy_fields

from .deal import SAMPLE_TRIES, deal_standard_hands
from .restore import restore_play, trick_by_seat

__all__ = ["SAMPLE_TRIES", "deal_hidden", "determinize"]


_SUIT_MASKS = STANDARD.suit_masks.copy()


@njit(cache=True)
def deal_hidden(obs, rng, hands):
    """Fill ``hands[0:4]`` with current hands; True when drawn exactly uniformly."""
    return deal_standard_hands(obs, np.zeros(4, dtype=np.uint64), rng, hands)


@njit(cache=True)
def determinize(obs_arr, memory, template, out, rng):
    """A full state in ``out[0]`` consistent with ``obs_arr[0]``; options from ``template[0]``."""
    obs = obs_arr[0]
    hands = np.zeros(4, dtype=np.uint64)
    uniform = deal_hidden(obs, rng, hands)
    out[0] = template[0]
    st = out[0]
    st.pitcher = obs.pitcher
    n = obs.trick_n
    in_trick, _ = trick_by_seat(obs, 4)
    start = np.zeros(4, dtype=np.uint64)
    for s in range(4):
        start[s] = hands[s] | obs.played[s]
    set_deal(st, start)
    copy_fields(st, obs, PUBLIC_SCORES)
    st.winner = -1
    restore_play(st, obs, hands, in_trick, 4)
    if obs.trumps >= 0 and not (obs.trick_no == 0 and n > 0):
        st.trumps = obs.trumps
        st.trump_mask = _SUIT_MASKS[obs.trumps]
    for i in range(n):
        apply_action(st, obs.trick_cards[i])
    return uniform
