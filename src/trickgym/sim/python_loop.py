"""The Python-side simulation loop, for agents that are Python objects.

Built-in agents mixed in still run their compiled kernel; every deal is the
same as in the compiled loop (same seeds), only slower. The deals are
played in lockstep (:mod:`.lockstep`): many at once when every Python agent
decides batches, else one after the other.
"""

from __future__ import annotations

import numpy as np

from trickgym.agents import resolve_kind
from trickgym.engine.params import params_matrix

from ..progress import progress_bar
from .lockstep import play_lockstep

__all__ = ["simulate_python", "simulate_python_matches", "simulate_python_whole_matches"]


def _kinds(agents) -> np.ndarray:
    return np.array([resolve_kind(a) if isinstance(a, str) else -1 for a in agents], np.int64)


def _default_params(game, params):
    return params_matrix(game.name, game.n_seats) if params is None else params


def _play(game, spec, seed, items, agents, params, unit, progress, total, tick_unit, slots):
    with _ticker(progress, total, tick_unit) as tick:
        return play_lockstep(
            game, spec, seed, items, agents, _kinds(agents), _default_params(game, params),
            unit, tick, slots,
        )  # fmt: skip


def simulate_python(
    game, spec, seed, first, deals, agents, progress=False, params=None, slots=None
):
    """Rows (``spec.row_dtype``) of independent deals ``first..first+deals-1``."""
    items = np.arange(first, first + deals, dtype=np.int64)
    return _play(game, spec, seed, items, agents, params, "deal", progress, deals, "deal", slots)


def simulate_python_matches(
    game, spec, seed, first_match, matches, agents, progress=False, params=None, slots=None
):
    """Rows of the scored deals of matches ``first_match..``, as the compiled loop."""
    items = np.arange(first_match, first_match + matches, dtype=np.int64)
    total = matches * game.options.num_deals
    return _play(game, spec, seed, items, agents, params, "match", progress, total, "deal", slots)


def simulate_python_whole_matches(
    game, spec, seed, first_match, matches, agents, progress=False, params=None, slots=None
):
    """Rows of every deal of matches ``first_match..`` (Phat, Pinochle), as the compiled loop.

    Returns only the deals played, in match order (no unused slots).
    """
    items = np.arange(first_match, first_match + matches, dtype=np.int64)
    return _play(
        game, spec, seed, items, agents, params, "whole", progress, matches, "match", slots
    )


class _ticker:
    """``progress`` as a context giving ``tick(n)``: a callable is called, ``True`` shows tqdm."""

    def __init__(self, progress, total: int, unit: str):
        self.progress, self.total, self.unit, self.bar = progress, total, unit, None

    def __enter__(self):
        if callable(self.progress):
            return self.progress
        if not self.progress:
            return lambda n: None

        self.bar = progress_bar(total=self.total, unit=self.unit)
        return self.bar.update

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.close()
