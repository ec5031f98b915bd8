"""PettingZoo's other masking convention: the legal mask in ``info``, the observation bare.

``trickgym.envs.pettingzoo.env(game, mask_in="info", obs_mode="features")``
wraps the AEC env in :class:`MaskInInfo`: ``observe(agent)`` is the
``"observation"`` part alone (with ``obs_mode="features"``, a ``float32``
vector in a ``Box``) and ``infos[agent]["action_mask"]`` the ``int8`` mask
(all zero except for the agent to act), beside whatever else the env's
``info`` holds. PettingZoo documents both conventions, and its learners and
``api_test`` read either (``api_test`` samples from ``info["action_mask"]``).

Why: ``api_test`` warns "Observation is not a NumPy array" (and that the
space should be a ``Box`` or ``Discrete``) for any observation that is a
dict, which the mask-in-observation convention always is, except for the
names of PettingZoo's own board games, which it lists. With the mask in
``info`` and the features observation, ``api_test`` passes with no warning.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from trickgym.checks import require_extra

require_extra("pettingzoo", "pettingzoo", "trickgym.envs.pettingzoo_mask_in_info")
from pettingzoo.utils.wrappers import BaseWrapper  # noqa: E402

__all__ = ["MaskInInfo"]


class MaskInInfo(BaseWrapper):
    """An AEC env of :mod:`trickgym.envs.pettingzoo` with its masks moved to ``info``."""

    def __init__(self, env):
        super().__init__(env)
        self._spaces = {a: env.observation_space(a)["observation"] for a in env.possible_agents}
        self._zeros = np.zeros(env.unwrapped.game.n_actions, dtype=np.int8)

    def observation_space(self, agent: str) -> spaces.Space:
        """The space of the bare observation (``Box`` with ``obs_mode="features"``)."""
        self.env.observation_space(agent)  # a ValueError naming the agents for a wrong one
        return self._spaces[agent]

    def observe(self, agent: str):
        """``agent``'s observation without its mask (the mask is in ``infos[agent]``)."""
        return self.env.observe(agent)["observation"]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """The env's reset, then each live agent's mask in its info."""
        self.env.reset(seed=seed, options=options)
        self._mask_infos()

    def step(self, action) -> None:
        """The env's step, then each live agent's mask in its info."""
        self.env.step(action)
        self._mask_infos()

    def _mask_infos(self) -> None:
        # Built once per step: api_test compares last()'s info with infos[agent]
        # by identity of the arrays, and the masks only change when a step is taken.
        env = self.env
        acting = env.agent_selection
        done = env.terminations.get(acting, True) or env.truncations.get(acting, True)
        infos = {}
        for agent in env.agents:
            mask = self._zeros.copy()
            if agent == acting and not done:
                mask = env.unwrapped.state_view.legal_action_mask().astype(np.int8)
            infos[agent] = {**env.infos[agent], "action_mask": mask}
        self.infos = infos
