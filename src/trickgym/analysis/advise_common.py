"""Codes shared by the hand advisor's game parts (compiled) and its Python side.

Each game part fills, per sampled deal and candidate call, a status, the
declaring side's tricks (or points), whether the contract was made and the
seat's payoff; the status says how far the numbers can be trusted.
"""

from __future__ import annotations

__all__ = ["DD", "EXACT", "PASSED_OUT", "PROBED", "RULE", "UNSOLVED"]

# Play modes of the compiled block kernels.
RULE = 0
DD = 1
# Outcome status of one (deal, call).
EXACT = 0  # tricks counted exactly (played out, or the exact double-dummy count)
PROBED = 1  # made-or-beaten known from a probe at the goal; tricks scored goal or one short
UNSOLVED = 2  # the solver ran out of its node budget: left out of every average
PASSED_OUT = 3  # no contract was played (payoff 0)
