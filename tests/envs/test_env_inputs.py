"""Bad inputs to every env kind are refused with a ValueError naming them (issue 29).

A table of bad values for each constructor, ``reset`` and ``step``
parameter runs over every env kind (the single Gymnasium env, the native
vector env, the PettingZoo AEC env, and the SB3 adapter where it is
installed) and every game: each must raise ``ValueError`` whose message
names the parameter and the value given, never be taken as something else
(``reset(seed=True)`` as seed 1, ``copy="no"`` as True, ``step(2**70)`` as
an illegal action) nor crash with an ``IndexError``, ``OverflowError`` or
``MemoryError``. A refused ``reset`` or ``step`` leaves the env as it was:
the next legal step and the next unseeded reset give what they give on a
twin that never saw the bad call.

A failure says which of the three faults it found: ``SILENT`` (accepted),
``CRASH`` (another exception) or ``UNCLEAR`` (a ValueError not naming the
parameter or the value).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from conformance_helpers import BY_ID
from gymnasium.vector import AutoresetMode

import trickgym
from trickgym.envs import pettingzoo as tz
from trickgym.envs.inputs import MAX_ENVS

GAMES = ["solowhist", "troggu3", "phat", "pinochle-kitty"]
KINDS = ["single", "vector", "aec"]
N_ENVS = 2
MODES = ["terminate", "raise"]


class _NActions:
    """Stands for the game's ``n_actions`` (the first id outside the action space)."""

    def __repr__(self) -> str:
        return "n_actions"


N_ACTIONS = _NActions()


def make(kind: str, game: str, **kwargs):
    """An env of ``kind`` for the game configuration ``game`` (small, serial)."""
    config = BY_ID[game]
    options = {**config.options, **kwargs}
    if kind == "single":
        return gym.make(config.env_id, **options).unwrapped
    if kind == "vector":
        options = {"num_envs": N_ENVS, "parallel": False, **options}
        return gym.make_vec(config.env_id, vectorization_mode="vector_entry_point", **options)
    return tz.env(config.name, **options)


def refused(call, *names) -> str:
    """``call()`` raises a ValueError whose message has every one of ``names``."""
    try:
        call()
    except ValueError as err:
        message = str(err)
        missing = [n for n in names if n not in message]
        assert not missing, f"UNCLEAR: {message!r} does not name {missing}"
        return message
    except Exception as err:  # which exception it was is the finding
        pytest.fail(f"CRASH: {type(err).__name__}: {err}")
    pytest.fail(f"SILENT: {names} accepted")


def shown(value) -> str:
    """How a message shows ``value``: numbers as digits, the rest as ``repr``."""
    if isinstance(value, np.ma.MaskedArray):
        return "masked array (its mask would be ignored)"
    if isinstance(value, bool | np.bool_):
        return repr(bool(value))
    if isinstance(value, np.integer):
        return str(int(value))
    if isinstance(value, float | np.floating):
        return repr(float(value))
    return repr(value)


# ------------------------------------------------------------------ the table

BIG = [2**63, 2**64, 2**70]
NOT_INT = [True, 1.5, "1", None, float("nan"), float("inf")]

