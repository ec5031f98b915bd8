"""Turn simulation rows (numpy records) into tidy pandas DataFrames."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
from numba import njit

from trickgym.cards.decks import STANDARD, TAROT
from trickgym.games.solowhist.constants import CALL_BASE, CALL_LETTERS, CONTRACT_NAMES
from trickgym.games.troggu import constants as troggu

from .features import FEATURE_COLUMNS

__all__ = ["auction_codes", "phat_frame", "pinochle_frame", "solowhist_frame", "troggu_frame"]

_TRUMP_NAMES = ["NT", "S", "H", "D", "C"]


def _add_features(frame: dict, rows: np.ndarray, game: str) -> None:
    """Append the game's ``hf_*`` hand-feature columns (see ``trickgym.sim.features``)."""
    for name in FEATURE_COLUMNS[game]:
        frame[name] = rows[name]


def auction_codes(
    seats: np.ndarray, calls: np.ndarray, letters: str = CALL_LETTERS, call_base: int = CALL_BASE
) -> pd.Series:
    """Compact auction strings such as ``"0- 1P 2- 3- 0C"`` for many deals at once.

    Each call (an action id, ``-1`` past the end) is the caller's seat and
    one letter, ``letters[action - call_base]``. Solo Whist's letters: ``-``
    Pass, ``P`` Prop, ``C`` Cop, ``S`` Solo, ``M`` Misère, ``A`` Abundance,
    ``T`` Abundance in Trumps, ``O`` Misère Ouverte, ``D`` Abundance
    Declared, ``x`` Decline. The text is written by a compiled kernel
    straight into an Arrow string buffer, not built string by string.
    """
    codes = np.frombuffer(letters.encode(), dtype=np.uint8)
    data, offsets = _auction_buffers(
        np.ascontiguousarray(seats), np.ascontiguousarray(calls), codes, call_base
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


_DD_STATUS = ("solved", "unsolved", "no contract", "no side")  # trickgym.sim.dd_columns_points


def _add_points_dd(frame: dict, rows: np.ndarray) -> None:
    """``dd_points``, ``dd_made`` and ``dd_status`` of ``simulate(..., dd=True)`` rows.

    ``dd_points`` is -1 and ``dd_made`` ``<NA>`` unless ``dd_status`` is
    ``solved`` (see :mod:`trickgym.sim.dd_columns_points`).
    """
    if "dd_status" not in rows.dtype.names:
        return
    frame["dd_points"] = rows["dd_points"]
    known = rows["dd_made"] >= 0
    frame["dd_made"] = pd.arrays.BooleanArray(rows["dd_made"] == 1, ~known)
    frame["dd_status"] = pd.Categorical.from_codes(rows["dd_status"].astype(np.int64), _DD_STATUS)


def solowhist_frame(rows: np.ndarray, match_mode: bool = False) -> pd.DataFrame:
    """One row per deal: see :func:`trickgym.sim.simulate` for the columns.

    ``match_mode`` adds ``match, deal_in_match, passed_out_before, shuffled``
    after ``deal`` and ``score_0..3`` (match scores after the deal) at the end;
    rows with double-dummy fields (``DD_ROW_DTYPE``) add ``dd_tricks`` (int8,
    -1 unknown) and ``dd_made`` (nullable boolean, ``<NA>`` unknown) after ``made``.
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
    if "dd_made" in rows.dtype.names:  # simulate(..., dd=True)
        frame["dd_tricks"] = rows["dd_tricks"]
        known = rows["dd_made"] >= 0  # -1: no contract, or past the solver's budget
        frame["dd_made"] = pd.arrays.BooleanArray(rows["dd_made"] == 1, ~known)
    for s in range(4):
        frame[f"payoff_{s}"] = rows["payoffs"][:, s]
    frame["auction"] = auction_codes(rows["call_seats"], rows["calls"])
    for s in range(4):
        frame[f"hand_{s}"] = rows["hands"][:, s]
    if match_mode:
        for s in range(4):
            frame[f"score_{s}"] = rows["scores"][:, s]
    _add_features(frame, rows, "solowhist")
    return pd.DataFrame(frame)


def troggu_frame(rows: np.ndarray, n_players: int) -> pd.DataFrame:
    """One row per Troggu deal: see :func:`trickgym.sim.simulate` for the columns."""
    n = n_players
    contract = pd.Categorical.from_codes(
        rows["contract"].astype(np.int64) - 1, troggu.CONTRACT_NAMES[1:], ordered=True
    )
    called = pd.Categorical.from_codes(rows["called_card"].astype(np.int64), TAROT.card_names)
    # Calls in speaking order from the dealer's right-hand neighbour (next(dealer)).
    order = (rows["dealer"].astype(np.int64)[:, None] + 1 + np.arange(n)) % n
    calls = np.take_along_axis(rows["calls"][:, :n].astype(np.int64), order, axis=1)
    spoken = calls >= 0
    auction = auction_codes(
        np.where(spoken, order, -1),
        np.where(spoken, calls + troggu.CALL_BASE, -1),
        troggu.CALL_LETTERS,
        troggu.CALL_BASE,
    )
    frame = {
        "deal": rows["deal"],
        "players": rows["players"],
        "dealer": rows["dealer"],
        "contract": contract,
        "declarer": rows["declarer"],
        "partner": rows["partner"],
        "called_card": called,
        "declarer_points": rows["declarer_points"],
        "declarer_tricks": rows["declarer_tricks"],
        "made": rows["made"],
    }
    _add_points_dd(frame, rows)
    frame.update(
        fool_held_back=rows["fool_held_back_by"] >= 0,
        fool_held_back_by=rows["fool_held_back_by"],
        auction=auction,
    )
    for s in range(n):
        frame[f"payoff_{s}"] = rows["payoffs"][:, s]
    for s in range(n):
        frame[f"points_{s}"] = rows["points"][:, s]
    for s in range(n):
        frame[f"hand_{s}"] = rows["hands"][:, s]
    frame["tapp"] = rows["tapp"]
    _add_features(frame, rows, "troggu")
    return pd.DataFrame(frame)


def phat_frame(rows: np.ndarray) -> pd.DataFrame:
    """One row per Phat deal: see :func:`trickgym.sim.simulate` for the columns."""
    teams = ["NS", "EW"]
    frame = {
        "match": rows["match"],
        "game": rows["game"],
        "deal": rows["deal"],
        "pitcher": rows["pitcher"],
        "trumps": pd.Categorical.from_codes(rows["trumps"].astype(np.int64), ["S", "H", "D", "C"]),
        "tricks": rows["tricks"],
        "phat_ns": rows["phat"][:, 0],
        "phat_ew": rows["phat"][:, 1],
        "muck_ns": rows["muck"][:, 0],
        "muck_ew": rows["muck"][:, 1],
        "bonus_to": pd.Categorical.from_codes(rows["bonus_to"].astype(np.int64), teams),
        "bonus": rows["bonus"],
        "carry": rows["carry"],
        "score_ns": rows["scores"][:, 0],
        "score_ew": rows["scores"][:, 1],
        "game_over": rows["game_over"],
        "winner": pd.Categorical.from_codes(rows["winner"].astype(np.int64), teams),
    }
    _add_points_dd(frame, rows)
    for s in range(4):
        frame[f"hand_{s}"] = rows["hands"][:, s]
    _add_features(frame, rows, "phat")
    return pd.DataFrame(frame)


def _bid_auction(seats: np.ndarray, calls: np.ndarray) -> pd.Series:
    """Pinochle auctions as ``"1:250 2:P 3:300"`` (P for a pass), built by a kernel."""
    data, offsets = _bid_buffers(np.ascontiguousarray(seats), np.ascontiguousarray(calls))
    n = len(offsets) - 1
    strings = pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data))
    return pd.Series(pd.array(strings, dtype=pd.StringDtype("pyarrow", na_value=np.nan)))


@njit(cache=True)
def _bid_buffers(seats, calls):
    n, width = calls.shape
    offsets = np.zeros(n + 1, dtype=np.int32)
    data = np.empty(n * width * 7, dtype=np.uint8)  # "s:1234 " at most
    pos = 0
    for i in range(n):
        for j in range(width):
            value = calls[i, j]
            if value < 0:
                break
            if j > 0:
                data[pos] = 32
                pos += 1
            data[pos] = 48 + seats[i, j]
            data[pos + 1] = 58  # ':'
            pos += 2
            if value == 0:
                data[pos] = 80  # 'P'
                pos += 1
                continue
            digits = 1
            while value >= 10**digits:
                digits += 1
            for k in range(digits - 1, -1, -1):
                data[pos + k] = 48 + value % 10
                value //= 10
            pos += digits
        offsets[i + 1] = pos
    return data[:pos].copy(), offsets


def pinochle_frame(rows: np.ndarray, match_mode: bool = False) -> pd.DataFrame:
    """One row per Pinochle hand: see :func:`trickgym.sim.simulate` for the columns.

    ``match_mode`` (whole races to the target) puts ``match`` first (``deal``
    is then the hand's index in its match) and adds the match scores after
    the hand, ``match_ns, match_ew``, with ``game_over`` and ``winner``.
    """
    bid = rows["bid"].astype(np.int64)
    low = bid // 50 * 50
    contract = np.where(rows["passed_out"], "Passed out", [f"{a}-{a + 40}" for a in low.tolist()])
    frame = {
        **({"match": rows["match"]} if match_mode else {}),
        "deal": rows["deal"],
        "mode": pd.Categorical.from_codes(rows["mode"].astype(np.int64), ["kitty", "exchange"]),
        "dealer": rows["dealer"],
        "declarer": rows["declarer"],
        "bid": rows["bid"],
        "contract": contract,
        "trumps": pd.Categorical.from_codes(rows["trumps"].astype(np.int64), ["S", "H", "D", "C"]),
        "meld_ns": rows["meld"][:, 0],
        "meld_ew": rows["meld"][:, 1],
        "counters_ns": rows["counters"][:, 0],
        "counters_ew": rows["counters"][:, 1],
        "saved_ns": rows["saved"][:, 0].astype(bool),
        "saved_ew": rows["saved"][:, 1].astype(bool),
        "made": rows["made"],
    }
    _add_points_dd(frame, rows)
    frame |= {
        "score_ns": rows["hand_scores"][:, 0],
        "score_ew": rows["hand_scores"][:, 1],
        "auction": _bid_auction(rows["call_seats"], rows["calls"]),
    }
    if match_mode:
        frame["match_ns"] = rows["scores"][:, 0]
        frame["match_ew"] = rows["scores"][:, 1]
        frame["game_over"] = rows["game_over"]
        frame["winner"] = pd.Categorical.from_codes(rows["winner"].astype(np.int64), ["NS", "EW"])
    for s in range(4):
        frame[f"hand_{s}"] = rows["hands"][:, s]
    frame["kitty"] = rows["kitty"]
    _add_features(frame, rows, "pinochle")
    return pd.DataFrame(frame)
