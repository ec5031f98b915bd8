"""The hand advisor: ``trickgym.analysis.hand_odds`` and ``trickgym advise``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from helpers.later import later

import trickgym
from trickgym.advisor import solowhist as sw
from trickgym.advisor.codes import EXACT, PROBED
from trickgym.advisor.kernels import evaluate_state, settle_sampled
from trickgym.analysis import advise_state, hand_odds, wilson_interval
from trickgym.cards.notation import format_hand, parse_hand
from trickgym.cli import main
from trickgym.games.solowhist.constants import (
    ABUNDANCE_DECLARED_CALL,
    CALL_NAMES,
    MISERE_CALL,
    PASS,
    SOLO_CALL,
)

solve = later("trickgym.solvers.dd", "solve")

HAND = "AKQJ5.K2.A7.9832"
SPOT = dict(seat=1, dealer=0, turn_up="2S")  # seat 1 is eldest: first to speak
# Every card a winner at no trumps with the lead (the "AKQJT.AKQ.AKQ.AKQ" has 14 cards).
DECLARED = "AKQJT.AKQ.AKQ.AK"
OPENING = ["Pass", "Prop", "Solo", "Misère", "Abundance", "Misère Ouverte", "Abundance Declared"]


@pytest.fixture(scope="module")
def dd_frame():
    return hand_odds("solowhist", HAND, deals=24, play="dd", seed=3, **SPOT)


def test_abundance_declared_certain_is_always_made():
    """A hand of top cards, the declarer leading: Abundance Declared is made on every deal."""
    for play in ("dd", "rule"):
        df = hand_odds("solowhist", DECLARED, deals=16, play=play, seed=1, **SPOT)
        row = df.set_index("contract").loc["Abundance Declared"]
        assert row["played"] == 16 and row["made_pct"] == 100.0
        assert row["mean_tricks"] == 13 and row["expected_payoff"] == 90  # 3 x 6 units of 5
        assert row["ci_low_pct"] > 75 and row["ci_high_pct"] == 100
        assert df.loc[df["best"], "contract"].tolist() == ["Abundance Declared"]
        # The same hand cannot avoid a trick: Misère is never made.
        assert df.set_index("contract").loc["Misère", "made_pct"] == 0


def test_rows_are_the_legal_calls_in_call_order(dd_frame):
    assert dd_frame["contract"].tolist() == OPENING
    assert dd_frame["best"].sum() == 1
    assert dd_frame.loc[dd_frame["best"], "expected_payoff"].iloc[0] == (
        dd_frame["expected_payoff"].max()
    )
    assert (dd_frame["deals"] + dd_frame["unsolved"] == 24).all()
    # Solo and Prop & Cop in the turn-up suit; misères and Declared at no trumps.
    trumps = dict(zip(dd_frame["contract"], dd_frame["trumps"], strict=True))
    assert trumps["Solo"] == trumps["Prop"] == "S" and trumps["Misère"] == "NT"
    assert trumps["Abundance"] in "SHDC" and trumps["Pass"] == ""
    assert np.isnan(dd_frame.set_index("contract").loc["Pass", "made_pct"])


def test_wilson_columns(dd_frame):
    played = dd_frame[dd_frame["played"] > 0]
    low, high = wilson_interval(played["made"], played["played"])
    np.testing.assert_allclose(played["ci_low_pct"], 100 * low)
    np.testing.assert_allclose(played["ci_high_pct"], 100 * high)
    np.testing.assert_allclose(played["made_pct"], 100 * played["made"] / played["played"])


def test_same_seed_same_frame(dd_frame):
    again = hand_odds("solowhist", HAND, deals=24, play="dd", seed=3, threads=1, **SPOT)
    pd.testing.assert_frame_equal(dd_frame, again)
    other = hand_odds("solowhist", HAND, deals=24, play="rule", seed=4, **SPOT)
    assert not other.equals(hand_odds("solowhist", HAND, deals=24, play="rule", seed=5, **SPOT))


def _permuted(state, seat, rng):
    """The same deal for ``seat``, the other seats' cards redealt (the dealer keeps the turn-up)."""
    r = state.record
    dealer, up = int(r["dealer"]), int(r["turn_up"])
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in range(52) if int(r["hands"][s]) >> c & 1 and c != up]
    rng.shuffle(pool)
    hands = [0] * 4
    hands[seat] = int(r["hands"][seat])
    if dealer != seat:
        hands[dealer] |= 1 << up
    for s in others:
        while bin(hands[s]).count("1") < 13:
            hands[s] |= 1 << pool.pop()
    game = state.game
    return game.deal(0, hands=[format_hand(h) for h in hands], dealer=dealer, turn_up=up)


def test_hidden_cards_do_not_matter():
    """The advisor reads the seat's observation only: redealing the others changes nothing."""
    game = trickgym.game("solowhist")
    base = sw.state_for(game, HAND, 2, 0, "2S")
    base.apply("Pass")  # seat 1 passes; seat 2 to speak
    rng = np.random.default_rng(0)
    frames = []
    for state in (
        base,
        _permuted(base, 2, rng).apply("Pass"),
        _permuted(base, 2, rng).apply("Pass"),
    ):
        assert int(state.record["hands"][2]) == parse_hand(HAND)
        frames.append([advise_state(state, deals=16, play=p, seed=9) for p in ("rule", "dd")])
    for play in range(2):
        pd.testing.assert_frame_equal(frames[0][play], frames[1][play])
        pd.testing.assert_frame_equal(frames[0][play], frames[2][play])


