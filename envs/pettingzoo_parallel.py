"""PettingZoo parallel-API environments for every trickgym game.

``trickgym.envs.pettingzoo.parallel_env("solowhist", **options)`` (or
``solowhist_parallel_env()``, ``troggu_parallel_env(players=5)``,
``phat_parallel_env()``, ``pinochle_parallel_env(mode="exchange")``) returns
a :class:`TrickParallelEnv`: the AEC env's game, agents, spaces,
observations, rewards, seeding, render modes and illegal-action handling
(every option of :class:`trickgym.envs.pettingzoo.TrickAECEnv`), stepped
through PettingZoo's parallel API. It drives a ``TrickAECEnv`` inside, so
both APIs step the same code.

One agent acts per step
    These games are turn-based: at every step exactly one agent, the seat
    the rules say is to move (:attr:`TrickParallelEnv.agent_selection`), has
    a non-zero ``action_mask``; every other live agent's mask is all zero.
    ``step(actions)`` takes a dict from agent to action: the acting agent's
    action is required and played, the others' are ignored whatever they
    are (PettingZoo's own turn-based parallel wrapper does the same), so a
    policy may act for every agent and let the masks sort it out. Keys
    must be live agents (``env.agents``).

Returns
    ``reset()`` gives ``(observations, infos)``; ``step()`` gives
    ``(observations, rewards, terminations, truncations, infos)``, each a
    dict over the agents live before the step. Rewards are 0 until the
    deal ends, then each agent's payoff (an illegal action: the offender's
    ``-illegal_penalty``, the others' 0); at that step every agent
    terminates and ``env.agents`` becomes empty. A further ``step()``
    raises ``ValueError``: call ``reset()``.

Masks
    ``mask_in="observation"`` (default): ``{"observation": ..., "action_mask":
    ...}`` observations, as the AEC env's. ``mask_in="info"``: the
    observation bare and the mask in ``infos[agent]["action_mask"]``
    (PettingZoo's other convention; see
    :mod:`trickgym.envs.pettingzoo_mask_in_info`).

PettingZoo's ``parallel_api_test`` passes without a warning for every game,
in both observation modes (it checks the dicts' keys and the agents'
lifetimes, not the observations' types). It samples the actions from the
masks in the observations only: with ``mask_in="info"`` its random actions
are mostly illegal and end its episodes at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trickgym.checks import check_choice, require_extra

require_extra("pettingzoo", "pettingzoo", "trickgym.envs.pettingzoo_parallel")
from gymnasium import spaces  # noqa: E402
from pettingzoo import ParallelEnv  # noqa: E402

from .pettingzoo import EPISODE_OVER, TrickAECEnv  # noqa: E402

__all__ = ["TrickParallelEnv"]


class TrickParallelEnv(ParallelEnv):
    """Every seat of a trickgym game as a PettingZoo parallel-API agent (see the module docstring).

    Takes ``mask_in`` (``"observation"`` or ``"info"``) and the arguments of
    :class:`trickgym.envs.pettingzoo.TrickAECEnv` (``game``,
    ``render_mode``, ``illegal_action``, ``illegal_penalty``, ``obs_mode``
    and the game's table options).
    """

    def __init__(self, game: str, mask_in: str = "observation", **kwargs):
        self.mask_in = check_choice("mask_in", mask_in, ("observation", "info"))
        self.aec_env = TrickAECEnv(game, **kwargs)
        self.metadata = self.aec_env.metadata
        self.render_mode = self.aec_env.render_mode
        self.possible_agents = list(self.aec_env.possible_agents)
        self.observation_spaces = self.aec_env.observation_spaces
        if self.mask_in == "info":
            self.observation_spaces = {
                a: space["observation"] for a, space in self.observation_spaces.items()
            }
        self.action_spaces = self.aec_env.action_spaces
        self.agents: list[str] = []

    @property
    def game(self):
        """The game (``trickgym.game(name, **options)``)."""
        return self.aec_env.game

    @property
    def obs_mode(self) -> str:
        """``"dict"`` or ``"features"``, as the AEC env's."""
        return self.aec_env.obs_mode

    def observation_space(self, agent: str) -> spaces.Space:
        """The space of ``agent``'s observations (the AEC env's; its ``"observation"``
        part with ``mask_in="info"``)."""
        self.aec_env.observation_space(agent)  # a ValueError naming the agents for a wrong one
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(n_actions)``."""
        return self.aec_env.action_space(agent)

    @property
    def agent_selection(self) -> str | None:
        """The agent whose action the next ``step`` plays (``None`` when no deal is under way)."""
        return self.aec_env.agent_selection if self.agents else None

    @property
    def state_view(self):
        """The full game state (all hands): for inspection, not for the agents."""
        return self.aec_env.state_view

    def _observations_and_infos(self) -> tuple[dict[str, Any], dict[str, dict]]:
        """Each live agent's observation and info (a copy: a learner writing into its
        info must not change the AEC env's), the mask moved to the info if asked."""
        observations = {a: self.aec_env.observe(a) for a in self.agents}
        infos = {a: dict(self.aec_env.infos[a]) for a in self.agents}
        if self.mask_in == "info":
            for a, seen in observations.items():
                infos[a]["action_mask"] = seen["action_mask"]
                observations[a] = seen["observation"]
        return observations, infos

    def reset(self, seed: int | None = None, options: dict | None = None):
        """Deal a new deal from the seeded generator; return ``(observations, infos)``.

        ``seed`` and ``options`` as :meth:`TrickAECEnv.reset`: the same seed
        gives the same deal as the AEC env's.
        """
        self.aec_env.reset(seed=seed, options=options)
        self.agents = list(self.aec_env.agents)
        return self._observations_and_infos()

    def _acting_action(self, actions):
        """The acting agent's action from ``actions`` (a ValueError naming what is wrong)."""
        if not isinstance(actions, Mapping):
            raise ValueError(
                f"actions must be a dict from agent to action, got {type(actions).__name__}"
            )
        unknown = [a for a in actions if a not in self.agents]
        if unknown:
            raise ValueError(
                f"actions given for {unknown!r}, not live agents; live agents: {self.agents}"
            )
        agent = self.aec_env.agent_selection
        if agent not in actions:
            raise ValueError(
                f"no action for {agent!r}, the agent to act (the one whose action_mask "
                "is not all zero); the other agents' actions are ignored"
            )
        return actions[agent]

    def step(self, actions: dict):
        """Play the acting agent's action (the others' are ignored); return the five dicts."""
        self.aec_env.check_running()  # before reset(): a ValueError, not a KeyError
        if not self.agents:
            raise ValueError(EPISODE_OVER)
        action = self._acting_action(actions)
        live = self.agents
        self.aec_env.step(action)
        aec = self.aec_env
        observations, infos = self._observations_and_infos()
        rewards = {a: float(aec.rewards[a]) for a in live}
        terminations = {a: bool(aec.terminations[a]) for a in live}
        truncations = {a: bool(aec.truncations[a]) for a in live}
        self.agents = [a for a in live if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def render(self):
        """The AEC env's render: text (``"ansi"``) or ``uint8[H, W, 3]`` (``"rgb_array"``)."""
        return self.aec_env.render()

    def close(self) -> None:
        """Nothing to release."""
        self.aec_env.close()
