"""Pinochle batch simulation, both modes: the Python loop, row invariants.

Determinism (threads, chunks, ``first``, seeds), Python agents' deals and
the dealt pack are checked for every game in ``tests/sim``.

The invariants are written from ``docs/rules/pinochle.md`` (§3 deal, §4
auction, §6 meld, §8 scoring), independently of the kernels.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import trickgym
from trickgym.games.pinochle.meld import meld
from trickgym.rng import seed_rng
from trickgym.sim import simulate
from trickgym.sim.features import FEATURE_COLUMNS
from trickgym.sim.frames import pinochle_frame
from trickgym.sim.python_loop import simulate_python
from trickgym.sim.specs import SPECS

TRUMPS = ["S", "H", "D", "C"]
HANDS = [f"hand_{s}" for s in range(4)]

# Option sets: the defaults of each mode, and narrow bid ranges where random agents
# make contracts, pass hands out (redeal) and play without heading.
CONFIGS = {
    "kitty": {"mode": "kitty"},
    "exchange": {"mode": "exchange"},
    "kitty low bids": {"mode": "kitty", "max_bid": 300, "meld_save": "twenty_counters"},
    "exchange redeal": {
        "mode": "exchange",
        "max_bid": 250,
        "all_pass": "redeal",
        "pass_count": 3,
        "must_head": False,
    },
}


@pytest.fixture(scope="module", params=list(CONFIGS), ids=list(CONFIGS))
def big(request):
    """Many random hands of one option set (the compiled loop, all threads)."""
    options = CONFIGS[request.param]
    return trickgym.game("pinochle", **options).options, simulate(
        "pinochle", 20_000, "random", seed=7, **options
    )


# ------------------------------------------------------------------ determinism


@pytest.mark.parametrize("config", ["kitty", "exchange redeal"])
def test_python_loop_matches_compiled(config):
    options = CONFIGS[config]
    compiled = simulate("pinochle", 300, "random", seed=9, **options)
    game = trickgym.game("pinochle", **options)
    spec = SPECS["pinochle"]
    rows = simulate_python(game, spec, np.uint64(seed_rng(9)), 0, 300, ["random"] * 4)
    assert_frame_equal(pinochle_frame(rows), compiled)
    rows = simulate_python(game, spec, np.uint64(seed_rng(9)), 120, 30, ["random"] * 4)
    assert_frame_equal(pinochle_frame(rows), compiled.iloc[120:150].reset_index(drop=True))


def test_dealing_match_and_matches_are_refused():
    with pytest.raises(ValueError, match="dealing='match' is not available for pinochle"):
        simulate("pinochle", 10, dealing="match")
    with pytest.raises(ValueError, match="pass matches=N, not deals=10"):
        simulate("pinochle", 10, matches=3)
    with pytest.raises(ValueError, match="mode"):
        simulate("pinochle", 10, mode="x")
    with pytest.raises(ValueError, match="max_bid"):
        simulate("pinochle", 10, max_bid=1000)


# -------------------------------------------------------------------- invariants


def test_columns(big):
    o, df = big
    assert list(df.columns) == [
        "deal",
        "mode",
        "dealer",
        "declarer",
        "bid",
        "contract",
        "trumps",
        "meld_ns",
        "meld_ew",
        "counters_ns",
        "counters_ew",
        "saved_ns",
        "saved_ew",
        "made",
        "score_ns",
        "score_ew",
        "auction",
        *HANDS,
        "kitty",
        *FEATURE_COLUMNS["pinochle"],
    ]
    assert df["deal"].tolist() == list(range(len(df)))
    assert (df["mode"] == o.mode).all() and list(df["mode"].cat.categories) == ["kitty", "exchange"]
    assert df["dealer"].between(0, 3).all() and set(df["dealer"]) == {0, 1, 2, 3}
    assert df["made"].dtype == bool and df["saved_ns"].dtype == bool
    assert df["kitty"].dtype == np.uint64 and df["hand_0"].dtype == np.uint64


def test_counters_total_250(big):
    """Counters sum to 250 in every hand played (PN-D17); a passed-out hand scores nothing."""
    o, df = big
    out = (df["contract"] == "Passed out").to_numpy()
    total = (df["counters_ns"] + df["counters_ew"]).to_numpy()
    np.testing.assert_array_equal(total[~out], 250)
    assert (df[["counters_ns", "counters_ew"]] % 10 == 0).all().all()
    passed = df[out]
    assert (passed[["counters_ns", "counters_ew", "score_ns", "score_ew", "bid"]] == 0).all().all()
    assert (passed["declarer"] == -1).all() and passed["trumps"].isna().all()
    assert not passed["made"].any()
    if o.all_pass == "redeal":
        assert 0.02 < out.mean() < 0.2  # four passes at 1 in 2 each
    else:
        assert not out.any()


def test_scores_follow_the_rules(big):
    """§8 from the row's meld, counters, saved flags, bid and declarer."""
    o, df = big
    df = df[df["contract"] != "Passed out"]
    dc = (df["declarer"] % 2).to_numpy()
    meld = df[["meld_ns", "meld_ew"]].to_numpy()
    counters = df[["counters_ns", "counters_ew"]].to_numpy()
    saved = df[["saved_ns", "saved_ew"]].to_numpy()
    scores = df[["score_ns", "score_ew"]].to_numpy()
    bid = df["bid"].to_numpy()
    rows = np.arange(len(df))
    total = np.where(saved, meld, 0) + counters
    made = total[rows, dc] >= bid
    np.testing.assert_array_equal(df["made"].to_numpy(), made)
    np.testing.assert_array_equal(scores[rows, dc], np.where(made, total[rows, dc], -bid))
    np.testing.assert_array_equal(scores[rows, 1 - dc], total[rows, 1 - dc])
    if o.meld_save == "twenty_counters":
        np.testing.assert_array_equal(saved, counters >= 20)
    else:
        # A defending team with counters took a trick; one without any counter may not have.
        df_counters = counters[rows, 1 - dc]
        assert saved[rows, 1 - dc][df_counters > 0].all()
    assert (meld >= 0).all() and (meld % 10 == 0).all()
    assert made.any() == (o.max_bid <= 300)  # random agents make only low contracts
    assert (~made).any()


