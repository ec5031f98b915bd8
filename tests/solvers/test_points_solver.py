"""The point-trick solver (Phat, Pinochle, Troggu) against a slow plain alpha-beta reference.

Positions are endings of real play (rule agents bid and play a deal until
the player to move holds a few cards), every Troggu table size and both
Pinochle modes. The reference steps the games' own kernels and reads the
side's points off the finished deal; the solver must agree exactly, on its
value and on every legal card's value, and the payoff's question
(``question="payoff"``) on the payoff of the reference's points. Phat's
value is the race's (won or lost at the target, mid-deal or by the muck
bonus, else the phat): its endings are also checked with the match scores
set near the target.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from points_helpers import (
    GAME_CONFIGS,
    PHAT_RACE_LOST,
    PHAT_RACE_WON,
    ending,
    ending_cards,
    held_back_fool_endings,
    make,
    payoff_of,
    phat_race,
    prepared,
    reference_final,
    side_points_now,
)

import trickgym
from trickgym.api import State
from trickgym.solvers import card_values, solve


def _check(game, state):
    """The exact points, and the payoff's question (the payoff of the reference's points)."""
    cur = side_points_now(game, state.record)
    final = reference_final(game, prepared(game, state.array))
    assert cur + solve(state) == final
    seat = state.current_player
    payoff = payoff_of(game, state.array, seat, final)
    assert solve(state, question="payoff", exact_payoff=True) == payoff
    values = card_values(state, ids=True)
    pays = card_values(state, ids=True, question="payoff", exact_payoff=True)
    assert values, "card_values must value every legal card"
    assert pays.keys() == values.keys()
    for card, value in values.items():
        child = prepared(game, state.array)
        game.kernels.apply_action_at(child, 0, card)
        final = reference_final(game, child)
        assert cur + value == final, game.action_name(card)
        assert pays[card] == payoff_of(game, state.array, seat, final), game.action_name(card)


@pytest.mark.parametrize(("name", "opts"), GAME_CONFIGS)
@settings(max_examples=4, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6))
def test_solver_agrees_with_plain_alpha_beta(name, opts, seed):
    game = make(name, opts)
    state = ending(game, seed, ending_cards(name, opts))
    if state is None:  # a passed-out deal or a Troggu Misère: nothing to solve
        return
    _check(game, state)


def _race_needs(state, own, other, carry):
    """Needs from fractions (percent) of the most a team could still take: phat in play
    plus the bonus, and a little beyond (out of reach)."""
    rec = state.record
    reach = 80 - int(rec["phat"][0]) - int(rec["phat"][1]) + 8 + carry + 3
    return max(1, own * reach // 100), max(1, other * reach // 100)


@settings(max_examples=24, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 10**6),
    own=st.integers(0, 100),
    other=st.integers(0, 100),
    carry=st.sampled_from([0, 8, 16]),
    advance=st.integers(0, 3),
)
def test_phat_solver_agrees_when_the_race_is_live(seed, own, other, carry, advance):
    """Scores near the target: a team may win mid-deal or by the muck bonus (issue 41)."""
    game = make("phat", {})
    state = ending(game, seed, ending_cards("phat", {}))
    if state is None:
        return
    state = _advance(game, state, advance)
    if state.is_over:
        return
    _check(game, phat_race(state, *_race_needs(state, own, other, carry), carry))


def test_phat_race_endings_reach_every_outcome():
    """The race endings checked do end every way: won or lost mid-deal, won or lost by the
    muck bonus alone, and the race going on (the value's classes, read off the reference)."""
    game = make("phat", {})
    seen = set()
    for seed in range(30):
        state = ending(game, seed, 3)
        if state is None:
            continue
        rec = state.record
        left = 80 - int(rec["phat"][0]) - int(rec["phat"][1])
        for own, other in ((left // 2 + 1, 90), (90, left // 2 + 1), (left + 4, left + 4)):
            race = phat_race(state, max(1, own), max(1, other))
            value = side_points_now(game, race.record) + solve(race)
            assert value == reference_final(game, prepared(game, race.array))
            cls = 1 if value >= PHAT_RACE_WON else (-1 if value <= PHAT_RACE_LOST else 0)
            # A winner that needed more than the phat in play won by the muck bonus.
            seen.add((cls, cls != 0 and (own if cls > 0 else other) > left))
    assert {(1, False), (-1, False), (1, True), (-1, True), (0, False)} <= seen, seen


def test_phat_key_holds_the_race():
    """Positions with equal cards but another race state never share a table entry; needs
    out of reach this deal are one race state, and so is the race out of reach for both."""
    from trickgym import protocol

    game = make("phat", {})
    key = protocol.kernel(game, "key")
    state = next(s for s in (ending(game, seed, 4) for seed in range(20)) if s is not None)
    rec = state.record
    left = 80 - int(rec["phat"][0]) - int(rec["phat"][1])

    def k(own, other, carry=0, muck=None):
        race = phat_race(state, own, other, carry)
        if muck is not None:
            race.array[0]["muck"][:] = muck
        return key(race.array[0])

    far = left + 8 + 1  # beyond the phat in play and the bonus: unreachable
    assert k(far, far) == k(far + 50, 170) == key(state.array[0])
    live = {k(5, far), k(6, far), k(far, 5), k(5, 6), k(5, far, 8)}
    assert len(live) == 5 and key(state.array[0]) not in live
    assert k(5, far) == k(5, far + 30)  # both out of reach for the other team
    assert k(5, far, muck=(10, 12)) != k(5, far, muck=(12, 10))  # the muck may decide
    assert k(5, far, muck=(41, 0)) == k(5, far, muck=(45, 0))  # the bonus is settled


@pytest.mark.slow
@pytest.mark.parametrize(("name", "opts"), GAME_CONFIGS)
def test_solver_agrees_on_longer_endings(name, opts):
    """Five- and six-card endings (minutes of plain Python: ``TRICKGYM_SLOW=1``)."""
    game = make(name, opts)
    cards = 6 if name == "troggu" and opts["players"] == 3 else (5 if name != "troggu" else 4)
    for seed in range(4):
        state = ending(game, seed, cards)
        if state is not None:
            _check(game, state)


def test_troggu_held_back_fool_endings():
    """The Fool's exchange makes the rest of a deal depend on the piles: held-back endings."""
    checked = 0
    for game, state in held_back_fool_endings():
        _check(game, state)
        checked += 1
    assert checked >= 3, "no ending with a held-back Fool found"


def test_equal_answers_with_a_warm_table_and_every_table_size():
    """Entries stay valid across positions and sizes: the same endings, cold and warm."""
    game = make("pinochle", {})
    states = [s for s in (ending(game, seed, 5) for seed in range(6)) if s is not None]
    cold = [solve(s, tt_mb=0.001) for s in states]
    assert [solve(s) for s in states] == cold
    assert [solve(s) for s in states] == cold


def test_node_budget_holds_per_call_on_a_table_that_searched_more():
    """A table's node budget bounds each call: it used to count the table's nodes in all, so
    once a table had searched that many every later solve ran out (PIMC and the oracle then
    stopped solving for the rest of their tables' life)."""
    from trickgym.solvers.points_search import (
        META_ABORTED,
        META_NODE_LIMIT,
        META_NODES,
        new_points_table,
        solve_points,
    )

    game = make("pinochle", {})
    states = [s for s in (ending(game, seed, 5) for seed in range(6)) if s is not None]
    table = new_points_table(0.001)  # a few slots: a repeated solve costs about the same
    values, most = [], 0
    for s in states:
        before = table[1][META_NODES]
        values.append(solve_points(s.array, table))
        most = max(most, table[1][META_NODES] - before)
    table[1][META_NODE_LIMIT] = 2 * most
    for _ in range(3):
        assert [solve_points(s.array, table) for s in states] == values
        assert table[1][META_ABORTED] == 0
    assert table[1][META_NODES] > table[1][META_NODE_LIMIT]  # more than the budget in all


def test_budget_and_bad_positions_raise_or_return_none():
    game = make("phat", {})
    state = ending(game, 1, 6)
    assert solve(state, max_nodes=1) is None
    assert card_values(state, max_nodes=1) == {}
    with pytest.raises(ValueError, match="max_nodes"):
        solve(state, max_nodes=0)
    with pytest.raises(ValueError, match="tt_mb"):
        solve(state, tt_mb=-1)
    with pytest.raises(ValueError, match="card play"):
        solve(trickgym.game("troggu", players=4).deal(seed=1))
    with pytest.raises(ValueError, match="State"):
        solve(np.zeros(1, dtype=game.state_dtype))
    assert solve(state, max_nodes=1, question="payoff") is None
    with pytest.raises(ValueError, match=r"question must be one of \('points', 'payoff'\)"):
        solve(state, question="made")
    with pytest.raises(ValueError, match="seat"):
        solve(state, question="payoff", seat=4)
    with pytest.raises(ValueError, match="exact_payoff"):
        card_values(state, question="payoff", exact_payoff="yes")
    whist = ending(trickgym.game("solowhist"), 1, 13)
    with pytest.raises(ValueError, match="point-trick games"):
        solve(whist, question="payoff")
    troggu = make("troggu", {"players": 3})
    from trickgym.agents.positions import rule_position

    for seed in range(200):
        misere = rule_position(troggu, seed, 18, misere=True)
        if misere is not None and int(misere.record["contract"]) == 1:
            with pytest.raises(ValueError, match="Misère"):
                solve(misere)
            break


def test_card_values_are_keyed_by_the_games_card_names():
    """Issue 31: card names as the game writes them (Troggu's trumps too); ids on request."""
    game = make("troggu", {"players": 4})
    state = ending(game, 2, 3)
    by_id = card_values(state, ids=True)
    assert by_id and all(isinstance(c, int) for c in by_id)
    assert card_values(state) == {game.action_name(c): v for c, v in by_id.items()}
    with pytest.raises(ValueError, match="ids must be True or False, got 1"):
        card_values(state, ids=1)


def _advance(game, state, k):
    """``state`` after its next ``k`` cards, each the mover's highest legal card (trumps
    early: the mid-trick positions where master-trump bounds and chain moves bite)."""
    array = state.array.copy()
    for _ in range(k):
        cards, _ = game.kernels.legal_sets_at(array, 0)
        game.kernels.apply_action_at(array, 0, int(cards).bit_length() - 1)
    return State(game, array)


@pytest.mark.parametrize(("name", "opts"), GAME_CONFIGS)
def test_solver_agrees_mid_trick(name, opts):
    """Every seat of a trick to move, the last one included (its chains of unequal points
    are cut to one card) and with trumps already in the trick (they contest the masters)."""
    game = make(name, opts)
    seats = 4 if name != "troggu" else opts["players"]
    cards = max(2, ending_cards(name, opts) - 1) if seats > 5 else ending_cards(name, opts)
    checked = 0
    for seed in range(3):
        state = ending(game, seed, cards)
        if state is None:
            continue
        for k in range(1, seats):
            moved = _advance(game, state, k)
            if moved.is_over:
                break
            _check(game, moved)
            checked += 1
    assert checked >= seats - 1


def test_relative_rank_key_shares_positions_that_differ_in_gone_cards():
    """The table key is by places among the cards in play: a hand's pointless card swapped
    for an adjacent gone one keeps the key and the value; a card of other points does not."""
    from trickgym import protocol

    game = make("phat", {})
    key = protocol.kernel(game, "key")
    points = protocol.kernel(game, "points")
    for seed in range(40):
        state = ending(game, seed, 6)
        rec = state.record if state is not None else None
        if rec is None or int(rec["trick_n"]) != 0 or int(rec["trumps"]) < 0:
            continue
        hands = [int(h) for h in rec["hands"]]
        live = 0
        for h in hands:
            live |= h
        swap = None
        for s, h in enumerate(hands):
            for c in range(52):
                g = c - 1  # the next lower card of the suit, gone, both worth nothing
                if h >> c & 1 and c % 13 and not live >> g & 1:
                    a, b = points(state.array[0], c), points(state.array[0], g)
                    if a == b == 0:
                        swap = (s, c, g)
        if swap is None:
            continue
        s, c, g = swap
        twin = state.array.copy()
        twin[0]["hands"][s] = hands[s] & ~(1 << c) | (1 << g)
        assert key(twin[0]) == key(state.array[0])
        assert solve(State(game, twin)) == solve(state)
        # A card of other points in that place is another position.
        five = next(x for x in range(52) if not live >> x & 1 and points(state.array[0], x) > 0)
        other = state.array.copy()
        other[0]["hands"][s] = hands[s] & ~(1 << c) | (1 << five)
        assert key(other[0]) != key(state.array[0])
        break
    else:
        pytest.fail("no ending with a pointless card next to a gone one")
