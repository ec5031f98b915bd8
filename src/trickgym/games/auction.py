"""The calls of an auction as state records, observations and simulation rows hold them."""

from __future__ import annotations

from numba import njit

__all__ = ["copy_calls"]


@njit(cache=True)
def copy_calls(dst, src, size):
    """Copy ``src``'s calls (``n_calls``, ``calls``, ``call_seats``) into ``dst``.

    The first ``size`` entries of ``dst``'s two arrays are written; those
    past the calls made are ``-1``.
    """
    n = src.n_calls
    dst.n_calls = n
    for i in range(size):
        dst.calls[i] = src.calls[i] if i < n else -1
        dst.call_seats[i] = src.call_seats[i] if i < n else -1
