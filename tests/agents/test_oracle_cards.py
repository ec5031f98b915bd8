"""Oracle-guided Solo Whist card play (training/oracle_labels.py, agents/learnt/card_net.py,
training/card_scorer.py): the oracle's targets against a brute force of the rules, labels
that read the seat's view only, the hand-written gradients, the agent, and the training
script repeating at a tiny size."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers.later import later

import trickgym
from trickgym.agents.learnt import card_net
from trickgym.engine.loops import rule_choice
from trickgym.engine.params import params_matrix
from trickgym.training import card_scorer, dmc, oracle_labels

make_table = later("trickgym.solvers.dd_search", "make_table")

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"


@pytest.fixture(scope="module")
def game():
    return trickgym.game("solowhist")


def _late_position(game, cards_left=3, differ=False):
    """A declared deal played by rule agents until ``cards_left`` cards are in each hand,
    the player to move with a choice of cards (``differ``: cards the oracle values apart)."""
    params = params_matrix(game, 4)
    rng = np.zeros(1, dtype=np.uint64)
    obs = np.zeros(1, dtype=game.obs_dtype)
    for seed in range(200):
        state = game.deal(seed=seed)
        while not state.is_over:
            rec = state.record
            in_play = int(rec["phase"]) == 4
            legal = state.legal_actions()
            if in_play and int(rec["trick_no"]) == 13 - cards_left and len(legal) > 1:
                if not differ:
                    return state
                v = oracle_labels.card_targets(state, state.current_player, make_table(8, 0), 7)
                if len(set(v[legal].tolist())) > 1:
                    return state
                break
            oracle_labels.seat_view(game, state, state.current_player, obs)
            state.apply(rule_choice(obs[0], params, rng))
    raise AssertionError("no position found")


def _best(state, seat, declarers):
    """``seat``'s payoff with best play by both sides from ``state`` (plain minimax over the
    game's own moves and scoring)."""
    if state.is_over:
        return int(state.payoffs[seat])
    p = state.current_player
    values = [_best(state.clone().apply(a), seat, declarers) for a in state.legal_actions()]
    same_side = ((declarers >> p) & 1) == ((declarers >> seat) & 1)
    return max(values) if same_side else min(values)


def test_oracle_targets_equal_a_brute_force_of_the_rules(game):
    """Each legal card's target is the seat's payoff of the deal (tricks so far included)
    under best play after it, by the game's own moves and scoring."""
    state = _late_position(game, differ=True)
    seat = state.current_player
    declarers = int(state.record["declarers"])
    targets = oracle_labels.card_targets(state, seat, make_table(8, 0), 7)
    legal = state.legal_actions()
    assert np.flatnonzero(~np.isnan(targets)).tolist() == legal
    for card in legal:
        assert targets[card] == _best(state.clone().apply(card), seat, declarers), card
    # a target past the node budget is not a target
    assert np.isnan(oracle_labels.card_targets(state, seat, make_table(8, 1), 7)).all()


def test_labels_read_the_seat_s_own_view_only(game):
    """Two deals that differ only in the other seats' hidden cards give the seat the same
    observation record and the same feature rows."""
    state = _late_position(game, cards_left=6)
    seat = state.current_player
    other = state.clone()
    hands = other.record["hands"]
    a, b = (seat + 1) % 4, (seat + 2) % 4
    ha, hb = int(hands[a]), int(hands[b])
    ca, cb = ha & -ha, hb & -hb  # the lowest card of each, as a bit
    hands[a] = np.uint64(int(hands[a]) ^ ca ^ cb)
    hands[b] = np.uint64(int(hands[b]) ^ ca ^ cb)
    assert not np.array_equal(state.record["hands"], other.record["hands"])
    views = []
    for s in (state, other):
        obs = oracle_labels.seat_view(game, s, seat, np.zeros(1, dtype=game.obs_dtype))
        legal = np.array(s.legal_actions())
        rows = card_net.card_features(obs[0], legal, int(legal[0]))
        views.append((obs.tobytes(), rows))
    assert views[0][0] == views[1][0]
    np.testing.assert_array_equal(views[0][1], views[1][1])


def test_a_tiny_labelling_run_repeats(game):
    """The same seed labels the same decisions with the same values; each label values
    exactly the legal cards of its record, the rule agent's card among them."""
    a, rec_a, stats = oracle_labels.label_deals(3, seed=4, with_features=True)
    b, rec_b, _ = oracle_labels.label_deals(3, seed=4, with_features=True)
    assert stats.labelled == len(a) > 20 and stats.deals == 3
    np.testing.assert_array_equal(a.values, b.values)
    np.testing.assert_array_equal(a.features, b.features)
    for name in rec_a.dtype.names:  # (the records' padding bytes are not theirs)
        np.testing.assert_array_equal(rec_a[name], rec_b[name])
    for rec, v, r in zip(rec_a, a.values, a.rule, strict=True):
        valued = np.flatnonzero(~np.isnan(v))
        assert valued.tolist() == [c for c in range(52) if (int(rec["legal_cards"]) >> c) & 1]
        assert r in valued


def _finite_differences(loss_of, params, grads, rng):
    eps = 1e-3
    for p, g in zip(params, grads, strict=True):
        for idx in [tuple(rng.integers(0, s) for s in p.shape) for _ in range(3)]:
            old = p[idx]
            p[idx] = old + eps
            up = loss_of()
            p[idx] = old - eps
            down = loss_of()
            p[idx] = old
            assert g[idx] == pytest.approx((up - down) / (2 * eps), rel=2e-2, abs=1e-5)


