"""A simulation run as data: what to play, cut into chunks that any worker can run.

A :class:`RunPlan` fixes everything that decides the results (game and its
options, agents per seat, rule parameters, seed, dealing, unit of work, the
range of deals or matches, the chunk size). :func:`run_chunk` plays one
chunk from the spec alone, so chunks can run in any order, in any process
or on any machine, and chunk ``i`` always gives the same rows.
"""

from __future__ import annotations

import dataclasses
import threading
from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd

from trickgym._version import __version__
from trickgym.agents import KINDS, is_agent
from trickgym.agents.registry import is_python_name, known_agents, make_agent
from trickgym.agents.rows import batched
from trickgym.agents.rule.presets import PRESETS, resolve_presets
from trickgym.engine.params import PARAMS_DTYPE, params_matrix

from ..checks import check_int
from ..forksafe import check_fork_safe
from ..games import GAMES
from ..games import game as make_game
from ..rng import seed_rng
from .python_loop import simulate_python, simulate_python_matches, simulate_python_whole_matches
from .solowhist import MAX_PASSED_OUT
from .specs import SPECS

__all__ = [
    "DEFAULT_CHUNK_ROWS",
    "RunPlan",
    "make_plan",
    "row_dtype",
    "rows_to_frame",
    "run_chunk_rows",
    "run_part_rows",
]

DEFAULT_CHUNK_ROWS = 1 << 16  # rows per chunk aimed at by the default chunk size
# With dd=True a row costs the solver tens of milliseconds: chunks this small
# still keep the threads busy, and the progress bar and an interrupted run's
# saved work advance every minute or so.
DD_CHUNK_ROWS = 1 << 10
TRAJECTORY_CHUNK_ROWS = 1 << 8  # deals per chunk of a run recording every decision
MAX_CHUNK_ROWS = 1 << 22  # rows a chunk may hold (its buffers are allocated at once)
# Deals (or matches) a run may count: about 10**12, days of work on a big cluster;
# more is a typo (2**62) that would end in an OverflowError or a MemoryError.
MAX_ITEMS = 1 << 40
# Chunks a run may be cut into: each is a file and an entry in the run's lists.
MAX_CHUNKS = 1 << 22
INT64_MAX = 2**63 - 1  # deal and match indices are int64 in the kernels and the rows
_KERNEL_LOCK = threading.Lock()  # one parallel kernel at a time per process (see run_chunk)


@dataclass(frozen=True)
class RunPlan:
    """Everything that decides a run's rows, resolved (see :func:`trickgym.sim.simulate`).

    Made from a :class:`trickgym.sim.RunSpec` (its ``plan``) or from a
    dataset's metadata: the agents one per seat, the rule agents' parameter
    rows, the seed drawn, the chunk size chosen.

    ``unit`` is the independent unit of work: ``"deal"`` (a freshly
    shuffled deal) or ``"match"`` (a whole match whose rules carry state
    from deal to deal). ``first``, ``count`` and ``chunk`` count ``items``:
    ``"deals"``, or ``"matches"`` for races to a target (Phat, Pinochle
    with ``matches=``). Solo Whist's BGA dealing is counted in deals, whole
    matches of ``num_deals`` at a time.
    """

    game: str
    options: dict
    agents: tuple
    rule_params: tuple
    seed: int
    dealing: str
    unit: str
    items: str
    first: int
    count: int
    chunk: int
    dd: bool = False
    dd_max_nodes: int | None = None
    trajectories: bool = False

    @property
    def n_chunks(self) -> int:
        """Number of chunks of the run."""
        return count_chunks(self.count, self.chunk)

    def chunk_range(self, index: int) -> tuple[int, int]:
        """``(start, stop)``: the items (absolute indices) of chunk ``index``."""
        return chunk_bounds(self.first, self.count, self.chunk, index)

    def smallest_part(self, start: int) -> RunPlan:
        """The run cut down to the smallest piece starting at item ``start``.

        One deal or match; for Solo Whist's BGA dealing one whole match of
        ``num_deals`` deals (``start`` must begin a match). Its rows are the
        first rows of the chunk starting at ``start``.
        """
        one = self.options["num_deals"] if self.unit == "match" and self.items == "deals" else 1
        return dataclasses.replace(self, first=start, count=one, chunk=one)

    def agent_names(self) -> list[str]:
        """Per-seat agent names; a Python object is ``python:module.Class``."""
        return [a if isinstance(a, str) else _object_name(a) for a in self.agents]

    def metadata(self) -> dict:
        """The spec as JSON-ready data (what a dataset's metadata file records)."""
        return {
            "game": self.game,
            "options": dict(self.options),
            "agents": self.agent_names(),
            "rule_params": [list(row) for row in self.rule_params],
            "seed": self.seed,
            "dealing": self.dealing,
            "unit": self.unit,
            "items": self.items,
            "first": self.first,
            "count": self.count,
            "chunk": self.chunk,
            "n_chunks": self.n_chunks,
            "dd": self.dd,
            "dd_max_nodes": self.dd_max_nodes,
            "trickgym_version": __version__,
            # Only when set: the settings (and so the digest and the chunk stamps) of
            # every run without trajectories stay what earlier versions wrote.
            **({"trajectories": True} if self.trajectories else {}),
        }


