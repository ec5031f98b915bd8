"""Built-in agents as integer kinds, so compiled loops can select them.

``KINDS`` maps a name to its kind; the loops of :mod:`.loops` run kind
``k`` for a seat using only what that seat may know. Names of Python agents
resolve in :mod:`trickgym.agents.registry`.
"""

from __future__ import annotations

__all__ = ["KINDS", "ORACLE", "RANDOM", "RULE"]

RANDOM = 0
RULE = 1  # acts on its seat's observation with the game's rule heuristics
ORACLE = 2  # sees every hand: an upper bound, for measurement only
KINDS = {"random": RANDOM, "rule": RULE, "oracle": ORACLE}
