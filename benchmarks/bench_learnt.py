"""Strong play at simulation speed: deals/s with every seat ``learnt`` beside every seat ``rule``.

Run by hand: ``python benchmarks/bench_learnt.py [--deals 100000] [--threads 2]``.
For each game and table with shipped weights, in one run: ``simulate`` with
every seat the compiled rule agent (the baseline), then with every seat the
learnt agent, both on ``--threads`` threads (the learnt run's deals go to
worker processes, :mod:`trickgym.sim.python_pool`). The learnt agents
decide every deal in play at once (:mod:`trickgym.sim.lockstep`); the
line also gives them one decision at a time (``--one-deals`` deals, one
thread), as every Python agent played before, and the memory of a batch
of slots (states and generators; the decision buffers are per round).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import trickgym
from trickgym.agents.learnt import shipped_weights
from trickgym.sim.lockstep import DEFAULT_SLOTS


def game_args(tag: str) -> dict:
    """``simulate``'s game and options for a weights tag (``troggu-5p``, ``pinochle-exchange``)."""
    name, _, rest = tag.partition("-")
    if name == "troggu":
        return {"game": name, "players": int(rest.removesuffix("p"))}
    if name == "pinochle" and rest:
        return {"game": name, "mode": rest}
    return {"game": name}


def rate(args: dict, agents, unit: dict, threads: int, seed: int) -> tuple[float, int]:
    """``(deals/s, deals)`` of one ``simulate`` call."""
    t = time.perf_counter()
    df = trickgym.simulate(
        **args, agents=agents, seed=seed, threads=threads, progress=False, **unit
    )
    return len(df) / (time.perf_counter() - t), len(df)


def one_at_a_time(args: dict, deals: int) -> float:
    """deals/s of the learnt agents deciding one deal at a time (the loop's ``slots=1``)."""
    from trickgym.agents.registry import make_agent
    from trickgym.engine.params import params_matrix
    from trickgym.sim.python_loop import simulate_python, simulate_python_whole_matches
    from trickgym.sim.specs import SPECS

    options = {k: v for k, v in args.items() if k != "game"}
    game = trickgym.game(args["game"], **options)
    sim = SPECS[game.name]
    agents = [make_agent("learnt", game) for _ in range(game.n_seats)]
    params = params_matrix(game, game.n_seats)
    play = simulate_python_whole_matches if sim.unit == "match" else simulate_python
    t = time.perf_counter()
    rows = play(game, sim, np.uint64(3), 0, deals, agents, False, params, slots=1)
    return len(rows) / (time.perf_counter() - t)


def main() -> None:
    """Print one line per game and table with shipped weights."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument(
        "--deals", type=int, default=100_000, help="deals (Phat: a tenth as many matches)"
    )
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--one-deals", type=int, default=300, help="deals played one at a time")
    p.add_argument("--only", default=None, help="one weights tag, e.g. troggu-5p")
    a = p.parse_args()
    tags = [w.removesuffix(".npz") for w in shipped_weights()]
    for tag in tags if a.only is None else [a.only]:
        args = game_args(tag)
        game = trickgym.game(args["game"], **{k: v for k, v in args.items() if k != "game"})
        phat = game.name == "phat"
        unit = {"matches": max(1, a.deals // 10)} if phat else {"deals": a.deals}
        small = {"matches": 20} if phat else {"deals": 200}
        for agents in ("rule", "learnt"):  # compile and load first
            trickgym.simulate(
                **args, agents=agents, seed=1, threads=a.threads, progress=False, **small
            )
        rule, n_rule = rate(args, "rule", unit, a.threads, 2)
        learnt, n = rate(args, "learnt", unit, a.threads, 2)
        one = one_at_a_time(args, max(1, a.one_deals // (10 if phat else 1)))
        slot_bytes = game.state_dtype.itemsize + 8 * (max(game.n_seats, 8) + game.n_seats)
        mib = DEFAULT_SLOTS * slot_bytes / 2**20
        print(
            f"{tag}: all rule {rule:,.0f} deals/s ({n_rule:,} deals), all learnt {learnt:,.0f} "
            f"deals/s ({n:,}) on {a.threads} threads: 1/{rule / learnt:,.0f} of rule; one deal "
            f"at a time {one:,.0f} deals/s (1 thread): batched {learnt / one:,.1f}x; "
            f"{DEFAULT_SLOTS} slots x {slot_bytes:,} B = {mib:.1f} MiB",
            flush=True,
        )


if __name__ == "__main__":
    main()
