"""Derived columns every analysis needs: the game of a frame, the declarer's payoff, seat position.

Simulation rows differ by game (see :func:`trickgym.sim.simulate`); these
helpers give them the common vocabulary of a bid: who declared, whether it
was made, what it paid and where the declarer sat.
"""

from __future__ import annotations

import importlib

import numpy as np
import pandas as pd

from ..games import DESCRIPTIONS, description

__all__ = [
    "by_columns",
    "declared",
    "declarer_payoff",
    "detect_game",
    "feature_columns",
    "game_of",
    "plain_index",
    "require",
    "seat_position",
    "with_game",
]


def require(df: pd.DataFrame, *columns: str, hint: str = "") -> None:
    """``ValueError`` unless ``df`` is a DataFrame; names the first of ``columns`` missing."""
    if not isinstance(df, pd.DataFrame):
        shown = f"{df!r}"[:60]
        raise ValueError(
            f"df must be a pandas DataFrame of simulation rows, got {shown} ({type(df).__name__})"
        )
    for col in columns:
        if col not in df.columns:
            have = ", ".join(map(str, df.columns))
            raise ValueError(f"column {col!r} missing{hint}; have: {have}")


_NO_FRAME = object()


def by_columns(by, df=_NO_FRAME, name: str = "by") -> list[str]:
    """``by`` (one column name or a list of them) as a list, or a ``ValueError`` naming it.

    With ``df``, every name must be one of its columns (the error names ``name``).
    """
    cols = [by] if isinstance(by, str) else by
    if not isinstance(cols, list | tuple) or not all(isinstance(c, str) for c in cols):
        raise ValueError(f"{name} must be a column name or a list of column names, got {by!r}")
    if df is not _NO_FRAME:
        require(df)
        for col in cols:
            if col not in df.columns:
                have = ", ".join(map(str, df.columns))
                raise ValueError(f"{name}={by!r} names no column of df ({col!r}); have: {have}")
    return list(cols)


def analysis_part(game: str):
    """The module of ``game``'s own analysis part (its description's ``analysis``), or None.

    A game whose rows are not bids (Phat: races to 181, pitches instead of
    contracts) names a module giving ``bids(df)`` (its rows as bids),
    ``summary_text(df)`` (the command line's table) and
    ``report_sections(...)`` (the HTML report's); for the others the rows
    are bids already.
    """
    module = description(game).analysis
    return None if module is None else importlib.import_module(module)


def detect_game(df: pd.DataFrame) -> str:
    """The game whose ``simulate`` rows ``df`` holds, from its columns.

    Raises ``ValueError`` when the columns match no game.
    """
    require(df)
    cols = set(df.columns)
    # Each description names the columns only its game's rows have together.
    for name, desc in DESCRIPTIONS.items():
        if desc.columns and desc.columns <= cols:
            return name
    names = "|".join(repr(n) for n, d in DESCRIPTIONS.items() if d.columns)
    raise ValueError(
        f"cannot tell the game of these rows: expected the columns of simulate({names}, ...)"
    )


def game_of(df: pd.DataFrame) -> str | None:
    """The game of ``df``'s rows (:func:`detect_game`), or None for rows of no known game."""
    try:
        return detect_game(df)
    except ValueError:
        return None


def with_game(table: pd.DataFrame, df: pd.DataFrame) -> pd.DataFrame:
    """``table`` marked with the game of the rows ``df`` it was made from (``attrs["game"]``).

    Its plots then name a bid and its maker as that game does (Phat: pitch
    and pitcher, :func:`~trickgym.analysis.labels.bid_words`).
    """
    game = game_of(df)
    if game is not None:
        table.attrs["game"] = game
    return table


def n_players(df: pd.DataFrame) -> np.ndarray:
    """Players at the table of every row (Troggu has a ``players`` column; the others 4)."""
    if "players" in df.columns:
        return df["players"].to_numpy(dtype=np.int64)
    return np.full(len(df), 4, dtype=np.int64)


def declared(df: pd.DataFrame) -> pd.Series:
    """Boolean Series: rows with a declarer (not passed out, not an all-play Misère)."""
    require(df, "declarer")
    return df["declarer"] >= 0


def declarer_payoff(df: pd.DataFrame) -> pd.Series:
    """The declarer's payoff in every row (nan where nobody declared).

    Solo Whist and Troggu: ``payoff_<declarer>``. Pinochle: the hand score
    of the declaring team (``score_ns`` for seats 0 and 2, else
    ``score_ew``). Rows of a frame already holding ``declarer_payoff`` (e.g.
    :func:`trickgym.analysis.phat.pitch_frame`) keep it.
    """
    require(df)
    if "declarer_payoff" in df.columns:
        return df["declarer_payoff"].astype(float)
    require(df, "declarer")
    seat = df["declarer"].to_numpy(dtype=np.int64)
    out = np.full(len(df), np.nan)
    payoff_cols = []
    while f"payoff_{len(payoff_cols)}" in df.columns:
        payoff_cols.append(f"payoff_{len(payoff_cols)}")
    if payoff_cols:
        payoffs = df[payoff_cols].to_numpy(dtype=float)
        ok = (seat >= 0) & (seat < len(payoff_cols))
        out[ok] = payoffs[np.flatnonzero(ok), seat[ok]]
    elif {"score_ns", "score_ew"} <= set(df.columns):
        ns = df["score_ns"].to_numpy(dtype=float)
        ew = df["score_ew"].to_numpy(dtype=float)
        out = np.where(seat < 0, np.nan, np.where(seat % 2 == 0, ns, ew))
    else:
        raise ValueError("no payoff columns: expected payoff_0.. or score_ns/score_ew")
    return pd.Series(out, index=df.index, name="declarer_payoff")


def seat_position(df: pd.DataFrame) -> pd.Series:
    """Declarer's position after the dealer: 1 = eldest (first to speak) .. 0 = the dealer.

    Every game here passes the turn from seat ``s`` to ``(s+1) % n``, so the
    position is ``(declarer - dealer) % players``; nan where nobody declared.
    """
    require(df, "declarer", "dealer")
    seat = df["declarer"].to_numpy(dtype=np.int64)
    pos = (seat - df["dealer"].to_numpy(dtype=np.int64)) % n_players(df)
    return (
        pd.Series(np.where(seat >= 0, pos, -1), index=df.index, name="position")
        .astype(pd.Int64Dtype())
        .where(seat >= 0)
    )


def feature_columns(df: pd.DataFrame) -> list[str]:
    """The hand-feature columns of ``df`` (named ``hf_*``), in frame order."""
    require(df)
    return [c for c in df.columns if str(c).startswith("hf_")]


def plain_index(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with the unused categories of its categorical MultiIndex levels dropped.

    Group-by on categorical columns leaves categorical index levels, and
    pandas 3.1 selects the wrong rows of such a MultiIndex with
    ``table.loc[["Solo"]]`` when a category is unused (it looks up category
    codes as level codes). Without unused categories the two agree; the
    levels stay categorical, so they still sort in contract order. A single
    categorical index selects correctly and is left as it is.
    """
    index = table.index
    if isinstance(index, pd.MultiIndex):
        for i, level in enumerate(index.levels):
            if isinstance(level, pd.CategoricalIndex):
                index = index.set_levels(level.remove_unused_categories(), level=i)
        table.index = index
    return table
