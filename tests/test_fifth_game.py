"""A fifth game runs on the generic machinery unchanged: its description is the only door.

Plain whist (``tests/helpers/plain_whist*.py``) brings its rules, encoding,
sampler, rule agent, simulation rows, env classes and advisor part, and
registers its one description (:class:`trickgym.protocol.GameDescription`)
with :func:`trickgym.games.register`; everything exercised here (the batch
entry points, the State API, the play loops, ``act``, PIMC and ISMCTS, the
vector env's kernels, the oracle loop, ``simulate``, ``tournament``, the
single, vector and PettingZoo envs, the hand advisor) is package code that
names no game.
"""

from __future__ import annotations

import dataclasses
import sys

import gymnasium as gym
import numpy as np
import pandas as pd
import pytest
from helpers import plain_whist as pw

import trickgym
from trickgym.advisor.advise import hand_odds
from trickgym.agents.mc.ismcts import ismcts_search
from trickgym.agents.mc.pimc import MAX_ACTIONS, pimc_values
from trickgym.engine.kinds import ORACLE, RANDOM, RULE
from trickgym.engine.loops import act, oracle_flag, play_until, rule_act
from trickgym.envs.pettingzoo import env as pettingzoo_env
from trickgym.envs.vector import kernels as vec
from trickgym.envs.vector.pcg64 import pcg_state
from trickgym.games import kernels
from trickgym.sim import simulate

ORACLE_MODULE = pw.__name__.rpartition(".")[0] + ".plain_whist_oracle"


@pytest.fixture(scope="module", autouse=True)
def registered():
    """Plain whist in the registry of games while this module's tests run."""
    trickgym.games.register(pw.DESCRIPTION)
    yield pw.DESCRIPTION
    trickgym.games.unregister("plainwhist")
    assert "plainwhist" not in trickgym.GAMES and pw.ENV_ID not in trickgym.envs.ENV_IDS


@pytest.fixture(scope="module")
def game(registered):
    return pw.PlainWhist()


def _same(a, b) -> bool:
    """Records (or arrays of them) equal field by field: padding bytes are not data."""
    return all(np.array_equal(a[f], b[f]) for f in a.dtype.names)


def _bits(x) -> list[int]:
    return [c for c in range(64) if int(x) >> c & 1]


def _check_finished(rec):
    """A finished deal: 13 tricks, every card played once, zero-sum payoffs by the score rule."""
    assert int(rec["phase"]) == pw.DEAL_OVER
    assert int(rec["tricks_won"].sum()) == 13
    assert all(int(h) == 0 for h in rec["hands"])
    played = [int(p) for p in rec["played"]]
    assert all(bin(p).count("1") == 13 for p in played)
    assert played[0] | played[1] | played[2] | played[3] == (1 << 52) - 1
    ours = int(rec["tricks_won"][0]) + int(rec["tricks_won"][2])
    score = (ours - 6 if ours > 6 else ours - 7) * (2 if rec["doubled"] else 1)
    assert rec["payoffs"].tolist() == [score, -score, score, -score]


def _matches(game, seeds, num_deals=1):
    return np.concatenate([game.new_match(s, num_deals=num_deals) for s in seeds])


def _play_all(states, kinds, seed):
    """Built-in agents ``kinds`` play every deal of ``states`` (seat generators from ``seed``)."""
    params = pw.rule_params()
    for i in range(len(states)):
        rngs = np.array([[seed + 10 * i + s] for s in range(4)], dtype=np.uint64)
        assert play_until(states, i, kinds, rngs, params, oracle_flag(kinds)) == -1


def _reach(game, seed, steps):
    """Deal ``seed`` after ``steps`` rule-agent actions (``act``), as a State."""
    state = game.deal(seed=seed)
    params = pw.rule_params()
    rng = np.ones(1, dtype=np.uint64)
    scratch = np.empty(1, dtype=pw.OBS_DTYPE)
    for _ in range(steps):
        p = state.current_player
        state.apply(int(act(RULE, state.array[0], p, rng, scratch, params, None)))
    return state


def _observation(array, seat):
    obs = np.zeros(1, dtype=pw.OBS_DTYPE)
    kernels.observe_at(array, 0, seat, obs, 0)
    return obs


