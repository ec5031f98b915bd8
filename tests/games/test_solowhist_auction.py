"""Solo Whist auction: worked examples 9-10 and a plain-Python reference (rules §5)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trickgym.games.solowhist.constants import (
    CALL_NAMES,
    CONTRACT_NAMES,
    N_CONTRACTS,
)

HANDS = [  # dealer 3, so eldest is 0 (rules §11 setting)
    "AKQJ.AKQ.AKQ.AKQ",
    "T987.JT9.JT9.JT9",
    "6543.876.876.876",
    "2.5432.5432.5432",
]


@pytest.fixture
def fresh(solowhist):
    return lambda: solowhist.deal(hands=HANDS, dealer=3, turn_up="2C")


def names(state):
    return [state.action_name(a) for a in state.legal_actions()]


def play(state, *calls):
    for call in calls:
        state.apply(call)
    return state


def test_example_9a_cop_reentry_accepted(fresh):
    s = play(fresh(), "Pass", "Prop", "Pass", "Pass")
    assert s.current_player == 0
    assert names(s) == ["Cop", "Decline"]
    s.apply("Cop")
    r = s.record
    assert CONTRACT_NAMES[r["contract"]] == "Prop & Cop"
    assert {s for s in range(4) if r["declarers"] >> s & 1} == {0, 1}
    assert r["trumps"] == 3  # turn-up 2C: clubs
    assert s.current_player == 0  # eldest leads


def test_example_9b_decline_then_proposer_chooses(fresh):
    s = play(fresh(), "Pass", "Prop", "Pass", "Pass", "Decline")
    assert s.current_player == 1
    assert names(s) == [
        "Pass",
        "Solo",
        "Misère",
        "Abundance",
        "Misère Ouverte",
        "Abundance Declared",
    ]  # SW-D13, SW-D6: no Abundance in Trumps
    s.apply("Solo")
    assert CONTRACT_NAMES[s.record["contract"]] == "Solo" and s.record["declarer"] == 1


def test_example_9b_proposer_passes_deal_passed_out(fresh):
    s = play(fresh(), "Pass", "Prop", "Pass", "Pass", "Decline", "Pass")
    assert s.is_over and s.record["contract"] == 0
    assert s.payoffs.tolist() == [0, 0, 0, 0]
    dealt = s.record["pack"].copy()
    s.next_deal()
    assert s.record["dealer"] == 0 and not s.record["shuffled"]
    # Gathered: hands of seats 0,1,2,3 (e..d), each in dealt order, then cut.
    gathered = [dealt[r * 12 + j * 3 + i] for j in range(4) for r in range(4) for i in range(3)]
    gathered = np.array(
        [x for j in range(4) for x in (*gathered[j * 12 : j * 12 + 12], dealt[48 + j])]
    )
    pack = s.record["pack"]
    rotations = [k for k in range(1, 52) if np.array_equal(pack, np.roll(gathered, -k))]
    assert len(rotations) == 1


def test_example_9_counter_case_no_reentry(fresh):
    s = play(fresh(), "Pass", "Prop", "Solo", "Pass", "Pass")
    r = s.record
    assert CONTRACT_NAMES[r["contract"]] == "Solo" and r["declarer"] == 2
    assert r["phase"] == 4  # play: seat 0 was offered nothing


def test_proposer_on_eldest_gets_no_reentry(fresh):
    s = play(fresh(), "Prop", "Pass", "Pass", "Pass")
    assert s.current_player == 0 and "Cop" not in names(s) and "Solo" in names(s)


def test_example_10_abundance_in_trumps_only_over_abundance(fresh):
    s = play(fresh(), "Solo")
    assert "Abundance in Trumps" not in names(s)
    s.apply("Abundance")
    assert "Abundance in Trumps" in names(s)
    s.apply("Abundance in Trumps")
    assert names(s) == ["Pass", "Misère Ouverte", "Abundance Declared"]


def test_abundance_declarer_names_trumps(fresh):
    s = play(fresh(), "Abundance", "Pass", "Pass", "Pass")
    assert s.current_player == 0
    assert names(s) == ["Trumps S", "Trumps H", "Trumps D", "Trumps C"]
    s.apply("Trumps C")  # the turn-up suit is allowed (SW-D7)
    assert s.record["trumps"] == 3 and s.record["phase"] == 4


def test_abundance_declared_declarer_leads(fresh):
    s = play(fresh(), "Pass", "Pass", "Abundance Declared", "Pass")
    assert s.record["trumps"] == -1 and s.current_player == 2  # SW-D8, SW-D9


def test_prop_cop_then_overcalled_holders_bid_again(fresh):
    s = play(fresh(), "Prop", "Cop", "Solo")
    assert s.current_player == 3
    s.apply("Pass")
    assert s.current_player == 0 and "Misère" in names(s) and "Cop" not in names(s)


# ---------------------------------------------------------------- reference


class RefAuction:
    """Rules §5 and §5.1 written out directly, for comparison with the kernel."""

    RAISES = ["Solo", "Misère", "Abundance", "Misère Ouverte", "Abundance Declared"]
    RANK = {name: i for i, name in enumerate(CONTRACT_NAMES)}
    RANK["Prop"] = 1

    def __init__(self, dealer):
        self.e = (dealer + 1) % 4
        self.high, self.holders, self.passed, self.copped = None, [], set(), False
        self.turn = self.e
        self.stage = "auction"
        self.result = None  # (contract name, declarers) or "passed out"

    def legal(self):
        if self.stage == "reentry":
            return {"Cop", "Decline"}
        if self.stage == "upgrade":
            return {"Pass", *self.RAISES}
        legal = {"Pass"}
        if self.high is None:
            legal |= {"Prop", *self.RAISES}
        else:
            if self.high == "Prop" and not self.copped:
                legal.add("Cop")
            legal |= {c for c in self.RAISES if self.RANK[c] > self.RANK[self.high]}
            if self.high == "Abundance":
                legal.add("Abundance in Trumps")
        return legal

    def apply(self, call):
        p = self.turn
        if self.stage == "reentry":
            if call == "Cop":
                self.result = ("Prop & Cop", {self.holders[0], p})
            else:
                self.stage, self.turn = "upgrade", self.holders[0]
            return
        if self.stage == "upgrade":
            self.result = "passed out" if call == "Pass" else (call, {p})
            return
        if call == "Pass":
            self.passed.add(p)
        elif call == "Cop":
            self.holders.append(p)
            self.copped = True
        else:
            self.high, self.holders, self.copped = call, [p], False
        if self.high is None and len(self.passed) == 4:
            self.result = "passed out"
        elif self.high is not None and all(
            q in self.passed for q in range(4) if q not in self.holders
        ):
            if self.high == "Prop" and not self.copped:
                proposer = self.holders[0]
                self.stage = "reentry" if proposer != self.e else "upgrade"
                self.turn = self.e if proposer != self.e else proposer
            else:
                name = "Prop & Cop" if self.high == "Prop" else self.high
                self.result = (name, set(self.holders))
        else:
            q = p
            while True:
                q = (q + 1) % 4
                if q not in self.passed and q not in self.holders:
                    break
            self.turn = q


def _kernel_result(state):
    r = state.record
    if r["contract"] == 0:
        return "passed out"
    return CONTRACT_NAMES[r["contract"]], {s for s in range(4) if r["declarers"] >> s & 1}


@settings(max_examples=1500, deadline=None)
@given(dealer=st.integers(0, 3), choices=st.lists(st.integers(0, 10**6), min_size=20, max_size=20))
def test_auction_matches_reference(solowhist, dealer, choices):
    state = solowhist.deal(seed=choices[0], dealer=dealer)
    ref = RefAuction(dealer)
    for choice in choices:
        if ref.result is not None:
            break
        legal = sorted(ref.legal())
        assert set(names(state)) == ref.legal()
        assert state.current_player == ref.turn
        # Bias towards passes and low calls so long auctions and Prop/Cop appear.
        call = "Pass" if choice % 3 == 0 and "Pass" in legal else legal[choice % len(legal)]
        ref.apply(call)
        state.apply(call)
    if ref.result is None:
        return
    if _kernel_result(state) == "passed out":
        assert ref.result == "passed out"
        assert state.is_over
    else:
        assert ref.result == _kernel_result(state)
        assert state.record["phase"] in (3, 4)  # trump choice or play


def test_contract_names_cover_contracts():
    assert len(CONTRACT_NAMES) == N_CONTRACTS and CALL_NAMES[0] == "Pass"
