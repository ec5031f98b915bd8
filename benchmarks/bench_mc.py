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
throughout, the baseline before the point-trick solver; ``full``: from the
first card), ``--dd-cards N`` Solo Whist's (13: from the first card),
``--node-limit`` the node budget of one solve, ``--refine-nodes`` the nodes
a card's payoff question spends past its steps, ``--bids`` and ``--cards``
PIMC's bidder and card play (``rule``: the rule agent's). Each PIMC line
reports its budget, the solver valuations settled and the fallbacks (solves
past the node budget, valued by rule-agent playouts instead).

``--threads N`` plays the tournaments on N threads (Python agents in N worker
processes): faster, but the per-decision times and the solver counters are
then the workers' and print as zero (default 1).

``--split`` runs the three duplicate tournaments that say where PIMC's
points come from: ``pimc`` (its bids and cards), ``pimc`` with
``cards="rule"`` (its bids only) and with ``bids="rule"`` (its cards only),
each against ``rule`` on the same deals:

    python benchmarks/bench_mc.py --split --no-oracle --agents pimc --deals 300 \
        --configs solowhist phat pinochle pinochle:exchange troggu:5

``--decisions N`` times PIMC alone (no tournament): the card-play decisions
of ``N`` rule-agent deals (one seat per deal), per cards in hand (and the
calls before the card play), with the
solver's nodes (load-free) beside the milliseconds: what a solve line costs.

    python benchmarks/bench_mc.py --decisions 10 --configs phat --solve-cards 8
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import trickgym
from trickgym.agents.mc import ISMCTSAgent, PIMCAgent


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
        default=None,
        help="PIMC's solve line for Phat, Pinochle, Troggu (default: the agent's; 0: playouts)",
    )
    p.add_argument("--vs-oracle", action="store_true", help="also oracle - <agent> on the deals")
    p.add_argument("--dd-cards", type=int, default=None, help="Solo Whist's solve line (13: all)")
    p.add_argument("--node-limit", type=int, default=None, help="node budget of one solve")
    p.add_argument(
        "--refine-nodes", type=int, default=None,
        help="Phat/Pinochle/Troggu: nodes a card may spend past the payoff's steps",
    )  # fmt: skip
    p.add_argument("--bids", default=None, help="PIMC's bidder (rule: the rule agent's)")
    p.add_argument("--cards", default="pimc", help="PIMC's card play (rule: the rule agent's)")
    p.add_argument("--split", action="store_true", help="pimc, its bids only, its cards only")
    p.add_argument("--decisions", type=int, default=0, help="time PIMC on N deals' card play")
    p.add_argument(
        "--threads", type=int, default=1,
        help="threads of the tournaments (default 1: with more, Python agents play in worker "
        "processes and their per-decision times and solver counters stay there)",
    )  # fmt: skip
    args = p.parse_args(argv)
    opts_threads = {"threads": args.threads}
    for config in args.configs:
        name, opts = parse_config(config)
        game = trickgym.game(name, **opts)
        if args.decisions:
            time_decisions(game, pimc_options(args, name, game), args.decisions, args.seed, opts)
            continue
        if not args.no_oracle:
            t = time.perf_counter()
            o = trickgym.tournament(
                name, ["oracle", "rule"], deals=args.deals, seed=args.seed, **opts, **opts_threads
            ).difference
            print(
                f"{config:<10} oracle - rule  {o['mean']:9.3f} [{o['ci_low']:.3f}, "
                f"{o['ci_high']:.3f}]  ({time.perf_counter() - t:.0f}s)",
                flush=True,
            )
        runs = [(kind, {}) for kind in args.agents]
        if args.split:  # where the points come from: both, bids only, cards only
            runs = [("pimc", {}), ("pimc", {"cards": "rule"}), ("pimc", {"bids": "rule"})]
        for kind, split in runs:
            if kind == "pimc":
                agent = PIMCAgent(game, seed=1, **{**pimc_options(args, name, game), **split})
            else:
                kw = {} if args.iterations is None else {"iterations": args.iterations}
                agent = ISMCTSAgent(game, seed=1, **kw)
            agent.act_record(*_warm_record(game))  # compile outside the timing
            trickgym.tournament(name, [agent, "rule"], deals=1, seed=args.seed + 1, **opts)
            timed = Timed(agent)
            t, c = time.perf_counter(), time.process_time()
            d = trickgym.tournament(
                name, [timed, "rule"], deals=args.deals, seed=args.seed, **opts, **opts_threads
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
                f"{agent.uniform}/{agent.samples_drawn}"
                + (
                    f"; solves {agent.solves}, fallbacks {agent.fallbacks}"
                    if kind == "pimc"
                    else ""
                ),
                flush=True,
            )
            if args.vs_oracle:
                t = time.perf_counter()
                o = trickgym.tournament(
                    name, ["oracle", agent], deals=args.deals, seed=args.seed, **opts,
                    **opts_threads,
                ).difference  # fmt: skip
                print(
                    f"{config:<10} oracle - {kind:<6} {o['mean']:9.3f} [{o['ci_low']:.3f}, "
                    f"{o['ci_high']:.3f}]  ({time.perf_counter() - t:.0f}s)",
                    flush=True,
                )


