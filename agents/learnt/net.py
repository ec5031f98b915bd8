"""A learnt value network: a small ReLU MLP over feature vectors, stored as numpy arrays.

The network maps a seat's feature vector (``obs_mode="features"``,
:mod:`trickgym.games.obs_features`) to one value per action of the game:
the payoff to the seat, relative to the other legal actions, that the
teacher search expected from each. Weights and their metadata live in one
``.npz`` file (``w0, b0, w1, b1, ...`` and a JSON ``meta`` string), so an
agent that plays it needs numpy only.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = ["ValueNet", "adam_step", "feature_digest"]

FORMAT = 1


def feature_digest(names) -> str:
    """A short hash of the feature column names: a changed feature table needs new weights."""
    return hashlib.sha256("\n".join(names).encode()).hexdigest()[:16]


def adam_step(params, grads, m, v, t: int, lr: float, b1=0.9, b2=0.999, eps=1e-8) -> None:
    """One Adam step on ``params`` (float32 arrays) along ``grads``, in place.

    ``m`` and ``v`` are the moment estimates (updated in place), ``t`` the step
    number from 1. Weights that fall below float32's normal range are set to
    zero: training leaves many dead units' weights subnormal, and every product
    with one takes the CPU's slow path (about 30x: the shipped nets were 62-81%
    subnormal before :class:`~.forward.PackedNet` flushed them).
    """
    tiny = np.finfo(np.float32).tiny
    for p, g, mi, vi in zip(params, grads, m, v, strict=True):
        mi *= b1
        mi += (1 - b1) * g
        vi *= b2
        vi += (1 - b2) * g * g
        p -= (lr * (mi / (1 - b1**t)) / (np.sqrt(vi / (1 - b2**t)) + eps)).astype(np.float32)
        p[np.abs(p) < tiny] = 0.0


@dataclass
class ValueNet:
    """Weights of a ReLU MLP (``weights[i]``: float32[in, out], ``biases[i]``: float32[out]).

    ``scale`` is the payoff unit of the outputs (values are ``output *
    scale``); ``meta`` records the game, its options, the feature digest and
    how the net was trained.
    """

    weights: list[np.ndarray]
    biases: list[np.ndarray]
    scale: float = 1.0
    meta: dict = field(default_factory=dict)

    @classmethod
    def init(cls, sizes, seed: int = 0, scale: float = 1.0, meta=None) -> ValueNet:
        """He-initialised weights for layer sizes ``sizes`` (inputs first, outputs last)."""
        rng = np.random.default_rng(seed)
        weights, biases = [], []
        for i, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
            gain = np.sqrt(2.0 / n_in) if i < len(sizes) - 2 else np.sqrt(1.0 / n_in)
            weights.append((rng.standard_normal((n_in, n_out)) * gain).astype(np.float32))
            biases.append(np.zeros(n_out, dtype=np.float32))
        return cls(weights, biases, float(scale), dict(meta or {}))

    @classmethod
    def for_game(
        cls, game, hidden=(256, 256), seed: int = 0, scale: float = 1.0, rule_input: bool = True
    ) -> ValueNet:
        """A fresh net sized for ``game`` (a trickgym ``Game``), its metadata filled in.

        ``rule_input``: the rule agent's action (one-hot) is an input beside the
        features, so the net learns where and how far to depart from it.
        """
        from trickgym.games.obs_features import feature_names

        names = feature_names(game)
        meta = {
            "game": game.name,
            "tag": game.tag,  # table size or mode: names the weights file, checked on load
            "seats": game.n_seats,
            "options": repr(game.options),
            "features": feature_digest(names),
            "hidden": list(hidden),
            "rule_input": bool(rule_input),
        }
        n_in = len(names) + (game.n_actions if rule_input else 0)
        return cls.init([n_in, *hidden, game.n_actions], seed=seed, scale=scale, meta=meta)

    @property
    def n_inputs(self) -> int:
        """Columns of the feature vectors the net reads."""
        return self.weights[0].shape[0]

    @property
    def n_outputs(self) -> int:
        """Actions the net values."""
        return self.weights[-1].shape[1]

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """Outputs (float32[n, n_outputs], in units of ``scale``) and the hidden activations."""
        hidden = []
        h = x
        for w, b in zip(self.weights[:-1], self.biases[:-1], strict=True):
            h = np.maximum(h @ w + b, 0.0)
            hidden.append(h)
        return h @ self.weights[-1] + self.biases[-1], hidden

    @property
    def rule_input(self) -> bool:
        """Whether the rule agent's action is an input (see :meth:`for_game`)."""
        return bool(self.meta.get("rule_input", False))

    def inputs(self, features: np.ndarray, rule=None) -> np.ndarray:
        """The net's input rows: ``features`` (float[n, F]), then the rule agent's
        action ``rule`` (int[n]) one-hot when the net reads it."""
        x = np.asarray(features, dtype=np.float32)
        n_features = self.n_inputs - (self.n_outputs if self.rule_input else 0)
        if x.ndim != 2 or x.shape[1] != n_features:
            raise ValueError(f"feature rows must be float32[n, {n_features}], got shape {x.shape}")
        if not self.rule_input:
            return x
        if rule is None:
            raise ValueError("this net reads the rule agent's action: pass rule=")
        onehot = np.zeros((x.shape[0], self.n_outputs), dtype=np.float32)
        onehot[np.arange(x.shape[0]), np.asarray(rule, dtype=np.int64)] = 1.0
        return np.concatenate([x, onehot], axis=1)

    def values(self, features: np.ndarray, rule=None) -> np.ndarray:
        """Values in payoff units (float32[n, n_outputs]) of feature rows (float32[n, F]),
        given the rule agent's actions ``rule`` (int[n]) if the net reads them."""
        return self.forward(self.inputs(features, rule))[0] * np.float32(self.scale)

    def save(self, path) -> Path:
        """Write the net to ``path`` (``.npz``); returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        meta = {**self.meta, "format": FORMAT, "scale": self.scale, "layers": len(self.weights)}
        np.savez_compressed(path, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)
        return path

    @classmethod
    def load(cls, path) -> ValueNet:
        """Read a net written by :meth:`save`; a clear error for anything else."""
        path = Path(path)
        if not path.is_file():
            raise ValueError(f"no weights file at {str(path)!r}")
        with np.load(path, allow_pickle=False) as data:
            if "meta" not in data.files:
                raise ValueError(f"{str(path)!r} is not a trickgym value net (no 'meta' entry)")
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT:
                raise ValueError(
                    f"{str(path)!r} has weights format {meta.get('format')!r}; "
                    f"this trickgym reads format {FORMAT}"
                )
            layers = int(meta["layers"])
            weights = [data[f"w{i}"].astype(np.float32) for i in range(layers)]
            biases = [data[f"b{i}"].astype(np.float32) for i in range(layers)]
        scale = float(meta.pop("scale"))
        for key in ("format", "layers"):
            meta.pop(key)
        return cls(weights, biases, scale, meta)
