"""Pinochle trick kernels against a plain-Python reference of rules §7.1-7.2."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trickgym.cards import PINOCHLE, parse_cards
from trickgym.tricks import pinochle_beats, pinochle_legal, pinochle_trick_winner

# --- reference, written from pinochle.md without the bit layout -------------

_RANKS_HIGH_TO_LOW = ["A", "10", "K", "Q", "J", "9"]  # §2


def suit(card: int) -> int:
    return int(PINOCHLE.suit_of[card])


def rank(card: int) -> int:
    return len(_RANKS_HIGH_TO_LOW) - _RANKS_HIGH_TO_LOW.index(PINOCHLE.rank_names[card])


def ref_beats(c: int, w: int, t: int) -> bool:
    """§7.1 ``beats``: same suit and higher rank, or a trump on a non-trump."""
    return (suit(c) == suit(w) and rank(c) > rank(w)) or (suit(c) == t and suit(w) != t)


def ref_winner(trick: list[int], t: int) -> int:
    """§7.2: highest trump, else highest of the led suit; the earlier of two identical."""
    pool = [p for p, c in enumerate(trick) if suit(c) == t]
    pool = pool or [p for p, c in enumerate(trick) if suit(c) == suit(trick[0])]
    best_rank = max(rank(trick[p]) for p in pool)
    return min(p for p in pool if rank(trick[p]) == best_rank)


def ref_legal(hand: list[int], trick: list[int], t: int, must_head: bool) -> set[int]:
    """§7.1 pseudo-code; ``must_head=False`` drops the "higher" filters (PN-D11)."""
    if not trick:
        return set(hand)
    led = suit(trick[0])
    win = trick[ref_winner(trick, t)]
    same = {c for c in hand if suit(c) == led}
    if same:
        if led != t and suit(win) == t:
            return same
        higher = {c for c in same if ref_beats(c, win, t)}
        return (higher if must_head else set()) or same
    trumps = {c for c in hand if suit(c) == t}
    if trumps:
        higher = {c for c in trumps if ref_beats(c, win, t)}
        return (higher if must_head else set()) or trumps
    return set(hand)


# --- kernel adapters ---------------------------------------------------------


def mask_of(cards) -> np.uint64:
    return np.uint64(sum(1 << c for c in cards))


def cards_of(mask) -> set[int]:
    mask = int(mask)
    return {c for c in range(64) if mask >> c & 1}


def suit_mask(s: int) -> np.uint64:
    return np.uint64(PINOCHLE.suit_masks[s])


def kernel_winner(trick: list[int], t: int) -> int:
    cards = np.array(trick, dtype=np.int64)
    return int(pinochle_trick_winner(cards, len(trick), PINOCHLE.suit_of, suit_mask(t)))


def kernel_legal(hand: list[int], trick: list[int], t: int, must_head: bool) -> set[int]:
    if trick:
        led_mask = suit_mask(suit(trick[0]))
        win_card = trick[ref_winner(trick, t)]
    else:
        led_mask, win_card = np.uint64(0), -1
    return cards_of(pinochle_legal(mask_of(hand), led_mask, suit_mask(t), win_card, must_head))


# --- random positions --------------------------------------------------------

ALL_CARDS = range(PINOCHLE.n_cards)


@st.composite
def positions(draw):
    """Trump suit, a hand and a disjoint partial trick from a few suits.

    Few suits make following, heading and identical copies frequent.
    """
    t = draw(st.integers(0, 3))
    suits = draw(st.sets(st.integers(0, 3), min_size=1))
    pool = [c for c in ALL_CARDS if suit(c) in suits]
    hand = draw(st.sets(st.sampled_from(pool), min_size=1, max_size=12))
    rest = [c for c in pool if c not in hand] or [c for c in ALL_CARDS if c not in hand]
    trick = draw(st.lists(st.sampled_from(rest), unique=True, max_size=3))
    return t, sorted(hand), trick, draw(st.booleans())


@settings(max_examples=3000, deadline=None)
@given(positions())
def test_legal_matches_reference(position):
    t, hand, trick, must_head = position
    assert kernel_legal(hand, trick, t, must_head) == ref_legal(hand, trick, t, must_head)


@settings(max_examples=2000, deadline=None)
@given(positions())
def test_trick_winner_matches_reference(position):
    t, hand, trick, _ = position
    # Complete the trick with hand cards so up to four cards are compared.
    trick = [*trick, *hand][:4]
    assert kernel_winner(trick, t) == ref_winner(trick, t)


def test_beats_matches_reference_on_every_pair():
    for t in range(4):
        trump_mask = suit_mask(t)
        for c in ALL_CARDS:
            for w in ALL_CARDS:
                if c != w:
                    got = bool(pinochle_beats(c, w, PINOCHLE.suit_of, trump_mask))
                    assert got == ref_beats(c, w, t), (c, w, t)


# --- worked examples (pinochle.md §11, trump hearts unless stated) -----------

HEARTS = 1


def example(trick: str, hand: str, must_head: bool = True, t: int = HEARTS) -> set[str]:
    """Legal plays as card names; trick and hand are parsed together so copies differ."""
    cards = parse_cards(f"{trick} {hand}", PINOCHLE)
    n_trick = len(trick.split())
    legal = kernel_legal(cards[n_trick:], cards[:n_trick], t, must_head)
    return {PINOCHLE.card_names[c] for c in legal}


@pytest.mark.parametrize(
    ("trick", "hand", "legal"),
    [
        ("10S", "AS KS 9H", {"AS"}),  # 5: must head
        ("10S", "KS 9S QH", {"KS", "9S"}),  # 5: cannot beat, must follow
        ("KS JH", "AS 9S QH", {"AS", "9S"}),  # 6: trick already trumped
        ("KS JH", "QH 9H AD", {"QH"}),  # 7: must over-trump
        ("KS JH", "9H AD", {"9H"}),  # 7: must trump, under-trump if unable
        ("KS JH", "AD QC", {"AD", "QC"}),  # 7: void in both
        ("QH", "KH 9H AS", {"KH"}),  # 8: trump led, must head
        ("AD", "AD 10D KS", {"AD", "10D"}),  # 9: an identical copy does not beat
        ("KD", "KD AD 9D", {"AD"}),
        ("", "AS 9H", {"AS", "9H"}),  # leading
    ],
)
def test_worked_examples_legal(trick, hand, legal):
    assert example(trick, hand) == legal


@pytest.mark.parametrize(
    ("trick", "hand", "legal"),
    [
        ("10S", "AS KS 9H", {"AS", "KS"}),
        ("KS JH", "QH 9H AD", {"QH", "9H"}),
        ("QH", "KH 9H AS", {"KH", "9H"}),
        ("KS JH", "AD QC", {"AD", "QC"}),
    ],
)
def test_without_must_head_only_follow_and_trump_remain(trick, hand, legal):
    assert example(trick, hand, must_head=False) == legal


@pytest.mark.parametrize("first_copy", [0, 1])
def test_example_9_first_of_identical_cards_wins(first_copy):
    ace, ten, nine = parse_cards("AD 10D 9D", PINOCHLE)
    trick = [ace + first_copy, ace + 1 - first_copy, ten, nine]
    assert kernel_winner(trick, HEARTS) == 0


@pytest.mark.parametrize(
    ("trick", "winner"),
    [
        ("KS JH 9H AS", 1),  # the first trump
        ("KS JH QH AS", 2),  # over-trumped
        ("KS JH JH AS", 1),  # identical trumps: the first
        ("KS AD AC QS", 0),  # off-suit discards never win
        ("9H 9H", 0),
    ],
)
def test_trick_winners(trick, winner):
    cards = parse_cards(trick, PINOCHLE)
    assert kernel_winner(cards, HEARTS) == winner
    assert ref_winner(cards, HEARTS) == winner
