"""PIMC card play valued by the point-trick solver (Phat, Pinochle, Troggu).

On each sampled deal the player to move holds at most ``solve_cards``
cards: every legal card is valued by the seat's payoff with best play by
every hand afterwards (:func:`trickgym.agents.solved_points.solved_payoffs`).
A sample whose solve runs out of the table's node budget is valued by
rule-agent playouts instead, as every decision above the line is
(:func:`.pimc.pimc_values`). One table serves every sample and decision:
entries are keyed by the whole position.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from trickgym.agents.solved_points import solved_payoffs

from trickgym import protocol
from trickgym.borrow import borrowed

from .pimc import legal_list
from .playout import play_out

__all__ = ["pimc_points_values"]


@njit(cache=True)
def pimc_points_values(obs, memory, template, params, rng, samples, table, values, counts):
    """Sum of the seat's solved payoffs per card over ``samples`` deals.

    ``obs`` is the seat's observation record (one-record array) in the card
    play, ``table`` the solver's ``(entries, meta)`` with its node budget;
    ``values`` and ``counts`` (length ``MAX_ACTIONS``) are accumulated.
    Returns the number of exactly uniform samples.
    """
    obs, memory, template, params = (
        borrowed(obs),
        borrowed(memory),
        borrowed(template),
        borrowed(params),
    )
    rng, values, counts = borrowed(rng), borrowed(values), borrowed(counts)
    seat = obs[0].seat
    base = np.empty(1, dtype=template.dtype)
    trial = np.empty(1, dtype=template.dtype)
    obs_scratch = np.empty(1, dtype=obs.dtype)
    card_values = np.empty(64, dtype=np.float64)
    pays = np.empty(64, dtype=np.float64)
    actions = np.empty(64, dtype=np.int64)
    n_uniform = 0
    for _ in range(samples):
        n_uniform += protocol.determinize(obs, memory, template, base, rng)
        if solved_payoffs(base, seat, table, card_values, pays):
            for c in range(64):
                if pays[c] > -1e8:
                    values[c] += pays[c]
                    counts[c] += 1
            continue
        n = legal_list(base[0], actions)  # past the budget: one playout per card
        for k in range(n):
            trial[0] = base[0]
            protocol.apply_action(trial[0], actions[k])
            play_out(trial[0], rng, obs_scratch, params)
            values[actions[k]] += trial[0].payoffs[seat]
            counts[actions[k]] += 1
    return n_uniform
