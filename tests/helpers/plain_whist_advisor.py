"""Plain whist's part of the hand advisor: its calls, how one is settled and judged.

The advisor's compiled loop (:mod:`trickgym.advisor.kernels`) samples
deals with the game's ``determinize`` and plays them out with its rule
agents; a game brings ``settle`` and ``outcome`` (registered by its
description for the protocol's ``advise_settle`` and ``advise_outcome``
hooks) and, for the Python side, ``state_for`` and ``candidates``. Plain
whist has no solver, so only ``play="rule"`` (and ``"pimc"``) advise it.
"""

from __future__ import annotations

from numba import njit

from trickgym.advisor.codes import EXACT

from . import plain_whist as pw

__all__ = ["HAS_DD", "candidates", "outcome", "settle", "state_for"]

HAS_DD = False  # no double-dummy solver: play="dd" is refused, naming the game
MEAN = "mean_tricks"
MADE = "the seat's side took 7 tricks or more"


@njit(cache=True)
def settle(state, seat, call, choice, rng, scratch, params):
    """``seat`` makes ``call`` (Pass or Double); the rule agents make the other calls later."""
    pw.apply_action(state, call)


@njit(cache=True)
def outcome(state, seat):
    """``(status, tricks, made, payoff)`` for ``seat``: its side's tricks of the finished deal."""
    tricks = state.tricks_won[seat % 2] + state.tricks_won[seat % 2 + 2]
    return EXACT, tricks, tricks >= 7, state.payoffs[seat]


def state_for(game, hand, seat, dealer, turn_up):
    """A deal in which ``seat`` holds ``hand`` (the others get the other cards in order)."""
    from trickgym.cards.notation import parse_hand

    mask = parse_hand(hand)
    rest = [c for c in range(pw.N_CARDS) if not mask >> c & 1]
    array = game.new_match(0, dealer=dealer)
    record = array[0]
    hands = [0] * pw.N_SEATS
    hands[seat] = mask
    for s in range(pw.N_SEATS):
        while s != seat and bin(hands[s]).count("1") < pw.N_TRICKS:
            hands[s] |= 1 << rest.pop()
    for s in range(pw.N_SEATS):
        record["hands"][s] = hands[s]
        record["initial_hands"][s] = hands[s]
    # the turn-up is the dealer's lowest card unless named
    dealt = [c for c in range(pw.N_CARDS) if hands[dealer] >> c & 1]
    record["turn_up"] = dealt[0] if turn_up is None else turn_up
    pw.reset_deal(record)
    from trickgym.api import State

    return State(game, array)


def candidates(state):
    """``(name, call, choice, declares, trumps label)`` of each call: Pass and Double."""
    trumps = "SHDC"[int(state.record["trumps"])]
    return [(name, pw.CALL_BASE + i, -1, True, trumps) for i, name in enumerate(pw.CALL_NAMES)]
