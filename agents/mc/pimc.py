"""Perfect-information Monte Carlo (PIMC): average each action's value over sampled deals.

For each of ``samples`` determinisations of the seat's information set,
every legal action is applied to the sampled deal and the rest of the deal
is played out by rule agents at every seat (``rollouts`` times); an action's
value is its mean payoff to the seat. Bids are valued the same way: a bid's
rollouts play the auction on and then the contract it leads to, so each
contract's success is estimated over the sampled deals. Solo Whist card
play can use the double-dummy solver instead (see :mod:`.pimc_dd`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym import protocol
from trickgym.borrow import borrowed

from .playout import play_out

__all__ = ["MAX_ACTIONS", "pimc_values", "play_out"]

MAX_ACTIONS = 128


@njit(cache=True)
def legal_list(state, out):
    """Candidate (legal, unpruned) action ids of ``state`` into ``out``; returns their number."""
    low, high = protocol.candidates(state)
    base = protocol.call_base(state)
    n = 0
    for word in range(2):
        bits = low if word == 0 else high
        offset = 0 if word == 0 else base
        for a in range(64):
            if (bits >> np.uint64(a)) & np.uint64(1):
                out[n] = offset + a
                n += 1
    return n


@njit(cache=True)
def pimc_values(obs, memory, template, params, rng, samples, rollouts, values, counts):
    """Sum of payoffs to the seat per action over ``samples`` deals and ``rollouts`` each.

    ``values`` and ``counts`` (length ``MAX_ACTIONS``) are accumulated;
    returns the number of exactly uniform samples.
    """
    # Borrowed arguments: no atomic reference counting on their views in the loops.
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
    actions = np.empty(MAX_ACTIONS, dtype=np.int64)
    n_uniform = 0
    for _ in range(samples):
        n_uniform += protocol.determinize(obs, memory, template, base, rng)
        n = legal_list(base[0], actions)
        for k in range(n):
            a = actions[k]
            for _ in range(rollouts):
                trial[0] = base[0]
                protocol.apply_action(trial[0], a)
                play_out(trial[0], rng, obs_scratch, params)
                values[a] += trial[0].payoffs[seat]
                counts[a] += 1
    return n_uniform
