"""Troggu rules through the game API: every worked example of troggu.md §11, and more.

Deals are written out in full, each hand in the order its cards are played,
so a test reads like the game it plays. Seats follow their written order;
a seat with nothing scripted plays its lowest legal card.
"""

from __future__ import annotations

import numpy as np
import pytest

import trickgym
from trickgym.cards import TAROT, format_hand, parse_card, parse_cards, parse_hand
from trickgym.games.troggu import TrogguOptions
from trickgym.games.troggu.constants import (
    CALL,
    DEAL_OVER,
    DISCARD,
    FORCED_TAPP,
    MISERE,
    PLAY,
    SOLO,
    TAPP,
)
from trickgym.games.troggu.rules import declarer_payoffs, misere_payoffs

# --- helpers ------------------------------------------------------------------

ROMAN = "I II III IV V VI VII VIII IX X XI XII XIII XIV XV XVI XVII XVIII XIX XX XXI".split()
ALL = [TAROT.card_names[c] for c in range(TAROT.n_cards)]


def points_of(name: str) -> int:
    """Card points read off the §2 table (not the deck's table)."""
    if name in ("Fool", "XXI", "I") or name.startswith("K"):
        return 5
    return {"Q": 4, "N": 3, "J": 2}.get(name[0], 1)


def points(mask) -> int:
    return sum(points_of(n) for n in names(mask))


def names(mask) -> set[str]:
    mask = int(mask)
    return {ALL[c] for c in range(TAROT.n_cards) if mask >> c & 1}


def cards(text: str) -> set[str]:
    return {ALL[c] for c in parse_cards(text, TAROT)}


def legal(state) -> set[str]:
    return {state.action_name(a) for a in state.legal_actions()}


def game(n: int, **options):
    return trickgym.game("troggu", players=n, **options)


def scripted(n: int, hands: list[str], tapp: str, dealer: int):
    """A deal plus each seat's cards as a play queue (hands are written in play order)."""
    state = game(n).deal(hands=hands, tapp=tapp, dealer=dealer)
    queues = {s: h.split() for s, h in enumerate(hands)}
    return state, queues


def play(state, queues, until=None):
    """Play scripted cards (lowest legal card when a seat's queue is empty) until ``until``."""
    while not state.is_over and not (until and until(state)):
        queue = queues.get(state.current_player)
        state.apply(queue.pop(0) if queue else state.legal_actions()[0])
    return state


def bid(state, *calls):
    for call in calls:
        state.apply(call)
    return state


def discard(state, text: str):
    for card in text.split():
        state.apply(card)
    return state


def discard_lowest(state, k: int):
    """Discard ``k`` times the lowest legal card."""
    for _ in range(k):
        state.apply(state.legal_actions()[0])
    return state


def retoken(hand: str, old: str, new: str) -> str:
    """``hand`` with the card ``old`` written as ``new``."""
    return " ".join(new if c == old else c for c in hand.split())


def trick_is(state, trick_no: int, n_played: int = 0):
    """Predicate: trick ``trick_no`` (1-based) has ``n_played`` cards on the table."""
    return lambda s: s.record["trick_no"] == trick_no - 1 and s.record["trick_n"] == n_played


def pile(state, seat: int) -> int:
    return points(state.record["won"][seat])


def fill(n: int, fixed: dict[int, str], tapp: str = "") -> tuple[list[str], str]:
    """Hands for seats ``0..n-1`` and the Tapp: ``fixed`` cards, the rest in card order."""
    h = {3: 18, 4: 13, 5: 11, 6: 9, 7: 8, 8: 7}[n]
    taken = set().union(*(cards(t) for t in fixed.values())) | cards(tapp)
    rest = [c for c in ALL if c not in taken]
    hands = []
    for s in range(n):
        mine = fixed.get(s, "").split()
        need = h - len(mine)
        hands.append(" ".join(mine + rest[:need]))
        del rest[:need]
    return hands, " ".join(tapp.split() + rest)


# --- example 1: the deck ----------------------------------------------------------


def test_example_1_deck_has_62_cards_worth_114():
    assert TAROT.n_cards == len(set(ALL)) == 62
    by_kind = {
        "Fool XXI I": ["Fool", "XXI", "I"],
        "Kings": [c for c in ALL if c[0] == "K"],
        "Queens": [c for c in ALL if c[0] == "Q"],
        "Knights": [c for c in ALL if c[0] == "N"],
        "Jacks": [c for c in ALL if c[0] == "J"],
        "II-XX": ROMAN[1:20],
        "pips": [c for c in ALL if c[:-1] in "1 2 3 4 5 6 7 8 9 10".split()],
    }
    counts = [len(v) for v in by_kind.values()]
    subtotals = [sum(points_of(c) for c in v) for v in by_kind.values()]
    assert counts == [3, 4, 4, 4, 4, 19, 24] and sum(counts) == 62
    assert subtotals == [15, 20, 16, 12, 8, 19, 24] and sum(subtotals) == 114
    assert [int(p) for p in TAROT.points] == [points_of(c) for c in ALL]


@pytest.mark.parametrize(
    "n, h, t", [(3, 18, 8), (4, 13, 10), (5, 11, 7), (6, 9, 8), (7, 8, 6), (8, 7, 6)]
)
def test_example_1_hand_and_tapp_sizes(n, h, t):
    for seed in range(3):
        state = game(n).deal(seed=seed)
        r = state.record
        hands = [int(x) for x in r["hands"][:n]]
        assert [bin(x).count("1") for x in hands] == [h] * n
        assert bin(int(r["initial_tapp"])).count("1") == t
        union = int(r["initial_tapp"])
        for x in hands:
            assert union & x == 0
            union |= x
        assert union == (1 << 62) - 1


