"""Gymnasium environment for Pinochle: one learning seat, agents in the others."""

from __future__ import annotations

from trickgym.games.pinochle.encode import OBS_SHAPES

from .base import TrickEnv

__all__ = ["PinochleEnv"]


class PinochleEnv(TrickEnv):
    """Four-player partnership Pinochle (``docs/rules/pinochle.md``), one hand per episode.

    ``gymnasium.make("trickgym/Pinochle-v0", seat=0, opponents="random",
    mode="kitty", ...)``: keyword options are the game's table options
    (``mode``, ``pass_count``, ``min_bid``, ``max_bid``, ``all_pass``,
    ``must_head``, ``meld_save``, ``target``). Teams are NS (seats 0, 2)
    and EW (1, 3); ``opponents`` is one agent or a list of 3 for the seats
    ``seat+1, seat+2, seat+3`` (the partner is the second).

    Actions
        ``Discrete(128)``: ``0..47`` a card (``12*suit + 2*rank + copy``,
        suits ♠ ♥ ♦ ♣, ranks 9 J Q K 10 A) to play, bury (kitty mode) or
        pass (exchange mode); ``48`` Pass; ``49..52`` name trumps ♠ ♥ ♦ ♣;
        ``53 + i`` bid ``min_bid + 10*i`` (bids above ``max_bid`` are never
        legal). Only actions in ``observation["action_mask"]`` are legal
        (``action_space.sample()`` draws among them); an illegal one ends the
        episode with reward ``-illegal_penalty`` (or raises with
        ``illegal_action="raise"``), by default the game's ``payoff_bound``
        (4,320 in kitty mode, 4,840 in exchange mode at ``max_bid=990``: the
        most a hand can cost a seat). Cards come in two identical copies on
        adjacent ids (``0`` and ``1`` are both ``9S``); every id, the
        observation ranges, the reward scale and ``info``: ``docs/spec.md``.

    Observation
        ``Dict`` of the seat's information set; see
        :mod:`trickgym.games.pinochle.encode` (own hand, the kitty once
        shown, own discards or passed cards where the seat saw them, every
        seat's meld and meld cards, the auction, tricks, voids, scores).

    Reward
        At the end of the hand, the seat's team's hand score minus the other
        team's (a set declaring team scores minus its bid); 0 before. A hand
        passed out (``all_pass="redeal"``) gives 0.

    Episode
        One hand of a new match, freshly dealt: the auction, the kitty or the
        exchange, melds (automatic) and the 11 or 12 tricks.

    Version history
        v0: first release.
    """

    game_name = "pinochle"
    obs_shapes = OBS_SHAPES
