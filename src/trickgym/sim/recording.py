"""Every decision of a run's deals, recorded as they are played: a chunk's trajectories.

A run with ``trajectories=True`` plays each chunk through the lockstep loop
(:mod:`.lockstep`) with every seat stopping at each of its decisions:
built-in agents decide through :func:`trickgym.engine.loops.act` with the
generators the compiled loops give them, Python agents as the lockstep
loop calls them, so the deals, and the per-deal rows, are those of the
same run without trajectories. Before each decision the seat's
observation features (:mod:`trickgym.games.obs_features`) and the legal
mask are taken; once the deal is over every decision gets the deal's
payoff for its seat.

One row per decision (a "step"); the columns are :data:`STEP_COLUMNS`
(see :func:`steps_table`). Deals are keyed as in the per-deal table:
``deal`` for runs of deals, ``match`` and ``deal_in_match`` (the deal's
position among its match's deals, in play order) for whole matches.
"""

from __future__ import annotations

import numpy as np

from trickgym.agents import resolve_kind
from trickgym.agents.rows import apply_rows, record_features, seen_rows
from trickgym.engine.loops import oracle_flag
from trickgym.games.obs_features import feature_plan

from ..forksafe import check_fork_safe
from .lockstep import _BOOKS, DEFAULT_SLOTS, _advance, _Lockstep, builtin_actions, slot_filler
from .plan import _KERNEL_LOCK, players
from .run_metadata import STAMP_KEY
from .specs import SPECS

__all__ = ["STEP_COLUMNS", "record_part", "run_chunk_steps", "steps_table"]

#: The columns of a steps table after the deal's key (``deal``, or ``match``
#: and ``deal_in_match``), in order.
STEP_COLUMNS = ("step", "seat", "phase", "action", "payoff", "features", "mask")


def record_part(game, sim, seed, items, agents, kinds, params, unit, tick, plan):
    """``(rows, steps)`` of ``items`` (deal or match indices) played with every decision taken.

    ``rows`` are the per-deal rows the lockstep loop gives; ``steps`` a dict
    of numpy columns (see the module's notes), ordered by deal, then by
    decision. ``kinds`` holds the built-in kind per seat, ``-1`` for a
    Python agent; ``plan`` is the game's :func:`~trickgym.games.obs_features.feature_plan`.
    """
    items = np.asarray(items, dtype=np.int64)
    kinds = np.asarray(kinds, dtype=np.int64)
    run = _Lockstep(game, seed, agents, kinds, params)
    slots = DEFAULT_SLOTS if run.all_batched else 1
    book = _BOOKS[unit](game, sim, items)
    run.allocate(max(1, min(slots, len(items))))
    n_seats = game.n_seats
    stop_everywhere = np.full(n_seats, -1, dtype=np.int64)  # every seat's turn comes back here
    builtin = kinds >= 0
    oracle = oracle_flag(kinds)
    owner = np.full(run.n, -1, dtype=np.int64)  # the item (position in items) each slot plays
    serial = np.full(run.n, -1, dtype=np.int64)  # the deal each slot plays, numbered as begun
    step = np.zeros(run.n, dtype=np.int64)
    deal_item, deal_hand = [], []  # per deal serial: its item position, its place in the item
    hands = np.zeros(len(items), dtype=np.int64)
    payoffs = {}
    parts = []
    start = slot_filler(book, run, items, owner)

    def begin(free: np.ndarray) -> None:
        for s in free:
            m = int(owner[s])
            serial[s] = len(deal_item)
            deal_item.append(m)
            deal_hand.append(int(hands[m]))
            hands[m] += 1
        step[free] = 0

    def fill(free: np.ndarray) -> None:
        begin(start(free))

    fill(np.arange(run.n))
    while (owner >= 0).any():
        live = np.flatnonzero(owner >= 0)
        to_move = np.empty(len(live), dtype=np.int64)
        _advance(run.states, live, stop_everywhere, run.agent_rngs, run.params, None, to_move)
        over = live[to_move < 0]
        if len(over):
            for s in over:
                payoffs[int(serial[s])] = run.states["payoffs"][s][:n_seats].astype(np.float32)
            done = book.deals_over(run.states, over, owner[over])
            for s in over[~done]:
                game.kernels.next_deal_at(run.states, s)
                begin(np.array([s]))
            if done.any():
                tick(book.ticks * int(done.sum()))
                fill(over[done])
        waiting = to_move >= 0
        at, who = live[waiting], to_move[waiting]
        if not len(at):
            continue
        records, masks = seen_rows(game, run.states, at, who)
        features = record_features(game, plan, records)
        phase = run.states["phase"][at].astype(np.int8)
        actions = np.empty(len(at), dtype=np.int64)
        mine = builtin[who]
        if mine.any():
            chosen = np.empty(int(mine.sum()), dtype=np.int64)
            builtin_actions(
                run.states, at[mine], who[mine], kinds, run.agent_rngs, run.params, oracle, chosen
            )
            if apply_rows(run.states, at[mine], chosen) >= 0:  # never: built-in agents play legally
                raise RuntimeError("a built-in agent chose an illegal action")
            actions[mine] = chosen
        if (~mine).any():
            actions[~mine] = run.decide(at[~mine], who[~mine])
        parts.append((serial[at].copy(), step[at].copy(), who, phase, actions, features, masks))
        step[at] += 1
    return book.rows(), _steps(parts, items, unit, deal_item, deal_hand, payoffs, game, plan)


