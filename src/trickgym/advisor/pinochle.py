"""Pinochle part of the hand advisor: each bid level the seat could make, valued on sampled deals.

For each deal drawn consistently with the seat's observation
(:func:`trickgym.agents.mc.sample_pinochle.determinize`) and each candidate
call:

- a **bid** stands: every other seat passes, so the seat declares at that
  level; then the rule agents name trumps, bury the kitty (or pass cards)
  and play the hand at every seat. The contract is made when the declaring
  team's points (its meld, if saved by a trick, plus counters, the kitty's
  buried counters and the last trick) reach the bid; ``mean_points`` is
  the mean of those points;
- **Pass** lets the rule agents finish the auction and play the hand; only
  the seat's expected payoff is reported.

The payoff is the game's own: the seat's team's hand score less the other
team's (``rules._score_hand``). Rows: Pass (when legal) and the lowest
``LEVELS`` legal bids (a higher bid is made on a subset of the deals a
lower one is made on, with the same play). ``play="dd"`` lets the rule
agents name trumps and bury (or pass), then solves the play with every
card seen (:mod:`~trickgym.advisor.solve_points`), kitty and exchange modes
alike; ``play="pimc"`` plays with PIMC agents in Python.
"""

from __future__ import annotations

from numba import njit

from trickgym.engine.loops import rule_act

from ..cards.decks import PINOCHLE
from ..cards.notation import format_hand
from ..games.dealing import check_hands
from ..games.pinochle.constants import AUCTION, PASS
from ..games.pinochle.rules import apply_action
from .codes import EXACT, PASSED_OUT, POINTS_DD_DEALS, POINTS_DD_NODE_LIMIT, POINTS_TABLE_LOG2

__all__ = [
    "HAS_DD",
    "LEVELS",
    "MADE",
    "MEAN",
    "MEAN_MEANS",
    "candidates",
    "declarer_points",
    "outcome",
    "settle",
    "state_for",
]

HAS_DD = True
# play="dd": full-deal point-trick solves (trickgym.advisor.solve_points).
DD_DEALS, DD_NODE_LIMIT, DD_TABLE_LOG2 = POINTS_DD_DEALS, POINTS_DD_NODE_LIMIT, POINTS_TABLE_LOG2
MEAN = "mean_points"
# What the CLI table's legend says "made" and the mean column count.
MADE = "the declaring team's saved meld plus counters reach the bid"
MEAN_MEANS = "the declaring team's mean points (saved meld plus counters)"
# How --play dd scores (trickgym.solvers.points_payoff.points_payoff).
DD_PAYOFF = "solved: meld counts as saved once the team takes a counter"
LEVELS = 16  # bid levels shown (250..400 at the opening)


@njit(cache=True)
def settle(t, seat, call, choice, rng, scratch, params):
    """Apply ``call`` for ``seat`` to ``t``; a bid stands (the others pass), Pass lets them bid."""
    apply_action(t, call)
    while t.phase == AUCTION:
        p = t.to_move
        a = PASS if call != PASS else rule_act(t, p, rng, scratch, params)
        apply_action(t, a)


@njit(cache=True)
def declarer_points(t):
    """The declaring team's points of a finished hand: saved meld plus counters."""
    dc = t.declarer % 2
    return (t.team_meld[dc] if t.saved[dc] else 0) + t.counters[dc]


@njit(cache=True)
def outcome(t, seat):
    """``(status, points, made, payoff)`` for ``seat`` of the finished hand ``t``."""
    if t.passed_out:
        return PASSED_OUT, -1, False, t.payoffs[seat]
    return EXACT, declarer_points(t), t.made, t.payoffs[seat]


def state_for(game, hand, seat, dealer, turn_up):
    """A Pinochle deal in which ``seat`` holds ``hand`` (the others' cards in a fixed order)."""
    if turn_up is not None:
        raise ValueError(f"Pinochle has no turn-up card: leave turn_up out (got {turn_up!r})")
    kitty_mode = game.options.mode == "kitty"
    size = 11 if kitty_mode else 12
    (mask,) = check_hands(
        [("hand", hand, size)], PINOCHLE, need=f"a Pinochle hand ({game.options.mode} mode) has"
    )
    rest = [c for c in range(48) if not mask >> c & 1]
    hands = [0, 0, 0, 0]
    hands[seat] = mask
    for s in range(4):
        while s != seat and bin(hands[s]).count("1") < size:
            hands[s] |= 1 << rest.pop()
    kitty = sum(1 << c for c in rest)
    return game.deal(
        0,
        hands=[format_hand(h, PINOCHLE) for h in hands],
        kitty=format_hand(kitty, PINOCHLE) if kitty_mode else None,
        dealer=dealer,
    )


def candidates(state):
    """``(name, call, trump, declares, trumps_label)``: Pass and the lowest ``LEVELS`` bids."""
    out = []
    bids = 0
    for a in state.legal_actions():
        if a == PASS:
            out.append(("Pass", a, -1, False, ""))
        elif bids < LEVELS:
            out.append((state.action_name(a), a, -1, True, ""))
            bids += 1
    return out
