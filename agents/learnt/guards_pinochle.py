"""Pinochle's guards for the learnt agent, named by its description (``learnt_guards``).

The learnt agent (:mod:`.agent`) plays its net's values; these rules keep it
from decisions its training taught it nothing about: the auction's
candidates (Pass and the lowest bids, the ones PIMC valued) and a bid over
one's own partner (where the rule agent's call is kept).
"""

from __future__ import annotations

import numpy as np

from trickgym.agents.mc.sample_pinochle import MAX_BID_STEP
from trickgym.games.pinochle.constants import AUCTION, BID_BASE, PASS

__all__ = ["candidate_masks", "keeps_rule_rows"]


def candidate_masks(legal: np.ndarray, phases: np.ndarray) -> np.ndarray:
    """``legal`` (``bool[k, n_actions]``) narrowed in the auction to Pass and the lowest
    ``MAX_BID_STEP`` bids: PIMC's candidates (``sample_pinochle.candidates``, on the
    state's legal sets; this is that rule on the legal ids, which a test holds equal).

    A Pinochle net free to jump-bid bid 950-990 and went down in 88 of 1,000 deals.
    """
    bids = legal.copy()
    bids[:, :BID_BASE] = False
    kept = bids & (np.cumsum(bids, axis=1) <= MAX_BID_STEP)
    kept[:, PASS] = legal[:, PASS]
    return np.where((np.asarray(phases) == AUCTION)[:, None], kept, legal)


def keeps_rule_rows(records: np.ndarray) -> np.ndarray:
    """``bool[k]``: a bid over one's own partner, where the rule agent's call is kept.

    PIMC valued raising a partner with the partner played by rule-agent
    rollouts, which pass; two learnt partners raised each other to 990
    instead (kitty, 400 deals: -19 a deal against rule with the candidate
    guards only; +24 with the rule agent's call there).
    """
    partner = (records["seat"].astype(np.int64) + 2) % 4
    return (records["phase"] == AUCTION) & (records["holder"] == partner)
