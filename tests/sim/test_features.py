"""Hand features (``hf_*``) in simulation rows, against plain-Python references."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trickgym.cards.decks import PINOCHLE, STANDARD, TAROT
from trickgym.cards.notation import parse_hand
from trickgym.games.pinochle.meld import meld
from trickgym.sim import simulate
from trickgym.sim.features import (
    FEATURE_COLUMNS,
    pinochle_features,
    troggu_features,
    whist_features,
)

HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
TRUMP_CODE = {"NT": -1, "S": 0, "H": 1, "D": 2, "C": 3}


def cards_of(mask: int, deck) -> list[int]:
    return [c for c in range(len(deck.card_names)) if mask >> c & 1]


def whist_reference(mask: int, trumps: int) -> tuple:
    """The Solo Whist features of a 52-card hand, from the card names."""
    cards = cards_of(mask, STANDARD)
    lengths = [sum(STANDARD.suit_of[c] == s for c in cards) for s in range(4)]
    hcp = sum(HCP.get(STANDARD.rank_names[c], 0) for c in cards)
    if trumps < 0:
        trump_len = trump_top = -1
    else:
        trump_len = lengths[trumps]
        trump_top = sum(
            STANDARD.suit_of[c] == trumps and STANDARD.rank_names[c] in HCP for c in cards
        )
    voids = lengths.count(0)
    return trump_len, trump_top, hcp, voids, lengths.count(1), max(lengths)


def test_whist_features_worked_example():
    """AKQ2 of spades, JT9 hearts, 8765 diamonds, 43 clubs, spades trumps."""
    hand = parse_hand("AKQ2.JT9.8765.43")
    assert whist_features(hand, 0) == (4, 3, 10, 0, 0, 4)
    assert whist_features(hand, 3) == (2, 0, 10, 0, 0, 4)
    assert whist_features(hand, -1) == (-1, -1, 10, 0, 0, 4)
    void_hand = parse_hand("AKQJT98765432...")
    assert whist_features(void_hand, 0) == (13, 4, 10, 3, 0, 13)


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(52)), st.integers(-1, 3))
def test_whist_features_on_random_hands(pack, trumps):
    hand = sum(1 << c for c in pack[:13])
    assert whist_features(hand, trumps) == whist_reference(hand, trumps)


@settings(max_examples=200, deadline=None)
@given(st.permutations(range(62)), st.integers(3, 20))
def test_troggu_features_on_random_hands(pack, size):
    cards = pack[:size]
    hand = sum(1 << c for c in cards)
    names = [TAROT.card_names[c] for c in cards]
    trumps = [c for c in cards if c < 21]
    expect = (
        len(trumps),
        sum(
            TAROT.card_names[c] in ("XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI")
            for c in trumps
        ),
        int("Fool" in names),
        sum(n.startswith("K") for n in names),
    )
    assert troggu_features(hand) == expect


@pytest.fixture(scope="module")
def solowhist_rows():
    return simulate("solowhist", 3000, "rule", seed=21)


def test_solowhist_rows_hold_the_declarers_dealt_hand_features(solowhist_rows):
    df = solowhist_rows
    for _, row in df.sample(400, random_state=0).iterrows():
        got = tuple(int(row[c]) for c in FEATURE_COLUMNS["solowhist"])
        if row["declarer"] < 0:
            assert got == (-1,) * 6
            continue
        hand = int(row[f"hand_{row['declarer']}"])
        assert got == whist_reference(hand, TRUMP_CODE[row["trumps"]])
    declared = df[df["declarer"] >= 0]
    assert (declared["hf_hcp"] >= 0).all() and declared["hf_hcp"].max() <= 40
    # Misère has no trump suit; Solo always has one.
    assert (df.loc[df["contract"] == "Misère", "hf_trump_len"] == -1).all()
    solo = df[df["contract"] == "Solo"]
    assert (solo["trumps"] != "NT").all() and (solo["hf_trump_len"] >= 0).all()


def test_troggu_features():
    hand = parse_hand("XXI XX XV XIV I Fool KC KD 5S", TAROT)
    assert troggu_features(hand) == (5, 3, 1, 2)
    df = simulate("troggu", 1500, "rule", seed=3, players=4)
    for _, row in df.sample(300, random_state=1).iterrows():
        got = tuple(int(row[c]) for c in FEATURE_COLUMNS["troggu"])
        if row["declarer"] < 0:
            assert got == (-1,) * 4
            continue
        names = [TAROT.card_names[c] for c in cards_of(int(row[f"hand_{row['declarer']}"]), TAROT)]
        trumps = [c for c in cards_of(int(row[f"hand_{row['declarer']}"]), TAROT) if c < 21]
        expect = (
            len(trumps),
            sum(c >= 14 for c in trumps),  # XV .. XXI
            int("Fool" in names),
            sum(n.startswith("K") for n in names),
        )
        assert got == expect


def test_pinochle_features():
    # Run in spades (A 10 K Q J), a pinochle (QS JD), another ace.
    hand = parse_hand("AS 10S KS QS JS JD AH 9C 9C 10D 10D", PINOCHLE)
    points, _ = meld(np.uint64(hand), 0)
    assert pinochle_features(hand, 0) == (points, 5, 2)
    assert points == 150 + 40
    df = simulate("pinochle", 1000, "rule", seed=5)
    for _, row in df.sample(200, random_state=2).iterrows():
        got = tuple(int(row[c]) for c in FEATURE_COLUMNS["pinochle"])
        if row["declarer"] < 0:
            assert got == (-1,) * 3
            continue
        mask = int(row[f"hand_{row['declarer']}"])
        trumps = "SHDC".index(row["trumps"])
        cards = cards_of(mask, PINOCHLE)
        expect = (
            int(meld(np.uint64(mask), trumps)[0]),
            sum(PINOCHLE.suit_of[c] == trumps for c in cards),
            sum(PINOCHLE.rank_names[c] == "A" for c in cards),
        )
        assert got == expect


def test_phat_features_are_the_pitchers():
    df = simulate("phat", matches=40, agents="rule", seed=6)
    assert list(df.columns[-3:]) == list(FEATURE_COLUMNS["phat"])
    for _, row in df.sample(100, random_state=3).iterrows():
        hand = int(row[f"hand_{row['pitcher']}"])
        trump_len, _, hcp, voids, _, _ = whist_reference(hand, "SHDC".index(row["trumps"]))
        assert (row["hf_trump_len"], row["hf_hcp"], row["hf_voids"]) == (trump_len, hcp, voids)
        assert trump_len >= 1  # the pitcher led a trump from the hand
