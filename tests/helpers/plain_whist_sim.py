"""Plain whist's simulation: the rows ``simulate`` writes and the frame it returns.

What a game brings to :func:`trickgym.sim.simulate`: a row type, the
``start_deal`` and ``write_row`` kernels its description registers for the
protocol (the simulator's parallel block is the package's), and a
``SimSpec`` turning the rows into a DataFrame. The description names the
spec as ``"helpers.plain_whist_sim.SIM"``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numba import njit

from trickgym.sim.specs import SimSpec, generic_deal_block

from . import plain_whist as pw

__all__ = ["ROW_DTYPE", "SIM", "start_deal", "write_row"]

ROW_DTYPE = np.dtype(
    [
        ("deal", np.int64),
        ("dealer", np.int8),
        ("trumps", np.int8),
        ("doubled", np.bool_),
        ("tricks_won", np.int8, (pw.N_SEATS,)),
        ("payoffs", np.int32, (pw.N_SEATS,)),
        ("hands", np.uint64, (pw.N_SEATS,)),
    ],
    align=True,
)


@njit(cache=True)
def start_deal(state, seed, opts):
    """A one-deal match of ``seed`` (plain whist has no simulation options)."""
    pw.init_match(state, seed, 1, -1)


@njit(cache=True)
def write_row(row, state, deal):
    """The finished deal of ``state`` into the ``ROW_DTYPE`` record ``row``."""
    row.deal = deal
    row.dealer = state.dealer
    row.trumps = state.trumps
    row.doubled = state.doubled
    for s in range(pw.N_SEATS):
        row.tricks_won[s] = state.tricks_won[s]
        row.payoffs[s] = state.payoffs[s]
        row.hands[s] = state.initial_hands[s]


def frame(rows, game, match_mode) -> pd.DataFrame:
    """One row per deal: ``deal, dealer, trumps, doubled, tricks_ns, payoff_0..3``."""
    data = {
        "deal": rows["deal"],
        "dealer": rows["dealer"],
        "trumps": rows["trumps"],
        "doubled": rows["doubled"],
        "tricks_ns": rows["tricks_won"][:, 0] + rows["tricks_won"][:, 2],
    }
    for s in range(pw.N_SEATS):
        data[f"payoff_{s}"] = rows["payoffs"][:, s]
    return pd.DataFrame(data)


SIM = SimSpec(
    row_dtype=ROW_DTYPE,
    deal_block=generic_deal_block(lambda game: np.zeros(1, dtype=np.int64)),
    deal_options=lambda game: np.zeros(1, dtype=np.int64),
    match_block=None,
    frame=frame,
    write_row=write_row,
)
