"""How well a cheap leaf value predicts the solved one at PIMC's solve line (issue 41, item 3).

Run by hand (never by the tests)::

    .venv/bin/python benchmarks/bench_leaf.py --configs troggu:5 pinochle phat --positions 60

A depth-limited search above the solve line needs a leaf value. Before one
is learned, this measures what the candidates already know: at rule-play
positions with PIMC's line of cards in the mover's hand (seeds from
``--first-seed``), the declaring side's exact final points (the point-trick
solver) against

- ``playout``: the mean final points of ``--playouts`` stochastic rule-agent
  playouts (what PIMC values worlds above the line by today);
- ``bounds``: the middle of the solver's own sure bounds (quick tricks,
  master trumps: ``protocol.bounds``), points so far included.

It prints Pearson's r and the mean absolute error of each. A learnt leaf is
worth trying where both are far from 1.
"""

from __future__ import annotations

import argparse

import numpy as np
from numba import njit

import trickgym
from trickgym import protocol
from trickgym.agents.positions import rule_position
from trickgym.agents.solved_points import PIMC_SOLVE_CARDS, solve_cards
from trickgym.engine.params import params_matrix
from trickgym.engine.playout import play_out
from trickgym.solvers.points_search import (
    META_ABORTED,
    new_points_table,
    reset_points_table,
    solve_points,
)


@njit
def _bounds_middle(array):
    st = array[0]
    lo, hi = protocol.bounds(st)
    return protocol.side_points(st) + 0.5 * (lo + hi)


@njit
def _playout_mean(array, rng, obs, params, n):
    total = 0.0
    trial = array.copy()
    for _ in range(n):
        trial[0] = array[0]
        play_out(trial[0], rng, obs, params)
        total += protocol.side_points(trial[0])
    return total / n


def _config(text):
    name, _, arg = text.partition(":")
    if name == "troggu":
        return name, {"players": int(arg or 5)}
    if name == "pinochle" and arg:
        return name, {"mode": arg}
    return name, {}


def main() -> None:
    """Parse the arguments and print one line per configuration."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", nargs="+", default=["troggu:5", "pinochle", "phat"])
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--playouts", type=int, default=8)
    ap.add_argument("--first-seed", type=int, default=7000)
    args = ap.parse_args()
    table = new_points_table(32)
    for text in args.configs:
        name, opts = _config(text)
        game = trickgym.game(name, **opts)
        line = solve_cards(PIMC_SOLVE_CARDS, name, game.n_seats)
        params = params_matrix(name, game.n_seats)
        obs = np.empty(1, dtype=game.obs_dtype)
        rng = np.array([args.first_seed], dtype=np.uint64)
        exact, playout, middle = [], [], []
        seed = args.first_seed
        while len(exact) < args.positions and seed < args.first_seed + 20 * args.positions:
            seed += 1
            state = rule_position(game, seed, line)
            if state is None:
                continue
            reset_points_table(table)
            gained = solve_points(state.array, table)
            if table[1][META_ABORTED]:
                continue
            array = state.array.copy()
            exact.append(protocol_points(array) + gained)
            playout.append(float(_playout_mean(array, rng, obs, params, args.playouts)))
            middle.append(float(_bounds_middle(array)))
        e = np.array(exact)
        for label, v in (("playout", np.array(playout)), ("bounds", np.array(middle))):
            r = np.corrcoef(e, v)[0, 1] if e.std() > 0 and v.std() > 0 else float("nan")
            print(
                f"{text:<12} line {line:2d}  {len(e)} positions  {label:<8} r {r:5.2f}  "
                f"mean |error| {np.abs(e - v).mean():6.1f} points",
                flush=True,
            )


@njit
def _side_points(array):
    return protocol.side_points(array[0])


def protocol_points(array) -> float:
    """The side's points so far in ``array[0]``."""
    return float(_side_points(array))


if __name__ == "__main__":
    main()