#: (parameter, bad values, env kinds it applies to). Values are for a
#: parameter that wants an int, a name or a flag.
CONSTRUCTOR = [
    ("seat", [True, False, 1.5, "0", None, -1, 4, *BIG, float("nan")], KINDS[:2]),
    ("opponents", [None, 5, True, "nobody", [], ["random"] * 5, 1.5], KINDS[:2]),
    ("render_mode", ["human", True, 1, 5, "ANSI", ["ansi"]], ["single", "aec"]),
    ("illegal_action", ["ignore", None, True, 0, "Raise", ["raise"]], KINDS),
    ("illegal_penalty", [float("nan"), float("inf"), -1, 1e300, "100", True], KINDS),
    ("obs_mode", ["flat", None, True, 0, ["dict"]], KINDS),
    ("rule_options", [5, "fitted", [None, None]], KINDS[:2]),
    ("num_envs", [0, -1, True, 1.5, "2", None, 2**40, *BIG, float("nan")], ["vector"]),
    ("copy", ["no", "yes", 1, 0, None, float("nan")], ["vector"]),
    ("parallel", [1, 0, "yes", "no", 1.0], ["vector"]),
    ("autoreset_mode", ["bogus", AutoresetMode.DISABLED, 1, None, True], ["vector"]),
    ("bidding", ["pc", None, True, 0], ["vector"]),
]
#: Per-game options of the same kinds (Phat's ``episode`` is the Gymnasium envs' own).
GAME_OPTIONS = {
    "troggu3": [("players", [True, 2, 9, 3.0, "5", None, 2**70], KINDS)],
    "phat": [("episode", ["match", None, True, 0], KINDS[:2])],
    "pinochle-kitty": [("mode", ["x", None, 1], KINDS)],
    "solowhist": [("unit", [True, 0, 2**70, 5.0, None], KINDS)],
}

SEEDS = [True, False, -1, -(2**63), 1.5, "1", 2**64, 2**70, float("nan"), np.float64(1.0), [1]]

ACTIONS = [
    -1,
    N_ACTIONS,
    2**31,
    *BIG,
    np.uint64(2**64 - 1),
    np.int64(-1),
    1.5,
    float("nan"),
    float("inf"),
    "1",
    True,
    None,
    [0],
    np.array([0]),
    np.ma.array(0, mask=False),  # np.asarray drops a mask: refused, masked or not
    np.ma.array(0, mask=True),
]

VECTOR_ACTIONS = [
    ("float", np.zeros(N_ENVS)),
    ("bool", np.zeros(N_ENVS, dtype=bool)),
    ("str", np.array(["0"] * N_ENVS)),
    ("short", np.zeros(N_ENVS - 1, dtype=np.int64)),
    ("long", np.zeros(N_ENVS + 1, dtype=np.int64)),
    ("2d", np.zeros((N_ENVS, 1), dtype=np.int64)),
    ("scalar", 0),
    ("none", None),
    ("negative", np.array([0, -1])),
    ("n_actions", N_ACTIONS),
    ("uint64 max", np.array([0, 2**64 - 1], dtype=np.uint64)),
    ("huge list", [0, 2**70]),
    ("object", np.array([0, "1"], dtype=object)),
    ("ragged", [[0], [0, 1]]),
    ("float list", [0, 1.5]),
    ("bool in list", [True, 0]),  # np.asarray makes it int64 [1, 0]
    ("numpy bool in list", (0, np.True_)),
    ("masked", np.ma.array([0, 0], mask=[False, True])),  # the mask would be dropped
    ("masked, nothing masked", np.ma.array([0, 0])),
]


def _cases(table, kinds):
    return [
        pytest.param(kind, param, value, id=f"{kind}-{param}={value!r}")
        for param, values, where in table
        for value in values
        for kind in where
        if kind in kinds
    ]


# ------------------------------------------------------------------ helpers


def first_legal(kind: str, env, game: str):
    """A legal action (the lowest id) for the env as it stands."""
    if kind == "single":
        return int(np.flatnonzero(env.action_masks())[0])
    if kind == "vector":
        masks = env.action_masks()
        return np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in masks])
    return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])


def play_on(kind: str, env, game: str):
    """Two legal steps, then an unseeded reset and a step: all that the env returns."""
    out = []
    for _ in range(2):
        step = env.step(first_legal(kind, env, game))
        out.append(step if kind != "aec" else (env.agent_selection, env.last()))
    reset = env.reset()
    out.append(reset if kind != "aec" else env.observe(env.agent_selection))
    step = env.step(first_legal(kind, env, game))
    out.append(step if kind != "aec" else env.last())
    return out