def test_deal_gives_next_dealer_first_speaker_and_is_seeded():
    a, b = game(5).deal(seed=7, dealer=2), game(5).deal(seed=7, dealer=2)
    assert a.current_player == 3 and a.record["phase"] == 0
    assert a.record["hands"].tolist() == b.record["hands"].tolist()
    assert game(5).deal(seed=8, dealer=2).record["hands"].tolist() != a.record["hands"].tolist()


# --- examples 2, 4, 5: declarer scoring kernels ------------------------------------


def pay(contract, n, points_, tricks, n_tricks, declarer=0, partner=-1) -> list[int]:
    out = np.zeros(8, dtype=np.int32)
    declarer_payoffs(contract, n, declarer, partner, points_, tricks, n_tricks, out)
    assert out[:n].sum() == 0 and not out[n:].any()
    return out[:n].tolist()


@pytest.mark.parametrize(
    "what, args, expected",
    [
        ("ex 2: 5p Tapp P=86", (TAPP, 5, 86, 9, 11), [80, -20, -20, -20, -20]),
        ("ex 3: 5p Tapp all tricks", (TAPP, 5, 109, 11, 11), [120, -30, -30, -30, -30]),
        ("P=84 is not over 84", (TAPP, 5, 84, 9, 11), [40, -10, -10, -10, -10]),
        ("P=85", (TAPP, 5, 85, 9, 11), [80, -20, -20, -20, -20]),
        ("P=58 just made", (TAPP, 4, 58, 6, 13), [30, -10, -10, -10]),
        ("P=56 just lost", (TAPP, 4, 56, 6, 13), [-30, 10, 10, 10]),
        ("D=84 (P=30)", (TAPP, 4, 30, 2, 13), [-30, 10, 10, 10]),
        ("D=85 (P=29)", (TAPP, 4, 29, 2, 13), [-60, 20, 20, 20]),
        ("defenders won every trick", (TAPP, 5, 40, 0, 11), [-120, 30, 30, 30, 30]),
        ("ex 5: 3p Solo P=50", (SOLO, 3, 50, 8, 18), [-40, 20, 20]),
        ("ex 5: 4p Solo P=25", (SOLO, 4, 25, 2, 13), [-120, 40, 40, 40]),
        ("ex 5: Tapp P=57", (TAPP, 5, 57, 6, 11), [0, 0, 0, 0, 0]),
        ("Solo P=57", (SOLO, 3, 57, 9, 18), [0, 0, 0]),
        ("forced Tapp has base 10", (FORCED_TAPP, 8, 70, 5, 7), [70] + [-10] * 7),
        ("Solo all tricks", (SOLO, 6, 114, 9, 9), [300] + [-60] * 5),
    ],
)
def test_declarer_payments_without_partner(what, args, expected):
    assert pay(*args) == expected


def test_declarer_other_than_seat_0_collects():
    assert pay(TAPP, 5, 86, 9, 11, declarer=3) == [-20, -20, -20, 80, -20]


@pytest.mark.parametrize(
    "what, n, points_, tricks, expected",
    [
        ("ex 4: 8p P=70", 8, 70, 4, [40, -10, -10, 20, -10, -10, -10, -10]),
        ("ex 4: 8p P=40", 8, 40, 2, [-40, 10, 10, -20, 10, 10, 10, 10]),
        ("ex 4: 7p P=90", 7, 90, 6, [60, -20, -20, 40, -20, -20, -20]),
        ("7p side won every trick", 7, 100, 8, [90, -30, -30, 60, -30, -30, -30]),
        ("8p P=57", 8, 57, 4, [0] * 8),
    ],
)
def test_example_4_payments_with_partner(what, n, points_, tricks, expected):
    assert pay(TAPP, n, points_, tricks, {7: 8, 8: 7}[n], declarer=0, partner=3) == expected


# --- example 6: Misère payments ---------------------------------------------------


def misere(pts) -> list[int]:
    out = np.zeros(8, dtype=np.int32)
    misere_payoffs(np.array(pts + [0] * (8 - len(pts)), dtype=np.int16), len(pts), out)
    assert out.sum() == 0
    return out[: len(pts)].tolist()


@pytest.mark.parametrize(
    "pts, expected",
    [
        ([40, 30, 20, 10], [-30, 10, 10, 10]),  # example 6
        ([35, 35, 20, 10], [-20, -20, 20, 20]),  # example 6, tie
        ([10, 40, 30, 20], [10, -30, 10, 10]),
        ([25, 25, 25, 25], [0, 0, 0, 0]),  # all equal: nobody pays
        ([53, 53, 0], [-10, -10, 20]),
        ([20, 20, 20, 19, 0, 0], [-30, -30, -30, 30, 30, 30]),
        ([0, 0, 0, 0, 0, 0, 0, 108], [10] * 7 + [-70]),
    ],
)
def test_example_6_misere_most_points_pays_each_lower(pts, expected):
    assert misere(pts) == expected


# --- example 7: the auction ---------------------------------------------------------


