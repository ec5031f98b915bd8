"""Solo Whist constants: phases, contracts, actions, and their names.

Actions are small integers: ``0..51`` play a card (standard pack layout),
then the auction calls, the Cop re-entry's Decline, and the four trump
choices of an Abundance declarer. Contract ``c >= SOLO`` is bid with action
``CALL_BASE + 1 + c``.
"""

from __future__ import annotations

N_SEATS = 4
N_CARDS = 52
N_TRICKS = 13

# Phases of a deal.
AUCTION = 0
COP_OFFER = 1  # eldest may Cop an unaccepted Prop (SW-D14)
UPGRADE = 2  # the lone proposer upgrades or passes (SW-D13)
TRUMP_CHOICE = 3  # Abundance declarer names trumps (SW-D7)
PLAY = 4
DEAL_OVER = 5
PHASE_NAMES = ("auction", "cop offer", "upgrade", "trump choice", "play", "deal over")

# Contracts, in overcalling order (rules §4).
NO_CONTRACT = 0  # passed out
PROP_COP = 1
SOLO = 2
MISERE = 3
ABUNDANCE = 4
ABUNDANCE_IN_TRUMPS = 5
MISERE_OUVERTE = 6
ABUNDANCE_DECLARED = 7
N_CONTRACTS = 8
CONTRACT_NAMES = (
    "Passed out",
    "Prop & Cop",
    "Solo",
    "Misère",
    "Abundance",
    "Abundance in Trumps",
    "Misère Ouverte",
    "Abundance Declared",
)

# Actions.
CALL_BASE = 52
PASS = 52
PROP = 53
COP = 54
SOLO_CALL = 55  # == CALL_BASE + 1 + SOLO
MISERE_CALL = 56
ABUNDANCE_CALL = 57
ABUNDANCE_IN_TRUMPS_CALL = 58
MISERE_OUVERTE_CALL = 59
ABUNDANCE_DECLARED_CALL = 60
DECLINE = 61
TRUMP_BASE = 62  # TRUMP_BASE + suit (S H D C)
N_ACTIONS = 66
N_CALLS = N_ACTIONS - CALL_BASE

# The calls of the contracts from Solo up bear their names (SOLO_CALL == CALL_BASE + 1 + SOLO).
CALL_NAMES = (
    "Pass",
    "Prop",
    "Cop",
    *CONTRACT_NAMES[SOLO:],
    "Decline",
    "Trumps S",
    "Trumps H",
    "Trumps D",
    "Trumps C",
)
# One letter per call, for compact auction strings in simulation tables.
CALL_LETTERS = "-PCSMATODxshdc"

# Scoring (rules §4): goal tricks, base units, over/under-trick points.
GOAL = (0, 8, 5, 0, 9, 9, 0, 13)
BASE_UNITS = (0, 1, 1, 2, 3, 3, 4, 6)
TRICK_POINTS = (0, 1, 1, 0, 2, 2, 0, 0)

MAX_CALLS = 16  # seven raises, one Cop, four passes, re-entry, upgrade, trump: 15
