"""Numba typing helpers for the games' structured state records."""

from __future__ import annotations

from numba.core import types

__all__ = ["is_record_of"]


def is_record_of(typ, dtype) -> bool:
    """Whether a numba type is a record (or record array) of ``dtype``.

    Game hooks written as numba overloads use it to pick the game a kernel
    was compiled for.
    """
    if isinstance(typ, types.Array):
        typ = typ.dtype
    return isinstance(typ, types.Record) and typ.dtype == dtype
