"""PIMC card play valued by the double-dummy solver (Solo Whist).

Each sampled deal is solved double dummy from the current position: every
legal card's value is the declaring side's tricks with best play by all
four hands (:func:`trickgym.solvers.dd_search.dd_card_values`), turned into
the seat's payoff by the contract's own settlement. The table is kept
across samples and decisions: entries are keyed by the whole position.

Phat is not valued this way: its payoff is card points and phat, not
tricks, and no side is fixed by a contract (see the README).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.games.solowhist.constants import MISERE, MISERE_OUVERTE
from trickgym.games.solowhist.rules import deal_payoffs
from trickgym.solvers.dd_search import dd_card_values

from .sample_solowhist import determinize

__all__ = ["pimc_dd_values"]


@njit(cache=True)
def pimc_dd_values(obs, memory, template, rng, samples, table, values, counts):
    """Sum of the seat's double-dummy payoffs per card over ``samples`` deals.

    ``obs`` is a Solo Whist observation record (one-record array) in the
    play, ``table`` the solver's ``(entries, meta)``; ``values`` and
    ``counts`` (length ``MAX_ACTIONS``) are accumulated. Returns the number
    of exactly uniform samples.
    """
    seat = obs[0].seat
    base = np.empty(1, dtype=template.dtype)
    trick = np.full(4, -1, dtype=np.int64)
    card_values = np.empty(52, dtype=np.int64)
    pay = np.zeros(4, dtype=np.int32)
    n_uniform = 0
    for _ in range(samples):
        n_uniform += determinize(obs, memory, template, base, rng)
        st = base[0]
        for i in range(4):
            trick[i] = st.trick_cards[i] if i < st.trick_n else -1
        misere = st.contract == MISERE or st.contract == MISERE_OUVERTE
        dd_card_values(
            st.hands.astype(np.uint64),
            trick,
            st.trick_n,
            st.leader,
            st.trumps,
            st.declarers,
            misere,
            table,
            card_values,
        )
        won = 0
        for s in range(4):
            if (st.declarers >> s) & 1:
                won += st.tricks_won[s]
        for c in range(52):
            if card_values[c] >= 0:
                deal_payoffs(st.contract, st.declarers, won + card_values[c], st.unit, pay)
                values[c] += pay[seat]
                counts[c] += 1
    return n_uniform
