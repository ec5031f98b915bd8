"""A simulation run as one value you can hold: :class:`RunSpec` and its groups.

A :class:`RunSpec` says everything :func:`trickgym.simulate` needs: the game
and its options, how many deals (or matches) from which seed, and three
groups of settings, each a small frozen record:

- :class:`Agents`: who plays each seat (``seats``), the rule agents'
  settings, and the double-dummy columns (``dd``, ``dd_max_nodes``);
- :class:`Output`: where and how the rows go (``out`` folder, ``chunk``,
  ``resume``, ``rebuild``, ``columns``, ``trajectories``, ``progress`` and
  the ``on_chunk`` / ``on_warm_up`` callbacks);
- :class:`Backend`: where the chunks run (``name`` ``"local"`` or
  ``"dask"``, ``threads``, ``scheduler``, ``no_workers_timeout``).

Every value is checked once, when the spec is made (a bad one raises
``ValueError`` naming it and what is allowed), so a spec you hold is one
that runs; ``simulate``'s keywords build the same spec
(:meth:`RunSpec.from_keywords`), with the same errors. Example::

    import dataclasses

    from trickgym import RunSpec, simulate
    from trickgym.sim import Agents, Output

    spec = RunSpec(
        "troggu", 20_000, "rule", seed=7,
        options={"players": 5},
        output=Output("runs/troggu5", chunk=2048),
    )
    run = simulate(spec)  # writes runs/troggu5, returns a SimulationRun
    other = dataclasses.replace(spec, seed=8, output="runs/troggu5-s8")
    rows = simulate(RunSpec("solowhist", 1000, Agents("rule", dd=True)))  # a DataFrame

The shorthand ``agents="rule"`` (a name, an agent object or a list per
seat) stands for ``Agents("rule")``, ``output="runs/x"`` for
``Output("runs/x")``, and ``backend="dask"`` for ``Backend("dask")``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import KW_ONLY, dataclass, field

import numba
import numpy as np

from ..checks import check_callable, check_flag, check_int, check_path, check_real, require_extra
from ..progress import want_progress
from .backends import BACKENDS
from .dataset import check_column_list, check_columns
from .plan import RunPlan, make_plan, row_dtype, rows_to_frame

__all__ = ["Agents", "Backend", "Output", "RunSpec"]


@dataclass(frozen=True)
class Agents:
    """Who plays: the agents per seat, the rule agents' settings, the double-dummy columns.

    Parameters
    ----------
    seats : str, Agent, or list of them
        One agent for every seat, or one per seat: built-in names
        (``"random"``, ``"rule"``, ``"oracle"``), registered names
        (``trickgym.agents.register_agent``), ``"policy:PATH"`` or objects
        with ``act(observation, action_mask)`` or ``act_record(record, action_mask)``.
    rule_options : optional
        The rule agents' settings (``trickgym.agents.rule.<game>.RuleOptions``),
        one for every seat or a list with one per seat.
    dd : bool
        Add the double-dummy columns (what perfect play with every card seen
        would have made; see :func:`trickgym.sim.simulate`).
    dd_max_nodes : int, optional
        With ``dd``: the node budget of each solver call (``0``: none).
    """

    seats: object = "random"
    rule_options: object = None
    dd: bool = False
    dd_max_nodes: int | None = None


@dataclass(frozen=True)
class Output:
    """Where a run's rows go, in what pieces, and what it reports as it goes.

    Parameters
    ----------
    out : path, optional
        Folder of the Parquet dataset to write (``None``: return a DataFrame).
    chunk : int, optional
        Deals (or matches) per chunk (default: about 65,536 rows; fewer with
        ``dd`` or ``trajectories``); does not change the rows.
    resume : bool
        Complete the run already in ``out``.
    rebuild : bool
        With ``resume``: rebuild the metadata of ``out`` from its chunks.
    columns : list of str, optional
        Without ``out``: keep only these columns.
    trajectories : bool
        With ``out``: also record every decision of every deal.
    progress : bool or None
        Show a progress bar (``None``: in a terminal or a notebook).
    on_chunk : callable, optional
        ``on_chunk(index, rows)`` after each chunk.
    on_warm_up : callable, optional
        ``on_warm_up(compiled)`` after the kernels are warmed up.
    """

    out: str | os.PathLike | None = None
    chunk: int | None = None
    resume: bool = False
    rebuild: bool = False
    columns: list[str] | None = None
    trajectories: bool = False
    progress: bool | None = None
    on_chunk: Callable | None = None
    on_warm_up: Callable | None = None


@dataclass(frozen=True)
class Backend:
    """Where the chunks run: this process (``"local"``) or a Dask cluster (``"dask"``).

    Parameters
    ----------
    name : ``"local"`` or ``"dask"``
    threads : int, optional
        numba threads (default: all; Dask: each worker's threads).
    scheduler : str or distributed.Client, optional
        Dask scheduler address (default: a ``LocalCluster``).
    no_workers_timeout : float, optional
        Dask: seconds to wait for a worker before giving up (default 60).
    """

    name: str = "local"
    threads: int | None = None
    scheduler: object = None
    no_workers_timeout: float | None = None


# simulate's keywords by the group that holds them (the rest are game options)
_KEYWORDS = {
    "agents": ("rule_options", "dd", "dd_max_nodes"),
    "output": (
        "out", "chunk", "resume", "rebuild", "columns", "trajectories", "progress",
        "on_chunk", "on_warm_up",
    ),
    "backend": ("threads", "scheduler", "no_workers_timeout"),
    "run": ("matches", "first", "dealing", "pack"),
}  # fmt: skip


@dataclass(frozen=True)
class RunSpec:
    """One simulation run: what :func:`trickgym.simulate` plays, and how.

    Made once, checked once: every value is checked here (``ValueError``
    naming a bad one), so ``simulate(spec)`` only runs. See
    :mod:`trickgym.sim.run_spec` for an example; :func:`trickgym.sim.simulate`
    documents each setting.

    Parameters
    ----------
    game : str
        Game name (see ``trickgym.GAMES``).
    deals : int, optional
        Number of deals (default 1000); not for whole matches.
    agents : Agents, or a name, agent object or list of them
        Who plays (:class:`Agents`; a bare value is ``Agents(value)``).
    seed : int or None
        Reproducibility seed; ``None`` draws one when the spec is made (it
        is then ``spec.plan.seed``, and every run of this spec uses it).
    matches : int, optional
        Whole matches raced to a target (Phat, Pinochle), instead of deals.
    first : int
        Index of the first deal (or match).
    dealing : ``"shuffled"`` or ``"match"``, optional
        Solo Whist's BGA match dealing with ``"match"``.
    pack : ``"bga"`` or ``"shuffled"``, optional
        Another name for the dealing.
    options : mapping
        Game options (``{"players": 5}``), checked by the game.
    output : Output or a folder path
        Where the rows go (:class:`Output`; a path is ``Output(path)``).
    backend : Backend or ``"local"`` / ``"dask"``
        Where the chunks run (:class:`Backend`; a name is ``Backend(name)``).
    """

    game: str = "solowhist"
    deals: int | None = None
    agents: Agents = Agents()
    seed: int | None = 0
    _: KW_ONLY
    matches: int | None = None
    first: int = 0
    dealing: str | None = None
    pack: str | None = None
    options: Mapping = field(default_factory=dict)
    output: Output = Output()
    backend: Backend = Backend()
    # The checked, resolved run (agents per seat, rule parameters, chunks, seed drawn).
    _plan: RunPlan = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        _coerce(self)
        object.__setattr__(self, "_plan", _check(self))

    @property
    def plan(self) -> RunPlan:
        """The resolved run: per-seat agents and rule parameters, seed, chunks.

        What a dataset's metadata records (:class:`trickgym.sim.plan.RunPlan`).
        """
        return self._plan

    @classmethod
    def from_keywords(
        cls, game: str = "solowhist", deals=None, agents="random", seed=0, **keywords
    ) -> RunSpec:
        """The spec of ``simulate(game, deals, agents, seed, **keywords)``.

        Each keyword goes to its group (``threads`` to :class:`Backend`,
        ``chunk`` to :class:`Output`, ``dd`` to :class:`Agents`, ...;
        ``backend`` is the backend's name); the others are game options.
        """
        groups: dict[str, dict] = {name: {} for name in _KEYWORDS}
        options = {}
        backend = keywords.pop("backend", "local")
        for key, value in keywords.items():
            group = next((g for g, keys in _KEYWORDS.items() if key in keys), None)
            (options if group is None else groups[group])[key] = value
        if not isinstance(agents, Agents):
            agents = Agents(agents, **groups["agents"])
        elif groups["agents"]:
            raise ValueError(
                f"{', '.join(groups['agents'])} given both in agents= (an Agents record) and "
                "as a keyword: pass one or the other"
            )
        return cls(
            game,
            deals,
            agents,
            seed,
            options=options,
            output=Output(**groups["output"]),
            backend=Backend(backend, **groups["backend"]),
            **groups["run"],
        )


def _coerce(spec: RunSpec) -> None:
    """The shorthands (a bare agent, folder path or backend name) as their records."""
    if not isinstance(spec.agents, Agents):
        object.__setattr__(spec, "agents", Agents(spec.agents))
    if isinstance(spec.output, str | os.PathLike):
        object.__setattr__(spec, "output", Output(spec.output))
    elif not isinstance(spec.output, Output):
        raise ValueError(f"output must be an Output record or a folder path, got {spec.output!r}")
    if isinstance(spec.backend, str):
        object.__setattr__(spec, "backend", Backend(spec.backend))
    elif not isinstance(spec.backend, Backend):
        raise ValueError(
            f"backend must be a Backend record or one of {', '.join(BACKENDS)}, "
            f"got {spec.backend!r}"
        )
    if not isinstance(spec.options, Mapping):
        raise ValueError(f"options must be a mapping of game options, got {spec.options!r}")
    object.__setattr__(spec, "options", dict(spec.options))


def _check(spec: RunSpec) -> RunPlan:
    """Check every setting of ``spec`` (clear errors first), and resolve it into its plan."""
    out, backend = spec.output, spec.backend
    if out.progress is not None:
        want_progress(out.progress)
    check_flag("resume", out.resume)
    check_callable("on_chunk", out.on_chunk, args="index, rows")
    check_callable("on_warm_up", out.on_warm_up, args="compiled")
    dealing = _dealing(spec.dealing, spec.pack)
    if backend.name not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend.name!r}")
    if backend.scheduler is not None and backend.name != "dask":
        raise ValueError("scheduler= is for backend='dask'")
    if backend.no_workers_timeout is not None:
        if backend.name != "dask":
            raise ValueError("no_workers_timeout= is for backend='dask'")
        # > 0: a zero timeout would give up at once, even on a cluster still starting its workers
        timeout = check_real("no_workers_timeout", backend.no_workers_timeout, 0, above=True)
        backend = dataclasses.replace(backend, no_workers_timeout=timeout)
        object.__setattr__(spec, "backend", backend)
    if backend.name == "dask":  # before an output folder is made, so a rerun is not refused
        require_extra("distributed", "dask", "the dask backend (backend='dask', --backend dask)")
    if out.out is not None:
        check_path("out", out.out)
    if out.resume and out.out is None:
        raise ValueError("resume=True needs out= (the dataset folder to complete)")
    check_flag("rebuild", out.rebuild)
    if out.rebuild and not out.resume:
        raise ValueError("rebuild=True is for resume=True (the run to complete is rebuilt)")
    if backend.threads is not None:
        check_int("threads", backend.threads, 1, numba.config.NUMBA_NUM_THREADS)
    if out.columns is not None:
        check_column_list(out.columns)
    if check_flag("trajectories", out.trajectories) and out.out is None:
        raise ValueError(
            "trajectories=True writes the decisions beside the chunks of a dataset: pass out= "
            "(CLI: --out) the folder to write"
        )
    plan = make_plan(spec, dealing)
    if out.columns is not None:
        if out.out is not None:
            raise ValueError("columns= is for runs without out= (read_dataset reads columns)")
        # the names are checked before any deal is played
        check_columns(out.columns, rows_to_frame(plan, np.zeros(0, row_dtype(plan))).columns)
    return plan


def _dealing(dealing, pack) -> str:
    """The dealing named by ``dealing`` or its other name ``pack`` (default ``"shuffled"``)."""
    if pack is not None:
        mapped = (
            {"bga": "match", "shuffled": "shuffled"}.get(pack) if isinstance(pack, str) else None
        )
        if mapped is None:
            raise ValueError(f"pack must be 'bga' or 'shuffled', got {pack!r}")
        if dealing is not None and dealing != mapped:
            raise ValueError(f"pack={pack!r} contradicts dealing={dealing!r}")
        dealing = mapped
    return "shuffled" if dealing is None else dealing