def test_card_scorer_gradient_matches_finite_differences():
    """The scorer's advantage loss: its hand-written gradient is the loss's."""
    rng = np.random.default_rng(0)
    net = card_scorer.new_card_net((6, 5), seed=1, scale=1.0)
    net.weights = [w.astype(np.float64) for w in net.weights]
    net.biases = [(rng.standard_normal(b.shape) * 0.3) for b in net.biases]
    trainer = card_scorer.CardTrainer(net)
    start = np.array([0, 3, 5, 9])
    rows = rng.standard_normal((9, card_net.N_CARD_FEATURES))
    data = card_scorer.CardData(rows, rng.standard_normal(9) * 3, start, np.array([1, 3, 7]))
    _, grads = trainer.loss_and_grads(data)
    _finite_differences(lambda: trainer.loss_and_grads(data)[0], trainer._params(), grads, rng)


def test_value_net_advantage_gradient_matches_finite_differences():
    """``QLearner.loss_and_grads_values`` (every valued action's advantage over the rule
    action): its gradient is the loss's, and the anchored value head gets none."""
    rng = np.random.default_rng(1)
    learner = dmc.QLearner(dmc.DMCConfig(hidden=(5,), seed=0))
    net = learner.net
    net.weights = [rng.standard_normal(w.shape) * 0.3 for w in net.weights]
    x = rng.standard_normal((4, net.n_inputs))
    targets = np.full((4, net.n_outputs), np.nan)
    rule = np.array([2, 5, 7, 2])
    for i in range(4):
        targets[i, [rule[i], 10 + i, 20]] = rng.standard_normal(3)
    _, grads = learner.loss_and_grads_values(x, targets, rule)
    assert not grads[-2].any() and not grads[-1].any()
    params = learner._params()
    _finite_differences(
        lambda: learner.loss_and_grads_values(x, targets, rule)[0], params, grads, rng
    )


def test_the_agent_keeps_the_rule_card_under_a_margin_and_plays_a_tournament(game):
    """A margin nothing reaches plays the rule agent's game exactly; the scorer's agent
    plays in a duplicate tournament."""
    net = card_scorer.new_card_net((8,), seed=3)
    always_rule = card_net.CardNetAgent(net, margin=1e9, seed=2)
    report = trickgym.tournament("solowhist", [always_rule, "rule"], deals=3, seed=9)
    assert report.difference["mean"] == 0.0
    with pytest.raises(ValueError, match="margin"):
        card_net.CardNetAgent(net, margin=-1.0)
    with pytest.raises(ValueError, match="card scorer"):
        card_net.CardNetAgent(dmc.QLearner(dmc.DMCConfig(hidden=(4,))).net)


def test_the_script_repeats_and_writes_what_the_agent_plays(tmp_path):
    """``--quick`` twice with one seed: the same scorer; the files load as an agent."""
    spec = importlib.util.spec_from_file_location(
        "train_oracle", EXPERIMENTS / "train_oracle_solowhist.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_oracle"] = module
    sys.path.insert(0, str(EXPERIMENTS))  # its sibling train_run.py, as when run as a script
    spec.loader.exec_module(module)
    for run in ("a", "b"):
        assert module.main(["--quick", "--quiet", "--out", str(tmp_path / run)]) == 0
    from trickgym.agents.learnt.net import ValueNet

    nets = [ValueNet.load(tmp_path / run / "cards.npz") for run in ("a", "b")]
    for wa, wb in zip(nets[0].weights, nets[1].weights, strict=True):
        np.testing.assert_array_equal(wa, wb)
    for name in ("bids.npz", "cards_oracle_fit.npz", "curve.csv", "training.json"):
        assert (tmp_path / "a" / name).is_file(), name
    agent = card_net.CardNetAgent(tmp_path / "a" / "cards.npz", bids=tmp_path / "a" / "bids.npz")
    assert agent.net.n_inputs == card_net.N_CARD_FEATURES


def test_dmc_with_the_rule_agent_s_cards_learns_bids_and_leaves_cards_at_rule():
    """``cards=False``: the card outputs stay where the anchor put them (every card's
    advantage over the rule card is zero), while the explored bids move theirs."""
    cfg = dmc.DMCConfig(
        steps=3_000, envs=16, batch=128, hidden=(16,), log_every=1, seed=3, cards=False, warm=0.0
    )
    learner, _, stats = dmc.train(cfg, log=lambda row: None)
    assert stats["updates"] >= 2
    assert not learner.net.weights[-1][:, :52].any() and not learner.net.biases[-1][:52].any()
    assert learner.net.weights[-1][:, 52:].any()


def test_the_registered_dmc_agent_plays_the_shipped_weights_on_its_seat_s_view_only(game):
    """``"dmc"`` is the shipped oracle-guided agent: it plays by name, refuses other games,
    and acts alike in two states its seat cannot tell apart (cards and bids)."""
    from mc_helpers import record_of, twin_states

    from trickgym.agents import make_agent, python_action

    agent = make_agent("dmc", "solowhist")
    assert agent.net.meta.get("kind") == "card scorer"
    df = trickgym.simulate("solowhist", deals=4, agents=[agent, "rule", "rule", "rule"], seed=2)
    assert len(df) == 4
    with pytest.raises(ValueError, match="Solo Whist only"):
        make_agent("dmc", "phat")
    phases = set()
    for seed in range(3, 9):
        state, twin, seat, _ = twin_states(game, seed)
        assert np.array_equal(record_of(game, state.array, seat), record_of(game, twin, seat))
        phases.add(int(state.array[0]["phase"]))
        decisions = []
        for array in (state.array, twin):
            agent.start_deal(77, seat)
            decisions.append(python_action(agent, game, array, 0, seat))
        assert decisions[0] == decisions[1]
    assert card_net.PLAY_PHASE in phases
