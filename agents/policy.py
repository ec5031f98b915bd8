"""Your policy as an agent: numpy weights or a batched callable over the features observation.

A *policy* maps a batch of feature vectors (``obs_mode="features"``,
:mod:`trickgym.games.obs_features`) and legal-action masks to actions. It is
one of:

- a path to a ``.npz`` file of a tanh MLP, ``w0, b0, w1, b1, ..., wK, bK``
  (``w0`` is ``float[n_features, h0]``, ..., ``wK`` ``float[hK-1,
  n_actions]``; tanh between the layers, none after the last), the format
  :func:`save_policy` writes (``policy.npz`` of
  ``experiments/cleanrl_masked_ppo.py`` and ``sb3_masked_ppo.py``);
- the same weights as a dict of arrays (:class:`MLPPolicy`);
- any callable ``policy(features, action_mask)`` taking ``float32[k,
  n_features]`` and ``bool[k, n_actions]`` and returning ``k`` integer
  actions or ``float[k, n_actions]`` logits (the legal action of highest
  logit is played): a PyTorch module wrapped in ``torch.no_grad()``, a
  JAX function, a lookup table.

Settings. :func:`save_policy` stores, beside the weights, what the policy
was trained for (:class:`PolicySettings`, JSON in the array
``trickgym_settings``): the game and its table options (Troggu's
``players``, Pinochle's ``mode``), the observation mode, and its
``bidding``: ``"policy"`` (it makes every decision) or ``"rule"`` (trained
with the envs' ``bidding="rule"``: the rule agent bids, discards and calls
for it, it plays the cards). Every loader uses them: the file plays with
its own bidding unless told otherwise, and playing it at another game or
table is refused, naming both. A file of bare ``w0, b0, ...`` arrays (no
settings, as written before them) still loads: its ``settings`` is
``None`` and it bids with the policy, as before.

:class:`PolicyAgent` (``policy_agent(game, policy)``) plays it at one seat:
it encodes the seat's observation record as the features observation, so it
acts only on that seat's information. The agent is usable everywhere an
agent is: ``simulate`` (threads, Dask), ``tournament``, the single, vector
and PettingZoo envs, ``trickgym play``. By name, wherever agent names are
taken (``--agents policy:out/policy.npz,rule``, ``opponents=``, comma
lists):

- ``policy:PATH``: the policy file at PATH, with the bidding its settings
  give (``policy`` for a file without settings);
- ``policy:PATH:bidding=rule`` or ``policy:PATH:bidding=policy``: the same
  file with that bidding whatever its settings say.

``register_agent("mine", from_policy(callable_or_path))`` names any
policy. :func:`trickgym.evaluate` plays one against ``random``, ``rule`` and
``pimc`` in duplicate tournaments (``bidding=`` there, ``--bidding`` in
``trickgym evaluate``, overrides the file's as the name's ``:bidding=`` does).
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np

from trickgym.agents.rows import record_features, seen_rows
from trickgym.api import Game
from trickgym.checks import check_choice, check_int, check_path, check_seed
from trickgym.engine.loops import rule_choice
from trickgym.engine.params import params_matrix
from trickgym.games import GAMES
from trickgym.games import game as make_game
from trickgym.games.obs_features import feature_plan
from trickgym.npzfile import check_finite, load_npz, npz_path
from trickgym.rng import mix64

__all__ = [
    "POLICY_PREFIX",
    "SETTINGS_KEY",
    "MLPPolicy",
    "PolicyAgent",
    "PolicySettings",
    "RuleBiddingPolicyAgent",
    "from_policy",
    "load_policy",
    "parse_policy_name",
    "policy_agent",
    "save_policy",
]

POLICY_PREFIX = "policy:"  # agent names "policy:PATH" play the policy file at PATH
#: The array of a policy file holding its settings (JSON text, a 0-d unicode array).
SETTINGS_KEY = "trickgym_settings"
#: The settings' format number: a file of a later format is refused, never half-read.
SETTINGS_FORMAT = 1
BIDDINGS = ("policy", "rule")
OBS_MODES = ("features",)  # what a policy agent encodes for its policy
#: The agent-name forms of a policy file (named in every message about a bad one).
BIDDING_MARK = ":bidding="  # policy:PATH:bidding=rule overrides the file's bidding
NAME_FORMS = "policy:PATH, policy:PATH:bidding=rule or policy:PATH:bidding=policy"


class MLPPolicy:
    """A tanh MLP in numpy: ``weights`` ``{"w0", "b0", ..., "wK", "bK"}`` -> logits.

    Called as ``policy(features, action_mask)``, it returns
    ``float[k, n_actions]`` logits (tanh after every layer but the last).
    ``settings``: what it was trained for (:class:`PolicySettings`, from
    :func:`load_policy`), or ``None`` (weights alone).
    """

    settings: PolicySettings | None = None

    def __init__(self, weights, source: str = "weights"):
        if not hasattr(weights, "keys"):
            raise ValueError(
                f"{source} must hold arrays w0, b0, w1, b1, ... (a dict or an .npz file), "
                f"got {type(weights).__name__}"
            )
        keys = set(weights.keys())
        n = 0
        while f"w{n}" in keys:
            n += 1
        expected = {f"{p}{k}" for k in range(n) for p in "wb"}
        if n == 0 or keys != expected:
            raise ValueError(
                f"{source} must hold exactly the arrays w0, b0, ..., wK, bK of a tanh MLP "
                f"(as experiments/cleanrl_masked_ppo.py writes), got {sorted(keys)}"
            )
        layers = []
        for k in range(n):
            w = np.asarray(weights[f"w{k}"])
            b = np.asarray(weights[f"b{k}"])
            if w.ndim != 2 or b.shape != (w.shape[1],) or not _is_real(w) or not _is_real(b):
                raise ValueError(
                    f"{source}: w{k} must be a real float[n_in, n_out] and b{k} float[n_out], "
                    f"got w{k} {w.dtype}{list(w.shape)} and b{k} {b.dtype}{list(b.shape)}"
                )
            if layers and w.shape[0] != layers[-1][0].shape[1]:
                raise ValueError(
                    f"{source}: w{k} takes {w.shape[0]} inputs but layer {k - 1} gives "
                    f"{layers[-1][0].shape[1]}"
                )
            with np.errstate(over="ignore"):  # 1e300 becomes inf: refused just below
                layers.append((w.astype(np.float32), b.astype(np.float32)))
        # NaN or infinite weights would play on, every logit NaN: the argmax's first action.

        check_finite(
            {
                f"{p}{k}": a
                for k, pair in enumerate(layers)
                for p, a in zip("wb", pair, strict=True)
            },
            source,
            "retrain the policy, or give weights written without NaN or infinity",
        )
        self.layers = layers
        self.source = source

    @property
    def n_inputs(self) -> int:
        """The feature vector size the first layer takes."""
        return self.layers[0][0].shape[0]

    @property
    def n_outputs(self) -> int:
        """The number of logits the last layer gives (the game's actions)."""
        return self.layers[-1][0].shape[1]

    def __repr__(self) -> str:
        sizes = [self.n_inputs, *(w.shape[1] for w, _ in self.layers)]
        return f"MLPPolicy({'-'.join(map(str, sizes))}, {self.source})"

    def __call__(self, features: np.ndarray, action_mask=None) -> np.ndarray:
        """Logits ``float32[k, n_actions]`` of a batch of feature vectors."""
        x = np.asarray(features, dtype=np.float32)
        last = len(self.layers) - 1
        for k, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if k < last:
                x = np.tanh(x)
        return x


def _is_real(a: np.ndarray) -> bool:
    return np.issubdtype(a.dtype, np.floating) or np.issubdtype(a.dtype, np.integer)


#: What to do about a bad policy file (the end of every message about one).
POLICY_HINT = (
    "give the policy.npz that trickgym.agents.policy.save_policy writes (as "
    "experiments/cleanrl_masked_ppo.py and sb3_masked_ppo.py do: arrays w0, b0, ..., wK, bK "
    "and their settings)"
)


@dataclasses.dataclass(frozen=True)
class PolicySettings:
    """What a policy file was trained for (written by :func:`save_policy`).

    ``game`` and ``options`` (the table options that differ from the
    defaults, as ``trickgym.game(game, **options)`` takes them),
    ``obs_mode`` (``"features"``), ``bidding`` (``"policy"`` or
    ``"rule"``), the network's ``n_features`` and ``n_actions``, and
    ``extra``: free JSON values (trainer, steps, seed...). ``format`` is
    :data:`SETTINGS_FORMAT`.
    """

    format: int
    game: str
    options: dict
    obs_mode: str
    bidding: str
    n_features: int
    n_actions: int
    extra: dict = dataclasses.field(default_factory=dict)

    @property
    def table(self) -> str:
        """The game and its options for people: ``"troggu players=5"``."""
        return table_label(self.game, self.options)

    def to_json(self) -> str:
        """The settings as the JSON text stored in the file."""
        return json.dumps(dataclasses.asdict(self), allow_nan=False, sort_keys=True)


def table_label(name: str, options: dict) -> str:
    """``"troggu players=5"``: a game's name and its non-default options."""
    return " ".join([name, *(f"{k}={v}" for k, v in sorted(options.items()))])


def save_policy(
    path, weights, *, game, obs_mode: str = "features", bidding: str = "policy", **extra
) -> Path:
    """Write ``weights`` (``{"w0", "b0", ..., "wK", "bK"}``) and their settings to ``path``.

    ``game``: the trickgym ``Game`` the policy was trained on
    (``env.unwrapped.game``; a name for a game without required options):
    its name and its non-default table options are recorded. ``bidding``:
    ``"rule"`` for a policy trained with the envs' ``bidding="rule"``,
    ``"policy"`` if it makes every decision. ``**extra``: JSON values to
    keep (``trainer="cleanrl"``, ``steps=20000``, ``seed=1``). The weights
    must fit the game's features and actions. The folder is created; the
    file is written whole or not at all (a temporary file renamed). Returns
    the path. :func:`load_policy` reads it back.
    """
    game = _as_game(game)
    obs_mode = check_choice("obs_mode", obs_mode, OBS_MODES)
    bidding = check_choice("bidding", bidding, BIDDINGS)
    path = Path(check_path("path", path, "file path"))
    policy = MLPPolicy(weights)
    _check_fits(policy, game, feature_plan(game).size)
    for key, value in extra.items():
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError):
            raise ValueError(
                f"save_policy: extra {key}={value!r} is not a JSON value (give numbers, "
                "strings, booleans, None, lists or dicts of them)"
            ) from None
    settings = PolicySettings(
        format=SETTINGS_FORMAT,
        game=game.name,
        options=game.non_default_options(),
        obs_mode=obs_mode,
        bidding=bidding,
        n_features=policy.n_inputs,
        n_actions=policy.n_outputs,
        extra=dict(extra),
    )
    arrays = {f"{p}{k}": np.asarray(weights[f"{p}{k}"]) for k in range(len(policy.layers))
              for p in "wb"}  # fmt: skip
    arrays[SETTINGS_KEY] = np.array(settings.to_json())
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as f:  # a file object: np.savez appends no ".npz"
            np.savez(f, **arrays)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return path