def count_chunks(count: int, chunk: int) -> int:
    """Number of chunks of ``chunk`` items that hold ``count`` items."""
    return -(-count // chunk)


def chunk_bounds(first: int, count: int, chunk: int, index: int) -> tuple[int, int]:
    """``(start, stop)`` of chunk ``index`` of items ``first .. first+count-1`` cut by ``chunk``."""
    start = first + index * chunk
    return start, min(start + chunk, first + count)


def spec_from_metadata(meta: dict) -> RunPlan:
    """The :class:`RunPlan` a dataset's metadata records (to replay its chunks).

    The metadata's value types are checked by
    :func:`trickgym.sim.run_metadata.check_metadata`; here the settings are
    checked as ``simulate`` checks them (the game's options, one known
    agent per seat, one parameter row per seat). ``ValueError`` naming what
    cannot be replayed, also if a seat had a Python agent object (only its
    class name was recorded, not the object).
    """
    objects = [a for a in meta["agents"] if a.startswith("python:")]
    if objects:
        raise ValueError(
            f"the run had Python agent objects ({', '.join(objects)}), which cannot be "
            "rebuilt from its metadata to replay it"
        )
    try:
        g = make_game(meta["game"], **meta["options"])
    except TypeError as err:  # an option name the game does not take
        raise ValueError(
            f"the recorded options {meta['options']!r} cannot be replayed: {err}"
        ) from None
    agents = _per_seat_agents(list(meta["agents"]), g.n_seats)
    rule_params = tuple(tuple(float(x) for x in row) for row in meta["rule_params"])
    width = PARAMS_DTYPE["values"].shape[0]
    if len(rule_params) != g.n_seats or any(len(row) != width for row in rule_params):
        raise ValueError(
            f"the recorded rule_params are not {g.n_seats} rows of {width} numbers (one per "
            "seat), so the run cannot be replayed"
        )
    return RunPlan(
        game=meta["game"],
        options=dict(meta["options"]),
        agents=agents,
        rule_params=rule_params,
        seed=int(meta["seed"]),
        dealing=meta["dealing"],
        unit=meta["unit"],
        items=meta["items"],
        first=int(meta["first"]),
        count=int(meta["count"]),
        chunk=int(meta["chunk"]),
        dd=bool(meta.get("dd", False)),
        dd_max_nodes=meta.get("dd_max_nodes"),
        trajectories=bool(meta.get("trajectories", False)),
    )


def _object_name(agent) -> str:
    cls = type(agent)
    return f"python:{cls.__module__}.{cls.__qualname__}"


def _check_count(name: str, value, low: int, high: int | None = MAX_ITEMS) -> int:
    """``value`` checked, as a Python int: a numpy ``uint8`` would overflow the sums below."""
    return check_int(name, value, low, high)


def _check_extent(items: str, first: int, count: int, chunk: int) -> None:
    """The run's last index fits int64, and its chunks are not too many to list."""
    if first > INT64_MAX - (count - 1):
        raise ValueError(
            f"first={first} with {items}={count} would number {items} up to "
            f"{first + count - 1}; the last index first+{items}-1 must be <= {INT64_MAX} "
            f"(first <= {INT64_MAX - (count - 1)})"
        )
    n_chunks = -(-count // chunk)
    if n_chunks > MAX_CHUNKS:
        raise ValueError(
            f"{items}={count} in chunks of {chunk} would make {n_chunks:,} chunks; at most "
            f"{MAX_CHUNKS:,}: pass chunk= of at least {-(-count // MAX_CHUNKS)}"
        )


def _per_seat_agents(agents, n_seats: int) -> tuple:
    """One entry per seat: a known name (checked) or a Python agent object."""
    if isinstance(agents, str) or is_agent(agents):
        agents = [agents] * n_seats
    if isinstance(agents, type) or not isinstance(agents, list | tuple) or len(agents) != n_seats:
        raise ValueError(f"agents must be one agent or a list of {n_seats}, got {agents!r}")
    known = sorted([*known_agents(), *PRESETS])
    for a in agents:
        if isinstance(a, str):
            if a not in known and not is_python_name(a):
                raise ValueError(
                    f"unknown agent {a!r}; known agents: {', '.join(known)} "
                    "or policy:PATH[:bidding=rule|policy] (a policy's .npz weights)"
                )
        elif not is_agent(a):
            raise ValueError(
                f"agent {a!r} is neither a known name ({', '.join(known)}) "
                "nor an object with act(observation, action_mask) or act_record(record, mask)"
            )
    return tuple(agents)


def make_plan(spec, dealing: str) -> RunPlan:
    """Check the game, agents, counts, chunk and seed of ``spec`` and resolve them into a plan.

    ``spec`` is a :class:`trickgym.sim.RunSpec` whose other settings are
    checked already (its checks call this once), ``dealing`` its dealing
    (``pack`` resolved). Clear errors first, before any deal is played.
    """
    game, deals, matches, seed, first = spec.game, spec.deals, spec.matches, spec.seed, spec.first
    agents, rule_options = spec.agents.seats, spec.agents.rule_options
    dd, dd_max_nodes = spec.agents.dd, spec.agents.dd_max_nodes
    chunk, trajectories = spec.output.chunk, spec.output.trajectories
    if not isinstance(game, str) or game not in GAMES:
        raise ValueError(f"unknown game {game!r}; available: {', '.join(sorted(GAMES))}")
    g = make_game(game, **spec.options)
    sim = SPECS[game]
    dd_max_nodes = _dd_budget(game, sim, dd, dd_max_nodes)
    agents = _per_seat_agents(agents, g.n_seats)
    # Presets ("fitted") are the compiled rule agent with their own parameter rows.
    agents, rule_options = resolve_presets(game, agents, rule_options, g.n_seats)
    agents = tuple(agents)
    params = params_matrix(game, g.n_seats, rule_options)
    if dealing not in ("shuffled", "match"):
        raise ValueError(f"dealing must be 'shuffled' or 'match', got {dealing!r}")
    first = _check_count("first", first, 0, INT64_MAX)
    if chunk is not None:
        chunk = _check_count("chunk", chunk, 1, None)  # bounded by its rows below
    if sim.unit == "match" or matches is not None:
        if sim.whole_matches is None:
            raise ValueError(
                f"matches= is for games raced to a target (phat, pinochle), not {game}"
            )
        if deals is not None:
            what = (
                "is played in whole matches"
                if sim.unit == "match"
                else "takes deals or matches, not both"
            )
            raise ValueError(f"{game} {what}: pass matches=N, not deals={deals!r}")
        if dealing != "shuffled":
            raise ValueError(
                f"dealing={dealing!r} is for Solo Whist; {game} matches always shuffle"
            )
        count = _check_count("matches", 100 if matches is None else matches, 1)
        rows_per_item = sim.slots(g) if sim.slots is not None else 16
        default_chunk = max(1, _chunk_rows(dd, trajectories) // rows_per_item)
        unit, items = "match", "matches"
    else:
        count = _check_count("deals", 1000 if deals is None else deals, 1)
        default_chunk = _chunk_rows(dd, trajectories)
        rows_per_item = 1
        unit, items = "deal", "deals"
        if dealing == "match":
            if trajectories:
                raise ValueError(
                    "trajectories=True records independent deals or whole matches; with "
                    "dealing='match' (pack='bga') a passed-out deal has no row to key its "
                    "decisions: use dealing='shuffled'"
                )
            if sim.match_block is None:
                raise ValueError(
                    f"dealing='match' is not available for {game}; use dealing='shuffled'"
                    + (" or matches=N for whole races to the target" if sim.whole_matches else "")
                )
            per = g.options.num_deals
            if count % per or first % per:
                raise ValueError(
                    f"with dealing='match', deals ({count}) and first ({first}) must be "
                    f"multiples of num_deals ({per})"
                )
            if chunk is not None and chunk % per:
                raise ValueError(
                    f"with dealing='match', chunk ({chunk}) must be a multiple of num_deals ({per})"
                )
            default_chunk -= default_chunk % per
            default_chunk = max(default_chunk, per)
            unit = "match"
    if chunk is not None and chunk * rows_per_item > MAX_CHUNK_ROWS:
        raise ValueError(
            f"chunk={chunk} {items} would hold up to {chunk * rows_per_item:,} rows in memory "
            f"at once; at most {MAX_CHUNK_ROWS:,} ({MAX_CHUNK_ROWS // rows_per_item:,} {items})"
        )
    _check_extent(items, first, count, default_chunk if chunk is None else chunk)
    if seed is None:
        seed = seed_rng(None)  # recorded, so the run can be repeated
    seed_rng(seed)  # validates
    return RunPlan(
        game=game,
        options=dataclasses.asdict(g.options),
        agents=agents,
        rule_params=tuple(tuple(float(x) for x in row) for row in params["values"]),
        seed=int(seed),
        dealing=dealing,
        unit=unit,
        items=items,
        first=int(first),
        count=int(count),
        chunk=int(default_chunk if chunk is None else chunk),
        dd=bool(dd),
        dd_max_nodes=dd_max_nodes,
        trajectories=bool(trajectories),
    )


def _chunk_rows(dd: bool, trajectories: bool) -> int:
    """Rows (deals) a chunk holds by default: fewer when each costs more, or weighs more."""
    if trajectories:
        # a decision's features are 3-8 KB: 256 deals of about 60 decisions each are
        # at most some 130 MB in memory, a few MB on disk
        return TRAJECTORY_CHUNK_ROWS
    return DD_CHUNK_ROWS if dd else DEFAULT_CHUNK_ROWS


def _dd_budget(game: str, sim, dd, dd_max_nodes) -> int | None:
    """The node budget a run records: ``None`` without ``dd``, else nodes per call (0: none)."""
    if not isinstance(dd, bool | np.bool_):
        raise ValueError(f"dd must be True or False, got {dd!r}")
    if not dd:
        if dd_max_nodes is not None:
            raise ValueError(f"dd_max_nodes={dd_max_nodes!r} is for dd=True runs")
        return None
    if sim.add_dd is None:
        have = ", ".join(name for name, s in SPECS.items() if s.add_dd is not None)
        raise ValueError(
            f"dd=True (double-dummy columns) is not available for {game}: only {have} "
            "has a double-dummy solver for now"
        )
    default = sim.dd_default_max_nodes
    if dd_max_nodes is None:
        return default
    if (
        not isinstance(dd_max_nodes, int | np.integer)
        or isinstance(dd_max_nodes, bool)
        or not 0 <= dd_max_nodes < 2**62
    ):
        raise ValueError(
            "dd_max_nodes must be a whole number of search nodes per solver call "
            f"(0 for no budget, None for the default {default:,}), "
            f"got {dd_max_nodes!r}"
        )
    return int(dd_max_nodes)


def row_dtype(spec: RunPlan) -> np.dtype:
    """The numpy record type of the rows of ``spec`` (with the dd columns if it has them)."""
    sim = SPECS[spec.game]
    return sim.dd_row_dtype if spec.dd else sim.row_dtype


def _resolve(spec: RunPlan, g) -> tuple[np.ndarray | None, list]:
    """Compiled kinds per seat (``None`` if a seat has a Python agent), and the agents.

    Registered names become fresh agent objects for this chunk (one per name for
    agents that decide batches, one per seat for the others).
    """
    if all(isinstance(a, str) and a in KINDS for a in spec.agents):
        return np.array([KINDS[a] for a in spec.agents], dtype=np.int64), list(spec.agents)

    made: dict[str, object] = {}
    agents = []
    for a in spec.agents:
        if isinstance(a, str):
            agent = made.get(a) or make_agent(a, g)
            if batched(agent):
                # its state per deal and seat is held by the loop: one object serves every
                # seat of that name, deciding them all in one call per round
                made[a] = agent
            a = agent
        agents.append(a)
    return None, agents


def rows_to_frame(spec: RunPlan, rows: np.ndarray) -> pd.DataFrame:
    """The DataFrame of rows from :func:`run_chunk_rows` (one chunk's or several joined)."""
    g = make_game(spec.game, **spec.options)
    return SPECS[spec.game].frame(rows, g, spec.unit == "match")


def has_python_agents(spec: RunPlan) -> bool:
    """Whether a seat of ``spec`` is a Python agent (played by the Python loop)."""
    return not all(isinstance(a, str) and a in KINDS for a in spec.agents)


def part_items(spec: RunPlan) -> int:
    """Items of the smallest part of ``spec`` (see :meth:`RunPlan.smallest_part`)."""
    return spec.smallest_part(spec.first).count


@dataclass
class Players:
    """What plays a run's deals in one process: its game, seed, parameters and agents.

    Made once per chunk, or once per worker process of a run
    (:mod:`trickgym.sim.python_pool`); registered names become fresh agent objects.
    """

    game: object
    seed: np.uint64
    params: np.ndarray
    kinds: np.ndarray | None
    agents: list


def players(spec: RunPlan) -> Players:
    """The :class:`Players` of ``spec`` in this process."""
    g = make_game(spec.game, **spec.options)
    params = np.zeros(len(spec.rule_params), dtype=PARAMS_DTYPE)
    params["values"] = spec.rule_params
    kinds, agents = _resolve(spec, g)
    return Players(g, np.uint64(seed_rng(spec.seed)), params, kinds, agents)


def run_chunk_rows(spec: RunPlan, index: int, tick=None) -> np.ndarray:
    """The rows (numpy records of the game's row dtype) of chunk ``index`` of ``spec``.

    Depends only on the spec and the index. ``tick(n)``, if given, is called
    as deals (Python agents) or whole chunks (compiled) finish. Compiled
    kernels run one at a time per process (they are parallel already, and
    some threading layers cannot run two at once).
    """
    if not 0 <= index < spec.n_chunks:
        raise ValueError(f"chunk index must be 0..{spec.n_chunks - 1}, got {index!r}")
    start, stop = spec.chunk_range(index)
    return run_part_rows(spec, start, stop, tick)


def run_part_rows(
    spec: RunPlan, start: int, stop: int, tick=None, who: Players | None = None
) -> np.ndarray:
    """The rows of items ``start .. stop-1`` of ``spec``: a chunk, or a part of one.

    ``start`` and ``stop`` lie on smallest-part boundaries (:func:`part_items`);
    the rows of a chunk are the rows of its parts joined in order, whatever
    the parts (every deal or match depends only on the seed and its index).
    ``who``: the players to use (default: made for this call).
    """
    sim = SPECS[spec.game]
    if who is None:
        who = players(spec)
    g, seed, params, kinds, agents = who.game, who.seed, who.params, who.kinds, who.agents
    n = stop - start
    whole = spec.items == "matches"
    match_mode = spec.unit == "match"
    if kinds is None:
        progress = tick or False
        if whole:
            rows = simulate_python_whole_matches(g, sim, seed, start, n, agents, progress, params)
        elif match_mode:
            per = g.options.num_deals
            rows = simulate_python_matches(
                g, sim, seed, start // per, n // per, agents, progress, params
            )
        else:
            rows = simulate_python(g, sim, seed, start, n, agents, progress, params)
    else:
        check_fork_safe()
        with _KERNEL_LOCK:
            if whole:
                rows = sim.whole_matches(g, seed, start, n, kinds, params)
            else:
                rows = np.zeros(n, dtype=sim.row_dtype)
                if match_mode:
                    sim.match_block(g, seed, start // g.options.num_deals, kinds, params, rows)
                else:
                    # Work items small enough to keep every thread busy; no effect on rows.
                    work = max(1, min(1024, -(-n // (4 * numba.get_num_threads()))))
                    sim.deal_block(g, seed, start, kinds, params, work, rows)
    if spec.dd:
        # A kernel of its own after the rules' (which never link the solver):
        # the columns depend only on each row's hands and contract.
        check_fork_safe()
        with _KERNEL_LOCK:
            rows = sim.add_dd(rows, spec.dd_max_nodes, g)
    if kinds is not None and tick is not None:
        tick(n)
    if match_mode and not whole and (rows["deal"] < 0).any():
        raise ValueError(
            "some matches were abandoned after their agents passed out "
            f"{MAX_PASSED_OUT} deals in a row; use agents that bid"
        )
    return rows
