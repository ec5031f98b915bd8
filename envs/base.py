"""The game-independent Gymnasium env: one learning seat, agents in the others.

:class:`TrickEnv` holds everything that does not depend on the game: the
observation space built from a game's ``OBS_SHAPES``, opponents resolved by
:func:`trickgym.agents.resolve_agents`, reset/step with the illegal-action
policy, ``action_masks()`` and the ansi render. It steps the game through its
``*_at(states, 0)`` kernel entry points and lets built-in opponents play in
one compiled call (:func:`trickgym.engine.loops.play_until`, written once
for every game). A game's env subclass declares only the game: its name,
``OBS_SHAPES`` and how to build it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from trickgym import games
from trickgym.agents import python_action, resolve_agents, start_deal
from trickgym.agents.registry import is_python_name, make_agent
from trickgym.agents.rule.presets import PRESETS, resolve_presets
from trickgym.api import Game, State
from trickgym.checks import check_real
from trickgym.engine.loops import oracle_flag, play_until
from trickgym.engine.params import params_matrix
from trickgym.games.obs_features import OBS_MODES, feature_plan, features_space

from .inputs import (
    check_action,
    check_choice,
    check_reset_options,
    check_seat,
    check_seed,
    naming,
)

__all__ = [
    "LegalDiscrete",
    "TrickEnv",
    "as_space_values",
    "box_scalar_keys",
    "observation_space",
]


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


def box_scalar_keys(obs_shapes: dict) -> tuple[str, ...]:
    """Scalar keys whose space is a one-value ``Box`` (their values are ``int64[1]``)."""
    return tuple(k for k, (shape, _d, low, _h) in obs_shapes.items() if shape == () and low != 0)


def as_space_values(observation: dict, box_keys) -> dict:
    """``observation`` with the ``box_keys`` scalars as ``int64[1]``, as their ``Box`` holds."""
    for k in box_keys:
        observation[k] = np.asarray(observation[k], dtype=np.int64).reshape(1)
    return observation


def observation_space(obs_shapes: dict, ranges: dict | None = None) -> spaces.Dict:
    """The ``Dict`` space of a game's observations from its ``OBS_SHAPES`` table.

    ``OBS_SHAPES`` maps each key to ``(shape, dtype, low, high)``: scalars
    from 0 become ``Discrete(high + 1)``, other scalars (``-1`` for none,
    Troggu's ``n_players`` from 3) a one-value ``Box`` (``int64[1]``): a
    ``Discrete`` not starting at 0 breaks learners that one-hot it, and a
    shape ``()`` ``Box`` their flattening (Stable-Baselines3); arrays ``Box``.
    ``ranges`` (``Game.obs_ranges``) narrows the bounds to a game's options.
    """
    entries = {}
    for key, (shape, dtype, low, high) in obs_shapes.items():
        if ranges is not None and key in ranges:
            low, high = ranges[key]
        if shape == () and low == 0:
            entries[key] = spaces.Discrete(high + 1)
        elif shape == ():
            entries[key] = spaces.Box(low, high, shape=(1,), dtype=np.int64)
        else:
            entries[key] = spaces.Box(low, high, shape=shape, dtype=dtype)
    return spaces.Dict(entries)


#: The largest ``illegal_penalty``: past it a reward swamps every payoff (and 1e300
#: overflows a return's sum) with no use to learning.
PENALTY_MAX = 1e9
_METADATA: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}


class TrickEnv(gym.Env):
    """One deal of a trickgym game per episode, from one seat's point of view.

    Subclasses set ``game_name`` and ``obs_shapes`` (the game's
    ``OBS_SHAPES``), and may override :meth:`make_game`.

    Parameters
    ----------
    seat : int or ``"random"``
        The learning seat, ``0 .. players-1``; ``"random"``: drawn anew at
        each reset from the env's seeded generator (so ``reset(seed=s)``
        repeats it), uniformly over the seats, after the deal is drawn (a
        seed deals the same cards as with a fixed seat). :attr:`seat` is the
        current one; the observation holds it too (``"seat"`` in the dict,
        the features being relative to it) and ``reset``'s info has
        ``info["seat"]`` (with ``"random"`` only). The native vector env
        refuses ``"random"``: ``make_vec(..., vectorization_mode="sync")``
        draws a seat per sub-env.
    opponents : str, Agent, or list of them
        One agent for every other seat, or a list of ``players - 1`` for the
        seats after ``seat`` in playing order (with ``seat="random"``, after
        the seat drawn): built-in names (``"random"``),
        registered names (``"pimc"``), ``"policy:PATH"`` (a policy's weights)
        or objects with ``act(observation, action_mask)`` or ``act_record``.
    render_mode : None, ``"ansi"`` or ``"rgb_array"``
        ``"ansi"``: :meth:`render` returns a text picture of the table;
        ``"rgb_array"``: the table's picture as ``uint8[H, W, 3]``, one size
        per game (:mod:`trickgym.pictures`), so ``RecordVideo`` records it.
    illegal_action : ``"terminate"`` or ``"raise"``
        An illegal action ends the episode with reward ``-illegal_penalty``
        and ``info["illegal_action"] = True``, or raises ``ValueError``
        (the state is then unchanged). Only an id of the action space can be
        an illegal move: anything else (``-1``, ``n_actions``, ``2**70``,
        ``1.5``, ``True``) raises ``ValueError`` in either mode, changing
        nothing.
    illegal_penalty : float or None
        See ``illegal_action``; ``0 .. PENALTY_MAX`` (1e9). ``None``
        (default): :attr:`reward_bound`, the largest reward magnitude an
        episode can give (the game's ``payoff_bound`` at these options), so
        an illegal move never scores better than legal play. Per game and
        table in ``docs/spec.md``.
    rule_options : optional
        Settings of built-in rule opponents (the game's ``RuleOptions``):
        one object, or a list with one per seat.
    obs_mode : ``"dict"`` or ``"features"``
        ``"dict"`` (default): the game's observation dict. ``"features"``:
        ``{"features": float32[n], "action_mask": int8[n_actions]}``, a
        network-ready vector with seats relative to the learner
        (:mod:`trickgym.games.obs_features`; names by
        ``trickgym.games.obs_features.feature_names(env.game)``). Its mask
        is never all zero: with no legal action (the episode is over) it
        marks action 0, a placeholder.
    **options
        The game's table options, validated by the game.

    Info
    ----
    ``reset`` and ``step`` return ``{"contract": str, "declarer": int,
    "legal_actions": int}``: the contract's name (``""`` while there is
    none), the declaring seat (-1 for none; Phat: the pitcher) and the
    learner's number of legal actions (0 once the episode is over), and
    ``"illegal_action": True`` after an illegal move (``docs/spec.md``).
    """

    # An instance property, not a class dict: gymnasium.make checks a class dict's
    # render_modes itself and calls render_mode.endswith() on whatever it was given
    # (render_mode=5 ended in AttributeError inside gymnasium); a property leaves the
    # check to __init__, which names the value and the allowed modes.
    metadata = property(lambda self: _METADATA, doc="``render_modes`` and ``render_fps``.")
    game_name: ClassVar[str]
    obs_shapes: ClassVar[dict]

    @classmethod
    def make_game(cls, **options) -> Game:
        """The game with these table options (``trickgym.game(name, **options)``)."""
        return games.game(cls.game_name, **options)

    def __init__(
        self,
        seat: int = 0,
        opponents="random",
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        illegal_penalty: float | None = None,
        rule_options=None,
        obs_mode: str = "dict",
        **options,
    ):
        obs_mode = check_choice("obs_mode", obs_mode, OBS_MODES)
        illegal_action = check_choice("illegal_action", illegal_action, ("terminate", "raise"))
        render_mode = check_choice("render_mode", render_mode, (None, *_METADATA["render_modes"]))
        self.illegal_action = illegal_action
        if illegal_penalty is not None:
            illegal_penalty = check_real("illegal_penalty", illegal_penalty, 0, PENALTY_MAX)
        self.game = self.make_game(**options)
        self.illegal_penalty = (
            float(self.reward_bound) if illegal_penalty is None else illegal_penalty
        )
        n = self.game.n_seats
        seat = check_seat(seat, n)
        self.random_seat = seat == "random"
        self.n_seats = n
        self.render_mode = render_mode
        kernels = self.game.kernels
        self._apply_at = kernels.apply_action_at
        self._is_legal_at = kernels.is_legal_at
        self._legal_sets_at = kernels.legal_sets_at
        self._observe_at = kernels.observe_at
        self._status_at = kernels.status_at
        self._opponents_given = (opponents, rule_options)
        self._seatings: dict[int, tuple] = {}
        self._take_seat(0 if self.random_seat else seat)  # validates the opponents
        self.action_space = LegalDiscrete(self.game.n_actions, self._current_mask)
        self.obs_mode = obs_mode
        if obs_mode == "features":
            self._features = feature_plan(self.game)
            self.observation_space = features_space(self.game)
        else:
            self.observation_space = observation_space(self.obs_shapes, self.game.obs_ranges)
        self._box_keys = box_scalar_keys(self.obs_shapes)
        self._array = np.zeros(1, dtype=self.game.state_dtype)
        self._obs = np.zeros(1, dtype=self.game.obs_dtype)
        self._agent_rngs = np.zeros((n, 1), dtype=np.uint64)
        self._started = False

    def _take_seat(self, seat: int) -> None:
        """Seat the learner at ``seat``, the opponents after it (resolved once per seat)."""
        self.seat = seat
        if seat not in self._seatings:
            opponents, rule_options = self._opponents_given
            with naming("opponents"):
                opponents, rule_options = self._resolve_presets(opponents, rule_options)
                kinds, agents = self._resolve_opponents(opponents)
            with naming("rule_options"):
                params = params_matrix(self.game, self.n_seats, rule_options)
            # oracle None: the play loop links no solver
            self._seatings[seat] = (kinds, agents, oracle_flag(kinds), params)
        self._kinds, self._agents, self._oracle, self._params = self._seatings[seat]

    def _resolve_presets(self, opponents, rule_options):
        """Opponents playing a rule preset (``"fitted"``) become ``"rule"`` with its options."""
        n = self.n_seats
        if isinstance(opponents, str) and opponents in PRESETS:
            opponents = [opponents] * (n - 1)
        if not isinstance(opponents, list | tuple) or not any(
            isinstance(a, str) and a in PRESETS for a in opponents
        ):
            return opponents, rule_options
        if len(opponents) != n - 1:
            return opponents, rule_options  # _resolve_opponents names the wrong count
        seats = [(self.seat + 1 + i) % n for i in range(n - 1)]
        per_seat = [None] * n
        for seat, agent in zip(seats, opponents, strict=True):
            per_seat[seat] = agent
        per_seat, rule_options = resolve_presets(self.game.name, per_seat, rule_options, n)
        return [per_seat[seat] for seat in seats], rule_options

    def _resolve_opponents(self, opponents) -> tuple[np.ndarray, list]:
        """Per-seat built-in kinds (-1 for the learner and Python agents) and agents."""
        n = self.n_seats
        kinds = np.full(n, -1, dtype=np.int64)
        agents: list = [None] * n
        if is_python_name(opponents):
            opponents = [opponents] * (n - 1)
        if isinstance(opponents, list | tuple):
            # Registered Python agents (pimc, ismcts, ...) by name: one object per seat.
            opponents = [make_agent(a, self.game) if is_python_name(a) else a for a in opponents]
        for i, agent in enumerate(resolve_agents(opponents, n - 1, "opponents")):
            seat = (self.seat + 1 + i) % n
            if isinstance(agent, int):
                kinds[seat] = agent
            else:
                agents[seat] = agent
        return kinds, agents

    @property
    def reward_bound(self) -> float:
        """The largest reward magnitude of an episode: the game's ``payoff_bound``."""
        return float(self.game.payoff_bound)

    def _info(self, observation: dict, over: bool) -> dict:
        """The ``info`` of ``reset`` and ``step``: contract, declarer, legal-action count.

        The count is read off ``observation``'s mask rather than asked of the
        kernels again: while the episode goes on the learner is to act, so its
        mask is exact (the features mode's placeholder only marks an ended one).
        """
        contract, declarer = self.game.contract_of(self._array[0])
        legal = 0 if over else int(observation["action_mask"].sum())
        return {"contract": contract, "declarer": declarer, "legal_actions": legal}

    @property
    def state(self) -> State:
        """The full game state (all hands): for inspection, not for the agent."""
        return State(self.game, self._array)

    def _observation(self) -> dict[str, np.ndarray]:
        self._observe_at(self._array, 0, self.seat, self._obs, 0)
        if self.obs_mode == "features":
            return self._features.observe(self.game, self._obs, 0)
        return as_space_values(self.game.encode_observation(self._obs, 0), self._box_keys)

    def _deal_over(self) -> bool:
        return bool(self._status_at(self._array, 0)[0])

    def _run_opponents(self) -> None:
        """Let the other seats play until the learner must act or the deal ends."""
        while True:
            p = play_until(
                self._array, 0, self._kinds, self._agent_rngs, self._params, self._oracle
            )
            if p < 0 or p == self.seat:
                return
            action = python_action(self._agents[p], self.game, self._array, 0, p)
            self._apply_at(self._array, 0, action)

    # Episode hooks: one deal per episode unless a subclass says otherwise.

    @property
    def match_goes_on(self) -> bool:
        """Whether a match goes on across episodes (default: every episode is a new match)."""
        return False

    def _new_episode(self, seed_given: bool) -> None:
        """Set up ``self._array`` for a new episode (default: a new one-deal match)."""
        draw = self.np_random.integers(0, 2**63, dtype=np.uint64)
        self._array = self.game.new_match(draw, num_deals=1)

    def _episode_over(self) -> bool:
        """Whether the episode ends now that the current deal is over."""
        return True

    def _episode_reward(self) -> float:
        """The learner's reward when the episode ends (default: its payoff for the deal)."""
        return float(self._array[0]["payoffs"][self.seat])

    def _advance(self) -> None:
        """Let the others play until the learner must act or the episode ends."""
        while True:
            self._run_opponents()
            if not self._deal_over() or self._episode_over():
                return
            self.game.kernels.next_deal_at(self._array, 0)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start a new episode (by default a freshly dealt hand); return ``(obs, info)``.

        ``seed``: ``None`` or ``0 .. 2**64-1`` (numpy integers too); the env
        takes no ``options`` (``None`` or ``{}``).
        """
        # Checked before gymnasium reseeds: it would take True as seed 1.
        seed = check_seed(seed)
        check_reset_options(options)
        super().reset(seed=seed)
        draws = self.np_random.integers(0, 2**63, size=self.n_seats, dtype=np.uint64)
        self._agent_rngs[:, 0] = draws
        self._new_episode(seed is not None)
        if self.random_seat:  # drawn last: a seed deals the cards a fixed seat would get
            self._take_seat(int(self.np_random.integers(0, self.n_seats)))
        start_deal(self._agents, int(draws[0]), 0)
        self._started = True
        self._advance()
        observation = self._observation()
        info = self._info(observation, self._deal_over() and self._episode_over())
        if self.random_seat:  # the seat drawn (a fixed seat's info stays as the vector env's)
            info["seat"] = self.seat
        return observation, info

    def step(self, action):
        """Act for the learning seat, then let the others play until its next turn."""
        if not self._started:
            raise ValueError("call reset() before step() (and after an episode ends)")
        # Outside the action space is a wrong value, refused in every mode; inside
        # it, an illegal move follows illegal_action.
        action = check_action(action, self.game.n_actions)
        if not self._is_legal_at(self._array, 0, action):
            legal = np.flatnonzero(self.action_masks()).tolist()
            if self.illegal_action == "raise":
                raise ValueError(f"illegal action {action} for seat {self.seat}; legal: {legal}")
            self._started = False
            observation = self._observation()
            info = {**self._info(observation, over=True), "illegal_action": True}
            return observation, -self.illegal_penalty, True, False, info
        self._apply_at(self._array, 0, action)
        self._advance()
        terminated = self._deal_over() and self._episode_over()
        reward = self._episode_reward() if terminated else 0.0
        self._started = not terminated
        observation = self._observation()
        return observation, reward, terminated, False, self._info(observation, terminated)

    def _current_mask(self):
        if not self._started:
            return None
        return self.game.action_mask(*self._legal_sets_at(self._array, 0))

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learning seat's legal actions (for masked-policy libraries)."""
        over, _, to_move = self._status_at(self._array, 0)
        if not self._started or over or to_move != self.seat:
            return np.zeros(self.game.n_actions, dtype=bool)
        return self.game.action_mask(*self._legal_sets_at(self._array, 0)).astype(bool)

    def render(self):
        """The table, all hands shown: text (``"ansi"``) or ``uint8[H, W, 3]`` (``"rgb_array"``)."""
        if self.render_mode == "ansi":
            return self.game.render(self.state, mark_legal=True)
        if self.render_mode == "rgb_array":
            return self.state.picture().to_rgb()
        return None
