"""The Python-side simulation loop, for agents that are Python objects.

Built-in agents mixed in still run their compiled kernel; every deal is the
same as in the compiled loop (same seeds), only slower.
"""

from __future__ import annotations

import numpy as np

from trickgym.agents import resolve_kind
from trickgym.agents.solowhist import act_solowhist
from trickgym.api import State
from trickgym.rng import derive_seed

from .solowhist import ROW_DTYPE, _write_row

__all__ = ["simulate_python"]


def simulate_python(game, seed, first, deals, agents, progress=False) -> np.ndarray:
    """Rows (``ROW_DTYPE``) of deals ``first..first+deals-1`` played by ``agents``."""
    from tqdm.auto import tqdm

    k = game.kernels
    rows = np.zeros(deals, dtype=ROW_DTYPE)
    agent_rngs = np.zeros((game.n_seats, 1), dtype=np.uint64)
    kinds = [resolve_kind(a) if isinstance(a, str) else -1 for a in agents]
    opts = game.options
    for i in tqdm(range(deals), disable=not progress, unit="deal"):
        deal = first + i
        array = np.zeros(1, dtype=game.state_dtype)
        k.init_match(
            array[0], np.uint64(derive_seed(seed, deal, 0)), opts.unit, 1, True, opts.early_stop, -1
        )
        for s in range(game.n_seats):
            agent_rngs[s, 0] = derive_seed(seed, deal, 1 + s)
        state = State(game, array)
        while not state.is_over:
            p = state.current_player
            if kinds[p] >= 0:
                action = act_solowhist(kinds[p], state.record, p, agent_rngs[p])
            else:
                obs = state.observe(p)
                action = int(agents[p].act(obs, obs["action_mask"]))
                if not k.is_legal(state.record, action):
                    raise ValueError(
                        f"agent {agents[p]!r} at seat {p} chose illegal action {action}; "
                        f"legal: {state.legal_actions()}"
                    )
            k.apply_action(state.record, action)
        _write_row(rows[i], state.record, deal)
    return rows
