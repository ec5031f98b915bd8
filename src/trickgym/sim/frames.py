"""Turn simulation rows (numpy records) into tidy pandas DataFrames."""

from __future__ import annotations

import numpy as np
import pandas as pd

from trickgym.cards.decks import STANDARD
from trickgym.games.solowhist.constants import CALL_BASE, CALL_LETTERS, CONTRACT_NAMES

__all__ = ["auction_codes", "solowhist_frame"]

_TRUMP_NAMES = np.array(["NT", "S", "H", "D", "C"], dtype=object)


def auction_codes(seats: np.ndarray, calls: np.ndarray) -> np.ndarray:
    """Compact auction strings such as ``"0- 1P 2- 3- 0C"`` for many deals at once.

    Each call is the caller's seat and one letter (``CALL_LETTERS``: ``-``
    Pass, ``P`` Prop, ``C`` Cop, ``S`` Solo, ``M`` Misère, ``A`` Abundance,
    ``T`` Abundance in Trumps, ``O`` Misère Ouverte, ``D`` Abundance
    Declared, ``x`` Decline). Built with array operations, not a Python loop.
    """
    n, width = calls.shape
    letters = np.frombuffer(CALL_LETTERS.encode(), dtype=np.uint8)
    present = calls >= 0
    out = np.full((n, width, 3), ord(" "), dtype=np.uint8)
    out[..., 0] = np.where(present, ord("0") + seats.clip(0), ord(" "))
    out[..., 1] = np.where(present, letters[(calls - CALL_BASE).clip(0)], ord(" "))
    strings = out.reshape(n, width * 3).view(f"S{width * 3}").ravel()
    return np.char.strip(strings.astype("U")).astype(object)


def solowhist_frame(rows: np.ndarray) -> pd.DataFrame:
    """One row per deal: see :func:`trickgym.sim.simulate` for the columns."""
    contract = pd.Categorical.from_codes(
        rows["contract"].astype(np.int64), CONTRACT_NAMES, ordered=True
    )
    card_names = np.array(STANDARD.card_names, dtype=object)
    frame = {
        "deal": rows["deal"],
        "dealer": rows["dealer"],
        "turn_up": card_names[rows["turn_up"].astype(np.int64)],
        "contract": contract,
        "declarer": rows["declarer"],
        "partner": rows["partner"],
        "trumps": _TRUMP_NAMES[rows["trumps"].astype(np.int64) + 1],
        "declarer_tricks": rows["declarer_tricks"],
        "made": rows["made"],
    }
    for s in range(4):
        frame[f"payoff_{s}"] = rows["payoffs"][:, s]
    frame["auction"] = auction_codes(rows["call_seats"], rows["calls"])
    for s in range(4):
        frame[f"hand_{s}"] = rows["hands"][:, s]
    return pd.DataFrame(frame)
