"""Network-ready observations: one float32 vector per seat, from the encoded observation.

Every game's observation dict (``trickgym.games.<game>.encode``) holds card
ids, seat numbers and raw scores: fine for rules and agents, weak inputs for
a network. A game's ``FEATURES`` table says how each key becomes columns of
a float32 vector, and one compiled kernel (:func:`encode_features`) turns a
batch of encoded observations into those vectors. The same kernel serves the
single env, the native vector env and the PettingZoo env (``obs_mode=
"features"``), so all three give the same vector for the same information
set.

Seats are relative to the observer: seat-indexed rows and seat-valued
scalars are rotated so that index 0 is the observing seat, 1 the next to
play after it, and so on (teams: 0 the observer's team). A network then
learns one policy for every seat.

Kinds of ``FEATURES`` entries ``(key, kind, arg)``:

- ``"bits"``: the key's 0/1 values as they are (``arg="seats"``: its rows
  are per seat, rotated);
- ``"onehot"``: each value ``v`` in ``lo..hi`` (``arg=(lo, hi)``, or
  ``(lo, hi, "seats")`` for per-seat rows) as a one-hot block of
  ``hi - lo + 1`` columns; a value outside (``-1``: none) leaves its block
  zero. Card ids, phases, contracts, trumps;
- ``"seat"``: a scalar seat number as a one-hot block over relative seats
  (``-1``: none, all zero);
- ``"scaled"``: values divided by ``arg`` (a number, or ``(number,
  "seats"|"teams")`` for rotated rows);
- ``"calls"``: an ``(n, 2)`` ``[seat, call]`` list as, per call slot, the
  caller's relative seat one-hot and the call one-hot over ``0..arg``;
- ``"last_bid"``: an ``(n, 2)`` ``[seat, bid]`` list as, per relative
  seat, three columns: has spoken, has passed (bid 0), its last bid other
  than a pass over ``arg``.

:func:`feature_names` names every column (``hand[AS]``,
``trick[+1]=KH``, ``phase=play``, ...); the module docstring of a game's
encode module gives the meaning of each key.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from gymnasium import spaces
from numba import njit

from trickgym.borrow import borrowed

__all__ = [
    "OBS_MODES",
    "FeaturePlan",
    "encode_features",
    "feature_names",
    "feature_plan",
    "features_space",
]

OBS_MODES = ("dict", "features")

_BITS, _ONEHOT, _SEAT, _SCALED, _CALLS, _LAST_BID = range(6)
_FROM_INT8, _FROM_INTS = 0, 1
_ROT_NONE, _ROT_SEATS, _ROT_TEAMS = 0, 1, 2
# plan columns
(_KIND, _SRC, _OFF, _COUNT, _STRIDE, _WIDTH, _LO, _HI, _ROT, _DST) = range(10)
_PLAN_COLS = 10


@njit(cache=True, inline="always")
def _read(buf, ints, i, src, idx):
    if src == _FROM_INT8:
        return np.int64(buf[i, idx])
    return ints[i, idx]


@njit(cache=True, inline="always")
def _source_entry(k, rot, seat, n_seats):
    """The absolute row feeding relative row ``k``, or -1 (a seat beyond the table)."""
    if rot == _ROT_SEATS:
        if k >= n_seats:
            return -1
        return (seat + k) % n_seats
    if rot == _ROT_TEAMS:
        return (seat % 2 + k) % 2
    return k


@njit(cache=True)
def encode_features(buf, ints, plan, scales, seat_col, players_col, players, mask_slice, out):
    """Fill ``out[i]`` (float32) with the feature vector of every encoded observation ``i``.

    ``buf`` (int8[n, B]) and ``ints`` (int64[n, K]: the scalars, then every
    wider key flattened) are the encoded observations; ``plan`` and
    ``scales`` come from :func:`feature_plan`. The observer is
    ``ints[i, seat_col]``; the table has ``ints[i, players_col]`` seats
    (``players_col >= 0``) or ``players``. ``mask_slice`` (start, stop) is
    the action mask in ``buf``: a row with no legal action gets action 0
    marked, a placeholder the envs ignore (a masked policy needs one).
    """
    # Borrowed arrays: no atomic reference counting on the row views below.
    buf, ints, plan, scales, out = borrowed((buf, ints, plan, scales, out))
    n_rows = out.shape[0]
    m0, m1 = mask_slice
    for i in range(n_rows):
        seat = ints[i, seat_col]
        n_seats = ints[i, players_col] if players_col >= 0 else np.int64(players)
        row = out[i]
        row[:] = 0.0
        for r in range(plan.shape[0]):
            kind = plan[r, _KIND]
            src = plan[r, _SRC]
            off = plan[r, _OFF]
            stride = plan[r, _STRIDE]
            width = plan[r, _WIDTH]
            lo = plan[r, _LO]
            hi = plan[r, _HI]
            rot = plan[r, _ROT]
            dst = plan[r, _DST]
            if kind == _LAST_BID:
                for k in range(plan[r, _COUNT]):
                    who = _read(buf, ints, i, src, off + k * stride)
                    if who < 0:
                        break  # padding: the calls so far are all of them
                    rel = (who - seat) % n_seats
                    bid = _read(buf, ints, i, src, off + k * stride + 1)
                    row[dst + 3 * rel] = 1.0
                    if bid == 0:
                        row[dst + 3 * rel + 1] = 1.0
                    else:
                        row[dst + 3 * rel + 2] = bid / scales[r]
                continue
            for k in range(plan[r, _COUNT]):
                e = _source_entry(k, rot, seat, n_seats)
                if e < 0:
                    continue
                base = off + e * stride
                if kind == _BITS:
                    d = dst + k * width
                    # slices, not an indexed loop: they compile to a vector loop
                    if src == _FROM_INT8:
                        row[d : d + width] = buf[i, base : base + width]
                    else:
                        row[d : d + width] = ints[i, base : base + width]
                elif kind == _ONEHOT:
                    v = _read(buf, ints, i, src, base)
                    if lo <= v <= hi:
                        row[dst + k * (hi - lo + 1) + v - lo] = 1.0
                elif kind == _SEAT:
                    v = _read(buf, ints, i, src, base)
                    if v >= 0:
                        row[dst + k * width + (v - seat) % n_seats] = 1.0
                elif kind == _SCALED:
                    row[dst + k] = _read(buf, ints, i, src, base) / scales[r]
                else:  # _CALLS: [seat, call] per slot
                    who = _read(buf, ints, i, src, base)
                    if who < 0:
                        break  # padding: the calls so far are all of them
                    call = _read(buf, ints, i, src, base + 1)
                    row[dst + k * (width + hi + 1) + (who - seat) % n_seats] = 1.0
                    if 0 <= call <= hi:
                        row[dst + k * (width + hi + 1) + width + call] = 1.0
        legal = False
        for j in range(m0, m1):
            if buf[i, j]:
                legal = True
                break
        if not legal:
            buf[i, m0] = 1


@dataclass(frozen=True)
class FeaturePlan:
    """A game's compiled ``FEATURES`` table: what :func:`encode_features` reads and writes."""

    plan: np.ndarray  # int64[rows, 10]
    scales: np.ndarray  # float64[rows]
    names: tuple[str, ...]
    seat_col: int
    players_col: int
    players: int
    mask_slice: tuple[int, int]
    low: np.ndarray  # float32[size]: each column's bounds
    high: np.ndarray

    @property
    def size(self) -> int:
        """The number of columns of a feature vector."""
        return len(self.names)

    def ints(self, scalars: np.ndarray, wide) -> np.ndarray:
        """The ``ints`` input of the kernel: the scalars, then every wider key flattened."""
        n = scalars.shape[0]
        parts = [scalars] + [np.asarray(w).reshape(n, -1).astype(np.int64) for w in wide]
        return np.ascontiguousarray(np.concatenate(parts, axis=1))

    def observe(self, game, observations, j: int = 0, placeholder: bool = True) -> dict:
        """``{"features", "action_mask"}`` of the observation record ``observations[j]``.

        ``placeholder=False``: the mask as the seat has it, all zero when it
        has no legal action (PettingZoo's convention for an agent not to act).
        """
        buf, scalars, wide = game.obs_layout.empty_batch(1)
        game.encode_kernel(observations, j, buf[0], scalars[0], *[w[0] for w in wide])
        masks = slice(self.mask_slice[0], self.mask_slice[0] + game.n_actions)
        as_seen = buf[0, masks].copy()
        features = self.encode(buf, scalars, wide)[0]  # marks the placeholder in buf
        return {
            "features": features,
            "action_mask": buf[0, masks].copy() if placeholder else as_seen,
        }

    def encode(self, buf: np.ndarray, scalars: np.ndarray, wide, out=None) -> np.ndarray:
        """Feature vectors (float32[n, size]) of a batch of encoded observations.

        Marks action 0 in ``buf``'s action mask for rows with no legal action.
        """
        if out is None:
            out = np.empty((buf.shape[0], self.size), dtype=np.float32)
        encode_features(
            buf, self.ints(scalars, wide), self.plan, self.scales, self.seat_col,
            self.players_col, self.players, self.mask_slice, out,
        )  # fmt: skip
        return out


