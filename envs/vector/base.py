"""The native vector env: a batch of one game's states stepped in one compiled call.

:class:`TrickVectorEnv` is a ``gymnasium.vector.VectorEnv`` over ``num_envs``
copies of a game's single env (:class:`trickgym.envs.base.TrickEnv`): the
same learner seat, built-in opponents, options, observations, masks,
rewards and seeding, but all sub-envs live in one structured array and one
compiled kernel steps them (opponents and autoreset included) and encodes
their observations into batch arrays.
"""

from __future__ import annotations

import copy
import os
import sys
from dataclasses import dataclass, fields
from typing import Any, ClassVar

import numba
import numpy as np
from gymnasium import spaces
from gymnasium.utils.seeding import np_random
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from trickgym.agents import AGENT_SEED_STREAM, is_agent, python_action, resolve_kind, start_deal
from trickgym.agents.rows import batched, stream_seeds
from trickgym.api import State
from trickgym.checks import check_flag, check_int, record_or_keywords
from trickgym.engine.episode_hooks import MATCH_GOES_ON, NEW_MATCH
from trickgym.engine.loops import oracle_flag
from trickgym.forksafe import check_fork_safe
from trickgym.games.obs_features import feature_plan
from trickgym.omp import call_keeping_threads

from ..inputs import (
    check_actions,
    check_choice,
    check_num_envs,
    check_parallel,
    check_reset_options,
    check_seat,
    check_seeds,
)
from . import kernels
from .pcg64 import pcg_state

__all__ = ["LegalMultiDiscrete", "TrickVectorEnv"]

PARALLEL_MIN_ENVS = 1024  # below this, threads gain little and risk much (below)


