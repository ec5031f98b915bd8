"""Phat rules through the game API: every worked example of phat.md §10, and more.

Trumps ♥ unless stated, as in §10. Tricks are scripted card by card; a seat
with nothing scripted plays its lowest legal card. Whole deals use the
"one suit each" deal of :func:`suit_deal`, whose muck split can be read off
by hand. Scores before a deal are written into ``record["scores"]`` where an
example starts from a given score.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import trickgym
from trickgym.cards import STANDARD, format_hand, parse_card, parse_hand
from trickgym.games.phat import rules
from trickgym.games.phat.constants import DEAL_OVER, PLAY
from trickgym.games.phat.rules import muck_value, phat_value
from trickgym.games.phat.state import STATE_DTYPE

# --- the tables of §2, written from the text ----------------------------------------

RANKS = "A K Q J 10 9 8 7 6 5 4 3 2".split()  # high -> low
SUITS = "SHDC"
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
PHAT_TRUMP = {"9": 18, "5": 10, "A": 4, "K": 3, "Q": 2, "J": 1}
PHAT_PLAIN = {"9": 9, "5": 5}
MUCK = {"10": 10, "A": 4, "K": 3, "Q": 2, "J": 1}
NAMES = [STANDARD.card_names[c] for c in range(52)]


def phat_of(name: str, trumps: str) -> int:
    """Phat of a card name such as ``"9H"`` when ``trumps`` is a suit letter (§2)."""
    rank, suit = name[:-1], name[-1]
    return (PHAT_TRUMP if suit == trumps else PHAT_PLAIN).get(rank, 0)


def muck_of(name: str) -> int:
    return MUCK.get(name[:-1], 0)


def names(mask) -> list[str]:
    mask = int(mask)
    return [NAMES[c] for c in range(52) if mask >> c & 1]


def muck_of_mask(mask) -> int:
    return sum(muck_of(n) for n in names(mask))


# --- helpers --------------------------------------------------------------------------


def game(**options):
    return trickgym.game("phat", **options)


def fill(fixed: dict[int, str], void: dict[int, str] | None = None) -> list[str]:
    """Four hands: the ``fixed`` cards, the rest dealt so that no seat gets a ``void`` suit."""
    void = void or {}
    hands = {s: fixed.get(s, "").split() for s in range(4)}
    taken = {c for h in hands.values() for c in h}
    assert len(taken) == sum(len(h) for h in hands.values()), "a card is fixed twice"

    def allowed(card: str) -> list[int]:
        return [s for s in range(4) if card[-1] not in void.get(s, "")]

    rest = sorted((c for c in NAMES if c not in taken), key=lambda c: len(allowed(c)))
    for card in rest:
        seat = next(s for s in allowed(card) if len(hands[s]) < 13)
        hands[seat].append(card)
    return [" ".join(hands[s]) for s in range(4)]


def play(state, queues: dict[int, list[str]], tricks: int | None = None):
    """Play scripted cards (else the lowest legal) until the deal ends or ``tricks`` are done."""
    while not state.is_over and (tricks is None or state.record["trick_no"] < tricks):
        queue = queues.get(state.current_player)
        state.apply(queue.pop(0) if queue else state.legal_actions()[0])
    return state


def trick(state, *cards: str):
    """Play one trick, the leader's card first; returns the winning seat."""
    assert state.record["trick_n"] == 0
    for card in cards:
        state.apply(card)
    return int(state.record["leader"])  # the winner leads next (also set at the end)


def legal(state) -> set[str]:
    return {state.action_name(a) for a in state.legal_actions()}


def low(swaps: int) -> list[str]:
    """The ``swaps`` lowest ranks, low -> high."""
    return RANKS[::-1][:swaps]


