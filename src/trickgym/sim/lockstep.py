"""Deals played in lockstep: many at once, Python agents deciding a round of them per call.

A run with Python agents keeps ``slots`` deals (or matches) in one array of
states. Each round, one compiled call lets the built-in agents of every
slot play until a Python agent's seat must act or the deal ends; then each
Python agent decides all the slots where its seat is to move: with one
call (``act_rows``, :mod:`trickgym.agents.rows`) if it decides batches,
else one decision at a time. Finished deals write their rows and their
slots take the next deals of the run.

Each deal is seeded by its index alone and a batched agent's state per
deal is one generator word held here per slot and seat, so the rows are
the same for any number of slots. An agent that cannot decide batches
keeps its own state from deal to deal, so runs with one play one slot,
deal after deal, as they always did.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym import protocol
from trickgym.agents import AGENT_SEED_STREAM, python_action, start_deal
from trickgym.agents.rows import apply_rows, batched, stream_seeds
from trickgym.engine.loops import act, oracle_flag, play_until
from trickgym.rng import derive_seed, seed_agents

from .solowhist import MAX_PASSED_OUT

__all__ = ["DEFAULT_SLOTS", "play_lockstep", "slot_filler"]

# Deals in play at once when every Python agent decides batches: enough that a
# round's calls cost little beside its decisions, few enough that a run's first
# rows come soon and the states stay in cache (a Troggu state is ~1 KB).
DEFAULT_SLOTS = 2048


# Here rather than in recording.py: that module reaches the run planner, and no kernel
# module may (tests/test_kernel_cache.py), or editing it would recompile the kernels.
@njit(cache=True)
def builtin_actions(states, slots, seats, kinds, agent_rngs, params, oracle, out):
    """``out[j]``: built-in agent ``kinds[seats[j]]``'s action in ``states[slots[j]]``.

    Draws from the generators the compiled loops use (``agent_rngs[slot, seat]``),
    so each deal plays as it does there.
    """
    obs = protocol.new_obs(states[slots[0]])
    for j in range(slots.shape[0]):
        i = slots[j]
        p = seats[j]
        out[j] = act(kinds[p], states[i], p, agent_rngs[i, p], obs, params, oracle)


@njit(cache=True)
def _advance(states, slots, kinds, agent_rngs, params, oracle, to_move):
    """``to_move[j]``: the Python seat to act in ``states[slots[j]]`` once the built-in
    agents have played on, or -1 when its deal is over."""
    for j in range(slots.shape[0]):
        i = slots[j]
        to_move[j] = play_until(states, i, kinds, agent_rngs[i], params, oracle)


@njit(cache=True)
def _start_deals(states, slots, items, seed, opts):
    """Slot ``slots[j]`` deals deal ``items[j]`` of ``seed`` (a one-deal match, as the
    compiled loop deals it)."""
    for j in range(slots.shape[0]):
        protocol.start_deal(states[slots[j]], derive_seed(seed, items[j], 0), opts)


@njit(cache=True)
def _seed_slots(agent_rngs, slots, items, seed, n_seats):
    """The built-in agents' generators of item ``items[j]`` in slot ``slots[j]``."""
    for j in range(slots.shape[0]):
        seed_agents(agent_rngs[slots[j], :n_seats], seed, items[j])


@njit(cache=True)
def _write_deals(rows, at, states, slots, items):
    """Row ``at[j]``: the finished deal ``items[j]`` of slot ``slots[j]``."""
    for j in range(slots.shape[0]):
        protocol.write_row(rows[at[j]], states[slots[j]], items[j])


def play_lockstep(game, spec, seed, items, agents, kinds, params, unit, tick, slots=None):
    """Play ``items`` (deal or match indices) and return the run's rows.

    ``unit``: ``"deal"`` (independent deals), ``"match"`` (Solo Whist's BGA
    dealing: ``num_deals`` rows per match) or ``"whole"`` (every deal of a
    race to the target). ``kinds``: built-in kind per seat, -1 for a Python
    agent; ``tick(n)`` as deals (whole matches: matches) finish. ``slots``:
    deals in play at once (default :data:`DEFAULT_SLOTS` if every Python
    agent decides batches; always 1 if one does not).
    """
    items = np.asarray(items, dtype=np.int64)
    run = _Lockstep(game, seed, agents, kinds, params)
    if slots is None or not run.all_batched:
        slots = DEFAULT_SLOTS if run.all_batched else 1
    book = _BOOKS[unit](game, spec, items)
    run.allocate(max(1, min(slots, len(items))))
    owner = np.full(run.n, -1, dtype=np.int64)  # the item (position in items) each slot plays
    fill = slot_filler(book, run, items, owner)
    fill(np.arange(run.n))
    while (owner >= 0).any():
        live = np.flatnonzero(owner >= 0)
        to_move = run.advance(live)
        over = live[to_move < 0]
        if len(over):
            done = book.deals_over(run.states, over, owner[over])
            for s in over[~done]:
                game.kernels.next_deal_at(run.states, s)
            if done.any():
                tick(book.ticks * int(done.sum()))
                fill(over[done])
        waiting = to_move >= 0
        run.decide(live[waiting], to_move[waiting])
    return book.rows()


