"""Monte Carlo agents: milliseconds per decision and duplicate tournaments against the rule agent.

Run by hand (never by the tests); the machine may be loaded, so compare
figures measured in the same run. For each game configuration and agent
(``pimc``, ``ismcts``) at the given budget: a duplicate tournament of
``--deals`` deals (Phat: matches) against ``rule``, the mean payoff
difference with its 95% interval, ms per decision (searched decisions and
all decisions), the projected time of a 1,000-deal tournament, and the
oracle's margin over ``rule`` on the same deals (the gap to the oracle).

    python benchmarks/bench_mc.py --deals 1000 --configs solowhist troggu:3 troggu:5 troggu:8 phat \
        pinochle pinochle:exchange

``--vs-oracle`` adds ``oracle - <agent>`` on the same deals; ``--solve-cards N``
sets PIMC's solve line in Phat, Pinochle and Troggu (0: rule-agent playouts
throughout, the baseline before the point-trick solver).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from trickgym.agents.mc import ISMCTSAgent, PIMCAgent

import trickgym


class Timed:
    """Wraps an agent, timing its decisions (the wrapper is the agent the loop sees)."""

    def __init__(self, agent):
        self.agent = agent
        self.calls = 0
        self.seconds = 0.0
        self.cpu_seconds = 0.0  # this process's CPU time: what a loaded machine does not inflate
        self.times: list[float] = []  # seconds of each decision

    def start_deal(self, seed, seat):
        self.agent.start_deal(seed, seat)

    def act(self, observation, mask):
        return self.agent.act(observation, mask)

    def act_record(self, record, mask):
        t, c = time.perf_counter(), time.process_time()
        a = self.agent.act_record(record, mask)
        self.times.append(time.perf_counter() - t)
        self.seconds += self.times[-1]
        self.cpu_seconds += time.process_time() - c
        self.calls += 1
        return a


def parse_config(text):
    """``troggu:5`` (players) or ``pinochle:exchange`` (mode) into a name and options."""
    name, _, extra = text.partition(":")
    if not extra:
        return name, {}
    return name, ({"players": int(extra)} if extra.isdigit() else {"mode": extra})


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--configs", nargs="+", default=["solowhist", "troggu:3", "troggu:5", "phat", "pinochle"]
    )
    p.add_argument("--agents", nargs="+", default=["pimc", "ismcts"])
    p.add_argument("--deals", type=int, default=50)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--samples", type=int, default=None, help="PIMC budget (default: agent's)")
    p.add_argument("--iterations", type=int, default=None, help="ISMCTS budget")
    p.add_argument("--no-oracle", action="store_true")
    p.add_argument(
        "--solve-cards",
        type=int,
        default=None,
        help="PIMC's solve line for Phat, Pinochle, Troggu (default: the agent's; 0: playouts)",
    )
    p.add_argument("--vs-oracle", action="store_true", help="also oracle - <agent> on the deals")
    args = p.parse_args(argv)
    for config in args.configs:
        name, opts = parse_config(config)
        game = trickgym.game(name, **opts)
        if not args.no_oracle:
            t = time.perf_counter()
            o = trickgym.tournament(
                name, ["oracle", "rule"], deals=args.deals, seed=args.seed, **opts
            ).difference
            print(
                f"{config:<10} oracle - rule  {o['mean']:9.3f} [{o['ci_low']:.3f}, "
                f"{o['ci_high']:.3f}]  ({time.perf_counter() - t:.0f}s)",
                flush=True,
            )
        for kind in args.agents:
            if kind == "pimc":
                kw = {} if args.samples is None else {"samples": args.samples}
                if args.solve_cards is not None and name != "solowhist":
                    kw["solve_cards"] = args.solve_cards
                agent = PIMCAgent(game, seed=1, **kw)
            else:
                kw = {} if args.iterations is None else {"iterations": args.iterations}
                agent = ISMCTSAgent(game, seed=1, **kw)
            agent.act_record(*_warm_record(game))  # compile outside the timing
            trickgym.tournament(name, [agent, "rule"], deals=1, seed=args.seed + 1, **opts)
            timed = Timed(agent)
            t, c = time.perf_counter(), time.process_time()
            d = trickgym.tournament(
                name, [timed, "rule"], deals=args.deals, seed=args.seed, **opts
            ).difference
            wall = time.perf_counter() - t
            cpu = time.process_time() - c
            ms = 1e3 * timed.seconds / max(timed.calls, 1)
            each = 1e3 * np.array(timed.times) if timed.times else np.zeros(1)
            cpu_ms = 1e3 * timed.cpu_seconds / max(timed.calls, 1)
            print(
                f"{config:<10} {kind:<6} - rule  {d['mean']:9.3f} [{d['ci_low']:.3f}, "
                f"{d['ci_high']:.3f}]  {agent._budget()}  {ms:.2f} ms/decision wall, "
                f"{cpu_ms:.2f} CPU ({timed.calls} decisions; median {np.median(each):.2f}, "
                f"p90 {np.percentile(each, 90):.2f}, max {each.max():.1f} ms); 1000-deal run "
                f"{wall / args.deals * 1000 / 60:.1f} min wall, "
                f"{cpu / args.deals * 1000 / 60:.1f} min CPU; uniform "
                f"{agent.uniform}/{agent.samples_drawn}",
                flush=True,
            )
            if args.vs_oracle:
                t = time.perf_counter()
                o = trickgym.tournament(
                    name, ["oracle", agent], deals=args.deals, seed=args.seed, **opts
                ).difference
                print(
                    f"{config:<10} oracle - {kind:<6} {o['mean']:9.3f} [{o['ci_low']:.3f}, "
                    f"{o['ci_high']:.3f}]  ({time.perf_counter() - t:.0f}s)",
                    flush=True,
                )


def _warm_record(game):
    state = game.deal(seed=0)
    while True:
        mask = state.legal_action_mask()
        if mask.sum() > 1:
            break
        state.apply(int(np.flatnonzero(mask)[0]))
    record = np.zeros(1, dtype=game.obs_dtype)
    game.kernels.observe_at(state.array, 0, state.current_player, record, 0)
    return record, mask.astype(np.int8)


if __name__ == "__main__":
    main()