def suit_deal(pitcher: int, swaps: int = 0, kept: tuple[str, str, str] = ("", "", "")):
    """The "one suit each" deal and its script; returns ``(hands, queues)``.

    Role ``r`` is seat ``(pitcher + r) % 4``. Role 0 holds the spades but the
    ``swaps`` lowest, plus the ``swaps`` lowest hearts; role 1 the other
    hearts and the ``swaps`` lowest spades; role 2 every diamond; role 3
    every club. Role 0 pitches its spades from the Ace down, so spades are
    trumps and role 0 wins the first ``13 - swaps`` tricks (role 1 follows
    with its low spades, then everybody but role 0 discards). Then role 0
    leads its low hearts and role 1 wins the last ``swaps`` tricks with the
    hearts in ``kept[0]``, roles 2 and 3 throwing ``kept[1]`` and ``kept[2]``
    (in that order). Every other card is thrown from the lowest up. So role
    1's team wins exactly the muck and phat of the ``kept`` cards.
    """
    lows = low(swaps)
    keep = [k.split() for k in kept]
    assert all(len(k) == swaps for k in keep)
    suit_cards = {s: [r + s for r in RANKS] for s in SUITS}

    def thrown(suit: str, kept_cards: list[str], skip=()) -> list[str]:
        cards = [c for c in suit_cards[suit][::-1] if c not in kept_cards and c[:-1] not in skip]
        return cards + kept_cards

    role_hands = [
        [r + "S" for r in RANKS if r not in lows] + [r + "H" for r in lows],
        [r + "H" for r in RANKS if r not in lows] + [r + "S" for r in lows],
        suit_cards["D"],
        suit_cards["C"],
    ]
    role_queues = [
        [r + "S" for r in RANKS if r not in lows] + [r + "H" for r in lows],
        [r + "S" for r in lows] + thrown("H", keep[0], skip=lows),
        thrown("D", keep[1]),
        thrown("C", keep[2]),
    ]
    hands = [""] * 4
    queues = {}
    for role in range(4):
        seat = (pitcher + role) % 4
        hands[seat] = " ".join(role_hands[role])
        queues[seat] = list(role_queues[role])
    return hands, queues


def redeal(state, hands: list[str]) -> None:
    """Replace the cards of the deal just dealt by ``next_deal`` (the pitcher stays)."""
    rules.set_deal(state.record, np.array([parse_hand(h) for h in hands], dtype=np.uint64))


TIE = ("10H AH", "10D KD", "10C KC")  # 14 + 13 + 13 = 40 muck to role 1's team
THIRTY_NINE = ("10H AH", "10D KD", "10C QC")  # 39
FORTY_SIX = ("10H AH KH", "10D AD KD", "10C QC 2C")  # 17 + 17 + 12 = 46


def test_suit_deal_reads_as_documented():
    """The scripted deal really goes as its docstring says (the other tests rely on it)."""
    for pitcher, swaps, kept, other_muck in [
        (0, 2, TIE, 40),
        (3, 3, FORTY_SIX, 46),
        (1, 0, None, 0),
    ]:
        hands, queues = suit_deal(pitcher, swaps, kept or ("", "", ""))
        state = game().deal(hands=hands, pitcher=pitcher)
        winners = []
        while not state.is_over:
            winners.append(
                trick(state, *(queues[(state.current_player + i) % 4].pop(0) for i in range(4)))
            )
        lead_team, other_team = pitcher % 2, (pitcher + 1) % 2
        assert winners == [pitcher] * (13 - swaps) + [(pitcher + 1) % 4] * swaps
        assert state.record["trumps"] == SPADES
        assert state.record["muck"][other_team] == other_muck
        assert state.record["muck"][lead_team] == 80 - other_muck
        assert state.record["phat"][lead_team] == 80 and state.record["phat"][other_team] == 0


# --- example 1: totals ---------------------------------------------------------------


def test_example_1_totals_from_the_tables():
    """Phat 18+10+4+3+2+1+27+15 = 80 and muck 40+16+12+8+4 = 80, for every trump suit."""
    for t, trumps in enumerate(SUITS):
        phat = [phat_of(n, trumps) for n in NAMES]
        assert sum(phat) == 80
        assert sorted(p for p in phat if p) == sorted([18, 10, 4, 3, 2, 1] + [9] * 3 + [5] * 3)
        # The kernel's values are the table's.
        assert [int(phat_value(c, t)) for c in range(52)] == phat
    muck = [muck_of(n) for n in NAMES]
    assert sum(muck) == 80
    assert sorted(m for m in muck if m) == sorted([10] * 4 + [4] * 4 + [3] * 4 + [2] * 4 + [1] * 4)
    assert [int(muck_value(c)) for c in range(52)] == muck


def test_example_1_totals_over_a_deal():
    """Over a full deal the teams' phat sums to 80 and muck to 80 (random play)."""
    rng = np.random.default_rng(1)
    for seed in range(20):
        state = game().deal(seed)
        while not state.is_over:
            state.apply(int(rng.choice(state.legal_actions())))
        r = state.record
        assert r["trick_no"] == 13
        assert r["phat"].sum() == 80 and r["muck"].sum() == 80
        trumps = SUITS[r["trumps"]]
        for team in range(2):
            assert r["phat"][team] == sum(phat_of(n, trumps) for n in names(r["won"][team]))
            assert r["muck"][team] == muck_of_mask(r["won"][team])


# --- examples 2-4: single tricks -----------------------------------------------------


