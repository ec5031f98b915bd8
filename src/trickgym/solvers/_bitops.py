"""``pext``/``pdep`` on ``uint64`` for the solvers, with portable fallbacks.

The double-dummy search maps a suit's cards onto their ranks among the cards
still in play (``pext``) and back (``pdep``) at every node; BMI2 does each in
one instruction. Without BMI2 a bit loop gives the same result.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from ..cards.bits import HAS_BMI2

__all__ = ["pdep", "pext"]


def _bmi2_intrinsic(name: str):
    @intrinsic
    def _impl(typingctx, src, mask):
        sig = types.uint64(types.uint64, types.uint64)

        def codegen(context, builder, signature, args):
            from llvmlite import ir

            ty = ir.IntType(64)
            fnty = ir.FunctionType(ty, [ty, ty])
            fn = builder.module.declare_intrinsic(name, (), fnty)
            return builder.call(fn, list(args))

        return sig, codegen

    return _impl


_pext_bmi2 = _bmi2_intrinsic("llvm.x86.bmi.pext.64")
_pdep_bmi2 = _bmi2_intrinsic("llvm.x86.bmi.pdep.64")


@njit(cache=True, inline="always")
def _pext_fast(x, mask):
    return _pext_bmi2(np.uint64(x), np.uint64(mask))


@njit(cache=True, inline="always")
def _pdep_fast(x, mask):
    return _pdep_bmi2(np.uint64(x), np.uint64(mask))


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


pext = _pext_fast if HAS_BMI2 else _pext_loop
pext.__doc__ = "Gather the bits of ``x`` at the set bits of ``mask`` into the low bits."
pdep = _pdep_fast if HAS_BMI2 else _pdep_loop
pdep.__doc__ = "Scatter the low bits of ``x`` onto the set bits of ``mask``."