def test_bids_and_contract_bands(big):
    o, df = big
    df = df[df["contract"] != "Passed out"]
    bid = df["bid"]
    assert bid.between(o.min_bid, o.max_bid).all() and (bid % 10 == 0).all()
    low = bid // 50 * 50
    assert (df["contract"] == low.astype(str) + "-" + (low + 40).astype(str)).all()
    assert df["declarer"].between(0, 3).all()
    assert set(df["trumps"].astype(str)) == set(TRUMPS)


def test_auction_strings(big):
    """Calls go round from eldest skipping passed seats; every other seat passes once; bids
    rise by tens; the string ends with the declarer's bid followed by passes (§4)."""
    o, df = big
    ends = df["auction"].str.extract(r"(\d):(\d+)(?: \d:P)*$")
    played = df["contract"] != "Passed out"
    assert (ends[0][played].astype(int) == df["declarer"][played]).all()
    assert (ends[1][played].astype(int) == df["bid"][played]).all()
    assert (df["auction"][~played].str.fullmatch(r"\d:P \d:P \d:P \d:P")).all()
    for row in df.head(3000).itertuples(index=False):
        calls = [re.fullmatch(r"(\d):(P|\d+)", c).groups() for c in row.auction.split()]
        passed, high = set(), 0
        seat = (row.dealer + 1) % 4
        for who, call in calls:
            assert int(who) == seat, row.auction
            if call == "P":
                passed.add(seat)
            else:
                assert int(call) >= max(o.min_bid, high + 10), row.auction
                high = int(call)
            if len(passed) == 4 or (high and len(passed) == 3):
                break
            seat = (seat + 1) % 4
            while seat in passed:
                seat = (seat + 1) % 4
        assert (who, call) == calls[-1], row.auction  # nothing after the end
        if row.contract != "Passed out":
            assert len(passed) == 3 and row.declarer not in passed and high == row.bid
        if len(calls) == 4 and calls[-1][1] != "P":  # three passes, then the dealer bids
            assert int(calls[-1][0]) == row.dealer


def test_defenders_meld_their_dealt_hands(big):
    """The defenders' hands do not change before the meld: their team meld is the §6 meld
    of the two dealt hands (the declarers' changes with the kitty or the exchange)."""
    _, df = big
    df = df[df["contract"] != "Passed out"].head(3000)
    for row in df.itertuples(index=False):
        t = TRUMPS.index(str(row.trumps))
        defenders = 1 - row.declarer % 2
        hands = [getattr(row, f"hand_{s}") for s in (defenders, defenders + 2)]
        expected = sum(int(meld(np.uint64(h), t)[0]) for h in hands)
        assert (row.meld_ew if defenders else row.meld_ns) == expected


def test_frame_of_no_rows():
    """An empty block of rows still makes a frame with the documented columns."""
    rows = np.zeros(0, dtype=SPECS["pinochle"].row_dtype)
    df = pinochle_frame(rows)
    assert len(df) == 0 and "auction" in df.columns
    assert isinstance(df, pd.DataFrame)