def test_state_api_and_batch_entry_points(game):
    state = game.deal(seed=11, dealer=2)
    assert state.current_player == 3 and not state.is_over
    assert state.legal_actions() == [pw.PASS, pw.DOUBLE]
    with pytest.raises(ValueError, match="illegal action"):
        state.apply(0)  # a card in the auction
    state.apply("double").apply("Pass").apply(pw.PASS).apply("pass")
    assert state.record["doubled"] and state.current_player == 3  # eldest leads
    # the turned-up card is the dealer's and names trumps
    rec = state.record
    assert int(rec["hands"][2]) >> int(rec["turn_up"]) & 1
    assert int(rec["trumps"]) == int(rec["turn_up"]) // 13
    while not state.is_over:
        seat = state.current_player
        legal = state.legal_actions()
        hand = _bits(state.record["hands"][seat])
        assert set(legal) <= set(hand)
        if state.record["trick_n"]:  # follow suit when you can
            led = int(state.record["trick_cards"][0]) // 13
            if any(c // 13 == led for c in hand):
                assert {c // 13 for c in legal} == {led}
        view = state.observe(seat)
        assert set(view) == set(pw.OBS_SHAPES)
        assert np.flatnonzero(view["action_mask"]).tolist() == legal
        assert np.flatnonzero(view["hand"]).tolist() == hand
        state.apply(game.action_name(legal[-1]))  # by name, as people play
    _check_finished(state.record)
    assert state.payoffs.sum() == 0 and state.current_player == -1
    assert state.match_over  # a one-deal match

    # The batch entry points on a batch: one index at a time, the others untouched.
    states = _matches(game, [1, 2, 3], num_deals=2)
    before = states.copy()
    assert kernels.legal_sets_at(states, 1) == (0, 0b11)
    assert kernels.is_legal_at(states, 1, pw.DOUBLE) and not kernels.is_legal_at(states, 1, 5)
    for _ in range(4):
        kernels.apply_action_at(states, 1, pw.PASS)
    assert _same(states[0], before[0]) and _same(states[2], before[2])
    low, high = kernels.legal_sets_at(states, 1)
    assert high == 0 and low == states[1]["hands"][int(states[1]["to_move"])]
    # an observation holds the seat's own hand and nothing of the others'
    seat = (int(states[1]["to_move"]) + 1) % 4
    obs = np.zeros(2, dtype=pw.OBS_DTYPE)
    kernels.observe_at(states, 1, seat, obs, 1)
    assert obs[1]["hand"] == states[1]["hands"][seat] and obs[1]["legal_cards"] == 0
    assert _same(obs[0], np.zeros(1, dtype=pw.OBS_DTYPE)[0])
    # a match of two deals: the deal passes left, scores add up
    _play_all(states, np.array([RULE] * 4, dtype=np.int64), seed=5)
    first = states.copy()
    for i in range(3):
        assert kernels.status_at(states, i)[:2] == (True, False)
        kernels.next_deal_at(states, i)
        assert states[i]["dealer"] == (first[i]["dealer"] + 1) % 4
        assert not kernels.status_at(states, i)[0]
    _play_all(states, np.array([RULE] * 4, dtype=np.int64), seed=6)
    for i in range(3):
        assert kernels.status_at(states, i)[:2] == (True, True)
        _check_finished(states[i])
        np.testing.assert_array_equal(
            states[i]["scores"], first[i]["payoffs"] + states[i]["payoffs"]
        )


def test_play_loops_and_act(game, monkeypatch):
    # Whatever ran before, the loops compiled here must not import the oracle (cold cache).
    monkeypatch.delitem(sys.modules, ORACLE_MODULE, raising=False)
    seeds = range(40)
    all_random = np.array([RANDOM] * 4, dtype=np.int64)
    rule_vs_random = np.array([RULE, RANDOM, RULE, RANDOM], dtype=np.int64)
    for kinds in (all_random, np.array([RULE] * 4, dtype=np.int64), rule_vs_random):
        states = _matches(game, seeds)
        _play_all(states, kinds, seed=7)
        for rec in states:
            _check_finished(rec)
        again = _matches(game, seeds)
        _play_all(again, kinds, seed=7)
        assert _same(again, states)  # reproducible for a seed
    # the rule agent beats random play (seats 0 and 2 are the rule side)
    assert states["payoffs"][:, 0].mean() > 1.0

    # A seat played from Python (kind -1): the loop stops there; act() plays for it.
    params = pw.rule_params()
    states = _matches(game, [3])
    kinds = np.array([RULE, -1, RULE, RULE], dtype=np.int64)
    rngs = np.arange(1, 5, dtype=np.uint64).reshape(4, 1)
    scratch = np.empty(1, dtype=pw.OBS_DTYPE)
    stops = 0
    while (p := play_until(states, 0, kinds, rngs, params, None)) >= 0:
        assert p == 1 == states[0]["to_move"]
        stops += 1
        rec = states[0]
        rule = act(RULE, rec, p, rngs[p], scratch, params, None)
        assert rule == rule_act(rec, p, rngs[p], scratch, params)
        random = act(RANDOM, rec, p, rngs[p], scratch, params, None)
        assert kernels.is_legal_at(states, 0, random) and kernels.is_legal_at(states, 0, rule)
        kernels.apply_action_at(states, 0, random)
    assert stops == 14  # one call and 13 cards
    _check_finished(states[0])
    with pytest.raises(ValueError, match="oracle"):
        act(ORACLE, game.new_match(1)[0], 0, rngs[0], scratch, params, None)
    # random and rule runs never link the oracle: typing them never imported its module
    assert ORACLE_MODULE not in sys.modules


def test_sampler_and_search_respect_the_information_set(game):
    params = pw.rule_params()
    template = game.new_match(0)
    memory = np.zeros(4, dtype=np.uint64)
    # a card-play decision in the middle of a trick, and the first call of the auction
    for steps in (4 + 4 * 5 + 2, 0):
        state = _reach(game, seed=21, steps=steps)
        seat = state.current_player
        obs = _observation(state.array, seat)
        rng = np.array([99], dtype=np.uint64)
        sample = np.zeros(1, dtype=pw.STATE_DTYPE)
        twin = None
        for _ in range(30):
            assert pw.determinize(obs, memory, template, sample, rng)  # exactly uniform draws
            # the sample is a state of the game that the seat cannot tell from the true one
            assert _same(_observation(sample, seat), obs)
            assert sample[0]["hands"][seat] == state.record["hands"][seat]
            hidden = sample[0]["initial_hands"]
            dealer = int(obs[0]["dealer"])
            assert int(hidden[dealer]) >> int(obs[0]["turn_up"]) & 1
            for s in range(4):
                assert bin(int(hidden[s])).count("1") == 13
                for suit in range(4):
                    if int(obs[0]["voids"][s]) >> suit & 1:
                        assert int(sample[0]["hands"][s]) & int(pw.SUIT_MASKS[suit]) == 0
            if sample[0]["hands"].tobytes() != state.record["hands"].tobytes():
                twin = sample.copy()
        assert twin is not None, "no sample with the hidden cards permuted"
        # PIMC's values (and so its decision) depend only on the observation
        results = []
        for array in (state.array, twin):
            values = np.zeros(MAX_ACTIONS, dtype=np.float64)
            counts = np.zeros(MAX_ACTIONS, dtype=np.int64)
            rng = np.array([5], dtype=np.uint64)
            n_uniform = pimc_values(
                _observation(array, seat), memory, template, params, rng, 8, 2, values, counts
            )
            assert n_uniform == 8
            results.append((values, counts))
        (values, counts), (twin_values, twin_counts) = results
        np.testing.assert_array_equal(values, twin_values)
        np.testing.assert_array_equal(counts, twin_counts)
        legal = state.legal_actions()
        assert np.flatnonzero(counts).tolist() == legal and set(counts[legal]) == {16}
        best = legal[int(np.argmax(values[legal] / counts[legal]))]
        assert best in legal
        # ISMCTS over the same protocol: root visits on legal actions only, same for the twin
        visits = []
        for array in (state.array, twin):
            out = np.zeros(MAX_ACTIONS, dtype=np.float64)
            rng = np.array([5], dtype=np.uint64)
            ismcts_search(
                _observation(array, seat), memory, template, params, rng, (200, 0.7, True), out,
                np.zeros(1, dtype=np.int64), 0,
            )  # fmt: skip
            visits.append(out)
        np.testing.assert_array_equal(visits[0], visits[1])
        assert set(np.flatnonzero(visits[0]).tolist()) <= set(legal)
        assert visits[0].sum() == 200


def test_vector_env_kernels(game):
    n, seat = 6, 0
    kinds = np.array([-1, RANDOM, RULE, RANDOM], dtype=np.int64)
    params = pw.rule_params()
    states = np.zeros(n, dtype=pw.STATE_DTYPE)
    gens = np.stack([pcg_state(np.random.default_rng(100 + i)) for i in range(n)])
    agent_rngs = np.zeros((n, 4, 1), dtype=np.uint64)
    live = np.zeros(n, dtype=np.bool_)
    autoreset = np.zeros(n, dtype=np.bool_)
    opts = np.zeros(1, dtype=np.int64)
    obs_records = np.zeros(n, dtype=pw.OBS_DTYPE)
    buf, scalars, wide = pw.LAYOUT.empty_batch(n)
    mask = pw.LAYOUT.slices["action_mask"]
    arrays = (states, kinds, agent_rngs, params, None, gens, live, opts, obs_records)
    encoded = (buf, scalars, wide)
    vec.reset_serial(np.ones(n, dtype=np.bool_), np.ones(n, dtype=np.bool_), arrays, seat, encoded)
    for i in range(n):  # the protocol's encode hook writes what the State API shows
        view = game.encode_observation(obs_records, i)
        for key in pw.LAYOUT.int8_keys:
            np.testing.assert_array_equal(buf[i, pw.LAYOUT.slices[key]].ravel(), view[key].ravel())
        assert scalars[i].tolist() == [int(view[k]) for k in pw.LAYOUT.scalar_keys]
    rewards = np.zeros(n)
    terminated = np.zeros(n, dtype=np.bool_)
    illegal = np.zeros(n, dtype=np.bool_)
    actions = np.zeros(n, dtype=np.int64)
    rule_rngs = np.ones((n, 1), dtype=np.uint64)
    episodes, total = 0, 0.0
    for _ in range(60):
        for i in range(n):
            if not autoreset[i]:  # the learner is to move: the mask is its legal set
                low, high = kernels.legal_sets_at(states, i)
                expected = _bits(low) + [pw.CALL_BASE + b for b in _bits(high)]
                assert np.flatnonzero(buf[i, mask]).tolist() == expected
                assert states[i]["to_move"] == seat and scalars[i, 0] == seat
        vec.builtin_actions(
            states, seat, RULE, rule_rngs, obs_records, params, None, autoreset, actions
        )
        results = (autoreset, rewards, terminated, illegal)
        vec.step_serial(arrays, actions, seat, pw.N_ACTIONS, 100.0, encoded, results)
        assert not illegal.any()
        for i in np.flatnonzero(terminated):
            _check_finished(states[i])
            assert rewards[i] == states[i]["payoffs"][seat]
            episodes += 1
            total += rewards[i]
        np.testing.assert_array_equal(wide[0], states["scores"])
    assert episodes >= n  # a deal is 14 learner steps: every env finished episodes
    # the rule learner and its rule partner (seat 2) beat random opponents
    assert total / episodes > 0


def test_oracle_loop(game):
    # Compiled with oracle=True only here: its module is imported now, by name.
    seeds = range(12)
    with_oracle = np.array([ORACLE, RULE, ORACLE, RULE], dtype=np.int64)
    states = _matches(game, seeds)
    _play_all(states, with_oracle, seed=3)
    assert ORACLE_MODULE in sys.modules
    rule = _matches(game, seeds)
    _play_all(rule, np.array([RULE] * 4, dtype=np.int64), seed=3)
    for rec in states:
        _check_finished(rec)
    # seeing every card, the oracle side does better on the same deals than rule agents
    assert states["payoffs"][:, 0].sum() > rule["payoffs"][:, 0].sum()


def test_registered_like_a_built_in_game(game):
    with pytest.raises(ValueError, match="already registered"):
        trickgym.games.register(dataclasses.replace(pw.DESCRIPTION, encode_wide=1))
    trickgym.games.register(pw.DESCRIPTION)  # the very same description again: a no-op
    assert trickgym.games.DESCRIPTIONS["plainwhist"] is pw.DESCRIPTION
    assert trickgym.GAMES["plainwhist"] == (pw.PlainWhist, pw.PlainWhistOptions)
    made = trickgym.game("plainwhist", num_deals=3)
    assert isinstance(made, pw.PlainWhist) and made.options.num_deals == 3
    assert made.rule_options is pw.RuleOptions and made.description is pw.DESCRIPTION
    with pytest.raises(ValueError, match="num_decks"):
        trickgym.game("plainwhist", num_decks=2)
    assert pw.ENV_ID in trickgym.envs.ENV_IDS and pw.ENV_ID in gym.registry


def _deal_score(tricks_ns, doubled):
    score = np.where(tricks_ns > 6, tricks_ns - 6, tricks_ns - 7)
    return score * np.where(doubled, 2, 1)


def test_simulate_and_tournament():
    df = simulate("plainwhist", deals=40, agents=["rule", "random"] * 2, seed=4, progress=False)
    assert df["deal"].tolist() == list(range(40))
    np.testing.assert_array_equal(df["payoff_0"], _deal_score(df["tricks_ns"], df["doubled"]))
    np.testing.assert_array_equal(df["payoff_0"], -df["payoff_1"])
    np.testing.assert_array_equal(df["payoff_0"], df["payoff_2"])
    assert df["payoff_0"].mean() > 0  # the rule side beats random play
    again = simulate("plainwhist", deals=40, agents=["rule", "random"] * 2, seed=4, progress=False)
    pd.testing.assert_frame_equal(df, again)  # a seed gives the same rows
    report = trickgym.tournament("plainwhist", ["rule", "random"], deals=20, seed=2, progress=False)
    assert report.game == "plainwhist" and len(report.rows) == 40  # two seatings
    assert report.standings.loc["rule", "mean"] > report.standings.loc["random", "mean"]
    assert report.difference["ci_low"] > 0  # paired by deal: rule is clearly the better


def test_single_vector_and_pettingzoo_envs():
    env = gym.make(pw.ENV_ID, opponents="rule")
    obs, info = env.reset(seed=1)
    assert set(obs) == set(pw.OBS_SHAPES) and info["legal_actions"] == 2  # Pass, Double
    steps, terminated = 0, False
    while not terminated:
        mask = env.unwrapped.action_masks()
        assert np.array_equal(mask, obs["action_mask"])
        obs, reward, terminated, _, info = env.step(int(np.flatnonzero(mask)[-1]))
        steps += 1
    state = env.unwrapped.state.record
    _check_finished(state)
    assert steps == 14 and reward == state["payoffs"][0]  # one call, 13 cards
    assert info["contract"] in ("Plain", "Doubled")
    env.close()

    venv = gym.make_vec(pw.ENV_ID, num_envs=3, vectorization_mode="vector_entry_point",
                        opponents="rule")  # fmt: skip
    venv.reset(seed=2)
    ended = 0
    for _ in range(14):
        _, rewards, terminated, _, _ = venv.step(venv.unwrapped.action_masks().argmax(axis=1))
        ended += int(terminated.sum())
        assert np.all(rewards[~terminated] == 0)
    assert ended == 3  # every env's deal ended on its 14th learner step
    venv.close()

    aec = pettingzoo_env("plainwhist")
    aec.reset(seed=3)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        action = (
            None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0])
        )
        aec.step(action)
    values = list(totals.values())
    assert values[0] == values[2] == -values[1] == -values[3] != 0  # partners, zero-sum


def test_hand_advisor():
    hand = "AKQJT98.AK.A2.32"
    df = hand_odds("plainwhist", hand, seat=1, dealer=0, play="rule", deals=60, progress=False)
    assert df["contract"].tolist() == ["Pass", "Double"]
    assert (df["deals"] == 60).all() and df["best"].sum() == 1
    # the same sampled deals and play: doubling doubles the payoff of every deal
    assert df["mean_tricks"].iloc[0] == df["mean_tricks"].iloc[1]
    with pytest.raises(ValueError, match="double-dummy solver"):
        hand_odds("plainwhist", hand, seat=1, dealer=0, play="dd", deals=4, progress=False)
