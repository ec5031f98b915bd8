"""The most meld one Pinochle hand can hold: every hand of the cards meld reads, tried.

Run by hand: ``python experiments/pinochle_meld_max.py [11 12]`` prints, per
hand size, the largest ``trickgym.games.pinochle.meld.meld`` over every hand
of that many cards (about 10 s a size, one thread), the figures
``HAND_MELD_MAX`` records and ``Game.payoff_bound`` builds on.

Only the nines and tens of trumps and the jacks, queens, kings and aces of
every suit count in meld; any other card adds nothing, so a hand of ``h``
cards holds at most the best meld over hands of at most ``h`` of those 18
kinds (0, 1 or 2 copies each). Hearts and clubs play the same part in meld
(the pinochle is the queen of spades with the jack of diamonds), so trying
spades, hearts and diamonds as trumps covers every case.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from numba import njit

from trickgym.games.pinochle.constants import ACE, JACK, KING, QUEEN
from trickgym.games.pinochle.meld import HAND_MELD_MAX, meld

_COUNTED_OUTSIDE_TRUMPS = (JACK, QUEEN, KING, ACE)


@njit(cache=True)
def best_meld(kinds, h, trumps):
    """The most meld of a hand of at most ``h`` cards of ``kinds`` (first-copy bits)."""
    n = kinds.shape[0]
    counts = np.zeros(n, dtype=np.int64)
    total = 0
    best = 0
    while True:
        hand = np.uint64(0)
        for i in range(n):
            if counts[i] >= 1:
                hand |= np.uint64(1) << np.uint64(kinds[i])
            if counts[i] == 2:
                hand |= np.uint64(1) << np.uint64(kinds[i] + 1)
        best = max(best, meld(hand, trumps)[0])
        # the next count vector in odometer order with total <= h
        i = 0
        while i < n:
            if counts[i] < 2 and total < h:
                counts[i] += 1
                total += 1
                break
            total -= counts[i]
            counts[i] = 0
            i += 1
        if i == n:
            return best


def kinds(trumps: int) -> np.ndarray:
    """The first-copy bit of every kind meld reads with ``trumps``: all six of trumps, the
    jack to ace of the other suits (bit ``12*suit + 2*rank``)."""
    return np.array(
        [
            12 * suit + 2 * rank
            for suit in range(4)
            for rank in range(6)
            if suit == trumps or rank in _COUNTED_OUTSIDE_TRUMPS
        ],
        dtype=np.int64,
    )


def main(argv: list[str]) -> None:
    """Print the most meld of a hand of each size given (default 11 and 12)."""
    for h in [int(a) for a in argv] or [11, 12]:
        start = time.perf_counter()
        best = max(best_meld(kinds(t), h, t) for t in range(3))
        recorded = HAND_MELD_MAX.get(h)
        print(f"{h} cards: {best} (HAND_MELD_MAX: {recorded}), {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
