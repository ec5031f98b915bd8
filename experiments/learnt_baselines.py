"""Learnt agents: seat 0 among rule agents, and duplicate tournaments (docs/benchmarks/index.md).

    python experiments/learnt_baselines.py                       # every game
    python experiments/learnt_baselines.py --games solowhist --deals 2000 --pimc-deals 1000

Table 1: the mean payoff per deal of seat 0 (its team's margin in Phat),
with a 95% interval, when seat 0 is ``random``, ``rule``, ``pimc`` (default
budget, seed 1) or ``learnt`` and the other seats are ``rule``; every agent
plays the same deals (seed 2026). Table 2: duplicate tournaments (every
seating) of ``learnt`` against ``random``, ``rule`` and ``pimc``. The
``learnt`` rows need the game's shipped weights (Troggu: at 5 players);
games without them get the other rows. Phat's unit is the match (a tenth of
``--deals``), scored per deal. Prints markdown.
"""

from __future__ import annotations

import argparse
import time

from tqdm import tqdm

import trickgym
from trickgym.agents.learnt import LearntAgent, shipped_weights, weights_name
from trickgym.agents.mc import PIMCAgent
from trickgym.duplicate import seat_score

SEED = 2026
MATCHES_PER_DEAL = 0.1  # Phat: --deals deals are this many matches (a match is ~10 deals)


OPTIONS = {"troggu": {"players": 5}}


def _agent(name: str, game):
    if name == "pimc":
        return PIMCAgent(game, seed=1)
    if name == "learnt":
        return LearntAgent(game)
    return name


def _units(game_name: str, deals: int) -> int:
    in_matches = trickgym.games.game_class(game_name).run_unit == "matches"
    return max(1, round(deals * MATCHES_PER_DEAL)) if in_matches else deals


def _cell(row) -> str:
    return f"{row['mean']:+.2f} [{row['ci_low']:+.2f}, {row['ci_high']:+.2f}]"


def main(argv=None) -> None:
    """Print both tables for the chosen games."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", default=",".join(sorted(trickgym.GAMES)))
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--pimc-deals", type=int, default=500, help="deals for the pimc rows")
    a = p.parse_args(argv)
    games = a.games.split(",")
    unknown = sorted(set(games) - set(trickgym.GAMES))
    if unknown:
        p.error(f"unknown games {unknown}; games: {sorted(trickgym.GAMES)}")
    games = [(g, trickgym.game(g, **OPTIONS.get(g, {}))) for g in games]
    learnt = {g for g, game in games if weights_name(game) in shipped_weights()}
    seat_rows, duel_rows = [], []
    jobs = [
        (g, game, n)
        for g, game in games
        for n in ("random", "rule", "pimc", "learnt")
        if n != "learnt" or g in learnt
    ]
    for game_name, game, name in tqdm(jobs, desc="seat 0 among rule agents"):
        deals = a.pimc_deals if name == "pimc" else a.deals
        t = time.perf_counter()
        row = seat_score(
            game_name, _agent(name, game), deals=_units(game_name, deals), seed=SEED,
            **OPTIONS.get(game_name, {}),
        )  # fmt: skip
        seat_rows.append((game_name, name, row, time.perf_counter() - t))
    for game_name, game in games:
        if game_name not in learnt:
            continue
        for rival in ("random", "rule", "pimc"):
            deals = a.pimc_deals if rival == "pimc" else a.deals
            t = time.perf_counter()
            report = trickgym.tournament(
                game_name, [LearntAgent(game), _agent(rival, game)],
                deals=_units(game_name, deals), seed=SEED, progress=True,
                **OPTIONS.get(game_name, {}),
            )  # fmt: skip
            duel_rows.append((game_name, rival, report.difference, deals, time.perf_counter() - t))
    print("| game | seat 0 | deals | mean payoff per deal [95%] | seconds |")
    print("|---|---|---|---|---|")
    for game_name, name, row, secs in seat_rows:
        print(f"| {game_name} | {name} | {int(row['deals']):,} | {_cell(row)} | {secs:.0f} |")
    print()
    print("| game | learnt - rival | deals | difference per deal [95%] | seconds |")
    print("|---|---|---|---|---|")
    for game_name, rival, diff, deals, secs in duel_rows:
        in_matches = trickgym.games.game_class(game_name).run_unit == "matches"
        unit = f"{_units(game_name, deals)} matches" if in_matches else f"{deals:,}"
        print(f"| {game_name} | learnt - {rival} | {unit} | {_cell(diff)} | {secs:.0f} |")


if __name__ == "__main__":
    main()
