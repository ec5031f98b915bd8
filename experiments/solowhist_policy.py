"""A small numpy card-play policy for Solo Whist, and an agent that plays it.

Used by ``experiments/train_solowhist.py``. The policy sees the seat's
observation (the env's observation dict) through :func:`features`, which
turns the per-seat arrays so that index 0 is always the observing seat; it
scores the 52 cards with a one-hidden-layer network and picks among the
legal ones. Bidding (the auction, the Cop offer, upgrades, naming trumps)
is delegated to the built-in rule agent.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy_adam import Adam

import trickgym
from trickgym.agents.rule.solowhist import rule_action
from trickgym.engine.params import params_matrix
from trickgym.games.solowhist.constants import N_CARDS, PLAY

__all__ = ["N_FEATURES", "CardPolicy", "LearnedAgent", "RuleBidRandomPlay", "features"]

N_FEATURES = 52 + 3 * 52 + 52 + 16 + 5 + 8 + 4 + 4 + 52 + 5 + 5 + 1


def features(obs: dict[str, np.ndarray]) -> np.ndarray:
    """``float32[n, N_FEATURES]`` from a batch of observation dicts (arrays with a leading n).

    Per-seat entries are turned so that relative seat 0 is the observer, 1
    the next to play, and so on: a policy learnt at one seat plays at any.
    """
    seat = np.asarray(obs["seat"]).reshape(-1)
    n = seat.shape[0]
    rows = np.arange(n)[:, None]
    rel = (seat[:, None] + np.arange(4)) % 4  # absolute seat of each relative seat
    eye52 = np.eye(N_CARDS + 1, N_CARDS, dtype=np.float32)  # row 52 (card -1) is zeros
    trick = np.asarray(obs["trick"]).reshape(n, 4)[rows, rel]
    trick_cards = eye52[trick[:, 1:]].reshape(n, 3 * N_CARDS)
    played = np.asarray(obs["played"]).reshape(n, 4, N_CARDS).max(axis=1)
    voids = np.asarray(obs["voids"]).reshape(n, 4, 4)[rows, rel].reshape(n, 16)
    trumps = np.eye(5, dtype=np.float32)[np.asarray(obs["trumps"]).reshape(n)]
    contract = np.eye(8, dtype=np.float32)[np.asarray(obs["contract"]).reshape(n)]
    declarers = np.asarray(obs["declarers"]).reshape(n, 4)[rows, rel]
    tricks_won = np.asarray(obs["tricks_won"]).reshape(n, 4)[rows, rel] / 13.0
    leader = np.asarray(obs["trick_leader"]).reshape(n)
    rel_leader = np.where(leader >= 0, (leader - seat) % 4, 4)
    led_card = np.asarray(obs["trick"]).reshape(n, 4)[np.arange(n), np.maximum(leader, 0)]
    led_suit = np.where((leader >= 0) & (led_card >= 0), led_card // 13, 4)
    return np.concatenate(
        [
            np.asarray(obs["hand"]).reshape(n, N_CARDS),
            trick_cards,
            played,
            voids,
            trumps,
            contract,
            declarers,
            tricks_won,
            np.asarray(obs["exposed"]).reshape(n, N_CARDS),
            np.eye(5, dtype=np.float32)[rel_leader],
            np.eye(5, dtype=np.float32)[led_suit],
            np.ones((n, 1)),
        ],
        axis=1,
        dtype=np.float32,
    )


class CardPolicy:
    """A one-hidden-layer network: 52 card logits (masked to the legal cards) and a value.

    Trained by :meth:`update` (REINFORCE with the value as baseline, Adam).
    """

    def __init__(self, hidden: int = 128, seed: int = 0, lr: float = 1e-3):
        rng = np.random.default_rng(seed)
        f = N_FEATURES
        self.params = {
            "w1": (rng.standard_normal((f, hidden)) * np.sqrt(2.0 / f)).astype(np.float32),
            "b1": np.zeros(hidden, dtype=np.float32),
            "w2": (rng.standard_normal((hidden, N_CARDS)) * 0.01).astype(np.float32),
            "b2": np.zeros(N_CARDS, dtype=np.float32),
            "wv": np.zeros(hidden, dtype=np.float32),
            "bv": np.zeros(1, dtype=np.float32),
        }
        self.lr = lr
        self._optimizer = Adam(self.params)

    def forward(self, x: np.ndarray, mask: np.ndarray):
        """``(log_probs, value, hidden)`` for features ``x`` and a bool card ``mask``."""
        p = self.params
        h = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        logits = np.where(mask, h @ p["w2"] + p["b2"], -1e9)
        logits = logits - logits.max(axis=1, keepdims=True)
        log_probs = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        value = h @ p["wv"] + p["bv"][0]
        return log_probs, value, h

    def sample(self, x, mask, rng) -> np.ndarray:
        """A card per row drawn from the policy (Gumbel-max over the legal cards)."""
        log_probs = self.forward(x, mask)[0]
        gumbel = -np.log(-np.log(rng.random(log_probs.shape)))
        return np.argmax(np.where(mask, log_probs + gumbel, -np.inf), axis=1)

    def greedy(self, x, mask) -> np.ndarray:
        """The most probable legal card per row."""
        return np.argmax(np.where(mask, self.forward(x, mask)[0], -np.inf), axis=1)

    def gradients(
        self, x, mask, actions, returns, entropy_coef=0.01, value_coef=0.5, advantage=None
    ):
        """``(loss, grads, stats)`` of REINFORCE with baseline on a batch.

        The loss is ``-mean(adv * log pi(a|s)) - entropy_coef * mean(H) +
        value_coef/2 * mean((V - G)^2)``, where ``adv`` is the normalised
        ``G - V`` held constant (``advantage``, if given, is used as is).
        """
        p = self.params
        n = len(actions)
        log_probs, value, h = self.forward(x, mask)
        probs = np.exp(log_probs) * mask
        if advantage is None:
            raw = returns - value
            advantage = (raw - raw.mean()) / (raw.std() + 1e-6)
        adv = np.asarray(advantage, dtype=np.float64)
        rows = np.arange(n)
        safe_log = np.where(mask, log_probs, 0.0)
        entropy = -(probs * safe_log).sum(axis=1)
        loss = (
            -(adv * log_probs[rows, actions]).mean()
            - entropy_coef * entropy.mean()
            + 0.5 * value_coef * ((value - returns) ** 2).mean()
        )
        chosen = np.zeros_like(probs)
        chosen[rows, actions] = 1.0
        # d/dlogits of -adv*log pi(a) - c*H, per row
        d_logits = (probs - chosen) * adv[:, None]
        d_logits += entropy_coef * probs * (safe_log + entropy[:, None])
        d_logits = d_logits * mask / n
        d_value = value_coef * (value - returns) / n
        d_h = d_logits @ p["w2"].T + d_value[:, None] * p["wv"][None, :]
        d_h = d_h * (h > 0)
        grads = {
            "w1": x.T @ d_h,
            "b1": d_h.sum(axis=0),
            "w2": h.T @ d_logits,
            "b2": d_logits.sum(axis=0),
            "wv": h.T @ d_value,
            "bv": np.array([d_value.sum()]),
        }
        stats = {
            "entropy": float(entropy.mean()),
            "value_loss": float(((value - returns) ** 2).mean()),
        }
        return float(loss), grads, stats

    def update(self, x, mask, actions, returns, entropy_coef=0.01, value_coef=0.5) -> dict:
        """One Adam step on :meth:`gradients`; returns the batch statistics."""
        _, grads, stats = self.gradients(x, mask, actions, returns, entropy_coef, value_coef)
        grads = {k: g.astype(np.float32) for k, g in grads.items()}
        self._optimizer.step(self.params, grads, self.lr)
        return stats

    def save(self, path) -> None:
        """Write the weights to an ``.npz`` file."""
        np.savez(path, **self.params)

    @classmethod
    def load(cls, path) -> CardPolicy:
        """A policy with the weights of an ``.npz`` file written by :meth:`save`."""
        from trickgym.npzfile import check_finite, load_npz

        hint = "give a file written by CardPolicy.save"
        data = load_npz(path, "card policy file", hint)
        if "b1" not in data:
            raise ValueError(f"card policy file {str(path)!r} has no array 'b1'; {hint}")
        policy = cls(hidden=data["b1"].shape[0])
        missing = [k for k in policy.params if k not in data]
        if missing:
            raise ValueError(f"card policy file {str(path)!r} lacks {missing}; {hint}")
        policy.params = {k: data[k].astype(np.float32) for k in policy.params}
        check_finite(policy.params, f"card policy file {str(path)!r}", hint)
        return policy


@njit(cache=True)
def _rule_action(records, params, rng):
    """The rule agent's action from a one-record observation array."""
    return rule_action(records[0], params, rng)


