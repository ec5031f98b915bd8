"""Slow plain-Python references for the point-trick solver tests.

The reference knows nothing of the solver: it steps the game's own kernels
(``legal_sets_at``, ``apply_action_at``) on copies of the state array and
reads the side's points off the finished deal's own scoring fields.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import trickgym
from trickgym.agents.positions import rule_position
from trickgym.solvers.points_payoff import points_payoff

GAME_CONFIGS = [
    ("phat", {}),
    ("pinochle", {}),
    ("pinochle", {"mode": "exchange"}),
    *[("troggu", {"players": n}) for n in range(3, 9)],
]


def side_seats(game, rec) -> list[int]:
    """Seats of the side whose points the solver counts."""
    if game.name == "phat":
        return [int(rec["pitcher"]) % 2, int(rec["pitcher"]) % 2 + 2]
    if game.name == "pinochle":
        return [int(rec["declarer"]) % 2, int(rec["declarer"]) % 2 + 2]
    seats = [int(rec["declarer"])]
    if int(rec["partner"]) >= 0 and int(rec["partner"]) != seats[0]:
        seats.append(int(rec["partner"]))
    return seats


def _points(game, cards: int) -> int:
    return int(sum(int(game.deck.points[c]) for c in range(game.deck.n_cards) if cards >> c & 1))


def side_points_now(game, rec) -> int:
    """The side's points so far, from the piles (Phat: its phat)."""
    if game.name == "phat":
        return int(rec["phat"][int(rec["pitcher"]) % 2])
    if game.name == "pinochle":
        dc = int(rec["declarer"]) % 2
        return 10 * (bin(int(rec["won"][dc]) & _counters(game)).count("1")
                     + bin(int(rec["discards"]) & _counters(game)).count("1"))  # fmt: skip
    return sum(_points(game, int(rec["won"][s])) for s in side_seats(game, rec))


def _counters(game) -> int:
    ranks = game.deck.rank_names
    return sum(1 << c for c in range(game.deck.n_cards) if ranks[c] in ("A", "10", "K"))


# Phat's race-aware value (trickgym.solvers.points_phat), written again from the rules.
PHAT_RACE_WON, PHAT_RACE_LOST = 81, -1


def final_side_points(game, rec) -> int:
    """The side's points once the deal is over, by the rules' own scoring fields.

    Phat: the pitcher's team's phat, unless the game ended in the deal (at the
    target, mid-deal or by the muck bonus): won, ``81 + 80 - the other's phat``;
    lost, ``-1 - 80 + the team's phat`` (the value's refinement inside a class).
    """
    if game.name == "phat":
        s = int(rec["pitcher"]) % 2
        if bool(rec["game_over"]):
            if int(rec["winner"]) == s:
                return PHAT_RACE_WON + 80 - int(rec["phat"][1 - s])
            return PHAT_RACE_LOST - 80 + int(rec["phat"][s])
        return int(rec["phat"][s])
    if game.name == "pinochle":
        return int(rec["counters"][int(rec["declarer"]) % 2])
    return sum(int(rec["points"][s]) for s in side_seats(game, rec))


def reference_final(game, array, alpha=-(10**9), beta=10**9) -> int:
    """The side's final points with best play by all, by alpha-beta over every legal card."""
    k = game.kernels
    over, _, to_move = k.status_at(array, 0)
    if over:
        return final_side_points(game, array[0])
    cards, _ = k.legal_sets_at(array, 0)
    side = int(to_move) in side_seats(game, array[0])
    best = -(10**9) if side else 10**9
    for c in range(64):
        if not int(cards) >> c & 1:
            continue
        child = array.copy()
        k.apply_action_at(child, 0, c)
        v = reference_final(game, child, alpha, beta)
        if side:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


def prepared(game, array):
    """A copy for the reference (the game as it is: Phat's race to its target included)."""
    return array.copy()


def phat_race(state, need_own, need_other, carry=0):
    """A copy of the Phat ``state`` with its match scores set so that the pitcher's team
    needs ``need_own`` more points to reach the target and the other team ``need_other``
    (each at least 1; the phat already won this deal stays in the scores), and ``carry``
    (a multiple of 8) on the muck bonus."""
    from trickgym.api import State

    array = state.array.copy()
    rec = array[0]
    s = int(rec["pitcher"]) % 2
    target = int(rec["target"])
    rec["scores"][s] = target - need_own
    rec["scores"][1 - s] = target - need_other
    rec["carry"] = carry
    return State(state.game, array)


@njit(cache=True)
def _payoff_at(array, seat, final):
    return points_payoff(array[0], seat, final)


def payoff_of(game, array, seat, final) -> float:
    """``seat``'s payoff when the side ends the deal of ``array[0]`` with ``final`` points, by
    the agents' scoring (``points_payoff``) of the prepared position."""
    return float(_payoff_at(prepared(game, array), seat, final))


# Cards in hand of the endings checked in every run, per game (Troggu: per table size); the
# reference is plain Python, its cost grows with the table size.
ENDING_CARDS = {"phat": 3, "pinochle": 3, 3: 4, 4: 3, 5: 3, 6: 2, 7: 2, 8: 2}


def ending_cards(name, opts) -> int:
    """Cards in the mover's hand of the endings checked for ``name`` with ``opts``."""
    return ENDING_CARDS[opts["players"]] if name == "troggu" else ENDING_CARDS[name]


def held_back_fool_endings():
    """Two-card Troggu endings at 3, 4 and 5 players where a Fool is held back: ``(game,
    state)``, up to 3, 6 and 9 of them (the Fool's exchange makes a deal depend on the piles)."""
    for players in (3, 4, 5):
        game = make("troggu", {"players": players})
        found = 0
        for seed in range(400):
            state = ending(game, seed, 2)
            if state is None or int(state.record["held_back"]) == 0:
                continue
            yield game, state
            found += 1
            if found >= 3 * (players - 2):
                break


def ending(game, seed, cards_left):
    """A rule-play state with at most ``cards_left`` cards in the mover's hand, or None."""
    return rule_position(game, seed, cards_left)


def make(name, opts):
    return trickgym.game(name, **opts)


__all__ = [
    "ENDING_CARDS",
    "GAME_CONFIGS",
    "PHAT_RACE_LOST",
    "PHAT_RACE_WON",
    "ending",
    "ending_cards",
    "final_side_points",
    "held_back_fool_endings",
    "make",
    "np",
    "payoff_of",
    "phat_race",
    "prepared",
    "reference_final",
    "side_points_now",
]  # fmt: skip