def features_space(game):
    """The observation space of ``obs_mode="features"``: the vector and the action mask.

    ``{"features": Box(float32[size]), "action_mask": Box(int8[n_actions])}``.
    Features are 0/1 except the scaled columns (counts, points and scores
    over a game's scale), which may leave ``[0, 1]``. Each column's bounds
    are the range its value can take at the game's options (the key's
    ``Game.obs_ranges`` over the scale; 0 for seats past the table), as
    ``docs/spec.md`` lists them.
    """
    plan = feature_plan(game)
    return spaces.Dict(
        {
            "features": spaces.Box(plan.low, plan.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(game.n_actions,), dtype=np.int8),
        }
    )


def _card_labels(deck) -> list[str]:
    """Card names, made unique: the second copy of a card (Pinochle) gets ``#2``."""
    seen: dict[str, int] = {}
    labels = []
    for name in deck.card_names:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return labels


def feature_plan(game) -> FeaturePlan:
    """The :class:`FeaturePlan` of a game (from its encode module's ``FEATURES``), cached.

    The columns are the game's; their bounds depend on its options (a
    scaled score's range follows the unit, the table size, the bids).
    """
    key = (game.name, game.options)
    cached = _PLANS.get(key)
    if cached is None:
        cached = _PLANS[key] = _build(game)
    return cached


