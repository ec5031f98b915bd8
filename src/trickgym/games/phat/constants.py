"""Phat constants: teams, phases, card values and the race to 181.

Actions are the 52 cards (``13*suit + rank``, suits S H D C, ranks 2..A);
Phat has no calls. Teams: NS = seats 0 and 2 (team 0), EW = 1 and 3 (team 1).
"""

from __future__ import annotations

from ...cards.decks import STANDARD

N_SEATS = 4
N_CARDS = 52
N_TRICKS = 13
N_ACTIONS = 52
CALL_BASE = 52
TARGET = 181  # PH-D5
MUCK_BONUS = 8

PLAY = 0
DEAL_OVER = 1
PHASE_NAMES = ("play", "deal over")
TEAM_NAMES = ("NS", "EW")


def _rank(card: int) -> str:
    return STANDARD.rank_names[card]


# Phat per card (§2): PHAT_TRUMP if the card is a trump, PHAT_PLAIN otherwise.
PHAT_TRUMP = tuple(
    {"9": 18, "5": 10, "A": 4, "K": 3, "Q": 2, "J": 1}.get(_rank(c), 0) for c in range(N_CARDS)
)
PHAT_PLAIN = tuple({"9": 9, "5": 5}.get(_rank(c), 0) for c in range(N_CARDS))
MUCK = tuple({"10": 10, "A": 4, "K": 3, "Q": 2, "J": 1}.get(_rank(c), 0) for c in range(N_CARDS))
