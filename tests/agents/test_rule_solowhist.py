"""The Solo Whist rule agent: one test per heuristic, and its bids' success.

Its information set, legality and strength against random agents are
checked for every game in ``tests/agents``.
"""

from __future__ import annotations

import numpy as np
import pytest

import trickgym
from trickgym.agents import kernel_scratch
from trickgym.agents.rule.solowhist import (
    RuleOptions,
    declared_safe,
    hand_tricks,
    misere_danger,
)
from trickgym.cards import parse_card, parse_hand
from trickgym.engine.loops import act
from trickgym.games.solowhist.constants import (
    ABUNDANCE_CALL,
    ABUNDANCE_DECLARED_CALL,
    COP,
    DECLINE,
    MISERE_CALL,
    MISERE_OUVERTE_CALL,
    PASS,
    PLAY,
    PROP,
    SOLO_CALL,
    TRUMP_BASE,
)
from trickgym.sim import simulate

RULE = 1
OPTS = RuleOptions()
VALUES = (OPTS.king_value, OPTS.queen_value, OPTS.ruff_value)

# Dealer 3 (eldest 0), turn-up 2S: spades are trumps in Solo and Prop & Cop.
BASIC = [
    "AKQJ.AK2.432.432",
    "T98.QJT9.AKQ.AKQ",
    "765.876.JT98.JT9",
    "432.543.765.8765",
]
# Hearts J2 / K3 / A94 / QT8765; seat 2 is void in diamonds.
FOLLOW = [
    "AKQJ.J2.5432.432",
    "T9.K3.AKQJT.AKQJ",
    "8765.A94..T98765",
    "432.QT8765.9876.",
]


def c(name: str) -> int:
    """Card id of a card name."""
    return parse_card(name)


def fill(hands: dict[int, str]) -> list[str]:
    """Four hands: the given seats' hands, the rest of the pack dealt in order to the others."""
    taken = 0
    for h in hands.values():
        taken |= parse_hand(h)
    rest = [k for k in range(52) if not taken >> k & 1]
    missing = [s for s in range(4) if s not in hands]
    masks = dict.fromkeys(missing, 0)
    for i, k in enumerate(rest):
        masks[missing[i % len(missing)]] |= 1 << k
    return [hands[s] if s in hands else _hand_str(masks[s]) for s in range(4)]