def test_example_2_off_suit_lead_trumped():
    """Lead 9♠, then A♠, 2♥, 5♠ → 2♥ wins; phat 9 + 5 = 14 at once; muck A♠ = 4."""
    hands = fill({0: "8H 9S", 1: "3H AS", 2: "4H 2H", 3: "6H 5S"}, void={2: "S"})
    state = game().deal(hands=hands, pitcher=0)
    assert trick(state, "8H", "3H", "4H", "6H") == 0  # the pitch: hearts are trumps
    assert state.record["trumps"] == HEARTS and list(state.record["scores"]) == [0, 0]
    assert trick(state, "9S", "AS", "2H", "5S") == 2
    assert [phat_of(c, "H") for c in ("9S", "AS", "2H", "5S")] == [9, 0, 0, 5]
    assert sum(int(phat_value(parse_card(c), HEARTS)) for c in ("9S", "AS", "2H", "5S")) == 14
    assert list(state.record["scores"]) == [14, 0] and list(state.record["phat"]) == [14, 0]
    assert list(state.record["muck"]) == [4, 0]
    assert list(state.record["tricks_won"]) == [1, 0, 1, 0]


def test_example_3_all_trump_trick():
    """Lead 9♥, then A♥, K♥, 5♥ → A♥ wins; phat 18 + 4 + 3 + 10 = 35; muck 4 + 3 = 7."""
    state = game().deal(hands=fill({0: "9H", 1: "AH", 2: "KH", 3: "5H"}), pitcher=0)
    assert trick(state, "9H", "AH", "KH", "5H") == 1
    assert [int(phat_value(parse_card(c), HEARTS)) for c in ("9H", "AH", "KH", "5H")] == [
        18,
        4,
        3,
        10,
    ]
    assert list(state.record["scores"]) == [0, 35]
    assert list(state.record["muck"]) == [0, 7]
    assert state.current_player == 1  # the winner leads next


def test_example_4_no_trump_played():
    """Trumps ♦. Lead 10♣, then J♣, A♠, K♣ → K♣ wins; phat 0; muck 10 + 1 + 4 + 3 = 18."""
    hands = fill({0: "8D 10C", 1: "2D JC", 2: "3D AS", 3: "4D KC"}, void={2: "C"})
    state = game().deal(hands=hands, pitcher=0)
    assert trick(state, "8D", "2D", "3D", "4D") == 0
    assert state.record["trumps"] == DIAMONDS
    assert trick(state, "10C", "JC", "AS", "KC") == 3
    assert list(state.record["scores"]) == [0, 0]
    assert list(state.record["muck"]) == [0, 18]
    assert sum(int(muck_value(parse_card(c))) for c in ("10C", "JC", "AS", "KC")) == 18


# --- example 5: the pitch sets trumps ----------------------------------------------------


def test_example_5_trumps_set_by_the_pitch():
    """Pitcher leads 5♦ → trumps ♦; 5♦ is Little Phat (10); a later 5♥ is worth 5."""
    hands = fill({2: "5D 5H", 3: "2D 2H", 0: "3D 3H", 1: "4D 4H"})
    state = game().deal(hands=hands, pitcher=2)
    assert state.record["trumps"] == -1 and state.current_player == 2
    assert len(legal(state)) == 13  # any card may be pitched (PH-D11)
    state.apply("5D")
    assert state.record["trumps"] == DIAMONDS
    for card in ("2D", "3D", "4D"):
        state.apply(card)
    assert list(state.record["scores"]) == [10, 0]
    assert trick(state, "5H", "2H", "3H", "4H") == 2
    assert list(state.record["scores"]) == [15, 0]
    assert state.record["trumps"] == DIAMONDS  # set once per deal


@pytest.mark.parametrize("pitch", ["2S", "7H", "JD", "AC"])
def test_any_pitch_sets_its_suit(pitch):
    state = game().deal(hands=fill({1: pitch}), pitcher=1)
    state.apply(pitch)
    assert state.record["trumps"] == SUITS.index(pitch[-1])


# --- example 6: the game ends mid-deal -----------------------------------------------------


