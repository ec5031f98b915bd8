"""League ratings: Elo of the learner and of each snapshot, and the learner's tally against each."""

from __future__ import annotations

import math

import numpy as np
import pytest

from trickgym.envs.league import League


def _league(**kwargs) -> League:
    return League(lambda w, obs, mask: np.zeros(len(mask), dtype=np.int64), **kwargs)


def test_elo_updates_and_tallies():
    league = _league(k=32.0)
    with pytest.raises(ValueError, match="no snapshot"):
        league.record([1.0])
    league.add(np.zeros(3))
    assert league.ratings == [1500.0] and math.isnan(league.win_rate())
    league.record(np.array([2.5]))  # a win against an equal: k / 2 moves across
    assert league.learner_rating == 1516.0 and league.ratings == [1484.0]
    league.record([-40, 0])  # a loss then a draw, in turn
    assert league.results[0] == {"wins": 1, "draws": 1, "losses": 1}
    assert league.win_rate(0) == pytest.approx(0.5)
    # Zero-sum: whatever the learner gains, the snapshot loses.
    assert league.learner_rating + league.ratings[0] == pytest.approx(3000.0)
    me, them = 1516.0, 1484.0
    for score in (0.0, 0.5):
        delta = 32.0 * (score - 1.0 / (1.0 + 10.0 ** ((them - me) / 400.0)))
        me, them = me + delta, them - delta
    assert league.learner_rating == pytest.approx(me) and me < 1500.0


def test_new_snapshots_start_at_the_learners_rating_and_leave_with_their_ratings():
    league = _league(max_snapshots=2, initial_rating=1000.0)
    league.add("v0")
    league.record([1.0] * 5)
    league.add("v1")
    assert league.ratings[1] == league.learner_rating > 1000.0 > league.ratings[0]
    league.record(-1)  # credited to the current (newest) snapshot only
    assert league.results[1]["losses"] == 1 and league.results[0]["losses"] == 0
    league.add("v2")  # v0 dropped with its rating and tally
    assert league.snapshots == ["v1", "v2"] and league.results[0]["losses"] == 1
    assert len(league.ratings) == 2 and league.win_rate(0) == 0.0


@pytest.mark.parametrize("bad", [float("nan"), [1.0, np.inf], "1", [[1.0]], [True], [1, [2]]])
def test_bad_rewards_are_named(bad):
    league = _league()
    league.add(0)
    with pytest.raises(ValueError, match="rewards must be a finite number or a 1-D array"):
        league.record(bad)
    assert league.results[0] == {"wins": 0, "draws": 0, "losses": 0}


def test_bad_settings_are_named():
    with pytest.raises(ValueError, match="k must be a finite number >= 0"):
        _league(k=-1)
    with pytest.raises(ValueError, match="initial_rating must be a finite number"):
        _league(initial_rating=float("nan"))
    league = _league()
    league.add(0)
    with pytest.raises(ValueError, match=r"index must be an integer -1\.\.0, got 1"):
        league.win_rate(1)
