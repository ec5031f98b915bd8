"""Positions from real play: rule agents deal and play until a given point of the card play.

Used to draw solver test cases and benchmark positions that look like the
positions agents actually meet (a rule-agent auction, a contract, the first
tricks played sensibly), rather than random hands.
"""

from __future__ import annotations

import numpy as np

from trickgym.engine.kinds import RULE
from trickgym.engine.loops import act
from trickgym.engine.params import params_matrix

__all__ = ["rule_position"]


def rule_position(game, seed: int, cards_left: int, misere: bool = False):
    """The state of deal ``seed`` once the player to move holds at most ``cards_left`` cards
    in the card play, every seat a rule agent; None if the deal ends first (a passed-out
    deal) or, unless ``misere``, its contract has no declaring side (a Troggu Misère).
    """
    if isinstance(cards_left, bool) or not isinstance(cards_left, int) or cards_left < 1:
        raise ValueError(f"cards_left must be a positive integer, got {cards_left!r}")
    params = params_matrix(game, game.n_seats)
    rng = np.array([seed + 1], dtype=np.uint64)
    scratch = np.empty(1, dtype=game.obs_dtype)
    state = game.deal(seed=seed)
    play = game.play_phase
    while not state.is_over:
        rec = state.record
        if int(rec["phase"]) == play:
            if not misere and not game.has_side(rec):
                return None
            if bin(int(rec["hands"][int(rec["to_move"])])).count("1") <= cards_left:
                return state
        p = state.current_player
        state.apply(int(act(RULE, state.array[0], p, rng, scratch, params, None)))
    return None
