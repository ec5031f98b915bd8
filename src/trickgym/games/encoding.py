"""Helpers shared by the games' observation encoders."""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

__all__ = [
    "mask_from_sets",
    "play_features",
    "put_bits",
    "put_seat_rows",
    "put_tricks",
    "seat_shapes",
    "trick_shapes",
]

_SHIFTS = np.arange(64, dtype=np.uint64)


@intrinsic
def _store_8_bytes(typingctx, buf, index, value):
    """Write the uint64 ``value`` to ``buf[index : index + 8]`` (little-endian, unaligned)."""
    if not (
        isinstance(buf, types.Array)
        and buf.ndim == 1
        and buf.layout == "C"
        and buf.dtype in (types.int8, types.uint8)
    ):
        return None

    def codegen(context, builder, signature, args):
        ary = context.make_array(buf)(context, builder, value=args[0])
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        word = context.cast(builder, args[2], signature.args[2], types.uint64)
        ptr = builder.bitcast(builder.gep(ary.data, [index]), ir.IntType(64).as_pointer())
        builder.store(word, ptr, align=1)
        return context.get_dummy_value()

    return types.none(buf, index, value), codegen


@njit(cache=True, inline="always")
def _byte_per_bit(bits):
    """The 8 low bits of ``bits`` as 8 bytes of 0/1, bit ``i`` in byte ``i``."""
    x = bits & np.uint64(0xFF)
    x = (x | (x << np.uint64(28))) & np.uint64(0x0000000F0000000F)
    x = (x | (x << np.uint64(14))) & np.uint64(0x0003000300030003)
    return (x | (x << np.uint64(7))) & np.uint64(0x0101010101010101)


@njit(cache=True)
def put_bits(buf, start, mask, n):
    """Write the low ``n`` bits of ``mask`` as 0/1 into ``buf[start:start+n]``.

    ``buf`` is a contiguous int8 array. Eight bits go out as one 8-byte
    store (observation encoding is a third of a vector env step); nothing
    outside ``buf[start:start+n]`` is written.
    """
    bits = np.uint64(mask)
    i = 0
    while i + 8 <= n:
        _store_8_bytes(buf, start + i, _byte_per_bit(bits >> np.uint64(i)))
        i += 8
    while i < n:
        buf[start + i] = (bits >> np.uint64(i)) & np.uint64(1)
        i += 1


@njit(cache=True, inline="always")
def put_tricks(buf, trick, last_trick, obs, n_seats, rows):
    """The current and last trick of ``obs`` by seat: ``buf[trick + seat]`` is ``seat``'s card.

    ``rows`` entries of each are written (the layout's seats, ``-1`` where
    no card was played), of which ``n_seats`` are at the table. Inlined in
    each game's encode kernel, which the vector env runs on every step.
    """
    for s in range(rows):
        buf[trick + s] = -1
        buf[last_trick + s] = -1
    for pos in range(obs.trick_n):
        buf[trick + (obs.leader + pos) % n_seats] = obs.trick_cards[pos]
    if obs.last_leader >= 0:
        for pos in range(n_seats):
            buf[last_trick + (obs.last_leader + pos) % n_seats] = obs.last_trick_cards[pos]


@njit(cache=True, inline="always")
def put_seat_rows(buf, played, tricks_won, voids, obs, n_cards, n_suits, rows):
    """Each of ``rows`` seats' played cards, tricks won and shown voids from ``obs``."""
    for s in range(rows):
        put_bits(buf, played + n_cards * s, obs.played[s], n_cards)
        buf[tricks_won + s] = obs.tricks_won[s]
        put_bits(buf, voids + n_suits * s, obs.voids[s], n_suits)


def trick_shapes(n_seats: int, n_cards: int) -> dict:
    """``OBS_SHAPES`` entries of the current and last trick: each seat's card, -1 if none."""
    return {
        "trick": ((n_seats,), np.int8, -1, n_cards - 1),
        "last_trick": ((n_seats,), np.int8, -1, n_cards - 1),
    }


