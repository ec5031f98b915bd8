"""PIMC card play valued by the point-trick solver (Phat, Pinochle, Troggu).

On each sampled deal the player to move holds at most ``solve_cards``
cards: every legal card is valued by the seat's payoff with best play by
every hand afterwards (:func:`trickgym.agents.solved_points.solved_payoffs`).
A sample whose solve runs out of the table's node budget is valued by
rule-agent playouts instead, as every decision above the line is
(:func:`.pimc.pimc_values`). One table serves every sample of a decision
(entries are keyed by the whole position); the agent empties it before the
next decision, so that what was searched before never changes a decision.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from trickgym.agents.solved_points import solved_payoffs

from trickgym import protocol
from trickgym.borrow import borrowed

from .pimc_common import add_valued, playout_values, sample_scratch

__all__ = ["pimc_points_values"]


@njit(cache=True)
def pimc_points_values(obs, memory, template, params, rng, samples, table, values, counts):
    """Sum of the seat's solved payoffs per card over ``samples`` deals.

    ``obs`` is the seat's observation record (one-record array) in the card
    play, ``table`` the solver's ``(entries, meta)`` with its node budget;
    ``values`` and ``counts`` (length ``MAX_ACTIONS``) are accumulated.
    Returns the number of exactly uniform samples.
    """
    obs, memory, template, params, rng, values, counts = borrowed(
        (obs, memory, template, params, rng, values, counts)
    )
    seat = obs[0].seat
    deal, trial, obs_scratch, actions = sample_scratch(obs, template)
    card_values = np.empty(64, dtype=np.float64)
    pays = np.empty(64, dtype=np.float64)
    n_uniform = 0
    for _ in range(samples):
        n_uniform += protocol.determinize(obs, memory, template, deal, rng)
        if solved_payoffs(deal, seat, table, card_values, pays):
            add_valued(pays, values, counts)
        else:  # past the budget: one playout per card
            playout_values(deal, seat, rng, params, 1, trial, obs_scratch, actions, values, counts)
    return n_uniform