def test_dd_made_rates_match_the_slow_solver():
    """Made counts of Solo, Misère and Abundance Declared against ``solve`` deal by deal."""
    game = trickgym.game("solowhist")
    n, seed = 12, 11
    df = hand_odds(game, HAND, deals=n, play="dd", seed=seed, exact_nodes=2**40, **SPOT)
    state = sw.state_for(game, HAND, 1, 0, "2S")
    obs = np.zeros(1, dtype=game.obs_dtype)
    game.kernels.observe_at(state.array, 0, 1, obs, 0)
    from trickgym.engine.params import params_matrix

    params, template = params_matrix("solowhist", 4), game.new_match(0)
    made = {SOLO_CALL: 0, MISERE_CALL: 0, ABUNDANCE_DECLARED_CALL: 0}
    tricks = []
    for i in range(n):
        for call in made:
            arr = np.zeros(1, dtype=game.state_dtype)
            settle_sampled(obs, template, params, np.uint64(seed), i, call, -1, arr)
            r = arr[0]
            assert int(r["declarers"]) == 1 << 1
            hands = [int(h) for h in r["hands"]]
            trumps = "NT" if r["trumps"] < 0 else "SHDC"[r["trumps"]]
            leader = int(r["leader"])
            if call == SOLO_CALL:
                assert (trumps, leader) == ("S", 1)
                made[call] += solve(hands, trumps, leader, [1], goal=5)
                tricks.append(solve(hands, trumps, leader, [1]))
            elif call == MISERE_CALL:
                made[call] += solve(hands, trumps, leader, [1], misere=True, goal=0)
            else:
                assert (trumps, leader) == ("NT", 1)  # SW-D9: the declarer leads
                made[call] += solve(hands, trumps, leader, [1], goal=13)
    rows = df.set_index("contract")
    for call, count in made.items():
        assert rows.loc[CALL_NAMES[call - PASS], "made"] == count
    assert rows.loc["Solo", "exact"] == n
    assert rows.loc["Solo", "mean_tricks"] == pytest.approx(np.mean(tricks))


def test_rule_play_agrees_with_the_simulator():
    """On deals where the simulator's auction is comparable, the advisor's rule play is the same."""
    from trickgym.engine.kinds import RULE
    from trickgym.engine.params import params_matrix
    from trickgym.sim.solowhist import play_deal

    game = trickgym.game("solowhist")
    params = params_matrix("solowhist", 4)
    kinds = np.full(4, RULE, dtype=np.int64)
    states = np.zeros(1, dtype=game.state_dtype)
    rngs = np.zeros((4, 1), dtype=np.uint64)
    compared = 0
    for k in range(40):
        play_deal(states, 0, np.uint64(5), k, kinds, rngs, params, None, 5, False)
        r = states[0]
        n = int(r["n_calls"])
        first, rest = int(r["calls"][0]), [int(c) for c in r["calls"][1:n]]
        # Comparable: eldest passed (the rule agents finish the auction, as the advisor's
        # Pass does), or called a contract everyone else passed.
        if first != PASS and (rest != [PASS] * 3 or r["contract"] == 0):
            continue
        hands = [format_hand(int(h)) for h in r["initial_hands"]]
        fresh = game.deal(0, hands=hands, dealer=int(r["dealer"]), turn_up=int(r["turn_up"]))
        eldest = (int(r["dealer"]) + 1) % 4
        _, tricks, made, payoff = evaluate_state(fresh, eldest, first, play="rule")
        assert payoff == r["payoffs"][eldest]
        if r["contract"]:
            assert (tricks, made) == (r["declarer_tricks"], r["made"])
        compared += 1
    assert compared >= 10


