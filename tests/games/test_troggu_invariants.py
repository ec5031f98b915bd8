"""Troggu random-play properties, checked against a plain-Python reference of the rules.

Several hundred deals for every table size 3..8 run through the compiled
kernels with random legal actions (auctions steered so that Tapp, Solo,
Misère and the forced Tapp all occur). Every step is compared with a
reference written from troggu.md alone: the legal sets (§4, §5, §6.1), the
Fool hold-back (§6.2), each trick's winner (§6.3), the piles with the Fool
exchange (TR-D6) and the payments (§7).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trickgym
from trickgym.cards import TAROT
from trickgym.games.troggu import rules
from trickgym.games.troggu.constants import (
    AUCTION,
    CALL,
    CALL_BASE,
    DEAL_OVER,
    DISCARD,
    NO_PARTNER,
    PASS,
    PLAY,
    SOLO_CALL,
    TAPP_CALL,
)
from trickgym.games.troggu.state import STATE_DTYPE

DEALS_PER_SIZE = 400

# The kernels below reach Troggu's rules through the game protocol: building the
# game registers its bindings (numba remembers a failed overload resolution, so
# calling a kernel first would break every later Troggu test in the process).
trickgym.game("troggu", players=3)

# --- the reference, from troggu.md -----------------------------------------------

NAMES = [TAROT.card_names[c] for c in range(TAROT.n_cards)]
ID = {name: c for c, name in enumerate(NAMES)}
TRUMP_ORDER = "I II III IV V VI VII VIII IX X XI XII XIII XIV XV XVI XVII XVIII XIX XX XXI Fool"
TRUMP_ORDER = TRUMP_ORDER.split()  # §2, low -> high (the active Fool on top)
ROUND_ORDER = ["6", "5", "4", "3", "2", "1", "J", "N", "Q", "K"]
LONG_ORDER = ["5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]
FOOL = ID["Fool"]
BOUTS = {ID["Fool"], ID["XXI"], ID["I"]}
KINGS = {ID[k] for k in ("KC", "KD", "KS", "KB")}
CALLABLE = {ID[t] for t in TRUMP_ORDER[1:20]}  # II..XX
HAND = {3: 18, 4: 13, 5: 11, 6: 9, 7: 8, 8: 7}
TAPP = {3: 8, 4: 10, 5: 7, 6: 8, 7: 6, 8: 6}


def suit(card: int) -> str:
    """'T' for trumps (the Fool included), else the suit letter of the card's name."""
    name = NAMES[card]
    return "T" if name in TRUMP_ORDER else name[-1]


def rank(card: int) -> int:
    name, s = NAMES[card], suit(card)
    if s == "T":
        return TRUMP_ORDER.index(name)
    return (ROUND_ORDER if s in "CD" else LONG_ORDER).index(name[:-1])


def value(card: int) -> int:
    """Card points, §2."""
    name = NAMES[card]
    if name in ("Fool", "XXI", "I") or name[0] == "K":
        return 5
    return {"Q": 4, "N": 3, "J": 2}.get(name[0], 1)


def pts(cards) -> int:
    return sum(value(c) for c in cards)


def bits(mask) -> set[int]:
    mask = int(mask)
    return {c for c in range(TAROT.n_cards) if mask >> c & 1}


def ref_legal_play(hand: set[int], led: str | None, held_back: bool, last: bool) -> set[int]:
    """§6.1, line by line."""
    h = set(hand)
    if held_back and not last:
        h.discard(FOOL)
    if led is None:
        return h
    live_trumps = {c for c in h if suit(c) == "T"} - ({FOOL} if held_back else set())
    of_led = {c for c in h if suit(c) == led}
    if led != "T" and of_led:
        return of_led
    required = live_trumps  # trumps led, or void in the led plain suit
    if not required:
        return h
    if required == {FOOL} and h - {FOOL}:
        return h
    return required


def ref_winner(trick: list[tuple[int, int, bool]]) -> int:
    """§6.3 on ``(seat, card, is_held_back_fool)``: the winning seat."""
    live = [(s, c) for s, c, held in trick if not held]
    led = suit(live[0][1])
    trumps = [(s, c) for s, c in live if suit(c) == "T"]
    pool = trumps or [(s, c) for s, c in live if suit(c) == led]
    return max(pool, key=lambda sc: rank(sc[1]))[0]


