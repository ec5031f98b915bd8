"""The game specs (docs/spec.md): bounds that hold and are tight, penalties, infos."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import trickgym
from trickgym.games.obs_features import feature_plan
from trickgym.spec import MEASURED, spec_markdown

ROOT = Path(__file__).resolve().parents[2]
ENV_IDS = {
    "solowhist": "trickgym/SoloWhist-v0",
    "troggu": "trickgym/Troggu-v0",
    "phat": "trickgym/Phat-v0",
    "pinochle": "trickgym/Pinochle-v0",
}
OWN_SCORE = ("scores[+0]", "scores[team+0]")
CASES = [
    ("solowhist", {}),
    ("troggu", {"players": 3}),
    ("troggu", {"players": 8}),
    ("phat", {}),
    ("pinochle", {}),
    ("pinochle", {"mode": "exchange"}),
]


def test_spec_page_is_what_the_code_generates():
    """Regenerate with ``python -m trickgym.spec docs/spec.md``."""
    page = (ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
    assert page == spec_markdown(), "docs/spec.md is stale: python -m trickgym.spec docs/spec.md"


@pytest.mark.parametrize(
    ("name", "options", "bound"),
    [
        ("solowhist", {}, 93),  # Abundance with no trick: 3 x (3 x 5 + 2 x 8)
        ("solowhist", {"unit": 1}, 57),
        ("solowhist", {"unit": 10}, 180),  # Abundance Declared: 3 x 6 x 10
        *[("troggu", {"players": n}, 60 * (n - 1)) for n in range(3, 9)],  # a Solo slam
        ("phat", {}, 120),  # 80 phat + 8 + a carry of 4 tied deals
        ("phat", {"target": 81}, 104),
        ("pinochle", {}, 990 + 2 * 1540 + 250),
        ("pinochle", {"mode": "exchange", "max_bid": 500}, 500 + 2 * 1800 + 250),
    ],
)
def test_payoff_bound_from_the_scoring_rules(name, options, bound):
    assert trickgym.game(name, **options).payoff_bound == bound


def test_measured_payoffs_stay_within_the_bound():
    """The default penalty exceeds every payoff the recorded runs saw (Pinochle to -1,830)."""
    tables = {g.tag: g for g in (trickgym.game(n, **o) for n, o in CASES)}
    tables.update({f"troggu-{n}p": trickgym.game("troggu", players=n) for n in range(3, 9)})
    assert set(MEASURED) <= set(tables)
    for tag, rows in MEASURED.items():
        for _deals, low, _p1, _p50, _p99, high, _below in rows.values():
            assert max(-low, high) <= tables[tag].payoff_bound, tag


@pytest.mark.parametrize(("name", "options"), CASES)
def test_features_fill_their_bounds(name, options):
    """Random play: every column within its Box, scaled columns not loose by 10x or more,
    rewards within the payoff bound (the default penalty), infos matching the masks."""
    env = gym.make_vec(
        ENV_IDS[name], num_envs=64, vectorization_mode="vector_entry_point",
        obs_mode="features", opponents="random", deal_infos=True, **options,
    )  # fmt: skip
    game = env.game
    plan = feature_plan(game)
    assert env.illegal_penalty == game.payoff_bound
    env.action_space.seed(0)
    obs, infos = env.reset(seed=7)
    low = high = obs["features"][0]
    rewards, terminated = [], np.zeros(env.num_envs, dtype=bool)
    for _ in range(150):
        # an ended episode awaiting its reset has no legal action (the mask's 0 a placeholder)
        legal = np.where(terminated, 0, env.action_masks().sum(axis=1))
        np.testing.assert_array_equal(infos["legal_actions"], legal)
        obs, reward, terminated, _, infos = env.step(env.action_space.sample())
        low = np.minimum(low, obs["features"].min(axis=0))
        high = np.maximum(high, obs["features"].max(axis=0))
        rewards.extend(reward[terminated])
    names = np.array(plan.names)
    outside = names[(low < plan.low) | (high > plan.high)]
    assert not outside.size, outside[:5]
    scaled = np.array(["/" in n for n in plan.names])
    seen, declared = (high - low)[scaled], (plan.high - plan.low)[scaled]
    loose = names[scaled][(seen > 0) & (declared > 10 * seen)]
    assert not loose.size, loose
    own_score = [j for j, n in enumerate(plan.names) if n.split("/")[0] in OWN_SCORE]
    assert len(own_score) == 1 and high[own_score] > low[own_score]  # the bounds that were 1e7
    assert rewards and max(abs(r) for r in rewards) <= game.payoff_bound
    for i in range(env.num_envs):
        assert (infos["contract"][i], infos["declarer"][i]) == game.contract_of(env.state(i).record)


def test_contract_and_declarer_in_words():
    solowhist = trickgym.game("solowhist").deal(1, dealer=3)
    assert solowhist.game.contract_of(solowhist.record) == ("", -1)
    while solowhist.current_player != 2:
        solowhist.apply("Pass")
    solowhist.apply("Solo")
    while solowhist.record["phase"] == 0:
        solowhist.apply("Pass")
    assert solowhist.game.contract_of(solowhist.record) == ("Solo", 2)
    pinochle = trickgym.game("pinochle").deal(1, dealer=3)
    bidder = pinochle.current_player
    pinochle.apply("300")
    while pinochle.record["phase"] == 0:
        pinochle.apply("Pass")
    assert pinochle.game.contract_of(pinochle.record) == ("300", bidder)
    pinochle.apply("Trumps H")
    assert pinochle.game.contract_of(pinochle.record) == ("300 H", bidder)


def test_pettingzoo_infos_name_the_agent_to_act():
    from trickgym.envs.pettingzoo import env as aec_env

    env = aec_env("pinochle")
    env.reset(seed=2)
    assert env.unwrapped.illegal_penalty == 4320
    for agent in env.agents:
        count = int(env.observe(agent)["action_mask"].sum())
        assert env.infos[agent] == {"contract": "", "declarer": -1, "legal_actions": count}
        assert (count > 0) == (agent == env.agent_selection)
