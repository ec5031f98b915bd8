"""What a seat remembers across its own decisions and the record does not repeat.

Kept for the games whose ``search.trick_memory`` says so (Pinochle).
Pinochle's observation record does not say which team won the cards of
past tricks, though every player saw it. Each seat plays to every trick,
so between two of its decisions in the play exactly one trick ends: the
agent adds that trick (``last_trick_cards``) to the pile of the team that
leads next (its winner). ``memory`` is ``uint64[4]``: the two team piles,
the tricks recorded, and a flag set when tricks were missed (the agent
joined mid-deal), whose cards are then split by the teams' trick counts.
"""

from __future__ import annotations

import numpy as np

__all__ = ["update_memory"]


def update_memory(game, rec, memory: np.ndarray) -> None:
    """Update the seat's memory of ``game`` (a ``Game``) from its observation record ``rec``."""
    if not game.search.trick_memory:
        return
    if int(rec["phase"]) != game.play_phase or int(rec["trick_no"]) == 0:
        memory[:] = 0
        return
    trick_no = int(rec["trick_no"])
    recorded = int(memory[2])
    if trick_no == recorded:
        return
    last = 0
    for c in rec["last_trick_cards"]:
        if c >= 0:
            last |= 1 << int(c)
    team = int(rec["leader"]) % 2
    if trick_no == recorded + 1:
        memory[team] |= np.uint64(last)
    else:  # missed tricks: attribute their cards by the teams' trick counts
        done = 0
        for p in rec["played"]:
            done |= int(p)
        for c in rec["trick_cards"][: int(rec["trick_n"])]:
            done &= ~(1 << int(c))
        memory[team] |= np.uint64(last)
        unknown = done & ~int(memory[0]) & ~int(memory[1])
        won = rec["tricks_won"]
        need0 = 4 * (int(won[0]) + int(won[2])) - bin(int(memory[0])).count("1")
        cards = [c for c in range(game.deck.n_cards) if (unknown >> c) & 1]
        for i, c in enumerate(cards):
            memory[0 if i < need0 else 1] |= np.uint64(1 << c)
        memory[3] = 1
    memory[2] = trick_no