def pimc_options(args, name, game) -> dict:
    """PIMCAgent's keyword arguments from the command line."""
    kw = {} if args.samples is None else {"samples": args.samples}
    if args.solve_cards is not None and game.solver == "points":
        kw["solve_cards"] = (
            game.deck.n_cards if args.solve_cards == "full" else int(args.solve_cards)
        )
    if args.dd_cards is not None and game.solver == "dd":
        kw["dd_cards"] = args.dd_cards
    if args.node_limit is not None:
        kw["node_limit"] = args.node_limit
    if args.refine_nodes is not None and game.solver == "points":
        kw["refine_nodes"] = args.refine_nodes
    if args.bids is not None:
        kw["bids"] = args.bids
    if args.cards != "pimc":
        kw["cards"] = args.cards
    return kw


def _nodes(agent) -> int:
    """Nodes the agent's solver tables have searched since they were last emptied."""
    from trickgym.solvers import dd_search, points_search

    n = 0
    if agent._dd_table is not None:
        n += int(agent._dd_table[1][dd_search.META_NODES])
    if agent._pt_table is not None:
        n += int(agent._pt_table[1][points_search.META_NODES])
    return n


def time_decisions(game, kw, deals, seed, opts):
    """PIMC's searched decisions in ``deals`` rule-agent deals, timed per cards in hand
    (calls and other decisions before the card play together)."""
    from trickgym.agents import python_action
    from trickgym.engine.loops import act
    from trickgym.engine.params import params_matrix

    agent = PIMCAgent(game, seed=1, **kw)
    # Compile (or load) every path outside the timing: one deal of the agent's.
    trickgym.tournament(game.name, [agent, "rule"], deals=1, seed=seed + 10**6, **opts)
    params = params_matrix(game, game.n_seats)
    rng = np.array([seed], dtype=np.uint64)
    scratch = np.empty(1, dtype=game.obs_dtype)
    by_size: dict[int, list[tuple[float, int]]] = {}
    fallbacks0 = agent.fallbacks
    solves0 = agent.solves
    t0 = time.perf_counter()
    for deal in range(deals):
        state = game.deal(seed=seed + deal)
        seat = deal % game.n_seats
        agent.start_deal(seed + deal, seat)
        while not state.is_over:
            p = state.current_player
            rec = state.record
            play = int(rec["phase"]) == game.play_phase
            searched = int(rec["phase"]) in game.search.phases
            if p == seat and searched and state.legal_action_mask().sum() > 1:
                # Calls and other decisions before the card play: key 99.
                size = bin(int(rec["hands"][p])).count("1") if play else 99
                t = time.perf_counter()
                python_action(agent, game, state.array, 0, seat)
                by_size.setdefault(size, []).append((time.perf_counter() - t, _nodes(agent)))
            state.apply(int(act(1, state.array[0], p, rng, scratch, params, None)))
    print(
        f"{game.name} {game.n_seats}p  {agent._budget()}  {deals} deals, "
        f"{time.perf_counter() - t0:.0f} s; solves {agent.solves - solves0}, "
        f"fallbacks {agent.fallbacks - fallbacks0}",
        flush=True,
    )
    for size in sorted(by_size, reverse=True):
        ms = 1e3 * np.array([t for t, _ in by_size[size]])
        nodes = np.array([n for _, n in by_size[size]])
        what = "   calls" if size == 99 else f"{size:2d} cards"
        print(
            f"  {what}: {len(ms):4d} decisions  ms median {np.median(ms):8.1f} "
            f"p90 {np.percentile(ms, 90):8.1f} max {ms.max():8.1f}  nodes median "
            f"{np.median(nodes):11.0f} max {nodes.max():11.0f}",
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