def assert_same(a, b, where="") -> None:
    """Nested results equal, arrays elementwise."""
    if isinstance(a, dict):
        assert list(a) == list(b), where
        for key in a:
            assert_same(a[key], b[key], f"{where}/{key}")
    elif isinstance(a, list | tuple):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{where}[{i}]")
    else:
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b), err_msg=where)


def assert_unchanged_by(kind: str, game: str, bad_call, **kwargs) -> None:
    """``bad_call(env)`` after ``reset(seed=1)`` is refused and changes nothing."""
    env, twin = make(kind, game, **kwargs), make(kind, game, **kwargs)
    env.reset(seed=1)
    twin.reset(seed=1)
    message = bad_call(env)
    assert_same(play_on(kind, env, game), play_on(kind, twin, game), f"after {message!r}")


# ------------------------------------------------------------------ constructors


@pytest.mark.filterwarnings("ignore:.*render_mode")
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("kind", "param", "value"), _cases(CONSTRUCTOR, KINDS))
def test_bad_constructor_argument_is_refused(kind, game, param, value):
    refused(lambda: make(kind, game, **{param: value}), param, shown(value))


@pytest.mark.parametrize(
    ("kind", "game", "param", "value"),
    [
        pytest.param(kind, game, param, value, id=f"{kind}-{game}-{param}={value!r}")
        for game, table in GAME_OPTIONS.items()
        for param, values, kinds in table
        for value in values
        for kind in kinds
    ],
)
def test_bad_game_option_is_refused(kind, game, param, value):
    refused(lambda: make(kind, game, **{param: value}), param, shown(value))


@pytest.mark.parametrize("value", [None, 5, True, ["solowhist"]])
def test_aec_unknown_game_is_refused(value):
    refused(lambda: tz.env(value), "game", shown(value))


def test_num_envs_limit_is_documented_and_accepted():
    """The largest ``num_envs`` allowed is named in the message; the limit is a real one."""
    message = refused(lambda: make("vector", "solowhist", num_envs=MAX_ENVS + 1), "num_envs")
    assert f"1..{MAX_ENVS}" in message


# ------------------------------------------------------------------ reset


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", SEEDS, ids=repr)
def test_bad_seed_is_refused_and_changes_nothing(kind, game, seed):
    def bad(env):
        return refused(lambda: env.reset(seed=seed), "seed", shown(seed), "18446744073709551615")

    assert_unchanged_by(kind, game, bad)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("seed", "named"),
    [
        ([1, -1], "-1"),
        ([1, True], "True"),
        ([1, 1.5], "1.5"),
        ([1], "[1]"),
        ([1, 2, 3], "[1, 2, 3]"),
        (2**64 - 1, str(2**64 - 1)),  # sub-env 1 would be seeded 2**64
        ((1, "2"), "'2'"),
    ],
    ids=repr,
)
def test_bad_vector_seeds_are_refused_and_change_nothing(game, seed, named):
    assert_unchanged_by(
        "vector", game, lambda env: refused(lambda: env.reset(seed=seed), "seed", named)
    )


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", KINDS)
def test_numpy_and_largest_seeds_are_accepted(kind, game):
    """``np.int64(7)`` is seed 7 everywhere; ``2**64 - 1`` (minus the batch) is a seed."""
    a, b = make(kind, game), make(kind, game)
    a.reset(seed=7)
    b.reset(seed=np.int64(7))
    assert_same(play_on(kind, a, game), play_on(kind, b, game))
    top = 2**64 - 1 - (N_ENVS - 1 if kind == "vector" else 0)
    a.reset(seed=np.uint64(top))
    b.reset(seed=top)
    assert_same(play_on(kind, a, game), play_on(kind, b, game))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("options", ["x", 5, ["reset_mask"], True], ids=repr)