def test_example_6_game_ends_mid_deal():
    """EW 175 wins a trick with 9♣ (no trump) and three blanks → 184 ≥ 181: game over at once."""
    hands = fill({1: "10H 9C", 2: "2H 2C", 3: "3H 3C", 0: "4H 4C"})
    state = game().deal(hands=hands, pitcher=1)
    state.record["scores"][:] = [0, 175]
    assert trick(state, "10H", "2H", "3H", "4H") == 1  # hearts trumps; no phat, muck 10
    assert list(state.record["scores"]) == [0, 175] and not state.is_over
    trick(state, "9C", "2C", "3C", "4C")
    r = state.record
    assert state.is_over and r["phase"] == DEAL_OVER and state.current_player == -1
    assert r["game_over"] and r["winner"] == 1 and list(r["games_won"]) == [0, 1]
    assert list(r["scores"]) == [0, 184]
    assert r["trick_no"] == 2 < 13
    assert [bin(int(h)).count("1") for h in r["hands"]] == [11] * 4  # the rest is not played
    assert r["bonus_to"] == -1 and r["bonus"] == 0  # the muck is not counted
    assert list(r["muck"]) == [0, 10]  # only the muck won so far
    assert list(state.payoffs) == [-9, 9, -9, 9]
    assert state.match_over  # one game per match by default
    with pytest.raises(ValueError, match="deal is over"):
        state.apply(names(r["hands"][1])[0])


@pytest.mark.parametrize(("before", "over"), [(171, False), (172, True)])
def test_target_reached_exactly(before, over):
    """181 itself wins: 172 + 9 = 181 ends the game, 171 + 9 = 180 does not."""
    state = game().deal(hands=fill({1: "8H 9C", 2: "2H 2C", 3: "3H 3C", 0: "4H 4C"}), pitcher=1)
    state.record["scores"][:] = [0, before]
    trick(state, "8H", "2H", "3H", "4H")
    trick(state, "9C", "2C", "3C", "4C")
    assert state.record["scores"][1] == before + 9
    assert state.is_over == over == bool(state.record["game_over"])
    assert state.record["winner"] == (1 if over else -1)


def test_crossing_on_trick_13_skips_the_muck():
    """Phat won in trick 13 takes NS to 181: game over there; EW's 60 muck earns nothing (§5)."""
    hands, queues = suit_deal(1, 1, ("9H", "10D", "10C"))  # EW leads; NS wins trick 13 only
    state = game().deal(hands=hands, pitcher=1)
    state.record["scores"][:] = [172, 100]
    play(state, queues, tricks=12)
    assert list(state.record["scores"]) == [172, 171] and list(state.record["muck"]) == [0, 60]
    assert [names(h) for h in state.record["hands"]] == [["10C"], ["2H"], ["9H"], ["10D"]]
    play(state, queues)
    r = state.record
    assert r["trick_no"] == 13 and list(r["scores"]) == [181, 171]  # 9H: 9 phat (not trumps)
    assert r["game_over"] and r["winner"] == 0
    assert list(r["muck"]) == [20, 60]
    assert r["bonus_to"] == -1 and r["bonus"] == 0  # the muck is not counted
    assert list(state.payoffs) == [9 - 71, 71 - 9, 9 - 71, 71 - 9]


# --- example 7: the muck bonus wins ------------------------------------------------------


def test_example_7_muck_bonus_wins():
    """NS 176 after trick 13, muck NS 41 / EW 39 → NS + 8 = 184, NS wins."""
    hands, queues = suit_deal(0, 2, THIRTY_NINE)  # NS (role 0) wins 80 phat and 41 muck
    state = game().deal(hands=hands, pitcher=0)
    state.record["scores"][:] = [96, 150]
    play(state, queues, tricks=12)
    assert list(state.record["scores"]) == [176, 150] and not state.is_over
    play(state, queues)
    r = state.record
    assert r["trick_no"] == 13
    assert list(r["muck"]) == [41, 39]
    assert muck_of_mask(r["won"][0]) == 41 and muck_of_mask(r["won"][1]) == 39
    assert r["bonus_to"] == 0 and r["bonus"] == 8 and r["carry"] == 0
    assert list(r["scores"]) == [184, 150]
    assert r["game_over"] and r["winner"] == 0 and state.match_over
    assert list(state.payoffs) == [88, -88, 88, -88]


def test_bonus_without_reaching_the_target():
    """The bonus below the target: the game goes on, the next deal is dealt."""
    hands, queues = suit_deal(1, 2, THIRTY_NINE)  # EW leads: EW 80 phat, 41 muck
    state = play(game().deal(hands=hands, pitcher=1), queues)
    r = state.record
    assert list(r["muck"]) == [39, 41] and r["bonus_to"] == 1 and r["bonus"] == 8
    assert list(r["scores"]) == [0, 88] and not r["game_over"] and r["winner"] == -1
    assert list(state.payoffs) == [-88, 88, -88, 88]
    assert not state.match_over
    state.next_deal()
    assert state.record["pitcher"] == 2 and list(state.record["scores"]) == [0, 88]


# --- example 8: carry-over ---------------------------------------------------------------


