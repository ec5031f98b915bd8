"""Match-mode simulation: BGA dealing across the deals of a match (rules §3.1, §8)."""

from __future__ import annotations

import numpy as np
import pytest
from pandas.testing import assert_frame_equal

import trickgym
from trickgym.sim import simulate
from trickgym.sim.frames import solowhist_frame
from trickgym.sim.python_loop import simulate_python_matches
from trickgym.sim.specs import SPECS

SHUFFLE_AFTER = {"Abundance", "Abundance in Trumps", "Misère Ouverte", "Abundance Declared"}


@pytest.fixture(scope="module")
def matches():
    return simulate("solowhist", 4 * 300, "random", seed=11, dealing="match", num_deals=4)


def test_rows_follow_bga_dealing(matches):
    assert (matches.groupby("match").size() == 4).all()
    for _, m in matches.groupby("match"):
        m = m.reset_index(drop=True)
        assert m["deal_in_match"].tolist() == [0, 1, 2, 3]
        assert m.loc[0, "shuffled"] and m.loc[0, "passed_out_before"] == 0
        for i in range(1, 4):
            passed = m.loc[i, "passed_out_before"]
            assert m.loc[i, "dealer"] == (m.loc[i - 1, "dealer"] + 1 + passed) % 4
            expect = passed == 0 and m.loc[i - 1, "contract"] in SHUFFLE_AFTER
            assert m.loc[i, "shuffled"] == expect
        for s in range(4):
            assert m[f"score_{s}"].tolist() == m[f"payoff_{s}"].cumsum().tolist()


def test_unshuffled_deals_occur_and_passed_out_deals_are_counted():
    # Solo-only agents are not built in, so use the default ones on many matches.
    df = simulate("solowhist", 8 * 2000, "random", seed=2, dealing="match")
    assert (~df["shuffled"]).sum() > 0
    assert df["passed_out_before"].sum() > 0


def test_match_mode_independent_of_threads_and_blocks(matches):
    again = simulate(
        "solowhist", 4 * 300, "random", seed=11, dealing="match", num_deals=4, threads=1
    )
    assert_frame_equal(matches, again)
    tail = simulate(
        "solowhist", 4 * 100, "random", seed=11, dealing="match", num_deals=4, first=800
    )
    assert_frame_equal(matches.iloc[800:].reset_index(drop=True), tail)


def test_python_loop_matches_compiled_loop(matches):
    game = trickgym.game("solowhist", num_deals=4)
    rows = simulate_python_matches(game, SPECS["solowhist"], np.uint64(11), 0, 20, ["random"] * 4)
    assert_frame_equal(solowhist_frame(rows, match_mode=True), matches.iloc[:80])


def test_match_mode_needs_whole_matches():
    with pytest.raises(ValueError, match=r"multiples of num_deals \(8\)"):
        simulate("solowhist", 10, "random", dealing="match")
    with pytest.raises(ValueError, match="dealing must be 'shuffled' or 'match'"):
        simulate("solowhist", 8, "random", dealing="matches")