def ref_legal_discards(hand: set[int], discarded: set[int], t: int) -> set[int]:
    """§5 / TR-D7 as 'the discard can still be completed legally'.

    A final discard has no Fool, XXI or I, and either no King or all four
    (only possible when the Tappist has all four).
    """
    out = set()
    left_after = t - len(discarded) - 1
    for c in hand - BOUTS:
        chosen = discarded | {c}
        kings = len(chosen & KINGS)
        others = len(hand - {c} - BOUTS - KINGS)
        if kings == 0:
            ok = others >= left_after
        else:
            missing = KINGS - chosen
            ok = missing <= hand and len(missing) <= left_after
            ok = ok and others >= left_after - len(missing)
        if ok:
            out.add(c)
    return out


def ref_payoffs(kind, n, declarer, partner, points, tricks, h) -> list[int]:
    """§7 (TR-D11, TR-D12, TR-D16): ``kind`` is 'tapp', 'solo' or 'misere'."""
    if kind == "misere":
        top = max(points)
        losers = [p == top for p in points]
        n_top = sum(losers)
        return [-10 * (n - n_top) if lose else 10 * n_top for lose in losers]
    side = [declarer] + ([partner] if partner >= 0 else [])
    p = sum(points[s] for s in side)
    won = sum(tricks[s] for s in side)
    if p == 57:
        return [0] * n
    if p > 57:
        sign, m = 1, 3 if won == h else (2 if p > 84 else 1)
    else:
        sign, m = -1, 3 if won == 0 else (2 if 114 - p > 84 else 1)
    a = (20 if kind == "solo" else 10) * m
    if partner < 0:
        return [sign * (n - 1) * a if s == declarer else -sign * a for s in range(n)]
    k = n - 2
    out = [-sign * a] * n
    out[declarer] = sign * (k - 2) * a
    out[partner] = sign * 2 * a
    return out


# --- one random deal, checked step by step ---------------------------------------

MODES = ("random", "one Tapp", "one Solo", "all pass", "all pass, Fool and I in the Tapp")


def new_deal(n: int, seed: int, mode: str):
    state = np.zeros(1, dtype=STATE_DTYPE)
    rules.init_match(state[0], np.uint64(seed), n, 1, -1)
    if mode.endswith("in the Tapp"):
        r = state[0]
        hands = [int(x) for x in r["hands"]]
        tapp = int(r["initial_tapp"])
        for card in (FOOL, ID["I"]):
            if not tapp >> card & 1:
                out = min(bits(tapp) - BOUTS)
                holder = next(s for s in range(n) if hands[s] >> card & 1)
                hands[holder] ^= (1 << card) | (1 << out)
                tapp ^= (1 << card) | (1 << out)
        rules.set_deal(state[0], np.array(hands, dtype=np.uint64), np.uint64(tapp))
    return state


def choose_call(mode, rng, order_pos, target, calls):
    if mode == "random":
        return CALL_BASE + int(rng.choice(sorted(bits(calls))))
    if mode == "one Tapp" and order_pos == target:
        return TAPP_CALL
    if mode == "one Solo" and order_pos == target:
        return SOLO_CALL
    return PASS