def test_example_8_tie_then_bonus_16():
    """Deal k 40–40: nobody scores, carry 8. Deal k+1 NS 46 / EW 34 → NS + 16, carry 0."""
    hands, queues = suit_deal(0, 2, TIE)
    state = play(game().deal(hands=hands, pitcher=0), queues)
    r = state.record
    assert list(r["muck"]) == [40, 40]
    assert r["bonus_to"] == -1 and r["bonus"] == 0 and r["carry"] == 8
    assert list(r["scores"]) == [80, 0]  # the phat only
    assert list(state.payoffs) == [80, -80, 80, -80]
    state.next_deal()
    assert state.record["pitcher"] == 1 and state.record["carry"] == 8
    hands, queues = suit_deal(1, 3, FORTY_SIX)  # EW leads; NS (role 1 = seat 2) gets 46
    redeal(state, hands)
    play(state, queues)
    r = state.record
    assert list(r["muck"]) == [46, 34]
    assert r["bonus_to"] == 0 and r["bonus"] == 16 and r["carry"] == 0
    assert list(r["scores"]) == [80 + 16, 80]
    assert list(state.payoffs) == [16 - 80, 80 - 16, 16 - 80, 80 - 16]


def test_example_8_two_ties_then_bonus_24():
    """Two 40–40 deals in a row: the third deal's bonus is 24 (PH-D3), then back to 8."""
    state = None
    for k, (pitcher, swaps, kept) in enumerate([(0, 2, TIE), (1, 2, TIE), (2, 3, FORTY_SIX)]):
        hands, queues = suit_deal(pitcher, swaps, kept)
        if state is None:
            state = game().deal(hands=hands, pitcher=pitcher)
        else:
            state.next_deal()
            assert state.record["pitcher"] == pitcher
            redeal(state, hands)
        play(state, queues)
        assert state.record["carry"] == [8, 16, 0][k]
    r = state.record
    assert list(r["muck"]) == [34, 46]  # deal 3: role 1 is seat 3 (EW)
    assert r["bonus_to"] == 1 and r["bonus"] == 24
    assert list(r["scores"]) == [160, 80 + 24]


@pytest.mark.parametrize(
    ("muck", "carry", "bonus_to", "bonus", "carry_after"),
    [
        ((41, 39), 0, 0, 8, 0),
        ((39, 41), 0, 1, 8, 0),
        ((40, 40), 0, -1, 0, 8),
        ((40, 40), 8, -1, 0, 16),
        ((40, 40), 16, -1, 0, 24),
        ((46, 34), 8, 0, 16, 0),
        ((34, 46), 16, 1, 24, 0),
        ((80, 0), 24, 0, 32, 0),
        ((0, 80), 0, 1, 8, 0),
    ],
)
def test_muck_bonus_kernel(muck, carry, bonus_to, bonus, carry_after):
    """``_muck_bonus`` on a prepared record: over 40 wins 8 + carry; 40–40 carries (PH-D2/3)."""
    array = np.zeros(1, dtype=STATE_DTYPE)
    r = array[0]
    r["target"], r["bonus_to"], r["winner"] = 181, -1, -1
    r["scores"][:] = [100, 90]
    r["phat"][:] = [50, 30]
    r["muck"][:] = muck
    r["carry"] = carry
    rules._muck_bonus(r)
    assert r["bonus_to"] == bonus_to and r["bonus"] == bonus and r["carry"] == carry_after
    expected = [100, 90]
    if bonus_to >= 0:
        expected[bonus_to] += bonus
    assert list(r["scores"]) == expected
    assert r["phase"] == DEAL_OVER and not r["game_over"]
    diff = 50 - 30 + (bonus if bonus_to == 0 else -bonus if bonus_to == 1 else 0)
    assert list(r["payoffs"]) == [diff, -diff, diff, -diff]


# --- example 9: rotation --------------------------------------------------------------------


def test_example_9_rotation():
    """Deal 1: pitcher 1, dealer 0; deal 2: pitcher 2, dealer 1; ...; deal 5: pitcher 1 again."""
    state = game(games_in_match=5).deal(7, pitcher=1)
    rng = np.random.default_rng(0)
    pitchers = []
    for k in range(5):
        if k:
            state.next_deal()
        pitchers.append(int(state.record["pitcher"]))
        assert state.current_player == pitchers[-1]  # the pitcher leads trick 1
        assert state.record["deal_index"] == k
        while not state.is_over:
            state.apply(int(rng.choice(state.legal_actions())))
    assert pitchers == [1, 2, 3, 0, 1]
    assert [(p - 1) % 4 for p in pitchers] == [0, 1, 2, 3, 0]  # the dealer, on the pitcher's right


