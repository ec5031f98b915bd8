"""Trajectories: decisions/s with and without recording, and the replay check (issue 44's bar).

Run by hand::

    python benchmarks/bench_trajectories.py                        # the four games, rule agents
    python benchmarks/bench_trajectories.py --games troggu --players 8 --agents random

For each game: the kernels are warmed up on a tiny run, then the same
deals (``--deals``; Phat: that many matches) are simulated into a dataset
twice on one thread, without and with ``trajectories=True``; the per-deal
tables must be equal; the folder with trajectories is verified
(``verify_dataset(..., replay=True)``) and every deal replayed from its
seed and recorded actions (``trickgym.sim.trajectories.check_replay``).
Prints decisions/s of both runs, the steps files' size and the replay's
counts and time. Folders go to a temporary directory, removed at the end.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def bench(game: str, agents: str, n: int, players: int, root: Path) -> str:
    """One game's line: both runs' decisions/s, the steps' size, the replay's counts."""
    import trickgym.sim as sim
    from trickgym.sim.dataset import verify_dataset
    from trickgym.sim.trajectories import check_replay, steps_info

    options = {"players": players} if game == "troggu" else {}
    count = {"matches": n} if game == "phat" else {"deals": n}
    run = {"agents": agents, "seed": 11, "progress": False, "threads": 1, **options}
    tiny = {"matches": 1} if game == "phat" else {"deals": 2}
    sim.simulate(game, out=root / f"{game}-warm0", **run, **tiny)
    sim.simulate(game, out=root / f"{game}-warm1", trajectories=True, **run, **tiny)
    plain = sim.simulate(game, out=root / f"{game}-plain", **run, **count)
    steps = root / f"{game}-steps"
    recorded = sim.simulate(game, out=steps, trajectories=True, **run, **count)
    same = sim.read_dataset(root / f"{game}-plain").equals(sim.read_dataset(steps))
    verify_dataset(steps, replay=True)
    start = time.perf_counter()
    replayed = check_replay(steps)
    seconds = time.perf_counter() - start
    decisions = steps_info(steps)["decisions"]
    size = sum(f.stat().st_size for f in steps.glob("_steps-*"))
    table = f"{game} ({players} players)" if options else game
    return (
        f"{table}, {agents}, {count}: {plain.rows:,} deals, {decisions:,} decisions; "
        f"plain {decisions / plain.seconds:,.0f} decisions/s, "
        f"with trajectories {decisions / recorded.seconds:,.0f} decisions/s; "
        f"per-deal tables equal: {same}; steps files {size / 1e6:.1f} MB; "
        f"replayed {replayed['deals']:,} deals, {replayed['decisions']:,} decisions "
        f"in {seconds:.1f} s: OK"
    )


def main() -> None:
    """Parse the flags and print one line per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="solowhist,troggu,phat,pinochle")
    parser.add_argument("--agents", default="rule")
    parser.add_argument("--deals", type=int, default=1000, help="deals (Phat: matches)")
    parser.add_argument("--players", type=int, default=5, help="Troggu's table")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games.split(","):
            print(bench(game, args.agents, args.deals, args.players, Path(tmp)), flush=True)


if __name__ == "__main__":
    main()