_PLANS: dict[tuple, FeaturePlan] = {}


def feature_names(game) -> list[str]:
    """The name of every column of ``game``'s feature vector, in order."""
    return list(feature_plan(game).names)


def _build(game) -> FeaturePlan:
    layout = game.obs_layout
    shapes = layout.obs_shapes
    ranges = game.obs_ranges
    deck = game.deck
    cards = _card_labels(deck)
    players = int(shapes["seat"][3]) + 1  # seats 0 .. high
    scalar_index = {k: j for j, k in enumerate(layout.scalar_keys)}
    wide_offsets, at = {}, len(layout.scalar_keys)
    for k in layout.wide_keys:
        wide_offsets[k] = at
        at += int(np.prod(shapes[k][0]))
    labels = game.feature_labels
    rows, scales = [], []
    names: list[str] = []
    lows: list[float] = []
    highs: list[float] = []

    def add(new_names, lo=0.0, hi=1.0, seat=0):
        # Relative seats past the table's (Troggu's padding rows) stay 0.
        if seat >= game.n_seats:
            lo = hi = 0.0
        names.extend(new_names)
        lows.extend([lo] * len(new_names))
        highs.extend([hi] * len(new_names))

    def source(key):
        if key in layout.offsets:
            return _FROM_INT8, layout.offsets[key]
        if key in scalar_index:
            return _FROM_INTS, scalar_index[key]
        return _FROM_INTS, wide_offsets[key]

    def value_label(key, v):
        if key in labels:
            return labels[key][v]
        if shapes[key][3] == deck.n_cards - 1 and shapes[key][2] in (-1, 0):
            return cards[v]
        return str(v)

    def rel(k, rot):
        return f"team+{k}" if rot == _ROT_TEAMS else f"+{k}"

    for key, kind, arg in game.features:
        shape = shapes[key][0]
        src, off = source(key)
        dst = len(names)
        if kind == "bits":
            rot = _ROT_SEATS if arg == "seats" else _ROT_NONE
            count, width = (shape[0], int(np.prod(shape[1:]))) if len(shape) > 1 else (1, shape[0])
            if key in labels:
                item_labels = list(labels[key])
            elif width == deck.n_cards:
                item_labels = cards
            else:
                item_labels = [str(j) for j in range(width)]
            for k in range(count):
                prefix = f"{key}[{rel(k, rot)}]" if count > 1 else key
                add([f"{prefix}[{lab}]" for lab in item_labels], seat=k if rot else 0)
            rows.append((_BITS, src, off, count, width, width, 0, 0, rot, dst))
            scales.append(1.0)
        elif kind == "onehot":
            lo, hi = arg[0], arg[1]
            rot = _ROT_SEATS if len(arg) > 2 and arg[2] == "seats" else _ROT_NONE
            count = int(np.prod(shape)) if shape else 1
            for k in range(count):
                prefix = key if not shape else f"{key}[{rel(k, rot) if rot else k}]"
                add(
                    [f"{prefix}={value_label(key, v)}" for v in range(lo, hi + 1)],
                    seat=k if rot else 0,
                )
            rows.append((_ONEHOT, src, off, count, 1, hi - lo + 1, lo, hi, rot, dst))
            scales.append(1.0)
        elif kind == "seat":
            for j in range(players):
                add([f"{key}=+{j}"], seat=j)
            rows.append((_SEAT, src, off, 1, 1, players, 0, 0, _ROT_NONE, dst))
            scales.append(1.0)
        elif kind == "scaled":
            scale, how = (arg, None) if not isinstance(arg, tuple) else arg
            rot = {None: _ROT_NONE, "seats": _ROT_SEATS, "teams": _ROT_TEAMS}[how]
            count = int(np.prod(shape)) if shape else 1
            prefixes = [
                key if not shape else f"{key}[{rel(k, rot) if rot else k}]" for k in range(count)
            ]
            lo, hi = ranges[key]
            for k, p in enumerate(prefixes):
                add([f"{p}/{scale:g}"], lo / scale, hi / scale, seat=k if rot == _ROT_SEATS else 0)
            rows.append((_SCALED, src, off, count, 1, 1, 0, 0, rot, dst))
            scales.append(float(scale))
        elif kind == "calls":
            slots = shape[0]
            for k in range(slots):
                for j in range(players):
                    add([f"{key}[{k}].seat=+{j}"], seat=j)
                add(
                    [
                        f"{key}[{k}].call={game.action_name(deck.n_cards + v)}"
                        for v in range(arg + 1)
                    ]
                )
            rows.append((_CALLS, src, off, slots, 2, players, 0, arg, _ROT_NONE, dst))
            scales.append(1.0)
        elif kind == "last_bid":
            for j in range(players):
                add([f"{key}[+{j}].bid", f"{key}[+{j}].passed"], seat=j)
                add([f"{key}[+{j}].last/{arg:g}"], 0.0, ranges[key][1] / arg, seat=j)
            rows.append((_LAST_BID, src, off, shape[0], 2, 3, 0, 0, _ROT_NONE, dst))
            scales.append(float(arg))
        else:
            raise ValueError(f"{game.name} FEATURES: unknown kind {kind!r} for {key!r}")
    mask = layout.slices["action_mask"]
    return FeaturePlan(
        plan=np.array(rows, dtype=np.int64).reshape(-1, _PLAN_COLS),
        scales=np.array(scales, dtype=np.float64),
        names=tuple(names),
        seat_col=scalar_index["seat"],
        players_col=scalar_index.get("n_players", -1),
        players=players,
        mask_slice=(mask.start, mask.stop),
        low=np.array(lows, dtype=np.float32),
        high=np.array(highs, dtype=np.float32),
    )
