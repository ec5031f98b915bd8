"""Phat part of the hand advisor: the pitch, which suit (and card) to lead first.

Phat has no auction: the pitcher's first card names trumps, and that is
the seat's only decision before the play. For each deal drawn consistently
with the seat's observation (:func:`trickgym.agents.mc.sample_phat.determinize`)
and each card the pitcher could lead, the card is led and the rule agents
play the deal out at every seat. A row per suit held ("Pitch S": spades
trumps) keeps the card of that suit with the highest expected payoff
(column ``card``). "Made" is the pitching team taking more phat in the
deal than the other (as in :func:`trickgym.analysis.pitch_frame`);
``mean_points`` is the pitching team's phat; the payoff is the game's own
(the seat's team's deal points, muck bonus included, less the other's).
``play="dd"`` solves the deal from the pitch on with every card seen
(:mod:`~trickgym.advisor.solve_points`: the pitching team's phat, the payoff
without the muck bonus); ``play="pimc"`` plays with PIMC agents in Python.
"""

from __future__ import annotations

from numba import njit

from ..cards.decks import STANDARD
from ..cards.notation import format_hand
from ..games.dealing import check_hands
from ..games.phat.rules import apply_action
from .codes import EXACT, POINTS_DD_DEALS, POINTS_DD_NODE_LIMIT, POINTS_TABLE_LOG2

__all__ = [
    "ADVISES_CARDS",
    "CARD_COLUMN",
    "HAS_DD",
    "MADE",
    "MEAN",
    "MEAN_MEANS",
    "TRUMPS",
    "candidates",
    "outcome",
    "settle",
    "state_for",
]

HAS_DD = True
# play="dd": full-deal point-trick solves (trickgym.advisor.solve_points).
DD_DEALS, DD_NODE_LIMIT, DD_TABLE_LOG2 = POINTS_DD_DEALS, POINTS_DD_NODE_LIMIT, POINTS_TABLE_LOG2
MEAN = "mean_points"
# What the CLI table's legend says "made" and the mean column count.
MADE = "the pitching team takes more phat than the other in the deal"
MEAN_MEANS = "the pitching team's mean phat (of 80)"
# What the CLI table's trumps column holds: the suit the pitched card names trumps.
TRUMPS = (
    "the trump suit the pitch names: the suit of the card led (of a suit's cards, the row "
    "keeps the one of highest E[payoff], column card)"
)
# What --play dd's payoff leaves out (trickgym.solvers.points_payoff.points_payoff).
DD_PAYOFF = "solved: the deal's phat difference, without the muck bonus"
ADVISES_CARDS = True  # the pitch is a card
CARD_COLUMN = True  # rows keep the best card of each suit


@njit(cache=True)
def settle(t, seat, call, choice, rng, scratch, params):
    """The pitch: ``seat`` leads card ``call``."""
    apply_action(t, call)


@njit(cache=True)
def outcome(t, seat):
    """``(status, phat, made, payoff)`` for ``seat`` of the finished deal ``t``."""
    team = seat % 2
    return EXACT, t.phat[team], t.phat[team] > t.phat[1 - team], t.payoffs[seat]


def state_for(game, hand, seat, dealer, turn_up):
    """A Phat deal in which ``seat`` holds ``hand``; the pitcher is the dealer's left."""
    if turn_up is not None:
        raise ValueError(f"Phat has no turn-up card: leave turn_up out (got {turn_up!r})")
    if (dealer + 1) % 4 != seat:
        raise ValueError(
            f"in Phat the only decision before the play is the pitch, by the dealer's left: "
            f"seat {seat} pitches when the dealer is seat {(seat - 1) % 4}, not {dealer}"
        )
    (mask,) = check_hands([("hand", hand, 13)], STANDARD, need="a Phat hand has")
    rest = [c for c in range(52) if not mask >> c & 1]
    hands = [0] * 4
    hands[seat] = mask
    for s in range(4):
        while s != seat and bin(hands[s]).count("1") < 13:
            hands[s] |= 1 << rest.pop()
    return game.deal(0, hands=[format_hand(h) for h in hands], pitcher=seat)


def candidates(state):
    """``(name, call, trump, declares, trumps_label)``: every card, grouped by suit."""
    out = []
    for a in state.legal_actions():
        suit = "SHDC"[a // 13]
        out.append((f"Pitch {suit}", a, -1, True, suit))
    return out