def test_reset_options_must_be_a_dict(kind, game, options):
    assert_unchanged_by(
        kind,
        game,
        lambda env: refused(lambda: env.reset(options=options), "options", shown(options)),
    )


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", ["single", "vector"])
def test_unknown_reset_options_are_refused(kind, game):
    """A misspelt key (``reset_maks``) would reset every env: refused, naming it."""
    options = {"reset_maks": np.ones(N_ENVS, dtype=bool)}
    assert_unchanged_by(
        kind, game, lambda env: refused(lambda: env.reset(options=options), "reset_maks")
    )


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "mask",
    [
        np.zeros(N_ENVS, dtype=bool),
        np.ones(N_ENVS, dtype=np.int64),
        np.ones(N_ENVS + 1, dtype=bool),
        "yes",
        None,
    ],
    ids=repr,
)
def test_bad_reset_mask_is_refused(game, mask):
    assert_unchanged_by(
        "vector",
        game,
        lambda env: refused(lambda: env.reset(options={"reset_mask": mask}), "reset_mask"),
    )


def test_aec_accepts_options_it_does_not_use():
    """PettingZoo's ``api_test`` resets with ``options={"options": 1}``: a dict is taken."""
    env = make("aec", "solowhist")
    env.reset(seed=0, options={"options": 1})


# ------------------------------------------------------------------ step


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", ["single", "aec"])
@pytest.mark.parametrize("action", ACTIONS, ids=repr)
def test_action_outside_the_space_is_refused_and_changes_nothing(kind, mode, game, action):
    """In either ``illegal_action`` mode: an id outside the space is no illegal move."""

    def bad(env):
        n = trickgym.game(BY_ID[game].name, **BY_ID[game].options).n_actions
        value = n if action is N_ACTIONS else action
        return refused(lambda: env.step(value), "action", shown(value), f"0..{n - 1}")

    assert_unchanged_by(kind, game, bad, illegal_action=mode)


# The check comes before the illegal_action branch; the raise mode's compiled
# check is built by the suite for Solo Whist only, so it runs there.
VECTOR_MODES = [(game, "terminate") for game in GAMES] + [("solowhist", "raise")]


@pytest.mark.parametrize(("game", "mode"), VECTOR_MODES)
@pytest.mark.parametrize(("what", "actions"), VECTOR_ACTIONS, ids=[w for w, _ in VECTOR_ACTIONS])
def test_bad_vector_actions_are_refused_and_change_nothing(game, mode, what, actions):
    def bad(env):
        value = actions
        if actions is N_ACTIONS:
            value = np.array([0, env.game.n_actions])
        # the message shows the bad entry, or the shape and dtype of what was given
        named = {
            "negative": "-1",
            "n_actions": str(env.game.n_actions),
            "uint64 max": str(2**64 - 1),
            "huge list": str(2**70),
            "object": "'1'",
            "float list": "1.5",
            "bool in list": "True (a bool, not an action id) for sub-env 0",
            "numpy bool in list": "(a bool, not an action id) for sub-env 1",
            "masked": "masked array (its mask would be ignored)",
            "masked, nothing masked": "masked array (its mask would be ignored)",
        }.get(what, "")
        return refused(lambda: env.step(value), "actions", named)

    assert_unchanged_by("vector", game, bad, illegal_action=mode)


@pytest.mark.parametrize("game", GAMES)
def test_in_space_illegal_action_keeps_its_behaviour(game):
    """An illegal id inside the space still ends the episode with the penalty."""
    env = make("single", game, illegal_penalty=3)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    assert env.step(illegal)[1:4] == (-3.0, True, False)
    vec = make("vector", game, illegal_penalty=3)
    obs, _ = vec.reset(seed=1)
    actions = np.array([np.flatnonzero(m == 0)[0] for m in obs["action_mask"]])
    _, rewards, terminated, _, infos = vec.step(actions)
    assert (
        rewards.tolist() == [-3.0] * N_ENVS and terminated.all() and infos["illegal_action"].all()
    )