def test_example_7_solo_ends_the_auction_and_takes_the_tapp_unseen():
    state = game(5).deal(seed=3, dealer=4)
    r = state.record
    assert state.current_player == 0
    state.apply("Pass").apply("Tapp")
    assert state.current_player == 2
    assert legal(state) == {"Pass", "Solo"}  # the Tapp is gone
    state.apply("Pass").apply("Solo")
    assert r["contract"] == SOLO and r["declarer"] == 3
    assert r["calls"][:5].tolist() == [0, 1, 0, 2, -1]  # seat 4 never spoke
    assert r["phase"] == PLAY and state.current_player == 3  # the Soloist leads
    tapp = int(r["initial_tapp"])
    assert int(r["won"][3]) == tapp  # onto the Soloist's pile
    assert bin(int(r["hands"][3])).count("1") == 11  # not into the hand
    while True:
        for s in range(5):
            obs = state.observe(s)
            assert not obs["tapp"].any() and not obs["discards"].any()
            assert obs["trick_points"][3] == points(int(r["won"][3]) & ~tapp)
        if state.is_over:
            break
        state.apply(state.legal_actions()[0])
    assert int(r["won"][3]) & tapp == tapp or r["fool_held_back_by"] == 3
    assert r["declarer_points"] == points(r["won"][3]) == r["points"][3]
    assert sum(points(r["won"][s]) for s in range(5)) == 114


def test_solo_by_first_speaker_leaves_everyone_else_silent():
    state = game(4).deal(seed=1, dealer=0).apply("Solo")
    assert state.record["calls"][:4].tolist() == [-1, 2, -1, -1]
    assert state.record["contract"] == SOLO and state.current_player == 1


def test_solo_after_tapp_overrides_it():
    state = bid(game(3).deal(seed=2, dealer=2), "Tapp", "Solo")
    r = state.record
    assert r["contract"] == SOLO and r["declarer"] == 1 and r["phase"] == PLAY
    assert bin(int(r["hands"][0])).count("1") == 18  # the Tapp bidder took nothing


def test_tapp_then_passes_gives_the_tapp_and_a_discard_phase():
    state = bid(game(5).deal(seed=3, dealer=4), "Pass", "Pass", "Tapp", "Pass")
    assert legal(state) == {"Pass", "Solo"}
    state.apply("Pass")  # the dealer speaks last
    r = state.record
    assert r["contract"] == TAPP and r["declarer"] == 2 and r["phase"] == DISCARD
    assert state.current_player == 2
    assert int(r["hands"][2]) == int(r["initial_hands"][2]) | int(r["initial_tapp"])


def test_example_7_eight_players_all_pass_fool_in_tapp_forces_the_i_holder():
    hands, tapp = fill(8, {5: "I"}, tapp="Fool")
    state = game(8).deal(hands=hands, tapp=tapp, dealer=6)
    assert state.current_player == 7
    bid(state, *["Pass"] * 8)
    r = state.record
    assert r["contract"] == FORCED_TAPP and r["declarer"] == 5 and r["phase"] == DISCARD
    assert state.current_player == 5
    assert bin(int(r["hands"][5])).count("1") == 7 + 6
    assert "Fool" in names(r["hands"][5])  # took the Tapp
    discard_lowest(state, 6)
    assert r["phase"] == CALL  # a forced Tappist may call (TR-D10)
    state.apply("No partner")
    assert r["phase"] == PLAY and state.current_player == 5
    play(state, {})
    p, tricks = int(r["declarer_points"]), int(r["tricks_won"][5])
    sign = (p > 57) - (p < 57)
    m = 3 if tricks in (0, 7) else 2 if max(p, 114 - p) > 84 else 1
    a = 10 * m  # base 10, as a bid Tapp
    assert state.payoffs.tolist() == [sign * 7 * a if s == 5 else -sign * a for s in range(8)]


def test_forced_tapp_prefers_the_fool_holder():
    hands, tapp = fill(8, {2: "Fool", 5: "I"})
    state = bid(game(8).deal(hands=hands, tapp=tapp, dealer=0), *["Pass"] * 8)
    assert state.record["contract"] == FORCED_TAPP and state.record["declarer"] == 2


@pytest.mark.parametrize("n", [7, 8])
def test_all_pass_with_fool_and_i_in_the_tapp_is_misere(n):
    hands, tapp = fill(n, {}, tapp="Fool I")
    state = bid(game(n).deal(hands=hands, tapp=tapp, dealer=3), *["Pass"] * n)
    assert state.record["contract"] == MISERE and state.current_player == 4


@pytest.mark.parametrize("n, dealer", [(3, 2), (4, 0), (5, 4), (6, 1), (6, 5)])
def test_example_7_all_pass_is_misere_led_by_next_of_dealer(n, dealer):
    state = game(n).deal(seed=11, dealer=dealer)
    bid(state, *["Pass"] * n)
    r = state.record
    assert r["contract"] == MISERE and r["declarer"] == -1 and r["phase"] == PLAY
    assert state.current_player == (dealer + 1) % n
    tapp = int(r["initial_tapp"])
    play(state, {})
    assert all(int(r["won"][s]) & tapp == 0 for s in range(n))  # set aside (TR-D13)
    pts = [points(r["won"][s]) for s in range(n)]
    assert r["points"][:n].tolist() == pts
    assert sum(pts) == 114 - points(tapp)
    top = max(pts)
    n_top = pts.count(top)
    assert state.payoffs.tolist() == [-10 * (n - n_top) if p == top else 10 * n_top for p in pts]


def test_auction_rejects_a_second_tapp():
    state = bid(game(4).deal(seed=1, dealer=3), "Tapp")
    with pytest.raises(ValueError, match=r"illegal action 'Tapp'.*legal: Pass, Solo"):
        state.apply("Tapp")


# --- Tapp: exchange, visibility ------------------------------------------------------


