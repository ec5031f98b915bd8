"""Column names in words, for axis labels, legends and headings.

The analysis tables keep the simulator's column names (``hf_trump_top``);
a figure shows what they mean ("top trumps held (of A K Q J)"). This is the
one mapping from names to words: every plot asks :func:`column_label`.
"""

from __future__ import annotations

__all__ = ["COLUMN_LABELS", "column_label"]

#: Short words for every column a plot may put on an axis, in a legend or a title.
COLUMN_LABELS = {
    # Grouping columns of the bid tables.
    "contract": "contract",
    "players": "players at the table",
    "position": "declarer's seat after the dealer (1 = eldest, 0 = dealer)",
    "bid": "winning bid",
    "trumps": "trump suit",
    "dd_tricks": "tricks makeable double dummy",
    "declarer_tricks": "tricks taken by the declaring side",
    "declarer_points": "card points taken by the declarer",
    "p_made": "the agents' own estimate of making the contract",
    # Hand features (trickgym.sim.features), of the declarer's hand as dealt.
    "hf_trump_len": "trumps in the declarer's hand (as dealt)",
    "hf_trump_top": "top trumps held (of A K Q J)",
    "hf_hcp": "high-card points (A 4, K 3, Q 2, J 1)",
    "hf_voids": "void suits",
    "hf_singletons": "singleton suits",
    "hf_longest": "cards in the longest suit",
    "hf_trumps": "trumps held (I..XXI, Fool not counted)",
    "hf_high_trumps": "high trumps held (XV..XXI)",
    "hf_fool": "holds the Fool (1) or not (0)",
    "hf_kings": "Kings held",
    "hf_meld": "meld of the hand as dealt (in the trump named)",
    "hf_aces": "Aces held (of 8)",
}


def column_label(name) -> str:
    """``name`` in words (:data:`COLUMN_LABELS`); a column not listed keeps its name.

    A name not listed is shown with spaces for underscores, so a user's own
    column still reads as itself.
    """
    if name in COLUMN_LABELS:
        return COLUMN_LABELS[name]
    return str(name).replace("_", " ")
