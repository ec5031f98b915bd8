"""The game protocol: everything a generic kernel may ask of a game, in one place.

Generic kernels (the built-in play loops, rollouts and the oracle, the
simulators' blocks, the vector env, Monte Carlo search, the solvers, the
hand advisor) are written once over the stub functions below. Each game
registers its own kernels for them once: its package's
:class:`GameDescription` names them (as ``"module:kernel"`` strings, so that
the games layer imports nothing above it) and registers them with
:func:`register` when it is made; a kernel named by string is imported when
a generic kernel calling it is first compiled for that game.

A stub is a numba ``overload`` key resolved by the record dtype of its
``state`` (or ``states``, ``obs``, ``observations``) argument, a record or
an array of them,
so a kernel compiled for a Troggu state calls the Troggu rules directly:
no run-time dispatch and no jitted function passed as an argument (whose
cache key holds an address, so numba would recompile it in every process).

The hooks, by group (``state``: a state record; ``states``: an
array of states with an index ``i``; ``obs``/``observations``: observation
records or arrays):

Rules
  ``legal_sets(state) -> (low, high)``: the legal actions as two ``uint64``
  words (cards in ``low``, calls from ``call_base(state)`` in ``high``);
  ``apply_action(state, action)``; ``deal_over(state) -> bool``;
  ``call_base(state) -> int``; ``is_legal(state, action) -> bool``;
  ``match_over(state) -> bool``; ``next_deal(state)``;
  ``observe(state, seat, obs)``: ``seat``'s view of ``state`` into the
  observation record ``obs``; ``in_card_play(state) -> bool``: whether
  the deal is in its card play (by default: no call is legal). The batch
  entry points over them (``*_at``) are written once, in
  :mod:`trickgym.games.kernels`.
Agents
  ``new_states(state)``: a one-record state array (scratch of the state's
  dtype); ``new_obs(state)``: a one-record observation array;
  ``observe_core(state, seat, obs)``: the fields of ``seat``'s observation
  the rule agent reads; ``rule_policy(obs, values, rng) -> int``: the rule
  agent's action from an observation record and its parameter ``values``
  (the loops of :mod:`trickgym.engine.loops` put the two together);
  ``determinize(obs, memory, template, out, rng) -> bool``: a full deal
  consistent with a seat's observation; ``candidates(state) -> (low,
  high)``: the actions a search considers; ``leaf(state, rng, obs_scratch,
  params, table, dd_cards)``: a search leaf's payoffs into
  ``state.payoffs``.
Oracle (imported only when a loop with an oracle seat is compiled)
  ``oracle_action(state, seat, rng, obs, params, table) -> int``;
  ``oracle_no_table(state)``: the placeholder solver table a loop starts a
  deal with; ``oracle_table(state, table)``: ``table`` or the deal's real
  one, made at its first use; ``oracle_solves(state) -> bool`` (point-trick
  games): whether the oracle solves this decision; ``rollout_cards(state)
  -> int`` (point-trick games): the cards in the hand to move from which
  the oracle's rollouts solve the rest of the deal (the description's
  ``solve_lines["oracle_rollout"]`` for the table); ``side_play(state) ->
  bool`` (point-trick games): whether the deal is in its card play with a
  declaring side, a position the point-trick solver values.
Features
  ``encode(observations, j, buf, scalars, wide)``: the features observation
  of ``observations[j]`` into row ``j`` of the batch arrays.
Episodes (the envs)
  ``start_match(state, seed, opts)``: a new match in ``state`` from
  ``seed`` (the first dealer drawn) with the episode's option row ``opts``
  (``opts[0]`` is the vector env's own, see :mod:`trickgym.engine.episode_hooks`;
  the game's options follow); ``episode_over(states, i, opts) -> bool``,
  ``episode_reward(states, i, seat, opts) -> float``.
Simulation (see :mod:`trickgym.sim.blocks`)
  ``start_deal(state, seed, opts)``: a one-deal match of ``seed`` with the
  game's ``int64`` simulation options ``opts``; ``write_row(row, state,
  deal)``: the finished deal's row (selected by ``state``).
Double-dummy columns of point-trick games (see :mod:`trickgym.sim.dd_columns_points`)
  ``dd_first_lead(row, state) -> status``: ``state`` set to the first lead of
  the simulation row ``row``'s deal; ``dd_made(state, final) -> bool``:
  whether ``final`` side points make the contract; ``dd_solve(row, states,
  table, work) -> int``: the side's final points from the first lead
  ``states[0]`` (-1 past the solver's budget).
Point-trick solver (see :mod:`trickgym.solvers.points_search`)
  ``in_side(state, seat)``, ``side_points(state)``, ``bounds(state)``,
  ``key(state)``, ``points(state, card)``, ``suit(state, card)``,
  ``fixed(state)``, ``wins_now(state, card)``, ``winner(state)``,
  ``prepare(state)``, ``unit(state)``, ``span(state, low_card, high_card)``,
  ``beaters(state, card)``, ``unequal_ok(state)``.
Hand advisor (see :mod:`trickgym.advisor.kernels`)
  ``advise_settle(state, seat, call, choice, rng, obs_scratch, params)``:
  ``seat`` makes ``call`` and the auction is settled as the advisor values
  it (``choice``: a follow-up the seat fixes now, such as Solo Whist's
  Abundance trump suit, -1 for none); ``advise_outcome(state, seat) ->
  (status, tricks, made, payoff)``: a finished deal's outcome for the seat
  (codes in :mod:`trickgym.advisor.codes`). A game with a solver adds
  ``advise_solver(obs, limits)``: one thread's solver workspace, and
  ``advise_solve(state, seat, solver, limits, rng, obs_scratch, params) ->
  (status, tricks, made, payoff)``: the settled contract solved from the
  first lead (``limits``: the int64 row of :mod:`trickgym.advisor.codes`;
  the rule agents, with ``rng``, ``obs_scratch`` and ``params``, make any
  follow-up left before the first lead: trumps named, kitty buried, cards
  passed, a Tapp discarded).

A game that does not take part in a capability (no point-trick solver for
Solo Whist) simply leaves those hooks out; a kernel that needs one then
fails to compile for that game, naming the stub.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba.extending import overload

from .records import is_record_of

__all__ = ["HOOKS", "GameDescription", "kernel", "load", "register", "require"]


@dataclass(frozen=True)
class Hook:
    """One protocol entry: its stub, argument count, and the argument whose dtype selects it."""

    stub: object
    arity: int
    on: str  # "state" or "obs": which of a game's dtypes selects the overload
    inline: bool = False  # numba-IR inlining (the vector env's per-row hooks)
    at: int = 0  # the position of that argument


def _stub(name: str, params: str):
    # A plain Python function whose only job is to be numba's overload key.
    source = (
        f"def {name}({params}):\n"
        f"    raise NotImplementedError('trickgym.protocol.{name} runs only inside "
        "compiled kernels, for a game whose kernels are registered')\n"
    )
    namespace: dict = {}
    exec(source, namespace)
    fn = namespace[name]
    fn.__module__ = __name__
    fn.__doc__ = f"Protocol stub ``{name}({params})``: see :mod:`trickgym.protocol`."
    return fn


_TABLE = [
    # name, parameters, the game's dtype selecting it ("state" | "obs"), inline
    ("legal_sets", "state", "state", False),
    ("apply_action", "state, action", "state", False),
    ("deal_over", "state", "state", False),
    ("call_base", "state", "state", False),
    ("is_legal", "state, action", "state", False),
    ("match_over", "state", "state", False),
    ("next_deal", "state", "state", False),
    ("observe", "state, seat, obs", "state", False),
    ("in_card_play", "state", "state", False),
    ("new_states", "state", "state", False),
    ("new_obs", "state", "state", False),
    ("observe_core", "state, seat, obs", "state", False),
    ("rule_policy", "obs, values, rng", "obs", False),
    ("oracle_action", "state, seat, rng, obs, params, table", "state", False),
    ("oracle_no_table", "state", "state", False),
    ("oracle_table", "state, table", "state", False),
    ("oracle_solves", "state", "state", False),
    ("rollout_cards", "state", "state", False),
    ("side_play", "state", "state", False),
    ("determinize", "obs, memory, template, out, rng", "obs", False),
    ("candidates", "state", "state", False),
    ("leaf", "state, rng, obs_scratch, params, table, dd_cards", "state", False),
    ("encode", "observations, j, buf, scalars, wide", "obs", True),
    ("start_match", "state, seed, opts", "state", True),
    ("episode_over", "states, i, opts", "state", True),
    ("episode_reward", "states, i, seat, opts", "state", True),
    ("in_side", "state, seat", "state", False),
    ("side_points", "state", "state", False),
    ("bounds", "state", "state", False),
    ("key", "state", "state", False),
    ("points", "state, card", "state", False),
    ("suit", "state, card", "state", False),
    ("fixed", "state", "state", False),
    ("wins_now", "state, card", "state", False),
    ("winner", "state", "state", False),
    ("prepare", "state", "state", False),
    ("unit", "state", "state", False),
    ("span", "state, low_card, high_card", "state", False),
    ("beaters", "state, card", "state", False),
    ("unequal_ok", "state", "state", False),
    ("dd_first_lead", "row, state", "state", False),
    ("dd_made", "state, final", "state", False),
    ("dd_solve", "row, states, table, work", "state", False),
    ("start_deal", "state, seed, opts", "state", False),
    ("write_row", "row, state, deal", "state", False),
    ("advise_settle", "state, seat, call, choice, rng, obs_scratch, params", "state", False),
    ("advise_outcome", "state, seat", "state", False),
    ("advise_solver", "obs, limits", "obs", False),
    ("advise_solve", "state, seat, solver, limits, rng, obs_scratch, params", "state", False),
]

#: Every protocol hook by name.
HOOKS: dict[str, Hook] = {}
for _name, _params, _on, _inline in _TABLE:
    _fn = _stub(_name, _params)
    globals()[_name] = _fn
    __all__.append(_name)
    _names = [n.strip() for n in _params.split(",")]
    _at = next(k for k, n in enumerate(_names) if n in ("state", "states", "obs", "observations"))
    HOOKS[_name] = Hook(_fn, len(_names), _on, _inline, _at)
del _name, _params, _on, _inline, _fn, _names, _at

_ARGS = "abcdefgh"
_REGISTERED: dict = {}  # state dtype -> the game's kernels by hook name


def _resolve(impl):
    """The kernel itself, importing ``"module:name"`` at its first use.

    ``"module:NAME[key]"`` is item ``key`` of the mapping ``NAME`` (a
    solver's table of hooks, read only when a kernel calling one compiles).
    """
    if isinstance(impl, str):
        module, _, name = impl.partition(":")
        name, _, key = name.partition("[")
        value = getattr(importlib.import_module(module), name)
        return value[key.rstrip("]")] if key else value
    return impl


def load(ref: str):
    """The Python object a description names as ``"package.module.name"`` (imported now).

    A description names its Python-side pieces (sim specs, envs, options
    classes of agents) with dots, not as ``"module:name"``: that form marks
    a kernel, which :mod:`trickgym._kernel_cache` follows when it decides what an
    edit recompiles.
    """
    if not isinstance(ref, str) or "." not in ref:
        raise ValueError(f"expected a 'package.module.name' reference, got {ref!r}")
    module, _, name = ref.rpartition(".")
    return getattr(importlib.import_module(module), name)


def _bind(hook: Hook, impl, dtype, direct: bool = False) -> None:
    """Overload ``hook.stub`` with ``impl`` where its selecting argument is of ``dtype``.

    ``direct``: ``impl`` is itself the overload's implementation (a plain
    Python function numba compiles into the caller), not a kernel to call.
    """
    # numba matches an overload's parameters one by one, by name, so each arity
    # needs its own function: made from one template rather than written out.
    names = list(inspect.signature(impl).parameters) if direct else _ARGS[: hook.arity]
    params = ", ".join(names)
    body = "fn" if direct else f"lambda {params}: fn({params})"
    source = (
        f"def typer({params}):\n"
        f"    if is_record_of({names[hook.at]}, dtype):\n"
        f"        fn = resolve(impl)\n"
        f"        return {body}\n"
        f"    return None\n"
    )
    namespace = {"is_record_of": is_record_of, "dtype": dtype, "impl": impl, "resolve": _resolve}
    exec(source, namespace)
    options = {"inline": "always"} if hook.inline else {}
    overload(hook.stub, **options)(namespace["typer"])


#: Hooks a game's rules module provides under these very names.
RULES_HOOKS = (
    "legal_sets",
    "apply_action",
    "deal_over",
    "is_legal",
    "match_over",
    "next_deal",
    "observe",
    "observe_core",
)
#: Hooks a game may leave out: search leaves valued by rule-agent playouts, episodes
#: of one deal rewarded by its payoff, and the card play told by no call being legal.
DEFAULTS = {
    "in_card_play": "trickgym.engine.playout:no_call_legal",
    "leaf": "trickgym.engine.playout:rule_leaf",
    "episode_over": "trickgym.engine.episode_hooks:deal_episode_over",
    "episode_reward": "trickgym.engine.episode_hooks:deal_payoff",
}


def _encode_adapter(encode_kernel, n_wide: int):
    """``encode(observations, j, buf, scalars, wide)`` calling a game's encode kernel.

    Each game's kernel takes row ``j`` of its wide (non-int8) arrays as
    separate arguments, as many as the game has.
    """
    wide = ", ".join(f"wide[{k}][j]" for k in range(n_wide))
    source = (
        "def adapter(observations, j, buf, scalars, wide):\n"
        f"    encode_kernel(observations, j, buf[j], scalars[j], {wide})\n"
    )
    namespace = {"encode_kernel": encode_kernel}
    exec(source, namespace)
    return namespace["adapter"]


def register(
    state_dtype, obs_dtype, *, rules, call_base, encode_kernel, encode_wide, **impls
) -> None:
    """Register one game's kernels for the protocol's hooks, once.

    ``state_dtype`` and ``obs_dtype`` are the game's record dtypes,
    ``rules`` its rules module (giving the :data:`RULES_HOOKS` by name),
    ``call_base`` its first call action, ``encode_kernel`` its features
    kernel with ``encode_wide`` wide arrays. Each other keyword names a
    hook of :data:`HOOKS` and gives the game's ``@njit`` kernel for it, or
    ``"module:name"`` to import it only when a kernel using the hook is
    first compiled (solvers: a rule-only run never imports them);
    :data:`DEFAULTS` fill the hooks left out, and ``candidates`` defaults
    to ``legal_sets``. Registering the same dtypes twice is a no-op, so a
    game's description may be registered more than once.
    """
    unknown = sorted(set(impls) - set(HOOKS))
    if unknown:
        raise ValueError(f"unknown protocol hooks {unknown}; hooks: {sorted(HOOKS)}")
    if state_dtype in _REGISTERED:
        return
    impls = {
        **{name: getattr(rules, name) for name in RULES_HOOKS},
        "candidates": rules.legal_sets,
        **DEFAULTS,
        **impls,
    }
    _REGISTERED[state_dtype] = impls
    for name, impl in impls.items():
        hook = HOOKS[name]
        _bind(hook, impl, state_dtype if hook.on == "state" else obs_dtype)
    # Constants and allocations compiled into the caller (no kernel of their own).
    base = int(call_base)
    _bind(HOOKS["call_base"], lambda state: base, state_dtype, direct=True)
    _bind(HOOKS["new_states"], lambda state: np.empty(1, dtype=state_dtype), state_dtype, True)
    _bind(HOOKS["new_obs"], lambda state: np.empty(1, dtype=obs_dtype), state_dtype, True)
    _bind(HOOKS["encode"], _encode_adapter(encode_kernel, encode_wide), obs_dtype, True)


@dataclass(frozen=True)
class GameDescription:
    """One game, described once: everything the package reads of it beside its rules.

    Each game package exports one (``trickgym.games.<game>.DESCRIPTION``);
    :func:`trickgym.games.register` adds a game's to the registry that the
    simulator, the envs, ``warm``, the analysis and the CLI read.

    ``name``: the registry name (``"solowhist"``); ``game``: the
    :class:`trickgym.api.Game` subclass (its rules facts: seats, actions,
    dtypes, phases, ``run_unit``, ``title``, ...); ``options``: its options
    dataclass; ``rules``: the module of its rules kernels (the
    :data:`RULES_HOOKS` by name); ``encode_wide``: how many wide (non-int8)
    arrays its ``encode_kernel`` fills; ``kernels``: the other hooks of
    :data:`HOOKS` it gives, each as ``"module:kernel"`` (imported when a
    kernel calling the hook is first compiled, so this layer names what sits
    above it without importing it, so rule and random runs never load a
    solver) or as the kernel itself;
    ``rule_options``: ``"module:Class"`` of the rule agent's options.

    Python-side pieces, named ``"package.module.name"`` (see :func:`load`):
    ``sim`` the simulator's ``SimSpec`` (None: no simulation);
    ``envs``: ``(env id, single env class, vector env class)`` triples;
    ``pettingzoo``: whether the PettingZoo envs take it. ``compile_cpu``
    and ``compile_seconds``: the measured first-run compile cost
    (:mod:`trickgym.compiling`), None when not measured; ``feature_compile``:
    ``{feature: (cpu, (low, high))}`` for features compiled on top;
    ``warm_tables``: the option sets ``trickgym warm`` builds by default,
    with ``warm_choices``: ``{warm keyword: option}`` for the ones a user
    may choose (``players=`` is Troggu's ``players``), and ``warm_runs``:
    the ``simulate`` keywords of the runs it makes beside one deal (or
    match), each compiling kernels of its own; ``columns``: columns
    only this game's ``simulate`` rows have together (how the analysis tells
    a frame's game).
    """

    name: str
    game: type
    options: type
    rules: str
    encode_wide: int
    kernels: Mapping[str, Any] = field(default_factory=dict)
    rule_options: str | None = None
    sim: str | None = None
    envs: tuple[tuple[str, str, str], ...] = ()
    pettingzoo: bool = True
    compile_cpu: int | None = None
    compile_seconds: tuple[int, int] | None = None
    feature_compile: Mapping[str, tuple[int, tuple[int, int]]] = field(default_factory=dict)
    warm_tables: tuple[Mapping[str, Any], ...] = ({},)
    warm_choices: Mapping[str, str] = field(default_factory=dict)
    warm_runs: tuple[Mapping[str, Any], ...] = ()
    columns: frozenset[str] = frozenset()
    solve_lines: Mapping[str, int | tuple[int, ...]] = field(default_factory=dict)
    hand_features: Mapping[str, str] = field(default_factory=dict)
    analysis: str | None = None
    learnt_guards: str | None = None

    def __post_init__(self):
        # Made once, at the import of the game's package: its kernels are registered for
        # the hooks now (a few ms; the kernels named by string are imported only when a
        # caller compiles). The kernel cache (trickgym._kernel_cache) reads this call as
        # the description modules registering through the protocol.
        unknown = sorted(set(self.kernels) - set(HOOKS))
        if unknown:
            raise ValueError(f"unknown protocol hooks {unknown}; hooks: {sorted(HOOKS)}")
        game = self.game
        if game.name != self.name:
            raise ValueError(f"description {self.name!r} names game {game.name!r}")
        register(
            game.state_dtype,
            game.obs_dtype,
            rules=importlib.import_module(self.rules),
            call_base=game.call_base,
            encode_kernel=game.encode_kernel,
            encode_wide=self.encode_wide,
            **self.kernels,
        )

    def rule_options_class(self):
        """The rule agent's options dataclass (imported now)."""
        if self.rule_options is None:
            raise ValueError(f"{self.name} names no rule agent options")
        return _resolve(self.rule_options)


def require(game) -> GameDescription:
    """The description of ``game``, whose kernels are registered once it is made.

    ``game`` is a :class:`trickgym.api.Game` (or its class) of a registered
    game (:func:`trickgym.games.register`); call before compiling a generic
    kernel for the game from Python.
    """
    return game.description


def kernel(game, name: str):
    """The kernel ``game`` registered for hook ``name``, to call from Python.

    ``game`` is a :class:`trickgym.api.Game` or its class (its kernels are
    registered first); a kernel named as ``"module:name"`` is imported now.
    """
    require(game)
    return _resolve(_REGISTERED[game.state_dtype][name])