def test_tappist_alone_sees_tapp_and_own_discards():
    state = game(5).deal(seed=5, dealer=4)
    tapp = int(state.record["initial_tapp"])
    for call in ("Pass", "Tapp", "Pass", "Pass"):
        for s in range(5):
            assert not state.observe(s)["tapp"].any()
        state.apply(call)
    state.apply("Pass")
    seen = state.observe(1)
    assert int(sum(1 << int(c) for c in np.flatnonzero(seen["tapp"]))) == tapp
    assert seen["hand"].sum() == 18
    gone = 0
    for _ in range(7):
        card = state.legal_actions()[0]
        state.apply(card)
        gone |= 1 << card
        mine = state.observe(1)
        assert int(sum(1 << int(c) for c in np.flatnonzero(mine["discards"]))) == gone
        for s in (0, 2, 3, 4):
            other = state.observe(s)
            assert not other["tapp"].any() and not other["discards"].any()
            assert other["trick_points"][1] == 0  # the discards' points are hidden too
    assert state.record["phase"] == PLAY and state.current_player == 1  # 5 players: no call
    assert int(state.record["won"][1]) == gone  # discards count for the Tappist
    assert state.observe(1)["tapp"].sum() == 7  # still remembered


# --- example 11: discard legality ------------------------------------------------


def tapp_deal(fixed: dict[int, str], tapp: str = "", n: int = 5):
    """Seat 0 bids Tapp, everyone else passes (dealer n-1)."""
    hands, tapp = fill(n, fixed, tapp)
    state = game(n).deal(hands=hands, tapp=tapp, dealer=n - 1)
    return bid(state, "Tapp", *["Pass"] * (n - 1))


def test_example_11_three_kings_none_may_be_discarded():
    state = tapp_deal({0: "Fool XXI I XIV KS KC KD", 1: "KB"})
    allowed = legal(state)
    assert allowed == names(state.record["hands"][0]) - cards("Fool XXI I KS KC KD")
    assert "XIV" in allowed
    for card in ("KS", "KC", "KD", "Fool", "XXI", "I"):
        with pytest.raises(ValueError, match="illegal action"):
            state.apply(card)
    state.apply("XIV")  # trumps II-XX may be discarded (TR-D8)


def test_example_11_four_kings_all_or_none():
    state = tapp_deal({0: "Fool XXI I XIV KS KC KD", 1: "JB"}, tapp="KB")
    assert cards("KS KC KD KB") <= legal(state)
    state.apply("KC")
    assert legal(state) == cards("KS KD KB")  # once started, all four
    with pytest.raises(ValueError, match="illegal action 'XIV'"):
        state.apply("XIV")
    discard(state, "KB KS KD")
    assert "XIV" in legal(state) and not {"Fool", "XXI", "I"} & legal(state)
    discard(state, "XIV II III")
    assert state.record["phase"] == PLAY
    assert names(state.record["discards"]) == cards("KC KB KS KD XIV II III")


def test_example_11_four_kings_need_four_free_slots():
    state = tapp_deal({0: "KS KC KD KB XIV XIII XII XI"})  # 5 players: 7 discards
    discard(state, "XIV XIII XII")
    assert cards("KS KC KD KB") <= legal(state)  # 4 slots left: all four still fit
    state.apply("XI")
    assert not {"KS", "KC", "KD", "KB"} & legal(state)  # 3 slots: none


def test_four_kings_discard_with_eight_players():
    state = tapp_deal({0: "KS KC KD KB"}, n=8)
    discard(state, "II III")
    assert cards("KS KC KD KB") <= legal(state)
    discard(state, "KS KC KD KB")
    assert state.record["phase"] == CALL


# --- 7-8 players: the partner call --------------------------------------------------

# Seat 0 has the Tapp; the hands are in play order (tricks 1-6: trumps; trick 7: Cups).
EIGHT = [
    "Fool XXI XX XIX XVIII XVII 6C",
    "VIII IX QC NC JC KD 5C",
    "VII VI QD ND JD 1D 4C",
    "X 2D 3D 4D 6D KS 3C",
    "V IV QS NS JS 10S 2C",
    "III 9S 8S 7S 6S 5S KC",
    "II KB QB NB JB 10B 1C",
    "I 9B 8B 7B 6B 5B 5D",
]
EIGHT_TAPP = "XVI XV XIV XIII XII XI"


def eight_after_discard():
    state, queues = scripted(8, EIGHT, EIGHT_TAPP, dealer=7)
    bid(state, "Tapp", *["Pass"] * 7)
    discard(state, EIGHT_TAPP)
    return state, queues


@pytest.mark.parametrize("n", [7, 8])
def test_partner_call_offers_ii_to_xx_or_none(n):
    state = discard_lowest(tapp_deal({}, n=n), 6)
    assert state.record["phase"] == CALL and state.current_player == 0
    assert legal(state) == set(ROMAN[1:20]) | {"No partner"}
    for bad in ("XXI", "I", "Fool", "Pass", "KC"):
        with pytest.raises(ValueError, match="illegal action"):
            state.apply(bad)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_no_partner_call_below_seven_players(n):
    state = discard_lowest(tapp_deal({}, n=n), {3: 8, 4: 10, 5: 7, 6: 8}[n])
    assert state.record["phase"] == PLAY and state.current_player == 0


