"""Column names in words, for axis labels, legends and headings.

The analysis tables keep the simulator's column names (``hf_trump_top``);
a figure shows what they mean ("top trumps held (of A K Q J)"). This is the
one mapping from names to words: every plot asks :func:`column_label`.
"""

from __future__ import annotations

import re

from ..api import BidWords
from ..games import game_class

__all__ = ["COLUMN_LABELS", "bid_words", "column_label"]

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


def bid_words(game: str | None = None) -> BidWords:
    """What ``game`` calls a bid and its maker (its class's ``bid_words``).

    ``None`` (rows of no known game) gives the words of the games with an
    auction: contract and declarer.
    """
    if game is None:
        return BidWords()

    return game_class(game).bid_words


def in_words_of(text: str, game: str | None) -> str:
    """``text`` with "contract(s)" and "declarer" said as ``game`` says them (Phat: pitch)."""
    words = bid_words(game)
    if words == BidWords():
        return text
    for plain, own in zip(BidWords(), words, strict=True):
        text = re.sub(rf"\b{plain}\b", own, text)
        text = re.sub(rf"\b{plain.capitalize()}\b", own.capitalize(), text)  # a title's first
    return text


def column_label(name, game: str | None = None) -> str:
    """``name`` in words (:data:`COLUMN_LABELS`); a column not listed keeps its name.

    A name not listed is shown with spaces for underscores, so a user's own
    column still reads as itself. With ``game``, a bid and its maker are
    named in that game's words (Phat's ``hf_trump_len``: "trumps in the
    pitcher's hand").
    """
    if name in COLUMN_LABELS:
        return in_words_of(COLUMN_LABELS[name], game)
    return str(name).replace("_", " ")
