"""Solo Whist deal, play, match and API behaviour (rules §3, §6, §8; examples 8, 11, 12)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import trickgym
from trickgym.cards import format_hand, parse_card, parse_hand
from trickgym.games.solowhist import rules
from trickgym.games.solowhist.constants import DEAL_OVER, PLAY

# Seat 0 leads K♥; seat 1 holds A♥; seat 2 is void in hearts with 2♣; seat 3 plays 3♥.
EX8_HANDS = [
    "AKQ.KQJ.AKQJ.KQJ",
    "JT9.AT9.T987.AT9",
    "8765..6543.65432",
    "432.8765432.2.87",
]


def same_record(a, b) -> bool:
    """Field-by-field equality (padding bytes of aligned records may differ)."""
    return all(np.array_equal(a[name], b[name]) for name in a.dtype.names)


def random_rest(state, seed=0):
    """Finish the deal with uniformly random legal actions."""
    rng = np.random.default_rng(seed)
    while not state.is_over:
        state.apply(int(rng.choice(state.legal_actions())))
    return state


def test_deal_is_3_3_3_3_1_from_eldest_with_turn_up_last():
    game = trickgym.game("solowhist")
    s = game.deal(seed=11, dealer=2)
    pack, hands = s.record["pack"], s.record["hands"]
    e = 3
    for r in range(4):
        for j in range(4):
            for card in pack[r * 12 + j * 3 : r * 12 + j * 3 + 3]:
                assert hands[(e + j) % 4] >> np.uint64(card) & np.uint64(1)
    assert s.record["turn_up"] == pack[51]
    assert hands[2] >> np.uint64(pack[51]) & np.uint64(1)  # the dealer's last card
    assert sorted(pack.tolist()) == list(range(52))
    assert [bin(int(h)).count("1") for h in hands] == [13] * 4


def test_example_8_trick_won_by_trump_in_solo(solowhist):
    s = solowhist.deal(hands=EX8_HANDS, dealer=3, turn_up="7C")
    s.apply("Solo").apply("Pass").apply("Pass").apply("Pass")
    for card in ("KH", "AH", "2C", "3H"):
        s.apply(card)
    assert s.record["tricks_won"].tolist() == [0, 0, 1, 0]
    assert s.current_player == 2
    assert s.record["voids"][2] == 1 << 1  # seat 2 showed out of hearts


def test_example_8_same_trick_in_misere_won_by_ace(solowhist):
    s = solowhist.deal(hands=EX8_HANDS, dealer=3, turn_up="7C")
    s.apply("Misère").apply("Pass").apply("Pass").apply("Pass")
    for card in ("KH", "AH", "2C", "3H"):
        s.apply(card)
    assert s.record["tricks_won"].tolist() == [0, 1, 0, 0]


def test_must_follow_suit_in_play(solowhist):
    s = solowhist.deal(hands=EX8_HANDS, dealer=3, turn_up="7C")
    s.apply("Solo").apply("Pass").apply("Pass").apply("Pass").apply("KH")
    assert [s.action_name(a) for a in s.legal_actions()] == ["9H", "10H", "AH"]
    with pytest.raises(ValueError, match=r"illegal action '9C'.*legal: 9H, 10H, AH"):
        s.apply("9C")


def test_misere_ouverte_hand_exposed_after_trick_one(solowhist):
    s = solowhist.deal(hands=EX8_HANDS, dealer=3, turn_up="7C")
    s.apply("Pass").apply("Misère Ouverte").apply("Pass").apply("Pass")
    assert s.record["declarer"] == 1
    for _ in range(3):
        s.apply(s.legal_actions()[0])
        assert s.observe(0)["exposed"].sum() == 0
    s.apply(s.legal_actions()[0])  # trick 1 complete
    exposed = s.observe(3)["exposed"]
    assert exposed.sum() == 12
    assert int(sum(1 << c for c in np.flatnonzero(exposed))) == int(s.record["hands"][1])


def test_early_stop_ends_misere_at_first_trick_taken():
    game = trickgym.game("solowhist", early_stop=True)
    s = game.deal(hands=EX8_HANDS, dealer=3, turn_up="7C")
    s.apply("Misère").apply("Pass").apply("Pass").apply("Pass")
    for card in ("AS", "TS", "8S", "4S"):  # seat 0 wins trick 1
        s.apply(card)
    assert s.is_over and s.payoffs.tolist() == [-30, 10, 10, 10]
    assert s.record["trick_no"] == 1


def test_deal_played_to_the_end_sums(solowhist):
    s = random_rest(solowhist.deal(seed=3))
    if s.record["contract"]:
        assert s.record["tricks_won"].sum() == 13
        assert sorted(s.record["play_order"].tolist()) == list(range(52))
    assert s.payoffs.sum() == 0


def _finish_with(state, *calls):
    for call in calls:
        state.apply(call)
    return random_rest(state)


@pytest.mark.parametrize(
    "calls, shuffled",
    [
        (("Misère", "Pass", "Pass", "Pass"), False),  # example 11: Misère -> unshuffled
        (("Misère Ouverte", "Pass", "Pass", "Pass"), True),  # example 11: MO -> shuffled
        (("Solo", "Pass", "Pass", "Pass"), False),
        (("Abundance", "Pass", "Pass", "Pass", "Trumps S"), True),
        (("Pass", "Pass", "Abundance", "Abundance in Trumps", "Pass"), True),
        (("Abundance Declared", "Pass", "Pass", "Pass"), True),
        (("Prop", "Cop", "Pass", "Pass"), False),
        (("Prop", "Pass", "Pass", "Pass", "Abundance", "Trumps H"), True),  # SW-D5 upgrade
    ],
)
def test_example_11_shuffle_only_after_abundance_or_higher(solowhist, calls, shuffled):
    s = _finish_with(solowhist.deal(seed=5, dealer=3), *calls)
    played = s.record["play_order"].copy()
    s.next_deal()
    assert bool(s.record["shuffled"]) == shuffled
    if not shuffled:  # gathered in play order, then cut (SW-D4, SW-D3)
        pack = s.record["pack"]
        assert sum(np.array_equal(pack, np.roll(played, -k)) for k in range(1, 52)) == 1


def test_example_11_pass_out_after_shuffled_deal_is_unshuffled(solowhist):
    s = solowhist.deal(seed=5, dealer=3)
    assert s.record["shuffled"]
    _finish_with(s, "Pass", "Pass", "Pass", "Pass")
    s.next_deal()
    assert not s.record["shuffled"] and s.record["dealer"] == 0


def test_always_shuffle_option():
    s = trickgym.game("solowhist", always_shuffle=True).deal(seed=5, dealer=3)
    _finish_with(s, "Solo", "Pass", "Pass", "Pass")
    s.next_deal()
    assert s.record["shuffled"]


def test_example_12_cut(solowhist):
    s = solowhist.deal(seed=1, dealer=3)
    gathered = np.arange(52, dtype=np.uint8)[::-1].copy()  # c_i = 51 - i
    rules.cut_pack(s.record, gathered, 10)
    assert s.record["pack"].tolist() == [*gathered[10:], *gathered[:10]]
    rules.deal_pack(s.record)
    hand0 = int(s.record["hands"][0])  # eldest: dealer 3's left
    for c in gathered[10:13]:
        assert hand0 >> int(c) & 1
    assert s.record["turn_up"] == gathered[9]


def test_match_rotates_dealer_and_stops_after_num_deals():
    game = trickgym.game("solowhist", num_deals=3)
    s = game.deal(seed=9, dealer=1)
    dealers, total = [], np.zeros(4, dtype=np.int64)
    while True:
        dealers.append(int(s.record["dealer"]))
        random_rest(s, seed=len(dealers))
        total += s.payoffs
        if s.match_over:
            break
        s.next_deal()
    assert dealers == [(1 + i) % 4 for i in range(len(dealers))]
    assert s.record["deals_played"] == 3  # passed-out deals do not count (SW-D10)
    assert s.scores.tolist() == total.tolist()
    with pytest.raises(ValueError, match="match is over"):
        s.next_deal()


def test_api_errors_leave_state_unchanged(solowhist):
    s = solowhist.deal(seed=4)
    before = s.record.copy()
    for bad, match in [
        ("Cop", "illegal action 'Cop'"),
        ("Flumph", "unknown action 'Flumph'"),
        (999, "out of range"),
        ("QH", "illegal action 'QH'"),
    ]:
        with pytest.raises(ValueError, match=match):
            s.apply(bad)
        assert same_record(s.record, before)
    with pytest.raises(ValueError, match="not over"):
        s.next_deal()


def test_actions_by_name_or_id(solowhist):
    s = solowhist.deal(seed=4)
    t = s.clone()
    s.apply("misere")  # accents and case do not matter
    t.apply(56)
    assert same_record(s.record, t.record)
    assert s.action_name(parse_card("10H")) == "10H"


def test_clone_is_independent_and_pickles(solowhist):
    s = solowhist.deal(seed=4)
    c = s.clone()
    c.apply("Pass")
    assert s.record["n_calls"] == 0 and c.record["n_calls"] == 1
    back = pickle.loads(pickle.dumps(c))
    assert same_record(back.record, c.record)
    assert back.legal_actions() == c.legal_actions()


def test_print_shows_hands_and_auction(solowhist):
    s = solowhist.deal(hands=EX8_HANDS, dealer=3, turn_up="7C").apply("Solo")
    text = str(s)
    assert "♠AKQ ♥KQJ ♦AKQJ ♣KQJ" in text and "0:Solo" in text and "turn-up 7♣" in text


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"hands": EX8_HANDS[:3], "dealer": 3}, "list of 4 hand strings"),
        ({"hands": EX8_HANDS}, "needs dealer="),
        ({"hands": [EX8_HANDS[0]] * 4, "dealer": 3}, "repeats cards"),
        ({"hands": EX8_HANDS, "dealer": 3, "turn_up": "AS"}, "not in the dealer's"),
        ({"hands": ["AKQ.KQJ.AKQJ.KQ", *EX8_HANDS[1:]], "dealer": 3}, "12 cards, needs 13"),
        ({"dealer": 4}, "dealer must be a seat"),
        ({"seed": -1}, "seed must be a non-negative"),
        ({"turn_up": "2C"}, "only allowed together with hands"),
    ],
)
def test_bad_deals_are_explained(solowhist, kwargs, match):
    with pytest.raises(ValueError, match=match):
        solowhist.deal(**kwargs)


@pytest.mark.parametrize(
    "options, match",
    [
        ({"unit": 0}, "unit must be an integer 1..1000"),
        ({"num_deals": "8"}, "num_deals must be an integer"),
        ({"always_shuffle": 1}, "always_shuffle must be True or False"),
        ({"units": 5}, "unknown option.*units.*allowed: unit, num_deals"),
    ],
)
def test_bad_options_are_explained(options, match):
    with pytest.raises(ValueError, match=match):
        trickgym.game("solowhist", **options)


def test_unknown_game():
    with pytest.raises(ValueError, match=r"unknown game 'bridge'; available: .*solowhist"):
        trickgym.game("bridge")


def test_given_hands_are_dealt(solowhist):
    s = solowhist.deal(hands=EX8_HANDS, dealer=3, turn_up="7C")
    assert [format_hand(h) for h in s.record["hands"]] == [
        format_hand(parse_hand(h)) for h in EX8_HANDS
    ]
    assert s.record["phase"] not in (PLAY, DEAL_OVER) and s.current_player == 0