def test_partner_is_secret_until_the_called_card_is_played():
    state, queues = eight_after_discard()
    state.apply("IX")  # held by seat 1, who will play VIII first
    r = state.record
    assert r["partner"] == 1 and r["called_card"] == parse_card("IX", TAROT)

    def views():
        return [int(state.observe(s)["partner"]) for s in range(8)]

    assert all(int(state.observe(s)["called_card"]) == r["called_card"] for s in range(8))
    revealed_at = None
    while not state.is_over:
        shown = views()
        if revealed_at is None:
            assert shown == [-1, 1, -1, -1, -1, -1, -1, -1]  # only the partner knows
        else:
            assert shown == [1] * 8
        card = queues[state.current_player].pop(0)
        state.apply(card)
        if card == "IX":
            revealed_at = (int(r["trick_no"]), int(r["trick_n"]))
    assert revealed_at == (1, 2)  # trick 2, second card
    assert views() == [1] * 8
    # P = 114 - (trick 7: 6C 5C 4C 3C 2C KC 1C 5D = 12) = 102 > 84, m = 2, a = 20
    assert r["tricks_won"][:8].tolist() == [6, 0, 0, 0, 0, 1, 0, 0]
    assert r["declarer_points"] == 102
    assert state.payoffs.tolist() == [80, 40, -20, -20, -20, -20, -20, -20]


@pytest.mark.parametrize("called", ["XX", "XVI", "No partner"])
def test_calling_own_card_or_a_discard_or_none_plays_alone(called):
    state, queues = eight_after_discard()
    state.apply(called)
    r = state.record
    assert r["partner"] == -1
    while not state.is_over:
        assert all(int(state.observe(s)["partner"]) == -1 for s in range(8))
        state.apply(queues[state.current_player].pop(0))
    assert all(int(state.observe(s)["partner"]) == -1 for s in range(8))
    assert state.payoffs.tolist() == [140] + [-20] * 7  # P = 102, alone: 7 x 20


# --- §6: play -------------------------------------------------------------------

# Example 9 (3 players, Misère, seat 0 leads): three first tricks to choose from.
NINE = [
    "XXI 6C 5S KS QS NS JS 9S 8S 7S 6S XX XIX XVIII XVII XVI XV XIV",
    "Fool 1C 10S XIII XII XI KC QC NC JC 2C 4C 5C KD QD ND JD 1D",
    "II I 3C III IV V VI VII VIII IX X KB QB NB JB 10B 9B 8B",
]
NINE_TAPP = "2D 3D 4D 5D 6D 7B 6B 5B"


@pytest.mark.parametrize(
    "trick, winner",
    [
        ("6C 1C 3C", 1),  # 1 is the highest pip of a round suit
        ("5S 10S II", 2),  # seat 2 is void in Swords and must trump
        ("XXI Fool I", 1),  # the active Fool is the top trump
    ],
)
def test_example_9_trick_winners(trick, winner):
    state = bid(game(3).deal(hands=NINE, tapp=NINE_TAPP, dealer=2), "Pass", "Pass", "Pass")
    assert state.record["contract"] == MISERE and state.current_player == 0
    for card in trick.split():
        state.apply(card)
    r = state.record
    assert r["tricks_won"][:3].tolist() == [int(s == winner) for s in range(3)]
    assert state.current_player == winner
    assert names(r["won"][winner]) == set(trick.split())
    assert r["last_trick_cards"][:3].tolist() == parse_cards(trick, TAROT)


def test_must_follow_then_must_trump_then_free():
    state = bid(game(3).deal(hands=NINE, tapp=NINE_TAPP, dealer=2), "Pass", "Pass", "Pass")
    state.apply("5S")
    assert legal(state) == {"10S"}  # follow suit
    state.apply("10S")
    assert legal(state) == cards("II I III IV V VI VII VIII IX X")  # void: any trump
    state.apply("II")
    assert state.current_player == 2 and legal(state) == names(state.record["hands"][2])
    state.apply("3C")  # seat 2 leads Cups
    assert legal(state) == cards("6C")
    state.apply("6C")
    assert legal(state) == cards("1C KC QC NC JC 2C 4C 5C")
    with pytest.raises(ValueError, match=r"illegal action 'Fool'"):
        state.apply("Fool")


def test_trump_lead_must_be_followed_with_any_trump():
    state = bid(game(3).deal(hands=NINE, tapp=NINE_TAPP, dealer=2), "Pass", "Pass", "Pass")
    state.apply("XIV")
    assert legal(state) == cards("Fool XIII XII XI")  # no need to beat XIV


# The Fool: seat 0 has the Tapp and leads trumps; seat 1 has the Fool (5 players).
TAPP5 = "6C 5C 2C 1C JC NC QC"
FOOL_8A = [  # trick 9: seat 1 holds Fool 5S KD
    "XXI XX XIX XVIII XVII XVI XV XIV 3C VII 4C",
    "I II III IV V VI VIII IX 5S KD Fool",
    "X XI KC QD ND JD 1D 2D 3D 4D 5D",
    "XII 6D KS QS NS JS 10S 9S 8S 7S 6S",
    "XIII KB QB NB JB 10B 9B 8B 7B 6B 5B",
]
FOOL_8C = [  # trick 9: seat 1 holds Fool XII 5S
    "XXI XX XIX XVIII XVII XVI XV XIV 3C VII 4C",
    "I II III IV V VI VIII IX XII 5S Fool",
    "X XI KC KD QD ND JD 1D 2D 3D 4D",
    "XIII 5D 6D KS QS NS JS 10S 9S 8S 7S",
    "6S KB QB NB JB 10B 9B 8B 7B 6B 5B",
]