def _free_cores() -> float:
    """Cores this process may use minus the 1-minute load average (runnable threads)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except OSError:  # no load average to read: assume a quiet machine
        load = 0.0
    return cores - load


def _default_parallel(num_envs: int) -> bool:
    """Threads only from ``PARALLEL_MIN_ENVS`` envs, on idle cores, without PyTorch.

    A threaded step waits for its slowest thread, and OpenMP threads spin for
    a core: when anything else runs (another process, a learner's update) a
    thread misses its time slice and the step collapses. Measured on 2 cores
    (``benchmarks/bench_vector.py --threading``, benchmarks/README.md "Vector
    env threading"): at load 3, threads ran 0.01x-0.09x of serial at 16 to
    1024 envs, with or without a busy loop holding a core; on a quiet
    machine they gain 1.3x at 64 envs and 1.8x at 1024. So the default takes
    threads only for a large batch when the load average leaves a core for
    every thread beyond the caller's own; ``parallel=True`` forces them.
    """
    if num_envs < PARALLEL_MIN_ENVS or "torch" in sys.modules:
        return False
    return _free_cores() >= numba.get_num_threads() - 1


class LegalMultiDiscrete(spaces.MultiDiscrete):
    """The batch action space: ``sample()`` draws a legal action for every sub-env.

    ``mask_fn`` returns the current ``bool[n, n_actions]`` masks (``None``
    before the first reset: uniform draws); a sub-env with no legal action
    (awaiting its autoreset) gets 0, which the step ignores.
    """

    def __init__(self, n: int, n_actions: int, mask_fn, seed=None):
        super().__init__(np.full(n, n_actions), seed=seed)
        self._mask_fn = mask_fn

    def sample(self, mask=None, probability=None):
        """Uniformly random legal actions (or per an explicit ``mask``/``probability``)."""
        masks = self._mask_fn() if mask is None and probability is None else None
        if masks is None:
            return super().sample(mask=mask, probability=probability)
        u = self.np_random.random(masks.shape)
        # the largest uniform key among the legal actions: a uniform legal draw
        return np.argmax(np.where(masks, u, -1.0), axis=1).astype(self.dtype)


def _is_policy(opponent) -> bool:
    """A batched policy: a callable that is not an agent name, class or ``act`` object."""
    return callable(opponent) and not isinstance(opponent, str | type) and not is_agent(opponent)


def _has_start(agent) -> bool:
    return callable(getattr(agent, "start_deal", None))


def _split_policies(opponents):
    """``(opponents for the single env, policies)``: policies stand aside as ``"random"``.

    ``policies`` maps an opponent's position in the list (``None``: every
    opponent) to its batched policy.
    """
    if _is_policy(opponents):
        return "random", {None: opponents}
    if not isinstance(opponents, list | tuple):
        return opponents, {}
    plain = ["random" if _is_policy(o) else o for o in opponents]
    return plain, {k: o for k, o in enumerate(opponents) if _is_policy(o)}


def _unreferenced(arrays: tuple) -> bool:
    """Whether only the tuple ``arrays`` refers to its arrays (no views, no other names)."""
    # getrefcount sees the tuple, the loop variable and its own argument.
    return all(sys.getrefcount(a) <= 3 for a in arrays)


@dataclass(frozen=True)
class BatchOptions:
    """How the vector env hands out its batch: ``copy``, ``parallel``, ``autoreset_mode``,
    ``deal_infos`` (see :class:`TrickVectorEnv`, where each may also be given as a keyword)."""

    copy: bool = True
    parallel: bool | None = None
    autoreset_mode: object = AutoresetMode.NEXT_STEP
    deal_infos: bool = False


def _batch_options(batch, options: dict) -> BatchOptions:
    """``batch`` (default :class:`BatchOptions`) with its fields given as keywords in
    ``options`` (taken out of it); not both."""
    given = {f.name: options.pop(f.name) for f in fields(BatchOptions) if f.name in options}
    return record_or_keywords("batch", batch, BatchOptions, given)


class TrickVectorEnv(VectorEnv):
    """``num_envs`` episodes of a trickgym game from one seat, stepped as one batch.

    Subclasses set ``single_env_cls`` (the game's :class:`TrickEnv`) and
    implement :meth:`option_row` (the game's options as the ``int64`` row its
    episode hooks read, after the env's own first entry:
    :mod:`trickgym.engine.episode_hooks`).

    Parameters
    ----------
    num_envs : int
        Batch size, ``1 .. MAX_ENVS`` (``2**20``).
    seat, opponents, illegal_action, illegal_penalty, rule_options, **options
        As for the game's single env (``illegal_penalty`` defaults to the
        game's ``payoff_bound``, as there). Built-in opponents (``"random"``,
        ``"rule"``, ``"oracle"``) run inside the compiled step; Python agents
        (``"pimc"``, ``"learnt"``, ``"policy:PATH"``, agent objects) outside
        it (see Opponents).
    batch : BatchOptions, optional
        The four settings below as one record; each may instead be given as a
        keyword (``copy=False``), not both.
    copy : bool
        Return observation arrays of its own for every call (default: the
        kernel encodes into new buffers), or the env's one set of batch
        buffers, which the next ``step``/``reset`` overwrites.
    parallel : bool or None
        Split the batch over numba threads; ``None`` (default) does so only
        from 1024 envs up, when PyTorch is not loaded and the load average
        leaves the threads idle cores at construction: a threaded step
        collapses (10-100x slower than serial) when another process or a
        learner's update holds a core, while on a quiet machine threads gain
        at most 1.8x. Results are the same either way, and the
        caller's OpenMP thread count (``torch.get_num_threads()``) is left
        as it was. Forcing threads on a shared machine, set
        ``OMP_WAIT_POLICY=passive`` before starting Python: idle OpenMP
        threads then sleep instead of spinning.
    obs_mode : ``"dict"`` or ``"features"``
        As for the single env: ``"features"`` gives ``{"features":
        float32[n, size], "action_mask": int8[n, n_actions]}``, encoded by one
        compiled pass over the batch after the step's own (the mask marks
        action 0 for a sub-env with no legal action).
    autoreset_mode : ``AutoresetMode.NEXT_STEP`` or ``SAME_STEP``
        See Autoreset.
    bidding : ``"learner"`` or ``"rule"``
        ``"rule"``: the rule agent makes the learner's decisions before the
        card play (bids, discards, calls; the learner's own rule
        parameters), so the learner only plays cards: a curriculum. An
        episode in which the learner has no card to play (a passed-out
        deal) is skipped: the env deals the next one.

    Opponents
    ---------
    Built-in agents run inside the compiled step. An opponent may also
    be a **batched policy**: a callable ``policy(obs, action_mask) ->
    actions`` (``obs`` in the env's ``obs_mode`` for a batch of envs,
    seen from that seat; ``action_mask`` ``bool[k, n_actions]``;
    ``actions`` ``k`` integers), called once per round for every env in
    which that seat is to move (self-play against snapshots of a
    network: :class:`trickgym.envs.league.League`). Give one for every
    opponent seat (``opponents=policy``) or in the list of opponents.
    A Python agent (a registered name such as ``"pimc"`` or
    ``"learnt"``, ``"policy:PATH"``, an object with ``act`` or
    ``act_record``) plays its seat too: an agent with
    ``act_batch(features, masks)`` (:class:`trickgym.agents.policy.PolicyAgent`)
    once per round for the whole batch, any other one decision at a
    time (slower), each sub-env with its own copy of an agent that has
    ``start_deal``, started per episode from the sub-env's seed.

    Autoreset
    ---------
    ``AutoresetMode.NEXT_STEP`` (gymnasium's default): when an episode
    ends at step ``t``, the env's action at step ``t+1`` is ignored, a new
    episode starts, and the step returns its first observation with reward
    0 and ``terminated`` False. ``AutoresetMode.SAME_STEP``: the episode
    that ends at step ``t`` is replaced in that same step; the step
    returns the reward and ``terminated`` of the ended episode with the
    first observation of the next one, and the ended episode's last
    observation in ``infos["final_obs"]`` (for the rows in
    ``infos["_final_obs"]``), as gymnasium's ``SAME_STEP`` envs do. Every
    step is then a real step of the learner (no ignored actions).

    Actions
    -------
    ``action_space.sample()`` draws a legal action for every sub-env.
    ``step`` takes one integer id ``0 .. n_actions-1`` per sub-env and
    refuses anything else (``ValueError``, nothing stepped); an illegal
    id inside that range follows ``illegal_action``. Every game's ids and
    names, observation ranges and reward scale: ``docs/spec.md``.

    Seeding
    -------
    ``reset(seed=s)`` seeds sub-env ``i`` with ``s + i`` (or with
    ``seed[i]`` for a list), exactly as gymnasium's ``SyncVectorEnv``
    seeds its envs; every later episode draws from that sub-env's own
    generator, in the same order as the single env. So the batch
    reproduces, step for step, ``num_envs`` single envs driven by
    ``SyncVectorEnv`` with the same seeds and actions.

    Infos
    -----
    ``{}``, or with an illegal action (``illegal_action="terminate"``)
    ``{"illegal_action": bool[n], "_illegal_action": bool[n]}`` as
    ``SyncVectorEnv`` would give. With ``deal_infos=True``, ``reset`` and
    ``step`` also give the single env's info per sub-env in gymnasium's
    vector convention, as ``SyncVectorEnv`` does: ``"contract"``
    (``object[n]`` of names), ``"declarer"`` and ``"legal_actions"``
    (``int64[n]``), each with its ``"_<key>"`` mask (all True). After an
    autoreset they describe the new episode (``SAME_STEP``: the ended
    one's are not kept). Opt-in, as naming the contracts is Python work
    every step: measured 0.41x of the steps per second without them at 64
    envs, 0.67x at 1024 (Solo Whist, rule opponents, one thread, CPU time).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": [],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }
    single_env_cls: ClassVar[type]

    def option_row(self, game) -> list[int]:  # pragma: no cover - abstract
        """The game's options as the integers its compiled episode hooks read from ``opts[1]``."""
        raise NotImplementedError

    def __init__(
        self,
        num_envs: int = 1,
        seat: int = 0,
        opponents="random",
        illegal_action: str = "terminate",
        illegal_penalty: float | None = None,
        rule_options=None,
        obs_mode: str = "dict",
        bidding: str = "learner",
        batch: BatchOptions | None = None,
        **options,
    ):
        batch = _batch_options(batch, options)
        copy, parallel, autoreset_mode = batch.copy, batch.parallel, batch.autoreset_mode
        deal_infos = batch.deal_infos
        num_envs = check_num_envs(num_envs)
        self.deal_infos = check_flag("deal_infos", deal_infos)
        bidding = check_choice("bidding", bidding, ("learner", "rule"))
        modes = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)
        by_value = {m.value: m for m in modes}  # "NextStep", as gymnasium's make_vec spells it
        if isinstance(autoreset_mode, str):
            autoreset_mode = by_value.get(autoreset_mode, autoreset_mode)
        autoreset_mode = check_choice("autoreset_mode", autoreset_mode, modes)
        parallel = check_parallel(parallel)
        copy = check_flag("copy", copy)
        if isinstance(seat, str) and seat == "random":
            # A seat per sub-env would take the compiled step a seat and opponents per row.
            raise ValueError(
                "seat='random' is not available in the native vector env, whose compiled "
                "step plays one learner seat in every sub-env: give a seat 0..players-1, or "
                "gymnasium.make_vec(env_id, num_envs, vectorization_mode='sync', "
                "seat='random') for a seat drawn per sub-env and episode"
            )
        opponents, policies = _split_policies(opponents)
        # The single env validates opponents, options and rule options for us; seated at 0
        # first, so that a bad seat is named with what this env allows (no "random").
        single = self.single_env_cls(
            seat=0,
            opponents=opponents,
            illegal_action=illegal_action,
            illegal_penalty=illegal_penalty,
            rule_options=rule_options,
            obs_mode=obs_mode,
            **options,
        )
        single._take_seat(check_seat(seat, single.n_seats, random=False))
        # Python agents (pimc, learnt, policy:PATH, objects): played outside the compiled
        # step, batched through act_batch where they have it, else one decision at a time.
        self._agents = {s: a for s, a in enumerate(single._agents) if a is not None}
        n = int(num_envs)
        self.num_envs = n
        self.game = single.game
        self.seat = single.seat
        self.n_seats = single.n_seats
        self.illegal_action = single.illegal_action
        self.illegal_penalty = single.illegal_penalty
        self.copy = copy
        self.parallel = _default_parallel(n) if parallel is None else parallel
        seats = single.n_seats
        others = [(single.seat + 1 + k) % seats for k in range(seats - 1)]
        if None in policies:
            self._policies = dict.fromkeys(others, policies[None])
        else:
            self._policies = {others[k]: policy for k, policy in policies.items()}
        self._kinds = single._kinds.copy()
        for p in self._policies:
            self._kinds[p] = -1  # the compiled step stops there as at the learner's turn
        self.bidding = bidding

        self._rule_kind = resolve_kind("rule")
        self._card_play_phase = self.game.play_phase
        self._python_seats = bool(self._policies) or bool(self._agents) or bidding == "rule"
        # Agents with start_deal keep per-deal state: one copy per sub-env (made when its
        # first deal starts), seeded per episode from the sub-env's seed and episode count.
        # Agents that decide batches hold their per-deal state in one word per sub-env
        # and seat instead (trickgym.agents.rows): no copies.
        self._batched = {p for p, a in self._agents.items() if batched(a)}
        self._batch_rngs = np.zeros((n, single.n_seats, 1), dtype=np.uint64)
        self._row_agents = {
            p: [None] * n
            for p, a in self._agents.items()
            if _has_start(a) and p not in self._batched
        }
        self._row_seeds = np.zeros(n, dtype=np.uint64)
        self._episodes = np.zeros(n, dtype=np.int64)
        self._feature_plan = feature_plan(self.game) if self._agents else None
        self._to_move = np.zeros(n, dtype=np.int64)
        self._params = single._params
        self._oracle = oracle_flag(self._kinds)  # None: the kernels link no solver
        # the single env's episodes, as the compiled episode hooks read them
        goes_on = MATCH_GOES_ON if single.match_goes_on else NEW_MATCH
        self._opts = np.array([goes_on, *self.option_row(self.game)], dtype=np.int64)

        self.obs_mode = obs_mode
        self.autoreset_mode = autoreset_mode
        self.metadata = {**self.metadata, "autoreset_mode": autoreset_mode}
        self._features = feature_plan(self.game) if obs_mode == "features" else None
        self._box_keys = set(single._box_keys)
        self.single_observation_space = single.observation_space
        self.single_action_space = spaces.Discrete(self.game.n_actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = LegalMultiDiscrete(n, self.game.n_actions, self._sample_masks)

        layout = self.game.obs_layout
        self._layout = layout
        self._states = np.zeros(n, dtype=self.game.state_dtype)
        self._obs_records = np.zeros(n, dtype=self.game.obs_dtype)
        self._buf = np.zeros((n, layout.buffer_size), dtype=np.int8)
        self._scalars = np.zeros((n, len(layout.scalar_keys)), dtype=np.int64)
        shapes = layout.obs_shapes
        self._wide = tuple(
            np.zeros((n, *shapes[k][0]), dtype=shapes[k][1]) for k in layout.wide_keys
        )
        # the feature matrix (no columns in dict mode), renewed with the buffers
        size = self._features.size if self._features is not None else 0
        self._feat = np.zeros((n, size), dtype=np.float32)
        self._agent_rngs = np.zeros((n, self.n_seats, 1), dtype=np.uint64)
        self._gens = np.zeros((n, 4), dtype=np.uint64)
        self._helper_rngs = np.zeros((n, 1), dtype=np.uint64)  # for builtin_actions
        self._has_gen = np.zeros(n, dtype=bool)
        self._live = np.zeros(n, dtype=bool)
        self._autoreset = np.zeros(n, dtype=bool)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=bool)
        self._truncated = np.zeros(n, dtype=bool)
        self._illegal = np.zeros(n, dtype=bool)
        self._observations = self._views()
        self._spare = None  # buffers handed out two calls ago (copy=True)
        self._started = False

    def _views(self) -> dict[str, np.ndarray]:
        """The observation dict as views of the batch buffers (keys in the space's order).

        In ``"features"`` mode: the feature matrix and the mask (encoded on demand
        by :meth:`_encode_features`).
        """
        return self._batch_views(self._buf, self._scalars, self._wide, self._feat)

    def _batch_views(self, buf, scalars, wide, features) -> dict[str, np.ndarray]:
        """:meth:`_views` of any batch buffers (``features``: the feature matrix)."""
        layout, n = self._layout, buf.shape[0]
        if self._features is not None:
            mask = buf[:, layout.slices["action_mask"]][:, : self.game.n_actions]
            return {"features": features, "action_mask": mask}
        # scalars whose space is a one-value Box keep their axis: (n, 1)
        boxed = self._box_keys
        out = {
            k: scalars[:, j : j + 1] if k in boxed else scalars[:, j]
            for j, k in enumerate(layout.scalar_keys)
        }
        for k in layout.int8_keys:
            out[k] = buf[:, layout.slices[k]].reshape(n, *layout.obs_shapes[k][0])
        out.update(zip(layout.wide_keys, wide, strict=True))
        return {k: out[k] for k in self.single_observation_space.keys()}

    @property
    def flat_observations(self) -> np.ndarray:
        """The int8 part of the observations as one ``int8[n, buffer_size]`` array (no copy).

        Every int8 key of the observation table back to back (hand, played
        cards, trick, ..., ``action_mask``): a ready-made feature matrix.
        ``trickgym.games.<game>.encode.LAYOUT.slices`` says where each key is.
        """
        return self._buf

    def _encode_features(self) -> None:
        """Features mode: encode every sub-env's feature vector (after the step's encoding)."""
        if self._features is not None:
            self._features.encode(self._buf, self._scalars, self._wide, self._feat)

    def _sample_masks(self):
        return self.action_masks() if self._started else None

    def action_masks(self) -> np.ndarray:
        """Boolean ``[n, n_actions]`` mask of each sub-env's legal actions now.

        In ``"features"`` mode a sub-env with none (awaiting its autoreset)
        shows action 0, the placeholder of its observation's mask.
        """
        mask = self._buf[:, self._layout.slices["action_mask"]]
        return mask[:, : self.game.n_actions].astype(bool)

    def _renew_buffers(self, every_row: bool) -> None:
        """With ``copy=True``, give the kernel batch buffers nobody else holds.

        The observations handed out before stay the caller's. The buffers
        handed out two calls ago are reused when nothing refers to them
        any more (the caller dropped those observations and every view of
        them); otherwise new ones are allocated. Either way beats copying
        the dict's strided views (a quarter of a batch step). ``every_row``:
        the kernel will encode every row (a step, a full reset); otherwise
        the rows it skips are carried over from the current buffers.
        """
        if not self.copy:
            return
        current = (self._buf, self._scalars, self._feat, *self._wide)
        spare, self._spare = self._spare, current
        if spare is None or not every_row or not _unreferenced(spare):
            renew = np.empty_like if every_row else np.copy
            spare = tuple(renew(a) for a in current)
        self._buf, self._scalars, self._feat, *wide = spare
        self._wide = tuple(wide)
        self._observations = self._views()

    def _seed(self, seeds: list, which: np.ndarray) -> np.ndarray:
        """Seed the generators of the envs to reset as ``SyncVectorEnv`` does; ``seed_given``.

        ``seeds``: one per sub-env (``None``: no seed), from :func:`check_seeds`.
        """
        n = self.num_envs
        seed_given = np.zeros(n, dtype=bool)
        for i in np.flatnonzero(which):
            s = seeds[i]
            if s is not None or not self._has_gen[i]:
                generator, _ = np_random(s)
                self._gens[i] = pcg_state(generator)
                self._has_gen[i] = True
            seed_given[i] = s is not None
        return seed_given

    def reset(self, *, seed=None, options: dict | None = None):
        """Start a new episode in every sub-env; return ``(observations, {})``.

        ``options={"reset_mask": bool[n]}`` resets only those sub-envs.
        """
        n = self.num_envs
        which = np.ones(n, dtype=bool)
        options = check_reset_options(options, ("reset_mask",))
        if "reset_mask" in options:
            which = np.asarray(options["reset_mask"])
            if which.shape != (n,) or which.dtype != np.bool_ or not which.any():
                raise ValueError(
                    f"options['reset_mask'] must be a bool array of shape ({n},) with a True, "
                    f"got {options['reset_mask']!r}"
                )
        seeds = check_seeds(seed, n)  # all of them before any generator is reseeded
        seed_given = self._seed(seeds, which)
        if self._row_agents:
            for i in np.flatnonzero(which):
                if seeds[i] is not None or not self._row_seeds[i]:
                    draw = self._gens[i, 1] ^ np.uint64(0xD1B54A32D192ED03)
                    self._row_seeds[i] = draw if seeds[i] is None else np.uint64(seeds[i])
                    self._episodes[i] = 0
        # builtin_actions draws from its own generators, seeded from each env's own stream.
        self._helper_rngs[which, 0] = self._gens[which, 1] ^ np.uint64(0x9E3779B97F4A7C15)
        self._renew_buffers(every_row=bool(which.all()))
        self._reset_rows(which, seed_given)
        self._autoreset[which] = False
        self._terminated[which] = False
        self._play_python_seats(fresh=which)
        self._started = True
        self._encode_features()
        return self._observations, self._add_deal_infos({})

    def _env_arrays(self) -> tuple:
        """The kernels' :class:`~trickgym.envs.vector.kernels.EnvArrays`, as a plain tuple.

        Written out in the record's field order (``tests/envs/test_vector_env.py`` checks
        it): making the named tuple first cost a one-env step 7% (CPU time).
        """
        return (
            self._states, self._kinds, self._agent_rngs, self._params, self._oracle,
            self._gens, self._live, self._opts, self._obs_records,
        )  # fmt: skip

    def _encoded(self) -> tuple:
        """The buffers the kernels encode into (:class:`~trickgym.envs.vector.kernels.Encoded`)."""
        return (self._buf, self._scalars, self._wide)

    def _results(self) -> tuple:
        """The kernels' :class:`~trickgym.envs.vector.kernels.StepResults`, as a plain tuple."""
        return (self._autoreset, self._rewards, self._terminated, self._illegal)

    def _reset_rows(self, which: np.ndarray, seed_given: np.ndarray) -> None:
        """The reset kernel on the envs in ``which`` (it encodes only their rows)."""
        args = (which, seed_given, self._env_arrays(), self.seat, self._encoded())
        if self.parallel:
            check_fork_safe()
            call_keeping_threads(lambda: kernels.reset_parallel(*args, numba.get_num_threads()))
        else:
            kernels.reset_serial(*args)

    def _play_python_seats(self, fresh: np.ndarray) -> None:
        """Policies (and rule bidding) move until the learner's turn in every env.

        Each round calls every policy once, on all envs where its seat is to
        move. ``fresh``: envs whose episode began in this call; one of them
        that ends before the learner has a decision is dealt again.
        """
        if not self._python_seats:
            return
        n_actions = self.game.n_actions
        waiting = self._autoreset | self._terminated  # ended already: not ours to play on
        touched = np.zeros(self.num_envs, dtype=bool)
        self._start_deals(fresh & ~waiting)
        movers = {**self._policies, **self._agents}
        while True:
            kernels.seats_to_move(self._states, waiting, self._to_move)
            groups = [(p, f) for p, f in movers.items() if (self._to_move == p).any()]
            bidding = (self._to_move == self.seat) & (
                self._states["phase"] != self._card_play_phase
            )
            if self.bidding == "rule" and bidding.any():
                groups.append((self.seat, None))
            if not groups:
                break
            if self.bidding == "rule":  # the rule agent's calls, for the bidding envs only
                rule_actions = np.zeros(self.num_envs, dtype=np.int64)
                kernels.builtin_actions(
                    self._states, self.seat, self._rule_kind, self._helper_rngs,
                    self._obs_records, self._params, None, ~bidding, rule_actions,
                )  # fmt: skip
            for p, policy in groups:
                rows = np.flatnonzero(bidding if policy is None else self._to_move == p)
                if policy is None:
                    actions = rule_actions[rows]
                elif p in self._agents:
                    actions = self._agent_actions(p, policy, rows)
                else:
                    actions = self._policy_actions(p, policy, rows)
                bad = kernels.act_rows(
                    self._env_arrays(), rows, actions, self.seat, n_actions, self._results()
                )
                if bad >= 0:
                    i = int(rows[bad])
                    cards, calls = self.game.kernels.legal_sets_at(self._states, i)
                    legal = np.flatnonzero(self.game.action_mask(cards, calls)).tolist()
                    raise ValueError(
                        f"the policy of seat {p} chose illegal action {int(actions[bad])} "
                        f"in sub-env {i}; legal: {legal}"
                    )
                touched[rows] = True
            ended = touched & self._terminated & ~waiting
            again = ended & fresh
            if again.any():  # no decision of the learner's in that episode: deal the next
                self._terminated[again] = False
                self._rewards[again] = 0.0
                self._reset_rows(again, np.zeros(self.num_envs, dtype=bool))
                self._start_deals(again)
            waiting |= ended & ~fresh
            self._autoreset |= ended & ~fresh
        rows = np.flatnonzero(touched)
        kernels.encode_rows(
            self._states, rows, np.full(rows.size, self.seat), self._obs_records, self._buf,
            self._scalars, self._wide, False,
        )  # fmt: skip

    def _start_deals(self, rows: np.ndarray) -> None:
        """A new episode in sub-envs ``rows``: their agents' ``start_deal`` hooks (batched
        agents: their generator words, as ``start_deal`` would set them)."""
        if not (self._row_agents or self._batched) or not rows.any():
            return

        at = np.flatnonzero(rows)
        for p in sorted(self._batched):
            seeds = stream_seeds(self._row_seeds[at], self._episodes[at], AGENT_SEED_STREAM + p)
            self._batch_rngs[at, p, 0] = self._agents[p].deal_rng(seeds, p)
        if not self._row_agents:
            self._episodes[rows] += 1
            return
        for i in np.flatnonzero(rows):
            agents = [None] * self.n_seats
            for p, copies in self._row_agents.items():
                if copies[i] is None:
                    copies[i] = copy.deepcopy(self._agents[p])
                agents[p] = copies[i]
            start_deal(agents, int(self._row_seeds[i]), int(self._episodes[i]))
            self._episodes[i] += 1

    def _agent_actions(self, seat: int, agent, rows: np.ndarray) -> np.ndarray:
        """A Python agent's actions at ``seat`` in sub-envs ``rows``.

        ``act_batch(features, masks)`` gets the whole batch at once; other
        agents decide one sub-env at a time (``act_record`` or ``act``).
        """
        if seat in self._batched:
            seats = np.full(rows.size, seat, dtype=np.int64)
            return np.asarray(
                agent.act_rows(self._states, rows, seats, self._batch_rngs), dtype=np.int64
            )
        if callable(getattr(agent, "act_batch", None)):
            layout, k = self._layout, rows.size
            buf, scalars, wide = layout.empty_batch(k)
            kernels.encode_rows(
                self._states, rows, np.full(k, seat), self._obs_records, buf, scalars, wide, True
            )
            masks = buf[:, layout.slices["action_mask"]][:, : self.game.n_actions].astype(bool)
            features = self._feature_plan.encode(buf, scalars, wide)
            return np.asarray(agent.act_batch(features, masks), dtype=np.int64)
        copies = self._row_agents.get(seat)
        return np.array(
            [
                python_action(
                    agent if copies is None else copies[i], self.game, self._states, i, seat
                )
                for i in rows
            ],
            dtype=np.int64,
        )

    def _policy_actions(self, seat: int, policy, rows: np.ndarray) -> np.ndarray:
        """``policy``'s actions for the envs ``rows``, from ``seat``'s observations."""
        layout, k = self._layout, rows.size
        buf, scalars, wide = layout.empty_batch(k)
        kernels.encode_rows(
            self._states, rows, np.full(k, seat), self._obs_records, buf, scalars, wide, True
        )
        features = self._features.encode(buf, scalars, wide) if self._features else None
        obs = self._batch_views(buf, scalars, wide, features)
        masks = buf[:, layout.slices["action_mask"]][:, : self.game.n_actions].astype(bool)
        actions = np.asarray(policy(obs, masks))
        if actions.shape != (k,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(
                f"the policy of seat {seat} must return {k} integer actions (shape ({k},)), "
                f"got shape {actions.shape} dtype {actions.dtype}"
            )
        return actions.astype(np.int64)

    def step(self, actions):
        """Act in every sub-env; return ``(obs, rewards, terminated, truncated, infos)``."""
        if not self._started:
            raise ValueError("call reset() before step()")
        # Ids outside the action space are refused in every mode (also where the
        # action is ignored, awaiting an autoreset); illegal ids inside it follow
        # illegal_action.
        actions = check_actions(actions, self.num_envs, self.game.n_actions)
        if self.illegal_action == "raise":
            bad = kernels.first_illegal(self._states, actions, self.game.n_actions, self._autoreset)
            if bad >= 0:
                legal = np.flatnonzero(self.action_masks()[bad]).tolist()
                raise ValueError(
                    f"illegal action {int(actions[bad])} in sub-env {bad} for seat "
                    f"{self.seat}; legal: {legal} (no sub-env was stepped)"
                )
        self._renew_buffers(every_row=True)
        fresh = self._autoreset.copy()  # NEXT_STEP: these start a new episode in this step
        args = (
            self._env_arrays(), actions, self.seat, self.game.n_actions, self.illegal_penalty,
            self._encoded(), self._results(),
        )  # fmt: skip
        if self.parallel:
            check_fork_safe()
            call_keeping_threads(lambda: kernels.step_parallel(*args, numba.get_num_threads()))
        else:
            kernels.step_serial(*args)
        self._play_python_seats(fresh=fresh)
        infos = {}
        if self._illegal.any():
            infos = {
                "illegal_action": self._illegal.copy(),
                "_illegal_action": self._illegal.copy(),
            }
        if self.autoreset_mode == AutoresetMode.SAME_STEP and self._terminated.any():
            self._reset_ended(infos)
        self._encode_features()
        self._add_deal_infos(infos)
        return (
            self._observations,
            self._rewards.copy(),
            self._terminated.copy(),
            self._truncated.copy(),
            infos,
        )

    def _add_deal_infos(self, infos: dict) -> dict:
        """With ``deal_infos``: each sub-env's contract, declarer and legal-action count."""
        if not self.deal_infos:
            return infos
        n = self.num_envs
        contracts, declarers = self.game.contracts_of(self._states)
        legal = self._buf[:, self._layout.slices["action_mask"]].sum(axis=1, dtype=np.int64)
        legal[self._autoreset] = 0  # ended, awaiting its reset: the features mode's placeholder
        everywhere = np.ones(n, dtype=bool)
        for key, values in (
            ("contract", contracts),
            ("declarer", declarers),
            ("legal_actions", legal),
        ):
            infos[key] = values
            infos[f"_{key}"] = everywhere
        return infos

    def _reset_ended(self, infos: dict) -> None:
        """SAME_STEP: keep the ended episodes' last observations, start their next ones."""
        ended = self._terminated.copy()
        rows = np.flatnonzero(ended)
        # The ended rows only (the whole batch is encoded once, after the resets).
        buf, scalars = self._buf[rows], self._scalars[rows]
        wide = tuple(w[rows] for w in self._wide)
        features = self._features.encode(buf, scalars, wide) if self._features else None
        last = self._batch_views(buf, scalars, wide, features)
        final = np.empty(self.num_envs, dtype=object)
        for k, i in enumerate(rows):
            final[i] = {key: np.array(v[k]) for key, v in last.items()}
        infos["final_obs"] = final
        infos["_final_obs"] = ended
        # The kernel re-encodes the reset rows in place: this step's arrays are
        # new already (copy=True) or the env's own (copy=False).
        self._reset_rows(ended, np.zeros(self.num_envs, dtype=bool))
        self._autoreset[ended] = False
        # The Python seats play the new episodes on; the ended ones' flags and
        # rewards are this step's answer.
        rewards = self._rewards.copy()
        self._terminated[ended] = False
        self._play_python_seats(fresh=ended)
        self._terminated[ended] = True
        self._rewards[ended] = rewards[ended]

    def builtin_actions(self, agent: str = "rule") -> np.ndarray:
        """``int64[n]``: the action built-in ``agent`` would take at the learner's seat now.

        For delegating some decisions (e.g. the auction) to a built-in agent,
        or imitating it. It acts on the seat's information set, with its own
        random generators (so the env's draws are unchanged); entries of envs
        awaiting their autoreset are 0.
        """
        kind = resolve_kind(agent)
        out = np.zeros(self.num_envs, dtype=np.int64)
        kernels.builtin_actions(
            self._states, self.seat, kind, self._helper_rngs,
            self._obs_records, self._params, oracle_flag([kind]), self._autoreset, out,
        )  # fmt: skip
        return out

    def state(self, i: int):
        """Sub-env ``i``'s full game state (all hands; a copy): for inspection, not the agent."""
        i = check_int("i", i, 0, self.num_envs - 1)
        return State(self.game, self._states[i : i + 1].copy())
