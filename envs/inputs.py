"""Checks of what people give the envs, shared by every env kind (single, vector, AEC, SB3).

Each rule has one implementation here, built on :mod:`trickgym.checks`: a
bad value raises ``ValueError`` naming the parameter, the value and what is
allowed, before the env changes (no reseeding, no step, no allocation).
Seeds follow :data:`trickgym.checks.SEED_MAX` as everywhere in trickgym
(gymnasium would take a bool as seed 1, and refuses numpy integers), and
an action outside the action space is refused in every ``illegal_action``
mode: only an id inside the space can be an illegal move.
"""

from __future__ import annotations

import reprlib
from contextlib import contextmanager

import numpy as np

from trickgym.checks import SEED_MAX, check_choice, check_int, check_seed

__all__ = [
    "MAX_ENVS",
    "check_action",
    "check_actions",
    "check_choice",
    "check_num_envs",
    "check_parallel",
    "check_reset_options",
    "check_seat",
    "check_seed",
    "check_seeds",
    "naming",
]

#: The largest ``num_envs`` of a vector env: at 2**20 sub-envs the states,
#: observation records and buffers take 0.8 (Phat) to 3.1 GiB (Pinochle),
#: more with ``copy=True`` (a second set of observation buffers).
MAX_ENVS = 2**20


def check_seeds(seed, n: int) -> list[int | None]:
    """Per-sub-env seeds of a vector env's ``reset(seed=...)``, as ``SyncVectorEnv`` seeds.

    ``None``; one int ``s`` (sub-env ``i`` gets ``s + i``, so ``s`` is at most
    ``SEED_MAX - (n - 1)``); or a list/tuple/array of ``n`` seeds or ``None``.
    """
    if isinstance(seed, list | tuple | np.ndarray):
        if len(seed) != n:
            raise ValueError(
                f"seed must be None, an integer 0..{SEED_MAX} or a list of {n} of them "
                f"(one per sub-env, None for no seed), got {reprlib.repr(seed)}"
            )
        return [check_seed(s, f"seed[{i}]") for i, s in enumerate(seed)]
    seed = check_seed(seed)
    if seed is None:
        return [None] * n
    if seed > SEED_MAX - (n - 1):
        raise ValueError(
            f"seed must be at most {SEED_MAX - (n - 1)} ({SEED_MAX} less {n - 1}) for "
            f"{n} sub-envs, sub-env i being seeded seed + i; got {seed}"
        )
    return [seed + i for i in range(n)]


def _scalar(value):
    """A 0-d integer array as its number (what a policy returns for one action)."""
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iu":
        return value[()]
    return value


def _refuse_masked(value, want: str, fix: str) -> None:
    """A numpy masked array is refused: ``np.asarray`` would drop its mask and play the
    hidden entries (an action masked as "none" would be played all the same)."""
    if isinstance(value, np.ma.MaskedArray):
        raise ValueError(f"{want}, got a numpy masked array (its mask would be ignored); {fix}")


def check_action(value, n_actions: int) -> int:
    """One action id, ``0..n_actions-1`` (the ``Discrete`` space), as a Python int.

    The same rules as :func:`check_actions` for one sub-env: integers (Python,
    numpy, 0-d integer arrays); no bools, floats, strings or masked arrays.
    """
    _refuse_masked(value, f"action must be an integer 0..{n_actions - 1}", "pass a plain integer")
    return check_int("action", _scalar(value), 0, n_actions - 1)


def _show(value) -> str:
    """A short picture of what was given as actions."""
    if isinstance(value, np.ndarray):
        body = np.array2string(value, threshold=8, edgeitems=3)
        return f"array of shape {value.shape} dtype {value.dtype}: {body}"
    return reprlib.repr(value)


def check_actions(actions, num_envs: int, n_actions: int) -> np.ndarray:
    """One action id per sub-env, each ``0..n_actions-1``, as ``int64[num_envs]``.

    Integer arrays (any integer dtype) and lists of integers; no floats,
    bools (``[True, 0]`` too), strings, masked arrays, other shapes; the first
    id outside the space is named.
    """
    want = f"actions must be {num_envs} integers 0..{n_actions - 1} (shape ({num_envs},))"
    _refuse_masked(
        actions, want, "pass a plain integer array (actions.filled(a) with a legal action a)"
    )
    try:
        array = np.asarray(actions)
    except ValueError:  # a ragged list
        raise ValueError(f"{want}, got {_show(actions)}") from None
    if isinstance(actions, list | tuple) and array.dtype.kind in "iu":
        _refuse_bools(actions, want)  # [True, 0] is an int64 array: True would be action 1
    if array.shape != (num_envs,):
        raise ValueError(f"{want}, got {_show(actions)}")
    if array.dtype == object:  # Python ints beyond int64, or mixed types: each on its own
        ids = [check_int(f"actions[{i}]", a) for i, a in enumerate(array)]
        outside = np.flatnonzero([not 0 <= a < n_actions for a in ids])
    elif array.dtype.kind in "iu":
        outside = np.flatnonzero((array < 0) | (array >= n_actions))
    else:
        raise ValueError(f"{want}, got {_show(actions)}")
    if outside.size:
        i = int(outside[0])
        raise ValueError(f"{want}, got {int(array[i])} for sub-env {i}")
    return array.astype(np.int64)


def _refuse_bools(actions, want: str) -> None:
    """The first bool in a list of actions (a mask given as actions), named."""
    for i, a in enumerate(actions):
        if isinstance(a, bool | np.bool_) or (isinstance(a, np.ndarray) and a.dtype == bool):
            raise ValueError(f"{want}, got {a!r} (a bool, not an action id) for sub-env {i}")


def check_seat(seat, n_seats: int, random: bool = True) -> int | str:
    """A learner's seat: an integer ``0..n_seats-1``, or ``"random"`` (a seat drawn per
    episode) where the env allows it (``random``)."""
    allowed = f"an integer 0..{n_seats - 1}" + (" or 'random'" if random else "")
    if isinstance(seat, str):
        if random and seat == "random":
            return seat
        raise ValueError(f"seat must be {allowed}, got {seat!r}")
    try:
        return check_int("seat", seat, 0, n_seats - 1)
    except ValueError:
        raise ValueError(f"seat must be {allowed}, got {seat!r}") from None


def check_reset_options(options, known: tuple | None = ()) -> dict:
    """``reset``'s ``options``: ``None`` or a dict whose keys are in ``known``; as a dict.

    ``known=None``: any keys (the env uses none, and its API test passes some).
    """
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(f"options must be None or a dict, got {options!r}")
    unknown = [] if known is None else [k for k in options if k not in known]
    if unknown:
        allowed = ", ".join(repr(k) for k in known) if known else "none"
        raise ValueError(f"unknown reset option(s) {unknown}; known options: {allowed}")
    return options


def check_num_envs(value) -> int:
    """A vector env's batch size, ``1..MAX_ENVS``."""
    return check_int("num_envs", value, 1, MAX_ENVS)


def check_parallel(value) -> bool | None:
    """``parallel``: ``None`` (the env decides) or a bool, not ``1``/``"yes"``."""
    if value is not None and not isinstance(value, bool | np.bool_):
        raise ValueError(f"parallel must be None, True or False, got {value!r}")
    return None if value is None else bool(value)


@contextmanager
def naming(param: str):
    """A ValueError raised inside names ``param`` (the resolvers it calls name the value only)."""
    try:
        yield
    except ValueError as err:
        if param in str(err):
            raise
        raise ValueError(f"{param}: {err}") from err
