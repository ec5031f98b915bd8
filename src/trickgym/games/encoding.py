"""Helpers shared by the games' observation encoders."""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["mask_from_sets", "put_bits"]

_SHIFTS = np.arange(64, dtype=np.uint64)


@njit(cache=True)
def put_bits(buf, start, mask, n):
    """Write the low ``n`` bits of ``mask`` as 0/1 into ``buf[start:start+n]``."""
    for i in range(n):
        buf[start + i] = (np.uint64(mask) >> np.uint64(i)) & np.uint64(1)


def mask_from_sets(legal_cards, legal_calls, call_base: int, n_actions: int) -> np.ndarray:
    """0/1 ``int8`` mask over ``n_actions`` actions from the (cards, calls) bit sets."""
    cards = (np.uint64(legal_cards) >> _SHIFTS[:call_base]) & np.uint64(1)
    calls = (np.uint64(legal_calls) >> _SHIFTS[: n_actions - call_base]) & np.uint64(1)
    return np.concatenate([cards, calls]).astype(np.int8)
