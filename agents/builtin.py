"""Built-in agents as integer kinds, so compiled loops can select them.

``KINDS`` maps a name to its kind; each game's ``act_<game>`` kernel runs
kind ``k`` for a seat using only what that seat may know.
"""

from __future__ import annotations

__all__ = ["KINDS", "ORACLE", "RANDOM", "RULE", "resolve_kind"]

RANDOM = 0
RULE = 1  # acts on its seat's observation with the game's rule heuristics
ORACLE = 2  # sees every hand: an upper bound, for measurement only
KINDS = {"random": RANDOM, "rule": RULE, "oracle": ORACLE}


def resolve_kind(name: str) -> int:
    """Kind number of a built-in agent name, with a clear error otherwise."""
    if name not in KINDS:
        from .registry import known_agents, registered_agents

        if name in registered_agents():
            raise ValueError(
                f"agent {name!r} is a registered Python agent, not a compiled kind: "
                "make it with trickgym.agents.registry.make_agent(name, game)"
            )
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(known_agents())}")
    return KINDS[name]