class _RuleBidding:
    """Rule-agent bidding from the raw observation record; subclasses choose the cards."""

    def __init__(self, seed: int = 0):
        self._params = params_matrix("solowhist", 4)[0]["values"]
        self._rng = np.array([np.uint64(seed) | np.uint64(1)], dtype=np.uint64)
        self._game = trickgym.game("solowhist")

    def start_deal(self, seed: int, seat: int) -> None:
        """Reseed per deal, so a tournament is reproducible whatever its chunking."""
        self._rng[0] = np.uint64(seed) | np.uint64(1)

    def act_record(self, record, action_mask) -> int:
        """Rule bidding outside the play; :meth:`play` in it."""
        if int(record[0]["phase"]) != PLAY:
            return int(_rule_action(record, self._params, self._rng))
        return self.play(self._game.encode_observation(record, 0), action_mask)

    def act(self, observation, action_mask) -> int:
        """Card play from the observation dict (bidding needs :meth:`act_record`)."""
        if int(observation["phase"]) != PLAY:
            raise ValueError("this agent bids with the rule agent: call act_record")
        return self.play(observation, action_mask)

    def play(self, observation, action_mask) -> int:  # pragma: no cover - abstract
        raise NotImplementedError


class LearnedAgent(_RuleBidding):
    """Rule-agent bidding, and the learnt :class:`CardPolicy` (greedy) for the cards."""

    def __init__(self, policy: CardPolicy, seed: int = 0):
        super().__init__(seed)
        self.policy = policy

    def play(self, observation, action_mask) -> int:
        """The policy's most probable legal card."""
        obs = {k: np.asarray(v)[None] for k, v in observation.items()}
        mask = np.asarray(action_mask)[None, :N_CARDS].astype(bool)
        return int(self.policy.greedy(features(obs), mask)[0])


class RuleBidRandomPlay(_RuleBidding):
    """Rule-agent bidding and uniformly random legal cards: the untrained baseline."""

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self._np_rng = np.random.default_rng(seed)

    def start_deal(self, seed: int, seat: int) -> None:
        """Reseed both generators per deal."""
        super().start_deal(seed, seat)
        self._np_rng = np.random.default_rng(seed)

    def play(self, observation, action_mask) -> int:
        """A uniformly random legal card."""
        return int(self._np_rng.choice(np.flatnonzero(np.asarray(action_mask)[:N_CARDS])))
