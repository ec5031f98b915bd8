"""Double-dummy solver on what Solo Whist plays: one declarer against three,
misère, the made-or-beaten probes and the node budget, against the slow
minimax (positions from rule-agent play, and random ones)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from dd_helpers import random_position, reference_card_values, reference_value
from helpers.later import later
from hypothesis import given, settings
from hypothesis import strategies as st

import trickgym
from trickgym.engine.loops import act
from trickgym.engine.params import params_matrix
from trickgym.games.solowhist.constants import MISERE, MISERE_OUVERTE, PLAY

card_values = later("trickgym.solvers.dd", "card_values")
solve = later("trickgym.solvers.dd", "solve")
_misere_verdict = later("trickgym.solvers.dd_search", "_misere_verdict")
_unbeaten_trumps = later("trickgym.solvers.dd_search", "_unbeaten_trumps")

STRAIN = {0: "S", 1: "H", 2: "D", 3: "C", -1: "NT"}
RULE = 1


def real_play_positions(cards_left: int, count: int, want_misere: bool | None = None):
    """Positions of rule-agent Solo Whist play with one declarer, taken when the
    player to move holds ``cards_left`` cards: ``(hands, strain, leader,
    declarers, trick, misere)`` tuples. ``want_misere`` keeps only misère
    contracts (True) or only the others (False)."""
    game = trickgym.game("solowhist")
    params = params_matrix("solowhist", 4)
    scratch = np.empty(1, dtype=game.obs_dtype)
    out = []
    for seed in range(1, 20_000):
        state = game.deal(seed=seed)
        rng = np.array([seed], dtype=np.uint64)
        while not state.is_over:
            r = state.record
            to_move = state.current_player
            if int(r["phase"]) == PLAY and int(r["hands"][to_move]).bit_count() == cards_left:
                break
            state.apply(int(act(RULE, state.array[0], to_move, rng, scratch, params, None)))
        r = state.record
        if state.is_over or bin(int(r["declarers"])).count("1") != 1:
            continue
        misere = int(r["contract"]) in (MISERE, MISERE_OUVERTE)
        if want_misere is not None and misere != want_misere:
            continue
        n = int(r["trick_n"])
        out.append(
            (
                [int(x) for x in r["hands"]],
                STRAIN[int(r["trumps"])],
                int(r["leader"]),
                [int(r["declarers"]).bit_length() - 1],
                [int(c) for c in r["trick_cards"][:n]],
                misere,
            )
        )
        if len(out) == count:
            return out
    raise AssertionError(f"found only {len(out)} positions")


@pytest.mark.parametrize("want_misere", [False, True])
def test_real_play_endings_match_minimax(want_misere):
    """Exact values, made-or-beaten probes and card values on endings of real
    contracts (one declarer; misère ones too) equal the minimax's."""
    for hands, strain, leader, declarers, trick, misere in real_play_positions(4, 8, want_misere):
        position = (hands, strain, leader, declarers)
        want = reference_value(*position, misere, tuple(trick))
        assert solve(*position, trick=trick, misere=misere) == want
        for goal in range(0, 5):
            made = want <= goal if misere else want >= goal
            assert solve(*position, trick=trick, misere=misere, goal=goal) == made
        cards = reference_card_values(*position, misere, tuple(trick))
        assert card_values(*position, trick=trick, misere=misere, ids=True) == cards
        goal = 0 if misere else max(cards.values())
        probes = card_values(*position, trick=trick, misere=misere, goal=goal, ids=True)
        assert probes == {c: (v <= goal if misere else v >= goal) for c, v in cards.items()}


def test_misere_probe_on_played_positions_of_other_contracts():
    """Misère (no trumps) asked of the one-declarer positions of trump contracts:
    more layouts for the misère verdicts."""
    for hands, _strain, leader, declarers, trick, _ in real_play_positions(4, 8, False):
        want = reference_value(hands, "NT", leader, declarers, True, tuple(trick))
        assert solve(hands, "NT", leader, declarers, trick=trick, misere=True) == want
        assert solve(hands, "NT", leader, declarers, trick=trick, misere=True, goal=0) == (
            want == 0
        )


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_misere_verdict_matches_minimax(seed):
    """The static misère verdicts (declarer safe / forced) never contradict the minimax."""
    rng = random.Random(seed)
    hands = random_position(rng, rng.choice([2, 3, 4]))
    declarer, leader = rng.randrange(4), rng.randrange(4)
    h = np.array(hands, dtype=np.uint64)
    allh = np.uint64(sum(hands))
    for target in (1, 2):
        verdict, _ = _misere_verdict(h, allh, leader, 1 << declarer, target)
        if verdict >= 0:
            value = reference_value(hands, "NT", leader, [declarer], True)
            assert (value >= target) == (verdict == 1), (hands, declarer, leader, target)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_unbeaten_trumps_is_a_lower_bound(seed):
    """A seat's unbeaten trumps never exceed what its side takes, whatever the objective."""
    rng = random.Random(seed)
    hands = random_position(rng, rng.choice([2, 3, 4]))
    trumps = rng.randrange(4)
    side = [s for s in range(4) if rng.random() < 0.4] or [rng.randrange(4)]
    if len(side) == 4:
        side = side[:3]
    mask = sum(1 << s for s in side)
    leader = rng.randrange(4)
    misere = rng.random() < 0.3
    value = reference_value(hands, STRAIN[trumps], leader, side, misere)
    h = np.array(hands, dtype=np.uint64)
    for p in range(4):
        unbeaten = _unbeaten_trumps(h, p, trumps, mask)
        mine = p in side
        assert (value >= unbeaten) if mine else (len(hands) and 0 <= value <= (
            hands[0].bit_count() - unbeaten
        ))  # fmt: skip


def test_node_budget_raises_and_leaves_the_table_sound():
    """Past ``max_nodes`` the solver raises (naming the budget), and later answers
    from the same table are still exact."""
    rng = random.Random(7)
    hands = random_position(rng, 9)
    with pytest.raises(RuntimeError, match="max_nodes=50"):
        solve(hands, "S", 1, [0], max_nodes=50)
    exact = solve(hands, "S", 1, [0])
    assert exact == solve(hands, "S", 1, [0], tt_mb=1)  # another, fresh table
    with pytest.raises(ValueError, match="max_nodes must be"):
        solve(hands, "S", 1, [0], max_nodes=0)
    with pytest.raises(ValueError, match="goal must be"):
        solve(hands, "S", 1, [0], goal=14)


@pytest.mark.parametrize("tt_mb", [1e-4, 0.05])
def test_tiny_tables_give_exact_one_against_three_values(tt_mb):
    """One bucket, or a few: entries filed by every suit's top cards are
    overwritten constantly and read back from the wrong positions' buckets,
    and the values must still equal the minimax's."""
    rng = random.Random(83)
    for k in range(12):
        hands = random_position(rng, 4)
        strain = ("S", "H", "NT", "NT")[k % 4]
        misere = k % 4 == 3
        leader, declarer = k % 4, (k + 3) % 4
        want = reference_value(hands, strain, leader, [declarer], misere)
        assert solve(hands, strain, leader, [declarer], misere=misere, tt_mb=tt_mb) == want