def test_dd_outcomes_agree_with_the_simulators_dd_columns():
    """Deal by deal: where eldest's call stood, the advisor's double-dummy verdict on the
    true deal is the simulator's ``dd_made`` (two implementations of the same question)."""
    calls = {
        "Solo": SOLO_CALL,
        "Misère": MISERE_CALL,
        "Abundance Declared": ABUNDANCE_DECLARED_CALL,
    }
    game = trickgym.game("solowhist")
    compared = set()
    for agents, seed, deals in (("rule", 5, 60), ("random", 6, 100)):
        df = trickgym.simulate("solowhist", deals=deals, agents=agents, seed=seed, dd=True)
        for r in df.itertuples():
            moves = r.auction.split()
            eldest = (r.dealer + 1) % 4
            stood = len(moves) == 4 and all(m.endswith("-") for m in moves[1:])
            if not stood or r.contract not in calls or r.declarer != eldest or pd.isna(r.dd_made):
                continue
            hands = [format_hand(int(getattr(r, f"hand_{s}"))) for s in range(4)]
            fresh = game.deal(0, hands=hands, dealer=r.dealer, turn_up=str(r.turn_up))
            status, _, made, _ = evaluate_state(
                fresh, eldest, calls[r.contract], play="dd", node_limit=4_000_000
            )
            if status in (EXACT, PROBED):  # solved within the budget
                assert bool(made) == bool(r.dd_made), (r.deal, r.contract, hands)
                compared.add(r.contract)
    assert {"Solo", "Misère"} <= compared


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(hand="AKQJ.K2.A7.9832"), "12 cards"),
        (dict(hand="AKQJT.AKQ.AKQ.AKQ"), "14 cards"),
        (dict(hand="AKQJ5.K2.A7.9833"), "more than 1 time"),
        (dict(hand="AKQJ5.K2.A7.98Z2"), "unknown card"),
        (dict(turn_up="5S"), "in the hand"),
        (dict(turn_up=None), "turn_up is required"),
        (dict(turn_up="2S", dealer=1), "not in the hand"),
        (dict(turn_up="2X"), "unknown card"),
        (dict(seat=4), "seat must be a seat 0..3, got 4"),
        (dict(dealer=-1), "dealer must be a seat 0..3, got -1"),
        (dict(auction_so_far="Cop"), "auction step 1 ('Cop') by seat 1: illegal action 'Cop'"),
        (dict(auction_so_far="Pass"), "seat 2 is to move, not seat 1"),
        (dict(auction_so_far="Pass,Pass,Pass,Pass"), "passed out"),
        (dict(auction_so_far=["Solo", "AS"]), "is a card, not a call"),
        (dict(auction_so_far=["Bogus"]), "unknown action 'Bogus'"),
        (dict(play="oracle"), "play must be one of dd, pimc, rule"),
        (dict(deals=0), "deals"),
    ],
)
def test_bad_input_is_named(kwargs, message):
    args = dict(hand=HAND, **SPOT) | kwargs
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        hand_odds(
            "solowhist",
            deals=kwargs.get("deals", 4),
            play=kwargs.get("play", "rule"),
            **{k: v for k, v in args.items() if k not in ("deals", "play")},
        )


def test_later_decisions_offer_their_own_calls():
    """A Prop standing: Cop is offered; a lone proposer's upgrade; an Abundance's trump choice."""
    df = hand_odds("solowhist", HAND, auction_so_far="Prop", deals=8, play="rule", seat=2,
                   dealer=0, turn_up="2S")  # fmt: skip
    assert "Cop" in df["contract"].tolist() and "Prop" not in df["contract"].tolist()
    cop = df.set_index("contract").loc["Cop"]
    assert cop["played"] == 8 and cop["trumps"] == "S"
    up = hand_odds("solowhist", HAND, auction_so_far="Prop,Pass,Pass,Pass", deals=8, play="rule",
                   **SPOT)  # fmt: skip
    assert up["contract"].tolist() == [
        "Pass", "Solo", "Misère", "Abundance", "Misère Ouverte", "Abundance Declared",
    ]  # fmt: skip
    assert up.set_index("contract").loc["Pass", "expected_payoff"] == 0  # passed out
    trump = hand_odds("solowhist", HAND, auction_so_far="Abundance,Pass,Pass,Pass", deals=8,
                      play="rule", **SPOT)  # fmt: skip
    assert trump["contract"].tolist() == ["Trumps S", "Trumps H", "Trumps D", "Trumps C"]
    assert trump["trumps"].tolist() == list("SHDC")


def test_prop_counts_only_accepted_deals_as_played():
    # With every top card in the seat's hand, the others rarely have the support to Cop.
    df = hand_odds("solowhist", DECLARED, deals=32, play="rule", seed=2, **SPOT)
    prop = df.set_index("contract").loc["Prop"]
    assert 0 < prop["played"] < prop["deals"] == 32
    # Deals nobody accepted are passed out (0) and count in the mean payoff.
    assert prop["made"] == prop["played"]


def test_pimc_play_runs_small():
    df = hand_odds("solowhist", DECLARED, deals=1, play="pimc", pimc_samples=2, **SPOT)
    assert df["contract"].tolist() == OPENING
    assert df.set_index("contract").loc["Abundance Declared", "made_pct"] == 100


def test_cli_prints_one_row_per_call(capsys):
    code = main(["advise", "--game", "solowhist", "--hand", HAND, "--turn-up", "2S", "--seat", "1",
                 "--dealer", "0",
                 "--deals", "16", "--quiet", "--play", "rule"])  # fmt: skip
    out = capsys.readouterr()
    assert code == 0, out.err
    lines = out.out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("contract"))
    rows = lines[start + 1 : lines.index("", start)]  # the table ends at a blank line
    assert [r[:22].strip() for r in rows] == OPENING
    assert sum("<- best" in r for r in rows) == 1
    assert "16 deals" in lines[0]


def test_cli_names_bad_input(capsys):
    code = main(["advise", "--hand", "AKQJT.AKQ.AKQ.AKQ", "--turn-up", "2S", "--quiet"])
    assert code == 2
    assert "14 cards" in capsys.readouterr().err


# ---------------------------------------------------------------------------- Pinochle
