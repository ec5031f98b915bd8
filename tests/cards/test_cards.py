"""Bit primitives against plain Python, and notation round trips for every pack."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trickgym.cards import (
    DECKS,
    PINOCHLE,
    STANDARD,
    TAROT,
    format_card,
    format_hand,
    highest_bit,
    iter_bits,
    lowest_bit,
    parse_card,
    parse_cards,
    parse_hand,
    popcount,
    select_kth,
)
from trickgym.cards.bits import HAS_BMI2, _select_kth_loop, _select_kth_pdep

masks = st.integers(min_value=1, max_value=2**64 - 1)


@settings(max_examples=2000, deadline=None)
@given(masks)
def test_bit_primitives_match_python(x):
    bits = [i for i in range(64) if x >> i & 1]
    u = np.uint64(x)
    assert popcount(u) == len(bits)
    assert lowest_bit(u) == bits[0]
    assert highest_bit(u) == bits[-1]
    assert iter_bits(u).tolist() == bits


@settings(max_examples=2000, deadline=None)
@given(masks, st.data())
def test_select_kth_matches_python(x, data):
    bits = [i for i in range(64) if x >> i & 1]
    k = data.draw(st.integers(0, len(bits) - 1))
    assert select_kth(np.uint64(x), k) == bits[k]
    assert _select_kth_loop(np.uint64(x), k) == bits[k]
    if HAS_BMI2:
        assert _select_kth_pdep(np.uint64(x), k) == bits[k]


def test_empty_set_edges():
    assert popcount(np.uint64(0)) == 0
    assert highest_bit(np.uint64(0)) == -1
    assert lowest_bit(np.uint64(0)) == 64
    assert iter_bits(np.uint64(0)).tolist() == []


@pytest.mark.parametrize("deck", DECKS.values(), ids=list(DECKS))
def test_every_card_round_trips(deck):
    for card in range(0, deck.n_cards, deck.copies):
        name = format_card(card, deck)
        assert parse_card(name, deck) == card
        assert parse_card(name.lower(), deck) == card
        if deck is not TAROT:
            assert parse_card(format_card(card, deck, symbols=True), deck) == card


@pytest.mark.parametrize("deck", DECKS.values(), ids=list(DECKS))
def test_layout_facts(deck):
    assert deck.n_cards <= 64
    union = 0
    for s, mask in enumerate(deck.suit_masks):
        mask = int(mask)
        assert union & mask == 0
        union |= mask
        assert all(deck.suit_of[c] == s for c in range(deck.n_cards) if mask >> c & 1)
    assert union == deck.full_mask


def test_deck_specifics():
    assert STANDARD.n_cards == 52 and parse_card("2S") == 0 and parse_card("AC") == 51
    assert TAROT.n_cards == 62 and int(TAROT.points.sum()) == 114
    # Trumps rise I..XXI then the Fool; round suits rank 6 lowest .. 1 highest pip.
    assert parse_card("I", TAROT) < parse_card("XXI", TAROT) < parse_card("Fool", TAROT)
    assert parse_card("6C", TAROT) < parse_card("1C", TAROT) < parse_card("JC", TAROT)
    assert parse_card("5S", TAROT) < parse_card("10S", TAROT) < parse_card("JS", TAROT)
    assert [int(TAROT.points[parse_card(c, TAROT)]) for c in ("KB", "QB", "NB", "JB", "10B")] == [
        5,
        4,
        3,
        2,
        1,
    ]
    assert PINOCHLE.n_cards == 48 and int(PINOCHLE.points.sum()) == 240
    a, b = parse_cards("AS AS", PINOCHLE)
    assert (a >> 1) == (b >> 1) and a != b
    assert parse_card("9S", PINOCHLE) < parse_card("JS", PINOCHLE) < parse_card("10S", PINOCHLE)
    assert parse_card("10S", PINOCHLE) < parse_card("AS", PINOCHLE)


def test_standard_notation():
    assert parse_card("QS") == parse_card("Q♠") == parse_card("♠Q") == parse_card("qs")
    assert parse_card("10H") == parse_card("TH")
    assert format_card(parse_card("TH")) == "10H"
    assert format_card(parse_card("10H"), symbols=True) == "10♥"
    hand = parse_hand("AKQ2.JT9.8765.43")
    assert bin(hand).count("1") == 13
    assert format_hand(hand) == "AKQ2.JT9.8765.43"
    assert format_hand(hand, symbols=True) == "♠AKQ2 ♥JT9 ♦8765 ♣43"
    assert parse_hand("A...2") == parse_hand("AS 2C") == parse_hand("AS,2C")
    assert parse_hand("A.-.-.2") == parse_hand("A...2")
    assert format_hand(parse_hand("A...")) == "A..."
    assert parse_hand("A10..-.") == parse_hand("AT...")


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**52 - 1))
def test_standard_hand_round_trip(mask):
    assert parse_hand(format_hand(mask)) == mask


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**48 - 1))
def test_pinochle_hand_round_trip(mask):
    # Only whole copies survive a round trip: a single copy is written as its kind.
    text = format_hand(mask, PINOCHLE)
    assert popcount(np.uint64(parse_hand(text, PINOCHLE))) == popcount(np.uint64(mask))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**62 - 1))
def test_tarot_hand_round_trip(mask):
    assert parse_hand(format_hand(mask, TAROT), TAROT) == mask


@pytest.mark.parametrize(
    "text, deck, fragment",
    [
        ("ZZ", STANDARD, "unknown card 'ZZ'"),
        ("1S", STANDARD, "unknown card '1S'"),
        ("XXII", TAROT, "unknown card 'XXII'"),
        ("QS", TAROT, None),  # Queen of Swords exists in the Tarot pack
        ("", STANDARD, "unknown card ''"),
    ],
)
def test_bad_cards_are_named(text, deck, fragment):
    if fragment is None:
        assert format_card(parse_card(text, deck), deck) == "QS"
        return
    with pytest.raises(ValueError, match=fragment):
        parse_card(text, deck)


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("AKQ.JT9.87", "4 dot-separated suits"),
        ("AKQX.JT9.8765.43", "unknown card 'XS'"),
        ("AA...", "more than 1 time"),
        ("AS AS", "more than 1 time"),
    ],
)
def test_bad_hands_are_named(text, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse_hand(text)


def test_pinochle_third_copy_rejected():
    with pytest.raises(ValueError, match="more than 2 time"):
        parse_hand("AAA...", PINOCHLE)


def test_non_string_rejected():
    with pytest.raises(ValueError, match="must be a string"):
        parse_card(12)
    with pytest.raises(ValueError, match="out of range"):
        format_card(52)


def test_portable_pext_pdep_match_bmi2():
    """The loops used on CPUs without BMI2 give the instructions' results."""
    from trickgym.cards import bits

    rng = np.random.default_rng(3)
    for _ in range(200):
        x, mask = (np.uint64(v) for v in rng.integers(0, 2**63, size=2, dtype=np.uint64))
        want_ext = sum(((int(x) >> b) & 1) << i for i, b in enumerate(
            b for b in range(64) if int(mask) >> b & 1))  # fmt: skip
        assert int(bits._pext_loop(x, mask)) == want_ext
        assert int(bits._pdep_loop(np.uint64(want_ext), mask)) == int(x) & int(mask)
        if bits.HAS_BMI2:
            assert int(bits._pext_fast(x, mask)) == want_ext
            assert int(bits._pdep_fast(np.uint64(want_ext), mask)) == int(x) & int(mask)
