"""Codes shared by the hand advisor's kernels, its game parts and its Python side.

Per sampled deal and candidate call the advisor fills a status, the
declaring side's tricks (or points), whether the contract was made and the
seat's payoff; the status says how far the numbers can be trusted.
"""

from __future__ import annotations

__all__ = [
    "EXACT",
    "EXACT_NODES",
    "LOG2_BUCKETS",
    "NODE_LIMIT",
    "NO_SIDE",
    "PASSED_OUT",
    "POINTS_DD_DEALS",
    "POINTS_DD_NODE_LIMIT",
    "POINTS_TABLE_LOG2",
    "PROBED",
    "UNSOLVED",
]

# Outcome status of one (deal, call).
EXACT = 0  # tricks counted exactly (played out, or the exact double-dummy count)
PROBED = 1  # made-or-beaten known from a probe at the goal; tricks scored goal or one short
UNSOLVED = 2  # the solver ran out of its node budget: counted apart, never averaged
PASSED_OUT = 3  # no contract was played (payoff 0)
# The contract reached has no declaring side to solve for (Troggu's Misère: everybody
# plays for themselves): played out by the rule agents, its payoff counted.
NO_SIDE = 4

# The solver's settings (``limits``, an int64 row) when the advisor solves deals.
LOG2_BUCKETS = 0  # solver table of 2**this buckets per chunk of deals
NODE_LIMIT = 1  # node budget of one made-or-beaten probe (0: none)
EXACT_NODES = 2  # node budget of an exact count tried first (0: never)

# Phat, Pinochle and Troggu solved (``play="dd"``): the node budget of one full-deal
# point-trick solve (about 8 M nodes a second today: Pinochle kitty's median deal fits,
# Phat's and Troggu's mostly do not until the solver is faster), fewer deals by default,
# and a points table of 2**20 slots (24 MB) per chunk of deals.
POINTS_DD_NODE_LIMIT = 4_000_000
POINTS_DD_DEALS = 100
POINTS_TABLE_LOG2 = 20