def test_first_pitcher_random():
    """Without ``pitcher=`` the first pitcher is drawn (PH-D7), reproducibly from the seed."""
    seen = {int(game().deal(seed).record["pitcher"]) for seed in range(40)}
    assert seen == {0, 1, 2, 3}
    for seed in range(5):
        assert game().deal(seed).record["pitcher"] == game().deal(seed).record["pitcher"]
        assert game().deal(seed, pitcher=3).record["pitcher"] == 3


def test_deal_is_a_partition():
    """§3: 13 cards each, the four hands disjoint and covering the pack."""
    for seed in range(20):
        hands = [int(h) for h in game().deal(seed).record["hands"]]
        assert [bin(h).count("1") for h in hands] == [13] * 4
        assert hands[0] | hands[1] | hands[2] | hands[3] == (1 << 52) - 1 == sum(hands)


# --- example 10: legality -------------------------------------------------------------------


def test_example_10_legality():
    """Lead 7♣: the holder of Q♣ must play it; a seat without clubs may play 9♥ or 5♠."""
    hands = fill(
        {0: "8H 7C", 1: "2H QC", 2: "3H 9H 5S", 3: "4H 2C"},
        void={1: "C", 2: "C"},  # QC is seat 1's only club
    )
    assert "C" not in "".join(c[-1] for c in hands[1].split() if c != "QC")
    state = game().deal(hands=hands, pitcher=0)
    assert trick(state, "8H", "2H", "3H", "4H") == 0  # hearts are trumps
    state.apply("7C")
    assert legal(state) == {"QC"}
    other = next(c for c in names(state.record["hands"][1]) if c != "QC")
    with pytest.raises(ValueError, match="illegal action"):
        state.apply(other)
    state.apply("QC")
    assert legal(state) == set(names(state.record["hands"][2]))  # any card: no need to trump
    assert {"9H", "5S"} <= legal(state) and len(legal(state)) == 12
    discard = state.clone()
    trick_rest(discard, "5S", "2C")
    assert discard.record["leader"] == 1  # QC holds
    trump = state.clone()
    trick_rest(trump, "9H", "2C")
    assert trump.record["leader"] == 2  # 9H trumps: 18 phat to NS
    assert trump.record["scores"][0] == 18 and discard.record["scores"][0] == 0


def trick_rest(state, *cards: str) -> None:
    for card in cards:
        state.apply(card)


def test_follow_suit_at_every_step():
    """Random deals: the legal set is the led suit held, else the whole hand; leads are free."""
    rng = np.random.default_rng(3)
    for seed in range(15):
        state = game().deal(seed)
        while not state.is_over:
            r = state.record
            hand = set(names(r["hands"][state.current_player]))
            if r["trick_n"] == 0:
                assert legal(state) == hand
            else:
                led = NAMES[r["trick_cards"][0]][-1]
                follow = {c for c in hand if c[-1] == led}
                assert legal(state) == (follow or hand)
            state.apply(int(rng.choice(state.legal_actions())))


# --- games, matches, payoffs ---------------------------------------------------------------


