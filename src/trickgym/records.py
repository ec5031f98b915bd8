"""Numba helpers for the games' structured records: typing, and copying fields."""

from __future__ import annotations

from numba import literal_unroll, njit
from numba.core import types

__all__ = ["copy_fields", "fields_of", "is_record_of"]


def fields_of(dtype, names=None) -> list[tuple]:
    """``dtype``'s fields ``names`` (default: all) as a list for ``np.dtype``.

    A record that holds some fields of another as they are takes their
    types from it, so they are written once (a simulation row from its
    game's state).
    """
    out = []
    for name in dtype.names if names is None else names:
        field = dtype.fields[name][0]
        out.append((name, field.base, field.shape) if field.shape else (name, field))
    return out


def is_record_of(typ, dtype) -> bool:
    """Whether a numba type is a record (or record array) of ``dtype``.

    Game hooks written as numba overloads use it to pick the game a kernel
    was compiled for.
    """
    if isinstance(typ, types.Array):
        typ = typ.dtype
    return isinstance(typ, types.Record) and typ.dtype == dtype


@njit(cache=True)
def copy_fields(dst, src, names):
    """``dst[name] = src[name]`` for every scalar field of ``names``.

    ``names`` is a tuple of string constants (the loop is unrolled at
    compile time, one typed copy per field), so a record of one dtype fills
    the same-named fields of another: a simulation row from a state.
    """
    for name in literal_unroll(names):
        dst[name] = src[name]
