"""Slow plain-Python references for the double-dummy solver tests."""

from __future__ import annotations

import functools
import random


def random_position(rng: random.Random, cards: int) -> list[int]:
    """Four random hands of ``cards`` cards each (bitboards)."""
    pack = list(range(52))
    rng.shuffle(pack)
    return [sum(1 << c for c in pack[cards * p : cards * (p + 1)]) for p in range(4)]


def misere_position(rng: random.Random, cards: int, declarer: int) -> list[int]:
    """Hands of ``cards`` cards each, ``declarer``'s drawn from the lowest of the
    cards dealt (with some noise), as hands bid misère are: the positions where
    proving the declarer safe or forced is hard."""
    pack = list(range(52))
    rng.shuffle(pack)
    spread = rng.choice([2, 5, 13])
    dealt = sorted(pack[: 4 * cards], key=lambda c: c % 13 + spread * rng.random())
    rest = dealt[cards:]
    rng.shuffle(rest)
    hands = [0] * 4
    hands[declarer] = sum(1 << c for c in dealt[:cards])
    others = [p for p in range(4) if p != declarer]
    for k, p in enumerate(others):
        hands[p] = sum(1 << c for c in rest[cards * k : cards * (k + 1)])
    return hands


# ---- slow reference: plain minimax over every card, memoised at trick starts


def reference_value(hands, strain, leader, declarers, misere=False, trick=()):
    """Tricks of ``declarers`` from now on with best play, by brute force."""
    trumps = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": -1}[strain]
    side = frozenset(declarers)

    def beats(card, best):
        if card // 13 == best // 13:
            return card > best
        return card // 13 == trumps

    def wants_high(seat):
        return (seat in side) != misere

    @functools.cache
    def from_trick_start(hands, leader):
        if not hands[leader]:
            return 0
        return in_trick(hands, leader, ())

    def in_trick(hands, leader, played):
        seat = (leader + len(played)) % 4
        if len(played) == 4:
            best = 0
            for i in range(1, 4):
                if beats(played[i], played[best]):
                    best = i
            winner = (leader + best) % 4
            return (winner in side) + from_trick_start(hands, winner)
        hand = hands[seat]
        cards = [c for c in range(52) if hand >> c & 1]
        if played:
            follow = [c for c in cards if c // 13 == played[0] // 13]
            cards = follow or cards
        values = []
        for c in cards:
            rest = list(hands)
            rest[seat] = hand & ~(1 << c)
            values.append(in_trick(tuple(rest), leader, (*played, c)))
        return max(values) if wants_high(seat) else min(values)

    return in_trick(tuple(hands), leader, tuple(trick))


def reference_card_values(hands, strain, leader, declarers, misere=False, trick=()):
    seat = (leader + len(trick)) % 4
    hand = hands[seat]
    legal = [c for c in range(52) if hand >> c & 1]
    if trick:
        legal = [c for c in legal if c // 13 == trick[0] // 13] or legal
    out = {}
    for c in legal:
        rest = list(hands)
        rest[seat] = hand & ~(1 << c)
        out[c] = reference_value(rest, strain, leader, declarers, misere, (*trick, c))
    return out


def play_random_trick_start(rng, hands, leader, n):
    """Play ``n`` random legal cards from ``leader`` (a partial trick)."""
    hands = list(hands)
    trick = []
    for i in range(n):
        seat = (leader + i) % 4
        cards = [c for c in range(52) if hands[seat] >> c & 1]
        if trick:
            cards = [c for c in cards if c // 13 == trick[0] // 13] or cards
        c = rng.choice(cards)
        hands[seat] &= ~(1 << c)
        trick.append(c)
    return hands, trick
