"""Reading a dataset's trajectories: every decision, as numpy batches for offline learning.

A run with ``simulate(..., out=DIR, trajectories=True)`` (CLI: ``trickgym
simulate --out DIR --trajectories``) writes, beside each chunk of per-deal
rows, a steps file of one row per decision (:mod:`trickgym.sim.recording`).
:func:`iter_batches` reads them chunk by chunk, each file verified as
:func:`trickgym.sim.read_dataset` verifies a chunk (its recorded SHA-256
and row count, its settings stamp, the deal ids it holds), and yields
dicts of numpy arrays (whole numbers as int64, ready to index with; the
files store them narrower):

``deal`` (whole matches: ``match`` and ``deal_in_match``)
    The deal, keyed as in the per-deal table.
``step``
    The decision's index in its deal, from 0.
``seat``, ``phase``, ``action``
    The seat that acted, the phase it acted in (``game.phase_names``) and
    the action id it took.
``payoff`` (float32)
    The deal's final payoff for that seat.
``features`` (float32[b, n_features])
    That seat's observation features before acting
    (:mod:`trickgym.games.obs_features`, the envs' ``obs_mode="features"``).
``mask`` (bool[b, n_actions])
    The legal actions then.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from trickgym.agents.rows import record_features

from ..checks import check_flag, check_int, check_path, check_seed
from ..games import game as make_game
from ..games.obs_features import feature_plan
from ..rng import derive_seed, seed_rng
from .dataset import (
    _check_chunk_list,
    _checked_steps,
    _chunk_files,
    _layout,
    check_columns,
    read_dataset,
    read_metadata,
)
from .lockstep import _start_deals
from .plan import rows_to_frame, spec_from_metadata
from .run_metadata import ADDED_KEYS
from .specs import SPECS

__all__ = ["COLUMNS", "iter_batches", "read_steps", "steps_info"]

#: Every column of a steps file but the deal's key (``deal``, or ``match`` and ``deal_in_match``).
COLUMNS = ("step", "seat", "phase", "action", "payoff", "features", "mask")


def steps_info(path) -> dict:
    """What the trajectories of dataset ``path`` hold: ``game``, ``options``, ``agents``,
    ``seed``, ``items`` (``"deals"``/``"matches"``), ``n_chunks``, ``chunks`` (those
    written), ``decisions`` (recorded rows), ``key`` (the deal's key columns),
    ``n_features``, ``n_actions``.

    ``ValueError`` if the folder was not written with trajectories.
    """
    check_path("path", path)
    meta = _trajectory_metadata(path)
    layout = _layout(meta)
    files = _chunk_files(Path(path), layout)
    records = meta.get("chunks", {})

    g = make_game(meta["game"], **meta["options"])
    return {
        "game": meta["game"],
        "options": dict(meta["options"]),
        "agents": list(meta["agents"]),
        "seed": meta["seed"],
        "items": meta["items"],
        "n_chunks": layout.n_chunks,
        "chunks": sorted(i for i in files if str(i) in records),
        "decisions": sum(records[str(i)]["steps_rows"] for i in files if str(i) in records),
        "key": ["deal"] if meta["items"] == "deals" else ["match", "deal_in_match"],
        "n_features": feature_plan(g).size,
        "n_actions": g.n_actions,
    }


def _trajectory_metadata(path) -> dict:
    meta = read_metadata(path)
    if meta.get("trajectories") is not True:
        raise ValueError(
            f"dataset {str(path)!r} holds no trajectories (it was written without "
            "trajectories=True, --trajectories): run the simulation again with them"
        )
    return meta


def read_steps(path, columns=None, chunks=None) -> pa.Table:
    """The decisions of ``chunks`` (default: every chunk, which must all be written) as one
    pyarrow Table, each steps file verified; ``columns`` reads only those."""
    return pa.concat_tables(
        table for _, table in _chunk_tables(path, columns, chunks, shuffle_seed=None)
    )


def _chunk_tables(path, columns, chunks, shuffle_seed):
    """``(index, table)`` of each chunk's steps, verified, in order or shuffled by the seed."""
    check_path("path", path)
    meta = _trajectory_metadata(path)
    layout = _layout(meta)
    files = _chunk_files(Path(path), layout)
    n = layout.n_chunks
    if chunks is None:
        if len(files) < n:
            raise ValueError(
                f"dataset {str(path)!r} is unfinished: {n - len(files)} of {n} chunks missing "
                "(resume the run, or pass chunks= the ones written)"
            )
        chunks = sorted(files)
    else:
        chunks = _check_chunk_list(chunks, n)
        absent = [i for i in chunks if i not in files]
        if absent:
            raise ValueError(f"dataset {str(path)!r} has no chunk(s) {absent} yet")
    key = ["deal"] if meta["items"] == "deals" else ["match", "deal_in_match"]
    if columns is not None:
        columns = _check_names(columns, key)
    if shuffle_seed is not None:
        chunks = list(np.random.default_rng(shuffle_seed).permutation(chunks))
    for index in chunks:
        data = _checked_steps(path, layout, int(index), meta)
        yield int(index), pq.read_table(pa.BufferReader(data), columns=columns)


def _check_names(columns, key: list[str]) -> list[str]:
    return check_columns(columns, [*key, *COLUMNS])


def _numpy(column: pa.ChunkedArray) -> np.ndarray:
    """A column as numpy: a fixed-size list column as a 2-D block."""
    array = column.combine_chunks()
    if pa.types.is_fixed_size_list(array.type):
        width = array.type.list_size
        values = array.flatten()  # respects the array's offset
        flat = values.to_numpy(zero_copy_only=False)
        return flat.reshape(len(array), width)
    return array.to_numpy(zero_copy_only=False)


def _widened(values: np.ndarray) -> np.ndarray:
    """Whole numbers as int64 (an action id indexes a mask row without a cast)."""
    return values.astype(np.int64) if values.dtype.kind in "iu" else values


def iter_batches(
    path,
    batch_size: int = 4096,
    columns=None,
    seats=None,
    shuffle_seed: int | None = None,
    chunks=None,
    drop_last: bool = False,
):
    """Yield the decisions of dataset ``path`` as dicts of numpy arrays, ``batch_size`` rows each.

    Reads one chunk's steps file at a time (memory: a chunk and a batch),
    verified first (see the module's notes). ``columns``: the columns to
    give (default all: the deal's key and :data:`COLUMNS`); ``seats``: only
    the decisions of these seats; ``shuffle_seed``: chunks in a shuffled
    order and rows shuffled within each chunk (a seed gives the same
    batches every time; ``None``: the recorded order); ``chunks``: these
    chunk indices only; ``drop_last``: skip a last batch smaller than
    ``batch_size``. The last batch is otherwise what is left.
    """
    batch_size = check_int("batch_size", batch_size, 1, 1 << 24)
    if shuffle_seed is not None:
        shuffle_seed = check_seed(shuffle_seed, "shuffle_seed")
    drop_last = check_flag("drop_last", drop_last)
    wanted = None if columns is None else list(columns)
    read = wanted
    if seats is not None:
        seats = _check_seats(seats)
        if wanted is not None and "seat" not in wanted:
            read = [*wanted, "seat"]
    rng = None if shuffle_seed is None else np.random.default_rng(shuffle_seed)
    names = None
    pending = None  # rows read and not yet given, fewer than a batch between chunks
    for _, table in _chunk_tables(path, read, chunks, shuffle_seed):
        names = table.column_names if wanted is None else wanted
        arrays = {name: _widened(_numpy(table.column(name))) for name in table.column_names}
        del table  # the numpy views keep what they need
        if seats is None and rng is None:
            new = {name: arrays[name] for name in names}  # the recorded order: no copy
        else:
            order = np.arange(len(arrays[names[0]]))
            if seats is not None:
                order = np.flatnonzero(np.isin(arrays["seat"], seats))
            if rng is not None:
                order = rng.permutation(order)
            new = {name: arrays[name][order] for name in names}
        rows, start = len(new[names[0]]), 0
        if pending is not None:  # the batch left open by the last chunk is filled first
            start = min(batch_size - len(pending[names[0]]), rows)
            pending = {name: np.concatenate([pending[name], new[name][:start]]) for name in names}
            if len(pending[names[0]]) < batch_size:
                continue
            yield pending
        while rows - start >= batch_size:
            yield {name: values[start : start + batch_size] for name, values in new.items()}
            start += batch_size
        # A copy of the rest (under a batch), so that this chunk's arrays can go.
        pending = {name: values[start:].copy() for name, values in new.items()}
    if pending is not None and len(pending[names[0]]) and not drop_last:
        yield pending


def _check_seats(seats) -> np.ndarray:
    if isinstance(seats, int | np.integer) and not isinstance(seats, bool):
        seats = [seats]
    if isinstance(seats, str) or not hasattr(seats, "__iter__"):
        raise ValueError(f"seats must be a seat number or a list of them, got {seats!r}")
    seats = [check_int("each of seats (a seat number)", s, 0, 15) for s in seats]
    if not seats:
        raise ValueError("seats=[] selects no decision; give seat numbers, or None for all")
    return np.array(seats, dtype=np.int64)


def check_replay(path, chunks=None) -> dict:
    """Replay every recorded deal of ``chunks`` (default all) from its seed and its actions.

    Each deal (whole matches: each match) is dealt again from the run's
    seed and its recorded actions applied in order through the game's
    kernels; at every decision the seat to act, the phase, the legal mask
    and the observation features must be the recorded ones, and once the
    deal is over every decision's payoff must be the deal's payoff for its
    seat, and the deal's row (written from the replayed state) the one in
    the per-deal table. Independent of the agents: it checks that the
    actions reproduce the deals. ``ValueError`` naming the first
    difference; else ``{"chunks", "deals", "decisions"}`` counted.
    """
    check_path("path", path)
    replay = _Replay(path, _trajectory_metadata(path))
    totals = {"chunks": 0, "deals": 0, "decisions": 0}
    for index, table in _chunk_tables(path, None, chunks, shuffle_seed=None):
        deals = replay.chunk(index, table)
        totals["chunks"] += 1
        totals["deals"] += deals
        totals["decisions"] += table.num_rows
    return totals


class _Replay:
    """A dataset's recorded decisions replayed through its game's kernels, chunk by chunk."""

    def __init__(self, path, meta: dict):
        self.path, self.items = path, meta["items"]
        self.game = make_game(meta["game"], **meta["options"])
        self.sim = SPECS[meta["game"]]
        self.plan = feature_plan(self.game)
        self.seed = np.uint64(seed_rng(meta["seed"]))
        self.whole = meta["items"] == "matches"
        # The layout and the frame of the rows; the agents play no part in a replay.
        agents = ["random"] * self.game.n_seats
        self.spec = spec_from_metadata({**ADDED_KEYS, **meta, "agents": agents})

    def chunk(self, index: int, table: pa.Table) -> int:
        """Replay chunk ``index`` (its steps ``table``); the number of deals replayed."""
        g = self.game
        self.cols = {name: _numpy(table.column(name)) for name in table.column_names}
        self.ids = self.cols["match" if self.whole else "deal"]
        self.hand = self.cols["deal_in_match"] if self.whole else np.zeros(len(self.ids))
        self.records = np.zeros(table.num_rows, dtype=g.obs_dtype)
        self.states = np.zeros(1, dtype=g.state_dtype)
        self.j = 0
        frame = read_dataset(self.path, chunks=[index])
        rows = np.zeros(len(frame), dtype=self.sim.row_dtype)
        row = 0
        for item in range(*self.spec.chunk_range(index)):
            self._deal_item(item)
            played = 0
            while True:
                match_over = self._play(item, played)
                if row >= len(rows):
                    raise ValueError(f"chunk {index}: more deals replayed than its table holds")
                if self.whole:
                    self.sim.write_match_row(rows[row], self.states[0], item, played)
                else:
                    self.sim.write_row(rows[row], self.states[0], item)
                row, played = row + 1, played + 1
                if not self.whole or match_over:
                    break
                g.kernels.next_deal_at(self.states, 0)
        if self.j != len(self.ids) or row != len(rows):
            raise ValueError(f"chunk {index}: recorded decisions or rows left over after replay")
        if not np.array_equal(record_features(g, self.plan, self.records), self.cols["features"]):
            raise ValueError(f"chunk {index}: recorded features differ from the replayed seats'")
        replayed = rows_to_frame(self.spec, rows)
        if not replayed.equals(frame[replayed.columns]):
            raise ValueError(f"chunk {index}: replayed deals give other rows than the table's")
        return len(rows)

    def _deal_item(self, item: int) -> None:
        """Deal item ``item`` (a deal, or a match's first deal) as the run dealt it."""
        if self.whole:
            seed = np.uint64(derive_seed(self.seed, item, 0))
            self.states[0] = self.game.new_match(seed, None)[0]
        else:
            one = np.zeros(1, dtype=np.int64)
            _start_deals(self.states, one, one + item, self.seed, self.sim.deal_options(self.game))

    def _play(self, item: int, played: int) -> bool:
        """Apply the recorded decisions of the deal in play, checking each; whether the
        match is over after it."""
        g, k, cols, states = self.game, self.game.kernels, self.cols, self.states
        first = self.j
        while self.j < len(self.ids) and self.ids[self.j] == item and self.hand[self.j] == played:
            j = self.j
            over, _, to_move = k.status_at(states, 0)
            where = f"replaying {self.items[:-1]} {item}, decision {int(cols['step'][j])}"
            if over or int(to_move) != int(cols["seat"][j]):
                now = "the deal is over" if over else f"seat {int(to_move)} is to act"
                raise ValueError(f"{where}: seat {int(cols['seat'][j])} recorded, but {now}")
            if int(cols["step"][j]) != j - first:
                raise ValueError(f"{where}: decisions out of order")
            if int(states[0]["phase"]) != int(cols["phase"][j]):
                raise ValueError(f"{where}: another phase than recorded")
            if not np.array_equal(g.action_mask(*k.legal_sets_at(states, 0)), cols["mask"][j]):
                raise ValueError(f"{where}: another legal mask than recorded")
            k.observe_at(states, 0, int(to_move), self.records, j)
            action = int(cols["action"][j])
            if not cols["mask"][j][action]:
                raise ValueError(f"{where}: action {action} is not legal")
            k.apply_action_at(states, 0, action)
            self.j += 1
        over, match_over, _ = k.status_at(states, 0)
        if not over:
            raise ValueError(f"{self.items[:-1]} {item}: its decisions end mid-deal")
        payoffs = states[0]["payoffs"][: g.n_seats].astype(np.float32)
        seats = cols["seat"][first : self.j].astype(np.int64)
        if not np.array_equal(cols["payoff"][first : self.j], payoffs[seats]):
            raise ValueError(f"{self.items[:-1]} {item}: recorded payoffs differ from the deal's")
        return bool(match_over)
