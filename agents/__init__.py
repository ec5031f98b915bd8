"""Agents: the ``Agent`` protocol, and built-in agents selected by kind."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from trickgym.checks import as_int
from trickgym.engine.kinds import KINDS, RANDOM
from trickgym.engine.loops import random_action
from trickgym.engine.params import params_matrix
from trickgym.rng import derive_seed

from .random import RandomAgent
from .registry import known_agents, make_agent, register_agent, resolve_kind


@runtime_checkable
class Agent(Protocol):
    """Anything that picks an action id from a seat's observation and legal mask."""

    def act(self, observation: dict[str, np.ndarray], action_mask: np.ndarray) -> int:
        """Return the id of a legal action (``action_mask[a]`` true)."""
        ...


# Optional hooks a Python agent may define (looked up with getattr, so plain
# ``act`` agents keep working):
#   act_record(record, action_mask) -> int
#       called instead of ``act`` with the seat's raw observation record (a
#       one-record array of the game's OBS_DTYPE): what Monte Carlo agents
#       sample from. Still only that seat's information set.
#   act_batch(features, action_masks) -> actions
#       the vector env calls it once per round for every sub-env where the
#       agent's seat is to move, with the features observations of that seat
#       (``trickgym.agents.policy.PolicyAgent``); without it, one decision at
#       a time.
#   act_rows(states, rows, seats, rngs) -> actions, with deal_rng(seeds, seat)
#       decide many deals at once (:mod:`trickgym.agents.rows`): the simulator
#       then plays deals in lockstep and the vector env asks once per round;
#       ``learnt``, ``dmc`` and ``policy:PATH`` have them.
#   start_deal(seed, seat) -> None
#       called when a deal starts, with a seed derived from the run's seed and
#       the deal's index, so that an agent's own randomness is reproducible
#       whatever the chunking, thread count or backend.
#   last_values -> (actions int64[k], values float64[k]) or None, with values_name
#       after each act/act_record: the values the agent compared at that decision
#       (PIMC's mean payoffs, ISMCTS's visits, a learnt net's values), or None when
#       it valued nothing (a forced move, a rule agent's choice); ``values_name``
#       says what they are. The replay page (trickgym.replay) shows them. Kept from
#       the decision itself, so asking costs nothing.

AGENT_SEED_STREAM = 100  # derive_seed stream of Python agents: 100 + seat


def is_agent(obj) -> bool:
    """Whether ``obj`` is a Python agent object: an instance with ``act`` or ``act_record``.

    An agent that only reads the seat's observation record (``act_record``)
    is as much an agent as one with ``act``.
    """
    if isinstance(obj, type | str):
        return False
    return callable(getattr(obj, "act", None)) or callable(getattr(obj, "act_record", None))


def python_action(agent, game, array: np.ndarray, index: int, seat: int) -> int:
    """The action a Python agent picks for ``seat`` in ``array[index]``.

    The agent sees only the seat's information set: the observation record
    (``act_record``) or its encoding (``act``). Raises ``ValueError`` if the
    agent picks an illegal action, leaving the state unchanged.
    """
    record = np.zeros(1, dtype=game.obs_dtype)
    game.kernels.observe_at(array, index, seat, record, 0)
    act_record = getattr(agent, "act_record", None)
    if act_record is not None:
        # The mask alone, from the legal sets: encoding the whole dict was a sixth of a
        # policy agent's decision.
        mask = game.action_mask(*game.kernels.legal_sets_at(array, index))
        action = act_record(record, mask)
    else:
        encoded = game.encode_observation(record, 0)
        mask = encoded["action_mask"]
        action = agent.act(encoded, mask)
    if isinstance(action, int | np.integer) and not isinstance(action, bool):
        action = int(action)  # no message built for the usual case: repr() per decision
    else:
        action = as_int(f"the action agent {agent!r} chose", action)  # names the bad value
    if not (0 <= action < len(mask) and mask[action]):
        raise ValueError(
            f"agent {agent!r} at seat {seat} chose illegal action {action}; "
            f"legal: {np.flatnonzero(mask).tolist()}"
        )
    return action


def start_deal(agents, seed: int, index: int) -> None:
    """Call ``start_deal`` on the Python agents of a deal (deal ``index`` of ``seed``)."""
    for seat, agent in enumerate(agents):
        hook = getattr(agent, "start_deal", None)
        if hook is not None and not isinstance(agent, str | int):
            hook(int(derive_seed(seed, index, AGENT_SEED_STREAM + seat)), seat)


def resolve_agent(agent) -> int | Agent:
    """A built-in agent's kind (for a name) or the agent object itself.

    Raises ``ValueError`` naming anything that is neither a built-in name nor
    an agent instance (a class with ``act`` is not an instance).
    """
    if isinstance(agent, str):
        return resolve_kind(agent)
    if not is_agent(agent):
        raise ValueError(
            f"agent {agent!r} is neither a built-in name ({', '.join(sorted(KINDS))}) "
            "nor an object with act(observation, action_mask) or act_record(record, action_mask)"
        )
    return agent


def resolve_agents(agents, n: int, what: str = "agents") -> list[int | Agent]:
    """Per-seat kinds or agent objects from one agent or a list of ``n``."""
    if isinstance(agents, str) or is_agent(agents):
        agents = [agents] * n
    if isinstance(agents, type) or not isinstance(agents, list | tuple) or len(agents) != n:
        raise ValueError(f"{what} must be one agent or a list of {n}, got {agents!r}")
    return [resolve_agent(a) for a in agents]


def kernel_scratch(game) -> tuple[np.ndarray, np.ndarray]:
    """``(obs, params)`` for calling :func:`trickgym.engine.loops.act` from Python.

    ``obs`` is a one-record observation scratch array, ``params`` the
    default rule parameters per seat.
    """
    return np.empty(1, dtype=game.obs_dtype), params_matrix(game, game.n_seats)


__all__ = [
    "KINDS",
    "RANDOM",
    "Agent",
    "RandomAgent",
    "is_agent",
    "kernel_scratch",
    "known_agents",
    "make_agent",
    "python_action",
    "random_action",
    "register_agent",
    "resolve_agent",
    "resolve_agents",
    "resolve_kind",
    "start_deal",
]