# ------------------------------------------------------------------ lookups


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("i", [-1, N_ENVS, 1.5, True, "0", None, 2**70], ids=repr)
def test_vector_state_index_is_checked(game, i):
    env = make("vector", game)
    env.reset(seed=1)
    refused(lambda: env.state(i), "i", shown(i), f"0..{N_ENVS - 1}")


def test_vector_state_index_accepts_numpy_integers():
    env = make("vector", "solowhist")
    env.reset(seed=1)
    assert_same(env.state(np.int64(1)).array, env.state(1).array)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("agent", ["player_9", "player_-1", "player_0 ", 0, None, True], ids=repr)
def test_aec_unknown_agent_names_are_refused(game, agent):
    env = make("aec", game)
    env.reset(seed=1)
    for method in ("observe", "observation_space", "action_space"):
        refused(lambda m=method: getattr(env, m)(agent), "agent", shown(agent), "player_0")


@pytest.mark.parametrize("agent", [5, "nobody", None], ids=repr)
def test_vector_builtin_actions_names_the_agent(agent):
    env = make("vector", "solowhist")
    env.reset(seed=1)
    refused(lambda: env.builtin_actions(agent), shown(agent))


# ------------------------------------------------------------------ SB3 adapter


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"seed": -1}, "-1"),
        ({"seed": True}, "True"),
        ({"seed": "1"}, "'1'"),
        ({"num_envs": 2**70}, str(2**70)),
        ({"num_envs": 0}, "0"),
        ({"copy": "no"}, "'no'"),
    ],
    ids=repr,
)
def test_sb3_adapter_refuses_bad_arguments(kwargs, named):
    pytest.importorskip("stable_baselines3")
    from trickgym.envs.sb3 import SB3VecEnv

    name = next(iter(kwargs))
    refused(lambda: SB3VecEnv("trickgym/SoloWhist-v0", **{"num_envs": 2, **kwargs}), name, named)


@pytest.mark.parametrize(
    ("what", "actions"),
    [(w, a) for w, a in VECTOR_ACTIONS if w != "2d"],  # SB3 may give (n, 1): taken as (n,)
    ids=[w for w, _ in VECTOR_ACTIONS if w != "2d"],
)
def test_sb3_adapter_refuses_bad_actions(what, actions):
    pytest.importorskip("stable_baselines3")
    from trickgym.envs.sb3 import SB3VecEnv

    env = SB3VecEnv("trickgym/SoloWhist-v0", num_envs=N_ENVS, seed=1)
    env.reset()
    value = np.array([0, 66]) if actions is N_ACTIONS else actions
    refused(lambda: (env.step_async(value), env.step_wait()), "actions")
    refused(lambda: env.seed(-1), "seed", "-1")


# ------------------------------------------------------------------ AEC episode end


def play_out(env) -> None:
    """Play the AEC episode to its end (the lowest legal action), dead agents stepping None."""
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        done = terminated or truncated
        env.step(None if done else int(np.flatnonzero(obs["action_mask"])[0]))


@pytest.mark.parametrize("make_env", [tz.env, tz.raw_env], ids=["wrapped", "raw"])
def test_aec_step_after_every_agent_is_done_raises(make_env):
    """Once every agent is done a step is no silent no-op (the wrapper only logged a
    warning; the raw env raised KeyError): a ValueError saying to reset."""
    env = make_env("solowhist")
    env.reset(seed=1)
    play_out(env)
    assert env.agents == []
    for action in (None, 0):
        message = refused(lambda a=action: env.step(a), "the episode is over", "call reset()")
        assert message == tz.EPISODE_OVER
    env.reset(seed=2)  # and a reset starts the next episode as ever
    play_out(env)


def test_raw_aec_step_before_reset_is_named():
    refused(lambda: tz.raw_env("solowhist").step(0), "call reset() before step()")
