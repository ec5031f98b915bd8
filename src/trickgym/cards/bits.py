"""Bit primitives on ``uint64`` card sets, compiled with numba.

A set of cards is one ``uint64`` whose bit ``i`` stands for card ``i`` of a
deck. These helpers are the only place that knows how to count, find and pick
bits; every kernel of every game goes through them.

``select_kth``, ``pext`` and ``pdep`` use the BMI2 instructions when the
host CPU has them (one instruction instead of a loop) and a portable loop
otherwise; the choice is made once at import time.
"""

from __future__ import annotations

import llvmlite.binding as llvm
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

__all__ = [
    "HAS_BMI2",
    "bit",
    "highest_bit",
    "iter_bits",
    "lowest_bit",
    "pdep",
    "pext",
    "popcount",
    "select_kth",
]

HAS_BMI2 = "+bmi2" in llvm.get_host_cpu_features().flatten().split(",")


def _unary_u64_intrinsic(name: str, extra_false_arg: bool):
    """Build a numba intrinsic calling the LLVM bit intrinsic ``name`` on a u64."""

    @intrinsic
    def _impl(typingctx, x):
        sig = types.uint64(types.uint64)

        def codegen(context, builder, signature, args):
            (val,) = args
            ty = val.type

            if extra_false_arg:
                fnty = ir.FunctionType(ty, [ty, ir.IntType(1)])
                fn = builder.module.declare_intrinsic(name, [ty], fnty)
                return builder.call(fn, [val, ir.Constant(ir.IntType(1), 0)])
            fnty = ir.FunctionType(ty, [ty])
            fn = builder.module.declare_intrinsic(name, [ty], fnty)
            return builder.call(fn, [val])

        return sig, codegen

    return _impl


_ctpop = _unary_u64_intrinsic("llvm.ctpop", extra_false_arg=False)
_cttz = _unary_u64_intrinsic("llvm.cttz", extra_false_arg=True)
_ctlz = _unary_u64_intrinsic("llvm.ctlz", extra_false_arg=True)


def _bmi2_intrinsic(name: str):
    """Build a numba intrinsic calling the two-operand BMI2 instruction ``name`` on u64s."""

    @intrinsic
    def _impl(typingctx, src, mask):
        sig = types.uint64(types.uint64, types.uint64)

        def codegen(context, builder, signature, args):
            ty = ir.IntType(64)
            fnty = ir.FunctionType(ty, [ty, ty])
            fn = builder.module.declare_intrinsic(name, (), fnty)
            return builder.call(fn, list(args))

        return sig, codegen

    return _impl


_pdep = _bmi2_intrinsic("llvm.x86.bmi.pdep.64")
_pext = _bmi2_intrinsic("llvm.x86.bmi.pext.64")


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits (cards) in ``x``."""
    return np.int64(_ctpop(np.uint64(x)))


@njit(cache=True, inline="always")
def lowest_bit(x):
    """Index of the lowest set bit of ``x`` (64 if ``x`` is empty)."""
    return np.int64(_cttz(np.uint64(x)))


@njit(cache=True, inline="always")
def highest_bit(x):
    """Index of the highest set bit of ``x`` (-1 if ``x`` is empty)."""
    return np.int64(63) - np.int64(_ctlz(np.uint64(x)))


@njit(cache=True, inline="always")
def bit(i):
    """The one-card set holding card ``i``."""
    return np.uint64(1) << np.uint64(i)


@njit(cache=True, inline="always")
def _select_kth_pdep(x, k):
    return np.int64(_cttz(_pdep(np.uint64(1) << np.uint64(k), np.uint64(x))))


@njit(cache=True, inline="always")
def _select_kth_loop(x, k):
    x = np.uint64(x)
    for _ in range(k):
        x &= x - np.uint64(1)
    return np.int64(_cttz(x))


select_kth = _select_kth_pdep if HAS_BMI2 else _select_kth_loop
select_kth.__doc__ = "Index of the ``k``-th (0-based, from the lowest) set bit of ``x``."


@njit(cache=True, inline="always")
def _pext_fast(x, mask):
    return _pext(np.uint64(x), np.uint64(mask))


@njit(cache=True, inline="always")
def _pdep_fast(x, mask):
    return _pdep(np.uint64(x), np.uint64(mask))


@njit(cache=True, inline="always")
def _pext_loop(x, mask):
    x = np.uint64(x)
    mask = np.uint64(mask)
    out = np.uint64(0)
    k = np.uint64(0)
    while mask:
        low = mask & (~mask + np.uint64(1))
        if x & low:
            out |= np.uint64(1) << k
        k += np.uint64(1)
        mask ^= low
    return out


@njit(cache=True, inline="always")
def _pdep_loop(x, mask):
    x = np.uint64(x)
    mask = np.uint64(mask)
    out = np.uint64(0)
    k = np.uint64(0)
    while mask:
        low = mask & (~mask + np.uint64(1))
        if (x >> k) & np.uint64(1):
            out |= low
        k += np.uint64(1)
        mask ^= low
    return out


# The double-dummy search maps a suit's cards onto their ranks among the
# cards still in play (pext) and back (pdep) at every node.
pext = _pext_fast if HAS_BMI2 else _pext_loop
pext.__doc__ = "Gather the bits of ``x`` at the set bits of ``mask`` into the low bits."
pdep = _pdep_fast if HAS_BMI2 else _pdep_loop
pdep.__doc__ = "Scatter the low bits of ``x`` onto the set bits of ``mask``."


@njit(cache=True)
def iter_bits(x):
    """Indices of the set bits of ``x``, lowest first, as an int64 array."""
    x = np.uint64(x)
    out = np.empty(popcount(x), dtype=np.int64)
    i = 0
    while x:
        out[i] = lowest_bit(x)
        x &= x - np.uint64(1)
        i += 1
    return out
