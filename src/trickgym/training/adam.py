"""Adam, the optimiser every trainer here steps its numpy weights with."""

from __future__ import annotations

import numpy as np

__all__ = ["adam_step"]


def adam_step(params, grads, m, v, t: int, lr: float, b1=0.9, b2=0.999, eps=1e-8) -> None:
    """One Adam step on ``params`` (float32 arrays) along ``grads``, in place.

    ``m`` and ``v`` are the moment estimates (updated in place), ``t`` the step
    number from 1. Weights that fall below float32's normal range are set to
    zero: training leaves many dead units' weights subnormal, and every product
    with one takes the CPU's slow path (about 30x: the shipped nets were 62-81%
    subnormal before :class:`~trickgym.agents.learnt.forward.PackedNet` flushed them).
    """
    tiny = np.finfo(np.float32).tiny
    for p, g, mi, vi in zip(params, grads, m, v, strict=True):
        mi *= b1
        mi += (1 - b1) * g
        vi *= b2
        vi += (1 - b2) * g * g
        p -= (lr * (mi / (1 - b1**t)) / (np.sqrt(vi / (1 - b2**t)) + eps)).astype(np.float32)
        p[np.abs(p) < tiny] = 0.0
