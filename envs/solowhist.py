"""Gymnasium environment for Solo Whist: one learning seat, agents in the others."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from trickgym.agents import resolve_agents
from trickgym.agents.solowhist import play_builtin_until

import trickgym
from trickgym.games.solowhist.encode import OBS_SHAPES
from trickgym.games.solowhist.rules import (
    apply_action_at,
    init_match,
    is_legal_at,
    legal_sets_at,
    observe_at,
    status_at,
)

__all__ = ["SoloWhistEnv"]


class LegalDiscrete(spaces.Discrete):
    """``Discrete`` whose ``sample()`` draws a legal action of the env's current state.

    ``mask_fn`` returns the current int8 legal mask, or ``None`` before the
    first reset; an explicit ``mask`` passed to ``sample`` takes precedence.
    """

    def __init__(self, n: int, mask_fn, seed=None):
        super().__init__(n, seed=seed)
        self._mask_fn = mask_fn

    def sample(self, mask=None, probability=None):
        """A uniformly random legal action (or per ``mask``/``probability``)."""
        if mask is None and probability is None:
            mask = self._mask_fn()
        return super().sample(mask=mask, probability=probability)


def observation_space() -> spaces.Dict:
    """The ``Dict`` space of :mod:`trickgym.games.solowhist.encode` observations."""
    entries = {}
    for key, (shape, dtype, low, high) in OBS_SHAPES.items():
        if shape == ():
            entries[key] = spaces.Discrete(high - low + 1, start=low)
        else:
            entries[key] = spaces.Box(low, high, shape=shape, dtype=dtype)
    return spaces.Dict(entries)


class SoloWhistEnv(gym.Env):
    """Solo Whist, one deal per episode, from one seat's point of view.

    The other three seats are played by ``opponents``: a built-in agent name
    (``"random"``), an object with ``act(observation, action_mask)``, or a
    list of three of those (for the seats after ``seat`` in order). Keyword
    options are the game's table options (``unit``, ``early_stop``, ...).

    Actions
        ``Discrete(66)``: ``0..51`` play a card (``13*suit + rank``, suits
        ♠ ♥ ♦ ♣, ranks 2..A), ``52`` Pass, ``53`` Prop, ``54`` Cop, ``55``
        Solo, ``56`` Misère, ``57`` Abundance, ``58`` Abundance in Trumps,
        ``59`` Misère Ouverte, ``60`` Abundance Declared, ``61`` Decline (the
        Cop re-entry), ``62..65`` name trumps ♠ ♥ ♦ ♣ (Abundance). Only the
        actions in ``observation["action_mask"]`` are legal (and
        ``action_space.sample()`` draws among them). An illegal action ends
        the episode with reward ``-illegal_penalty`` and
        ``info["illegal_action"] = True`` (PettingZoo's convention), or raises
        ``ValueError`` with ``illegal_action="raise"``.

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

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        seat: int = 0,
        opponents="random",
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        illegal_penalty: float = 100.0,
        **options,
    ):
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(
                f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}"
            )
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < 4:
            raise ValueError(f"seat must be an integer 0..3, got {seat!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.game = trickgym.game("solowhist", **options)
        self.seat = seat
        self.render_mode = render_mode
        self._kinds, self._agents = self._resolve_opponents(opponents)
        self.action_space = LegalDiscrete(self.game.n_actions, self._current_mask)
        self.observation_space = observation_space()
        self._array = np.zeros(1, dtype=self.game.state_dtype)
        self._obs = np.zeros(1, dtype=self.game.obs_dtype)
        self._agent_rngs = np.zeros((4, 1), dtype=np.uint64)
        self._started = False

    def _resolve_opponents(self, opponents) -> tuple[np.ndarray, list]:
        """Per-seat built-in kinds (-1 for the learner and Python agents) and agents."""
        kinds = np.full(4, -1, dtype=np.int64)
        agents: list = [None] * 4
        for i, agent in enumerate(resolve_agents(opponents, 3, "opponents")):
            seat = (self.seat + 1 + i) % 4
            if isinstance(agent, int):
                kinds[seat] = agent
            else:
                agents[seat] = agent
        return kinds, agents

    @property
    def state(self) -> trickgym.api.State:
        """The full game state (all hands): for inspection, not for the agent."""
        return trickgym.api.State(self.game, self._array)

    def _observation(self) -> dict[str, np.ndarray]:
        observe_at(self._array, 0, self.seat, self._obs, 0)
        return self.game.encode_observation(self._obs, 0)

    def _deal_over(self) -> bool:
        return bool(status_at(self._array, 0)[0])

    def _run_opponents(self) -> None:
        """Let the other seats play until the learner must act or the deal ends."""
        while True:
            p = play_builtin_until(self._array, 0, self._kinds, self._agent_rngs)
            if p < 0 or p == self.seat:
                return
            agent = self._agents[p]
            obs = self.state.observe(p)
            action = int(agent.act(obs, obs["action_mask"]))
            if not is_legal_at(self._array, 0, action):
                raise ValueError(f"opponent {agent!r} at seat {p} chose illegal action {action}")
            apply_action_at(self._array, 0, action)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Deal a new hand; returns ``(observation, info)``."""
        super().reset(seed=seed)
        draws = self.np_random.integers(0, 2**63, size=5, dtype=np.uint64)
        opts = self.game.options
        init_match(self._array[0], draws[0], opts.unit, 1, True, opts.early_stop, -1)
        self._agent_rngs[:, 0] = draws[1:]
        self._started = True
        self._run_opponents()
        return self._observation(), {}

    def step(self, action):
        """Act for the learning seat, then let the others play until its next turn."""
        if not self._started:
            raise ValueError("call reset() before step() (and after an episode ends)")
        action = int(action)
        if not is_legal_at(self._array, 0, action):
            legal = np.flatnonzero(self.action_masks()).tolist()
            if self.illegal_action == "raise":
                raise ValueError(f"illegal action {action} for seat {self.seat}; legal: {legal}")
            self._started = False
            return self._observation(), -self.illegal_penalty, True, False, {"illegal_action": True}
        apply_action_at(self._array, 0, action)
        self._run_opponents()
        terminated = self._deal_over()
        reward = float(self._array[0]["payoffs"][self.seat]) if terminated else 0.0
        self._started = not terminated
        return self._observation(), reward, terminated, False, {}

    def _current_mask(self):
        if not self._started:
            return None
        return self.game.action_mask(*legal_sets_at(self._array, 0))

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learning seat's legal actions (for masked-policy libraries)."""
        over, _, to_move = status_at(self._array, 0)
        if not self._started or over or to_move != self.seat:
            return np.zeros(self.game.n_actions, dtype=bool)
        return self.game.action_mask(*legal_sets_at(self._array, 0)).astype(bool)

    def render(self):
        """Text picture of the table (``render_mode="ansi"``), all hands shown."""
        if self.render_mode == "ansi":
            return self.game.render(self.state)
        return None
