"""Built-in agents as integer kinds, so compiled loops can select them.

``KINDS`` maps a name to its kind; each game's ``act_<game>`` kernel runs
kind ``k`` for a seat using only what that seat may know.
"""

from __future__ import annotations

__all__ = ["KINDS", "RANDOM", "resolve_kind"]

RANDOM = 0
KINDS = {"random": RANDOM}


def resolve_kind(name: str) -> int:
    """Kind number of a built-in agent name, with a clear error otherwise."""
    if name not in KINDS:
        raise ValueError(f"unknown agent {name!r}; built-in agents: {', '.join(sorted(KINDS))}")
    return KINDS[name]
