"""Plain whist's oracle: registered by name, imported only when an oracle seat is compiled.

It sees every hand (an upper bound, never a fair player) and reuses the
package's generic rollout oracle; plain whist has no solver, so its table
is a placeholder that the loops carry from decision to decision.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trickgym.agents.oracle import rollout_oracle

__all__ = ["oracle_action", "oracle_no_table", "oracle_table"]


@njit(cache=True)
def oracle_action(state, seat, rng, obs, params, table):
    """The legal action whose rule-agent playout from the true deal pays ``seat`` most."""
    return rollout_oracle(state, seat, rng, obs, params)


@njit(cache=True)
def oracle_no_table(state):
    """The placeholder table a loop starts a deal with (there is no solver to feed)."""
    return np.zeros(1, dtype=np.int64)


@njit(cache=True)
def oracle_table(state, table):
    """The table for this decision: always the placeholder."""
    return table
