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

Ratings: ``record(rewards)`` takes the learner's rewards of finished
episodes (``rewards[terminated]`` of a vector-env step) and credits them to
the snapshot playing now: a positive reward is a win, zero a draw, a
negative one a loss. Each result updates the Elo ratings of the learner
(:attr:`League.learner_rating`) and of that snapshot
(:attr:`League.ratings`, one per snapshot) with factor ``k``, and the
snapshot's tally (:attr:`League.results`: the learner's wins, draws and
losses against it; :meth:`League.win_rate`). A new snapshot starts at the
learner's rating (it is a copy of the learner). The results of episodes
that began before a :meth:`draw` are credited to the snapshot drawn: call
``record`` before ``draw`` to keep them apart. In the partnership games
the snapshot plays the learner's partner too, so a rating measures the
learner's seat against a table of that snapshot.
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
    k : float
        The Elo factor of :meth:`record` (rating points moved by a result
        against an equal opponent: ``k / 2``).
    initial_rating : float
        The learner's rating before any result.
    """

    def __init__(
        self,
        act,
        max_snapshots: int = 10,
        latest_share: float = 0.5,
        seed=None,
        k: float = 16.0,
        initial_rating: float = 1500.0,
    ):
        if not callable(act):
            raise ValueError(f"act must be a callable act(weights, obs, mask), got {act!r}")
        self._act = act
        self.max_snapshots = check_int("max_snapshots", max_snapshots, 1)
        self.latest_share = check_real("latest_share", latest_share, 0)
        if self.latest_share > 1:
            raise ValueError(f"latest_share must be a probability in [0, 1], got {latest_share!r}")
        self._rng = np.random.default_rng(check_seed(seed))
        self.k = check_real("k", k, 0, 1000)
        self.learner_rating = check_real("initial_rating", initial_rating, -1e6, 1e6)
        self.snapshots: list = []
        self.ratings: list[float] = []  # the Elo rating of each snapshot
        self.results: list[dict] = []  # the learner's wins, draws, losses against each
        self.current = -1  # index of the snapshot that plays now

    def add(self, weights) -> None:
        """Keep a copy of ``weights`` (a deep copy: later training does not change it)."""
        self.snapshots.append(copy.deepcopy(weights))
        self.ratings.append(self.learner_rating)
        self.results.append({"wins": 0, "draws": 0, "losses": 0})
        if len(self.snapshots) > self.max_snapshots:
            for kept in (self.snapshots, self.ratings, self.results):
                kept.pop(0)
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

    def record(self, rewards) -> None:
        """Rate the learner's finished episodes (their rewards) against the current snapshot.

        ``rewards``: a number or a 1-D array of them (finite); > 0 a win,
        0 a draw, < 0 a loss, each an Elo update in turn.
        """
        if self.current < 0:
            raise ValueError("the league has no snapshot yet: add() one first")
        want = f"rewards must be a finite number or a 1-D array of them, got {rewards!r}"
        try:
            values = np.asarray(rewards)
        except ValueError:  # a ragged list
            raise ValueError(want) from None
        if values.ndim > 1 or values.dtype.kind not in "iuf" or not np.isfinite(values).all():
            raise ValueError(want)
        tally = self.results[self.current]
        for reward in np.atleast_1d(values).tolist():
            score = 1.0 if reward > 0 else 0.5 if reward == 0 else 0.0
            tally[{1.0: "wins", 0.5: "draws", 0.0: "losses"}[score]] += 1
            them = self.ratings[self.current]
            expected = 1.0 / (1.0 + 10.0 ** ((them - self.learner_rating) / 400.0))
            delta = self.k * (score - expected)
            self.learner_rating += delta
            self.ratings[self.current] = them - delta

    def win_rate(self, index: int | None = None) -> float:
        """The learner's share of wins (a draw half) against snapshot ``index`` (default: the
        current one); NaN before any result against it."""
        if index is None:
            index = self.current
        if not self.snapshots:
            raise ValueError("the league has no snapshot yet: add() one first")
        index = check_int("index", index, -len(self.snapshots), len(self.snapshots) - 1)
        tally = self.results[index]
        played = tally["wins"] + tally["draws"] + tally["losses"]
        return (tally["wins"] + 0.5 * tally["draws"]) / played if played else float("nan")