def _hand_str(mask: int) -> str:
    ranks = "23456789TJQKA"
    return ".".join(
        "".join(ranks[k % 13] for k in range(52) if mask >> k & 1 and k // 13 == u)[::-1]
        for u in range(4)
    )


def setup(hands, actions, dealer=3, turn_up=None):
    """A deal of ``hands`` with ``actions`` (ids or card names) applied."""
    state = trickgym.game("solowhist").deal(hands=hands, dealer=dealer, turn_up=turn_up)
    for a in actions:
        state.apply(a)
    return state


def rule(state) -> int:
    """The rule agent's action for the seat to move."""
    seat = state.current_player
    rng = np.array([7], dtype=np.uint64)
    action = act(RULE, state.record, seat, rng, *kernel_scratch(state.game), None)
    assert action in state.legal_actions()
    return int(action)


# ------------------------------------------------------------ hand evaluation


def test_hand_tricks_counts_top_cards_long_trumps_and_ruffs():
    assert hand_tricks(parse_hand("AKQJ.AK2.432.432"), 0, *VALUES) == pytest.approx(6.0)
    # Side AKQ: the third round counts half with trumps, fully at no trumps.
    assert hand_tricks(parse_hand("T98.QJT9.AKQ.AKQ"), 0, *VALUES) == pytest.approx(5.35)
    assert hand_tricks(parse_hand("AKQ..2.T98765432"), -1, *VALUES) == pytest.approx(3.0)
    # Six trumps, two void suits: long trumps and ruffs.
    v = hand_tricks(parse_hand("AK5432.AK32.2.32"), 0, *VALUES)
    assert v == pytest.approx(2 + 2 + 2 + 0.6 * 1)


def test_misere_danger_counts_high_cards_without_low_support():
    assert misere_danger(parse_hand("432.543.765.8765"), 3) == 0
    assert misere_danger(parse_hand("432.543.765.8765"), 1) > 0  # too loose to expose
    assert misere_danger(parse_hand("K2.5432.7654.432"), 3) == 1  # the king


def test_declared_safe_needs_every_card_a_winner():
    assert declared_safe(parse_hand("AKQJT98.AK.AK.AK"))
    assert not declared_safe(parse_hand("AKQJT98.AK.AK.A2"))


# -------------------------------------------------------------------- bidding


def test_rule_bid_solo_on_trump_honours():
    assert rule(setup(BASIC, [])) == SOLO_CALL


def test_rule_bid_pass_with_weak_hand():
    # Seat 1 holds a Solo hand but Solo is taken: nothing higher fits, pass.
    assert rule(setup(BASIC, [SOLO_CALL])) == PASS
    assert rule(setup(BASIC, [PASS, PASS])) == PASS  # seat 2: no tricks, hearts too high


def test_rule_bid_prop_with_moderate_hand():
    hands = fill({0: "A32.A32.A32.5432"})
    assert rule(setup(hands, [])) == PROP


def test_rule_bid_cop_accepts_prop_with_support():
    hands = fill({0: "A32.A32.A32.5432", 1: "K54.K54.K54.KQJ6"})
    assert rule(setup(hands, [PROP])) == COP


def test_rule_bid_misere_on_low_cards():
    assert rule(setup(BASIC, [PASS, PASS, PASS])) == MISERE_CALL


def test_rule_bid_misere_ouverte_on_very_low_cards():
    hands = fill({0: "5432.5432.432.32"})
    assert rule(setup(hands, [])) == MISERE_OUVERTE_CALL


def test_rule_bid_abundance_and_abundance_declared():
    hands = fill({0: "AKQJT98.AK.AK.A2"})
    assert rule(setup(hands, [], turn_up=None)) == ABUNDANCE_CALL
    hands = fill({0: "AKQJT98.AK.AK.AK"})
    assert rule(setup(hands, [], turn_up=None)) == ABUNDANCE_DECLARED_CALL


def test_rule_cop_offer():
    # 0 Pass, 1 Prop, 2 Pass, 3 Pass: eldest may Cop.
    hands = fill({0: "K54.K54.K54.KQJ6", 1: "A32.A32.A32.5432"})
    state = setup(hands, [PASS, PROP, PASS, PASS])
    assert rule(state) == COP
    hands = fill({0: "654.654.654.9876", 1: "A32.A32.A32.5432"})
    assert rule(setup(hands, [PASS, PROP, PASS, PASS])) == DECLINE


def test_rule_upgrade_lone_proposer():
    strong = setup(BASIC, [PROP, PASS, PASS, PASS])  # seat 0 is eldest: upgrade at once
    assert rule(strong) == SOLO_CALL
    weak = setup(fill({0: "A32.A32.A32.5432"}), [PROP, PASS, PASS, PASS])
    assert rule(weak) == PASS


def test_rule_trump_choice_longest_strongest_suit():
    hands = fill({1: "A2.AKQJT98.AK.AK"})
    state = setup(hands, [PASS, ABUNDANCE_CALL, PASS, PASS])
    assert rule(state) == TRUMP_BASE + 1  # hearts


# ----------------------------------------------------------------- card play


def test_rule_lead_draws_trumps_as_declarer():
    state = setup(BASIC, [SOLO_CALL, PASS, PASS, PASS])
    assert state.record["phase"] == PLAY
    assert rule(state) == c("JS")  # master trumps, the lowest of equals


def test_rule_lead_cashes_a_master_as_defender():
    state = setup(BASIC, [PASS, SOLO_CALL, PASS, PASS])
    assert rule(state) == c("KH")  # AK of hearts: cash, lowest of equals


def test_rule_lead_low_from_longest_suit():
    # Dealer 1 (eldest 2): seat 2 defends a Solo by seat 3, no master to cash.
    state = setup(BASIC, [PASS, SOLO_CALL, PASS, PASS], dealer=1, turn_up="9S")
    assert state.current_player == 2
    assert rule(state) == c("8D")


def test_rule_follow_second_hand_low_and_cover_an_honour():
    state = setup(FOLLOW, [PASS, SOLO_CALL, PASS, PASS, "2H"])
    assert rule(state) == c("3H")  # second hand low
    state = setup(FOLLOW, [PASS, SOLO_CALL, PASS, PASS, "JH"])
    assert rule(state) == c("KH")  # cover an honour


def test_rule_follow_third_hand_high():
    state = setup(FOLLOW, [PASS, SOLO_CALL, PASS, PASS, "2H", "3H"])
    assert rule(state) == c("AH")


def test_rule_follow_last_hand_wins_cheaply():
    state = setup(FOLLOW, [PASS, PASS, PASS, SOLO_CALL, "2H", "3H", "9H"])
    assert rule(state) == c("TH")


def test_rule_follow_partner_winning_plays_low():
    state = setup(FOLLOW, [PASS, SOLO_CALL, PASS, PASS, "2H", "3H", "AH"])
    assert rule(state) == c("5H")


def test_rule_void_ruffs_an_opponent_winner():
    state = setup(FOLLOW, [PASS, SOLO_CALL, PASS, PASS, "2D", "AD"])
    assert rule(state) == c("5S")


def test_rule_void_discards_low_under_partner_winner():
    state = setup(FOLLOW, [PASS, PASS, PASS, SOLO_CALL, "2D", "AD"])
    assert rule(state) == c("4H")


def test_rule_misere_declarer_ducks_under_the_winner():
    state = setup(BASIC, [PASS, PASS, PASS, MISERE_CALL, "AH", "9H", "6H"])
    assert rule(state) == c("5H")


def test_rule_misere_defenders_low_before_declarer_high_after():
    state = setup(BASIC, [PASS, PASS, PASS, MISERE_CALL])
    assert rule(state) == c("2H")  # lead low in a suit the declarer holds
    state.apply("2H")
    assert rule(state) == c("9H")  # before the declarer: low
    state = setup(BASIC, [PASS, PASS, PASS, MISERE_CALL, "2H", "9H", "6H", "5H", "TS", "5S"])
    assert rule(state) == c("4S")  # declarer ducks
    state.apply("4S")
    assert rule(state) == c("AS")  # declarer not winning: unload the top


def test_rule_misere_declarer_discard_highest_when_void():
    hands = fill({3: "2.AKQJ2.5432.543", 0: "AKQJT987654...76"})
    state = setup(hands, [PASS, PASS, PASS, MISERE_CALL, "AS"])
    state.apply(rule(state)).apply(rule(state))
    state.apply(rule(state))  # declarer drops 2S under the ace
    # Seat 0 leads again: spades; the declarer is void and sheds its top card.
    state.apply("KS").apply(rule(state)).apply(rule(state))
    assert rule(state) == c("AH")


# ----------------------------------------------------------------- bid success
#
# That the rule agent acts on its seat's information set, always legally,
# and beats random agents is checked for every game in tests/agents.


def test_bid_success_with_rule_agents():
    from trickgym.games.solowhist.constants import CONTRACT_NAMES

    df = simulate("solowhist", 20000, "rule", 2)
    table = df.groupby("contract")["made"].agg(["count", "mean"])
    print(table)
    rates = {
        CONTRACT_NAMES.index(k) if isinstance(k, str) else int(k): v
        for k, v in table["mean"].items()
    }
    counts = {
        CONTRACT_NAMES.index(k) if isinstance(k, str) else int(k): v
        for k, v in table["count"].items()
    }
    for contract in (1, 2, 3):  # Prop & Cop, Solo, Misère
        assert counts.get(contract, 0) > 100
        assert rates[contract] > 0.5, CONTRACT_NAMES[contract]
