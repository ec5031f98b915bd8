"""Troggu constants: player counts, phases, contracts, actions and card sets.

Actions: ``0..61`` are cards (played, discarded by the Tappist, or named as
the partner's trump in the partner call), then ``62`` Pass, ``63`` Tapp,
``64`` Solo and ``65`` "no partner". Seats are numbered in playing order,
which runs anticlockwise (TR-D1): ``next(s) = (s + 1) % n``.
"""

from __future__ import annotations

from ...cards.decks import TAROT

MIN_PLAYERS = 3
MAX_PLAYERS = 8
N_CARDS = 62
HAND_SIZE = {3: 18, 4: 13, 5: 11, 6: 9, 7: 8, 8: 7}  # rules §3 (TR-D3)
TAPP_SIZE = {n: N_CARDS - n * h for n, h in HAND_SIZE.items()}  # 8, 10, 7, 8, 6, 6

# Phases of a deal.
AUCTION = 0
DISCARD = 1  # the Tappist discards as many cards as the Tapp held
CALL = 2  # 7-8 players: the Tappist names a trump II-XX, or none (TR-D9)
PLAY = 3
DEAL_OVER = 4
PHASE_NAMES = ("auction", "discard", "partner call", "play", "deal over")

# Contracts.
NO_CONTRACT = 0  # the auction is still open
MISERE = 1
TAPP = 2
FORCED_TAPP = 3  # 7-8 players, all passed (rules §4, TR-D10)
SOLO = 4
CONTRACT_NAMES = ("None", "Misère", "Tapp", "Forced Tapp", "Solo")
BASE = (0, 0, 10, 10, 20)  # game points per multiplier step (§7)

# Actions.
CALL_BASE = 62
PASS = 62
TAPP_CALL = 63
SOLO_CALL = 64
NO_PARTNER = 65
N_ACTIONS = 66
CALL_NAMES = ("Pass", "Tapp", "Solo", "No partner")
CALL_LETTERS = "-TSn"  # compact auction strings

# Cards by id (see trickgym.cards.decks.TAROT).
TRUMP_I = 0
TRUMP_XXI = 20
FOOL = 21
TRUMPS = int(TAROT.suit_masks[0])
KINGS = sum(1 << c for c in range(N_CARDS) if TAROT.rank_names[c] == "K")
NEVER_DISCARD = (1 << FOOL) | (1 << TRUMP_XXI) | (1 << TRUMP_I)  # the 5-point trumps (§5)
CALLABLE = sum(1 << c for c in range(1, 20))  # II..XX (TR-D9)
TOTAL_POINTS = 114
HALF = 57
