"""Solo Whist batch simulation: the Python loop, row invariants, analysis.

Determinism (threads, chunks, ``first``, seeds), Python agents' deals and
the dealt pack are checked for every game in ``tests/sim``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import trickgym
from trickgym.agents import RandomAgent
from trickgym.analysis import bid_success, format_bid_table, wilson_interval
from trickgym.cards.decks import STANDARD
from trickgym.games.solowhist.constants import CALL_LETTERS, CONTRACT_NAMES
from trickgym.games.solowhist.rules import settlement
from trickgym.rng import seed_rng
from trickgym.sim import simulate
from trickgym.sim.features import FEATURE_COLUMNS
from trickgym.sim.frames import solowhist_frame
from trickgym.sim.python_loop import simulate_python
from trickgym.sim.specs import SPECS

PAYOFFS = [f"payoff_{s}" for s in range(4)]
HANDS = [f"hand_{s}" for s in range(4)]
CARD_ID = {name: i for i, name in enumerate(STANDARD.card_names)}
CONTRACT_LETTER = dict(zip("PCSMATOD", [1, 1, 2, 3, 4, 5, 6, 7], strict=True))

# Rules §4, written out independently of the kernels: goal, base units, points per trick.
GOAL = {1: 8, 2: 5, 3: 0, 4: 9, 5: 9, 6: 0, 7: 13}
BASE = {1: 1, 2: 1, 3: 2, 4: 3, 5: 3, 6: 4, 7: 6}
TRICK_POINTS = {1: 1, 2: 1, 3: 0, 4: 2, 5: 2, 6: 0, 7: 0}


def reference_payoffs(contract: int, declarer: int, partner: int, tricks: int, unit: int):
    """(made, payoffs) of a deal from the rules text (§7), in plain Python."""
    if contract == 0:
        return False, [0, 0, 0, 0]
    goal = GOAL[contract]
    if contract in (3, 6):
        made = tricks == 0
    elif contract == 7:
        made = tricks == 13
    else:
        made = tricks >= goal
    extra = tricks - goal if made else goal - 1 - tricks
    a = BASE[contract] * unit + TRICK_POINTS[contract] * extra
    sign = 1 if made else -1
    side = {declarer, partner} - {-1}
    lone = 1 if contract == 1 else 3
    return made, [sign * a * lone if s in side else -sign * a for s in range(4)]


@pytest.fixture(scope="module")
def big():
    """20000 random deals (the compiled loop, default unit 5)."""
    return simulate("solowhist", 20_000, "random", seed=123)


@pytest.fixture(scope="module")
def base300():
    """300 random deals of seed 5 on one thread."""
    return simulate("solowhist", 300, "random", seed=5, threads=1)


# ------------------------------------------------------------------ determinism


def test_python_loop_matches_compiled(base300):
    """The Python loop with built-in agents plays the very same deals."""
    game = trickgym.game("solowhist")
    rows = simulate_python(game, SPECS["solowhist"], np.uint64(seed_rng(5)), 0, 300, ["random"] * 4)
    assert_frame_equal(solowhist_frame(rows), base300)


# -------------------------------------------------------------------- invariants


def _calls(auction: str) -> list[tuple[int, str]]:
    return [(int(tok[0]), tok[1]) for tok in auction.split()]


def test_columns_and_dtypes(big):
    """The documented columns, in order, with a categorical contract."""
    assert list(big.columns) == [
        "deal",
        "dealer",
        "turn_up",
        "contract",
        "declarer",
        "partner",
        "trumps",
        "declarer_tricks",
        "made",
        *PAYOFFS,
        "auction",
        *HANDS,
        *FEATURE_COLUMNS["solowhist"],
    ]
    assert list(big["contract"].cat.categories) == list(CONTRACT_NAMES)
    assert big["deal"].tolist() == list(range(len(big)))
    assert big["made"].dtype == bool and big["hand_0"].dtype == np.uint64


def test_payoffs_zero_sum_and_passed_out(big):
    """Payoffs sum to zero; a passed-out deal has no declarer and no payoffs."""
    assert (big[PAYOFFS].sum(axis=1) == 0).all()
    out = big[big["contract"] == "Passed out"]
    assert len(out) > 0
    assert (out[PAYOFFS] == 0).all().all()
    assert (out["declarer"] == -1).all() and (out["partner"] == -1).all()
    assert not out["made"].any()
    played = big[big["contract"] != "Passed out"]
    assert (played["declarer"].between(0, 3)).all()
    assert (played[PAYOFFS] != 0).all().all()


def test_made_and_payoffs_follow_settlement(big):
    """``made`` and the payoffs agree with ``settlement`` and with the rules text."""
    codes = big["contract"].cat.codes.to_numpy()
    played = codes > 0
    for (code, tricks), _ in big[played].groupby([codes[played], "declarer_tricks"]):
        made, _a = settlement(code, tricks, 5)
        rows = big[played & (codes == code) & (big["declarer_tricks"] == tricks).to_numpy()]
        assert (rows["made"] == made).all(), (CONTRACT_NAMES[code], tricks)
    for row in big.head(3000).itertuples(index=False):
        code = CONTRACT_NAMES.index(row.contract)
        made, pay = reference_payoffs(code, row.declarer, row.partner, row.declarer_tricks, 5)
        assert row.made == made, row
        assert [row.payoff_0, row.payoff_1, row.payoff_2, row.payoff_3] == pay, row
    decl = big.loc[played, "declarer"].to_numpy()
    own = big.loc[played, PAYOFFS].to_numpy()[np.arange(played.sum()), decl]
    np.testing.assert_array_equal(own > 0, big.loc[played, "made"].to_numpy())


def test_partners_and_trumps(big):
    """Only Prop & Cop has a partner; trumps follow the contract."""
    pc = big["contract"] == "Prop & Cop"
    assert pc.sum() > 0
    assert (big.loc[pc, "partner"] >= 0).all()
    assert (big.loc[pc, "partner"] != big.loc[pc, "declarer"]).all()
    assert (big.loc[~pc, "partner"] == -1).all()
    no_trumps = big["contract"].isin(["Misère", "Misère Ouverte", "Abundance Declared"])
    assert (big.loc[no_trumps, "trumps"] == "NT").all()
    played = big["contract"] != "Passed out"
    assert (big.loc[played & ~no_trumps, "trumps"].isin(list("SHDC"))).all()
    turn_up_suit = big["contract"].isin(["Prop & Cop", "Solo", "Abundance in Trumps"])
    assert turn_up_suit.sum() > 100
    suit = big.loc[turn_up_suit, "turn_up"].str[-1]
    assert (big.loc[turn_up_suit, "trumps"] == suit).all()
    # Abundance: the declarer's last call names the trumps.
    ab = big[big["contract"] == "Abundance"]
    assert len(ab) > 0
    for row in ab.itertuples(index=False):
        seat, letter = _calls(row.auction)[-1]
        assert seat == row.declarer and letter in "shdc" and letter.upper() == row.trumps


def test_turn_up_is_the_dealers(big):
    """The turn-up is in the dealer's hand (the hands partition the pack: tests/sim)."""
    hands = big[HANDS].to_numpy(dtype=np.uint64)
    up = big["turn_up"].map(CARD_ID).to_numpy().astype(np.uint64)
    dealer_hand = hands[np.arange(len(big)), big["dealer"].to_numpy().astype(np.int64)]
    assert ((dealer_hand >> up) & np.uint64(1)).all()


