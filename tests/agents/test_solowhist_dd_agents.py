"""Solo Whist agents valued by the double-dummy solver: the oracle, PIMC and ISMCTS leaves.

Small budgets and few positions: these check that the solver's values are
what the agents act on, and that decisions are reproducible; strength is
measured by duplicate tournaments (README, benchmarks/bench_mc.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers.later import later
from mc_helpers import reach, record_of

import trickgym
from trickgym.agents import python_action
from trickgym.agents.mc import ISMCTSAgent, PIMCAgent
from trickgym.engine.loops import act
from trickgym.engine.params import params_matrix
from trickgym.games.solowhist.rules import deal_payoffs
from trickgym.rng import derive_seed

oracle_action = later("trickgym.agents.solowhist", "oracle_action")
card_values = later("trickgym.solvers.dd", "card_values")


@pytest.fixture(scope="module")
def game():
    return trickgym.game("solowhist")


def _oracle(state, seed=1):
    """The oracle's action for the seat to move in ``state`` (a game State)."""
    params = params_matrix("solowhist", 4)
    obs = np.empty(1, dtype=state.game.obs_dtype)
    rng = np.array([seed], dtype=np.uint64)
    return int(oracle_action(state.array[0], state.current_player, rng, obs, params))


def _exact_payoffs(state):
    """Each legal card's payoff to the seat to move, by the exact solver."""
    s = state.array[0]
    declarers = [p for p in range(4) if (int(s["declarers"]) >> p) & 1]
    values = card_values(
        [int(h) for h in s["hands"]],
        "NT" if s["trumps"] < 0 else "SHDC"[int(s["trumps"])],
        int(s["leader"]),
        declarers,
        [int(c) for c in s["trick_cards"][: int(s["trick_n"])]],
        misere=int(s["contract"]) in (3, 6),
        ids=True,
    )
    won = sum(int(s["tricks_won"][p]) for p in declarers)
    pay = np.zeros(4, dtype=np.int32)
    out = {}
    for card, tricks in values.items():
        deal_payoffs(int(s["contract"]), int(s["declarers"]), won + tricks, int(s["unit"]), pay)
        out[card] = int(pay[state.current_player])
    return out


def test_oracle_plays_the_solvers_best_card(game):
    """With few cards left (exact counts), the oracle's card is worth the solver's best."""
    from trickgym.agents.solved_solowhist import EXACT_CARDS

    checked = 0
    for seed in range(40):
        state, _ = reach(game, seed, 30 + seed % 12)
        s = state.array[0]
        if state.is_over or s["phase"] != 4:
            continue
        if bin(int(s["hands"][state.current_player])).count("1") > EXACT_CARDS:
            continue
        payoffs = _exact_payoffs(state)
        card = _oracle(state)
        assert card in payoffs
        assert payoffs[card] == max(payoffs.values())
        checked += 1
        if checked == 3:
            return
    assert checked > 0


def test_oracle_is_reproducible(game):
    """Same state and generator seed: same action, in the auction and in the play."""
    for steps in (0, 9):
        state, _ = reach(game, 5, steps)
        assert _oracle(state, 3) == _oracle(state, 3)


def test_oracle_beats_rule(game):
    report = trickgym.tournament("solowhist", ["oracle", "rule"], deals=4, seed=2)
    assert report.difference["mean"] > 0


@pytest.mark.parametrize("steps", [0, 20])
def test_pimc_and_ismcts_decisions_are_reproducible(game, steps):
    """Two agents with the same seed decide the same on the same observation."""
    state, memory = reach(game, 8, steps)
    seat = state.current_player
    for make in (
        lambda: PIMCAgent(game, samples=2, seed=4),
        lambda: ISMCTSAgent(game, iterations=20, seed=4),
    ):
        decisions = []
        for _ in range(2):
            agent = make()
            agent.start_deal(12, seat)
            agent.memory[:] = memory[seat]
            decisions.append(python_action(agent, game, state.array, 0, seat))
        assert decisions[0] == decisions[1]


def test_pimc_solves_first_lead_and_calls_when_asked(game):
    """dd_cards=13 solves the first lead, dd_bids the calls; bad knobs raise."""
    agent = PIMCAgent(game, samples=2, seed=1, dd_cards=13, dd_bids=True)
    state, _ = reach(game, 3, 0)
    assert agent._solved(record_of(game, state.array, state.current_player)[0])
    with pytest.raises(ValueError, match="exact_cards"):
        PIMCAgent(game, exact_cards=14)


# ------------------------------------------------------------- PIMC's solved bidder


def _cal_dict():
    from trickgym.agents.mc.solved_bids import CALIBRATION

    return {
        name: dict(vars(getattr(CALIBRATION, name)))
        for name in ("solo", "misere", "abundance", "misere_ouverte", "abundance_declared")
    } | {"margin": CALIBRATION.margin, "samples": CALIBRATION.samples}


