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

from numba import njit

from trickgym import protocol
from trickgym.borrow import borrowed
from trickgym.engine.playout import play_out

from .pimc_common import MAX_ACTIONS, playout_values, sample_scratch

__all__ = ["MAX_ACTIONS", "pimc_values", "play_out"]


@njit(cache=True)
def pimc_values(obs, memory, template, params, rng, samples, rollouts, values, counts):
    """Sum of payoffs to the seat per action over ``samples`` deals and ``rollouts`` each.

    ``values`` and ``counts`` (length ``MAX_ACTIONS``) are accumulated;
    returns the number of exactly uniform samples.
    """
    # Borrowed arguments: no atomic reference counting on their views in the loops.
    obs, memory, template, params, rng, values, counts = borrowed(
        (obs, memory, template, params, rng, values, counts)
    )
    seat = obs[0].seat
    deal, trial, obs_scratch, actions = sample_scratch(obs, template)
    n_uniform = 0
    for _ in range(samples):
        n_uniform += protocol.determinize(obs, memory, template, deal, rng)
        playout_values(
            deal, seat, rng, params, rollouts, trial, obs_scratch, actions, values, counts
        )
    return n_uniform