def test_game_continues_across_deals_with_ties():
    """Scores and carry go on across deals: four ties (carry 8, 16, 24, 32), then a win at once."""
    state = None
    for k in range(4):
        hands, queues = suit_deal(k, 2, TIE)  # each deal: the pitcher's team gets 80 phat
        if state is None:
            state = game(games_in_match=2).deal(hands=hands, pitcher=0)
        else:
            state.next_deal()
            assert state.record["pitcher"] == k
            assert list(state.record["scores"]) == [80 * ((k + 1) // 2), 80 * (k // 2)]
            redeal(state, hands)
        play(state, queues)
        r = state.record
        assert r["carry"] == 8 * (k + 1) and r["bonus_to"] == -1 and not r["game_over"]
        assert r["deal_in_game"] == k and r["game_index"] == 0
    assert list(state.record["scores"]) == [160, 160]
    # Deal 5: NS pitches again and wins the tricks: AS 2S 2D 2C (4), KS 3S 3D 3C (3),
    # QS 4H 4D 4C (2), JS 5H 5D 5C (16): 160 + 25 = 185 at trick 4.
    state.next_deal()
    hands, queues = suit_deal(0, 2, TIE)
    redeal(state, hands)
    crossing = None
    running = 160
    script = {s: list(q) for s, q in queues.items()}
    for t in range(13):
        running += sum(phat_of(script[(0 + i) % 4][t], "S") for i in range(4))
        if running >= 181:
            crossing = t + 1
            break
    play(state, queues)
    r = state.record
    assert r["trick_no"] == crossing == 4 and r["scores"][0] == running == 185
    assert r["game_over"] and r["winner"] == 0 and r["bonus_to"] == -1
    assert not state.match_over  # two games in this match
    # A new game: 0-0, no carry (PH-D9), the pitch rotating on.
    state.next_deal()
    r = state.record
    assert r["game_index"] == 1 and list(r["scores"]) == [0, 0] and r["carry"] == 0
    assert r["pitcher"] == 1 and r["winner"] == -1 and not r["game_over"]
    assert list(r["games_won"]) == [1, 0] and r["deal_index"] == 5


def play_random_game(state, rng) -> list[int]:
    """Play deals at random until the current game is won; returns the pitchers."""
    pitchers = []
    while True:
        pitchers.append(int(state.record["pitcher"]))
        while not state.is_over:
            state.apply(int(rng.choice(state.legal_actions())))
        if state.record["game_over"]:
            return pitchers
        state.next_deal()


def test_two_games_in_a_match():
    """``games_in_match=2``: 0-0 and no carry at game 2, the pitch rotates on, then the end."""
    rng = np.random.default_rng(5)
    for seed in range(6):
        state = game(games_in_match=2).deal(seed)
        first = play_random_game(state, rng)
        r = state.record
        winner1 = int(r["winner"])
        assert r["scores"][winner1] >= 181 > r["scores"][1 - winner1]
        assert not state.match_over and r["games_won"][winner1] == 1
        state.next_deal()
        assert r["game_index"] == 1 and list(r["scores"]) == [0, 0] and r["carry"] == 0
        second = play_random_game(state, rng)
        assert second[0] == (first[-1] + 1) % 4
        pitchers = first + second
        assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(pitchers))
        assert state.match_over and r["games_won"].sum() == 2
        assert r["deal_index"] == len(first) + len(second) - 1


def test_deal_in_game_restarts_at_zero():
    rng = np.random.default_rng(5)
    state = game(games_in_match=2).deal(0)
    play_random_game(state, rng)
    state.next_deal()
    assert state.record["game_index"] == 1
    assert state.record["deal_in_game"] == 0


def test_next_deal_after_the_match_raises_value_error():
    state = game().deal(3)
    play_random_game(state, np.random.default_rng(0))
    assert state.match_over
    with pytest.raises(ValueError, match="match is over"):
        state.next_deal()


def test_next_deal_needs_the_deal_over():
    state = game().deal(0)
    with pytest.raises(ValueError, match="not over"):
        state.next_deal()


def test_payoffs_are_the_team_difference():
    """Payoffs: own team's phat + bonus minus the other's, the same for partners; zero-sum."""
    rng = np.random.default_rng(9)
    for seed in range(40):
        state = game().deal(seed)
        while not state.is_over:
            state.apply(int(rng.choice(state.legal_actions())))
            if not state.is_over:
                assert not state.payoffs.any()  # zero until the deal is over
        r = state.record
        points = [
            int(r["phat"][t]) + (int(r["bonus"]) if r["bonus_to"] == t else 0) for t in (0, 1)
        ]
        diff = points[0] - points[1]
        assert list(state.payoffs) == [diff, -diff, diff, -diff]
        assert state.payoffs.sum() == 0


# --- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"games_in_match": 0}, "games_in_match.*0"),
        ({"games_in_match": -2}, "games_in_match.*-2"),
        ({"games_in_match": 1.5}, r"games_in_match.*1\.5"),
        ({"games_in_match": True}, "games_in_match.*True"),
        ({"target": "181"}, "target.*'181'"),
        ({"target": 0}, "target.*0"),
        ({"players": 4}, "unknown option.*players"),
        ({"num_deals": 3}, "unknown option.*num_deals"),
    ],
)
def test_bad_options(options, named):
    with pytest.raises(ValueError, match=named):
        game(**options)


def test_options_defaults():
    g = game()
    assert g.options.games_in_match == 1 and g.options.target == 181
    assert game(games_in_match=3, target=100).options.target == 100


GOOD = ["AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432"]


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"hands": GOOD[:3], "pitcher": 0}, "list of 4"),
        ({"hands": [*GOOD, GOOD[0]], "pitcher": 0}, "list of 4"),
        ({"hands": "AKQ.JT9.876.5432", "pitcher": 0}, "list of 4"),
        ({"hands": ["AKQJT9876543...", *GOOD[1:]], "pitcher": 0}, "seat 0.*12 cards"),
        ({"hands": [GOOD[0], GOOD[0], *GOOD[2:]], "pitcher": 0}, "seat 1 repeats"),
        ({"hands": ["ZZ", *GOOD[1:]], "pitcher": 0}, "unknown card 'ZZ'"),
        ({"hands": GOOD}, "needs pitcher"),
        ({"hands": GOOD, "pitcher": 4}, "pitcher.*4"),
        ({"hands": GOOD, "pitcher": -1}, "pitcher.*-1"),
        ({"seed": 0, "pitcher": "1"}, "pitcher.*'1'"),
        ({"seed": -1}, "seed.*-1"),
    ],
)
def test_bad_deal_arguments(kwargs, named):
    with pytest.raises(ValueError, match=named):
        game().deal(**kwargs)


