"""Troggu trick kernels against a plain-Python reference of rules §6.1-6.3."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trickgym.cards import TAROT, parse_card, parse_cards, parse_hand
from trickgym.tricks import troggu_holds_back, troggu_legal, troggu_trick_winner

# --- reference, written from troggu.md without the bit layout ---------------

TRUMPS = 0
FOOL = parse_card("Fool", TAROT)
# Ranks low -> high, read off the §2 table (which lists them high -> low).
_TRUMP_ORDER = "I II III IV V VI VII VIII IX X XI XII XIII XIV XV XVI XVII XVIII XIX XX XXI Fool"
_TRUMP_ORDER = _TRUMP_ORDER.split()
_ROUND_ORDER = ["K", "Q", "N", "J", "1", "2", "3", "4", "5", "6"][::-1]
_LONG_ORDER = ["K", "Q", "N", "J", "10", "9", "8", "7", "6", "5"][::-1]
_ORDER_BY_SUIT = {"T": _TRUMP_ORDER, "C": _ROUND_ORDER, "D": _ROUND_ORDER}
_ORDER_BY_SUIT |= {"S": _LONG_ORDER, "B": _LONG_ORDER}


def suit(card: int) -> int:
    return int(TAROT.suit_of[card])


def rank(card: int) -> int:
    return _ORDER_BY_SUIT[TAROT.suit_letters[suit(card)]].index(TAROT.rank_names[card])


def ref_led(trick: list[int], held_back_pos: int) -> int | None:
    """Suit of the first card of the trick that is not a held-back Fool."""
    for pos, card in enumerate(trick):
        if pos != held_back_pos:
            return suit(card)
    return None


def ref_legal(hand, led, held_back, last_trick) -> set[int]:
    """§6.1 pseudo-code, line by line."""
    H = set(hand)
    if held_back and not last_trick:
        H -= {FOOL}
    if led is None:
        return H
    live_trumps = {c for c in H if suit(c) == TRUMPS} - ({FOOL} if held_back else set())
    of_led = {c for c in H if suit(c) == led}
    if led != TRUMPS and of_led:
        return of_led
    required = live_trumps if (led == TRUMPS or not of_led) else None
    if not required:
        return H
    if required == {FOOL} and H - {FOOL}:
        return H
    return required


def ref_holds_back(hand, led, held_back, card) -> bool:
    """§6.2: only trump an active Fool, a trump is forced, another card is played."""
    if held_back or led is None:
        return False
    only_trump_is_fool = {c for c in hand if suit(c) == TRUMPS} == {FOOL}
    must_trump = led == TRUMPS or not any(suit(c) == led for c in hand)
    return only_trump_is_fool and must_trump and card != FOOL


def ref_winner(trick: list[int], held_back_pos: int) -> int:
    """§6.3: highest live trump, else highest card of the led suit; -1 if none."""
    live = [pos for pos in range(len(trick)) if pos != held_back_pos]
    if not live:
        return -1
    led = suit(trick[live[0]])
    pool = [p for p in live if suit(trick[p]) == TRUMPS]
    pool = pool or [p for p in live if suit(trick[p]) == led]
    return max(pool, key=lambda p: rank(trick[p]))


# --- kernel adapters ---------------------------------------------------------

TRUMP_MASK = np.uint64(TAROT.suit_masks[TRUMPS])
FOOL_SET = np.uint64(1 << FOOL)


def mask_of(cards) -> np.uint64:
    return np.uint64(sum(1 << c for c in cards))


def cards_of(mask) -> set[int]:
    mask = int(mask)
    return {c for c in range(64) if mask >> c & 1}


def led_mask_of(led: int | None) -> np.uint64:
    return np.uint64(0) if led is None else np.uint64(TAROT.suit_masks[led])


def kernel_legal(hand, led, held_back, last_trick) -> set[int]:
    legal = troggu_legal(
        mask_of(hand), led_mask_of(led), TRUMP_MASK, FOOL_SET, held_back, last_trick
    )
    return cards_of(legal)


def kernel_holds_back(hand, led, held_back, card) -> bool:
    return bool(
        troggu_holds_back(mask_of(hand), led_mask_of(led), TRUMP_MASK, FOOL_SET, held_back, card)
    )


def kernel_winner(trick, held_back_pos) -> int:
    cards = np.array(trick, dtype=np.int64)
    return int(troggu_trick_winner(cards, len(trick), TAROT.suit_of, TRUMP_MASK, held_back_pos))


# --- random positions --------------------------------------------------------

ALL_CARDS = range(TAROT.n_cards)


@st.composite
def positions(draw):
    """A hand and a disjoint partial trick, biased towards the Fool's corner cases."""
    fool_in_hand = draw(st.booleans())
    other_trumps = draw(st.sets(st.integers(0, FOOL - 1), max_size=6))
    plain = draw(st.sets(st.integers(FOOL + 1, TAROT.n_cards - 1), max_size=14))
    hand = other_trumps | plain | ({FOOL} if fool_in_hand else set())
    if not hand:
        hand = {draw(st.sampled_from(ALL_CARDS))}
    rest = sorted(set(ALL_CARDS) - hand - {FOOL})
    trick = draw(st.lists(st.sampled_from(rest), unique=True, max_size=7))
    held_back_pos = -1
    if FOOL not in hand and draw(st.booleans()):
        pos = draw(st.integers(0, len(trick)))
        trick.insert(pos, FOOL)
        if draw(st.booleans()):
            held_back_pos = pos
    held_back = FOOL in hand and draw(st.booleans())
    last_trick = draw(st.booleans())
    return sorted(hand), trick, held_back_pos, held_back, last_trick


