"""The rule-based Pinochle agent: one test per named rule, and bid success.

Its information set, legality and strength against random agents are
checked for every game in ``tests/agents``.
"""

from __future__ import annotations

import numpy as np
import pytest

import trickgym
from trickgym.agents import kernel_scratch
from trickgym.agents.rule.pinochle import RuleOptions, meld_points
from trickgym.cards import PINOCHLE
from trickgym.cards.notation import parse_card
from trickgym.engine.loops import act
from trickgym.games.pinochle.constants import AUCTION, PASS, PLAY, TRUMP_BASE
from trickgym.games.pinochle.meld import meld
from trickgym.sim import simulate

RULE = 1
N_CARDS = 48
KITTY = trickgym.game("pinochle")
EXCHANGE = trickgym.game("pinochle", mode="exchange")


# -------------------------------------------------------------------- helpers


def _cards(text: str, taken: list[int] | None = None) -> list[int]:
    """Card ids of ``"AS AS 10H"``; a name in ``taken`` (or repeated) takes the next copy."""
    taken = [] if taken is None else taken
    out = []
    for name in text.split():
        c = parse_card(name, PINOCHLE)
        c = c + 1 if c in taken or c in out else c
        assert c not in taken and c not in out, f"three copies of {name}"
        out.append(c)
    taken.extend(out)
    return out


def _mask(cards) -> int:
    return sum(1 << int(c) for c in cards)


def _deal_masks(game, hands: list[int], kitty: int, dealer: int):
    """A state with exactly these card sets (copies included)."""
    state = game.deal(seed=0, dealer=dealer)
    game.kernels.set_deal(state.array[0], np.array(hands, dtype=np.uint64), np.uint64(kitty))
    return state


def _deal(game, fixed: dict[int, str], kitty: str | None = None, dealer: int = 3, seed: int = 0):
    """A deal with the given hands (seat -> cards); the other cards dealt at random."""
    size = 11 if game.options.mode == "kitty" else 12
    taken: list[int] = []
    hands = {s: _cards(t, taken) for s, t in fixed.items()}
    kitty_cards = _cards(kitty, taken) if kitty else []
    free = [c for c in np.random.default_rng(seed).permutation(N_CARDS).tolist() if c not in taken]
    for s in range(4):
        hands.setdefault(s, [])
        while len(hands[s]) < size:
            hands[s].append(free.pop())
    if game.options.mode == "kitty":
        while len(kitty_cards) < 4:
            kitty_cards.append(free.pop())
    return _deal_masks(game, [_mask(hands[s]) for s in range(4)], _mask(kitty_cards), dealer)


def _win_auction(state, declarer: int):
    """Everyone passes but ``declarer``, who bids the minimum."""
    while state.record["phase"] == AUCTION:
        p = state.current_player
        state.apply("250" if p == declarer and state.record["holder"] != p else "Pass")
    return state


def _rule(state) -> int:
    """The rule agent's action for the seat to move."""
    rng = np.array([1], dtype=np.uint64)
    return int(
        act(RULE, state.record, state.current_player, rng, *kernel_scratch(state.game), None)
    )


def _kind(name: str) -> int:
    return parse_card(name, PINOCHLE) >> 1


# ---------------------------------------------------------------- named rules


def test_meld_points_matches_meld():
    rng = np.random.default_rng(0)
    for _ in range(300):
        perm = rng.permutation(N_CARDS)[: int(rng.integers(11, 17))]
        hand = np.uint64(sum(1 << int(c) for c in perm))
        for t in range(4):
            assert meld_points(hand, t) == meld(hand, t)[0]
    hand = sum(1 << c for c in _cards("AH 10H KH KH QH JH 9H QS KS JD KD KC"))
    assert meld_points(np.uint64(hand), 1) == 300  # rules §11 example 2


def test_bid_rule_strong_hand_bids_weak_hand_passes():
    strong = "AS AH AD AC QS QS JD JD KS KH QH"  # aces, double pinochle, marriages
    state = _deal(KITTY, {0: strong}, dealer=3)
    assert _rule(state) == KITTY.bid_action(250)
    weak = "9S JS 9H JH 9D JD 9C JC QD QC 9S"
    state = _deal(KITTY, {0: weak}, dealer=3)
    assert _rule(state) == PASS


def test_bid_rule_does_not_outbid_partner_and_dealer_stuck():
    strong = "AS AH AD AC QS QS JD JD KS KH QH"
    state = _deal(KITTY, {2: strong}, dealer=3)
    state.apply("250").apply("Pass")  # seat 0 (the partner of 2) bids, seat 1 passes
    assert state.current_player == 2 and _rule(state) == PASS
    weak = "9S JS 9H JH 9D JD 9C JC QD QC 9S"
    state = _deal(KITTY, {3: weak}, dealer=3)
    state.apply("Pass").apply("Pass").apply("Pass")
    assert _rule(state) == KITTY.bid_action(250)  # stuck: the lowest bid


def test_trump_rule_names_the_run_suit():
    state = _deal(KITTY, {0: "AH 10H KH QH JH 9H 9S JS 9D JC 9C"}, kitty="QD JD 10S QC")
    _win_auction(state, 0)
    assert _rule(state) == TRUMP_BASE + 1  # hearts