def test_hands_may_be_card_lists_or_masks():
    """Hands are dotted strings, card lists, or bit masks; all give the same deal."""
    lists = [" ".join(names(parse_hand(h))) for h in GOOD]
    masks = [parse_hand(h) for h in GOOD]
    for hands in (GOOD, lists, masks):
        r = game().deal(hands=hands, pitcher=2).record
        assert [int(h) for h in r["hands"]] == masks and r["pitcher"] == 2
        assert [format_hand(int(h)) for h in r["initial_hands"]] == [format_hand(m) for m in masks]


def test_mask_with_non_card_bits_rejected():
    full = (1 << 13) - 1
    hands = [full, full << 13, full << 26, 1 << 51 | ((1 << 12) - 1) << 52]
    with pytest.raises(ValueError):
        game().deal(hands=hands, pitcher=0)


@pytest.mark.parametrize("pitcher", [True, 1.0])
def test_non_integer_pitcher_rejected(pitcher):
    with pytest.raises(ValueError, match="pitcher"):
        game().deal(0, pitcher=pitcher)


def test_illegal_and_unknown_actions_leave_the_state():
    state = game().deal(hands=GOOD, pitcher=0)
    before = state.array.copy()
    for bad in ("AH", "5C", "ZZ", 52, "Pass"):
        with pytest.raises(ValueError):
            state.apply(bad)
    assert state.array.tobytes() == before.tobytes()
    assert state.record["phase"] == PLAY


def test_render_and_observe():
    state = game().deal(hands=GOOD, pitcher=1)
    text = str(state)
    assert "Phat" in text and "pitcher 1" in text and "not pitched" in text
    state.apply("AH")
    assert "trumps ♥" in str(state)
    obs = state.observe(0)
    assert obs["hand"].sum() == 13 and obs["trumps"] == 1 + HEARTS
    assert obs["trick"].tolist() == [-1, parse_card("AH"), -1, -1]
    assert not obs["action_mask"].any()  # seat 0 is not to move
    assert state.observe(2)["action_mask"].sum() == 13  # seat 2 (diamonds) may play any card
    with pytest.raises(ValueError, match=r"seat must be an integer 0\.\.3, got 4"):
        state.observe(4)


def test_observation_after_tricks():
    """Last trick per seat, the new leader, cards played, voids, phat and muck so far."""
    fixed = {0: "8D 10C 2H", 1: "2D JC 3H", 2: "3D AS 4H", 3: "4D KC 5H"}
    state = game().deal(hands=fill(fixed, void={2: "C"}), pitcher=0)
    trick(state, "8D", "2D", "3D", "4D")
    trick(state, "10C", "JC", "AS", "KC")  # example 4: seat 3 wins, seat 2 shows out of clubs
    obs = state.observe(1)
    ids = [parse_card(c) for c in ("10C", "JC", "AS", "KC")]
    assert obs["last_trick"].tolist() == ids  # led by seat 0, so in seat order
    assert obs["trick"].tolist() == [-1] * 4 and obs["trick_leader"] == 3
    assert obs["tricks_won"].tolist() == [1, 0, 0, 1]
    assert obs["voids"][2].tolist() == [0, 0, 0, 1] and not obs["voids"][[0, 1, 3]].any()
    assert obs["played"].sum() == 8 and obs["played"][2, parse_card("AS")] == 1
    assert obs["muck"].tolist() == [0, 18] and obs["phat"].tolist() == [0, 0]
    assert obs["trumps"] == 1 + DIAMONDS and obs["pitcher"] == 0 and obs["phase"] == 0
    assert obs["hand"].sum() == 11 and not obs["action_mask"].any()
    assert state.observe(3)["action_mask"].sum() == 11  # seat 3 leads: any card
    state.record["scores"][:] = [0, 178]
    trick(state, "5H", "2H", "3H", "4H")  # 5H (not trumps): 5 phat to EW -> 183
    obs = state.observe(0)
    assert state.is_over and obs["phase"] == 1 and obs["trick_leader"] == -1
    assert obs["scores"].tolist() == [0, 183] and obs["games_won"].tolist() == [0, 1]
    assert "game won by EW" in str(state)
