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
        net = (
            self.layers[0], self.biases[0], hidden, hidden_b, len(self.layers) - 2,
            self.layers[-1], self.biases[-1], self.scale,
        )  # fmt: skip
        net_values(x, rule, self.rule_input, net, out)
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


# Fused multiply-adds: each sum still runs in one fixed order, whatever the batch.
_FAST = {"contract"}


@njit(cache=True, inline="always", fastmath=_FAST)
def _accumulate(src, idx, k, w, out):
    """``out += src[j] * w[j]`` for ``j`` in ``idx[:k]`` (the nonzero inputs), in that order.

    Four inputs per pass over ``out``: the partial sums stay in registers, a
    quarter of the loads and stores of one input at a time, and each output
    still adds its terms one by one in ascending ``j``.
    """
    q = 0
    while q + 4 <= k:
        j0, j1, j2, j3 = idx[q], idx[q + 1], idx[q + 2], idx[q + 3]
        v0, v1, v2, v3 = src[j0], src[j1], src[j2], src[j3]
        for c in range(out.shape[0]):
            acc = out[c]
            acc = acc + v0 * w[j0, c]
            acc = acc + v1 * w[j1, c]
            acc = acc + v2 * w[j2, c]
            acc = acc + v3 * w[j3, c]
            out[c] = acc
        q += 4
    while q < k:
        j = idx[q]
        v = src[j]
        for c in range(out.shape[0]):
            out[c] = out[c] + v * w[j, c]
        q += 1


@njit(cache=True, inline="always")
def _nonzero(h, idx) -> int:
    """The indices of ``h``'s nonzero entries into ``idx``; how many."""
    k = 0
    for j in range(h.shape[0]):
        if h[j] != 0.0:
            idx[k] = j
            k += 1
    return k


@njit(cache=True, inline="always")
def _relu(h):
    for c in range(h.shape[0]):
        if h[c] < 0.0:
            h[c] = 0.0


@njit(cache=True, fastmath=_FAST)
def net_values(x, rule, rule_input, net, out):
    """``out[i]``: the net's values of row ``x[i]`` with the rule agent's action ``rule[i]``.

    ``net`` is ``(w0, b0, hidden, hidden_b, n_hidden, w_out, b_out, scale)``:
    the first layer, the hidden layers' weights and biases (tuples), their
    count, the output layer and the payoff scale. Each layer reads only its
    nonzero inputs (0/1 features, ReLU outputs), in ascending order, so a
    row's values do not depend on the rows beside it.
    """
    w0, b0, hidden, hidden_b, n_hidden, w_out, b_out, scale = net
    n_features = x.shape[1]
    widest = max(n_features, w0.shape[1])
    for layer in range(n_hidden):
        widest = max(widest, hidden[layer].shape[1])
    idx = np.empty(widest, dtype=np.int64)
    o = np.empty(w_out.shape[1], dtype=np.float32)
    for i in range(x.shape[0]):
        xi = x[i]
        h = b0.copy()
        _accumulate(xi, idx, _nonzero(xi, idx), w0, h)
        if rule_input:
            wr = w0[n_features + rule[i]]
            for c in range(h.shape[0]):
                h[c] = h[c] + wr[c]
        _relu(h)
        for layer in range(n_hidden):
            g = hidden_b[layer].copy()
            _accumulate(h, idx, _nonzero(h, idx), hidden[layer], g)
            _relu(g)
            h = g
        o[:] = b_out
        _accumulate(h, idx, _nonzero(h, idx), w_out, o)
        for c in range(o.shape[0]):
            out[i, c] = o[c] * scale
