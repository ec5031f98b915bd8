"""Borrowed arrays: numba arrays that do no reference counting.

Every array view numba makes (``a[i]`` of a 2-D array, ``a[i : i + 1]``, a
record's array field) holds a reference to its parent's memory, and taking
and dropping that reference are two atomic instructions. In a loop over a
batch that runs a few hundred views per item, these atomics were half the
time of the vector env's one-thread step. Inside a ``prange`` loop numba
already passes arrays without their reference ("meminfo"), which is why the
threaded step was twice as fast per thread; :func:`borrowed` gives a serial
kernel the same arrays.

A borrowed array (and every view of it) must not outlive the call that
borrowed it: never return or store it. The caller's own reference keeps the
memory alive meanwhile.
"""

from __future__ import annotations

from numba.core import cgutils, types
from numba.extending import intrinsic

__all__ = ["borrowed"]


def _is_arrays(typ) -> bool:
    """An array, or a tuple (nested or not) of arrays."""
    if isinstance(typ, types.Array):
        return True
    return isinstance(typ, types.BaseTuple) and all(_is_arrays(t) for t in typ)


def _drop_meminfo(context, builder, typ, value):
    if isinstance(typ, types.Array):
        ary = context.make_array(typ)(context, builder, value=value)
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
        ary.parent = cgutils.get_null_value(ary.parent.type)
        return ary._getvalue()
    items = [
        _drop_meminfo(context, builder, t, builder.extract_value(value, k))
        for k, t in enumerate(typ)
    ]
    return context.make_tuple(builder, typ, items)


@intrinsic
def borrowed(typingctx, arrays):
    """The array (or tuple of arrays, nested or not) ``arrays`` without its reference to the memory.

    Same data, shape and strides; numba's reference counting on it and on
    its views becomes a no-op. Use inside a compiled function only, on
    arguments its caller keeps alive.
    """
    if not _is_arrays(arrays):
        return None

    def codegen(context, builder, signature, args):
        return _drop_meminfo(context, builder, arrays, args[0])

    return arrays(arrays), codegen
