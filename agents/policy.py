"""Your policy as an agent: numpy weights or a batched callable over the features observation.

A *policy* maps a batch of feature vectors (``obs_mode="features"``,
:mod:`trickgym.games.obs_features`) and legal-action masks to actions. It is
one of:

- a path to a ``.npz`` file of a tanh MLP, ``w0, b0, w1, b1, ..., wK, bK``
  (``w0`` is ``float[n_features, h0]``, ..., ``wK`` ``float[hK-1,
  n_actions]``; tanh between the layers, none after the last), the format
  ``experiments/cleanrl_masked_ppo.py`` writes (``policy.npz``);
- the same weights as a dict of arrays (:class:`MLPPolicy`);
- any callable ``policy(features, action_mask)`` taking ``float32[k,
  n_features]`` and ``bool[k, n_actions]`` and returning ``k`` integer
  actions or ``float[k, n_actions]`` logits (the legal action of highest
  logit is played): a PyTorch module wrapped in ``torch.no_grad()``, a
  JAX function, a lookup table.

:class:`PolicyAgent` (``policy_agent(game, policy)``) plays it at one seat:
it encodes the seat's observation record as the features observation, so it
acts only on that seat's information. The agent is usable everywhere an
agent is: ``simulate`` (threads, Dask), ``tournament``, the single, vector
and PettingZoo envs, ``trickgym play``. By name: ``"policy:PATH.npz"`` is an
agent name wherever names are taken (``--agents policy:out/policy.npz,rule``),
and ``register_agent("mine", from_policy(callable_or_path))`` names any
policy. :func:`trickgym.evaluate` plays one against ``random``, ``rule`` and
``pimc`` in duplicate tournaments.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

__all__ = [
    "POLICY_PREFIX",
    "MLPPolicy",
    "PolicyAgent",
    "RuleBiddingPolicyAgent",
    "from_policy",
    "load_policy",
    "policy_agent",
]

POLICY_PREFIX = "policy:"  # agent names "policy:PATH" play the policy file at PATH


class MLPPolicy:
    """A tanh MLP in numpy: ``weights`` ``{"w0", "b0", ..., "wK", "bK"}`` -> logits.

    Called as ``policy(features, action_mask)``, it returns
    ``float[k, n_actions]`` logits (tanh after every layer but the last).
    """

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
        from trickgym.npzfile import check_finite

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
    "give the policy.npz that experiments/cleanrl_masked_ppo.py or sb3_masked_ppo.py writes "
    "(arrays w0, b0, ..., wK, bK)"
)


def load_policy(path) -> MLPPolicy:
    """The :class:`MLPPolicy` of a ``.npz`` weights file (``ValueError`` if it is not one).

    The file is read by :func:`trickgym.npzfile.load_npz`: a missing, empty,
    non-zip, damaged or oversized file is refused before anything is allocated.
    """
    from trickgym.npzfile import load_npz, npz_path

    where = f"policy file {str(npz_path(path, 'policy path'))!r}"
    weights = load_npz(path, "policy file", POLICY_HINT)
    return MLPPolicy(weights, source=where)


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
        from trickgym.api import Game
        from trickgym.games.obs_features import feature_plan

        if isinstance(game, str):
            import trickgym

            game = trickgym.game(game)
        if not isinstance(game, Game):
            raise ValueError(f"game must be a name or a trickgym Game, got {game!r}")
        self.game = game
        self.policy = _as_policy(policy)
        self.plan = feature_plan(game)
        if isinstance(self.policy, MLPPolicy):
            _check_fits(self.policy, game, self.plan.size)

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
        from trickgym.agents.rows import record_features, seen_rows

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
        from trickgym.agents.rule import params_matrix

        super().__init__(game, policy)
        self.params = params_matrix(self.game, self.game.n_seats, None)
        self.rng = np.zeros(1, dtype=np.uint64)

    def __repr__(self) -> str:
        return f"RuleBiddingPolicyAgent({self.game.name}, {self.policy!r})"

    def start_deal(self, seed: int, seat: int) -> None:
        """Seed the rule agent's draws from the deal's derived seed."""
        from trickgym.checks import check_int, check_seed
        from trickgym.rng import mix64

        check_int("seat", seat, 0, self.game.n_seats - 1)
        self.rng[0] = mix64(np.uint64(check_seed(seed, optional=False)))

    def act_record(self, record: np.ndarray, action_mask: np.ndarray) -> int:
        """The rule agent's action before the card play, the policy's in it."""
        from trickgym.agents.loops import rule_choice

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


BIDDINGS = ("policy", "rule")


def policy_agent(game, policy, bidding: str = "policy") -> PolicyAgent:
    """An agent playing ``policy`` at a seat of ``game`` (a name or ``Game``).

    ``bidding="rule"``: the rule agent makes the decisions before the card
    play (:class:`RuleBiddingPolicyAgent`), as the envs' ``bidding="rule"``
    did for the learner; ``"policy"`` (default): the policy makes them all.
    """
    from trickgym.checks import check_choice

    bidding = check_choice("bidding", bidding, BIDDINGS)
    cls = RuleBiddingPolicyAgent if bidding == "rule" else PolicyAgent
    return cls(game, policy)


def from_policy(policy, bidding: str = "policy") -> Callable[..., PolicyAgent]:
    """A ``factory(game)`` for ``register_agent(name, from_policy(policy))``.

    A path is loaded once here (a missing or malformed file fails now, not
    at the first deal); every seat gets an agent sharing it (see
    :func:`policy_agent` for ``bidding``).
    """
    from trickgym.checks import check_choice

    check_choice("bidding", bidding, BIDDINGS)
    loaded = _as_policy(policy)

    def factory(game):
        return policy_agent(game, loaded, bidding)

    return factory


def policy_from_name(game, name: str) -> PolicyAgent:
    """The agent of a ``"policy:PATH"`` name (what ``make_agent`` calls)."""
    path = name[len(POLICY_PREFIX) :]
    if not path:
        raise ValueError(
            f"agent name {name!r} names no file: write policy:PATH, e.g. policy:out/policy.npz"
        )
    return PolicyAgent(game, path)
