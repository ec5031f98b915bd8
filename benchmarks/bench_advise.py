"""The hand advisor: ``hand_odds(..., play="dd")`` on Solo Whist hands, and the others.

Run by hand (never by the tests)::

    .venv/bin/python benchmarks/bench_advise.py                  # 2,000 deals, 3 runs per hand
    .venv/bin/python benchmarks/bench_advise.py --deals 500 --runs 1 --threads 1
    .venv/bin/python benchmarks/bench_advise.py --game points --deals 20 --runs 1

``--game points`` times one hand of Phat, Pinochle (kitty, exchange) and
Troggu (3, 4, 8 players) instead, with the default point-trick node budget
(``--max-nodes`` to change it): full-deal solves, so few deals; the
``unsolved`` column counts the (deal, call) solves past the budget, of
``solves`` in all.

A warm-up call compiles (or loads) the kernels first; then each hand is
advised ``--runs`` times with different seeds and the median wall time is
printed, with the seconds per 1,000 deals and the deals left unsolved by
the node budget (summed over the calls). The issue's bar: 2,000 deals of
one hand in under 60 s on 2 cores.
"""

from __future__ import annotations

import argparse
import statistics
import time

from trickgym.advisor.advise import hand_odds

# (hand, turn-up, seat, dealer): a strong Solo, an average hand, an Abundance candidate.
HANDS = [
    ("AKQJ5.K2.A7.9832", "2S", 1, 0),
    ("KQ7.A95.T842.Q63", "5D", 1, 0),
    ("AQJT9.KQJ.A.KQ32", "7C", 0, 3),
]

# (label, game name, options, hand, seat, dealer) of the point-trick games.
POINT_HANDS = [
    ("phat", "phat", {}, "A95.K9.QJ5.T9852", 2, None),
    ("pinochle kitty", "pinochle", {}, "AATKQ.AQ.KQ.9J", 1, 0),
    ("pinochle exchange", "pinochle", {"mode": "exchange"}, "AATKQ.AQ.KQ.9JJ", 1, 0),
    (
        "troggu 3",
        "troggu",
        {"players": 3},
        "Fool XXI XX XIX XVIII XVII XVI XV KC KD KS KB QC QD QS QB NC ND",
        1,
        0,
    ),
    (
        "troggu 4",
        "troggu",
        {"players": 4},
        "Fool XXI XX XIX XVIII XVII XVI XV KC KD KS KB QC",
        1,
        0,
    ),
    ("troggu 8", "troggu", {"players": 8}, "Fool XXI XX XIX KC KD KS", 1, 0),
]


def points(args) -> None:
    """Time the advisor on :data:`POINT_HANDS`, one line per hand."""
    import trickgym

    print(f"{'hand':<20}{'deals':>7}{'median s':>10}{'runs (s)':>20}{'solves':>8}{'unsolved':>10}")
    chosen = [h for h in POINT_HANDS if not args.only or h[0] in args.only.split(",")]
    for label, name, options, hand, seat, dealer in chosen:
        game = trickgym.game(name, **options)
        kwargs = dict(seat=seat, dealer=dealer, play="dd", threads=args.threads, progress=False)
        if args.max_nodes:
            kwargs["max_nodes"] = args.max_nodes
        hand_odds(game, hand, deals=2, **kwargs)  # compile (or load)
        times, unsolved, solves = [], 0, 0
        for run in range(args.runs):
            start = time.perf_counter()
            df = hand_odds(game, hand, deals=args.deals, seed=run, **kwargs)
            times.append(time.perf_counter() - start)
            unsolved += int(df["unsolved"].sum())
            solves += int((df["deals"] + df["unsolved"]).sum())
        med = statistics.median(times)
        runs = " ".join(f"{t:.1f}" for t in times)
        print(f"{label:<20}{args.deals:>7}{med:>10.1f}{runs:>20}{solves:>8}{unsolved:>10}")


def main() -> None:
    """Time the advisor on :data:`HANDS` and print one line per hand."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--game", choices=("solowhist", "points"), default="solowhist")
    parser.add_argument("--max-nodes", type=int, default=None, help="--game points: budget")
    parser.add_argument("--only", default="", help="--game points: labels, comma-separated")
    args = parser.parse_args()
    if args.game == "points":
        points(args)
        return
    hand_odds("solowhist", HANDS[0][0], turn_up="2S", seat=1, dealer=0, deals=16)  # compile
    print(f"{'hand':<20}{'deals':>7}{'median s':>10}{'runs (s)':>26}{'s/1000':>8}{'unsolved':>10}")
    for hand, up, seat, dealer in HANDS:
        times, unsolved = [], 0
        for run in range(args.runs):
            start = time.perf_counter()
            df = hand_odds(
                "solowhist", hand, turn_up=up, seat=seat, dealer=dealer, deals=args.deals,
                play="dd", seed=run, threads=args.threads,
            )  # fmt: skip
            times.append(time.perf_counter() - start)
            unsolved += int(df["unsolved"].sum())
        med = statistics.median(times)
        runs = " ".join(f"{t:.1f}" for t in times)
        print(
            f"{hand:<20}{args.deals:>7}{med:>10.1f}{runs:>26}{1000 * med / args.deals:>8.1f}"
            f"{unsolved:>10}"
        )


if __name__ == "__main__":
    main()