@st.composite
def tricks(draw):
    """1 to 8 distinct cards from a few suits, maybe with a held-back Fool."""
    suits = draw(st.sets(st.integers(0, TAROT.n_suits - 1), min_size=1))
    pool = [c for c in ALL_CARDS if suit(c) in suits]
    trick = draw(st.lists(st.sampled_from(pool), unique=True, min_size=1, max_size=8))
    held_back_pos = -1
    if FOOL in trick and draw(st.booleans()):
        held_back_pos = trick.index(FOOL)
    return trick, held_back_pos


@settings(max_examples=3000, deadline=None)
@given(positions())
def test_legal_and_hold_back_match_reference(position):
    hand, trick, held_back_pos, held_back, last_trick = position
    led = ref_led(trick, held_back_pos)
    expected = ref_legal(hand, led, held_back, last_trick)
    assert kernel_legal(hand, led, held_back, last_trick) == expected
    for card in expected:
        assert kernel_holds_back(hand, led, held_back, card) == ref_holds_back(
            hand, led, held_back, card
        ), card


@settings(max_examples=2000, deadline=None)
@given(tricks())
def test_trick_winner_matches_reference(trick_and_pos):
    trick, held_back_pos = trick_and_pos
    assert kernel_winner(trick, held_back_pos) == ref_winner(trick, held_back_pos)


# --- worked examples (troggu.md §11) -----------------------------------------


def hand_of(text: str) -> list[int]:
    return sorted(cards_of(parse_hand(text, TAROT)))


def led_of(card_name: str) -> int:
    return suit(parse_card(card_name, TAROT))


def test_example_8_fool_alone_against_plain_lead_may_be_held_back():
    hand = hand_of("Fool 5S KD")
    led = led_of("3C")
    assert kernel_legal(hand, led, False, False) == set(hand)
    assert kernel_holds_back(hand, led, False, parse_card("5S", TAROT))
    assert kernel_holds_back(hand, led, False, parse_card("KD", TAROT))
    assert not kernel_holds_back(hand, led, False, FOOL)


def test_example_8_fool_alone_against_trump_lead_may_be_held_back():
    hand = hand_of("Fool 5S KD")
    led = led_of("VII")
    assert kernel_legal(hand, led, False, False) == set(hand)  # TR-D4
    assert kernel_holds_back(hand, led, False, parse_card("KD", TAROT))


def test_example_8_another_trump_forbids_hold_back():
    hand = hand_of("Fool XII 5S")
    assert kernel_legal(hand, led_of("3C"), False, False) == set(hand_of("Fool XII"))
    assert kernel_legal(hand, led_of("VII"), False, False) == set(hand_of("Fool XII"))


def test_following_suit_with_the_fool_alone_is_no_hold_back():
    hand = hand_of("Fool 5C KD")
    assert kernel_legal(hand, led_of("3C"), False, False) == set(hand_of("5C"))
    assert not kernel_holds_back(hand, led_of("3C"), False, parse_card("5C", TAROT))


def test_example_8_held_back_fool_is_neither_playable_nor_a_trump():
    hand = hand_of("Fool 9B")
    nine = {parse_card("9B", TAROT)}
    assert kernel_legal(hand, led_of("KB"), True, False) == nine
    assert kernel_legal(hand, led_of("3C"), True, False) == nine
    assert kernel_legal(hand, led_of("VII"), True, False) == nine
    assert kernel_legal(hand, None, True, False) == nine
    assert not kernel_holds_back(hand, led_of("3C"), True, parse_card("9B", TAROT))


def test_held_back_fool_is_played_in_the_last_trick():
    assert kernel_legal([FOOL], led_of("VII"), True, True) == {FOOL}
    assert kernel_legal([FOOL], None, True, True) == {FOOL}


def test_active_fool_is_a_trump_for_the_obligation():
    hand = hand_of("Fool XII 5S")
    assert kernel_legal(hand, led_of("3C"), False, True) == set(hand_of("Fool XII"))


def test_void_without_trumps_plays_anything():
    hand = hand_of("5S KD")
    assert kernel_legal(hand, led_of("3C"), False, False) == set(hand)
    assert kernel_legal(hand, led_of("XXI"), False, False) == set(hand)


@pytest.mark.parametrize(
    ("trick", "held_back_pos", "winner"),
    [
        ("6C 1C 3C", -1, 1),  # 1 is the highest pip of a round suit
        ("5S 10S II", -1, 2),
        ("XXI Fool I", -1, 1),  # the active Fool is the top trump
        ("Fool 7B KB QC", 0, 2),  # a held-back Fool lead: the next card sets led
        ("Fool X QC 3D", 0, 1),  # example 10
        ("7B Fool 5B", 1, 0),  # a held-back Fool never wins
        ("Fool", 0, -1),
        ("KC XXI Fool", -1, 2),
        ("KC 9S QC", -1, 0),  # off-suit discards never win
    ],
)
def test_example_9_trick_winners(trick, held_back_pos, winner):
    cards = parse_cards(trick, TAROT)
    assert kernel_winner(cards, held_back_pos) == winner
    assert ref_winner(cards, held_back_pos) == winner
