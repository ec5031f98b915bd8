"""Batch simulation: N deals with given agents and seed, as a DataFrame or a Parquet dataset.

Built-in agents (names such as ``"random"``) run inside one compiled,
parallel loop; Python agents (objects with ``act(observation, action_mask)``,
or names registered with ``trickgym.agents.register_agent``) run through the
slower Python game API, on several threads in worker processes
(:mod:`trickgym.sim.python_pool`). Either way deal ``k`` of a seed is the
same deal, whatever the number of threads, the chunk size or the backend.

A run is one value, a :class:`RunSpec` (:mod:`trickgym.sim.run_spec`:
the game, the counts and seed, and grouped :class:`Agents`, :class:`Output`
and :class:`Backend` settings), checked when it is made; ``simulate(spec)``
runs it, and ``simulate``'s keywords build one.

A run is cut into chunks (:mod:`trickgym.sim.plan`); with ``out=`` each chunk
is written to a Parquet dataset as soon as it is done
(:mod:`trickgym.sim.dataset`), and chunks run here or on a Dask cluster
(:mod:`trickgym.sim.backends`).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from trickgym.agents import KINDS

from ..compiling import NOTICE_AFTER, announce, run_compiling, take_over
from ..games import game_class
from ..progress import progress_bar, want_progress
from .backends import NO_WORKERS_TIMEOUT, ClusterLostError
from .dataset import Dataset, check_columns, read_dataset
from .plan import RunPlan, rows_to_frame
from .run_spec import Agents, Backend, Output, RunSpec

__all__ = [
    "Agents",
    "Backend",
    "ClusterLostError",
    "Output",
    "RunSpec",
    "SimulationRun",
    "read_dataset",
    "simulate",
]


@dataclass(frozen=True)
class SimulationRun:
    """What ``simulate(..., out=...)`` did: the dataset folder, its plan, the work done.

    ``spec`` is the resolved run the dataset records (a
    :class:`~trickgym.sim.plan.RunPlan`: agents per seat, seed, chunks);
    ``chunks_run`` chunks were played now, ``chunks_skipped`` were already
    in the folder (a resumed run); ``rows`` rows were written now.
    """

    path: str
    spec: RunPlan
    chunks_run: int
    chunks_skipped: int
    rows: int
    seconds: float

    def read(self, columns: list[str] | None = None) -> pd.DataFrame:
        """The whole dataset as a DataFrame (see :func:`read_dataset`)."""
        return read_dataset(self.path, columns)


def simulate(
    game: str | RunSpec = "solowhist", deals: int | None = None, agents="random", seed=0, **keywords
):
    """Play ``deals`` deals (or ``matches`` whole matches); one row per deal.

    Returns a DataFrame, or with ``out=`` writes a Parquet dataset chunk by
    chunk and returns a :class:`SimulationRun`.

    Takes a run description, ``simulate(spec)`` (a :class:`RunSpec`, made
    and checked beforehand; nothing else is then passed), or the settings as
    keywords, which make that spec (:meth:`RunSpec.from_keywords`): the
    calls ``simulate("phat", matches=50, agents="rule", seed=3)`` and
    ``simulate(RunSpec("phat", agents="rule", seed=3, matches=50))`` are
    the same run. The keywords are grouped in the spec: ``agents``,
    ``rule_options``, ``dd``, ``dd_max_nodes`` in :class:`Agents`; ``out``,
    ``chunk``, ``resume``, ``rebuild``, ``columns``, ``trajectories``,
    ``progress``, ``on_chunk``, ``on_warm_up`` in :class:`Output`;
    ``backend`` (its name), ``threads``, ``scheduler``,
    ``no_workers_timeout`` in :class:`Backend`.

    Parameters
    ----------
    game : str or RunSpec
        Game name (see ``trickgym.GAMES``), or the whole run's description.
    deals : int
        Number of deals (default 1000), ``1 .. 2**40``; rows are deals
        ``first .. first+deals-1`` of ``seed``. Not for Phat.
    matches : int
        Whole matches raced to a target, the unit of work where the rules
        carry state from deal to deal: Phat (always; races to 181,
        ``games_in_match`` each; default 100) and Pinochle (race to
        ``target``); rows are every deal of matches ``first ..
        first+matches-1``, and match ``m`` depends only on ``(seed, m)``.
        At most ``2**40``.
    first : int
        Index of the first deal (or match), ``>= 0``; the last,
        ``first+deals-1``, must be at most ``2**63 - 1`` (indices are int64).
    agents : str, Agent, or list of them
        One agent for every seat, or one per seat: built-in names
        (``"random"``, ``"rule"``, ``"oracle"``), registered names
        (``trickgym.agents.register_agent``), ``"policy:PATH"`` (a policy's
        ``.npz`` weights, :mod:`trickgym.agents.policy`) or objects with
        ``act(observation, action_mask)`` or ``act_record(record, action_mask)``.
    seed : int
        Reproducibility seed, ``0 .. 2**64 - 1`` (others are refused, never
        wrapped); deal ``k`` depends only on ``(seed, k)``.
        ``None`` draws one (recorded in a dataset's metadata).
    dealing : ``"shuffled"`` or ``"match"``
        ``"shuffled"`` (default): every deal is the freshly shuffled first
        deal of its own match (unit of work: a deal). ``"match"`` (Solo
        Whist): rows are the scored deals of whole matches of
        ``num_deals`` (a game option), dealt as on BGA (dealer rotation,
        gather-and-cut unless the previous contract was Abundance or
        higher; unit of work: a match); ``deals``, ``first`` and ``chunk``
        must be multiples of ``num_deals`` and match ``m`` depends only on
        ``(seed, m)``.
    pack : ``"bga"`` or ``"shuffled"``, optional
        Another name for the dealing: ``pack="bga"`` is
        ``dealing="match"`` (BGA's gathered-and-cut pack), ``pack="shuffled"``
        is ``dealing="shuffled"``.
    chunk : int, optional
        Deals (or matches) per chunk: the unit written to one file, sent to
        one Dask task, and redone after an interruption; memory is bounded
        by it. Does not change results. Default: about 65536 rows (1024
        with ``dd``); at most ``2**22`` rows a chunk, and ``2**22`` chunks a run.
    threads : int, optional
        numba threads to use (default: all; Dask: each worker's threads).
        Python agents on more than one thread play in that many worker
        processes once the run is long enough (a couple of seconds),
        with the same rows (:mod:`trickgym.sim.python_pool`): a script
        must then guard its top-level code with
        ``if __name__ == "__main__":``; agent objects must be picklable and
        have ``start_deal``, else they play in this process (a
        ``RuntimeWarning`` says why).
    progress : bool or None
        Show a tqdm progress bar (deals or matches per second, ETA) and,
        the first time the kernels compile, what is compiling. ``None``
        (default): shown when stderr is a terminal or in a Jupyter notebook
        (:func:`trickgym.progress.want_progress`); ``False``: nothing printed.
    rule_options : optional
        The rule agents' settings (``trickgym.agents.rule.<game>.RuleOptions``):
        one object for every seat or a list with one per seat; default
        settings when omitted.
    out : path, optional
        Folder of a Parquet dataset to write, one file per chunk as it
        finishes, with the run's spec in ``_trickgym_run.json`` (see
        :mod:`trickgym.sim.dataset`). Read it with :func:`read_dataset`.
    resume : bool
        Complete the run already in ``out`` (same spec, else ``ValueError``)
        by running only its missing chunks.
    rebuild : bool
        With ``resume``: rebuild the metadata of ``out`` if it is missing or
        damaged, from its chunk files and this call's settings, which must
        be the run's: each chunk is checked by its content and, with
        built-in or registered agents, by replaying its first deal or match
        (a chunk of other settings raises ``ValueError`` and nothing is
        deleted); damaged chunks are redone.
        See :mod:`trickgym.sim.dataset`.
    backend : ``"local"`` or ``"dask"``
        Run chunks in this process, or on a Dask distributed cluster.
    scheduler : str or distributed.Client, optional
        Dask scheduler address (default: a ``LocalCluster``).
    no_workers_timeout : float, optional
        Dask: seconds the run waits for a worker when the cluster has none
        (all died, or none started yet) before it raises
        :class:`ClusterLostError` (default 60). So does a lost scheduler,
        or a chunk that killed workers (``KilledWorker``). With ``out=`` the
        finished chunks are kept and ``resume=True`` with the same settings
        completes the run, locally or on Dask.
    on_chunk : callable, optional
        ``on_chunk(index, rows)`` after each chunk is done (and written),
        with the chunk's row count.
    on_warm_up : callable, optional
        Warm the kernels up (compile them, or load them from numba's cache)
        before the run, as ``progress=True`` does, and call
        ``on_warm_up(compiled)`` with what that took
        (:class:`trickgym.compiling.Compiled`: ``seconds``, ``count`` and
        ``names`` of the functions compiled), so a caller can time the run
        apart from the compile. Not called for Python agents (no warm-up).
    columns : list of str, optional
        Without ``out``: keep only these columns, chunk by chunk, so a huge
        run's memory is only what they take.
    dd : bool
        Add what the declaring side could have taken with every card seen
        and perfect play by every hand, in the contract played, from its
        first lead. Solo Whist: ``dd_tricks`` (int8), the declaring side's
        tricks, and ``dd_made`` (pandas nullable boolean), whether that
        contract was makeable (a misère: the declarer could be held to no
        trick); ``-1`` / ``<NA>``: no contract, or the solver ran out of its
        node budget (about 15 deals/s per core with rule agents, see
        :mod:`trickgym.sim.dd_columns_solowhist`). Phat, Pinochle and Troggu:
        ``dd_points`` (the pitching team's phat, the declaring team's
        counters, the declaring side's card points), ``dd_made`` and
        ``dd_status`` (``solved``, ``unsolved``: past the budget, ``no
        contract``, ``no side``: Troggu's Misère), from one full-deal
        point-trick solve a row, rebuilt from the row by the rules (see
        :mod:`trickgym.sim.dd_columns_points`; a full solve is seconds today, so
        expect many ``unsolved`` rows until the solver is faster). Any
        ``dealing``, backend or agents; split the failures with
        :func:`trickgym.analysis.failure_split` (Phat: of
        :func:`trickgym.analysis.pitch_frame`).
    dd_max_nodes : int, optional
        With ``dd``: the node budget of each solver call (Solo Whist: a row
        takes at most two, about 70 ns a node, default 4,000,000; the
        others: one full solve, default 4,000,000); ``0`` for none (a rare
        deal then takes very long). Answers past it are flagged (``-1`` /
        ``<NA>``, ``dd_status`` ``unsolved``), never guessed.
    trajectories : bool
        With ``out``: also record every decision of every deal, one file of
        steps beside each chunk (``_steps-...parquet``): the deal, the
        decision's index in it, the seat to act, the phase, that seat's
        observation features, the legal mask, the action taken and the
        deal's payoff for that seat. The deals and the per-deal rows are
        those of the same run without it; chunks default to 256 deals (a
        decision's features weigh 3-8 KB in memory). Not with
        ``dealing="match"``. Python agents then play in this process,
        whatever ``threads``. Read them with
        :func:`trickgym.sim.trajectories.iter_batches`; see
        :mod:`trickgym.sim.recording`.
    **keywords
        The settings above, and the game's options (``players=5``),
        validated by the game.

    Returns
    -------
    pandas.DataFrame or SimulationRun
        For Solo Whist: ``deal, dealer, turn_up, contract, declarer, partner,
        trumps, declarer_tricks, made, payoff_0..3, auction, hand_0..3``
        (``dd=True`` puts ``dd_tricks, dd_made`` after ``made``; in the
        other games ``dd_points, dd_made, dd_status`` after ``made``, in
        Phat after ``winner``);
        match mode adds ``match, deal_in_match, passed_out_before, shuffled``
        and ``score_0..3`` (match scores after the deal).
        For Troggu (``players=n``): ``deal, players, dealer, contract,
        declarer, partner, called_card, declarer_points, declarer_tricks,
        made, fool_held_back, fool_held_back_by, auction, payoff_0..n-1,
        points_0..n-1, hand_0..n-1, tapp``.
        For Phat: ``match, game, deal, pitcher, trumps, tricks, phat_ns,
        phat_ew, muck_ns, muck_ew, bonus_to, bonus, carry, score_ns,
        score_ew, game_over, winner, hand_0..3``.
        For Pinochle: ``deal, mode, dealer, declarer, bid, contract, trumps,
        meld_ns, meld_ew, counters_ns, counters_ew, saved_ns, saved_ew, made,
        score_ns, score_ew, auction, hand_0..3, kitty``; whole matches put
        ``match`` first (``deal`` is then the hand in its match) and add
        ``match_ns, match_ew, game_over, winner``.
        Every game ends with ``hf_*`` features of the declarer's dealt hand
        (see :mod:`trickgym.sim.features`).
    """
    if isinstance(game, RunSpec):
        _spec_alone(deals, agents, seed, keywords)
        spec = game
    else:
        spec = RunSpec.from_keywords(game, deals, agents, seed, **keywords)
    return _run(spec)


def _spec_alone(deals, agents, seed, keywords) -> None:
    """``simulate(spec)`` takes nothing else: every setting is the spec's."""
    others = {
        "deals": deals is not None,
        "agents": not (isinstance(agents, str) and agents == "random"),
        "seed": not (type(seed) is int and seed == 0),
    }
    given = [name for name, passed in others.items() if passed] + [f"{k}=" for k in keywords]
    if given:
        raise ValueError(
            f"simulate(spec) takes the RunSpec alone, got also {', '.join(given)}: set them in "
            "the spec (dataclasses.replace(spec, ...))"
        )


def _run(spec: RunSpec):
    """Play the run ``spec`` (checked when it was made): simulate's work."""
    plan, output, backend = spec.plan, spec.output, spec.backend
    progress = want_progress(output.progress)
    out, columns, on_chunk = output.out, output.columns, output.on_chunk
    # what _execute takes after the chunks' kind
    run = (
        backend.name, backend.scheduler, backend.threads, progress, output.on_warm_up,
        backend.no_workers_timeout,
    )  # fmt: skip
    if out is None:
        parts = {}  # by chunk index: Dask yields chunks as they finish
        chunks = _execute(plan, None, "rows", *run)
        try:
            for index, rows in chunks:
                parts[index] = (
                    rows if columns is None else _columns(rows_to_frame(plan, rows), columns)
                )
                if on_chunk is not None:
                    on_chunk(index, len(rows))
        except ClusterLostError as err:
            raise ClusterLostError(
                f"{err}. The {len(parts)} of {plan.n_chunks} chunks finished are lost with it "
                "(no out=): pass out= (CLI: --out) to keep each chunk as it finishes, then "
                "resume=True (--resume) completes an interrupted run"
            ) from err.__cause__
        ordered = [parts[i] for i in sorted(parts)]
        if columns is None:
            return rows_to_frame(plan, np.concatenate(ordered))
        return pd.concat(ordered, ignore_index=True)
    return _write_dataset(plan, output, run)


def _columns(frame: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    return frame[check_columns(columns, frame.columns)]


# Seconds numba may compile before the "compiling" notice is printed.
COMPILE_NOTICE_AFTER = NOTICE_AFTER


def _features(spec: RunPlan) -> tuple[str, ...]:
    """What a run compiles beyond its game's rules and agents (see ``compiling.announce``)."""
    features = []
    if spec.dealing == "match":
        features.append("match")
    if spec.items == "matches" and game_class(spec.game).run_unit != "matches":
        features.append("races")  # Pinochle's races to the target (Phat's unit anyway)
    if spec.dd:
        features.append("dd")
    return tuple(features)


def _warm_up(spec: RunPlan, progress: bool = True):
    """Compile (or load from numba's cache) the run's kernels before the progress bar starts.

    Returns what it did (:class:`trickgym.compiling.Compiled`: wall seconds,
    functions compiled), or ``None`` if the run has Python agents or nothing
    to play. The first run compiles for a minute or more; without this the
    bar sat at 0% with a ten-minute ETA. One item (a deal, a match) is played
    on a helper thread; with ``progress``, if numba is still compiling after
    ``COMPILE_NOTICE_AFTER`` seconds, a notice says so and a terminal shows
    the functions compiled so far (numba's own compile events; loading from
    the cache stays silent). Only for built-in agents (a Python agent's own
    state must not see an extra deal); the rows are discarded.
    """
    # lazy: read at each call, so that tests can stand in for run_chunk_rows
    from .plan import run_chunk_rows

    if not all(isinstance(a, str) and a in KINDS for a in spec.agents) or not spec.count:
        return None
    tiny = spec.smallest_part(spec.first)
    noticed = []

    def notice():
        noticed.append(True)
        announce(spec.game, spec.agents, _features(spec))

    # A compile the command line announced while importing the simulator: go on with it
    # (taken whatever ``progress``, so it cannot be left to a later run).
    ahead = take_over(spec.game)
    since, before = ahead if ahead is not None else (None, 0)
    _, compiled = run_compiling(
        lambda: run_chunk_rows(tiny, 0),
        f"compiling the {spec.game} kernels",
        progress,
        COMPILE_NOTICE_AFTER if ahead is None else 0.0,
        notice if ahead is None else None,
        since,
        before,
    )
    if progress and (noticed or ahead is not None):
        waited = compiled.seconds if since is None else time.perf_counter() - since
        print(
            f"trickgym: kernels ready after {waited:.0f} s "
            f"({before + compiled.count} functions compiled)",
            file=sys.stderr,
            flush=True,
        )
    return compiled


def _execute(
    spec, indices, kind, backend, scheduler, threads, progress, on_warm_up=None,
    no_workers_timeout=None,
):  # fmt: skip
    """Yield ``(index, result)`` for the chunks ``indices`` (default all), with a progress bar.

    The kernels are warmed up first (see :func:`_warm_up`) with ``progress``
    or ``on_warm_up``, which is then called with what the warm-up did.
    ``no_workers_timeout`` (Dask; default ``NO_WORKERS_TIMEOUT``): see
    :func:`trickgym.sim.backends.run_dask`.
    """
    # lazy: read at each call, so that tests can stand in for run_local
    from .backends import run_dask, run_local

    if (progress or on_warm_up is not None) and indices != []:
        compiled = _warm_up(spec, progress)
        if compiled is not None and on_warm_up is not None:
            on_warm_up(compiled)
    if indices is None:
        indices = list(range(spec.n_chunks))
    total = sum(spec.chunk_range(i)[1] - spec.chunk_range(i)[0] for i in indices)
    unit = "deal" if spec.items == "deals" else "match"
    with progress_bar(total=total, unit=unit, unit_scale=True, disable=not progress) as bar:
        if backend == "dask":
            grace = NO_WORKERS_TIMEOUT if no_workers_timeout is None else no_workers_timeout
            yield from run_dask(spec, indices, kind, threads, bar.update, scheduler, grace)
        else:
            yield from run_local(spec, indices, kind, threads, bar.update)


def _write_dataset(spec: RunPlan, output: Output, run: tuple) -> SimulationRun:
    """Run the missing chunks of ``spec`` into the dataset folder ``output.out``.

    ``run``: the backend settings :func:`_execute` takes after the chunks' kind.
    """
    # lazy: pyarrow is slow to import
    import pyarrow.parquet as pq

    out, on_chunk = output.out, output.on_chunk
    start = time.perf_counter()
    # holds the folder's lock to the end
    with Dataset(out, spec, output.resume, output.rebuild) as dataset:
        todo = dataset.missing()
        rows = 0
        chunks = _execute(spec, todo, "parquet", *run)
        written = 0
        try:
            for index, parquet in chunks:
                steps = None
                if spec.trajectories:
                    parquet, steps = parquet
                dataset.write(index, parquet, steps)
                written += 1
                n = pq.ParquetFile(_buffer(parquet)).metadata.num_rows
                rows += n
                if on_chunk is not None:
                    on_chunk(index, n)
        except ClusterLostError as err:
            kept = spec.n_chunks - len(todo) + written
            raise ClusterLostError(
                f"{err}. {kept} of {spec.n_chunks} chunks are kept in {str(out)!r}: finish the "
                "run with resume=True (CLI: --resume) and the same settings, locally or on Dask"
            ) from err.__cause__
    return SimulationRun(
        path=str(out),
        spec=spec,
        chunks_run=len(todo),
        chunks_skipped=spec.n_chunks - len(todo),
        rows=rows,
        seconds=time.perf_counter() - start,
    )


def _buffer(data: bytes):
    """``data`` as a pyarrow buffer reader (to read a Parquet footer from memory)."""
    # lazy: pyarrow is slow to import
    import pyarrow as pa

    return pa.BufferReader(data)