def fool_deal(hands, tapp=TAPP5):
    state, queues = scripted(5, hands, tapp, dealer=4)
    bid(state, "Tapp", "Pass", "Pass", "Pass", "Pass")
    discard(state, tapp)
    queues[0] = [c for c in queues[0] if c not in ("3C", "VII", "4C")]
    return state, queues


def test_fool_with_other_trumps_is_just_a_trump():
    state, queues = fool_deal(FOOL_8C)
    state.apply(queues[0].pop(0))
    assert legal(state) == cards("Fool I II III IV V VI VIII IX XII")
    play(state, queues, until=trick_is(state, 9))
    assert names(state.record["hands"][1]) == cards("Fool XII 5S")
    for lead in ("3C", "VII"):  # example 8: another trump exists -> no hold-back
        branch = state.clone().apply(lead)
        assert legal(branch) == cards("Fool XII")
        with pytest.raises(ValueError, match="illegal action '5S'"):
            branch.apply("5S")


@pytest.mark.parametrize("lead", ["3C", "VII"])
def test_example_8_fool_alone_may_be_held_back(lead):
    state, queues = fool_deal(FOOL_8A)
    play(state, queues, until=trick_is(state, 9))
    r = state.record
    assert r["tricks_won"][0] == 8 and names(r["hands"][1]) == cards("Fool 5S KD")
    state.apply(lead)
    assert legal(state) == cards("Fool 5S KD")  # void in Cups, or trumps led (TR-D4)
    state.apply("5S")
    assert state.observe(1)["held_back"] == 1
    assert all(state.observe(s)["held_back"] == 0 for s in (0, 2, 3, 4))
    assert r["fool_held_back_by"] == 1
    play(state, {}, until=trick_is(state, 10))
    play(state, {}, until=lambda s: s.current_player == 1)
    assert r["trick_no"] == 9 and legal(state) == {"KD"}  # the Fool waits for the last trick
    state.apply("KD")
    play(state, {}, until=lambda s: s.current_player == 1)
    assert r["trick_no"] == 10 and legal(state) == {"Fool"}
    state.apply("Fool")
    play(state, {})
    assert "Fool" in names(r["won"][1])  # a held-back Fool returns to its holder


def test_fool_played_on_a_trump_lead_is_active_and_wins():
    state, queues = fool_deal(FOOL_8A)
    play(state, queues, until=trick_is(state, 9))
    state.apply("VII").apply("Fool")
    assert state.observe(1)["held_back"] == 0
    play(state, {}, until=trick_is(state, 10))
    assert state.current_player == 1 and state.record["tricks_won"][1] == 1
    assert "Fool" in names(state.record["won"][1])


# Example 8, after a hold-back: seat 1 keeps Fool 9B for tricks 10 and 11.
FOOL_8D = [
    "XXI XX XIX XVIII XVII XVI XV XIV XIII 5B 6C",
    "KC QC NC JC 1C 2C 3C 4C 5C 9B Fool",
    "V IV KD QD ND JD 1D 2D 3D 4D 5D",
    "III II 6D KS QS NS JS 10S 9S 8S 7S",
    "I 6S 5S KB QB NB JB 10B 8B 7B 6B",
]
FOOL_8D_TAPP = "XII XI X IX VIII VII VI"  # trumps II-XX may be discarded (TR-D8)


@pytest.mark.parametrize("lead, holder_wins", [("5B", True), ("6C", False)])
def test_example_8_after_a_hold_back(lead, holder_wins):
    state, queues = scripted(5, FOOL_8D, FOOL_8D_TAPP, dealer=4)
    bid(state, "Tapp", "Pass", "Pass", "Pass", "Pass")
    discard(state, FOOL_8D_TAPP)
    state.apply(queues[0].pop(0))  # XXI
    assert legal(state) == names(state.record["hands"][1])  # Fool alone: hold-back allowed
    state.apply(queues[1].pop(0))  # KC holds the Fool back
    assert state.record["held_back"] == 1 << 1
    play(state, queues, until=lambda s: s.current_player == 1)  # trick 2, trumps led
    assert state.record["trick_no"] == 1
    assert legal(state) == names(state.record["hands"][1]) - {"Fool"}  # Fool no trump now
    play(state, queues, until=trick_is(state, 10))
    r = state.record
    assert names(r["hands"][1]) == cards("Fool 9B") and names(r["hands"][0]) == cards("5B 6C")
    state.apply(lead)
    assert legal(state) == {"9B"}  # Batons led: follow; Cups led: the Fool is not a trump
    state.apply("9B")
    play(state, {}, until=lambda s: s.current_player == 1 or s.is_over)
    assert r["trick_no"] == 10 and legal(state) == {"Fool"}
    # 9B is the best Baton left in play; on the Cups lead it is an off-suit discard.
    assert r["tricks_won"][1] == holder_wins
    assert (state.current_player == r["leader"]) == holder_wins  # leads the held-back Fool
    if holder_wins:  # the others play their lowest cards: 5D, 7S, 6B
        assert names(r["won"][1]) == cards("5B 9B 5D 7S 6B")
    state.apply("Fool")
    if holder_wins:
        assert r["led_mask"] == 0 and legal(state) == names(r["hands"][2])
    play(state, {})
    assert r["tricks_won"][1] == holder_wins  # the Fool never wins
    given = int(r["fool_exchange_card"])
    if holder_wins:  # a 1-point card of trick 10 goes to the last-trick winner
        assert points_of(ALL[given]) == 1 and given in parse_cards("5B 9B 5D 7S 6B", TAROT)
        assert pile(state, 1) == 5 + 5 - 1
    else:  # seat 1 won nothing: nothing to give
        assert given == -1 and names(r["won"][1]) == {"Fool"}


