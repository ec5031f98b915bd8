"""Solo Whist part of the hand advisor: every call the seat could make, valued on sampled deals.

For each deal drawn consistently with the seat's observation
(:func:`trickgym.agents.mc.sample_solowhist.determinize`, the Monte Carlo
agents' sampler) and each candidate call, the call is applied to the
sampled deal and the auction is settled (:func:`settle`):

- a contract call (Solo, Misère, Abundance, Abundance in Trumps, Misère
  Ouverte, Abundance Declared, and from the upgrade the same) **stands**:
  every other seat passes, and the seat is the lone declarer;
- **Prop** stands too, but needs a Cop: the other seats answer by the rule
  agent allowed only Pass or Cop (no overcall), eldest's Cop re-entry is
  the rule agent's; if nobody accepts, the seat passes in the upgrade and
  the deal is passed out (payoff 0; such deals count in ``deals`` but not in
  ``played``);
- **Cop** (accepting a standing Prop) stands: the others pass, the contract
  is Prop & Cop with the proposer;
- **Abundance** is valued once per trump suit the declarer may name; the
  advisor reports the suit of highest expected payoff (named before the
  play, so chosen on the averages, not deal by deal);
- **Pass** and **Decline** do not declare: the rule agents finish the
  auction for every seat (the seat's own later Cop re-entry or upgrade
  included) and the contract reached is played or solved; only the seat's
  expected payoff is reported.

The contract reached is then played out by the rule agents at every seat
(``play="rule"``) or solved double dummy from the first lead with the
rules' own leader, trumps and declaring side (``play="dd"``,
:func:`trickgym.advisor.solve_solowhist.dd_outcome`);
payoffs always come from the rules' ``settlement`` / ``deal_payoffs``.
PIMC play (``play="pimc"``) settles the auction here and plays in Python.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.agents.rule.solowhist import rule_action
from trickgym.engine.loops import rule_act

from ..cards.decks import STANDARD
from ..cards.notation import format_card, format_hand, parse_card
from ..checks import is_int
from ..games.dealing import check_hands
from ..games.solowhist.constants import (
    ABUNDANCE_CALL,
    ABUNDANCE_DECLARED_CALL,
    AUCTION,
    CALL_BASE,
    CALL_NAMES,
    COP,
    COP_OFFER,
    DEAL_OVER,
    DECLINE,
    MISERE_CALL,
    MISERE_OUVERTE_CALL,
    NO_CONTRACT,
    PASS,
    PLAY,
    PROP,
    TRUMP_BASE,
    TRUMP_CHOICE,
)
from ..games.solowhist.rules import apply_action, observe_core
from .codes import EXACT, PASSED_OUT

__all__ = [
    "HAS_DD",
    "MADE",
    "MEAN_MEANS",
    "TRUMPS",
    "candidates",
    "outcome",
    "settle",
    "state_for",
]

HAS_DD = True
# What the CLI table's legend says "made" and the mean column count.
MADE = (
    "the declaring side takes its contract's tricks (a misère: none); a Prop nobody "
    "accepts is passed out, not played"
)
MEAN_MEANS = "the declaring side's mean tricks over the deals counted exactly"
# What the CLI table's trumps column holds.
TRUMPS = "the trump suit the call is played in (NT: none; Abundance: the suit of highest E[payoff])"

_ANSWER_BITS = np.uint64((1 << (PASS - CALL_BASE)) | (1 << (COP - CALL_BASE)))


@njit(cache=True)
def settle(t, seat, call, trump, rng, obs, params):
    """Apply ``call`` for ``seat`` to state ``t`` and settle the auction (see module docstring).

    ``trump`` is the suit the seat names if an Abundance of its own reaches
    the trump choice (-1: the rule agent's choice). Leaves ``t`` in the play
    or, passed out, over.
    """
    apply_action(t, call)
    stands = call != PASS and call != DECLINE
    while t.phase != PLAY and t.phase != DEAL_OVER:
        p = t.to_move
        if t.phase == TRUMP_CHOICE:
            if p == seat and trump >= 0:
                a = TRUMP_BASE + trump
            else:
                a = rule_act(t, p, rng, obs, params)
        elif not stands:
            a = rule_act(t, p, rng, obs, params)
        elif p == seat:
            a = PASS  # the lone proposer's upgrade: an unaccepted Prop is not raised
        elif t.phase == AUCTION and call == PROP:
            observe_core(t, p, obs[0])
            obs[0].legal_calls &= _ANSWER_BITS
            a = rule_action(obs[0], params[p].values, rng)
        elif t.phase == COP_OFFER:
            a = rule_act(t, p, rng, obs, params)
        else:
            a = PASS
        apply_action(t, a)


@njit(cache=True)
def outcome(t, seat):
    """``(status, tricks, made, payoff)`` for ``seat`` of the deal ``t``, played or passed out."""
    if t.contract == NO_CONTRACT:
        return PASSED_OUT, -1, False, t.payoffs[seat]
    return EXACT, t.declarer_tricks, t.made, t.payoffs[seat]


# --------------------------------------------------------------- Python side


def state_for(game, hand, seat, dealer, turn_up):
    """A Solo Whist deal in which ``seat`` holds ``hand`` and ``dealer`` turned up ``turn_up``.

    The other seats get the remaining cards in a fixed order: the advisor
    reads only the seat's observation, so who holds them does not matter.
    """
    (mask,) = check_hands([("hand", hand, 13)], STANDARD, need="a Solo Whist hand has")
    if turn_up is None:
        raise ValueError(
            "turn_up is required for Solo Whist: the dealer's exposed last card (e.g. '2S'), "
            "which fixes the trump suit of Solo and Prop & Cop"
        )
    if isinstance(turn_up, str):
        try:
            up = parse_card(turn_up, STANDARD)
        except ValueError as err:
            raise ValueError(f"turn_up {turn_up!r}: {err}") from None
    elif is_int(turn_up) and 0 <= turn_up < 52:
        up = int(turn_up)
    else:
        raise ValueError(
            f"turn_up must be a card name such as '2S' or '10H' (or an id 0..51), got {turn_up!r}"
        )
    in_hand = bool(mask >> up & 1)
    if dealer == seat and not in_hand:
        raise ValueError(
            f"turn_up {format_card(up)} is not in the hand {hand!r}: seat {seat} is the dealer, "
            f"and the dealer's turned-up card is its own"
        )
    if dealer != seat and in_hand:
        raise ValueError(
            f"turn_up {format_card(up)} is in the hand {hand!r} of seat {seat}, but the dealer "
            f"(seat {dealer}) holds the turned-up card: give a card the hand does not hold"
        )
    rest = [c for c in range(52) if not (mask | (1 << up)) >> c & 1]
    hands = [0, 0, 0, 0]
    hands[seat] = mask
    if dealer != seat:
        hands[dealer] = 1 << up
    for s in range(4):
        while s != seat and bin(hands[s]).count("1") < 13:
            hands[s] |= 1 << rest.pop()
    return game.deal(
        0, hands=[format_hand(h) for h in hands], dealer=dealer, turn_up=format_card(up)
    )


def candidates(state):
    """``(name, call, trump, declares, trumps_label)`` per variant valued for the seat to move.

    One per legal call, except Abundance: one per trump suit (the advisor
    keeps the best). ``trump`` is the suit the seat would name (-1: none
    to name).
    """
    turn = "SHDC"[int(state.record["turn_up"]) // 13]
    out = []
    for a in state.legal_actions():
        name = CALL_NAMES[a - CALL_BASE]
        if a == ABUNDANCE_CALL:
            out.extend((name, a, s, True, "SHDC"[s]) for s in range(4))
        elif a in (PASS, DECLINE):
            out.append((name, a, -1, False, ""))
        elif a >= TRUMP_BASE:
            out.append((name, a, -1, True, "SHDC"[a - TRUMP_BASE]))
        elif a in (MISERE_CALL, MISERE_OUVERTE_CALL, ABUNDANCE_DECLARED_CALL):
            out.append((name, a, -1, True, "NT"))
        else:
            out.append((name, a, -1, True, turn))
    return out