def _steps(parts, items, unit, deal_item, deal_hand, payoffs, game, plan) -> dict:
    """The recorded decisions as columns, ordered by item, deal in item, then decision."""
    if parts:
        serial, step, seat, phase, action, features, mask = (
            np.concatenate(c) for c in zip(*parts, strict=True)
        )
    else:
        serial = step = seat = action = np.zeros(0, dtype=np.int64)
        phase = np.zeros(0, dtype=np.int8)
        features = np.zeros((0, plan.size), dtype=np.float32)
        mask = np.zeros((0, game.n_actions), dtype=bool)
    item = np.asarray(deal_item, dtype=np.int64)[serial]
    hand = np.asarray(deal_hand, dtype=np.int64)[serial]
    order = np.lexsort((step, hand, item))
    table = np.stack([payoffs[s] for s in range(len(deal_item))]) if deal_item else None
    payoff = (table[serial, seat] if table is not None else np.zeros(0, np.float32)).astype(
        np.float32
    )
    if unit == "whole":
        key = {"match": items[item], "deal_in_match": hand.astype(np.int32)}
    else:
        key = {"deal": items[item]}
    columns = {
        **key,
        "step": step.astype(np.int32),
        "seat": seat.astype(np.int8),
        "phase": phase,
        "action": action.astype(np.int16),
        "payoff": payoff,
        "features": features,
        "mask": mask,
    }
    return {name: values[order] for name, values in columns.items()}


def run_chunk_steps(spec, index: int, tick=None):
    """``(rows, steps)`` of chunk ``index`` of ``spec``: its per-deal rows and its decisions.

    The rows are those :func:`trickgym.sim.plan.run_chunk_rows` gives (with
    the double-dummy columns of a ``dd`` run); ``steps`` is a dict of numpy
    columns (see :func:`record_part`).
    """
    if not 0 <= index < spec.n_chunks:
        raise ValueError(f"chunk index must be 0..{spec.n_chunks - 1}, got {index!r}")
    start, stop = spec.chunk_range(index)
    sim = SPECS[spec.game]
    who = players(spec)
    kinds = who.kinds if who.kinds is not None else _kinds(who.agents)
    unit = "whole" if spec.items == "matches" else "deal"
    items = np.arange(start, stop, dtype=np.int64)
    rows, steps = record_part(
        who.game, sim, who.seed, items, who.agents, kinds, who.params, unit,
        tick or (lambda n: None), feature_plan(who.game),
    )  # fmt: skip
    if spec.dd:
        check_fork_safe()
        with _KERNEL_LOCK:
            rows = sim.add_dd(rows, spec.dd_max_nodes, who.game)
    return rows, steps


def _kinds(agents) -> np.ndarray:
    return np.array([resolve_kind(a) if isinstance(a, str) else -1 for a in agents], np.int64)


def steps_table(steps: dict, settings_stamp: bytes | None = None):
    """The steps of a chunk as a pyarrow Table (``features`` and ``mask``: fixed-size lists).

    ``features`` is ``fixed_size_list<float32>[n_features]`` and ``mask``
    ``fixed_size_list<bool>[n_actions]``, so a column reads back as one
    contiguous numpy block (:mod:`trickgym.sim.trajectories`).
    """
    # lazy: pyarrow is slow to import
    import pyarrow as pa

    arrays, names = [], []
    for name, values in steps.items():
        if values.ndim == 2:
            flat = pa.array(np.ascontiguousarray(values).reshape(-1))
            arrays.append(pa.FixedSizeListArray.from_arrays(flat, values.shape[1]))
        else:
            arrays.append(pa.array(values))
        names.append(name)
    table = pa.Table.from_arrays(arrays, names=names)
    if settings_stamp is not None:
        table = table.replace_schema_metadata({STAMP_KEY: settings_stamp})
    return table
