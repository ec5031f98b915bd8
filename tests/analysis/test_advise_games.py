"""The hand advisor for Pinochle, Troggu and Phat by rule play (``play="dd"``:
test_advise_dd_points.py)."""

from __future__ import annotations

import numpy as np
import pytest

import trickgym
from trickgym.analysis import hand_odds
from trickgym.cards.notation import parse_hand
from trickgym.cli import main

PN_HAND = "AATKQ.AQ.KQ.9J"  # 11 cards (kitty mode)


@pytest.fixture(scope="module")
def pinochle_frame():
    return hand_odds("pinochle", PN_HAND, seat=1, dealer=0, deals=24, play="rule", seed=1)


def test_pinochle_rows_are_pass_and_bid_levels(pinochle_frame):
    df = pinochle_frame
    assert df["contract"].tolist() == ["Pass", *(str(250 + 10 * i) for i in range(16))]
    assert df["trumps"].eq("").all() and df["best"].sum() == 1
    bids = df.iloc[1:]
    assert (bids["played"] == 24).all()
    # After the auction the rule agents play the same whatever the level: the same points
    # on every deal, so a higher bid is made on a subset of the deals a lower one is.
    assert bids["mean_points"].nunique() == 1
    assert bids["made"].is_monotonic_decreasing
    assert "mean_tricks" not in df.columns


def test_pinochle_auction_and_dealer_stuck():
    df = hand_odds("pinochle", PN_HAND, seat=2, dealer=0, auction_so_far="300", deals=4,
                   play="rule")  # fmt: skip
    assert df["contract"].tolist()[:2] == ["Pass", "310"]
    stuck = hand_odds("pinochle", PN_HAND, seat=0, dealer=0, auction_so_far="Pass,Pass,Pass",
                      deals=4, play="rule")  # fmt: skip
    assert stuck["contract"].iloc[0] == "250"  # PN-D9: the dealer may not pass


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(turn_up="AS"), "Pinochle has no turn-up card"),
        (dict(hand="AATKQ.AQ.KQ.9"), "10 cards"),
        (dict(hand="AAATK.AQ.KQ.9J"), "more than 2 time"),
        (dict(auction_so_far="240"), "unknown action '240'|illegal"),
    ],
)
def test_pinochle_bad_input(kwargs, message):
    args = dict(hand=PN_HAND, seat=1, dealer=0, deals=4, play="rule") | kwargs
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        hand_odds("pinochle", **args)


def test_cli_pinochle(capsys):
    code = main(["advise", "--game", "pinochle", "--hand", PN_HAND, "--seat", "1", "--dealer", "0",
                 "--deals", "8", "--play", "rule", "--quiet"])  # fmt: skip
    out = capsys.readouterr()
    assert code == 0, out.err
    lines = out.out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("contract"))
    end = lines.index("", start)  # the table ends at a blank line; notes and legend follow
    assert end - start - 1 == 17
    # Issue 31: the same mean points on every bid row, printed once; no empty trumps column
    # and no unsolved column under rule play.
    assert "mean points" not in lines[start] and "trumps" not in lines[start]
    assert "unsolved" not in out.out
    assert any(line.startswith("mean points: ") and "every row but Pass" in line
               for line in lines[end:])  # fmt: skip


# ---------------------------------------------------------------------------- Troggu

TR_STRONG = "Fool XXI XX XIX XVIII XVII XVI XV KC KD KS KB QC"  # 13 cards: 4 players


def test_troggu_pass_tapp_solo():
    df = hand_odds(trickgym.game("troggu", players=4), TR_STRONG, seat=1, dealer=0, deals=24,
                   play="rule", seed=2)  # fmt: skip
    assert df["contract"].tolist() == ["Pass", "Tapp", "Solo"]
    rows = df.set_index("contract")
    assert rows.loc["Tapp", "played"] == rows.loc["Solo", "played"] == 24
    assert np.isnan(rows.loc["Pass", "made_pct"])
    # Eight top trumps, the Fool and the four kings: at least half the card points.
    assert rows.loc["Solo", "made_pct"] > 50 and rows.loc["Solo", "mean_points"] > 57
    assert df["best"].sum() == 1


def test_troggu_bad_input():
    game = trickgym.game("troggu", players=4)
    with pytest.raises(ValueError, match="12 cards, a Troggu hand of 4 players has 13"):
        hand_odds(game, "Fool XXI XX XIX XVIII XVII XVI XV KC KD KS KB", deals=2, play="rule")
    with pytest.raises(ValueError, match=r"seat must be a seat 0\.\.3, got 4"):
        hand_odds(game, TR_STRONG, seat=4, deals=2, play="rule")


def test_cli_troggu(capsys):
    code = main(["advise", "--game", "troggu", "--hand", TR_STRONG, "--players", "4", "--seat", "1",
                 "--dealer", "0", "--deals", "8", "--play", "rule", "--quiet"])  # fmt: skip
    out = capsys.readouterr()
    assert code == 0, out.err
    lines = out.out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("contract"))
    rows = lines[start + 1 : lines.index("", start)]
    assert [r[:22].strip() for r in rows] == ["Pass", "Tapp", "Solo"]
    assert "trumps" not in lines[start] and "unsolved" not in out.out


# ---------------------------------------------------------------------------- Phat

PH_HAND = "A95.K9.QJ5.T9852"


def test_phat_pitch_rows():
    df = hand_odds("phat", PH_HAND, seat=2, deals=16, play="rule", seed=3)
    assert df["contract"].tolist() == ["Pitch S", "Pitch H", "Pitch D", "Pitch C"]
    assert df["trumps"].tolist() == list("SHDC")
    # Each row keeps a card of its own suit.
    hand = parse_hand(PH_HAND)
    from trickgym.cards.notation import parse_card

    for suit, card in zip("SHDC", df["card"], strict=True):
        c = parse_card(card)
        assert card.endswith(suit) and hand >> c & 1
    assert (df["played"] == 16).all() and df["best"].sum() == 1
    assert df["mean_points"].between(0, 80).all()


def test_phat_bad_input():
    with pytest.raises(ValueError, match="seat 2 pitches when the dealer is seat 1, not 0"):
        hand_odds("phat", PH_HAND, seat=2, dealer=0, deals=2, play="rule")
    with pytest.raises(ValueError, match="phat has no auction"):
        hand_odds("phat", PH_HAND, seat=2, auction_so_far="Pass", deals=2, play="rule")


def test_cli_phat(capsys):
    code = main(["advise", "--game", "phat", "--hand", PH_HAND, "--seat", "2", "--deals", "8",
                 "--play", "rule", "--quiet"])  # fmt: skip
    out = capsys.readouterr()
    assert code == 0, out.err
    lines = out.out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("contract"))
    rows = lines[start + 1 : lines.index("", start)]
    assert [r[:7] for r in rows] == ["Pitch S", "Pitch H", "Pitch D", "Pitch C"]
