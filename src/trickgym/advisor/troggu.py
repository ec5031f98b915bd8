"""Troggu part of the hand advisor: Pass, Tapp and Solo valued on sampled deals.

For each deal drawn consistently with the seat's observation
(:func:`trickgym.agents.mc.sample_troggu.determinize`: the Tapp is unseen,
dealt with the other hands) and each candidate call:

- **Tapp** or **Solo** stands: every other seat passes, so the seat
  declares; the rule agents do the Tappist's discard and (7-8 players)
  partner call and play the deal at every seat. The contract is made when
  the declarer side's card points exceed half (57 of 114, rules §7);
  ``mean_points`` is the mean of those points (a Soloist's include the
  unseen Tapp);
- **Pass** lets the rule agents finish the round (all passing: Misère, or
  with 7-8 players a forced Tapp); only the seat's expected payoff is
  reported.

The payoff is the game's own (``rules._end_deal``). ``play="dd"`` lets
the rule agents discard and call, then solves the play with every card
seen (:mod:`~trickgym.advisor.solve_points`); a Misère (all passed) has no
declaring side and is played out by the rule agents (column ``no_side``).
``play="pimc"`` plays with PIMC agents in Python.
"""

from __future__ import annotations

from numba import njit

from trickgym.engine.loops import rule_act

from ..cards.decks import TAROT
from ..cards.notation import format_hand
from ..games.dealing import check_hands
from ..games.troggu.constants import AUCTION, HAND_SIZE, NO_CONTRACT, PASS
from ..games.troggu.rules import apply_action
from .codes import EXACT, PASSED_OUT, POINTS_DD_DEALS, POINTS_DD_NODE_LIMIT, POINTS_TABLE_LOG2

__all__ = ["HAS_DD", "MADE", "MEAN", "MEAN_MEANS", "candidates", "outcome", "settle", "state_for"]

HAS_DD = True
# play="dd": full-deal point-trick solves (trickgym.advisor.solve_points).
DD_DEALS, DD_NODE_LIMIT, DD_TABLE_LOG2 = POINTS_DD_DEALS, POINTS_DD_NODE_LIMIT, POINTS_TABLE_LOG2
MEAN = "mean_points"
# What the CLI table's legend says "made" and the mean column count.
MADE = "the declarer's side takes more than 57 of the 114 card points"
MEAN_MEANS = "the declarer's side's mean card points (of 114)"


@njit(cache=True)
def settle(t, seat, call, choice, rng, scratch, params):
    """Apply ``call`` for ``seat`` to ``t``; Tapp or Solo stands (the others pass), Pass not."""
    apply_action(t, call)
    while t.phase == AUCTION:
        p = t.to_move
        a = PASS if call != PASS else rule_act(t, p, rng, scratch, params)
        apply_action(t, a)


@njit(cache=True)
def outcome(t, seat):
    """``(status, points, made, payoff)`` for ``seat`` of the finished deal ``t``."""
    if t.contract == NO_CONTRACT:
        return PASSED_OUT, -1, False, t.payoffs[seat]
    return EXACT, t.declarer_points, t.made, t.payoffs[seat]


def state_for(game, hand, seat, dealer, turn_up):
    """A Troggu deal in which ``seat`` holds ``hand`` (the others' cards and the Tapp fixed)."""
    if turn_up is not None:
        raise ValueError(f"Troggu has no turn-up card: leave turn_up out (got {turn_up!r})")
    n = game.n_seats
    size = HAND_SIZE[n]
    (mask,) = check_hands([("hand", hand, size)], TAROT, need=f"a Troggu hand of {n} players has")
    rest = [c for c in range(62) if not mask >> c & 1]
    hands = [0] * n
    hands[seat] = mask
    for s in range(n):
        while s != seat and bin(hands[s]).count("1") < size:
            hands[s] |= 1 << rest.pop()
    tapp = sum(1 << c for c in rest)
    return game.deal(
        0,
        hands=[format_hand(h, TAROT) for h in hands],
        tapp=format_hand(tapp, TAROT),
        dealer=dealer,
    )


def candidates(state):
    """``(name, call, trump, declares, trumps_label)`` per legal call: Pass, Tapp, Solo."""
    return [(state.action_name(a), a, -1, a != PASS, "") for a in state.legal_actions()]
