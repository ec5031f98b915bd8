"""Turn simulation rows (numpy records) into tidy pandas DataFrames."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
from numba import njit

from trickgym.cards.decks import STANDARD
from trickgym.games.solowhist.constants import CALL_BASE, CALL_LETTERS, CONTRACT_NAMES

__all__ = ["auction_codes", "solowhist_frame"]

_TRUMP_NAMES = ["NT", "S", "H", "D", "C"]


def auction_codes(seats: np.ndarray, calls: np.ndarray) -> pd.Series:
    """Compact auction strings such as ``"0- 1P 2- 3- 0C"`` for many deals at once.

    Each call is the caller's seat and one letter (``CALL_LETTERS``: ``-``
    Pass, ``P`` Prop, ``C`` Cop, ``S`` Solo, ``M`` Misère, ``A`` Abundance,
    ``T`` Abundance in Trumps, ``O`` Misère Ouverte, ``D`` Abundance
    Declared, ``x`` Decline). The text is written by a compiled kernel
    straight into an Arrow string buffer, not built string by string.
    """
    letters = np.frombuffer(CALL_LETTERS.encode(), dtype=np.uint8)
    data, offsets = _auction_buffers(
        np.ascontiguousarray(seats), np.ascontiguousarray(calls), letters, CALL_BASE
    )
    n = len(offsets) - 1
    strings = pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data))
    return pd.Series(pd.array(strings, dtype=pd.StringDtype("pyarrow", na_value=np.nan)))


@njit(cache=True)
def _auction_buffers(seats, calls, letters, call_base):
    n, width = calls.shape
    offsets = np.zeros(n + 1, dtype=np.int32)
    data = np.empty(n * width * 3, dtype=np.uint8)
    pos = 0
    for i in range(n):
        for j in range(width):
            if calls[i, j] < 0:
                break
            if j > 0:
                data[pos] = 32  # space between calls
                pos += 1
            data[pos] = 48 + seats[i, j]  # the seat digit
            data[pos + 1] = letters[calls[i, j] - call_base]
            pos += 2
        offsets[i + 1] = pos
    return data[:pos].copy(), offsets


def solowhist_frame(rows: np.ndarray, match_mode: bool = False) -> pd.DataFrame:
    """One row per deal: see :func:`trickgym.sim.simulate` for the columns.

    ``match_mode`` adds ``match, deal_in_match, passed_out_before, shuffled``
    after ``deal`` and ``score_0..3`` (match scores after the deal) at the end.
    """
    contract = pd.Categorical.from_codes(
        rows["contract"].astype(np.int64), CONTRACT_NAMES, ordered=True
    )
    frame = {
        "deal": rows["deal"],
        **(
            {
                "match": rows["match"],
                "deal_in_match": rows["deal_in_match"],
                "passed_out_before": rows["passed_out_before"],
                "shuffled": rows["shuffled"],
            }
            if match_mode
            else {}
        ),
        "dealer": rows["dealer"],
        "turn_up": pd.Categorical.from_codes(rows["turn_up"].astype(np.int64), STANDARD.card_names),
        "contract": contract,
        "declarer": rows["declarer"],
        "partner": rows["partner"],
        "trumps": pd.Categorical.from_codes(rows["trumps"].astype(np.int64) + 1, _TRUMP_NAMES),
        "declarer_tricks": rows["declarer_tricks"],
        "made": rows["made"],
    }
    for s in range(4):
        frame[f"payoff_{s}"] = rows["payoffs"][:, s]
    frame["auction"] = auction_codes(rows["call_seats"], rows["calls"])
    for s in range(4):
        frame[f"hand_{s}"] = rows["hands"][:, s]
    if match_mode:
        for s in range(4):
            frame[f"score_{s}"] = rows["scores"][:, s]
    return pd.DataFrame(frame)
