"""The hand advisor: ``hand_odds(..., play="dd")`` on Solo Whist hands.

Run by hand (never by the tests)::

    .venv/bin/python benchmarks/bench_advise.py                  # 2,000 deals, 3 runs per hand
    .venv/bin/python benchmarks/bench_advise.py --deals 500 --runs 1 --threads 1

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

from trickgym.analysis.advise import hand_odds

# (hand, turn-up, seat, dealer): a strong Solo, an average hand, an Abundance candidate.
HANDS = [
    ("AKQJ5.K2.A7.9832", "2S", 1, 0),
    ("KQ7.A95.T842.Q63", "5D", 1, 0),
    ("AQJT9.KQJ.A.KQ32", "7C", 0, 3),
]


def main() -> None:
    """Time the advisor on :data:`HANDS` and print one line per hand."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
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
