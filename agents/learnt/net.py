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

from trickgym.games.obs_features import feature_names
from trickgym.npzfile import NpzError, check_finite, load_npz, npz_path

__all__ = ["ValueNet", "feature_digest"]

FORMAT = 1
MAX_LAYERS = 64  # far above any net trained here (3 layers); a bigger count is damage


def feature_digest(names) -> str:
    """A short hash of the feature column names: a changed feature table needs new weights."""
    return hashlib.sha256("\n".join(names).encode()).hexdigest()[:16]


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
        """Read a net written by :meth:`save`; one clear ``ValueError`` line for anything else.

        The file is read by :func:`trickgym.npzfile.load_npz` (never more than its
        declared arrays, no pickle); then its ``meta``, the layers' shapes and the
        finiteness of every weight are checked.
        """
        where = f"weights file {str(npz_path(path, 'weights'))!r}"
        data = load_npz(path, "weights file", WEIGHTS_HINT)
        meta = _read_meta(data, where)
        layers = meta["layers"]
        expected = {"meta"} | {f"{p}{i}" for i in range(layers) for p in "wb"}
        if set(data) != expected:
            missing, extra = sorted(expected - set(data)), sorted(set(data) - expected)
            raise NpzError(
                f"{where}: meta says {layers} layers, so arrays w0, b0, ..., "
                f"w{layers - 1}, b{layers - 1}; missing {missing}, unexpected {extra}; "
                f"{WEIGHTS_HINT}"
            )
        weights = [data[f"w{i}"] for i in range(layers)]
        biases = [data[f"b{i}"] for i in range(layers)]
        _check_layers(weights, biases, where)
        weights = [w.astype(np.float32) for w in weights]
        biases = [b.astype(np.float32) for b in biases]
        arrays = {
            f"{p}{i}": a for i in range(layers) for p, a in (("w", weights[i]), ("b", biases[i]))
        }
        check_finite(arrays, where, WEIGHTS_HINT)
        scale = meta.pop("scale")
        for key in ("format", "layers"):
            meta.pop(key)
        return cls(weights, biases, scale, meta)


#: What to do about a bad weights file (the end of every message about one).
WEIGHTS_HINT = "retrain with experiments/train_learnt.py, or give a file written by ValueNet.save"
# Types of the meta entries that agents read (LearntAgent, CardNetAgent): a file whose
# entry has another type is refused at load, not when the agent first reads it.
_META_TYPES = {
    "game": str,
    "tag": str,
    "features": str,
    "kind": str,
    "seats": int,
    "rule_input": bool,
    "margin": (int, float),
    "margins": dict,
    "trained_actions": dict,
}


def _read_meta(data: dict, where: str) -> dict:
    """The JSON ``meta`` of loaded arrays ``data``, its entries' types checked."""

    def refuse(what: str):
        raise NpzError(f"{where} {what}; {WEIGHTS_HINT}")

    raw = data.get("meta")
    if raw is None:
        refuse("is not a trickgym value net (no 'meta' entry)")
    if raw.shape != () or raw.dtype.kind != "U":
        refuse(f"has a 'meta' entry of {raw.dtype}{list(raw.shape)}, not a JSON string")
    try:
        meta = json.loads(str(raw))
    except ValueError as err:  # JSONDecodeError; RecursionError is no ValueError
        refuse(f"has a 'meta' entry that is not JSON ({err})")
    except RecursionError:
        refuse("has a 'meta' entry nested too deep")
    if not isinstance(meta, dict):
        refuse(f"has a 'meta' entry that is a JSON {type(meta).__name__}, not an object")
    if meta.get("format") != FORMAT:
        refuse(f"has weights format {meta.get('format')!r}; this trickgym reads format {FORMAT}")
    layers = meta.get("layers")
    if type(layers) is not int or not 1 <= layers <= MAX_LAYERS:
        refuse(f"has meta layers {layers!r}, not an integer 1..{MAX_LAYERS}")
    scale = meta.get("scale")
    if type(scale) not in (int, float) or not np.isfinite(scale) or scale <= 0:
        refuse(f"has meta scale {scale!r}, not a finite number > 0")
    meta["scale"] = float(scale)
    for key, kind in _META_TYPES.items():
        value = meta.get(key)
        if value is not None and (
            not isinstance(value, kind) or isinstance(value, bool) != (kind is bool)
        ):
            refuse(f"has meta {key} {_short(value)}, not a {getattr(kind, '__name__', 'number')}")
    _check_meta_tables(meta, refuse)
    return meta


def _check_meta_tables(meta: dict, refuse) -> None:
    """``margins`` (phase -> points) and ``trained_actions`` (phase -> action ids) as
    LearntAgent reads them: integer phase keys, finite margins >= 0, integer ids."""
    for phase, m in meta.get("margins", {}).items():
        if not _int_key(phase) or type(m) not in (int, float) or not m >= 0 or m == np.inf:
            refuse(f"has meta margins[{phase!r}] {_short(m)}, not a finite number >= 0")
    for phase, ids in meta.get("trained_actions", {}).items():
        if (
            not _int_key(phase)
            or not isinstance(ids, list)
            or not all(type(a) is int and a >= 0 for a in ids)
        ):
            refuse(f"has meta trained_actions[{phase!r}] {_short(ids)}, not a list of action ids")


def _int_key(key: str) -> bool:
    """Whether a JSON object key names a phase (a small non-negative integer)."""
    return key.isdigit() and len(key) <= 3


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _check_layers(weights: list, biases: list, where: str) -> None:
    """Each layer a real ``float[n_in, n_out]`` and ``float[n_out]``, chained."""
    for i, (w, b) in enumerate(zip(weights, biases, strict=True)):
        real = all(a.dtype.kind in "fiu" for a in (w, b))
        if not real or w.ndim != 2 or b.shape != (w.shape[1],) or 0 in w.shape:
            raise NpzError(
                f"{where}: w{i} must be a real float[n_in, n_out] and b{i} float[n_out], got "
                f"w{i} {w.dtype}{list(w.shape)} and b{i} {b.dtype}{list(b.shape)}; {WEIGHTS_HINT}"
            )
        if i and w.shape[0] != weights[i - 1].shape[1]:
            raise NpzError(
                f"{where}: w{i} takes {w.shape[0]} inputs but layer {i - 1} gives "
                f"{weights[i - 1].shape[1]}; {WEIGHTS_HINT}"
            )
