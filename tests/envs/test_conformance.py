"""Every env (each game configuration, and Phat's "game" episodes) passes the same checks.

Gymnasium's checker, the observation space, seeding, rewards and masks,
illegal actions, opponents, bad arguments, and the native vector env
stepping exactly like ``SyncVectorEnv`` over single envs. Per-game facts
(options, titles, which episodes continue a match) are data below or in
:mod:`conformance_helpers`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

import gymnasium as gym
import numpy as np
import pytest
from conformance_helpers import BY_ID, Config, assert_obs_equal, holdings, same_state
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import trickgym
from trickgym.agents import RandomAgent


@dataclass(frozen=True)
class EnvCase:
    """One env configuration: a game configuration and the env's own options."""

    id: str
    config: Config
    options: dict = field(default_factory=dict)
    #: Phat's "game" episodes pay +1/-1 for the race, not the deal's payoff.
    race: bool = False
    #: Phat's "deal" episodes go on with the same match (scores carried over).
    continues_match: bool = False
    #: Bad options of this game and the word the error must name.
    bad: tuple = ()

    @property
    def make_options(self) -> dict:
        return {**self.config.options, **self.options}


CASES = [
    EnvCase("solowhist", BY_ID["solowhist"], bad=(({"unit": 0}, "unit"),)),
    *(
        EnvCase(
            f"troggu{n}",
            BY_ID[f"troggu{n}"],
            bad=(
                ({"players": 9}, "players.*9"),
                ({"players": 2}, "players.*2"),
                ({"players": "5"}, "players.*'5'"),
                ({"num_deals": 0}, "num_deals"),
            ),
        )
        for n in (3, 5, 8)
    ),
    EnvCase(
        "phat",
        BY_ID["phat"],
        continues_match=True,
        bad=(
            ({"episode": "match"}, "episode.*'match'"),
            ({"episode": None}, "episode.*None"),
            ({"games_in_match": 0}, "games_in_match"),
            ({"target": 181.0}, "target"),
            ({"players": 4}, "unknown option.*players"),
        ),
    ),
    EnvCase("phat-game", BY_ID["phat"], {"episode": "game"}, race=True),
    *(
        EnvCase(
            f"pinochle-{mode}",
            BY_ID[f"pinochle-{mode}"],
            bad=(
                ({"mode": "x"}, "mode"),
                ({"pass_count": 5}, "pass_count"),
                ({"max_bid": 1000}, "max_bid"),
            ),
        )
        for mode in ("kitty", "exchange")
    ),
]

pytestmark = pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])


def make(case: EnvCase, **kwargs):
    """The unwrapped env, as ``gymnasium.make`` builds it."""
    return gym.make(case.config.env_id, **case.make_options, **kwargs).unwrapped


def constants(config: Config):
    """The game's constants module (its phase names)."""
    return importlib.import_module(f"trickgym.games.{config.name}.constants")


def n_seats(case: EnvCase) -> int:
    return case.config.options.get("players", 4)


def legal(mask) -> np.ndarray:
    return np.flatnonzero(np.asarray(mask))


def play_episode(env, rng, seed=None, check=None):
    """One episode with random legal actions: ``(observations, last reward)``.

    ``check(obs, reward, done)`` runs after every step.
    """
    obs, _ = env.reset(seed=seed)
    trace, done, reward = [obs], False, 0.0
    while not done:
        obs, reward, done, truncated, _ = env.step(int(rng.choice(legal(obs["action_mask"]))))
        assert not truncated
        trace.append(obs)
        if check:
            check(obs, reward, done)
    return trace, reward


# ------------------------------------------------------------------- checker


def test_check_env(case):
    """Gymnasium's checker passes for the first and the last seat, with ansi rendering."""
    for seat in (0, n_seats(case) - 1):
        env = make(case, seat=seat, render_mode="ansi")
        check_env(env, skip_render_check=False)
        env.reset(seed=1)
        text = env.render()
        assert isinstance(text, str) and case.config.title in text
    assert case.config.env_id in trickgym.envs.ENV_IDS and case.config.env_id in gym.registry
    assert make(case).render() is None


# ------------------------------------------------------------ episodes, rewards