def play_and_check(n: int, seed: int) -> dict:
    """Play one random deal, asserting every step against the reference; returns a summary."""
    mode = MODES[seed % len(MODES)]
    h, t = HAND[n], TAPP[n]
    rng = np.random.default_rng(seed)
    state = new_deal(n, seed, mode)
    r = state[0]
    dealer = int(r["dealer"])
    initial_hands = [bits(x) for x in r["hands"][:n]]
    tapp = bits(r["initial_tapp"])
    target = int(rng.integers(n))

    kind, declarer, partner = None, -1, -1
    said_tapp = False
    spoken = 0
    discarded: set[int] = set()
    piles = [set() for _ in range(n)]
    held = [False] * n
    trick: list[tuple[int, int, bool]] = []
    plays: list[int] = []
    tricks_won = [0] * n
    leader = -1
    summary = {"mode": mode, "hold_backs": 0, "exchanges": 0, "forced": False}

    while True:
        phase = int(r["phase"])
        cards, calls = (int(x) for x in rules.legal_sets_at(state, 0))
        if phase == DEAL_OVER:
            assert cards == 0 and calls == 0
            break
        assert cards or calls, "no legal action before the deal ends"
        p = int(r["to_move"])
        hand = bits(r["hands"][p])

        if phase == AUCTION:
            assert kind is None and p == (dealer + 1 + spoken) % n
            expected = {PASS, SOLO_CALL} | (set() if said_tapp else {TAPP_CALL})
            assert cards == 0 and {CALL_BASE + i for i in bits(calls)} == expected
            action = choose_call(mode, rng, spoken, target, calls)
            spoken += 1
            if action == SOLO_CALL:
                kind, declarer = "solo", p
                piles[p] |= tapp  # unseen onto the Soloist's pile (§5)
            elif action == TAPP_CALL:
                said_tapp, declarer = True, p
            if action != SOLO_CALL and spoken == n:  # the auction closes (§4)
                if said_tapp:
                    kind = "tapp"
                elif n <= 6:
                    kind = "misere"
                else:  # 7-8 players: forced Tapp for the Fool's holder, else the I's
                    fool = [s for s in range(n) if FOOL in initial_hands[s]]
                    one = [s for s in range(n) if ID["I"] in initial_hands[s]]
                    chosen = fool or one
                    kind = "tapp" if chosen else "misere"
                    declarer = chosen[0] if chosen else -1
                    summary["forced"] = bool(chosen)
        elif phase == DISCARD:
            assert kind == "tapp" and p == declarer
            assert hand | discarded == initial_hands[p] | tapp
            legal = bits(cards)
            ref = ref_legal_discards(hand, discarded, t)
            assert calls == 0 and legal and legal <= ref
            # The engine also fixes the order: once a King is down the other three follow.
            started = 0 < len(discarded & KINGS) < 4
            assert legal == (ref & KINGS if started else ref)
            action = int(rng.choice(sorted(bits(cards))))
            discarded.add(action)
            piles[p].add(action)
        elif phase == CALL:
            assert n >= 7 and len(discarded) == t and p == declarer
            assert bits(cards) == CALLABLE and calls == 1 << (NO_PARTNER - CALL_BASE)
            action = int(rng.choice([*sorted(CALLABLE), NO_PARTNER]))
            if action != NO_PARTNER:
                holder = [s for s in range(n) if action in bits(r["hands"][s])]
                partner = holder[0] if holder and holder[0] != declarer else -1
        else:
            assert phase == PLAY and calls == 0
            if not trick:
                leader = p
                if not plays:  # first lead (§6)
                    assert p == (declarer if kind != "misere" else (dealer + 1) % n)
            assert p == (leader + len(trick)) % n
            live = [c for _, c, hb in trick if not hb]
            led = suit(live[0]) if live else None
            last = len(plays) // n == h - 1
            assert bits(cards) == ref_legal_play(hand, led, held[p], last)
            action = int(rng.choice(sorted(bits(cards))))
            trumps = {c for c in hand if suit(c) == "T"}
            must_trump = led == "T" or (led is not None and not any(suit(c) == led for c in hand))
            if not held[p] and trumps == {FOOL} and must_trump and action != FOOL:
                held[p] = True  # §6.2
                summary["hold_backs"] += 1
            is_hb = action == FOOL and held[p]
            assert not is_hb or last, "a held-back Fool was played before the last trick"
            trick.append((p, action, is_hb))
            plays.append(action)

        rules.apply_action_at(state, 0, action)

        if phase == PLAY and len(trick) == n:
            winner = ref_winner(trick)
            tricks_won[winner] += 1
            assert r["tricks_won"][:n].tolist() == tricks_won
            assert r["last_trick_cards"][:n].tolist() == [c for _, c, _ in trick]
            assert int(r["last_leader"]) == leader and int(r["leader"]) == winner
            for s, c, hb in trick:
                piles[s if hb else winner].add(c)
            fool_back = [s for s, _, hb in trick if hb]
            if fool_back:  # TR-D6: lowest-value card of the holder's pile to the winner
                holder = fool_back[0]
                own = piles[holder] - {FOOL}
                if own:
                    give = min(own, key=value)
                    piles[holder].remove(give)
                    piles[winner].add(give)
                    summary["exchanges"] += 1
            trick = []

    # The deal is over.
    assert int(r["contract"]) > 0 and kind is not None
    assert len(plays) == n * h and len(set(plays)) == n * h  # every card once
    unplayed = discarded if kind == "tapp" else tapp
    assert set(plays) == set(range(TAROT.n_cards)) - unplayed
    assert sum(tricks_won) == h and r["trick_no"] == h
    assert all(not hands for hands in r["hands"][:n])
    points = [pts(pile) for pile in piles]
    assert r["points"][:n].tolist() == points
    assert sum(points) == 114 - (pts(tapp) if kind == "misere" else 0)
    if kind != "misere":
        assert int(r["declarer"]) == declarer and int(r["partner"]) == partner
    payoffs = r["payoffs"][:n].tolist()
    assert sum(payoffs) == 0
    assert payoffs == ref_payoffs(kind, n, declarer, partner, points, tricks_won, h)
    summary["kind"] = kind + (" with partner" if partner >= 0 else "")
    return summary


