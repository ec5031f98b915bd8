"""Gymnasium environment for Phat: one learning seat, agents in the others."""

from __future__ import annotations

import numpy as np

from trickgym.games.phat.encode import OBS_SHAPES

from .base import TrickEnv
from .inputs import check_choice

__all__ = ["PhatEnv"]


class PhatEnv(TrickEnv):
    """Phat (``docs/rules/phat.md``) from one seat; its partner and opponents are agents.

    ``gymnasium.make("trickgym/Phat-v0", seat=0, opponents="random",
    episode="deal", render_mode=None, illegal_action="terminate",
    illegal_penalty=None, games_in_match=1, target=181)``. Teams are NS
    (seats 0, 2) and EW (1, 3); ``opponents`` is one agent or a list of 3 for
    the seats ``seat+1, seat+2, seat+3`` (so the partner is the second).

    Actions
        ``Discrete(52)``: play card ``13*suit + rank`` (suits ♠ ♥ ♦ ♣, ranks
        2..A). The pitcher's first card sets trumps. Only the cards in
        ``observation["action_mask"]`` are legal (``action_space.sample()``
        draws among them); an illegal one ends the episode with reward
        ``-illegal_penalty`` (or raises with ``illegal_action="raise"``):
        by default the game's ``payoff_bound`` (120 at target 181, the most a
        deal can cost a seat), 1 with ``episode="game"``. Every id, the
        observation ranges, the reward scale and ``info``: ``docs/spec.md``.

    Observation
        ``Dict`` of the seat's information set; see
        :mod:`trickgym.games.phat.encode` for the table of keys (own hand,
        trumps, trick and last trick per seat, cards played, voids, the
        game's scores, this deal's phat and muck, the carry, games won).

    Reward
        ``episode="deal"``: at the end of each deal, the seat's team's phat
        plus muck bonus for that deal minus the other team's (0 before).
        ``episode="game"``: +1 when the seat's team wins the race to 181,
        -1 when it loses, at the end of the game (0 before).

    Episode
        ``"deal"``: one deal. The match goes on across episodes (scores and
        the muck carry-over persist, the pitch rotates, a won game starts a
        new one): ``reset()`` deals the next deal, and starts a new match
        when the last one is over or when ``reset(seed=...)`` is given.
        ``"game"``: one game from 0-0, over as many deals as it takes; the
        episode ends the moment a team reaches the target, mid-deal if so.

    Version history
        v0: first release.
    """

    game_name = "phat"
    obs_shapes = OBS_SHAPES

    def __init__(self, seat: int = 0, opponents="random", episode: str = "deal", **kwargs):
        self.episode = check_choice("episode", episode, ("deal", "game"))
        self._match_live = False  # a match is under way that a "deal" episode continues
        super().__init__(seat=seat, opponents=opponents, **kwargs)

    @property
    def match_goes_on(self) -> bool:
        """``episode="deal"``: the match goes on across episodes, one deal each."""
        return self.episode == "deal"

    def _new_episode(self, seed_given: bool) -> None:
        if self.match_goes_on and self._match_live and not seed_given:
            deal_over, match_over, _ = self.game.kernels.status_at(self._array, 0)
            if deal_over and not match_over:
                self.game.kernels.next_deal_at(self._array, 0)
                return
        draw = self.np_random.integers(0, 2**63, dtype=np.uint64)
        self._array = self.game.new_match(draw)
        self._match_live = True

    @property
    def reward_bound(self) -> float:
        """The largest reward magnitude: a deal's payoff, or 1 for a ``"game"`` episode."""
        return 1.0 if self.episode == "game" else super().reward_bound

    def _episode_over(self) -> bool:
        return self.episode == "deal" or bool(self._array[0]["game_over"])

    def _episode_reward(self) -> float:
        record = self._array[0]
        if self.episode == "deal":
            return float(record["payoffs"][self.seat])
        return 1.0 if record["winner"] == self.seat % 2 else -1.0
