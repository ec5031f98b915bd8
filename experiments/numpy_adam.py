"""Adam in numpy, for the experiments whose networks are written out by hand.

Imported by ``behaviour_cloning.py`` and ``solowhist_policy.py`` (Python
puts the script's folder on the path).
"""

from __future__ import annotations

import numpy as np


class Adam:
    """Adam's moment estimates for a dict of float32 parameters, and its step."""

    def __init__(self, params: dict, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8):
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0
        self.beta1, self.beta2, self.eps = beta1, beta2, eps

    def step(self, params: dict, grads: dict, lr: float) -> None:
        """Move each of ``params`` (in place) one Adam step along its gradient in ``grads``."""
        beta1, beta2 = self.beta1, self.beta2
        self.t += 1
        for k, g in grads.items():
            self.m[k] = beta1 * self.m[k] + (1 - beta1) * g
            self.v[k] = beta2 * self.v[k] + (1 - beta2) * g * g
            m_hat = self.m[k] / (1 - beta1**self.t)
            v_hat = self.v[k] / (1 - beta2**self.t)
            params[k] -= (lr * m_hat / (np.sqrt(v_hat) + self.eps)).astype(np.float32)
