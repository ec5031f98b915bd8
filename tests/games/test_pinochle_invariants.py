"""Pinochle random-play properties, checked against a plain-Python reference of the rules.

Several hundred hands in each mode (kitty and exchange) run through the
compiled kernels with random legal actions, the auction steered so that
contracts are made and set, the dealer is stuck and hands are passed out.
Matches run over several hands to a low target, so the rotation of the deal
and the end of the match are reached too. Every step is compared with a
reference written from pinochle.md alone (card names, not the bit layout):
the auction (§4), the order after it (§5), the meld (§6, the counting
algorithm and the cards it uses), the legal plays (§7.1, with and without
``must_head``), each trick's winner with identical copies (§7.2), the
counters, the saving of meld and the scores (§8) and the match end (§9).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trickgym
from trickgym.cards import PINOCHLE

HANDS_PER_MODE = 400

# --- the reference, from pinochle.md ---------------------------------------------

NAMES = list(PINOCHLE.card_names)  # "AS", "10H", ... (two copies share a name)
SUITS = "SHDC"
RANKS_LOW_TO_HIGH = ["9", "J", "Q", "K", "10", "A"]  # §2: A 10 K Q J 9, high to low
ROUND = ["A", "10", "K", "Q", "J"]  # a run
PASS, TRUMP_BASE, BID_BASE = 48, 49, 53  # the action ids of the design


def suit(card: int) -> int:
    return SUITS.index(NAMES[card][-1])


def rank(card: int) -> int:
    return RANKS_LOW_TO_HIGH.index(NAMES[card][:-1])


def is_counter(card: int) -> bool:
    return NAMES[card][:-1] in ("A", "10", "K")


def bits(mask) -> set[int]:
    mask = int(mask)
    return {c for c in range(48) if mask >> c & 1}


def mask_of(cards) -> int:
    return sum(1 << c for c in cards)


def count(hand: set[int], name: str) -> int:
    return sum(NAMES[c] == name for c in hand)


def ref_meld(hand: set[int], t: int) -> tuple[int, dict[str, int]]:
    """§6 algorithm: the points, and the copies of each card name the melds use.

    Within a class each copy serves once; a card may serve in each class, so
    the copies shown of a name are the most any one class uses.
    """
    ts = SUITS[t]
    used = [{}, {}, {}]  # class A, B, C: name -> copies

    def use(cls: int, name: str, k: int) -> None:
        used[cls][name] = used[cls].get(name, 0) + k

    r = min(count(hand, x + ts) for x in ROUND)
    a = 1500 if r == 2 else 150 * r
    for x in ROUND:
        use(0, x + ts, r)
    royal = min(count(hand, "K" + ts) - r, count(hand, "Q" + ts) - r)
    a += 40 * royal
    use(0, "K" + ts, royal)
    use(0, "Q" + ts, royal)
    for s in SUITS:
        if s != ts:
            m = min(count(hand, "K" + s), count(hand, "Q" + s))
            a += 20 * m
            use(0, "K" + s, m)
            use(0, "Q" + s, m)
    nines = count(hand, "9" + ts)
    a += 10 * nines
    use(0, "9" + ts, nines)
    b = 0
    table = {"A": (100, 1000), "K": (80, 800), "Q": (60, 600), "J": (40, 400)}
    for x, (single, double) in table.items():
        k = min(count(hand, x + s) for s in SUITS)
        b += double if k == 2 else single if k == 1 else 0
        for s in SUITS:
            use(1, x + s, k)
    p = min(count(hand, "QS"), count(hand, "JD"))
    c = {0: 0, 1: 40, 2: 300}[p]
    use(2, "QS", p)
    use(2, "JD", p)
    shown = {}
    for cls in used:
        for name, k in cls.items():
            shown[name] = max(shown.get(name, 0), k)
    return a + b + c, {name: k for name, k in shown.items() if k}


def names_of(mask) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in bits(mask):
        out[NAMES[c]] = out.get(NAMES[c], 0) + 1
    return out


def beats(c: int, w: int, t: int) -> bool:
    """§7.1 ``beats``: same suit and higher rank, or a trump on a non-trump."""
    return (suit(c) == suit(w) and rank(c) > rank(w)) or (suit(c) == t and suit(w) != t)


def ref_winner(trick: list[int], t: int) -> int:
    """§7.2: position of the highest trump, else of the highest of the led suit; first copy wins."""
    pool = [i for i, c in enumerate(trick) if suit(c) == t]
    pool = pool or [i for i, c in enumerate(trick) if suit(c) == suit(trick[0])]
    top = max(rank(trick[i]) for i in pool)
    return min(i for i in pool if rank(trick[i]) == top)


def ref_legal(hand: set[int], trick: list[int], t: int, must_head: bool) -> set[int]:
    """§7.1 pseudo-code; ``must_head=False`` drops the "higher" filters (PN-D11)."""
    if not trick:
        return set(hand)
    led = suit(trick[0])
    win = trick[ref_winner(trick, t)]
    same = {c for c in hand if suit(c) == led}
    if same:
        if led != t and suit(win) == t:
            return same
        higher = {c for c in same if beats(c, win, t)} if must_head else set()
        return higher or same
    trumps = {c for c in hand if suit(c) == t}
    if trumps:
        higher = {c for c in trumps if beats(c, win, t)} if must_head else set()
        return higher or trumps
    return set(hand)


def ref_auction_legal(high, n_passed, o) -> set[int]:
    """§4: the legal calls as action ids (bids capped at ``max_bid``, PN-D20)."""
    low = o.min_bid if high is None else max(o.min_bid, high + 10)
    bids = {BID_BASE + (v - o.min_bid) // 10 for v in range(low, o.max_bid + 1, 10)}
    stuck = high is None and n_passed == 3 and o.all_pass == "dealer_stuck"
    return bids if stuck else bids | {PASS}


def ref_scores(o, declarer, bid, melds, piles, tricks, last_team, discards):
    """§8: counters, saved flags, team melds and hand scores (NS, EW)."""
    dc = declarer % 2
    counters = [10 * sum(is_counter(c) for c in piles[x]) for x in range(2)]
    counters[last_team] += 10
    counters[dc] += 10 * sum(is_counter(c) for c in discards)
    team_meld = [melds[x] + melds[x + 2] for x in range(2)]
    team_tricks = [tricks[x] + tricks[x + 2] for x in range(2)]
    if o.meld_save == "one_trick":
        saved = [team_tricks[x] >= 1 for x in range(2)]
    else:
        saved = [counters[x] >= 20 for x in range(2)]
    totals = [(team_meld[x] if saved[x] else 0) + counters[x] for x in range(2)]
    made = totals[dc] >= bid
    scores = [0, 0]
    scores[dc] = totals[dc] if made else -bid
    scores[1 - dc] = totals[1 - dc]
    return counters, saved, team_meld, made, scores


# --- random hands, checked step by step -------------------------------------------

STYLES = ("steered", "steered", "steered", "all pass", "random")


@functools.cache
def game(**options):
    return trickgym.game("pinochle", **options)


def options_for(mode: str, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    min_bid = int(rng.choice([250, 250, 200, 300, 150]))
    return {
        "mode": mode,
        "pass_count": int(rng.choice([4, 4, 3])),
        "min_bid": min_bid,
        "max_bid": int(rng.choice([990 if min_bid == 250 else min_bid + 740, min_bid + 120])),
        "all_pass": str(rng.choice(["dealer_stuck", "redeal"])),
        "must_head": bool(rng.random() < 0.75),
        "meld_save": str(rng.choice(["one_trick", "twenty_counters"])),
        "target": int(rng.choice([1500, 600, 300])),
    }


def legal_of(array) -> tuple[set[int], int, int]:
    low, high = (int(x) for x in game_kernels().legal_sets_at(array, 0))
    actions = {a for a in range(64) if low >> a & 1} | {64 + a for a in range(64) if high >> a & 1}
    return actions, low, high


def game_kernels():
    return game(mode="kitty").kernels


def choose_call(rng, legal: set[int], style: str) -> int:
    if style == "all pass" and PASS in legal:
        return PASS
    if style == "random" or (style == "all pass" and PASS not in legal):
        return int(rng.choice(sorted(legal)))
    if PASS in legal and rng.random() < 0.55:
        return PASS
    bids = sorted(legal - {PASS})
    return int(rng.choice(bids[:4])) if bids else PASS


def play_hand_and_check(array, o, rng, style: str, summary: dict) -> None:
    """Play the current hand of ``array`` at random, asserting each step against the reference."""
    k = game_kernels()
    r = array[0]
    kitty_mode = o.mode == "kitty"
    per_seat = 11 if kitty_mode else 12
    dealer = int(r["dealer"])
    hands = [bits(h) for h in r["hands"]]
    kitty = bits(r["kitty"])
    assert [len(h) for h in hands] == [per_seat] * 4 and len(kitty) == (4 if kitty_mode else 0)
    assert set().union(*hands, kitty) == set(range(48))
    assert [bits(h) for h in r["initial_hands"]] == hands
    scores_before = r["scores"].tolist()

    # §4 auction.
    high, holder, passed = None, None, set()
    p = (dealer + 1) % 4
    calls = []
    while True:
        legal, _low_word, high_word = legal_of(array)
        assert int(r["phase"]) == 0 and int(r["to_move"]) == p
        assert legal == ref_auction_legal(high, len(passed), o), (high, passed)
        action = choose_call(rng, legal, style)
        k.apply_action_at(array, 0, action)
        if action == PASS:
            passed.add(p)
            calls.append((p, 0))
        else:
            high, holder = o.min_bid + 10 * (action - BID_BASE), p
            calls.append((p, high))
        assert r["call_seats"][: len(calls)].tolist() == [s for s, _ in calls]
        assert r["calls"][: len(calls)].tolist() == [v for _, v in calls]
        if high is not None and len(passed) == 3:
            break
        if len(passed) == 4:  # all_pass = redeal: the hand is passed out
            assert o.all_pass == "redeal"
            assert int(r["phase"]) == 6 and bool(r["passed_out"])
            assert legal_of(array)[0] == set()
            assert r["payoffs"].tolist() == [0] * 4 and r["scores"].tolist() == scores_before
            assert not r["game_over"]
            summary["passed out"] += 1
            return
        p = (p + 1) % 4
        while p in passed:
            p = (p + 1) % 4
    if len(calls) == 4 and calls[-1][1] and all(v == 0 for _, v in calls[:3]):
        summary["dealer stuck"] += 1
    declarer, bid = holder, high
    partner = (declarer + 2) % 4
    assert int(r["declarer"]) == declarer and int(r["bid"]) == bid
    assert o.min_bid <= bid <= o.max_bid and bid % 10 == 0

    # §5: kitty into the declarer's hand, trumps, then discards or the exchange.
    if kitty_mode:
        hands[declarer] |= kitty
    assert int(r["phase"]) == 1 and int(r["to_move"]) == declarer
    assert bits(r["hands"][declarer]) == hands[declarer]
    legal, _, _ = legal_of(array)
    assert legal == {TRUMP_BASE + s for s in range(4)}
    t = int(rng.integers(4))
    k.apply_action_at(array, 0, TRUMP_BASE + t)
    assert int(r["trumps"]) == t
    discards: set[int] = set()
    if kitty_mode:
        for _ in range(4):
            assert int(r["phase"]) == 2 and int(r["to_move"]) == declarer
            legal, _, _ = legal_of(array)
            assert legal == hands[declarer]
            card = int(rng.choice(sorted(legal)))
            k.apply_action_at(array, 0, card)
            hands[declarer].remove(card)
            discards.add(card)
        assert bits(r["discards"]) == discards
    else:
        for giver, taker, phase in ((partner, declarer, 3), (declarer, partner, 4)):
            moved = set()
            for _ in range(o.pass_count):
                assert int(r["phase"]) == phase and int(r["to_move"]) == giver
                legal, _, _ = legal_of(array)
                assert legal == hands[giver]
                card = int(rng.choice(sorted(legal)))
                k.apply_action_at(array, 0, card)
                hands[giver].remove(card)
                hands[taker].add(card)
                moved.add(card)
            assert bits(r["passed_in" if phase == 3 else "passed_back"]) == moved
    assert [len(h) for h in hands] == [per_seat] * 4
    assert [bits(h) for h in r["hands"]] == hands

    # §6 meld, all seats, once the hands are final.
    melds = []
    for s in range(4):
        points, shown = ref_meld(hands[s], t)
        assert int(r["meld"][s]) == points, (s, sorted(NAMES[c] for c in hands[s]), SUITS[t])
        assert bits(r["meld_cards"][s]) <= hands[s]
        assert names_of(r["meld_cards"][s]) == shown
        melds.append(points)
    summary["max meld"] = max(summary["max meld"], *melds)

    # §7 play: the declarer leads; follow, head, trump, over-trump.
    assert int(r["phase"]) == 5 and int(r["to_move"]) == declarer
    leader = declarer
    piles: list[set[int]] = [set(), set()]
    tricks = [0] * 4
    plays: list[int] = []
    last_team = -1
    for trick_no in range(per_seat):
        trick: list[int] = []
        for pos in range(4):
            p = (leader + pos) % 4
            legal, _, high_word = legal_of(array)
            assert high_word == 0 and int(r["to_move"]) == p and int(r["phase"]) == 5
            ref = ref_legal(hands[p], trick, t, o.must_head)
            assert legal == ref, (trick_no, [NAMES[c] for c in trick], SUITS[t])
            if ref != ref_legal(hands[p], trick, t, not o.must_head):
                summary["heading mattered"] += 1
            card = int(rng.choice(sorted(legal)))
            k.apply_action_at(array, 0, card)
            hands[p].remove(card)
            trick.append(card)
            plays.append(card)
        pos = ref_winner(trick, t)
        if sum(NAMES[c] == NAMES[trick[pos]] for c in trick) == 2:
            summary["identical copies"] += 1  # the winning card's twin is in the trick
        winner = (leader + pos) % 4
        tricks[winner] += 1
        piles[winner % 2] |= set(trick)
        last_team = winner % 2
        assert r["tricks_won"].tolist() == tricks
        assert [bits(w) for w in r["won"]] == piles
        if trick_no < per_seat - 1:
            assert int(r["to_move"]) == winner and int(r["leader"]) == winner
        leader = winner

    # The hand is over: every card played once, legal sets empty.
    assert int(r["phase"]) == 6 and legal_of(array)[0] == set()
    assert len(plays) == len(set(plays)) == 4 * per_seat
    assert set(plays) == set(range(48)) - discards
    assert all(not h for h in hands) and all(int(h) == 0 for h in r["hands"])
    counters, saved, team_meld, made, hand_scores = ref_scores(
        o, declarer, bid, melds, piles, tricks, last_team, discards
    )
    assert sum(counters) == 250
    assert r["counters"].tolist() == counters
    assert [bool(x) for x in r["saved"]] == saved
    assert r["team_meld"].tolist() == team_meld
    assert bool(r["made"]) == made
    assert r["hand_scores"].tolist() == hand_scores
    dc = declarer % 2
    pay = [hand_scores[s % 2] - hand_scores[1 - s % 2] for s in range(4)]
    assert r["payoffs"].tolist() == pay
    scores = [scores_before[x] + hand_scores[x] for x in range(2)]
    assert r["scores"].tolist() == scores
    # §9: the declaring team wins when it reaches the target, even on a tie.
    reached = [scores[x] >= o.target for x in range(2)]
    assert bool(r["game_over"]) == any(reached)
    if any(reached):
        assert int(r["winner"]) == (dc if reached[dc] else 1 - dc)
        summary["both reached"] += all(reached)
    else:
        assert int(r["winner"]) == -1
    summary["made" if made else "set"] += 1
    summary["unsaved meld"] += sum(not s and m > 0 for s, m in zip(saved, team_meld, strict=True))


def play_match_and_check(mode: str, seed: int, summary: dict, max_hands: int = 4) -> int:
    """A match of up to ``max_hands`` hands; returns the number of hands played."""
    o_dict = options_for(mode, seed)
    g = game(**o_dict)
    o = g.options
    rng = np.random.default_rng(seed)
    array = g.new_match(np.uint64(seed))
    k = g.kernels
    for h in range(max_hands):
        dealer = int(array[0]["dealer"])
        assert int(array[0]["hand_index"]) == h
        play_hand_and_check(array, o, rng, STYLES[(seed + h) % len(STYLES)], summary)
        over, match_over, to_move = k.status_at(array, 0)
        assert over and to_move == -1
        if match_over:
            summary["matches ended"] += 1
            return h + 1
        k.next_deal_at(array, 0)
        assert int(array[0]["dealer"]) == (dealer + 1) % 4  # §1: the deal passes left
    return max_hands


def new_summary() -> dict:
    keys = (
        "passed out",
        "dealer stuck",
        "made",
        "set",
        "unsaved meld",
        "heading mattered",
        "identical copies",
        "matches ended",
        "both reached",
        "max meld",
    )
    return dict.fromkeys(keys, 0)


@pytest.mark.parametrize("mode", ["kitty", "exchange"])
def test_random_hands_follow_the_rules(mode):
    summary = new_summary()
    hands, seed = 0, 0
    while hands < HANDS_PER_MODE:
        hands += play_match_and_check(mode, 10_000 * (mode == "exchange") + seed, summary)
        seed += 1
    # The steering reached every corner the checks are about.
    for key in (
        "passed out",
        "dealer stuck",
        "made",
        "set",
        "unsaved meld",
        "heading mattered",
        "identical copies",
        "matches ended",
    ):
        assert summary[key] > 0, summary
    assert summary["max meld"] >= 150, summary


@settings(max_examples=40, deadline=None)
@given(mode=st.sampled_from(["kitty", "exchange"]), seed=st.integers(0, 2**62))
def test_any_seed_follows_the_rules(mode, seed):
    play_match_and_check(mode, seed, new_summary(), max_hands=1)


# --- the reference itself on the worked examples, so it cannot drift -------------


def ids(text: str) -> set[int]:
    """Card ids for names, giving out the two copies in turn."""
    out: set[int] = set()
    for name in text.split():
        out.add(next(c for c in range(48) if NAMES[c] == name and c not in out))
    return out


def test_reference_on_the_worked_examples():
    hearts, clubs, spades = 1, 3, 0
    assert sum(10 for c in range(48) if is_counter(c)) + 10 == 250  # example 1
    ex2 = ids("AH 10H KH KH QH JH 9H QS KS JD KD KC")
    assert ref_meld(ex2, hearts)[0] == 300
    ex3 = ids("AS AH AC AD KS QS QS JD JD 9C 9C 10H")
    assert ref_meld(ex3, clubs)[0] == ref_meld(ex3, spades)[0] == 440
    assert ref_meld(ids("AH 10H KH KH QH QH JH 9S 9S JC 10C AD"), hearts)[0] == 190
    assert ref_meld(ids("AH 10H KH KH QH JH 9S 9S JC 10C AD 9D"), hearts)[0] == 150
    double_run = ids("AS AS 10S 10S KS KS QS QS JS JS 9S QD")
    assert ref_meld(double_run, spades) == (1510, names_of(mask_of(double_run - ids("QD"))))
    # Examples 5-9 (one id per named card; identical copies are distinct ids).
    one = {name: min(ids(name)) for name in NAMES}
    assert ref_legal(ids("AS KS 9H"), [one["10S"]], hearts, True) == {one["AS"]}
    assert ref_legal(ids("KS 9S QH"), [one["10S"]], hearts, True) == ids("KS 9S")
    lead = [one["KS"], one["JH"]]
    assert ref_legal(ids("AS 9S QH"), lead, hearts, True) == ids("AS 9S")
    assert ref_legal(ids("QH 9H AD"), lead, hearts, True) == ids("QH")
    assert ref_legal(ids("9H AD"), lead, hearts, True) == ids("9H")
    assert ref_legal(ids("AD QC"), lead, hearts, True) == ids("AD QC")
    assert ref_legal(ids("KH 9H AS"), [one["QH"]], hearts, True) == ids("KH")
    ad = sorted(ids("AD AD"))
    assert ref_winner([ad[0], ad[1], one["10D"], one["9D"]], spades) == 0
