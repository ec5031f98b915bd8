"""Gymnasium environment for Solo Whist: one learning seat, agents in the others."""

from __future__ import annotations

from trickgym.games.solowhist.encode import OBS_SHAPES

from . import base
from .base import LegalDiscrete, TrickEnv

__all__ = ["LegalDiscrete", "SoloWhistEnv", "observation_space"]


def observation_space():
    """The ``Dict`` space of :mod:`trickgym.games.solowhist.encode` observations."""
    return base.observation_space(OBS_SHAPES)


class SoloWhistEnv(TrickEnv):
    """Solo Whist, one deal per episode, from one seat's point of view.

    ``gymnasium.make("trickgym/SoloWhist-v0", seat=0, opponents="random",
    render_mode=None, illegal_action="terminate", illegal_penalty=None,
    **options)``. The other three seats are played by ``opponents``: a
    built-in agent name (``"random"``), an object with ``act(observation,
    action_mask)``, or a list of three of those (for the seats after ``seat``
    in order). Keyword options are the game's table options (``unit``,
    ``early_stop``, ...; ``num_deals`` and ``always_shuffle`` have no effect,
    as every episode is a match of one deal).

    Actions
        ``Discrete(66)``: ``0..51`` play a card (``13*suit + rank``, suits
        ♠ ♥ ♦ ♣, ranks 2..A), ``52`` Pass, ``53`` Prop, ``54`` Cop, ``55``
        Solo, ``56`` Misère, ``57`` Abundance, ``58`` Abundance in Trumps,
        ``59`` Misère Ouverte, ``60`` Abundance Declared, ``61`` Decline (the
        Cop re-entry), ``62..65`` name trumps ♠ ♥ ♦ ♣ (Abundance). Only the
        actions in ``observation["action_mask"]`` are legal (and
        ``action_space.sample()`` draws among them). An illegal action ends
        the episode with reward ``-illegal_penalty`` (default: the game's
        ``payoff_bound``, 93 at unit 5: the most a deal can cost a seat) and
        ``info["illegal_action"] = True`` (PettingZoo's convention), or raises
        ``ValueError`` with ``illegal_action="raise"``. Every id, the
        observation ranges, the reward scale and ``info``: ``docs/spec.md``.

    Observation
        ``Dict`` of the seat's information set; see
        :mod:`trickgym.games.solowhist.encode` for the table of keys.

    Reward
        The seat's payoff for the deal (zero-sum over seats; unit 5 by
        default), given on the final step; 0 before. A passed-out deal ends
        the episode with reward 0.

    Episode
        Starts with a freshly shuffled deal (dealer drawn from the seed) and
        ends when the deal is scored or passed out.

    Version history
        v0: first release.
    """

    game_name = "solowhist"
    obs_shapes = OBS_SHAPES