def test_random_episodes(case):
    """Observations in the space, masks agreeing, legal samples, the reward at the end only."""
    n = n_seats(case)
    over = len(constants(case.config).PHASE_NAMES) - 1  # the last phase: the deal is over
    nonzero = episodes = 0
    for seat in sorted({0, n // 2, n - 1}):
        env = make(case, seat=seat)
        env.action_space.seed(seat)
        for episode in range(6):
            obs, info = env.reset(seed=100 * seat + episode)
            assert env.observation_space.contains(obs) and obs["seat"] == seat
            assert set(info) == {"contract", "declarer", "legal_actions"}
            assert info["legal_actions"] == obs["action_mask"].sum()
            done = False
            while not done:
                mask = obs["action_mask"]
                assert mask.dtype == np.int8 and mask.sum() >= 1
                assert mask.shape == (env.action_space.n,) and obs["phase"] != over
                np.testing.assert_array_equal(env.action_masks(), mask.astype(bool))
                assert env.action_masks().dtype == np.bool_
                action = env.action_space.sample()
                assert mask[action] == 1, (action, legal(mask))
                obs, reward, done, truncated, info = env.step(action)
                assert env.observation_space.contains(obs), obs
                assert not truncated and "illegal_action" not in info
                if not done:
                    assert reward == 0.0
            state = env.state
            assert state.is_over and obs["phase"] == over
            assert not obs["action_mask"].any() and not env.action_masks().any()
            payoffs = state.payoffs
            assert len(payoffs) == n and payoffs.sum() == 0
            if case.config.teams:
                assert all(payoffs[s] == payoffs[(s + 2) % 4] for s in range(4))
            if case.race:
                assert state.record["game_over"]
                assert reward == (1.0 if int(state.record["winner"]) == seat % 2 else -1.0)
            else:
                assert reward == float(payoffs[seat])
            nonzero += reward != 0
            episodes += 1
    assert nonzero > episodes // 2


def test_seeds_reproduce_episodes(case):
    """One seed and one action sequence: identical traces over resets; other seeds, other deals."""

    def trace(env, seed, episodes=3):
        rng = np.random.default_rng(4)
        out = []
        for episode in range(episodes):
            obs, _ = env.reset(seed=seed if episode == 0 else None)
            out.append((obs, 0.0, False))
            done = False
            while not done:
                obs, reward, done, _, _ = env.step(int(rng.choice(legal(obs["action_mask"]))))
                out.append((obs, reward, done))
        return out

    seat = n_seats(case) - 1
    a = trace(make(case, seat=seat), 11)
    b = trace(make(case, seat=seat), 11)
    assert len(a) == len(b)
    for i, ((oa, ra, da), (ob, rb, db)) in enumerate(zip(a, b, strict=True)):
        assert_obs_equal(oa, ob, f"step {i}")
        assert ra == rb and da == db, f"step {i}"
    env = make(case)
    deals = set()
    for seed in range(10):
        env.reset(seed=seed)
        deals.add(tuple(holdings(env.state.record, env.game)))
    assert len(deals) == 10


def test_reset_starts_from_zero_scores(case):
    """A reset starts a new match (Phat "deal" episodes: the next deal of the match)."""
    env = make(case, seat=1)
    rng = np.random.default_rng(0)
    carried = 0
    for episode in range(4):
        trace, _ = play_episode(env, rng, seed=None if episode else 3)
        carried += bool(np.any(trace[0]["scores"]))
    assert carried == 0 if not case.continues_match else carried > 0
    obs, _ = env.reset(seed=21)
    assert not np.any(obs["scores"])  # a seeded reset starts a new match in every env
    assert_obs_equal(obs, make(case, seat=1).reset(seed=21)[0])


# ------------------------------------------------------------ illegal actions


def test_illegal_action_raise(case):
    """``illegal_action="raise"`` names the action and the legal ones; the state is unchanged."""
    env = make(case, seat=n_seats(case) - 1, illegal_action="raise")
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.state.array.copy()
    with pytest.raises(ValueError, match=rf"illegal action {illegal}\b") as err:
        env.step(illegal)
    for a in legal(obs["action_mask"]):
        assert str(int(a)) in str(err.value)
    assert same_state(env.state.array, before)
    env.step(int(legal(obs["action_mask"])[0]))  # still playable


def test_illegal_action_terminates(case):
    """By default an illegal action ends the episode with the worst payoff's reward (or
    the penalty set)."""
    env = make(case)
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-env.reward_bound, True, False)
    assert env.reward_bound == (
        1 if getattr(env, "episode", "deal") == "game" else env.game.payoff_bound
    )
    assert info["illegal_action"] is True and info["legal_actions"] == 0
    with pytest.raises(ValueError, match="reset"):
        env.step(int(legal(obs["action_mask"])[0]))
    env = make(case, illegal_penalty=7)
    env.reset(seed=3)
    assert env.step(illegal)[1] == -7.0


def test_step_before_reset(case):
    with pytest.raises(ValueError, match="reset"):
        make(case).step(0)


def test_observations_are_not_views(case):
    """A returned observation does not change when the env steps on."""
    env = make(case)
    obs, _ = env.reset(seed=5)
    saved = {k: np.array(v, copy=True) for k, v in obs.items()}
    rng = np.random.default_rng(0)
    done = False
    while not done:
        _, _, done, _, _ = env.step(int(rng.choice(legal(env.action_masks()))))
    assert_obs_equal(obs, saved)


# ------------------------------------------------------------------ opponents


def test_python_agent_opponents(case):
    """Opponents may be Python agents, alone or mixed with built-in names."""
    n = n_seats(case)
    seat = n // 2
    mixed = [RandomAgent(2), "random", RandomAgent(3), *["rule"] * (n - 4)][: n - 1]
    for opponents in (RandomAgent(1), mixed):
        env = make(case, seat=seat, opponents=opponents)
        rng = np.random.default_rng(0)
        for episode in range(2):
            _, reward = play_episode(env, rng, seed=episode)
            assert env.state.is_over
            if not case.race:
                assert reward == env.state.payoffs[seat]


def test_opponents_play_the_seats_after_the_learner(case):
    """``opponents[i]`` plays seat ``seat + 1 + i``: a Python agent sees its own seat."""

    class Recorder(RandomAgent):
        def __init__(self, seed):
            super().__init__(seed)
            self.seats = set()

        def act(self, observation, action_mask):
            self.seats.add(int(observation["seat"]))
            return super().act(observation, action_mask)

    n = n_seats(case)
    recorder = Recorder(0)
    opponents = ["random"] * (n - 1)
    opponents[1] = recorder
    env = make(case, seat=2, opponents=opponents)
    play_episode(env, np.random.default_rng(0), seed=0)
    assert recorder.seats == {(2 + 2) % n}


@pytest.mark.filterwarnings("ignore:.*render_mode")
def test_bad_arguments(case):
    """Bad constructor arguments raise ValueError naming the bad value, at construction."""
    n = n_seats(case)
    common = [
        ({"seat": n}, rf"seat.*0\.\.{n - 1}.*{n}"),
        ({"seat": -1}, "seat.*-1"),
        ({"seat": 1.0}, "1.0"),
        ({"seat": True}, "seat.*True"),
        ({"opponents": ["random"] * n}, rf"opponents.*list of {n - 1}"),
        ({"opponents": ["random"] * (n - 2)}, rf"opponents.*list of {n - 1}"),
        ({"opponents": "nobody"}, "nobody"),
        ({"opponents": ["random", "nobody", *["random"] * (n - 3)]}, "nobody"),
        ({"opponents": RandomAgent}, "RandomAgent"),
        ({"opponents": 5}, "5"),
        ({"colour": "red"}, "colour"),
        ({"render_mode": "human"}, "human"),
        ({"illegal_action": "ignore"}, "ignore"),
    ]
    for kwargs, named in [*common, *case.bad]:
        options = {**case.make_options, **kwargs}
        with pytest.raises(ValueError, match=named):
            gym.make(case.config.env_id, **options)


# ------------------------------------------------------------------ vector env


def test_vector_env_steps_like_single_envs(case):
    """The native vector env equals ``SyncVectorEnv`` over single envs, step by step.

    Sub-env ``i`` of ``reset(seed=s)`` is the single env seeded ``s + i``;
    later episodes (autoreset) draw from each sub-env's own generator. Rule
    and random opponents, and a few illegal actions for the illegal-action
    path. With ``deal_infos=True`` the infos are ``SyncVectorEnv``'s too.
    """
    n_envs, steps = 4, 40
    n = n_seats(case)
    opponents = ["random" if i % 2 else "rule" for i in range(n - 1)]
    options = {**case.make_options, "seat": n - 1, "opponents": opponents}
    native = gym.make_vec(
        case.config.env_id,
        num_envs=n_envs,
        vectorization_mode="vector_entry_point",
        parallel=False,
        deal_infos=True,
        **options,
    )
    sync = SyncVectorEnv(
        [lambda: gym.make(case.config.env_id, **options) for _ in range(n_envs)],
        autoreset_mode=AutoresetMode.NEXT_STEP,
    )
    assert native.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert native.observation_space == sync.observation_space
    rng = np.random.default_rng(7)
    obs_n, info_n = native.reset(seed=11)
    obs_s, info_s = sync.reset(seed=11)
    assert_obs_equal(obs_n, obs_s, "reset")
    assert info_n.keys() == info_s.keys()
    for key in info_n:
        np.testing.assert_array_equal(info_n[key], info_s[key])
    assert native.observation_space.contains(obs_n)
    episodes = 0
    for t in range(steps):
        actions = np.zeros(n_envs, dtype=np.int64)
        for i, row in enumerate(obs_s["action_mask"]):
            pool = legal(row) if rng.random() > 0.02 else legal(row == 0)
            actions[i] = rng.choice(pool) if pool.size else 0
        obs_n, rew_n, term_n, trunc_n, info_n = native.step(actions)
        obs_s, rew_s, term_s, trunc_s, info_s = sync.step(actions)
        assert_obs_equal(obs_n, obs_s, f"step {t}")
        np.testing.assert_array_equal(rew_n, rew_s, err_msg=f"rewards at step {t}")
        np.testing.assert_array_equal(term_n, term_s, err_msg=f"terminated at step {t}")
        np.testing.assert_array_equal(trunc_n, trunc_s)
        assert info_n.keys() == info_s.keys(), f"infos at step {t}"
        for key in info_n:
            np.testing.assert_array_equal(info_n[key], info_s[key])
        episodes += int(term_n.sum())
    assert episodes >= n_envs  # autoreset was exercised
    seeds = [3, 4, 5, 6]
    assert_obs_equal(native.reset(seed=seeds)[0], sync.reset(seed=seeds)[0], "reseed")
