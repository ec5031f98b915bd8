"""Functions of modules that compile as they load, imported at their first call.

``trickgym.solvers.dd_search`` compiles its search when imported (explicitly
typed, so numba compiles it at once: 14 CPU s on a cold cache), and both
xdist workers import every test file while collecting. A test file that
names the solver's functions through :func:`later` imports nothing at
collection, so only the worker that runs its tests compiles the search.
"""

from __future__ import annotations

import importlib


def later(module: str, name: str):
    """A function that imports ``module`` at its first call and calls its ``name``."""

    def call(*args, **kwargs):
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call