# Example 3 (5 players): seat 0 wins every trick; seat 1 holds the Fool back.
THREE = [
    "XXI XX XIX XVIII XVII XVI XV XIV XIII XII XI",
    "NC QC 6D 5D 4D 3D 2D 1D JD ND Fool",
    "X IX VIII VII QD KC KD 5S 6S 7S 8S",
    "VI V IV 9S 10S JS NS QS KS 5B 6B",
    "III II I 7B 8B 9B 10B JB NB QB KB",
]
THREE_TAPP = "6C 5C 4C 3C 2C 1C JC"


def test_example_3_all_tricks_and_a_held_back_fool_with_empty_pile():
    state, queues = scripted(5, THREE, THREE_TAPP, dealer=4)
    bid(state, "Tapp", "Pass", "Pass", "Pass", "Pass")
    discard(state, THREE_TAPP)
    state.apply(queues[0].pop(0))  # XXI
    assert legal(state) == names(state.record["hands"][1])  # may hold the Fool back
    play(state, queues)
    r = state.record
    assert r["fool_held_back_by"] == 1 and r["fool_exchange_card"] == -1
    assert r["tricks_won"][:5].tolist() == [11, 0, 0, 0, 0]
    assert names(r["won"][1]) == {"Fool"} and r["points"][1] == 5
    assert r["declarer_points"] == r["points"][0] == 109 == pile(state, 0)
    assert state.payoffs.tolist() == [120, -30, -30, -30, -30]


# Examples 9 and 10 (4 players): seat 2 has the Tapp and leads trumps; seat 1 holds
# the Fool back in trick 1, wins tricks 11 and 12 and leads the Fool to trick 13.
TEN = [
    "V IV III II I 2C 3C QD 2D 4D QB JB 3D",
    "1C KC KD KB NC ND NB JC JD 1D KS QS Fool",
    "XXI XX XIX XVIII XVII XVI XV XIV XIII XII 5S 6S X",
    "IX VIII VII VI 10B 9B 8B 7B 6B 5B JS 10S QC",
]
TEN_TAPP = "XI NS 9S 8S 7S 6C 5C 4C 6D 5D"
NINE_LAST = [
    "V IV III II I 4C QD 2D 3D 4D QB JB QC",
    "KC KD NC ND JC JD 1C 1D NB 10B KS QS Fool",
    "XXI XX XIX XVIII XVII XVI XV XIV XIII XII 5S 6S 7B",
    "IX VIII VII VI 9B 8B 6B 5B 2C 3C JS 10S KB",
]
NINE_LAST_TAPP = "X XI NS 9S 8S 7S 5C 6C 5D 6D"
LOWEST_TWO = [  # seat 1's pile holds no 1-point card
    "V IV III II I 5C 6C 3D 4D 6B QB JB 2C",
    "KC KD KB QC NC JC 1D 2D NB 10B KS QS Fool",
    "XXI XX XIX XVIII XVII XVI XV XIV XIII XII NS JS X",
    "IX VIII VII VI 3C 4C JD 9B 8B 7B QD ND 1C",
]
LOWEST_TWO_TAPP = "XI 10S 9S 8S 7S 6S 5S 5D 6D 5B"


def last_trick_deal(hands, tapp):
    state, queues = scripted(4, hands, tapp, dealer=0)
    bid(state, "Pass", "Tapp", "Pass", "Pass")
    discard(state, tapp)
    play(state, queues, until=trick_is(state, 13))
    r = state.record
    assert r["tricks_won"][:4].tolist() == [0, 2, 10, 0] and state.current_player == 1
    assert r["held_back"] == 1 << 1
    return state, queues


def test_example_10_fool_exchange_accounting():
    state, queues = last_trick_deal(TEN, TEN_TAPP)
    r = state.record
    before_1, before_2 = pile(state, 1), pile(state, 2)
    assert before_1 == 20
    assert legal(state) == {"Fool"}
    play(state, queues)
    assert r["last_trick_cards"][:4].tolist() == parse_cards("Fool X QC 3D", TAROT)
    assert r["tricks_won"][:4].tolist() == [0, 2, 11, 0]  # X wins: the Fool is inactive
    given = int(r["fool_exchange_card"])
    assert points_of(ALL[given]) == 1 and ALL[given] in names(r["won"][2])
    assert pile(state, 2) - before_2 == 7  # X + QC + 3D = 6, plus a 1-point card
    assert pile(state, 1) == 24 and "Fool" in names(r["won"][1])
    # P = 114 - 24 = 90 > 84, not every trick: m = 2, a = 20
    assert r["declarer_points"] == 90
    assert state.payoffs.tolist() == [-20, -20, 60, -20]


def test_example_9_held_back_fool_led_in_the_last_trick():
    state, _ = last_trick_deal(NINE_LAST, NINE_LAST_TAPP)
    state.apply("Fool")
    assert state.record["led_mask"] == 0
    assert legal(state) == {"7B"}
    state.apply("7B")  # sets the led suit
    state.apply("KB").apply("QC")
    r = state.record
    assert r["tricks_won"][:4].tolist() == [0, 2, 10, 1]  # KB wins
    assert int(r["fool_exchange_card"]) >= 0
    assert ALL[int(r["fool_exchange_card"])] in names(r["won"][3])


