"""Phat batch simulation (whole matches): the Python loop, row invariants.

Determinism (threads, ``first``, seeds) and the dealt pack are checked for
every game in ``tests/sim``.

The invariants are written from ``docs/rules/phat.md`` (§3 deal, §5
scoring and game end, PH-D1 rotation, PH-D2/D3 muck bonus and carry, §8
games in a match), independently of the kernels: each row is checked
against the row before it in the same game.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import trickgym
from trickgym.agents import RandomAgent
from trickgym.rng import seed_rng
from trickgym.sim import simulate
from trickgym.sim.frames import phat_frame
from trickgym.sim.python_loop import simulate_python_whole_matches
from trickgym.sim.specs import SPECS

HANDS = [f"hand_{s}" for s in range(4)]
COLUMNS = [
    "match",
    "game",
    "deal",
    "pitcher",
    "trumps",
    "tricks",
    "phat_ns",
    "phat_ew",
    "muck_ns",
    "muck_ew",
    "bonus_to",
    "bonus",
    "carry",
    "score_ns",
    "score_ew",
    "game_over",
    "winner",
    *HANDS,
]


@pytest.fixture(scope="module")
def big():
    """Many random matches of two games each (the compiled loop, all threads)."""
    return with_history(simulate("phat", matches=20_000, agents="random", seed=3, games_in_match=2))


def with_history(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` plus the scores and carry before each deal (0 at the start of a game)."""
    df = df.copy()
    game = df.groupby(["match", "game"], sort=False)
    for col in ("score_ns", "score_ew", "carry"):
        df[col + "_before"] = game[col].shift(1, fill_value=0)
    df["first_of_game"] = game.cumcount() == 0
    return df


def python_rows(game, seed: int, first: int, matches: int, agents) -> pd.DataFrame:
    rows = simulate_python_whole_matches(
        game, SPECS["phat"], np.uint64(seed_rng(seed)), first, matches, agents
    )
    return phat_frame(rows[rows["deal"] >= 0])


# ------------------------------------------------------------------ determinism


@pytest.mark.parametrize(("games_in_match", "first"), [(1, 0), (3, 40)])
def test_python_loop_matches_compiled(games_in_match, first):
    """The Python loop with built-in agents plays the very same matches."""
    compiled = simulate(
        "phat", matches=60, agents="random", seed=9, first=first, games_in_match=games_in_match
    )
    game = trickgym.game("phat", games_in_match=games_in_match)
    assert_frame_equal(python_rows(game, 9, first, 60, ["random"] * 4), compiled)


def test_python_agents_same_cards():
    """A Python agent gets the same cards deal by deal; its matches are whole and legal."""
    base = with_history(simulate("phat", matches=40, agents="random", seed=5))
    df = with_history(
        simulate("phat", matches=40, agents=[RandomAgent(1), *["random"] * 3], seed=5)
    )
    for frame in (base, df):
        frame["k"] = frame.groupby("match").cumcount()
    both = base.merge(df, on=["match", "k"], suffixes=("", "_py"))
    assert len(both) >= 0.9 * len(base)
    for col in ["pitcher", *HANDS]:
        assert (both[col] == both[col + "_py"]).all(), col
    assert not (both["phat_ns"] == both["phat_ns_py"]).all()  # different play
    assert (df.groupby("match")["game_over"].sum() == 1).all()


# -------------------------------------------------------------------- invariants


def test_columns(big):
    assert list(big.columns[: len(COLUMNS)]) == COLUMNS
    assert list(big["trumps"].cat.categories) == ["S", "H", "D", "C"]
    assert list(big["bonus_to"].cat.categories) == ["NS", "EW"]
    assert big["trumps"].notna().all() and big["game_over"].dtype == bool
    assert big["hand_0"].dtype == np.uint64
    assert set(big["match"]) == set(range(20_000)) and set(big["game"]) == {0, 1}


def test_completed_deals_hand_out_80_and_80(big):
    """Every deal played to trick 13 hands out all the phat and all the muck."""
    full = big[big["tricks"] == 13]
    assert ((full["phat_ns"] + full["phat_ew"]) == 80).all()
    assert ((full["muck_ns"] + full["muck_ew"]) == 80).all()
    short = big[big["tricks"] < 13]
    assert len(short) > 0 and big["tricks"].between(1, 13).all()
    assert ((short["phat_ns"] + short["phat_ew"]) <= 80).all()
    assert ((short["muck_ns"] + short["muck_ew"]) <= 80).all()


def _crossed_by_phat(df: pd.DataFrame) -> pd.Series:
    return (df["score_ns_before"] + df["phat_ns"] >= 181) | (
        df["score_ew_before"] + df["phat_ew"] >= 181
    )


def test_games_end_at_181(big):
    """One game-over row per game, its last; the winner at >= 181, the loser below."""
    assert (big.groupby(["match", "game"])["game_over"].sum() == 1).all()
    last = big.groupby(["match", "game"]).tail(1)
    assert last["game_over"].all()
    over = big[big["game_over"]]
    win_score = np.where(over["winner"] == "NS", over["score_ns"], over["score_ew"])
    lose_score = np.where(over["winner"] == "NS", over["score_ew"], over["score_ns"])
    assert (win_score >= 181).all() and (lose_score < 181).all()
    assert big.loc[~big["game_over"], "winner"].isna().all()
    assert (big.loc[~big["game_over"], ["score_ns", "score_ew"]] < 181).all().all()
    # A deal cut short ended the game, at the trick that took a team over (PH-D4).
    short = big[big["tricks"] < 13]
    assert short["game_over"].all() and _crossed_by_phat(short).all()
    assert (short["bonus_to"].isna()).all()
    # Scores before a deal are below the target.
    assert (big[["score_ns_before", "score_ew_before"]] < 181).all().all()


