"""Whist-family trick kernels against a plain-Python reference (docs/rules/solowhist.md §6)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from trickgym.cards import STANDARD, parse_card, parse_hand
from trickgym.tricks import whist_legal, whist_trick_winner

SUIT_OF = STANDARD.suit_of


def ref_legal(hand: list[int], trick: list[int]) -> set[int]:
    """§6: leading: any card; else the led suit if held, else any card."""
    if not trick:
        return set(hand)
    led = SUIT_OF[trick[0]]
    follow = {c for c in hand if SUIT_OF[c] == led}
    return follow or set(hand)


def ref_winner(trick: list[int], trumps: int | None) -> int:
    """Highest trump if any trump was played, else highest card of the led suit."""
    rank = lambda c: c % 13  # noqa: E731
    trumped = [i for i, c in enumerate(trick) if trumps is not None and SUIT_OF[c] == trumps]
    pool = trumped or [i for i, c in enumerate(trick) if SUIT_OF[c] == SUIT_OF[trick[0]]]
    return max(pool, key=lambda i: rank(trick[i]))


positions = st.permutations(range(52)).flatmap(
    lambda perm: st.tuples(
        st.just(perm), st.integers(1, 13), st.integers(0, 3), st.sampled_from([None, 0, 1, 2, 3])
    )
)


def _mask(cards) -> np.uint64:
    return np.uint64(sum(1 << c for c in cards))


@settings(max_examples=3000, deadline=None)
@given(positions)
def test_legal_and_winner_match_reference(position):
    perm, hand_size, trick_len, trumps = position
    hand = list(perm[:hand_size])
    trick = list(perm[hand_size : hand_size + trick_len])
    led_mask = STANDARD.suit_masks[SUIT_OF[trick[0]]] if trick else np.uint64(0)
    legal = whist_legal(_mask(hand), led_mask)
    assert {c for c in range(52) if int(legal) >> c & 1} == ref_legal(hand, trick)

    full_trick = list(perm[:4])
    trump_mask = STANDARD.suit_masks[trumps] if trumps is not None else np.uint64(0)
    cards = np.array(full_trick, dtype=np.int64)
    assert whist_trick_winner(cards, 4, SUIT_OF, trump_mask) == ref_winner(full_trick, trumps)


def _winner(names, trumps):
    cards = np.array([parse_card(n) for n in names], dtype=np.int64)
    mask = STANDARD.suit_masks[trumps] if trumps is not None else np.uint64(0)
    return whist_trick_winner(cards, len(cards), SUIT_OF, mask)


def test_worked_example_8_trick_winner():
    clubs = 3
    assert _winner(["KH", "AH", "2C", "3H"], clubs) == 2  # 2♣ trumps
    assert _winner(["KH", "AH", "2C", "3H"], None) == 1  # Misère: A♥


def test_worked_example_8_legality():
    hearts = STANDARD.suit_masks[1]
    legal = whist_legal(np.uint64(parse_hand("QH 5C 9D")), hearts)
    assert int(legal) == parse_hand("QH")
    legal = whist_legal(np.uint64(parse_hand("5C 9D")), hearts)
    assert int(legal) == parse_hand("5C 9D")