def load_policy(path) -> MLPPolicy:
    """The :class:`MLPPolicy` of a ``.npz`` weights file (``ValueError`` if it is not one).

    The file is read by :func:`trickgym.npzfile.load_npz`: a missing, empty,
    non-zip, damaged or oversized file is refused before anything is allocated.
    Its ``settings`` are read too (:class:`PolicySettings`; ``None`` for a
    file of weights alone); malformed settings are refused, naming the file
    and the value.
    """
    where = f"policy file {str(npz_path(path, 'policy path'))!r}"
    weights = load_npz(path, "policy file", POLICY_HINT)
    stored = weights.pop(SETTINGS_KEY, None)
    policy = MLPPolicy(weights, source=where)
    if stored is not None:
        policy.settings = _read_settings(stored, policy, where)
    return policy


_SETTINGS_TYPES = {
    "format": int,
    "game": str,
    "options": dict,
    "obs_mode": str,
    "bidding": str,
    "n_features": int,
    "n_actions": int,
    "extra": dict,
}


def _read_settings(stored: np.ndarray, policy: MLPPolicy, where: str) -> PolicySettings:
    """The checked :class:`PolicySettings` of a file's settings array."""

    def bad(what: str) -> ValueError:
        return ValueError(f"{where}: {SETTINGS_KEY} {what}; {POLICY_HINT}")

    if stored.ndim != 0 or stored.dtype.kind != "U":
        raise bad(f"must be a 0-d unicode array of JSON, got {stored.dtype}{list(stored.shape)}")
    try:
        data = json.loads(str(stored))
    except ValueError as err:
        raise bad(f"is not JSON ({err})") from None
    if not isinstance(data, dict):
        raise bad(f"must be a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - set(_SETTINGS_TYPES))
    if unknown:
        raise bad(f"has unknown key(s) {', '.join(map(repr, unknown))}; known: "
                  f"{', '.join(_SETTINGS_TYPES)}")  # fmt: skip
    if data.get("format") != SETTINGS_FORMAT or type(data.get("format")) is not int:
        raise bad(f"has format {data.get('format')!r}; this trickgym reads format "
                  f"{SETTINGS_FORMAT} (a newer trickgym may read it)")  # fmt: skip
    data.setdefault("extra", {})
    for key, kind in _SETTINGS_TYPES.items():
        if key not in data:
            raise bad(f"lacks {key!r}")
        if type(data[key]) is not kind:
            raise bad(f"{key} must be a JSON {kind.__name__}, got {data[key]!r}")
    try:
        check_choice("game", data["game"], tuple(sorted(GAMES)))
        check_choice("obs_mode", data["obs_mode"], OBS_MODES)
        check_choice("bidding", data["bidding"], BIDDINGS)
        make_game(data["game"], **data["options"])  # the options are a table of the game
    except (ValueError, TypeError) as err:
        raise bad(f"holds a bad value: {err}") from None
    shape = (data["n_features"], data["n_actions"])
    if shape != (policy.n_inputs, policy.n_outputs):
        raise bad(f"says {shape[0]} features to {shape[1]} actions but the weights map "
                  f"{policy.n_inputs} to {policy.n_outputs}")  # fmt: skip
    return PolicySettings(**data)


def _as_policy(policy) -> Callable:
    """A callable ``policy(features, mask)`` from a path, a weights dict or a callable."""
    if isinstance(policy, str | Path):
        return load_policy(policy)
    if isinstance(policy, dict):
        return MLPPolicy(policy)
    if callable(policy) and not isinstance(policy, type):
        return policy
    raise ValueError(
        "policy must be a path to an .npz file of MLP weights, a dict of them (w0, b0, ...) "
        f"or a callable policy(features, action_mask) -> actions or logits, got {policy!r}"
    )


class PolicyAgent:
    """A fair agent that plays a policy over the features observation (see the module doc).

    ``policy``: a path to ``.npz`` MLP weights, a dict of them, or a
    callable ``policy(features, action_mask)`` returning actions or
    logits for a batch. With logits the agent plays the legal action of
    highest logit (greedy, so it needs no random generator). MLP weights
    whose input or output size does not fit ``game`` raise ``ValueError``.
    """

    def __init__(self, game, policy):
        self.game = _as_game(game)
        self.policy = _as_policy(policy)
        self.plan = feature_plan(self.game)
        if isinstance(self.policy, MLPPolicy):
            _check_table(self.policy, self.game)
            _check_fits(self.policy, self.game, self.plan.size)

    def __repr__(self) -> str:
        return f"PolicyAgent({self.game.name}, {self.policy!r})"

    def start_deal(self, seed: int, seat: int) -> None:
        """Nothing to seed: the actions depend on the seat's features alone.

        Having the hook tells the simulator that the agent replays a deal
        whatever it played before, so a run may spread its deals over worker
        processes (:mod:`trickgym.sim.python_pool`). A callable policy that
        draws at random must seed its draws from the deal's ``seed`` to do so.
        """

    def deal_rng(self, seeds: np.ndarray, seat: int) -> np.ndarray:
        """No per-deal state (the actions depend on the features alone): zero words."""
        return np.zeros(len(seeds), dtype=np.uint64)

    def act_rows(self, states, rows, seats, rngs) -> np.ndarray:
        """The actions of seats ``seats`` in ``states[rows]``, one policy call for them all
        (:mod:`trickgym.agents.rows`). A policy whose sums depend on the batch's size
        (BLAS) may break an exact tie between logits otherwise than one row alone."""
        records, legal = seen_rows(self.game, states, rows, seats)
        return self.act_batch(record_features(self.game, self.plan, records), legal)

    def act_batch(self, features: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """``int64[k]``: the actions for a batch of feature vectors and legal masks.

        The vector env calls it once per round for every sub-env where the
        agent's seat is to move (any ``obs_mode``: it encodes the features).
        """
        mask = np.asarray(action_mask).astype(bool)
        out = np.asarray(self.policy(np.asarray(features, dtype=np.float32), mask))
        k, n_actions = mask.shape
        if out.shape == (k, n_actions) and np.issubdtype(out.dtype, np.number):
            return np.argmax(np.where(mask, out, -np.inf), axis=1).astype(np.int64)
        if out.shape == (k,) and np.issubdtype(out.dtype, np.integer):
            return out.astype(np.int64)
        raise ValueError(
            f"the policy must return {k} integer actions (shape ({k},)) or logits of shape "
            f"({k}, {n_actions}), got shape {out.shape} dtype {out.dtype}"
        )

    def act_record(self, record: np.ndarray, action_mask: np.ndarray) -> int:
        """The action for the seat whose observation record is ``record`` (one-record array)."""
        features = self.plan.observe(self.game, record, 0)["features"]
        return int(self.act_batch(features[None, :], np.asarray(action_mask)[None, :])[0])

    def act(self, observation, action_mask) -> int:
        """The action for one observation: a feature vector (``float32[n_features]``, the
        PettingZoo env's features observation), a features dict (``{"features": ...}``,
        the single env's) or the seat's observation record; the encoded dict is refused."""
        if isinstance(observation, np.ndarray) and observation.dtype == self.game.obs_dtype:
            return self.act_record(observation.reshape(-1)[:1], action_mask)
        if isinstance(observation, dict):
            if "features" not in observation:
                raise ValueError(
                    "PolicyAgent.act takes the features observation (obs_mode='features') or "
                    "the observation record, not the encoded observation dict "
                    f"(keys {sorted(observation)[:4]}...)"
                )
            observation = observation["features"]
        features = np.asarray(observation, dtype=np.float32).reshape(1, -1)
        if features.shape[1] != self.plan.size:
            raise ValueError(
                f"a feature vector of {self.game.name} has {self.plan.size} values, "
                f"got {features.shape[1]}"
            )
        return int(self.act_batch(features, np.asarray(action_mask)[None, :])[0])


def _as_game(game):
    """A trickgym ``Game`` from a ``Game`` or a game name."""
    if isinstance(game, str):
        game = make_game(game)
    if not isinstance(game, Game):
        raise ValueError(f"game must be a name or a trickgym Game, got {game!r}")
    return game


def _check_table(policy: MLPPolicy, game) -> None:
    """Refuse a policy whose settings name another game or table than ``game``'s."""
    s = policy.settings
    if s is None:
        return
    if s.game != game.name or make_game(s.game, **s.options).options != game.options:
        raise ValueError(
            f"{policy.source} was trained for {s.table}; this table is "
            f"{table_label(game.name, game.non_default_options())} (play it at the table it "
            "was trained for, or train one for this table)"
        )


def _check_fits(policy: MLPPolicy, game, n_features: int) -> None:
    if policy.n_inputs != n_features or policy.n_outputs != game.n_actions:
        raise ValueError(
            f"{policy.source} maps {policy.n_inputs} features to {policy.n_outputs} actions; "
            f"{game!r} needs {n_features} features to {game.n_actions} actions "
            "(w0 float[n_features, h], last w float[h, n_actions])"
        )


class RuleBiddingPolicyAgent(PolicyAgent):
    """A :class:`PolicyAgent` whose decisions before the card play are the rule agent's.

    For a policy trained with the envs' ``bidding="rule"`` (it learnt only
    the cards): bids, discards, exchanges and calls come from the rule
    agent on the same observation record, its random draws seeded per deal
    (``start_deal``). Decided one at a time (no ``act_batch``).
    """

    act_batch = None  # the vector env then asks act_record, one decision at a time
    act_rows = None  # and the simulator too

    def __init__(self, game, policy):
        super().__init__(game, policy)
        self.params = params_matrix(self.game, self.game.n_seats, None)
        self.rng = np.zeros(1, dtype=np.uint64)

    def __repr__(self) -> str:
        return f"RuleBiddingPolicyAgent({self.game.name}, {self.policy!r})"

    def start_deal(self, seed: int, seat: int) -> None:
        """Seed the rule agent's draws from the deal's derived seed."""
        check_int("seat", seat, 0, self.game.n_seats - 1)
        self.rng[0] = mix64(np.uint64(check_seed(seed, optional=False)))

    def act_record(self, record: np.ndarray, action_mask: np.ndarray) -> int:
        """The rule agent's action before the card play, the policy's in it."""
        if int(record[0]["phase"]) != self.game.play_phase:
            return rule_choice(record[0], self.params, self.rng)
        return PolicyAgent.act_batch(
            self, self.plan.observe(self.game, record, 0)["features"][None, :],
            np.asarray(action_mask)[None, :],
        )[0].item()  # fmt: skip

    def act(self, observation, action_mask) -> int:
        """The action for the seat's observation record (the rule agent needs the record)."""
        if not (isinstance(observation, np.ndarray) and observation.dtype == self.game.obs_dtype):
            raise ValueError(
                "a policy agent with bidding='rule' acts on the seat's observation record "
                "(the rule agent reads it), not on an encoded or features observation"
            )
        return self.act_record(observation.reshape(-1)[:1], action_mask)


def resolve_bidding(policy, bidding: str | None) -> str:
    """``bidding`` if given (checked), else the policy file's, else ``"policy"``."""
    if bidding is not None:
        return check_choice("bidding", bidding, BIDDINGS)
    settings = getattr(policy, "settings", None) if isinstance(policy, MLPPolicy) else None
    return settings.bidding if settings is not None else "policy"


def policy_agent(game, policy, bidding: str | None = None) -> PolicyAgent:
    """An agent playing ``policy`` at a seat of ``game`` (a name or ``Game``).

    ``bidding="rule"``: the rule agent makes the decisions before the card
    play (:class:`RuleBiddingPolicyAgent`), as the envs' ``bidding="rule"``
    did for the learner; ``"policy"``: the policy makes them all; ``None``
    (default): the policy file's settings say (``"policy"`` without them).
    """
    resolve_bidding(None, bidding)  # a bad value is named before the file is read
    loaded = _as_policy(policy)
    cls = RuleBiddingPolicyAgent if resolve_bidding(loaded, bidding) == "rule" else PolicyAgent
    return cls(game, loaded)


def from_policy(policy, bidding: str | None = None) -> Callable[..., PolicyAgent]:
    """A ``factory(game)`` for ``register_agent(name, from_policy(policy))``.

    A path is loaded once here (a missing or malformed file fails now, not
    at the first deal); every seat gets an agent sharing it (see
    :func:`policy_agent` for ``bidding``: by default the file's).
    """
    resolve_bidding(None, bidding)
    loaded = _as_policy(policy)

    def factory(game):
        return policy_agent(game, loaded, bidding)

    return factory


def parse_policy_name(name: str) -> tuple[str, str | None]:
    """``(path, bidding)`` of a ``"policy:PATH[:bidding=rule|policy]"`` agent name.

    ``bidding`` is ``None`` when the name gives none (the file's settings
    decide). A name of another form raises ``ValueError`` naming the forms.
    """
    if not isinstance(name, str) or not name.startswith(POLICY_PREFIX):
        raise ValueError(f"agent name {name!r} is not a policy name; the forms: {NAME_FORMS}")
    # ":bidding=" rather than a URL's "?": a shell leaves a colon alone, unquoted.
    path, mark, value = name[len(POLICY_PREFIX) :].rpartition(BIDDING_MARK)
    if not mark:
        path, value = value, None
    if not path:
        raise ValueError(
            f"agent name {name!r} names no file: write {NAME_FORMS}, e.g. policy:out/policy.npz"
        )
    if value is None:
        return path, None
    if value not in BIDDINGS:
        raise ValueError(
            f"agent name {name!r}: bidding={value!r} is not bidding=rule or bidding=policy; "
            f"the forms: {NAME_FORMS}"
        )
    return path, value


def policy_from_name(game, name: str, bidding: str | None = None) -> PolicyAgent:
    """The agent of a ``"policy:PATH"`` name (what ``make_agent`` calls).

    The bidding is ``bidding`` if given, else the name's ``:bidding=``,
    else the file's settings; a name and a ``bidding`` that disagree are refused.
    """
    path, named = parse_policy_name(name)
    if bidding is not None and named is not None and bidding != named:
        raise ValueError(
            f"agent name {name!r} says bidding={named} but bidding={bidding!r} was given: "
            "give one of them"
        )
    return policy_agent(game, path, bidding if bidding is not None else named)
