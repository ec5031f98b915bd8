"""Phat random-play properties, checked against a plain-Python reference of the rules.

Whole matches run through the compiled kernels with uniformly random legal
cards. Every step is compared with a reference written from phat.md alone:
the legal sets (§4), each trick's winner (§4), the phat scored at once and
the race to the target checked after every trick (§5, PH-D4), the muck
bonus with its carry-over (PH-D2, PH-D3), the payoffs, the pitcher's
rotation (PH-D1) and new games in a match (§8).
"""

from __future__ import annotations

import numpy as np
import pytest

import trickgym
from trickgym.cards import STANDARD
from trickgym.games.phat import rules
from trickgym.games.phat.constants import DEAL_OVER, PLAY

# --- the reference, from phat.md ----------------------------------------------------

NAMES = [STANDARD.card_names[c] for c in range(52)]
ORDER = "2 3 4 5 6 7 8 9 10 J Q K A".split()  # low -> high
SUIT = [n[-1] for n in NAMES]
RANK = [ORDER.index(n[:-1]) for n in NAMES]
PHAT_TRUMP = {"9": 18, "5": 10, "A": 4, "K": 3, "Q": 2, "J": 1}
PHAT_PLAIN = {"9": 9, "5": 5}
MUCK = {"10": 10, "A": 4, "K": 3, "Q": 2, "J": 1}


def phat(card: int, trumps: str) -> int:
    return (PHAT_TRUMP if SUIT[card] == trumps else PHAT_PLAIN).get(NAMES[card][:-1], 0)


def muck(card: int) -> int:
    return MUCK.get(NAMES[card][:-1], 0)


def cards_of(mask) -> set[int]:
    mask = int(mask)
    return {c for c in range(52) if mask >> c & 1}


def ref_legal(hand: set[int], trick: list[tuple[int, int]]) -> set[int]:
    """§4: leading, any card; else the led suit if held, else any card."""
    if not trick:
        return set(hand)
    led = SUIT[trick[0][1]]
    return {c for c in hand if SUIT[c] == led} or set(hand)


def ref_winner(trick: list[tuple[int, int]], trumps: str) -> int:
    """§4: the highest trump if any, else the highest card of the led suit; the seat."""
    led = SUIT[trick[0][1]]
    pool = [sc for sc in trick if SUIT[sc[1]] == trumps] or [
        sc for sc in trick if SUIT[sc[1]] == led
    ]
    return max(pool, key=lambda sc: RANK[sc[1]])[0]


class Reference:
    """The §5 state machine: scores, carry, target; one deal at a time."""

    def __init__(self, target: int):
        self.target = target
        self.scores = [0, 0]
        self.carry = 0

    def new_game(self):
        self.scores = [0, 0]
        self.carry = 0

    def start_deal(self, hands: list[set[int]], pitcher: int):
        self.hands = [set(h) for h in hands]
        self.to_move = pitcher
        self.trumps = None
        self.trick: list[tuple[int, int]] = []
        self.tricks = 0
        self.phat = [0, 0]
        self.muck = [0, 0]
        self.won = [set(), set()]
        self.over = False
        self.game_winner = -1
        self.bonus_to, self.bonus = -1, 0
        self.winners: list[int] = []

    def play(self, card: int):
        """Play ``card``; returns the trick's winning seat when the card completes a trick."""
        assert card in ref_legal(self.hands[self.to_move], self.trick)
        if self.trumps is None:
            self.trumps = SUIT[card]  # the pitch sets trumps (§2)
        self.hands[self.to_move].discard(card)
        self.trick.append((self.to_move, card))
        if len(self.trick) < 4:
            self.to_move = (self.to_move + 1) % 4
            return None
        w = ref_winner(self.trick, self.trumps)
        team = w % 2
        self.phat[team] += sum(phat(c, self.trumps) for _, c in self.trick)
        self.scores[team] += sum(phat(c, self.trumps) for _, c in self.trick)
        self.muck[team] += sum(muck(c) for _, c in self.trick)
        self.won[team] |= {c for _, c in self.trick}
        self.trick = []
        self.tricks += 1
        self.winners.append(w)
        self.to_move = w
        if self.scores[team] >= self.target:
            self.over, self.game_winner = True, team
        elif self.tricks == 13:
            bonus = 8 + self.carry
            for t in (0, 1):
                if self.muck[t] > 40:
                    self.scores[t] += bonus
                    self.bonus_to, self.bonus, self.carry = t, bonus, 0
            if self.bonus_to < 0:
                self.carry += 8
            elif self.scores[self.bonus_to] >= self.target:
                self.game_winner = self.bonus_to
            self.over = True
        return w

    def payoffs(self) -> list[int]:
        pts = [self.phat[t] + (self.bonus if self.bonus_to == t else 0) for t in (0, 1)]
        return [pts[s % 2] - pts[1 - s % 2] for s in range(4)]


# --- the random matches -----------------------------------------------------------------