def slot_filler(book, run, items, owner):
    """``fill(free)``: give the ``free`` slots the next items in order and start their deals.

    ``owner[s]`` becomes the item (its position in ``items``) slot ``s``
    plays, -1 once every item is handed out; ``fill`` returns the slots it
    started.
    """
    queue = iter(range(len(items)))

    def fill(free: np.ndarray) -> np.ndarray:
        taken = np.array([next(queue, -1) for _ in free], dtype=np.int64)
        owner[free] = taken
        free, taken = free[taken >= 0], taken[taken >= 0]
        if len(free):
            book.start(run, free, items[taken])
        return free

    return fill


class _Lockstep:
    """The slots' states and generators, and the agents that play them."""

    def __init__(self, game, seed, agents, kinds, params):
        self.game, self.seed, self.agents, self.kinds, self.params = (
            game, np.uint64(seed), agents, kinds, params,
        )  # fmt: skip
        self.oracle = oracle_flag(kinds)
        self.python = {
            p: a for p, a in enumerate(agents) if not isinstance(a, str | int | np.integer)
        }
        self.batched = {p for p, a in self.python.items() if batched(a)}
        self.all_batched = len(self.batched) == len(self.python)
        # seats whose batched agent is one object are decided together, under the first
        first = {}
        self.group = np.array(
            [first.setdefault(id(a), p) if p in self.batched else p for p, a in enumerate(agents)],
            dtype=np.int64,
        )
        # the others keep their own state from deal to deal (only ever one slot of them)
        self.own = [
            a if p in self.python and p not in self.batched else None for p, a in enumerate(agents)
        ]

    def allocate(self, n: int) -> None:
        """Room for ``n`` slots."""
        game = self.game
        self.n = n
        self.states = np.zeros(n, dtype=game.state_dtype)
        self.agent_rngs = np.zeros((n, max(game.n_seats, 8), 1), dtype=np.uint64)
        self.batch_rngs = np.zeros((n, game.n_seats, 1), dtype=np.uint64)

    def seed_agents(self, slots: np.ndarray, items: np.ndarray) -> None:
        """Every agent's generators for items ``items`` in slots ``slots``."""
        _seed_slots(self.agent_rngs, slots, items, self.seed, self.game.n_seats)
        run_seeds = np.full(len(items), self.seed, dtype=np.uint64)
        for p in sorted(self.batched):
            seeds = stream_seeds(run_seeds, items, AGENT_SEED_STREAM + p)
            self.batch_rngs[slots, p, 0] = self.python[p].deal_rng(seeds, p)
        if any(a is not None for a in self.own):
            for index in items:
                start_deal(self.own, int(self.seed), int(index))

    def advance(self, live: np.ndarray) -> np.ndarray:
        """Built-in agents play on in slots ``live``; the seat to act in each, -1 if over."""
        to_move = np.empty(len(live), dtype=np.int64)
        _advance(self.states, live, self.kinds, self.agent_rngs, self.params, self.oracle, to_move)
        return to_move

    def decide(self, slots: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """The Python agents act in ``slots`` (seat ``seats[j]`` in slot ``slots[j]``).

        A batched agent seated more than once decides all its seats in one call.
        Returns the actions played (``int64``, one per slot, in the order given).
        """
        k = self.game.kernels
        owner = self.group[seats]
        played = np.empty(len(slots), dtype=np.int64)
        for g in np.unique(owner):
            which = owner == g
            at, who = slots[which], seats[which]
            agent = self.agents[int(g)]
            if int(g) not in self.batched:
                chosen = []
                for s, p in zip(at, who, strict=True):
                    action = python_action(agent, self.game, self.states, s, int(p))
                    k.apply_action_at(self.states, s, action)
                    chosen.append(action)
                played[which] = chosen
                continue
            actions = np.asarray(agent.act_rows(self.states, at, who, self.batch_rngs), np.int64)
            played[which] = actions
            bad = apply_rows(self.states, at, actions)
            if bad >= 0:
                cards, calls = k.legal_sets_at(self.states, at[bad])
                legal = np.flatnonzero(self.game.action_mask(cards, calls)).tolist()
                raise ValueError(
                    f"agent {agent!r} at seat {who[bad]} chose illegal action "
                    f"{int(actions[bad])}; legal: {legal}"
                )
        return played


class _Deals:
    """Independent deals: one row each."""

    ticks = 1

    def __init__(self, game, spec, items):
        self.items = items
        self.opts = spec.deal_options(game)
        self._rows = np.zeros(len(items), dtype=spec.row_dtype)
        self.first = int(items[0]) if len(items) else 0

    def start(self, run: _Lockstep, slots: np.ndarray, items: np.ndarray) -> None:
        _start_deals(run.states, slots, items, run.seed, self.opts)
        run.seed_agents(slots, items)

    def deals_over(self, states, slots: np.ndarray, owners: np.ndarray) -> np.ndarray:
        _write_deals(self._rows, owners, states, slots, self.items[owners])
        return np.ones(len(slots), dtype=bool)

    def rows(self) -> np.ndarray:
        return self._rows


class _MatchBook:
    """Items that are matches: started from ``new_match``, their deals handled one by one."""

    num_deals: int | None = None

    def __init__(self, game, spec, items):
        self.game, self.spec, self.items = game, spec, items

    def start(self, run: _Lockstep, slots: np.ndarray, items: np.ndarray) -> None:
        for s, index in zip(slots, items, strict=True):
            deal = np.uint64(derive_seed(run.seed, index, 0))
            run.states[s] = self.game.new_match(deal, self.num_deals)[0]
        run.seed_agents(slots, items)

    def deals_over(self, states, slots: np.ndarray, owners: np.ndarray) -> np.ndarray:
        return np.array(
            [self.deal_over(int(m), states, int(s)) for s, m in zip(slots, owners, strict=True)],
            dtype=bool,
        )

    def match_over(self, states, s: int) -> bool:
        return bool(self.game.kernels.status_at(states, s)[1])


class _Matches(_MatchBook):
    """Solo Whist's BGA dealing: ``num_deals`` scored deals per match, passed-out ones counted."""

    def __init__(self, game, spec, items):
        super().__init__(game, spec, items)
        self.num_deals = self.ticks = game.options.num_deals
        self._rows = np.zeros(len(items) * self.num_deals, dtype=spec.row_dtype)
        self._rows["deal"] = -1
        self.passed_out = np.zeros(len(items), dtype=np.int64)
        self.first = int(items[0]) if len(items) else 0

    def deal_over(self, m: int, states, s: int) -> bool:
        state = states[s]
        if state["contract"] == 0:
            self.passed_out[m] += 1
            if self.passed_out[m] >= MAX_PASSED_OUT:
                return True  # abandoned: its rows keep deal -1
        else:
            k = m * self.num_deals + int(state["deals_played"]) - 1
            self.spec.write_row(self._rows[k], state, self.first * self.num_deals + k)
            self._rows[k]["match"] = int(self.items[m])
            self._rows[k]["deal_in_match"] = int(state["deals_played"]) - 1
            self._rows[k]["passed_out_before"] = self.passed_out[m]
            self.passed_out[m] = 0
        return self.match_over(states, s)

    def rows(self) -> np.ndarray:
        return self._rows


class _WholeMatches(_MatchBook):
    """Races to a target (Phat, Pinochle): a row per deal, until the match is over."""

    ticks = 1

    def __init__(self, game, spec, items):
        super().__init__(game, spec, items)
        self._rows = np.zeros(max(16, 4 * len(items)), dtype=spec.row_dtype)
        self._match = np.zeros(len(self._rows), dtype=np.int64)  # each row's match position
        self._played = np.zeros(len(items), dtype=np.int64)  # deals played per match
        self._n = 0

    def deal_over(self, m: int, states, s: int) -> bool:
        if self._n == len(self._rows):  # room for more: doubled, rows kept
            self._rows = np.concatenate([self._rows, np.zeros_like(self._rows)])
            self._match = np.concatenate([self._match, np.zeros_like(self._match)])
        self.spec.write_match_row(
            self._rows[self._n], states[s], int(self.items[m]), int(self._played[m])
        )
        self._match[self._n] = m
        self._played[m] += 1
        self._n += 1
        return self.match_over(states, s)

    def rows(self) -> np.ndarray:
        # in match order, each match's deals in the order played
        order = np.argsort(self._match[: self._n], kind="stable")
        return self._rows[: self._n][order]


_BOOKS = {"deal": _Deals, "match": _Matches, "whole": _WholeMatches}