@pytest.mark.parametrize("n", range(3, 9))
def test_random_deals_follow_the_rules(n):
    seen = {}
    for i in range(DEALS_PER_SIZE):
        summary = play_and_check(n, 1000 * n + i)
        for key in (summary["kind"], summary["mode"]):
            seen[key] = seen.get(key, 0) + 1
        for key in ("hold_backs", "exchanges", "forced"):
            seen[key] = seen.get(key, 0) + summary[key]
    # The steering reached every contract of this table size and the Fool's corners.
    assert seen["tapp"] and seen["solo"] and seen["misere"], seen
    assert seen["hold_backs"] and seen["exchanges"], seen
    if n >= 7:
        assert seen["tapp with partner"] and seen["forced"], seen


@settings(max_examples=150, deadline=None)
@given(n=st.integers(3, 8), seed=st.integers(0, 2**63 - 1))
def test_any_seed_follows_the_rules(n, seed):
    play_and_check(n, seed)


def test_reference_winner_and_legal_agree_with_the_worked_examples():
    """The reference itself on troggu.md §11 examples 8 and 9, so it cannot drift."""

    def ids(text):
        return [ID[x] for x in text.split()]

    trick = list(zip(range(3), ids("6C 1C 3C"), [False] * 3, strict=True))
    assert ref_winner(trick) == 1
    trick = list(zip(range(3), ids("5S 10S II"), [False] * 3, strict=True))
    assert ref_winner(trick) == 2
    trick = list(zip(range(3), ids("XXI Fool I"), [False] * 3, strict=True))
    assert ref_winner(trick) == 1
    trick = list(zip(range(4), ids("Fool 7B KB QC"), [True, False, False, False], strict=True))
    assert ref_winner(trick) == 2
    assert ref_legal_play(set(ids("Fool 5S KD")), "C", False, False) == set(ids("Fool 5S KD"))
    assert ref_legal_play(set(ids("Fool 5S KD")), "T", False, False) == set(ids("Fool 5S KD"))
    assert ref_legal_play(set(ids("Fool XII 5S")), "C", False, False) == set(ids("Fool XII"))
    assert ref_legal_play(set(ids("Fool 9B")), "B", True, False) == set(ids("9B"))
    assert ref_legal_play(set(ids("Fool 9B")), "C", True, False) == set(ids("9B"))
    assert ref_legal_play(set(ids("Fool")), None, True, True) == {FOOL}
    assert sum(value(c) for c in range(62)) == 114
    hand = set(ids("KS KC KD KB XIV II III IV V VI VII VIII XXI"))
    assert KINGS <= ref_legal_discards(hand, set(), 7)
    after_one = ref_legal_discards(hand - {ID["KC"]}, {ID["KC"]}, 7)
    assert KINGS - {ID["KC"]} <= after_one and ID["XXI"] not in after_one
    down = set(ids("KC II III IV"))  # three slots left for the three Kings
    assert ref_legal_discards(hand - down, down, 7) == KINGS - down
    no_kings = ref_legal_discards(hand - set(ids("II III IV V")), set(ids("II III IV V")), 7)
    assert not no_kings & KINGS and ID["XIV"] in no_kings and ID["XXI"] not in no_kings
    assert ref_payoffs("tapp", 8, 0, 3, [70, 0, 0, 0, 0, 0, 0, 44], [4] + [0] * 7, 7) == [
        40,
        -10,
        -10,
        20,
        -10,
        -10,
        -10,
        -10,
    ]
