"""Troggu batch simulation, 3 to 8 players: the Python loop, row invariants.

Determinism (threads, chunks, ``first``, seeds), Python agents' deals, the
dealt pack and the agents' count are checked for every game in ``tests/sim``.

The invariants are written from ``docs/rules/troggu.md`` (§3 deal, §4
auction, §5 partner, §7 scoring), independently of the kernels.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import trickgym
from trickgym.cards import TAROT
from trickgym.rng import seed_rng
from trickgym.sim import simulate
from trickgym.sim.features import FEATURE_COLUMNS
from trickgym.sim.frames import troggu_frame
from trickgym.sim.python_loop import simulate_python
from trickgym.sim.specs import SPECS

PLAYERS = [3, 4, 5, 6, 7, 8]
HAND = {3: 18, 4: 13, 5: 11, 6: 9, 7: 8, 8: 7}  # rules §3
FOOL, TRUMP_I = TAROT.card_names.index("Fool"), TAROT.card_names.index("I")
CALLABLE = {TAROT.card_names[c] for c in range(1, 20)}  # II..XX
# Enough deals that the rare contracts occur: all pass is (1/3)^n with random agents.
BIG = {3: 20_000, 4: 20_000, 5: 30_000, 6: 60_000, 7: 150_000, 8: 250_000}


def cols(prefix: str, n: int) -> list[str]:
    return [f"{prefix}_{s}" for s in range(n)]


def card_matrix(masks: np.ndarray) -> np.ndarray:
    """``(len(masks), 62)`` 0/1 matrix of the cards in each ``uint64`` mask."""
    masks = np.asarray(masks, dtype=np.uint64)
    return ((masks[:, None] >> np.arange(62, dtype=np.uint64)) & np.uint64(1)).astype(np.int64)


def card_points(masks: np.ndarray) -> np.ndarray:
    """Card points of each mask (rules §2, via the deck's point table)."""
    return card_matrix(masks) @ TAROT.points.astype(np.int64)


def holder(df: pd.DataFrame, n: int, card: int) -> np.ndarray:
    """Seat whose initial hand holds ``card`` per row, -1 if none (the card is in the Tapp)."""
    hands = df[cols("hand", n)].to_numpy(dtype=np.uint64)
    has = ((hands >> np.uint64(card)) & np.uint64(1)).astype(bool)
    return np.where(has.any(axis=1), has.argmax(axis=1), -1)


@pytest.fixture(scope="module", params=PLAYERS, ids=[f"{n}p" for n in PLAYERS])
def big(request):
    """Many random deals of one table size (the compiled loop, all threads)."""
    n = request.param
    return n, simulate("troggu", BIG[n], "random", seed=100 + n, players=n)


# ------------------------------------------------------------------ determinism


@pytest.mark.parametrize("n", PLAYERS)
def test_python_loop_matches_compiled(n):
    """The Python loop with built-in agents plays the very same deals."""
    compiled = simulate("troggu", 300, "random", seed=9, players=n)
    game = trickgym.game("troggu", players=n)
    rows = simulate_python(game, SPECS["troggu"], np.uint64(seed_rng(9)), 0, 300, ["random"] * n)
    assert_frame_equal(troggu_frame(rows, n), compiled)
    rows = simulate_python(game, SPECS["troggu"], np.uint64(seed_rng(9)), 120, 30, ["random"] * n)
    assert_frame_equal(troggu_frame(rows, n), compiled.iloc[120:150].reset_index(drop=True))


# -------------------------------------------------------------------- invariants


def test_columns(big):
    """The documented columns, in order, for ``n`` seats only."""
    n, df = big
    assert list(df.columns) == [
        "deal",
        "players",
        "dealer",
        "contract",
        "declarer",
        "partner",
        "called_card",
        "declarer_points",
        "declarer_tricks",
        "made",
        "fool_held_back",
        "fool_held_back_by",
        "auction",
        *cols("payoff", n),
        *cols("points", n),
        *cols("hand", n),
        "tapp",
        *FEATURE_COLUMNS["troggu"],
    ]
    assert df["deal"].tolist() == list(range(len(df)))
    assert (df["players"] == n).all() and df["dealer"].between(0, n - 1).all()
    assert list(df["contract"].cat.categories) == ["Misère", "Tapp", "Forced Tapp", "Solo"]
    assert df["made"].dtype == bool and df["tapp"].dtype == np.uint64


def test_payoffs_zero_sum(big):
    """Payoffs over the ``n`` seats sum to zero in every deal."""
    n, df = big
    assert (df[cols("payoff", n)].sum(axis=1) == 0).all()
    assert (df[cols("payoff", n)] != 0).any(axis=1).mean() > 0.9


def test_points_sum(big):
    """Card points sum to 114, or to 114 minus the Tapp's in Misère (set aside, TR-D13)."""
    n, df = big
    total = df[cols("points", n)].sum(axis=1).to_numpy()
    tapp_points = card_points(df["tapp"].to_numpy())
    misere = (df["contract"] == "Misère").to_numpy()
    np.testing.assert_array_equal(total[~misere], 114)
    np.testing.assert_array_equal(total[misere], 114 - tapp_points[misere])
    assert (df[cols("points", n)] >= 0).all().all()


def test_contracts_follow_the_auction(big):
    """Misère only when nobody bid; Forced Tapp only at 7-8 players; declarers from the calls."""
    n, df = big
    auction = df["auction"]
    nobody_bid = ~auction.str.contains("[TS]").to_numpy()
    contract = df["contract"].astype(str).to_numpy()
    counts = pd.Series(contract).value_counts()
    assert counts.get("Solo", 0) > 0 and counts.get("Tapp", 0) > 0
    if n <= 6:
        np.testing.assert_array_equal(contract == "Misère", nobody_bid)
        assert counts.get("Forced Tapp", 0) == 0 and counts.get("Misère", 0) > 0
    else:
        assert set(contract[nobody_bid]) <= {"Forced Tapp", "Misère"}
        assert counts.get("Forced Tapp", 0) > 0
        # §4: forced on the Fool's holder, else the I's; Misère if both are in the Tapp.
        fool, one = holder(df, n, FOOL), holder(df, n, TRUMP_I)
        forced_on = np.where(fool >= 0, fool, one)
        declarer = df["declarer"].to_numpy()
        forced = contract == "Forced Tapp"
        np.testing.assert_array_equal(declarer[forced], forced_on[forced])
        np.testing.assert_array_equal(contract[nobody_bid] == "Misère", forced_on[nobody_bid] < 0)
    # Solo: the Soloist's call is the last one (it ends the auction).
    solo = contract == "Solo"
    np.testing.assert_array_equal(auction[solo].str[-1], "S")
    np.testing.assert_array_equal(auction[solo].str[-2].astype(int), df["declarer"][solo])
    assert not auction[~solo].str.contains("S").any()
    # Tapp: the one seat that said Tapp.
    tapp = contract == "Tapp"
    assert (auction[tapp].str.count("T") == 1).all()
    said = auction[tapp].str.extract(r"(\d)T", expand=False).astype(int)
    np.testing.assert_array_equal(said, df["declarer"][tapp])
    assert (auction.str.count("T") <= 1).all()
    assert (df.loc[contract == "Misère", "declarer"] == -1).all()
    assert df.loc[contract != "Misère", "declarer"].between(0, n - 1).all()


def test_auction_order(big):
    """Everybody speaks once from the dealer's right-hand neighbour until a Solo (§4)."""
    n, df = big
    for row in df.head(3000).itertuples(index=False):
        tokens = row.auction.split()
        seats = [int(t[0]) for t in tokens]
        assert seats == [(row.dealer + 1 + k) % n for k in range(len(tokens))], row.auction
        assert all(t[1] in "-TS" for t in tokens)
        assert len(tokens) == n or (tokens[-1][1] == "S" and len(tokens) < n), row.auction


def test_partner_and_called_card(big):
    """A partner and a called card only in Tapp / Forced Tapp at 7-8 players (§5, TR-D9)."""
    n, df = big
    tapp_like = df["contract"].isin(["Tapp", "Forced Tapp"]).to_numpy()
    called = df["called_card"]
    if n <= 6:
        assert called.isna().all() and (df["partner"] == -1).all()
        return
    assert called[~tapp_like].isna().all() and (df.loc[~tapp_like, "partner"] == -1).all()
    assert set(called.dropna().astype(str)) <= CALLABLE
    partner = df["partner"].to_numpy()
    declarer = df["declarer"].to_numpy()
    hands = df[cols("hand", n)].to_numpy(dtype=np.uint64)
    for i in np.flatnonzero(tapp_like & called.notna().to_numpy()):
        card = TAROT.card_names.index(called.iloc[i])
        holders = [s for s in range(n) if int(hands[i, s]) >> card & 1]
        # The holder of the named trump is the partner, unless it is the Tappist
        # or the card was in the Tapp (then with the Tappist, perhaps discarded).
        expect = holders[0] if holders and holders[0] != declarer[i] else -1
        assert partner[i] == expect, (i, called.iloc[i], holders, declarer[i])
    with_partner = tapp_like & (partner >= 0)
    alone = tapp_like & (partner < 0)
    assert with_partner.sum() > 0 and alone.sum() > 0 and called.isna()[tapp_like].sum() > 0


def test_made_and_declarer_points(big):
    """``made == declarer_points > 57``; the points are the declarer side's (§7)."""
    n, df = big
    misere = (df["contract"] == "Misère").to_numpy()
    points = df[cols("points", n)].to_numpy()
    declarer = df["declarer"].to_numpy()
    partner = df["partner"].to_numpy()
    rows = np.arange(len(df))
    side = points[rows, np.maximum(declarer, 0)] + np.where(
        partner >= 0, points[rows, np.maximum(partner, 0)], 0
    )
    dp = df["declarer_points"].to_numpy()
    np.testing.assert_array_equal(dp[~misere], side[~misere])
    np.testing.assert_array_equal(df["made"].to_numpy()[~misere], dp[~misere] > 57)
    assert not df["made"][misere].any()
    assert df["declarer_tricks"].between(0, HAND[n]).all()


def reference_payoffs(df: pd.DataFrame, n: int) -> np.ndarray:
    """Payoffs of every row from the rules text (§7), vectorized."""
    contract = df["contract"].astype(str).to_numpy()
    points = df[cols("points", n)].to_numpy().astype(np.int64)
    declarer = df["declarer"].to_numpy().astype(np.int64)
    partner = df["partner"].to_numpy().astype(np.int64)
    p = df["declarer_points"].to_numpy().astype(np.int64)
    tricks = df["declarer_tricks"].to_numpy().astype(np.int64)
    sign = np.sign(p - 57)
    m = np.where(
        sign > 0,
        np.where(tricks == HAND[n], 3, np.where(p > 84, 2, 1)),
        np.where(tricks == 0, 3, np.where(114 - p > 84, 2, 1)),
    )
    a = np.where(contract == "Solo", 20, 10) * m
    seat = np.arange(n)[None, :]
    is_decl = seat == declarer[:, None]
    is_partner = seat == partner[:, None]
    lone = np.where(is_decl, (n - 1) * a[:, None], -a[:, None])
    paired = np.where(
        is_decl, (n - 4) * a[:, None], np.where(is_partner, 2 * a[:, None], -a[:, None])
    )
    out = sign[:, None] * np.where((partner >= 0)[:, None], paired, lone)
    # Misère: every seat with the most points pays 10 to each seat with fewer.
    top = points == points.max(axis=1, keepdims=True)
    n_top = top.sum(axis=1, keepdims=True)
    misere_pay = np.where(top, -10 * (n - n_top), 10 * n_top)
    return np.where((contract == "Misère")[:, None], misere_pay, out)


def test_payoffs_follow_the_rules(big):
    """Every row's payoffs equal the rules' (§7, TR-D11, TR-D12, TR-D16)."""
    n, df = big
    np.testing.assert_array_equal(df[cols("payoff", n)].to_numpy(), reference_payoffs(df, n))


def test_fool_hold_back_columns(big):
    """``fool_held_back`` is ``fool_held_back_by >= 0``, and the holder held the Fool."""
    n, df = big
    by = df["fool_held_back_by"].to_numpy()
    np.testing.assert_array_equal(df["fool_held_back"].to_numpy(), by >= 0)
    assert (by >= 0).sum() > 0
    fool = holder(df, n, FOOL)
    held = by >= 0
    # The holder was dealt the Fool, or took it with the Tapp.
    from_tapp = held & (fool < 0)
    np.testing.assert_array_equal(by[held & ~from_tapp], fool[held & ~from_tapp])
    np.testing.assert_array_equal(by[from_tapp], df["declarer"].to_numpy()[from_tapp])


# -------------------------------------------------------------------- bad input


def test_match_mode_not_available():
    """``dealing="match"`` is refused for Troggu, naming the game."""
    with pytest.raises(ValueError, match=r"dealing='match'.*troggu"):
        simulate("troggu", 8, "random", players=4, dealing="match", num_deals=1)


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"players": 9}, "players.*9"),
        ({"players": 2}, "players.*2"),
        ({"players": 0}, "players.*0"),
        ({"players": 4.0}, r"players.*4\.0"),
        ({"players": "5"}, "players.*'5'"),
        ({"players": True}, "players.*True"),
        ({"players": 4, "num_deals": 0}, "num_deals.*0"),
        ({}, "players is required for troggu"),
        ({"seats": 4}, "seats"),
    ],
)
def test_bad_options(kwargs, named):
    """Bad table options raise ValueError naming them."""
    with pytest.raises(ValueError, match=named):
        simulate("troggu", 10, "random", **kwargs)