def _kitty_declarer():
    state = _deal(KITTY, {0: "AH AH 10H KH QH JH 9H AS AD 10C 9S"}, kitty="KD QC JS 9D")
    _win_auction(state, 0)
    state.apply("Trumps H")
    return state


def test_discard_rule_buries_side_counters_keeps_trumps_aces():
    state = _kitty_declarer()
    buried = []
    for _ in range(4):
        a = _rule(state)
        buried.append(a >> 1)
        state.apply(a)
    assert buried[0] == _kind("10C")  # an unguarded side ten: 10 safe points
    assert _kind("KD") in buried
    assert state.record["phase"] == PLAY
    for c in _cards("AH AH 10H KH QH JH 9H AS AD"):
        assert state.record["hands"][0] >> np.uint64(c) & np.uint64(1)


def test_pass_in_rule_partner_passes_trumps_first():
    state = _deal(EXCHANGE, {2: "KH 9H AS 9S JS QD 9D JC 9C QC JD 9S"})
    _win_auction(state, 0)
    state.apply("Trumps H")
    assert state.current_player == 2
    passed = []
    for _ in range(3):
        a = _rule(state)
        passed.append(a >> 1)
        state.apply(a)
    assert passed == [_kind("KH"), _kind("9H"), _kind("AS")]


def test_pass_back_rule_declarer_keeps_trumps_aces_meld():
    state = _deal(EXCHANGE, {0: "AH 10H KH QH JH 9H AS AD KS QS 9C JC"})
    _win_auction(state, 0)
    state.apply("Trumps H")
    for _ in range(4):
        state.apply(_rule(state))  # the partner passes in
    assert state.current_player == 0
    a = _rule(state)
    hand = int(state.record["hands"][0])
    keep = sum(1 << c for c in _cards("AH 10H KH QH JH 9H AS AD KS QS"))
    assert not keep >> a & 1 and hand >> a & 1
    assert PINOCHLE.suit_of[a] != 1


def test_lead_rule_declarer_draws_trumps():
    state = _kitty_declarer()
    for name in ("10C", "KD", "QC", "9D"):
        state.apply(name)
    assert _rule(state) >> 1 == _kind("AH")


def test_lead_rule_cashes_a_side_ace():
    state = _deal(KITTY, {0: "AS AD KS 9S 9D 9H JH QH JC 9C QC"}, kitty="JS JD 10C KC")
    _win_auction(state, 0)
    state.apply("Trumps H")
    for name in ("10C", "KC", "JS", "JD"):
        state.apply(name)
    assert _rule(state) >> 1 in {_kind("AS"), _kind("AD")}


def _played_to(state, *cards):
    for name in cards:
        state.apply(name)
    return state


def test_follow_rule_feeds_a_counter_to_partners_safe_trick():
    state = _deal(
        KITTY,
        {0: "AS AH AD AC 9H JH QH KH 9C JC QC", 2: "10S 9S JH QD 9D JD 9C JC QC KD 10D"},
        kitty="9H 9D JD KC",
    )
    _win_auction(state, 0)
    state.apply("Trumps H")
    _played_to(state, "9H", "9D", "JD", "KC")  # bury
    state.apply("AS")
    state.apply(state.legal_actions()[0])  # seat 1 follows
    assert state.current_player == 2
    assert _rule(state) >> 1 == _kind("10S")


def test_follow_rule_wins_with_the_cheapest_safe_winner():
    state = _deal(
        KITTY,
        {0: "9S 9H JH QH KH 9C JC QC 9D JD QD", 1: "AS 10S KS 9D JS 9C JC QC KD 10D QD"},
        kitty="AH AH 10H 10H",
    )
    _win_auction(state, 0)
    state.apply("Trumps H")
    _played_to(state, "9C", "JC", "QC", "9D")
    state.apply("9S")
    assert set(int(a) >> 1 for a in state.legal_actions()) == {
        _kind("AS"),
        _kind("10S"),
        _kind("KS"),
        _kind("JS"),
    }
    # The other AS and 10S are out: only the AS is sure to hold.
    assert _rule(state) >> 1 == _kind("AS")


def test_follow_rule_throws_low_when_it_cannot_win():
    state = _deal(
        KITTY,
        {0: "AD 9H JH QH KH 9C JC QC 9D JD QD", 1: "AS KS 9S JS QS AC KC 10C JC 9C QC"},
        kitty="AH AH 10H 10H",
    )
    _win_auction(state, 0)
    state.apply("Trumps H")
    _played_to(state, "9C", "JC", "QC", "9D")
    state.apply("AD")
    assert _rule(state) >> 1 in {_kind("9S"), _kind("9C")}


# ---------------------------------------------------------------- bid success
#
# That the rule agent acts on its seat's information set, always legally,
# and beats random agents is checked for every game in tests/agents.


@pytest.mark.parametrize("mode", ["kitty", "exchange"])
def test_bid_success(mode):
    df = simulate("pinochle", 4000, "rule", 31, mode=mode)
    table = df.groupby("contract")["made"].agg(["mean", "count"])
    print(f"\n{mode}: made rate per contract (rule agents in every seat)\n{table}")
    main = table["count"].idxmax()
    assert table.loc[main, "mean"] > 0.5
    assert df.made.mean() > 0.5


def test_options_row():
    from trickgym.engine.params import params_row

    row = params_row(RuleOptions())
    assert row[0] == RuleOptions().counter_base and row[7] == 250