def test_auction_strings(big):
    """Eldest speaks first; the last contract call names the contract and its declarer."""
    for row in big.itertuples(index=False):
        calls = _calls(row.auction)
        assert calls[0][0] == (row.dealer + 1) % 4, row.auction
        assert all(letter in CALL_LETTERS for _, letter in calls)
        bids = [(seat, letter) for seat, letter in calls if letter in CONTRACT_LETTER]
        code = CONTRACT_NAMES.index(row.contract)
        if code == 0:
            assert not bids or bids[-1][1] == "P", row.auction
            continue
        assert CONTRACT_LETTER[bids[-1][1]] == code, row.auction
        if code == 1:
            proposer = [seat for seat, letter in bids if letter == "P"][-1]
            copper = [seat for seat, letter in bids if letter == "C"][-1]
            assert (row.declarer, row.partner) == (proposer, copper), row.auction
        else:
            assert row.declarer == bids[-1][0], row.auction


# ---------------------------------------------------------------------- options


def test_unit_option():
    """``unit=2`` changes only the payoffs, as the rules say."""
    five = simulate("solowhist", 2000, "random", seed=9)
    two = simulate("solowhist", 2000, "random", seed=9, unit=2)
    others = [c for c in five.columns if c not in PAYOFFS]
    assert_frame_equal(two[others], five[others])
    assert not two[PAYOFFS].equals(five[PAYOFFS])
    for row in two.itertuples(index=False):
        code = CONTRACT_NAMES.index(row.contract)
        _, pay = reference_payoffs(code, row.declarer, row.partner, row.declarer_tricks, 2)
        assert [row.payoff_0, row.payoff_1, row.payoff_2, row.payoff_3] == pay, row
    solos = two[(two["contract"] == "Solo") & two["made"]]
    assert len(solos) > 0
    for row in solos.itertuples(index=False):
        own = getattr(row, f"payoff_{row.declarer}")
        assert abs(own) == 3 * (2 + row.declarer_tricks - 5)


