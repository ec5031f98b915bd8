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


def resolve_agent(agent) -> int | Agent:
    """A built-in agent's kind (for a name) or the agent object itself.

    Raises ``ValueError`` naming anything that is neither a built-in name nor
    an agent instance (a class with ``act`` is not an instance).
    """
    if isinstance(agent, str):
        return resolve_kind(agent)
    if isinstance(agent, type) or not isinstance(agent, Agent):
        raise ValueError(
            f"agent {agent!r} is neither a built-in name ({', '.join(sorted(KINDS))}) "
            "nor an object with act(observation, action_mask)"
        )
    return agent


def resolve_agents(agents, n: int, what: str = "agents") -> list[int | Agent]:
    """Per-seat kinds or agent objects from one agent or a list of ``n``."""
    if isinstance(agents, str) or isinstance(agents, Agent):
        agents = [agents] * n
    if isinstance(agents, type) or not isinstance(agents, list | tuple) or len(agents) != n:
        raise ValueError(f"{what} must be one agent or a list of {n}, got {agents!r}")
    return [resolve_agent(a) for a in agents]


def kernel_scratch(game) -> tuple[np.ndarray, np.ndarray]:
    """``(obs, params)`` for calling a game's ``act_<game>`` kernel from Python.

    ``obs`` is a one-record observation scratch array, ``params`` the
    default rule parameters per seat.
    """
    from .rule import params_matrix

    return np.empty(1, dtype=game.obs_dtype), params_matrix(game.name, game.n_seats)


__all__ = [
    "KINDS",
    "RANDOM",
    "Agent",
    "RandomAgent",
    "kernel_scratch",
    "random_action",
    "resolve_agent",
    "resolve_agents",
    "resolve_kind",
]
