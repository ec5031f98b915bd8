"""The Python-side simulation loop, for agents that are Python objects.

Built-in agents mixed in still run their compiled kernel; every deal is the
same as in the compiled loop (same seeds), only slower.
"""

from __future__ import annotations

import numpy as np

from trickgym.agents import python_action, resolve_kind, start_deal
from trickgym.agents.loops import oracle_flag, play_until
from trickgym.api import State
from trickgym.rng import derive_seed, seed_agents

from .solowhist import MAX_PASSED_OUT

__all__ = ["simulate_python", "simulate_python_matches", "simulate_python_whole_matches"]


def _start(game, seed, index, num_deals, agent_rngs, agents) -> State:
    """A fresh match seeded like the compiled loop's item ``index``."""
    array = game.new_match(np.uint64(derive_seed(seed, index, 0)), num_deals)
    seed_agents(agent_rngs[: game.n_seats], seed, index)
    start_deal(agents, seed, index)
    return State(game, array)


def _play_out(state: State, spec, agents, kinds, agent_rngs, params) -> None:
    """Play the current deal to its end; Python agents see only their observation."""
    k = state.game.kernels
    while True:
        p = play_until(state.array, 0, kinds, agent_rngs, params, oracle_flag(kinds))
        if p < 0:
            return
        action = python_action(agents[p], state.game, state.array, 0, p)
        k.apply_action_at(state.array, 0, action)


def _kinds(agents) -> np.ndarray:
    return np.array([resolve_kind(a) if isinstance(a, str) else -1 for a in agents], np.int64)


def _agent_rngs(game) -> np.ndarray:
    return np.zeros((max(game.n_seats, 8), 1), dtype=np.uint64)


def _default_params(game, params):
    from trickgym.agents.rule import params_matrix

    return params_matrix(game.name, game.n_seats) if params is None else params


def simulate_python(game, spec, seed, first, deals, agents, progress=False, params=None):
    """Rows (``spec.row_dtype``) of independent deals ``first..first+deals-1``."""
    rows = np.zeros(deals, dtype=spec.row_dtype)
    agent_rngs = _agent_rngs(game)
    kinds = _kinds(agents)
    params = _default_params(game, params)
    with _ticker(progress, deals, "deal") as tick:
        for i in range(deals):
            state = _start(game, seed, first + i, 1, agent_rngs, agents)
            _play_out(state, spec, agents, kinds, agent_rngs, params)
            spec.write_row(rows[i], state.record, first + i)
            tick(1)
    return rows


def simulate_python_matches(
    game, spec, seed, first_match, matches, agents, progress=False, params=None
):
    """Rows of the scored deals of matches ``first_match..``, as the compiled loop."""
    num_deals = game.options.num_deals
    rows = np.zeros(matches * num_deals, dtype=spec.row_dtype)
    rows["deal"] = -1
    agent_rngs = _agent_rngs(game)
    kinds = _kinds(agents)
    params = _default_params(game, params)
    with _ticker(progress, matches * num_deals, "deal") as tick:
        for m in range(matches):
            _python_match(
                game, spec, seed, first_match, m, num_deals, agents, kinds, params, agent_rngs, rows
            )
            tick(num_deals)
    return rows


def _python_match(
    game, spec, seed, first_match, m, num_deals, agents, kinds, params, agent_rngs, rows
):
    """Play match ``first_match + m`` of Solo Whist into its ``num_deals`` rows."""
    state = _start(game, seed, first_match + m, num_deals, agent_rngs, agents)
    passed_out = 0
    while True:
        _play_out(state, spec, agents, kinds, agent_rngs, params)
        record = state.record
        if record["contract"] == 0:
            passed_out += 1
            if passed_out >= MAX_PASSED_OUT:
                break
        else:
            k = m * num_deals + int(record["deals_played"]) - 1
            spec.write_row(rows[k], record, first_match * num_deals + k)
            rows[k]["match"] = first_match + m
            rows[k]["deal_in_match"] = int(record["deals_played"]) - 1
            rows[k]["passed_out_before"] = passed_out
            passed_out = 0
        if state.match_over:
            break
        state.next_deal()


def simulate_python_whole_matches(
    game, spec, seed, first_match, matches, agents, progress=False, params=None
):
    """Rows of every deal of matches ``first_match..`` (Phat, Pinochle), as the compiled loop.

    Returns only the deals played, in match order (no unused slots).
    """
    rows = []
    agent_rngs = _agent_rngs(game)
    kinds = _kinds(agents)
    params = _default_params(game, params)
    with _ticker(progress, matches, "match") as tick:
        for m in range(matches):
            match = first_match + m
            state = _start(game, seed, match, None, agent_rngs, agents)
            k = 0
            while True:
                _play_out(state, spec, agents, kinds, agent_rngs, params)
                row = np.zeros(1, dtype=spec.row_dtype)
                spec.write_match_row(row[0], state.record, match, k)
                rows.append(row)
                k += 1
                if state.match_over:
                    break
                state.next_deal()
            tick(1)
    return np.concatenate(rows) if rows else np.zeros(0, dtype=spec.row_dtype)


class _ticker:
    """``progress`` as a context giving ``tick(n)``: a callable is called, ``True`` shows tqdm."""

    def __init__(self, progress, total: int, unit: str):
        self.progress, self.total, self.unit, self.bar = progress, total, unit, None

    def __enter__(self):
        if callable(self.progress):
            return self.progress
        if not self.progress:
            return lambda n: None
        from ..progress import progress_bar

        self.bar = progress_bar(total=self.total, unit=self.unit)
        return self.bar.update

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.close()
