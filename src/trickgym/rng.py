"""Counter-seeded random numbers for kernels (splitmix64).

Every random draw in a kernel comes from a one-word generator state held in
a ``uint64[1]`` array (a field of a game state, or an agent's own). Streams
are derived from ``(seed, index, stream)`` by hashing, so deal ``k`` of seed
``s`` is the same whatever thread, chunk or machine computes it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .checks import check_seed

__all__ = [
    "below",
    "derive_seed",
    "fill_shuffled",
    "mix64",
    "mix64_each",
    "next_u64",
    "seed_agents",
    "seed_rng",
]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_U30 = np.uint64(30)
_U27 = np.uint64(27)
_U31 = np.uint64(31)
_U32 = np.uint64(32)


@njit(cache=True, inline="always")
def mix64(z):
    """The splitmix64 finaliser: a bijective 64-bit hash."""
    z = np.uint64(z)
    z = (z ^ (z >> _U30)) * _M1
    z = (z ^ (z >> _U27)) * _M2
    return z ^ (z >> _U31)


@njit(cache=True)
def mix64_each(words, salt):
    """``mix64(w ^ salt)`` of every word of ``words`` (``uint64[k]``), as a new array."""
    out = np.empty(words.shape[0], dtype=np.uint64)
    for j in range(words.shape[0]):
        out[j] = mix64(words[j] ^ salt)
    return out


@njit(cache=True, inline="always")
def next_u64(rng):
    """Advance the generator ``rng`` (a ``uint64[1]`` array) and return 64 random bits."""
    rng[0] += _GOLDEN
    return mix64(rng[0])


@njit(cache=True, inline="always")
def below(rng, n):
    """A uniform integer in ``0..n-1`` (``1 <= n < 2**32``), by multiply-shift."""
    return np.int64(((next_u64(rng) >> _U32) * np.uint64(n)) >> _U32)


@njit(cache=True)
def fill_shuffled(rng, pack):
    """Fill ``pack`` with ``0 .. len(pack) - 1`` in a uniformly random order.

    Fisher-Yates from the top, one ``below`` draw per position: every game's
    shuffle is this one, so a deal depends only on the generator's state.
    """
    n = pack.shape[0]
    for i in range(n):
        pack[i] = i
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        tmp = pack[i]
        pack[i] = pack[j]
        pack[j] = tmp


@njit(cache=True)
def derive_seed(seed, index, stream):
    """Seed of stream ``stream`` for item ``index`` (a deal, an env reset) of ``seed``."""
    base = mix64(np.uint64(seed) ^ mix64(np.uint64(stream) + _GOLDEN))
    return mix64(base + np.uint64(index) * _GOLDEN)


@njit(cache=True)
def seed_agents(agent_rngs, seed, index):
    """Seat ``s``'s agent generator ``agent_rngs[s]`` for item ``index``: stream ``1 + s``.

    Stream 0 of an item is its cards; each seat's agent draws from its own,
    so an agent's choices do not depend on the others'.
    """
    for s in range(agent_rngs.shape[0]):
        agent_rngs[s, 0] = derive_seed(seed, index, 1 + s)


def seed_rng(seed: int | None) -> int:
    """Turn a user seed (``None`` for fresh entropy) into a 64-bit int, ``0 .. 2**64 - 1``.

    The one funnel for user seeds: rejects negative, non-integer and larger
    values (``2**64`` would otherwise alias seed 0).
    """
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(1))
    return check_seed(seed)
