"""Phat's payoff true to the race: a deal's solved value as a seat's chance to win the game.

A Phat team plays for the game (the race to 181), not for the deal's phat.
The point-trick solver values a deal from the pitcher's team's view with
the race in it (:mod:`trickgym.solvers.points_phat`): ``v >= RACE_WON``
the team reaches the target in the deal (mid-deal or by the muck bonus),
``v <= RACE_LOST`` the other team does, else ``v`` is the team's phat
(``0..80``) and the game goes on. :func:`phat_utility` turns ``v`` into
``seat``'s probability of winning the game:

- won 1, lost 0 (for the pitcher's team; the other team's is ``1 - u``);
- else the deal's scores are the scores at the deal's start plus the phat
  (``v`` and ``80 - v``) and the muck bonus (8 plus the carry, or the carry
  grows by 8 on a 40-40 tie), and the game's chance is read off the
  win-probability table ``W`` (``trickgym/games/phat/win_table.npz``,
  measured by ``experiments/phat_win_table.py``): ``W[a, b, c]`` is the
  chance that the team pitching the next deal wins from scores ``a`` to
  ``b`` with ``8 * c`` carried, every seat a rule agent. The next deal is
  pitched by the other team (the pitch moves one seat), so the pitcher's
  team's chance is ``1 - W[b', a', c']``.

What ``v`` does not tell (the muck bonus of a deal that leaves both teams
short of the target) is an expectation: the bonus is known once a team
holds more than 40 muck in ``st``; otherwise its result is weighted by the
table's ``P(result | the pitching team's phat)`` (``BONUS``, the bonus no
less likely with more phat: so the utility is non-decreasing in ``v``, as
the solver's minimax needs). That weighting ignores what ``v`` implies
when the race was live (a bonus that would have reached the target would
have made ``v`` a win or a loss): conditioning on it would make the
utility fall where a bonus starts to reach the target. Scores are shifted by
``target - 181`` for other targets (experiments only: the table was
measured at 181); a match of several games is valued by its current game.

Call it from compiled code: ``from trickgym.agents.phat_race import
phat_utility``, ``phat_utility(st, seat, v) -> float`` with ``st`` a Phat
state record (any point of the deal: the root of a solve) and ``v`` the
solver's value (``protocol.side_points(prepared) + solve_points(...)``).
"""

from __future__ import annotations

from importlib import resources

import numpy as np
from numba import njit

from trickgym.games.phat.constants import DEAL_OVER, MUCK_BONUS, TARGET
from trickgym.npzfile import NpzError, check_finite, load_npz
from trickgym.solvers.points_phat import (
    MUCK_HALF,
    RACE_LOST,
    RACE_WON,
    TOTAL_PHAT,
    V_MAX,
    V_MIN,
)

__all__ = [
    "BONUS",
    "CARRY_STEPS",
    "RACE_LOST",
    "RACE_WON",
    "TABLE_FILE",
    "V_MAX",
    "V_MIN",
    "WIN",
    "deal_start",
    "phat_utility",
    "phat_utility_table",
    "win_probability",
]

TABLE_FILE = "win_table.npz"


def _load():
    """The shipped table's ``win`` (uint16[181, 181, c]) and ``bonus`` (float[81, 3]),
    read by :func:`trickgym.npzfile.load_npz` and checked: a damaged install fails here
    with one line, not inside a compiled kernel."""
    hint = "reinstall trickgym, or rebuild the table with experiments/phat_win_table.py"
    with resources.as_file(resources.files("trickgym.games.phat").joinpath(TABLE_FILE)) as path:
        data = load_npz(path, "Phat win table", hint)
    where = f"Phat win table {str(path)!r}"
    win, bonus = data.get("win"), data.get("bonus")
    scores, phats = (TARGET, TARGET), (TOTAL_PHAT + 1, 3)
    if win is None or win.dtype != np.uint16 or win.ndim != 3 or win.shape[:2] != scores:
        raise NpzError(f"{where} has no uint16[{TARGET}, {TARGET}, c] array 'win'; {hint}")
    if bonus is None or bonus.shape != phats or bonus.dtype.kind != "f":
        raise NpzError(f"{where} has no float[{phats[0]}, 3] array 'bonus'; {hint}")
    check_finite({"bonus": bonus}, where, hint)
    return np.ascontiguousarray(win), np.ascontiguousarray(bonus, dtype=np.float64)


