"""The point-trick oracle (Phat, Pinochle, Troggu): ms per decision by phase, and its counters.

Run by hand (never by the tests)::

    .venv/bin/python benchmarks/bench_oracle.py --game troggu --players 5 --deals 10
    .venv/bin/python benchmarks/bench_oracle.py --game phat --deals 5

The oracle plays every seat of ``deals`` deals (seed 1000 on); each decision
is made on a fresh table (:func:`trickgym.agents.oracle.oracle_counts`, as
``act`` does, so a decision does not lean on earlier ones' searches). It
prints, per phase, the decisions with a choice, median / p90 / max ms, and
the totals of the oracle's counters: card decisions solved at the line and
those past the node budget, rollouts, rollouts solved at the rollout line,
and solves in rollouts past the budget (the rollout then played on).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import trickgym
from trickgym.agents.oracle import (
    COUNT_ROLLOUT_PAST,
    COUNT_ROLLOUT_SOLVES,
    COUNT_ROLLOUTS,
    COUNT_SOLVES,
    COUNT_SOLVES_PAST,
    N_COUNTS,
    oracle_counts,
)
from trickgym.engine.params import params_matrix


def main() -> None:
    """Parse the arguments and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="troggu", choices=("phat", "pinochle", "troggu"))
    parser.add_argument("--players", type=int, default=5, help="Troggu only")
    parser.add_argument("--mode", default="kitty", help="Pinochle only")
    parser.add_argument("--deals", type=int, default=10)
    args = parser.parse_args()
    opts = {"troggu": {"players": args.players}, "pinochle": {"mode": args.mode}}
    game = trickgym.game(args.game, **opts.get(args.game, {}))
    params = params_matrix(game, game.n_seats)
    obs = np.empty(1, dtype=game.obs_dtype)
    counts = np.zeros(N_COUNTS, dtype=np.int64)
    first = game.deal(seed=999)  # compile outside the timed decisions
    oracle_counts(first.array[0], first.current_player, np.ones(1, np.uint64), obs, params, counts)
    counts[:] = 0
    times: dict[str, list[float]] = {}
    for k in range(args.deals):
        state = game.deal(seed=1000 + k)
        rng = np.array([k], dtype=np.uint64)
        while not state.is_over:
            seat = state.current_player
            phase = game.phase_names[int(state.record["phase"])]
            t = time.perf_counter()
            action = oracle_counts(state.array[0], seat, rng, obs, params, counts)
            if len(state.legal_actions()) > 1:
                times.setdefault(phase, []).append(1000 * (time.perf_counter() - t))
            state.apply(int(action))
    print(f"oracle, {game.name} {opts.get(args.game, '')}, {args.deals} deals, every seat")
    print(f"{'phase':<12}{'decisions':>10}{'median ms':>11}{'p90 ms':>10}{'max ms':>10}")
    for phase, ms in times.items():
        ms = np.array(ms)
        print(
            f"{phase:<12}{len(ms):>10}{np.median(ms):>11.1f}"
            f"{np.percentile(ms, 90):>10.1f}{ms.max():>10.1f}"
        )
    print(
        f"card decisions solved {counts[COUNT_SOLVES]}, past the budget "
        f"{counts[COUNT_SOLVES_PAST]}; rollouts {counts[COUNT_ROLLOUTS]}, solved at the "
        f"rollout line {counts[COUNT_ROLLOUT_SOLVES]}, solves past the budget "
        f"{counts[COUNT_ROLLOUT_PAST]}"
    )


if __name__ == "__main__":
    main()
