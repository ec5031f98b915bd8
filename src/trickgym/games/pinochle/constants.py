"""Pinochle constants: phases, actions, card layout and the meld table.

Cards are the 48 of the Pinochle pack: bit ``12*suit + 2*rank + copy`` with
suits S H D C and ranks 9 J Q K 10 A (0..5). Actions ``0..47`` play, discard
or pass a card; ``48`` is Pass, ``49..52`` name trumps S H D C, and
``53 + i`` bids ``min_bid + 10*i``. Teams: NS = seats 0, 2 (team 0), EW = 1,
3 (team 1); play runs clockwise.
"""

from __future__ import annotations

N_SEATS = 4
N_CARDS = 48
CALL_BASE = 64  # legal sets: low word = actions 0..63, high word = actions 64..127
PASS = 48
TRUMP_BASE = 49
BID_BASE = 53
MAX_ACTIONS = 128
MAX_BID_LEVELS = MAX_ACTIONS - BID_BASE  # 75
MAX_BID = 100_000  # bounds for bid and target options, far above any real game
MAX_TARGET = 1_000_000

# Ranks inside a suit, weakest first.
NINE, JACK, QUEEN, KING, TEN, ACE = range(6)
RANK_NAMES = ("9", "J", "Q", "K", "10", "A")

# Phases of a hand.
AUCTION = 0
TRUMP = 1  # the declarer names trumps
DISCARD = 2  # kitty mode: the declarer buries 4 cards
PASS_IN = 3  # exchange mode: the partner passes cards to the declarer
PASS_BACK = 4  # exchange mode: the declarer passes cards back
PLAY = 5
HAND_OVER = 6
PHASE_NAMES = ("auction", "trump", "discard", "pass to declarer", "pass back", "play", "hand over")

KITTY_MODE = 0
EXCHANGE_MODE = 1
MODES = ("kitty", "exchange")
KITTY_SIZE = 4
COUNTER_POINTS = 10  # every A, 10 and K (PN-D17)
LAST_TRICK_POINTS = 10

# Meld values (§6, PN-D12, PN-D18).
RUN, DOUBLE_RUN, ROYAL_MARRIAGE, MARRIAGE, DIX = 150, 1500, 40, 20, 10
AROUND = {ACE: (100, 1000), KING: (80, 800), QUEEN: (60, 600), JACK: (40, 400)}
PINOCHLE, DOUBLE_PINOCHLE = 40, 300

TEAM_NAMES = ("NS", "EW")
SUIT_LETTERS = "SHDC"