# Kept in 1/65535 steps as stored: a global array this small is frozen into the compiled
# code, which numba can then cache (a float64 copy, 1 MB, is not).
_WIN16, BONUS = _load()
#: ``WIN[a, b, c]``: the chance that the team pitching the next deal wins the game from
#: scores ``a`` (its own) and ``b``, ``8 * c`` carried (the last ``c``: that or more).
#: ``BONUS[p, m]``: the chance of the muck result ``m`` (0: the pitching team takes the
#: bonus, 1: the other team, 2: a 40-40 tie) when the pitching team ends with ``p`` phat.
WIN = _WIN16 / 65535.0
CARRY_STEPS = _WIN16.shape[2]
_TOP = _WIN16.shape[0] - 1  # 180


@njit(cache=True)
def win_probability(a, b, carry, target):
    """The chance that the team pitching the next deal wins the game at scores ``a`` (its
    own), ``b`` and ``carry`` (1 at ``a >= target``, 0 at ``b >= target``)."""
    if a >= target:
        return 1.0
    if b >= target:
        return 0.0
    shift = target - TARGET
    ia = min(max(a - shift, 0), _TOP)
    ib = min(max(b - shift, 0), _TOP)
    c = min(max(carry // MUCK_BONUS, 0), CARRY_STEPS - 1)
    return _WIN16[ia, ib, c] / 65535.0


@njit(cache=True)
def deal_start(st):
    """``(pitcher's team's score, the other's, carry)`` as they were when the deal of ``st``
    started (its phat and any muck bonus taken off; a settled carry put back)."""
    s = st.pitcher % 2
    a = np.int64(st.scores[s]) - st.phat[s]
    b = np.int64(st.scores[1 - s]) - st.phat[1 - s]
    carry = np.int64(st.carry)
    if st.phase == DEAL_OVER:
        if st.bonus_to == s:
            a -= st.bonus
            carry = np.int64(st.bonus) - MUCK_BONUS
        elif st.bonus_to == 1 - s:
            b -= st.bonus
            carry = np.int64(st.bonus) - MUCK_BONUS
        elif not st.game_over:  # a 40-40 tie added 8 (a game won mid-deal left it)
            carry -= MUCK_BONUS
    return a, b, carry


@njit(cache=True)
def _go_on(a, b, carry, p, target, weights):
    """The pitcher's team's chance when its deal ends with ``p`` phat short of the target
    for both teams (``a``, ``b``: the deal's start scores), over the muck results."""
    bonus = MUCK_BONUS + carry
    a2 = a + p
    b2 = b + TOTAL_PHAT - p
    own = 1.0 - win_probability(b2, a2 + bonus, 0, target)  # the other team pitches next
    other = 1.0 - win_probability(b2 + bonus, a2, 0, target)
    tie = 1.0 - win_probability(b2, a2, carry + MUCK_BONUS, target)
    return (weights[0] * own + weights[1] * other + weights[2] * tie) / (
        weights[0] + weights[1] + weights[2]
    )


@njit(cache=True)
def phat_utility(st, seat, v):
    """``seat``'s chance of winning the game when the deal of ``st`` ends with solver value
    ``v`` (the pitcher's team's view: won, lost or its phat; see the module docstring).

    For the pitcher's team 1.0 at ``v >= RACE_WON``, 0.0 at ``v <= RACE_LOST``; for the
    other team one minus the pitcher's team's. Non-decreasing in ``v`` for the pitcher's
    team, so it keeps the solver's best play.
    """
    s = st.pitcher % 2
    if v >= RACE_WON:
        u = 1.0
    elif v <= RACE_LOST:
        u = 0.0
    else:
        a, b, carry = deal_start(st)
        p = min(max(np.int64(v), 0), TOTAL_PHAT)
        weights = np.empty(3)
        if st.muck[s] > MUCK_HALF:
            weights[0], weights[1], weights[2] = 1.0, 0.0, 0.0
        elif st.muck[1 - s] > MUCK_HALF:
            weights[0], weights[1], weights[2] = 0.0, 1.0, 0.0
        else:
            for m in range(3):
                weights[m] = BONUS[p, m]
        u = _go_on(a, b, carry, p, np.int64(st.target), weights)
    return u if seat % 2 == s else 1.0 - u


@njit(cache=True)
def _fill(st, seat, out):
    for i in range(out.shape[0]):
        out[i] = phat_utility(st, seat, V_MIN + i)


def phat_utility_table(state, seat: int) -> np.ndarray:
    """:func:`phat_utility` of every value ``V_MIN .. V_MAX`` (index ``v - V_MIN``) for
    ``seat``; ``state`` a Phat ``State``, a one-record state array or a record."""
    rec = getattr(state, "array", state)
    if isinstance(rec, np.ndarray):
        rec = rec[0]
    out = np.empty(V_MAX - V_MIN + 1)
    _fill(rec, int(seat), out)
    return out
