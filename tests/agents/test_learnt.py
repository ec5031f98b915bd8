"""The learnt agent: its value network, its training by distillation, and its use.

Strength is measured by experiments/train_learnt.py and the README's
tables, not here; these tests check that the net, the fit and the agent
do what they say on tiny budgets.
"""

from __future__ import annotations

import numpy as np
import pytest
from mc_helpers import CONFIGS, make_game, record_of, twin_states

import trickgym
from trickgym.agents import make_agent, python_action
from trickgym.agents.learnt import (
    WEIGHTS_DIR,
    LearntAgent,
    ValueNet,
    shipped_weights,
    weights_name,
)
from trickgym.agents.mc import PIMCAgent
from trickgym.training.distill import (
    FitOptions,
    Labels,
    Teacher,
    collect,
    decision_regret,
    fit,
)


def test_net_round_trips_through_npz(tmp_path):
    game = trickgym.game("solowhist")
    net = ValueNet.for_game(game, hidden=(16, 8), seed=3, scale=2.5)
    net.meta["margin"] = 0.25
    path = net.save(tmp_path / "w.npz")
    back = ValueNet.load(path)
    x = np.random.default_rng(0).random((5, 1123), dtype=np.float32)
    rule = np.array([0, 5, 52, 60, 3])
    assert np.array_equal(net.values(x, rule), back.values(x, rule))
    assert not np.array_equal(net.values(x, rule), net.values(x, rule[::-1]))
    with pytest.raises(ValueError, match="rule="):
        net.values(x)
    assert back.meta == net.meta and back.scale == 2.5


def test_net_load_errors_name_the_problem(tmp_path):
    with pytest.raises(ValueError, match=r"missing\.npz' does not exist"):
        ValueNet.load(tmp_path / "missing.npz")
    np.savez(tmp_path / "other.npz", a=np.zeros(3))
    with pytest.raises(ValueError, match="not a trickgym value net"):
        ValueNet.load(tmp_path / "other.npz")
    net = ValueNet.for_game(trickgym.game("phat"), hidden=(4,))
    with pytest.raises(ValueError, match=r"float32\[n, 720\]"):
        net.values(np.zeros((2, 7), np.float32))


def test_weights_must_fit_the_game():
    net = ValueNet.for_game(trickgym.game("phat"), hidden=(4,))
    with pytest.raises(ValueError, match="do not fit"):
        LearntAgent(trickgym.game("solowhist"), weights=net)
    with pytest.raises(ValueError, match="do not fit"):  # another table size
        LearntAgent(
            trickgym.game("troggu", players=4),
            weights=ValueNet.for_game(trickgym.game("troggu", players=5), hidden=(4,)),
        )
    with pytest.raises(ValueError, match="margin"):
        LearntAgent(trickgym.game("phat"), weights=net, margin=-1)


def test_weights_of_another_pinochle_mode_are_refused():
    """Kitty and exchange weights carry their mode: each refuses the other's game."""
    kitty, exchange = (trickgym.game("pinochle", mode=m) for m in ("kitty", "exchange"))
    assert (weights_name(kitty), weights_name(exchange)) == (
        "pinochle.npz",
        "pinochle-exchange.npz",
    )
    for trained, played in ((kitty, exchange), (exchange, kitty)):
        net = ValueNet.for_game(trained, hidden=(4,))
        assert net.meta["tag"] == trained.tag
        with pytest.raises(ValueError, match=f"trained for '{trained.tag}' do not fit"):
            LearntAgent(played, weights=net)
        LearntAgent(trained, weights=net)


def test_pinochle_learnt_bids_only_among_pimcs_candidates():
    """The net picks among the bids PIMC values (Pass and the three lowest), never a jump
    bid it was not trained on, and never over its own partner (the rule agent's call)."""
    from trickgym.agents.learnt.agent import keeps_rule_action, teacher_candidates
    from trickgym.agents.mc.sample_pinochle import candidates

    game = trickgym.game("pinochle")
    state = game.deal(seed=3)
    rng = np.random.default_rng(0)
    seen = 0
    while int(state.array[0]["phase"]) == 0:
        legal = np.flatnonzero(state.legal_action_mask())
        low, high = candidates(state.array[0])
        bits = [a for a in range(64) if (int(low) >> a) & 1]
        bits += [64 + a for a in range(64) if (int(high) >> a) & 1]
        assert teacher_candidates(game, legal, 0).tolist() == bits
        seen += len(legal) > len(bits)
        rec = record_of(game, state.array, state.current_player)[0]
        partner_holds = int(state.array[0]["holder"]) == (state.current_player + 2) % 4
        assert keeps_rule_action(game, rec) == partner_holds
        bids = legal[legal >= 53]
        state.apply(int(bids[rng.integers(len(bids))]) if len(bids) and seen < 6 else 48)
    assert seen  # some decision had more legal bids than PIMC's candidates
    game = trickgym.game("solowhist")
    legal = np.arange(60, 66)
    assert teacher_candidates(game, legal, 0).tolist() == legal.tolist()