def test_fool_exchange_gives_a_lowest_value_card_not_always_one_point():
    state, queues = last_trick_deal(LOWEST_TWO, LOWEST_TWO_TAPP)
    assert names(state.record["won"][1]) == cards("NS QD QB KS QS JS ND JB")
    assert pile(state, 1) == 27
    play(state, queues)
    r = state.record
    assert ALL[int(r["fool_exchange_card"])] in {"JS", "JB"}  # 2 points: the lowest there
    assert pile(state, 1) == 27 + 5 - 2
    # P = 114 - 30 = 84: made, but not over 84
    assert r["declarer_points"] == 84 and state.payoffs.tolist() == [-10, -10, 30, -10]


# --- match and options ------------------------------------------------------------


def test_num_deals_defaults_to_twice_the_players():
    for n in range(3, 9):
        assert game(n).options.num_deals == 2 * n
        assert game(n).deal(seed=0).record["num_deals"] == 2 * n
    assert game(5, num_deals=3).options.num_deals == 3


def test_match_rotates_deal_accumulates_and_ends():
    state = game(3, num_deals=4).deal(seed=21, dealer=1)
    dealers, total = [], np.zeros(3, dtype=np.int64)
    while True:
        dealers.append(int(state.record["dealer"]))
        assert state.current_player == (dealers[-1] + 1) % 3
        assert not state.match_over
        with pytest.raises(ValueError, match="not over"):
            state.next_deal()
        play(state, {})
        total += state.payoffs
        assert state.scores.tolist() == total.tolist()
        if state.match_over:
            break
        state.next_deal()
    assert dealers == [1, 2, 0, 1]
    assert state.record["deal_index"] == 4
    assert total.sum() == 0


def test_next_deal_after_the_match_says_it_is_over():
    state = play(game(3, num_deals=1).deal(seed=1), {})
    assert state.match_over
    with pytest.raises(ValueError, match="match is over"):
        state.next_deal()


def test_apply_after_the_deal_is_explained():
    state = play(game(3).deal(seed=1), {})
    with pytest.raises(ValueError, match="deal is over"):
        state.apply("Pass")


@pytest.mark.parametrize(
    "options, match",
    [
        ({"players": 2}, "players must be an integer 3..8, got 2"),
        ({"players": 9}, "players must be an integer 3..8, got 9"),
        ({"players": "5"}, "players must be an integer 3..8, got '5'"),
        ({"players": True}, "players must be an integer 3..8"),
        ({"players": 5, "num_deals": 0}, r"num_deals must be an integer 1\.\.10000, got 0"),
        ({"players": 5, "num_deals": 2.0}, "num_deals must be an integer 1..10000"),
        ({"players": 5, "deals": 3}, "unknown option.*deals.*allowed: players, num_deals"),
    ],
)
def test_bad_options_are_explained(options, match):
    with pytest.raises(ValueError, match=match):
        trickgym.game("troggu", **options)


def test_options_object_is_validated_directly():
    with pytest.raises(ValueError, match="players"):
        TrogguOptions(players=1)


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda h, t, d: (h[:4], t, d), "hands must be a list of 5 hand strings"),
        (lambda h, t, d: ("KC QC", t, d), "hands must be a list of 5"),
        (lambda h, t, d: (h, None, d), "needs tapp= \\(7 cards\\)"),
        (lambda h, t, d: (h, t, None), "needs dealer="),
        (lambda h, t, d: (h, t, 5), "dealer must be a seat 0..4, got 5"),
        (lambda h, t, d: ([h[0] + " 5S", *h[1:]], t, d), "seat 0 has 12 cards, 5 players need 11"),
        (lambda h, t, d: ([h[0], retoken(h[1], "NC", ""), *h[2:]], t, d), "seat 1 has 10 cards"),
        (lambda h, t, d: (h, t + " 5S", d), "tapp has 8 cards, 5 players need 7"),
        (lambda h, t, d: ([h[0], h[0], *h[2:]], t, d), "seat 1 repeats cards"),
        (lambda h, t, d: ([retoken(h[0], "XI", "6C"), *h[1:]], t, d), "tapp repeats cards: 6C"),
        (lambda h, t, d: ([retoken(h[0], "XI", "XII"), *h[1:]], t, d), "XII.*more than 1"),
        (lambda h, t, d: ([retoken(h[0], "XI", "Joker"), *h[1:]], t, d), "unknown card 'Joker'"),
    ],
)
def test_bad_deals_are_explained(change, match):
    hands, tapp, dealer = change(list(THREE), THREE_TAPP, 4)
    with pytest.raises(ValueError, match=match):
        game(5).deal(hands=hands, tapp=tapp, dealer=dealer)


def test_given_deal_is_exactly_as_written():
    state = game(5).deal(hands=THREE, tapp=THREE_TAPP, dealer=4)
    r = state.record
    assert [format_hand(r["hands"][s], TAROT) for s in range(5)] == [
        format_hand(parse_hand(h, TAROT), TAROT) for h in THREE
    ]
    assert names(r["initial_tapp"]) == cards(THREE_TAPP)
    assert r["dealer"] == 4 and state.current_player == 0


def test_illegal_and_unknown_actions_leave_the_state_unchanged():
    state = game(5).deal(hands=THREE, tapp=THREE_TAPP, dealer=4)
    before = state.record.copy()
    for bad, match in [("XXI", "illegal action 'XXI'"), ("Bogus", "unknown action"), (66, "range")]:
        with pytest.raises(ValueError, match=match):
            state.apply(bad)
    assert all(np.array_equal(state.record[k], before[k]) for k in before.dtype.names)
    assert state.record["phase"] != DEAL_OVER