def run_matches(
    n_matches: int, games_in_match: int, target: int, seed: int, preset_carry: bool = False
) -> dict:
    """Play random matches, checking every step against the reference; returns counters.

    With ``preset_carry`` some deals start with a carry of 8-32 written into
    the record, as if 1-4 ties had gone before (PH-D3), which random play
    alone almost never produces twice in a row.
    """
    g = trickgym.game("phat", games_in_match=games_in_match, target=target)
    rng = np.random.default_rng(seed)
    stats = dict(deals=0, games=0, early=0, on_13_by_phat=0, ties=0, double_ties=0, bonus_wins=0)
    for m in range(n_matches):
        array = g.new_match(np.uint64(1000 * seed + m))
        r = array[0]
        ref = Reference(target)
        pitcher = int(r["pitcher"])
        games_seen = 0
        while True:
            if preset_carry and rng.random() < 0.3:
                r["carry"] = ref.carry = 8 * int(rng.integers(1, 5))
            assert int(r["pitcher"]) == pitcher
            assert list(r["scores"]) == ref.scores and r["carry"] == ref.carry
            hands = [cards_of(h) for h in r["hands"]]
            assert [len(h) for h in hands] == [13] * 4
            assert set().union(*hands) == set(range(52))
            ref.start_deal(hands, pitcher)
            scores_before = list(ref.scores)
            carry_before = ref.carry
            while not ref.over:
                over, _, to_move = rules.status_at(array, 0)
                assert not over and r["phase"] == PLAY and to_move == ref.to_move
                cards, calls = rules.legal_sets_at(array, 0)
                legal = cards_of(cards)
                assert legal and calls == 0
                assert legal == ref_legal(ref.hands[to_move], ref.trick)
                card = int(rng.choice(sorted(legal)))
                before = list(ref.scores)
                rules.apply_action_at(array, 0, card)
                w = ref.play(card)
                if w is None:
                    assert list(r["trick_cards"][: len(ref.trick)]) == [c for _, c in ref.trick]
                    continue
                assert r["leader"] == w and r["trick_no"] == ref.tricks
                assert list(r["scores"]) == ref.scores  # phat at once (and a bonus after 13)
                if ref.game_winner >= 0:
                    # The game ends at the trick that crossed: both were below before it.
                    assert max(before) < target <= ref.scores[ref.game_winner]
            # The deal is over.
            stats["deals"] += 1
            over, _, to_move = rules.status_at(array, 0)
            assert over and r["phase"] == DEAL_OVER and to_move == -1
            assert r["trick_no"] == ref.tricks
            assert list(r["tricks_won"]) == [ref.winners.count(s) for s in range(4)]
            assert trickgym.cards.STANDARD.suit_letters[r["trumps"]] == ref.trumps
            assert list(r["phat"]) == ref.phat and list(r["muck"]) == ref.muck
            assert [cards_of(x) for x in r["won"]] == ref.won
            assert list(r["scores"]) == ref.scores
            assert (r["bonus_to"], r["bonus"]) == (ref.bonus_to, ref.bonus)
            assert list(r["payoffs"]) == ref.payoffs() and sum(r["payoffs"]) == 0
            assert r["game_over"] == (ref.game_winner >= 0) and r["winner"] == ref.game_winner
            # Scores are the running sums of the phat and bonuses.
            for t in (0, 1):
                gain = ref.phat[t] + (ref.bonus if ref.bonus_to == t else 0)
                assert ref.scores[t] == scores_before[t] + gain
            completed = ref.tricks == 13 and not (ref.game_winner >= 0 and ref.bonus_to < 0)
            if completed:
                assert sum(ref.phat) == 80 and sum(ref.muck) == 80
                # PH-D3: a tie adds 8 to the carry; an awarded bonus is 8 + carry, carry 0.
                if ref.bonus_to < 0:
                    assert ref.muck == [40, 40] and r["carry"] == carry_before + 8
                    stats["ties"] += 1
                    stats["double_ties"] += carry_before > 0
                else:
                    assert max(ref.muck) > 40 and ref.bonus == 8 + carry_before
                    assert r["carry"] == 0
                    stats["bonus_wins"] += ref.game_winner >= 0
            else:
                stats["early"] += ref.tricks < 13
                stats["on_13_by_phat"] += ref.tricks == 13
                assert r["game_over"] and r["bonus_to"] == -1
                assert r["scores"][r["winner"]] >= target > r["scores"][1 - r["winner"]]
                assert all(len(h) == 13 - ref.tricks for h in ref.hands)
            if r["game_over"]:
                games_seen += 1
                stats["games"] += 1
                assert r["games_won"].sum() == games_seen
            if rules.status_at(array, 0)[1]:
                assert games_seen == games_in_match
                break
            rules.next_deal_at(array, 0)
            pitcher = (pitcher + 1) % 4  # PH-D1, across games too
            if ref.game_winner >= 0:
                ref.new_game()
                assert r["game_index"] == games_seen
    return stats


@pytest.mark.parametrize(
    ("matches", "games_in_match", "target", "seed"),
    [(100, 3, 181, 1), (60, 1, 181, 2), (40, 2, 60, 3)],
)
def test_random_matches_follow_the_reference(matches, games_in_match, target, seed):
    """Hundreds of random games: every step agrees with the reference, and the cases occur."""
    stats = run_matches(matches, games_in_match, target, seed)
    assert stats["games"] == matches * games_in_match
    assert stats["early"] > 0  # games end mid-deal (PH-D4)
    if target == 181:
        assert stats["deals"] >= 3 * stats["games"]  # a race to 181 takes 3-5 deals
        assert stats["deals"] <= 5 * stats["games"]


def test_ties_and_carries_occur():
    """40-40 ties, ties after ties, bonuses of 16-40 and wins by the bonus are all exercised."""
    stats = run_matches(200, 2, 181, 7, preset_carry=True)
    assert stats["ties"] > 0 and stats["double_ties"] > 0 and stats["bonus_wins"] > 0
