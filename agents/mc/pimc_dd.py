"""PIMC valued by the double-dummy solver (Solo Whist), cards and calls alike.

Each sampled deal is solved double dummy from the current position
(:mod:`trickgym.agents.solowhist_dd`): in the play, every legal card's value
is the seat's payoff with best play by all four hands afterwards; in the
auction (and the Abundance trump choice), every legal call's value is the
payoff of the contract it leads to once the rule agents finish the
auction, solved from the first lead. One table serves every sample of a
decision: entries are keyed by the whole position and objective (the agent
empties it before the next decision, see :mod:`.agent`).

Phat is not valued this way: its payoff is card points and phat, not
tricks of a side fixed by a contract (see the README).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from trickgym.agents.solowhist_dd import auction_values, card_payoffs

from trickgym import protocol
from trickgym.borrow import borrowed
from trickgym.games.solowhist.constants import N_ACTIONS, N_CARDS, PLAY

from .pimc_common import add_valued, sample_scratch

__all__ = ["pimc_dd_values"]


@njit(cache=True)
def pimc_dd_values(obs, memory, template, params, rng, samples, table, exact_cards, values, counts):
    """Sum of the seat's double-dummy payoffs per action over ``samples`` deals.

    ``obs`` is a Solo Whist observation record (one-record array), ``table``
    the solver's ``(entries, meta)``, ``exact_cards`` the hand size from
    which tricks are counted exactly (see :mod:`trickgym.agents.solowhist_dd`);
    ``values`` and ``counts`` (length ``MAX_ACTIONS``) are accumulated.
    Returns the number of exactly uniform samples.
    """
    # Borrowed arguments: no atomic reference counting on their views in the loops.
    obs, memory, template, params, rng, values, counts = borrowed(
        (obs, memory, template, params, rng, values, counts)
    )
    seat = obs[0].seat
    deal, _, obs_scratch, _ = sample_scratch(obs, template)
    card_values = np.empty(N_CARDS, dtype=np.float64)
    call_values = np.empty(N_ACTIONS, dtype=np.float64)
    n_uniform = 0
    for _ in range(samples):
        n_uniform += protocol.determinize(obs, memory, template, deal, rng)
        st = deal[0]
        if st.phase == PLAY:
            card_payoffs(st, seat, table, exact_cards, card_values)
            add_valued(card_values, values, counts)
        else:  # a call's value: the contract it leads to, solved (only calls are written)
            call_values[:] = -1e9
            auction_values(st, seat, rng, obs_scratch, params, table, exact_cards, call_values)
            add_valued(call_values, values, counts)
    return n_uniform