def test_learnt_agent_picks_only_actions_its_labels_valued():
    """Outputs for actions no label valued are untrained: the agent never plays them."""
    from mc_helpers import reach

    game = trickgym.game("solowhist")
    state, _ = reach(game, 5, 20)
    mask = state.legal_action_mask()
    legal = np.flatnonzero(mask)
    phase = int(state.array[0]["phase"])
    assert len(legal) >= 2 and phase in game.search.phases
    record = record_of(game, state.array, state.current_player)
    for seed in range(3):
        net = ValueNet.for_game(game, hidden=(8,), seed=seed)
        net.meta["trained_actions"] = {str(phase): [int(legal[-1])]}
        assert LearntAgent(game, weights=net, margin=0.0).act_record(record, mask) == legal[-1]
        net.meta["trained_actions"] = {str(phase): []}  # none: the rule agent's action
        rule = LearntAgent(game, weights=net, margin=1e9).act_record(record, mask)
        assert LearntAgent(game, weights=net, margin=0.0).act_record(record, mask) == rule


def _game_of_weights(name: str):
    """The game a shipped weights file is for (``troggu-5p.npz``, ``pinochle-exchange.npz``)."""
    net = ValueNet.load(WEIGHTS_DIR / name)
    options = {}
    if net.meta["game"] == "troggu":
        options["players"] = net.meta["seats"]
    if net.meta["game"] == "pinochle":
        options["mode"] = net.meta.get("tag", "pinochle").partition("-")[2] or "kitty"
    return trickgym.game(net.meta["game"], **options)


@pytest.mark.parametrize("name", shipped_weights())
def test_every_shipped_weights_file_plays_its_game(name):
    """Each shipped file is found by its game's name and plays a deal through ``learnt``."""
    game = _game_of_weights(name)
    assert weights_name(game) == name
    agent = LearntAgent(game, seed=2)
    options = dict(game.options.__dict__)
    unit = {"matches": 1} if game.run_unit == "matches" else {"deals": 1}
    df = trickgym.simulate(
        game.name, agents=[agent, *["rule"] * (game.n_seats - 1)], seed=4, **unit, **options
    )
    assert len(df) >= 1


def test_missing_shipped_weights_say_how_to_train():
    game = trickgym.game("troggu", players=7)
    if weights_name(game) in shipped_weights():
        pytest.skip("weights shipped for this table")
    with pytest.raises(ValueError, match=r"train_learnt\.py"):
        LearntAgent(game)


def _random_agent(game, seed=0, margin=0.0):
    return LearntAgent(
        game, weights=ValueNet.for_game(game, hidden=(32,), seed=seed), margin=margin, seed=1
    )


@pytest.mark.parametrize(("name", "opts"), CONFIGS)
def test_decision_ignores_hidden_cards(name, opts):
    """Two states that look the same to the seat get the same action, whatever the weights."""
    game = make_game(name, opts)
    state, twin, seat, _ = twin_states(game, 3)
    assert np.array_equal(record_of(game, state.array, seat), record_of(game, twin, seat))
    for weights_seed in range(3):
        decisions = []
        for array in (state.array, twin):
            agent = _random_agent(game, weights_seed)
            agent.start_deal(77, seat)
            decisions.append(python_action(agent, game, array, 0, seat))
        assert decisions[0] == decisions[1]


def test_margin_keeps_the_rule_action_unless_another_is_clearly_better():
    game = trickgym.game("solowhist")
    rule = LearntAgent(game, weights=ValueNet.for_game(game, hidden=(8,)), margin=1e9)
    df_rule = trickgym.simulate("solowhist", deals=6, agents=[rule, "rule", "rule", "rule"], seed=5)
    df_base = trickgym.simulate("solowhist", deals=6, agents="rule", seed=5)
    assert df_rule.drop(columns=[c for c in df_rule if c.startswith("agent")]).equals(
        df_base.drop(columns=[c for c in df_base if c.startswith("agent")])
    )
    greedy = _random_agent(game, seed=4)  # margin 0: plays the random net's argmax
    df_net = trickgym.simulate(
        "solowhist", deals=6, agents=[greedy, "rule", "rule", "rule"], seed=5
    )
    assert not df_net.drop(columns=[c for c in df_net if c.startswith("agent")]).equals(
        df_base.drop(columns=[c for c in df_base if c.startswith("agent")])
    )