def test_scores_and_bonus(big):
    """Scores are running sums of phat and bonus; more than 40 muck wins 8 + carry (PH-D2/3)."""
    ns_bonus = np.where(big["bonus_to"] == "NS", big["bonus"], 0)
    ew_bonus = np.where(big["bonus_to"] == "EW", big["bonus"], 0)
    assert (big["score_ns"] == big["score_ns_before"] + big["phat_ns"] + ns_bonus).all()
    assert (big["score_ew"] == big["score_ew_before"] + big["phat_ew"] + ew_bonus).all()
    counted = (big["tricks"] == 13) & ~_crossed_by_phat(big)  # muck counted
    over40 = big[["muck_ns", "muck_ew"]].max(axis=1) > 40
    np.testing.assert_array_equal(big["bonus_to"].notna(), counted & over40)
    bonus = big[big["bonus_to"].notna()]
    assert (bonus["bonus"] == 8 + bonus["carry_before"]).all()
    assert (bonus["bonus_to"] == np.where(bonus["muck_ns"] > 40, "NS", "EW")).all()
    assert (big.loc[big["bonus_to"].isna(), "bonus"] == 0).all()
    # The first deal of a game has no carry before it: its bonus is 8.
    assert (big.loc[big["first_of_game"] & big["bonus_to"].notna(), "bonus"] == 8).all()
    assert (bonus["bonus"] > 8).any()  # a carried bonus occurred


def test_carry_follows_ph_d3(big):
    """A 40-40 tie adds 8 to the carry; an awarded bonus resets it to 0."""
    counted = (big["tricks"] == 13) & ~_crossed_by_phat(big)
    tie = counted & (big["muck_ns"] == 40)
    assert tie.sum() > 0
    np.testing.assert_array_equal(big.loc[tie, "carry"], big.loc[tie, "carry_before"] + 8)
    assert (big.loc[counted & ~tie, "carry"] == 0).all()
    assert (big["carry"] % 8 == 0).all()


def test_scores_never_decrease(big):
    assert (big["score_ns"] >= big["score_ns_before"]).all()
    assert (big["score_ew"] >= big["score_ew_before"]).all()


def test_rotation_and_numbering(big):
    """The pitch moves one seat clockwise every deal, across games too (PH-D1, §8)."""
    match = big.groupby("match")
    step = match["pitcher"].diff().dropna() % 4
    assert (step == 1).all()
    assert set(match["pitcher"].first()) == {0, 1, 2, 3}  # random first pitcher (PH-D7)
    game = big.groupby(["match", "game"])
    assert (game["deal"].diff().dropna() == 1).all()
    sizes = game.size()
    assert sizes.between(3, 5).all()  # 2 deals give at most 2 * 88 = 176 < 181
    assert (big.groupby("match")["game"].nunique() == 2).all()


def test_deal_numbering_starts_at_zero_every_game(big):
    assert (big.loc[big["first_of_game"], "deal"] == 0).all()


def test_three_games_per_match():
    df = simulate("phat", matches=200, agents="random", seed=4, games_in_match=3)
    assert (df.groupby("match")["game"].nunique() == 3).all()
    assert (df.groupby("match")["game_over"].sum() == 3).all()
    assert sorted(df["game"].unique()) == [0, 1, 2]
    wins = df[df["game_over"]].groupby("match")["winner"].agg(lambda w: (w == "NS").sum())
    assert set(wins) == {0, 1, 2, 3}


# -------------------------------------------------------------------- bad input


def test_deals_is_refused():
    with pytest.raises(ValueError, match="matches"):
        simulate("phat", 10, "random")
    with pytest.raises(ValueError, match="matches"):
        simulate("phat", deals=10)


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"matches": 0}, "matches.*0"),
        ({"matches": 2.5}, r"matches.*2\.5"),
        ({"matches": 5, "first": -1}, "first.*-1"),
        ({"matches": 5, "threads": 0}, "threads.*0"),
        ({"matches": 5, "games_in_match": 0}, "games_in_match.*0"),
        ({"matches": 5, "num_deals": 4}, "unknown option.*num_deals"),
        ({"matches": 5, "agents": ["random"] * 3}, "list of 4"),
        ({"matches": 5, "agents": "nobody"}, "nobody"),
    ],
)
def test_bad_arguments(kwargs, named):
    with pytest.raises(ValueError, match=named):
        simulate("phat", **kwargs)


_HIGH_TARGET = """
from trickgym.sim import simulate
df = simulate("phat", matches=300, agents="random", seed=1, target=400, threads=1)
assert (df.groupby(["match", "game"])["game_over"].sum() == 1).all()
assert df.groupby("match").size().max() > 5
"""


def test_target_above_181_simulates():
    game = trickgym.game("phat", target=400)
    df = python_rows(game, 1, 0, 20, ["random"] * 4)
    assert (df.groupby(["match", "game"])["game_over"].sum() == 1).all()
    done = subprocess.run([sys.executable, "-c", _HIGH_TARGET], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()[-500:]
