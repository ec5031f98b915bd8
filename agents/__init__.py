"""Agents: the ``Agent`` protocol, and built-in agents selected by kind."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from .builtin import KINDS, RANDOM, resolve_kind
from .random import RandomAgent, random_action


@runtime_checkable
class Agent(Protocol):
    """Anything that picks an action id from a seat's observation and legal mask."""

    def act(self, observation: dict[str, np.ndarray], action_mask: np.ndarray) -> int:
        """Return the id of a legal action (``action_mask[a]`` true)."""
        ...


__all__ = ["KINDS", "RANDOM", "Agent", "RandomAgent", "random_action", "resolve_kind"]