def test_shipped_agents_play_simulations_and_tournaments_reproducibly():
    shipped = shipped_weights()
    assert "solowhist.npz" in shipped and len(shipped) >= 2
    for name in ("solowhist", "phat"):
        unit = {"matches": 1} if name == "phat" else {"deals": 8}
        runs = [
            trickgym.simulate(name, agents=["learnt", "rule", "rule", "rule"], seed=9, **unit)
            for _ in range(2)
        ]
        assert runs[0].equals(runs[1]) and len(runs[0]) > 0
    report = trickgym.tournament(
        "solowhist", [make_agent("learnt", "solowhist"), "rule"], deals=4, seed=3
    )
    assert len(report.rows) == 8


def test_collect_labels_every_searched_choice_with_pimc_values():
    labels = collect("solowhist", 2, seed=4, teacher=Teacher(samples=3), workers=1, chunk=1)
    game = trickgym.game("solowhist")
    assert len(labels) > 20
    assert labels.features.shape == (len(labels), 1123)
    assert labels.values.shape == (len(labels), game.n_actions)
    valued = np.isfinite(labels.values)
    assert (valued.sum(axis=1) >= 2).all()
    rows = np.arange(len(labels))
    # Every rule action labelled is among the legal (valued) actions, bar unvalued solves.
    assert valued[rows, labels.rule].mean() > 0.9
    again = collect("solowhist", 2, seed=4, teacher=Teacher(samples=3), workers=1, chunk=2)
    assert np.array_equal(labels.values, again.values, equal_nan=True)
    assert np.array_equal(labels.features, again.features)


def test_collect_values_are_pimcs():
    """A label's values are what PIMC computes for that record with that deal's seed."""
    labels = collect("phat", 1, seed=2, teacher=Teacher(samples=2), workers=1)
    assert len(labels) > 10 and set(np.unique(labels.phase)) == {0}
    assert np.all(np.isfinite(labels.values).sum(axis=1) >= 2)
    with pytest.raises(ValueError, match="explore"):
        collect("phat", 1, teacher=Teacher(explore=2.0))
    with pytest.raises(ValueError, match="deals"):
        collect("phat", 0)


def _synthetic_labels(game, n, seed):
    """Labels whose best action is set by one feature column: a rule a net can learn."""
    rng = np.random.default_rng(seed)
    size = 1123
    features = (rng.random((n, size)) < 0.1).astype(np.float16)
    features[:, :2] = rng.random((n, 2)) < 0.5
    values = np.full((n, game.n_actions), np.nan, np.float32)
    values[:, :4] = 0.0
    best = (features[:, 0] + 2 * features[:, 1]).astype(int)  # uniform over 0..3
    values[np.arange(n), best] = 3.0
    rule = np.zeros(n, np.int16)
    return Labels(features, values, rule, np.full(n, 4, np.int8))


def test_fit_learns_a_learnable_rule():
    game = trickgym.game("solowhist")
    labels = _synthetic_labels(game, 8000, 1)
    net, report = fit(labels, "solowhist", FitOptions(hidden=(64,), epochs=30, lr=3e-3, seed=0))
    assert report["holdout_regret"][-1] < report["holdout_regret"][0]
    held = _synthetic_labels(game, 500, 2)
    regret, agreement = decision_regret(net, held, 0.0)
    assert agreement > 0.9, report
    assert regret < 0.3
    assert report["rule_regret"] > 1.5  # always action 0: wrong three times in four


def test_fit_refuses_labels_of_another_game():
    labels = _synthetic_labels(trickgym.game("solowhist"), 50, 0)
    with pytest.raises(ValueError, match="720"):
        fit(labels, "phat")


def test_pimc_action_values_follow_its_choice():
    """PIMC's decision is the argmax of action_values (ties to the rule agent's card)."""
    game = trickgym.game("phat")
    state = game.deal(seed=3)
    seat = state.current_player
    rec = record_of(game, state.array, seat)
    legal = np.flatnonzero(state.legal_action_mask())
    a, b = PIMCAgent(game, samples=4, seed=2), PIMCAgent(game, samples=4, seed=2)
    a.start_deal(5, seat)
    b.start_deal(5, seat)
    values = a.action_values(rec, legal)
    assert values.shape == legal.shape and np.isfinite(values).all()
    mask = state.legal_action_mask().astype(np.int8)
    assert b.act_record(rec, mask) == legal[int(np.argmax(values))]
    # What it compared is kept (trickgym.agents' last_values hook, read by the replay page).
    shown, kept = b.last_values
    assert shown.tolist() == legal.tolist() and np.array_equal(kept, values)


def test_learnt_agent_keeps_the_values_its_net_compared():
    game = trickgym.game("solowhist")
    agent = make_agent("learnt", game)
    state = game.deal(seed=1)
    agent.start_deal(1, state.current_player)
    rec = record_of(game, state.array, state.current_player)
    action = agent.act_record(rec, state.legal_action_mask().astype(np.int8))
    shown, values = agent.last_values  # the auction's calls, which its net values
    assert action in shown and set(shown) <= set(state.legal_actions())
    assert values.shape == shown.shape and np.isfinite(values).all()