def test_bid_calibration_loads_and_validates():
    from trickgym.agents.mc.solved_bids import CALIBRATION, BidCalibration

    assert BidCalibration.from_dict(_cal_dict()) == CALIBRATION
    for name in ("solo", "misere", "abundance", "misere_ouverte", "abundance_declared"):
        c = getattr(CALIBRATION, name)
        assert 0 < c.made(0.0, 0.0) <= c.made(1.0, 1.0) < 1
        assert c.value(0.0) < 0 < c.value(1.0, 1.0)  # worth declaring only with made-rates
    bad = [
        ({"solo": {"b0": float("nan")}}, "finite"),
        ({"solo": {"b_short": -1.0}}, ">= 0"),
        ({"misere": {"win": -1.0}}, "positive"),
        ({"abundance": {"loss": 2.0}}, "negative"),
    ]
    for change, match in bad:
        d = _cal_dict()
        for k, v in change.items():
            d[k] = d[k] | v
        with pytest.raises(ValueError, match=match):
            BidCalibration.from_dict(d)
    d = _cal_dict()
    d["solo"] = {"b0": 0.1}
    with pytest.raises(ValueError, match="exactly b0, b_goal, b_short, win, loss"):
        BidCalibration.from_dict(d)
    with pytest.raises(ValueError, match="unknown calibration keys"):
        BidCalibration.from_dict(_cal_dict() | {"prop": 1})
    d = _cal_dict()
    del d["abundance_declared"]
    with pytest.raises(ValueError, match="lacks contract"):
        BidCalibration.from_dict(d)
    with pytest.raises(ValueError, match="samples"):
        BidCalibration.from_dict(_cal_dict() | {"samples": 0})
    with pytest.raises(ValueError, match="bids must be one of"):
        PIMCAgent(trickgym.game("solowhist"), bids="oracle")
    with pytest.raises(ValueError, match="dd_bids"):
        PIMCAgent(trickgym.game("solowhist"), bids="calibrated", dd_bids=True)
    agent = PIMCAgent(trickgym.game("solowhist"), bid_calibration=_cal_dict() | {"margin": 2.0})
    assert agent.bid_calibration.margin == 2.0


def _auction_twins(game, seed):
    """Auction states with the same observation for the seat to move, other hidden hands."""
    from mc_helpers import determinizer

    out = []
    for k in range(60):
        state, memory = reach(game, seed + k, k % 4)
        if state.is_over or int(state.array[0]["phase"]) != 0:
            continue
        seat = state.current_player
        rec = record_of(game, state.array, seat)
        twin = np.zeros(1, dtype=game.state_dtype)
        rng = np.array([seed + 1000 * k + 1], dtype=np.uint64)
        determinizer("solowhist")(rec, memory[seat], game.new_match(0), twin, rng)
        assert np.array_equal(rec, record_of(game, twin, seat))
        if not np.array_equal(twin[0]["hands"], state.array[0]["hands"]):
            out.append((state.array, twin, seat))
        if len(out) == 4:
            return out
    raise AssertionError("no auction state with hidden cards to permute")


@pytest.mark.parametrize("bids", ["calibrated", "hybrid"])
def test_solved_bids_ignore_hidden_cards_and_are_reproducible(game, bids):
    """The bid depends only on the seat's observation and the seed."""
    for array, twin, seat in _auction_twins(game, 40):
        decisions = []
        for a in (array, twin, array):
            agent = PIMCAgent(game, samples=4, seed=3, bids=bids)
            agent.start_deal(21, seat)
            decisions.append(python_action(agent, game, a, 0, seat))
        assert decisions[0] == decisions[1] == decisions[2]


@pytest.mark.parametrize("bids", ["calibrated", "hybrid"])
def test_solved_bids_are_legal_in_every_auction_state_reached(game, bids):
    """PIMC bidders in every seat over a few deals: every call legal (python_action checks)."""
    from trickgym.agents.solved_solowhist import act_rule

    params = params_matrix("solowhist", 4)
    phases = set()
    cal = _cal_dict() | {"samples": 6, "margin": -8.0}  # a low margin: more varied auctions
    for seed in range(6):
        state = game.deal(seed=seed)
        agents = [PIMCAgent(game, samples=2, seed=seed, bids=bids, bid_calibration=cal)] * 4
        for s in range(4):
            agents[s].start_deal(seed, s)
        rng = np.array([seed + 1], dtype=np.uint64)
        scratch = np.empty(1, dtype=game.obs_dtype)
        while not state.is_over and int(state.array[0]["phase"]) != 4:
            p = state.current_player
            phases.add(int(state.array[0]["phase"]))
            state.apply(python_action(agents[p], game, state.array, 0, p))
        while not state.is_over:  # the play by the rule agents (fast)
            p = state.current_player
            state.apply(int(act_rule(state.array[0], p, rng, scratch, params)))
    assert 0 in phases


def test_oracle_calls_as_rule_when_a_call_is_unsolved(game):
    """Deal 464 of seed 2026: three calls run out of the oracle's node budget
    and the best solved call is a Misère it cannot make (-30). The unsolved
    calls are valued by stochastic playouts of the true deal, and the best of
    them here is the rule agent's call. (Deal 292, the first such deal, is
    settled since the misère probe deepens.)"""
    from trickgym.agents.solowhist import ORACLE_NODE_LIMIT, ORACLE_TABLE_LOG2
    from trickgym.agents.solved_solowhist import EXACT_CARDS, auction_values
    from trickgym.solvers.dd_search import make_table

    arr = game.new_match(np.uint64(derive_seed(2026, 464, 0)), 1)
    st = arr[0]
    seat = int(st["to_move"])
    params = params_matrix("solowhist", 4)
    obs = np.empty(1, dtype=game.obs_dtype)
    values = np.full(66, -1e9)
    table = make_table(ORACLE_TABLE_LOG2, ORACLE_NODE_LIMIT)
    unsolved = auction_values(
        st, seat, np.array([5], np.uint64), obs, params, table, EXACT_CARDS, values
    )
    assert unsolved > 0, "the solver now settles every call here: pick a harder deal"
    rule = int(act(1, st, seat, np.array([5], np.uint64), obs, params, None))
    oracle = int(oracle_action(st, seat, np.array([5], np.uint64), obs, params))
    assert oracle == rule
