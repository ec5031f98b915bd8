"""numpy's ``PCG64`` generator in numba, so compiled autoresets draw what a single env draws.

A single env (:class:`trickgym.envs.base.TrickEnv`) draws each episode's
seeds with ``np_random.integers(0, 2**63, dtype=np.uint64)`` from gymnasium's
``np_random`` (a ``numpy.random.Generator`` over ``PCG64``). For that bound,
numpy's Lemire method never rejects and returns ``next_uint64() >> 1``, so
one step of the 128-bit PCG64 (XSL-RR output) per draw reproduces it
exactly. A generator's state is four ``uint64``: ``state`` high and low
words, then ``inc`` high and low words.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["draw_seed", "pcg_state", "set_pcg_state"]

_MULT_HI = np.uint64(0x2360ED051FC65DA4)
_MULT_LO = np.uint64(0x4385DF649FCCF645)
_MASK64 = (1 << 64) - 1


@njit(cache=True, inline="always")
def _mul_hi(a, b):
    """High 64 bits of the 128-bit product of two ``uint64``."""
    m32 = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    a_lo, a_hi = a & m32, a >> s32
    b_lo, b_hi = b & m32, b >> s32
    lo_lo = a_lo * b_lo
    hi_lo = a_hi * b_lo
    lo_hi = a_lo * b_hi
    hi_hi = a_hi * b_hi
    cross = (lo_lo >> s32) + (hi_lo & m32) + lo_hi
    return hi_hi + (hi_lo >> s32) + (cross >> s32)


@njit(cache=True)
def draw_seed(gen):
    """Step the PCG64 state ``gen`` (``uint64[4]``) once; return ``next_uint64() >> 1``.

    Equal to ``Generator(PCG64).integers(0, 2**63, dtype=np.uint64)``.
    """
    s_hi, s_lo = gen[0], gen[1]
    # state = state * MULT + inc (mod 2**128)
    lo = s_lo * _MULT_LO
    hi = _mul_hi(s_lo, _MULT_LO) + s_lo * _MULT_HI + s_hi * _MULT_LO
    new_lo = lo + gen[3]
    carry = np.uint64(1) if new_lo < lo else np.uint64(0)
    new_hi = hi + gen[2] + carry
    gen[0], gen[1] = new_hi, new_lo
    x = new_hi ^ new_lo
    rot = new_hi >> np.uint64(58)
    out = (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))
    return out >> np.uint64(1)


def pcg_state(generator: np.random.Generator) -> np.ndarray:
    """The ``uint64[4]`` state of a ``Generator`` over ``PCG64`` (read for :func:`draw_seed`)."""
    bits = generator.bit_generator
    if type(bits) is not np.random.PCG64:
        raise ValueError(f"expected a Generator over PCG64, got {type(bits).__name__}")
    st = bits.state
    if st["has_uint32"]:
        raise ValueError("the generator holds a buffered 32-bit draw; cannot mirror it")
    s, inc = st["state"]["state"], st["state"]["inc"]
    return np.array([s >> 64, s & _MASK64, inc >> 64, inc & _MASK64], dtype=np.uint64)


def set_pcg_state(generator: np.random.Generator, gen: np.ndarray) -> None:
    """Write the ``uint64[4]`` state ``gen`` back into a ``Generator`` over ``PCG64``."""
    st = generator.bit_generator.state
    st["state"]["state"] = (int(gen[0]) << 64) | int(gen[1])
    st["state"]["inc"] = (int(gen[2]) << 64) | int(gen[3])
    st["has_uint32"], st["uinteger"] = 0, 0
    generator.bit_generator.state = st