def test_fit_gradient_matches_finite_differences():
    from trickgym.training.distill import loss_and_grads

    rng = np.random.default_rng(0)
    net = ValueNet.init([7, 5, 4, 6], seed=2)
    net.weights = [w.astype(np.float64) for w in net.weights]
    net.biases = [rng.standard_normal(b.shape) * 0.1 for b in net.biases]
    x = rng.random((9, 7))
    targets = rng.standard_normal((9, 6))
    valued = rng.random((9, 6)) < 0.6
    valued[:, :2] = True
    targets = np.where(
        valued,
        targets - np.where(valued, targets, 0).sum(1, keepdims=True) / valued.sum(1, keepdims=True),
        0.0,
    )
    for rows in (None, rng.random(9) * 3):  # every row alike, and weighed rows
        _, grads = loss_and_grads(net, x, targets, valued, 0.01, rows)
        params = net.weights + net.biases
        for p, g in zip(params, grads, strict=True):
            for index in list(np.ndindex(p.shape))[:12]:
                old = p[index]
                p[index] = old + 1e-6
                up = loss_and_grads(net, x, targets, valued, 0.01, rows)[0]
                p[index] = old - 1e-6
                down = loss_and_grads(net, x, targets, valued, 0.01, rows)[0]
                p[index] = old
                assert g[index] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-7)


def test_phase_weights_put_each_phase_in_its_own_units():
    """A phase whose values spread ten times less weighs a hundred times more a decision,
    so that its errors count as much as the wide phase's (Pinochle's cards beside its bids)."""
    from trickgym.training.distill import phase_weights

    rng = np.random.default_rng(1)
    targets = rng.standard_normal((400, 5))
    targets[200:] *= 0.1
    valued = np.ones_like(targets, dtype=bool)
    phase = np.repeat([0, 5], 200)
    w = phase_weights(targets, valued, phase)
    own = [np.mean(targets[phase == p] ** 2) for p in (0, 5)]
    assert np.allclose(w[phase == 0] * own[0], w[phase == 5] * own[1], rtol=1e-5)
    assert w[phase == 5][0] / w[phase == 0][0] == pytest.approx(own[0] / own[1], rel=1e-5)
    assert np.all(phase_weights(targets, valued, np.zeros(400, int)) == 1.0)


def test_balanced_fit_learns_the_narrow_phase_too():
    """Two phases told apart by a feature, the wide one's values a hundred times wider and
    its best action the other way round: with the phases balanced the net learns the narrow
    phase's best action; unbalanced, the wide phase's errors swamp it."""
    game = trickgym.game("solowhist")

    def phase(n, seed, wide):
        labels = _synthetic_labels(game, n, seed)
        labels.features[:, 2:] = 0.0  # no noise columns: a small fit learns it
        if wide:
            labels.values = labels.values[:, [3, 2, 1, 0, *range(4, game.n_actions)]] * 100.0
            labels.phase[:] = 0
        else:
            labels.features[:, 2] = 1.0
        return labels

    labels = Labels.concat([phase(2000, 1, True), phase(2000, 2, False)])
    regrets = {}
    for balance in (True, False):
        training = FitOptions(hidden=(32,), epochs=6, lr=3e-3, seed=0, balance_phases=balance)
        net, _ = fit(labels, "solowhist", training)
        assert net.meta["balance_phases"] is balance
        regrets[balance] = decision_regret(net, phase(500, 3, False), 0.0)[0]
    assert regrets[True] < 0.3 < regrets[False], regrets


def test_adam_step_is_adam_and_leaves_no_subnormal_weight():
    """The one Adam step every trainer uses: the textbook update, with weights that fall
    below float32's normal range set to zero (they cost products 30x)."""
    from trickgym.training.adam import adam_step

    rng = np.random.default_rng(0)
    p = rng.standard_normal((3, 4)).astype(np.float32)
    p[0, :2] = np.finfo(np.float32).tiny / 4  # subnormal, and a zero gradient keeps it
    g = rng.standard_normal((3, 4)).astype(np.float32)
    g[0, :2] = 0.0
    expected = p.copy()
    m_hat = 0.1 * g / (1 - 0.9)
    v_hat = 0.001 * g * g / (1 - 0.999)
    expected -= (0.01 * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
    m, v = np.zeros_like(p), np.zeros_like(p)
    adam_step([p], [g], [m], [v], 1, 0.01)
    np.testing.assert_allclose(p[1:], expected[1:], rtol=1e-6)
    assert np.all(p[0, :2] == 0.0) and not np.any(
        (p != 0) & (np.abs(p) < np.finfo(np.float32).tiny)
    )