def test_early_stop_keeps_payoffs():
    """``early_stop`` ends hopeless deals sooner without changing who made what."""
    full = simulate("solowhist", 1000, "random", seed=2)
    early = simulate("solowhist", 1000, "random", seed=2, early_stop=True)
    same = ["deal", "dealer", "turn_up", "contract", "declarer", "partner", "trumps", "made"]
    assert_frame_equal(early[same], full[same])
    stopped = early["declarer_tricks"] != full["declarer_tricks"]
    assert stopped.any()
    assert (
        early.loc[stopped, "contract"]
        .isin(["Misère", "Misère Ouverte", "Abundance Declared"])
        .all()
    )


# -------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("args", "kwargs", "named"),
    [
        (("bridge", 10), {}, "bridge"),
        (("solowhist", 0), {}, "deals.*0"),
        (("solowhist", -5), {}, "-5"),
        (("solowhist", 10, ["random"] * 3), {}, r"4.*\['random', 'random', 'random'\]"),
        (("solowhist", 10, "nobody"), {}, "nobody"),
        (("solowhist", 10, ["random", "random", "random", "nobody"]), {}, "nobody"),
        (("solowhist", 10), {"threads": 0}, "threads.*0"),
        (("solowhist", 10), {"chunk": 0}, "chunk.*0"),
        (("solowhist", 10), {"first": -1}, "first.*-1"),
        (("solowhist", 10), {"seed": -3}, "seed.*-3"),
        (("solowhist", 10), {"unit": 0}, "unit.*0"),
        (("solowhist", 10), {"colour": "red"}, "colour"),
    ],
)
def test_bad_input(args, kwargs, named):
    """Bad input raises ValueError naming the bad value."""
    with pytest.raises(ValueError, match=named):
        simulate(*args, **kwargs)


def test_bad_threads_with_python_agents():
    """``threads`` is checked whichever loop runs the agents."""
    with pytest.raises(ValueError, match=r"threads.*0"):
        simulate("solowhist", 5, [RandomAgent(1), "random", "random", "random"], threads=0)


# --------------------------------------------------------------------- analysis


def test_wilson_interval_known_values():
    """Wilson 95% intervals against hand-computed values."""
    low, high = wilson_interval(5, 10)
    assert (round(float(low), 4), round(float(high), 4)) == (0.2366, 0.7634)
    low, high = wilson_interval(0, 10)
    assert float(low) == pytest.approx(0.0, abs=1e-12)
    assert round(float(high), 4) == 0.2775
    low, high = wilson_interval(10, 10)
    assert round(float(low), 4) == 0.7225 and float(high) == pytest.approx(1.0)
    lows, highs = wilson_interval(np.array([5, 0]), np.array([10, 10]))
    np.testing.assert_allclose(lows, [0.236593, 0.0], atol=1e-6)
    np.testing.assert_allclose(highs, [0.763407, 0.277533], atol=1e-6)
    assert all(np.isnan(wilson_interval(0, 0)))


def test_bid_success_table(big):
    """Counts and made counts match the rows; rates lie in their intervals."""
    table = bid_success(big)
    counts = big["contract"].value_counts()
    counts = counts[counts > 0]
    assert table["count"].to_dict() == counts.to_dict()
    played = table.drop(index="Passed out")
    made = big[big["made"]].groupby("contract", observed=True).size()
    assert played["made"].to_dict() == made.reindex(played.index, fill_value=0).to_dict()
    assert (played["ci_low_pct"] <= played["made_pct"]).all()
    assert (played["made_pct"] <= played["ci_high_pct"]).all()
    assert np.isnan(table.loc["Passed out", "made_pct"])
    text = format_bid_table(table)
    for name, count in counts.items():
        assert f"{count:>10}" in next(line for line in text.splitlines() if line.startswith(name))
    with pytest.raises(ValueError, match="made"):
        bid_success(big.drop(columns="made"))


def test_bid_success_other_grouping(big):
    """``by=`` groups by any column."""
    table = bid_success(big.assign(has_partner=big["partner"] >= 0), by="has_partner")
    assert table["count"].sum() == len(big)
    assert isinstance(table, pd.DataFrame)
