"""Keep the caller's OpenMP thread count across numba's parallel kernels.

numba's ``omp`` threading layer starts its pool with ``omp_set_num_threads``,
which sets the thread count of the whole process's OpenMP runtime: a
learner's PyTorch, sharing that runtime, went from 1 thread to 2 after one
parallel step of the vector env (and ran 3x slower). :func:`call_keeping_threads`
puts the count back after the call; numba's parallel regions name their
thread count themselves, so they are not affected (measured: the parallel
step runs as fast after the restore).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

__all__ = ["call_keeping_threads"]


@functools.cache
def _libgomp():
    """The process's GNU OpenMP runtime, or None where there is none to load."""
    for name in ("libgomp.so.1", ctypes.util.find_library("gomp")):
        if name:
            try:
                return ctypes.CDLL(name)
            except OSError:
                continue
    return None


def call_keeping_threads(call):
    """``call()``, restoring OpenMP's thread count if it changed it.

    ``call`` takes no argument, so that everything that may start numba's
    thread pool (``numba.get_num_threads()`` does) runs inside it.
    """
    lib = _libgomp()
    if lib is None:
        return call()
    before = lib.omp_get_max_threads()
    try:
        return call()
    finally:
        if lib.omp_get_max_threads() != before:
            lib.omp_set_num_threads(before)
