"""PettingZoo AEC environments for every trickgym game, for self-play.

``trickgym.envs.pettingzoo.env("solowhist", **options)`` (or
``solowhist_env(...)``, ``troggu_env(players=5)``, ``phat_env()``,
``pinochle_env(mode="exchange")``) returns an AEC env in which every seat is
an agent (``player_0`` ..): each acts in turn on its own information set.
Needs the ``pettingzoo`` extra; without it the import error gives the pip
command for the way trickgym was installed (:func:`trickgym.checks.install_hint`).

Agents
    ``player_<seat>`` for seats ``0 .. n-1``; the next to act is the seat
    the rules say is to move (auction, discards, play), so turns are not
    round-robin.

Observation
    PettingZoo's masked convention: ``{"observation": ..., "action_mask":
    int8[n_actions]}``. ``"observation"`` is the seat's information set in the
    game's single-seat encoding (``trickgym.games.<game>.encode``, the same
    dict as the Gymnasium env's, without its ``action_mask``). The mask is
    all zeros except for the agent to act.

Actions
    The game's action ids (``Discrete(n_actions)``, every id named in
    ``docs/spec.md``); only those in the mask are legal. An illegal action
    ends the episode for every agent, the offender receiving
    ``-illegal_penalty`` (default: the game's ``payoff_bound``, the largest
    payoff magnitude of a deal) and ``info["illegal_action"] = True``
    (``illegal_action="raise"`` raises ``ValueError`` instead, with the
    state unchanged). An id outside ``0 .. n_actions-1`` (or not an
    integer) raises ``ValueError`` in either mode, changing nothing.

Rewards and episodes
    One deal per episode, from a new match (as the Gymnasium envs): each
    agent's reward, when the deal ends, is its payoff for the deal (the
    team's margin in Phat and Pinochle); 0 before.

Infos
    Every agent's info holds ``"contract"`` (its name, ``""`` while there
    is none), ``"declarer"`` (the seat, -1 for none) and
    ``"legal_actions"`` (the agent's number of legal actions: 0 unless it
    is to act), and the offender's ``"illegal_action": True``.

Seeding
    ``reset(seed=s)`` seeds the env's generator; each reset draws the deal
    from it, so the same seed gives the same deals.

Parallel API
    ``parallel_env("solowhist", **options)`` (or
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
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from trickgym import games
from trickgym.api import State
from trickgym.checks import check_real, require_extra
from trickgym.games.obs_features import OBS_MODES, feature_plan

from .base import PENALTY_MAX, as_space_values, box_scalar_keys
from .base import observation_space as dict_space
from .inputs import check_action, check_choice, check_reset_options, check_seed
from .pettingzoo_mask_in_info import MaskInInfo

require_extra("pettingzoo", "pettingzoo", "trickgym.envs.pettingzoo")
from pettingzoo import AECEnv, ParallelEnv  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

__all__ = [
    "GAMES",
    "TrickAECEnv",
    "TrickParallelEnv",
    "env",
    "parallel_env",
    "phat_env",
    "phat_parallel_env",
    "pinochle_env",
    "pinochle_parallel_env",
    "raw_env",
    "solowhist_env",
    "solowhist_parallel_env",
    "troggu_env",
    "troggu_parallel_env",
]


#: The built-in games; a game registered later (``trickgym.games.register``) is taken too.
GAMES = tuple(games.GAMES)
EPISODE_OVER = "the episode is over: every agent is done; call reset()"


class TrickAECEnv(AECEnv):
    """Every seat of a trickgym game as a PettingZoo AEC agent (see the module docstring).

    Parameters
    ----------
    game : str
        A registered game: ``"solowhist"``, ``"troggu"``, ``"phat"``, ``"pinochle"``
        or one added with :func:`trickgym.games.register`.
    render_mode : None, ``"ansi"`` or ``"rgb_array"``
        ``"ansi"``: :meth:`render` returns a text picture of the table;
        ``"rgb_array"``: its picture as ``uint8[H, W, 3]`` (:mod:`trickgym.pictures`).
    illegal_action : ``"terminate"`` or ``"raise"``
    illegal_penalty : float or None
        Default: the game's ``payoff_bound`` (see Actions).
    obs_mode : ``"dict"`` or ``"features"``
        ``"features"``: ``"observation"`` is the seat's network-ready float32
        vector (:mod:`trickgym.games.obs_features`, seats relative to it),
        the one the Gymnasium envs give in that mode. The mask keeps
        PettingZoo's convention (all zero for an agent not to act).
    **options
        The game's table options (``players=`` for Troggu), validated by the game.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        game: str,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        illegal_penalty: float | None = None,
        obs_mode: str = "dict",
        **options,
    ):
        super().__init__()
        self.obs_mode = check_choice("obs_mode", obs_mode, OBS_MODES)
        game = check_choice("game", game, tuple(games.GAMES))
        render_mode = check_choice(
            "render_mode", render_mode, (None, *self.metadata["render_modes"])
        )
        illegal_action = check_choice("illegal_action", illegal_action, ("terminate", "raise"))
        self.game = games.game(game, **options)
        self.metadata = {**self.metadata, "name": f"trickgym_{game}_v0"}
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_penalty = (
            float(self.game.payoff_bound)
            if illegal_penalty is None
            else check_real("illegal_penalty", illegal_penalty, 0, PENALTY_MAX)
        )
        n = self.game.n_seats
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        shapes = dict(self.game.obs_shapes)
        mask_shape = shapes.pop("action_mask")
        self._box_keys = box_scalar_keys(shapes)
        if obs_mode == "features":
            self._features = feature_plan(self.game)
            inner = spaces.Box(self._features.low, self._features.high, dtype=np.float32)
        else:
            inner = dict_space(shapes, self.game.obs_ranges)
        mask = spaces.Box(0, 1, shape=mask_shape[0], dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": inner, "action_mask": mask})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.game.n_actions) for a in self.possible_agents}
        self._array = None
        self.np_random, self.np_random_seed = None, None

    def _agent(self, agent) -> str:
        """``agent`` if it is one of ``possible_agents`` (a ValueError naming them if not)."""
        return check_choice("agent", agent, tuple(self.possible_agents))

    def observation_space(self, agent: str) -> spaces.Space:
        """The ``Dict`` space of ``agent``'s observations."""
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(n_actions)``."""
        return self.action_spaces[self._agent(agent)]

    @property
    def state_view(self) -> State:
        """The full game state (all hands): for inspection, not for the agents."""
        return State(self.game, self._array)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new deal (from the seeded generator) and give the turn to its first player.

        ``seed``: ``None`` or ``0 .. 2**64-1`` (numpy integers too). ``options``:
        ``None`` or a dict, unused (PettingZoo's ``api_test`` passes one).
        """
        seed = check_seed(seed)  # before reseeding: seeding.np_random takes True as 1
        check_reset_options(options, known=None)
        if seed is not None or self.np_random is None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        draw = self.np_random.integers(0, 2**63, dtype=np.uint64)
        self._array = self.game.new_match(draw, num_deals=1)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        over, _, to_move = self.game.kernels.status_at(self._array, 0)
        self.agent_selection = self.possible_agents[int(to_move)]
        if over:  # cannot happen in these games, but keep the API whole
            self._end({})
        else:
            self._set_infos()

    def observe(self, agent: str) -> dict:
        """``agent``'s observation: ``{"observation": {...}, "action_mask": int8[n]}``."""
        seat = self._seat[self._agent(agent)]
        record = np.zeros(1, dtype=self.game.obs_dtype)
        self.game.kernels.observe_at(self._array, 0, seat, record, 0)
        if self.obs_mode == "features":
            seen = self._features.observe(self.game, record, placeholder=False)
            return {"observation": seen["features"], "action_mask": seen["action_mask"]}
        encoded = self.game.encode_observation(record, 0)
        mask = encoded.pop("action_mask")
        return {"observation": as_space_values(encoded, self._box_keys), "action_mask": mask}

    def _set_infos(self, extra: dict | None = None, over: bool = False) -> None:
        """Every agent's info: the contract, the declarer, its legal-action count
        (0 unless it is to act, or once ``over``), and its ``extra`` entries."""
        contract, declarer = self.game.contract_of(self._array[0])
        kernels = self.game.kernels
        to_move = -1 if over else int(kernels.status_at(self._array, 0)[2])
        legal = 0
        if to_move >= 0:
            legal = int(self.game.action_mask(*kernels.legal_sets_at(self._array, 0)).sum())
        for a in self.agents:
            count = legal if self._seat[a] == to_move else 0
            info = {"contract": contract, "declarer": declarer, "legal_actions": count}
            self.infos[a] = {**info, **(extra or {}).get(a, {})}

    def _end(self, infos: dict) -> None:
        """The deal is over: every agent terminates."""
        for a in self.agents:
            self.terminations[a] = True
        self._set_infos(infos, over=True)

    def check_running(self) -> None:
        """ValueError unless a deal is under way: before ``reset()``, or once every agent
        is done (PettingZoo's wrapper would only log a warning and do nothing)."""
        if self._array is None:
            raise ValueError("call reset() before step()")
        if not self.agents:
            raise ValueError(EPISODE_OVER)

    def step(self, action) -> None:
        """The selected agent plays ``action``; the turn passes to the seat the rules say.

        A done agent steps ``None`` (PettingZoo's dead step) while others remain;
        once every agent is done, any step raises ``ValueError``: call ``reset()``.
        """
        self.check_running()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # Outside the action space: refused in every mode, before anything changes.
        a = check_action(action, self.game.n_actions)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        kernels = self.game.kernels
        if not kernels.is_legal_at(self._array, 0, a):
            cards, calls = kernels.legal_sets_at(self._array, 0)
            legal = np.flatnonzero(self.game.action_mask(cards, calls)).tolist()
            if self.illegal_action == "raise":
                raise ValueError(f"illegal action {a} for {agent}; legal: {legal}")
            self.rewards[agent] = -self.illegal_penalty
            self._end({agent: {"illegal_action": True}})
        else:
            kernels.apply_action_at(self._array, 0, a)
            over, _, to_move = kernels.status_at(self._array, 0)
            if over:
                payoffs = self._array[0]["payoffs"]
                for s, name in enumerate(self.possible_agents):
                    self.rewards[name] = float(payoffs[s])
                self._end({})
            else:
                self.agent_selection = self.possible_agents[int(to_move)]
                self._set_infos()
        self._accumulate_rewards()

    def render(self):
        """The table, all hands shown: text (``"ansi"``) or ``uint8[H, W, 3]`` (``"rgb_array"``)."""
        if self._array is None:
            return None
        if self.render_mode == "ansi":
            return self.game.render(self.state_view)
        if self.render_mode == "rgb_array":
            return self.state_view.picture().to_rgb()
        return None

    def close(self) -> None:
        """Nothing to release."""


def raw_env(game: str, **options) -> TrickAECEnv:
    """The AEC env without PettingZoo's order-enforcing wrapper."""
    return TrickAECEnv(game, **options)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-enforcing wrapper, except that a step once every agent is done
    raises (the wrapper's own only logs a warning and does nothing: a silent no-op)."""

    def step(self, action) -> None:
        """Refuse a step after the episode's end, else PettingZoo's step."""
        if getattr(self, "_has_reset", False):
            self.env.unwrapped.check_running()
        super().step(action)


def env(game: str, mask_in: str = "observation", **options):
    """The AEC env of ``game`` wrapped as PettingZoo's own envs are (order enforcing).

    ``mask_in="info"``: the legal mask in ``infos[agent]["action_mask"]`` and
    the observation bare (:mod:`trickgym.envs.pettingzoo_mask_in_info`); with
    ``obs_mode="features"`` PettingZoo's ``api_test`` passes with no warning.
    """
    mask_in = check_choice("mask_in", mask_in, ("observation", "info"))
    inner = TrickAECEnv(game, **options)
    if mask_in == "info":
        inner = MaskInInfo(inner)
    return _OrderEnforcing(inner)


def solowhist_env(**options):
    """Solo Whist for four agents (options: ``unit``, ``early_stop``, ...)."""
    return env("solowhist", **options)


def troggu_env(players: int = 4, **options):
    """Troggu for ``players`` (3..8) agents."""
    return env("troggu", players=players, **options)


def phat_env(**options):
    """Phat for four agents (partners 0-2 and 1-3); one deal per episode."""
    return env("phat", **options)


def pinochle_env(**options):
    """Pinochle for four agents (``mode="kitty"`` or ``"exchange"``, ...)."""
    return env("pinochle", **options)


def parallel_env(game: str, **options):
    """The parallel-API env of ``game`` (:class:`TrickParallelEnv`)."""
    return TrickParallelEnv(game, **options)


def solowhist_parallel_env(**options):
    """Solo Whist for four agents, parallel API."""
    return parallel_env("solowhist", **options)


def troggu_parallel_env(players: int = 4, **options):
    """Troggu for ``players`` (3..8) agents, parallel API."""
    return parallel_env("troggu", players=players, **options)


def phat_parallel_env(**options):
    """Phat for four agents, parallel API; one deal per episode."""
    return parallel_env("phat", **options)


def pinochle_parallel_env(**options):
    """Pinochle for four agents, parallel API (``mode="kitty"`` or ``"exchange"``, ...)."""
    return parallel_env("pinochle", **options)


class TrickParallelEnv(ParallelEnv):
    """Every seat of a trickgym game as a PettingZoo parallel-API agent (module docstring).

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