def seat_shapes(n_seats: int, n_cards: int, n_suits: int, max_tricks: int) -> dict:
    """``OBS_SHAPES`` entries per seat: cards played, tricks won, suits shown out of."""
    return {
        "played": ((n_seats, n_cards), np.int8, 0, 1),
        "tricks_won": ((n_seats,), np.int8, 0, max_tricks),
        "voids": ((n_seats, n_suits), np.int8, 0, 1),
    }


def play_features(n_cards: int, max_tricks: int) -> tuple:
    """``FEATURES`` of the play (see :mod:`trickgym.games.obs_features`), seats relative."""
    return (
        ("played", "bits", "seats"),
        ("trick", "onehot", (0, n_cards - 1, "seats")),
        ("last_trick", "onehot", (0, n_cards - 1, "seats")),
        ("voids", "bits", "seats"),
        ("tricks_won", "scaled", (max_tricks, "seats")),
    )


def mask_from_sets(legal_cards, legal_calls, call_base: int, n_actions: int) -> np.ndarray:
    """0/1 ``int8`` mask over ``n_actions`` actions from the (cards, calls) bit sets."""
    cards = (np.uint64(legal_cards) >> _SHIFTS[:call_base]) & np.uint64(1)
    calls = (np.uint64(legal_calls) >> _SHIFTS[: n_actions - call_base]) & np.uint64(1)
    return np.concatenate([cards, calls]).astype(np.int8)


class ObsLayout:
    """How a game's observation dict maps onto the arrays its encode kernel fills.

    Built from an ``OBS_SHAPES`` table ``{key: (shape, dtype, low, high)}``:
    int8 arrays share one flat buffer (``offsets[key]`` is where each
    starts), scalars go to one int64 array in table order, and wider arrays
    (int16, int32) get one array each, in table order.
    """

    def __init__(self, obs_shapes: dict):
        self.obs_shapes = obs_shapes
        self.scalar_keys = [k for k, (shape, *_rest) in obs_shapes.items() if not shape]
        self.int8_keys = [
            k for k, (shape, dtype, *_r) in obs_shapes.items() if shape and dtype == np.int8
        ]
        self.wide_keys = [
            k for k, (shape, dtype, *_r) in obs_shapes.items() if shape and dtype != np.int8
        ]
        self.offsets, self.slices = {}, {}
        offset = 0
        for key in self.int8_keys:
            size = int(np.prod(obs_shapes[key][0]))
            self.offsets[key] = offset
            self.slices[key] = slice(offset, offset + size)
            offset += size
        self.buffer_size = offset

    def empty_batch(self, n: int) -> tuple[np.ndarray, np.ndarray, tuple]:
        """Uninitialised buffers for ``n`` encoded observations: ``(int8, scalars, wide)``."""
        buf = np.empty((n, self.buffer_size), dtype=np.int8)
        scalars = np.empty((n, len(self.scalar_keys)), dtype=np.int64)
        wide = tuple(
            np.empty((n, *self.obs_shapes[k][0]), dtype=self.obs_shapes[k][1])
            for k in self.wide_keys
        )
        return buf, scalars, wide

    def encode(self, kernel, observations, j: int) -> dict[str, np.ndarray]:
        """Run ``kernel(observations, j, buf, scalars, *wide)`` and wrap its output.

        The dict's arrays are views of freshly allocated arrays, so a stored
        observation is never changed by a later one.
        """
        bufs, scalar_rows, wide_rows = self.empty_batch(1)
        buf, scalars, wide = bufs[0], scalar_rows[0], [w[0] for w in wide_rows]
        kernel(observations, j, buf, scalars, *wide)
        out = {key: scalars[i] for i, key in enumerate(self.scalar_keys)}
        for key in self.int8_keys:
            out[key] = buf[self.slices[key]].reshape(self.obs_shapes[key][0])
        out.update(zip(self.wide_keys, wide, strict=True))
        return {key: out[key] for key in self.obs_shapes}
