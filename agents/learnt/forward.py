"""The value net's forward pass as a compiled kernel, one row at a time in a fixed order.

A BLAS matrix product sums in an order that depends on the batch's size
(a one-row product takes another kernel than a thousand-row one), so a
deal decided alone and the same deal decided in a batch could differ in the
last bit and, at a tie, in the action. Here each row is summed in the same
order whatever the batch, and the first layer reads only the row's nonzero
features (a seat's features are mostly zero: its hand, the trick, the
phase) and the rule agent's action as the index of its one-hot column.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["PackedNet", "net_values"]


class PackedNet:
    """A :class:`~.net.ValueNet`'s arrays as the kernel reads them.

    ``layers``: every weight matrix (``float32[in, out]``, C order) and
    ``biases`` every bias, as tuples; ``n_features`` the feature columns
    (the rule agent's one-hot columns follow them when ``rule_input``).
    """

    def __init__(self, net):
        self.layers = tuple(_flushed(w) for w in net.weights)
        self.biases = tuple(_flushed(b) for b in net.biases)
        self.rule_input = net.rule_input
        self.n_features = net.n_inputs - (net.n_outputs if net.rule_input else 0)
        self.scale = np.float32(net.scale)

    def values(self, features: np.ndarray, rule: np.ndarray) -> np.ndarray:
        """Values in payoff units (``float32[k, n_actions]``) of feature rows and rule actions."""
        x = np.ascontiguousarray(features, dtype=np.float32)
        if x.ndim != 2 or x.shape[1] != self.n_features:
            raise ValueError(
                f"feature rows must be float32[k, {self.n_features}], got shape {x.shape}"
            )
        out = np.empty((x.shape[0], self.layers[-1].shape[1]), dtype=np.float32)
        rule = np.ascontiguousarray(rule, dtype=np.int64)
        hidden = self.layers[1:-1]
        hidden_b = self.biases[1:-1]
        if not hidden:  # numba needs a typed tuple: one unused 1x1 layer stands for none
            hidden, hidden_b = (np.zeros((1, 1), np.float32),), (np.zeros(1, np.float32),)
        net_values(
            x, rule, self.rule_input, self.layers[0], self.biases[0], hidden, hidden_b,
            len(self.layers) - 2, self.layers[-1], self.biases[-1], self.scale, out,
        )  # fmt: skip
        return out


def _flushed(a: np.ndarray) -> np.ndarray:
    """``a`` as C-ordered float32 with subnormal values set to zero.

    Training leaves most weights of dead units subnormal (62-81% of the
    shipped Solo Whist net's): each product with one costs a CPU's slow
    path, about 30x slower, and adds less than 1e-38.
    """
    a = np.array(a, dtype=np.float32, order="C")
    a[np.abs(a) < np.finfo(np.float32).tiny] = 0.0
    return a


# Rows a kernel pass takes together: each weight row is loaded once per block
# rather than once per row (a 256x256 layer is 256 KB, read from L2 per row before).
BLOCK = 8
# Fused multiply-adds: each row still sums in one fixed order, block or not.
_FAST = {"contract"}


@njit(cache=True, inline="always", fastmath=_FAST)
def _layer(h, first, m, w, b):
    """``b + h[first + r] @ w`` for the block's ``m`` rows (``float32[BLOCK, out]``),
    skipping zero inputs."""
    out = np.empty((BLOCK, w.shape[1]), dtype=np.float32)
    for r in range(m):
        out[r, :] = b
    for j in range(w.shape[0]):
        for r in range(m):
            v = h[first + r, j]
            if v != 0.0:  # inputs are 0/1 features or ReLU outputs: mostly zero
                for c in range(w.shape[1]):
                    out[r, c] += v * w[j, c]
    return out


@njit(cache=True, inline="always")
def _relu(h, m):
    for r in range(m):
        for c in range(h.shape[1]):
            if h[r, c] < 0.0:
                h[r, c] = 0.0


@njit(cache=True, fastmath=_FAST)
def net_values(x, rule, rule_input, w0, b0, hidden, hidden_b, n_hidden, w_out, b_out, scale, out):
    """``out[i]``: the net's values of row ``x[i]`` with the rule agent's action ``rule[i]``.

    Rows go through the layers in blocks of :data:`BLOCK`; every row's sums run
    over its inputs in ascending order, whatever block it is in.
    """
    n, n_features = x.shape
    for start in range(0, n, BLOCK):
        m = min(BLOCK, n - start)
        h = _layer(x, start, m, w0[:n_features], b0)
        if rule_input:
            for r in range(m):
                wr = w0[n_features + rule[start + r]]
                for c in range(h.shape[1]):
                    h[r, c] += wr[c]
        _relu(h, m)
        for layer in range(n_hidden):
            h = _layer(h, 0, m, hidden[layer], hidden_b[layer])
            _relu(h, m)
        o = _layer(h, 0, m, w_out, b_out)
        for r in range(m):
            for c in range(o.shape[1]):
                out[start + r, c] = o[r, c] * scale
