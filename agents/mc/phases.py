"""Which decisions the Monte Carlo agents search; the rule agent takes the others.

Searched: every Solo Whist and Phat decision; Troggu's auction and play;
Pinochle's auction, trump choice and play. The Troggu Tappist's discards
and partner call and the Pinochle kitty burial and card passing go to the
rule agent (their determinisation is not written yet).
"""

from __future__ import annotations

__all__ = ["SEARCHED", "searched_phase"]

SEARCHED = {
    "solowhist": {0, 1, 2, 3, 4},
    "phat": {0},
    "troggu": {0, 3},  # AUCTION, PLAY
    "pinochle": {0, 1, 5},  # AUCTION, TRUMP, PLAY
}


def searched_phase(game_name: str, rec) -> bool:
    """Whether the decision of record ``rec`` is searched (else the rule agent acts)."""
    return int(rec["phase"]) in SEARCHED[game_name]
