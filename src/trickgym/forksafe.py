"""Parallel kernels after ``fork()``: a clear error instead of GNU OpenMP killing the process.

numba's ``omp`` threading layer (GNU OpenMP, the default where it is
installed) cannot run in a child forked from a process that already ran a
parallel kernel: libgomp prints "fork() called from a process already using
GNU OpenMP, this is unsafe" and terminates the child. A fork handler notes
such a fork, and :func:`check_fork_safe`, called before every parallel
kernel launch, raises a ``ValueError`` saying what to do instead.
"""

from __future__ import annotations

import os
import sys

__all__ = ["check_fork_safe"]

_forked_after_omp = False


def _after_fork_in_child() -> None:
    global _forked_after_omp

    numba = sys.modules.get("numba")
    if numba is None:
        return
    try:
        layer = numba.threading_layer()  # ValueError until a parallel kernel has run
    except ValueError:
        return
    if layer == "omp":
        _forked_after_omp = True


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def check_fork_safe() -> None:
    """``ValueError`` if this process was forked after its parent used GNU OpenMP kernels."""
    if _forked_after_omp:
        raise ValueError(
            "this process was forked from one that had already run trickgym's parallel "
            "kernels on numba's GNU OpenMP threading layer, which cannot work after fork(). "
            "Start worker processes with multiprocessing.get_context('spawn') (or "
            "'forkserver'), or set NUMBA_THREADING_LAYER=workqueue (or tbb, if installed) "
            "in the environment before the parent first imports trickgym"
        )
