"""What the simulator needs to know of each game, in one place."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from trickgym.agents import solowhist as solowhist_agents
from trickgym.agents import troggu as troggu_agents

from . import solowhist, troggu
from .frames import solowhist_frame, troggu_frame

__all__ = ["SPECS", "SimSpec"]


@dataclass(frozen=True)
class SimSpec:
    """A game's simulation pieces.

    ``deal_block(game, seed, first, kinds, chunk, rows)`` fills ``rows`` with
    independent deals; ``match_block(game, seed, first_match, kinds, rows)``
    with the scored deals of whole matches (``None``: no match mode);
    ``frame(rows, game, match_mode)`` makes the DataFrame;
    ``play_builtin_until`` and ``write_row`` serve the Python loop.
    """

    row_dtype: np.dtype
    deal_block: Callable[..., Any]
    match_block: Callable[..., Any] | None
    frame: Callable[..., Any]
    play_builtin_until: Callable[..., Any]
    write_row: Callable[..., Any]


def _solowhist_deals(game, seed, first, kinds, chunk, rows):
    opts = game.options
    solowhist.simulate_block(seed, first, kinds, opts.unit, opts.early_stop, chunk, rows)


def _solowhist_matches(game, seed, first_match, kinds, rows):
    opts = game.options
    solowhist.simulate_match_block(
        seed,
        first_match,
        kinds,
        opts.unit,
        opts.num_deals,
        opts.always_shuffle,
        opts.early_stop,
        rows,
    )


def _troggu_deals(game, seed, first, kinds, chunk, rows):
    troggu.simulate_block(seed, first, kinds, game.n_seats, chunk, rows)


SPECS = {
    "solowhist": SimSpec(
        row_dtype=solowhist.ROW_DTYPE,
        deal_block=_solowhist_deals,
        match_block=_solowhist_matches,
        frame=lambda rows, game, match_mode: solowhist_frame(rows, match_mode),
        play_builtin_until=solowhist_agents.play_builtin_until,
        write_row=solowhist.write_row,
    ),
    "troggu": SimSpec(
        row_dtype=troggu.ROW_DTYPE,
        deal_block=_troggu_deals,
        match_block=None,
        frame=lambda rows, game, match_mode: troggu_frame(rows, game.n_seats),
        play_builtin_until=troggu_agents.play_builtin_until,
        write_row=troggu.write_row,
    ),
}
