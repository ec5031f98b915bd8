"""The observation encoders' shared helpers and borrowed arrays, against plain Python."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

import trickgym
from trickgym.borrow import borrowed
from trickgym.games.encoding import put_bits


@given(
    mask=st.integers(0, 2**64 - 1),
    n=st.integers(0, 64),
    start=st.integers(0, 20),
    fill=st.integers(-128, 127),
)
@settings(max_examples=300, deadline=None)
def test_put_bits_writes_exactly_the_bits(mask, n, start, fill):
    """Bit ``i`` of ``mask`` lands in byte ``start + i``; nothing around it changes."""
    buf = np.full(start + n + 9, fill, dtype=np.int8)
    put_bits(buf, start, np.uint64(mask), n)
    want = np.full_like(buf, fill)
    want[start : start + n] = [(mask >> i) & 1 for i in range(n)]
    np.testing.assert_array_equal(buf, want)


@pytest.mark.parametrize(
    ("name", "options"),
    [("solowhist", {}), ("troggu", {"players": 5}), ("phat", {}), ("pinochle", {})],
)
def test_encoders_write_every_byte(name, options):
    """Observations do not depend on what the output buffers held before.

    The single env and the vector env (``copy=True``) encode into
    uninitialised memory, so an encoder must write every byte it owns.
    """
    game = trickgym.game(name, **options)
    state = game.deal(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(12):
        layout = game.obs_layout
        outputs = []
        for fill in (0x55, -0x56):
            buf = np.full(layout.buffer_size, fill, dtype=np.int8)
            scalars = np.full(len(layout.scalar_keys), fill, dtype=np.int64)
            wide = [
                np.full(layout.obs_shapes[k][0], fill, dtype=layout.obs_shapes[k][1])
                for k in layout.wide_keys
            ]
            records = np.zeros(1, dtype=game.obs_dtype)
            game.kernels.observe_at(state.array, 0, state.current_player, records, 0)
            game.encode_kernel(records, 0, buf, scalars, *wide)
            outputs.append((buf, scalars, *wide))
        for a, b in zip(*outputs, strict=True):
            np.testing.assert_array_equal(a, b)
        state.apply(int(rng.choice(state.legal_actions())))
        if state.is_over:
            break


@njit(cache=True)
def _sum_rows_borrowed(a):
    b = borrowed(a)
    total = 0.0
    for i in range(b.shape[0]):
        row = b[i]
        total += row.sum()
    return total


@njit(cache=True)
def _first_of_each(pair):
    x, y = borrowed(pair)
    return x[0] + y[0]


@njit(cache=True)
def _write_nested(a, pair):
    b, (c, d) = borrowed((a, pair))
    b[0] = 1
    c[0] = 2
    d[0] = 3


def test_borrowed_arrays_are_the_same_data():
    """A borrowed array reads (and writes) the caller's memory; tuples too."""
    a = np.arange(12.0).reshape(3, 4)
    assert _sum_rows_borrowed(a) == a.sum()
    assert _first_of_each((np.array([2, 3]), np.array([5]))) == 7
    a, c, d = np.zeros(2), np.zeros(1, dtype=np.int64), np.zeros(3, dtype=np.int8)
    _write_nested(a, (c, d))
    assert (a[0], c[0], d[0]) == (1, 2, 3)
