"""PIMC valued by the double-dummy solver (Solo Whist), cards and calls alike.

Each sampled deal is solved double dummy from the current position
(:mod:`trickgym.agents.solved_solowhist`): in the play, every legal card's value
is the seat's payoff with best play by all four hands afterwards; in the
auction (and the Abundance trump choice), every legal call's value is the
payoff of the contract it leads to once the rule agents finish the
auction, solved from the first lead. A world (or a call's contract) whose
solve runs past the table's node budget is valued by rule-agent playouts
instead and counted in ``stats[STAT_FALLBACKS]``. One table serves every
sample of a decision: entries are keyed by the whole position and
objective (the agent empties it before the next decision, see :mod:`.agent`).

Phat is not valued this way: its payoff is card points and phat, not
tricks of a side fixed by a contract (docs/guides/agents.md, "Monte Carlo agents").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym import protocol
from trickgym.agents.solved_solowhist import auction_values, card_payoffs
from trickgym.borrow import borrowed
from trickgym.engine.playout import play_out
from trickgym.games.solowhist.constants import N_ACTIONS, N_CARDS, PLAY
from trickgym.games.solowhist.rules import apply_action

from .pimc_common import STAT_FALLBACKS, STAT_SOLVES, add_valued, playout_values, sample_scratch

__all__ = ["pimc_dd_values"]


@njit(cache=True)
def pimc_dd_values(obs, memory, template, params, rng, samples, table, exact_cards, sums):
    """Sum of the seat's double-dummy payoffs per action over ``samples`` deals.

    ``obs`` is a Solo Whist observation record (one-record array), ``table``
    the solver's ``(entries, meta)``, ``exact_cards`` the hand size from
    which tricks are counted exactly (see :mod:`trickgym.agents.solved_solowhist`);
    ``sums`` is ``(values, counts, stats)``:
    ``values`` and ``counts`` (length ``MAX_ACTIONS``) are accumulated;
    ``stats`` (``int64[2]``) counts the valuations solved (a world's cards,
    a call's contract) and those past the node budget, valued by one
    rule-agent playout instead. Returns the number of exactly uniform samples.
    """
    values, counts, stats = sums
    # Borrowed arguments: no atomic reference counting on their views in the loops.
    obs, memory, template, params, rng, values, counts = borrowed(
        (obs, memory, template, params, rng, values, counts)
    )
    seat = obs[0].seat
    deal, trial, obs_scratch, actions = sample_scratch(obs, template)
    card_values = np.empty(N_CARDS, dtype=np.float64)
    call_values = np.empty(N_ACTIONS, dtype=np.float64)
    n_uniform = 0
    for _ in range(samples):
        n_uniform += protocol.determinize(obs, memory, template, deal, rng)
        st = deal[0]
        if st.phase == PLAY:
            if card_payoffs(st, seat, table, exact_cards, card_values) > 0:
                add_valued(card_values, values, counts)
                stats[STAT_SOLVES] += 1
            else:  # past the budget: one playout per card
                playout_values(
                    deal, seat, rng, params, 1, trial, obs_scratch, actions, values, counts
                )
                stats[STAT_FALLBACKS] += 1
            continue
        # A call's value: the contract it leads to, solved (only legal calls are written).
        # -3e9: not a legal call (auction_values writes -1e9 for a call it could not solve).
        call_values[:] = -3e9
        auction_values(st, seat, rng, obs_scratch, params, table, exact_cards, call_values)
        for a in range(N_ACTIONS):
            if -2e9 < call_values[a] < -1e8:  # past the budget: rule agents play it out
                trial[0] = st
                apply_action(trial[0], a)
                play_out(trial[0], rng, obs_scratch, params)
                call_values[a] = trial[0].payoffs[seat]
                stats[STAT_FALLBACKS] += 1
            elif call_values[a] > -1e8:
                stats[STAT_SOLVES] += 1
        add_valued(call_values, values, counts)
    return n_uniform
