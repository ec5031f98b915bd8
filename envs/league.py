"""Self-play against snapshots of a learner: a small league of batched policies.

A learner trained in the native vector env plays against earlier versions
of itself: ``League.add(weights)`` keeps a snapshot (a copy) from time to
time, and ``league.opponent`` is the batched policy to give the env as its
opponents (``opponents=league.opponent``). ``draw()`` picks which snapshot
plays for the next rounds: the newest with probability ``latest_share``,
else one of the older ones uniformly (a mix that keeps the learner from
forgetting how to beat its past selves).

The league holds no framework objects: ``act(weights, obs, action_mask) ->
actions`` is the user's forward pass (numpy, PyTorch without gradients, a
built-in agent's ``builtin_actions``...).
"""

from __future__ import annotations

import copy

import numpy as np

from trickgym.checks import check_int, check_real

from .inputs import check_seed

__all__ = ["League"]


class League:
    """Snapshots of a learner, played as a vector env's batched policy opponents.

    Parameters
    ----------
    act : callable
        ``act(weights, obs, action_mask) -> actions`` for a batch.
    max_snapshots : int
        Snapshots kept (the oldest is dropped beyond it).
    latest_share : float
        Probability that :meth:`draw` picks the newest snapshot.
    seed : int or None
        Seed of the draws.
    """

    def __init__(self, act, max_snapshots: int = 10, latest_share: float = 0.5, seed=None):
        if not callable(act):
            raise ValueError(f"act must be a callable act(weights, obs, mask), got {act!r}")
        self._act = act
        self.max_snapshots = check_int("max_snapshots", max_snapshots, 1)
        self.latest_share = check_real("latest_share", latest_share, 0)
        if self.latest_share > 1:
            raise ValueError(f"latest_share must be a probability in [0, 1], got {latest_share!r}")
        self._rng = np.random.default_rng(check_seed(seed))
        self.snapshots: list = []
        self.current = -1  # index of the snapshot that plays now

    def add(self, weights) -> None:
        """Keep a copy of ``weights`` (a deep copy: later training does not change it)."""
        self.snapshots.append(copy.deepcopy(weights))
        if len(self.snapshots) > self.max_snapshots:
            self.snapshots.pop(0)
        self.current = len(self.snapshots) - 1

    def draw(self) -> int:
        """Pick the snapshot that plays from now on; return its index."""
        if not self.snapshots:
            raise ValueError("the league has no snapshot yet: add() one first")
        newest = len(self.snapshots) - 1
        if newest == 0 or self._rng.random() < self.latest_share:
            self.current = newest
        else:
            self.current = int(self._rng.integers(0, newest))
        return self.current

    def opponent(self, obs, action_mask) -> np.ndarray:
        """The batched policy of the current snapshot: give ``league.opponent`` to the env."""
        if self.current < 0:
            raise ValueError("the league has no snapshot yet: add() one first")
        return self._act(self.snapshots[self.current], obs, action_mask)
