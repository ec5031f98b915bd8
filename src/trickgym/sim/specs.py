"""What the simulator needs to know of a game: its ``SimSpec``, named by its description.

Each built-in game's description (``GameDescription.sim``) names one of the
specs below; :data:`SPECS` reads them through the registry of descriptions
(:mod:`trickgym.games`), so a game registered later is simulated too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from trickgym.engine.loops import oracle_flag

from ..games import DESCRIPTIONS, description
from ..games import game as make_game
from ..protocol import load
from ..records import fields_of
from . import blocks, phat, pinochle, solowhist, troggu
from .frames import phat_frame, pinochle_frame, solowhist_frame, troggu_frame

__all__ = [
    "PHAT",
    "PINOCHLE",
    "SOLOWHIST",
    "SPECS",
    "TROGGU",
    "SimSpec",
    "generic_deal_block",
    "sim_spec",
]


@dataclass(frozen=True)
class SimSpec:
    """A game's simulation pieces.

    ``deal_block(game, seed, first, kinds, params, chunk, rows)`` fills
    ``rows`` with independent deals; ``match_block(game, seed, first_match,
    kinds, params, rows)``
    with the scored deals of whole matches (``None``: no match mode);
    ``frame(rows, game, match_mode)`` makes the DataFrame;
    ``write_row`` serves the Python loop, and ``deal_options(game)`` gives the
    ``int64`` options of the game's ``start_deal`` hook (``None``: no
    independent deals).
    ``unit`` is ``"deal"``, or ``"match"`` for a game simulated only in whole
    matches (Phat), whose ``slots(game)`` rows are reserved per match.
    ``whole_matches(game, seed, first_match, matches, kinds, params)``
    returns the rows of every deal of whole matches (races to a target:
    Phat, Pinochle), and ``write_match_row(row, state, match, k)`` writes
    deal ``k`` of a match from the Python loop.
    ``seat_payoffs(df, n_seats)`` gives each row's payoff per seat as a
    float64 ``[rows, seats]`` array (a partnership game: its team's margin;
    ``None``: the frame's ``payoff_<seat>`` columns), what tournaments score.
    ``add_dd(rows, max_nodes, game)`` returns the rows with their double-dummy
    columns (records of ``dd_row_dtype``; ``None``: the game has no
    double-dummy solver yet), with ``dd_default_max_nodes`` the default
    node budget of a solver call and ``dd_options(game)`` the ``int64``
    options a point-trick game's first lead reads beside the row
    (:func:`trickgym.sim.dd_columns_points.with_options`; ``None``: none).
    """

    row_dtype: np.dtype
    deal_block: Callable[..., Any] | None
    match_block: Callable[..., Any] | None
    frame: Callable[..., Any]
    write_row: Callable[..., Any]
    unit: str = "deal"
    slots: Callable[..., int] | None = None
    whole_matches: Callable[..., Any] | None = None
    write_match_row: Callable[..., Any] | None = None
    add_dd: Callable[..., Any] | None = None
    dd_row_dtype: np.dtype | None = None
    dd_default_max_nodes: int | None = None
    deal_options: Callable[..., np.ndarray] | None = None
    seat_payoffs: Callable[..., np.ndarray] | None = None
    dd_options: Callable[..., np.ndarray] | None = None

    def payoffs_by_seat(self, df, n_seats: int) -> np.ndarray:
        """Each row's payoff per seat (``float64[rows, n_seats]``): see ``seat_payoffs``."""
        if self.seat_payoffs is not None:
            return self.seat_payoffs(df, n_seats)
        return df[[f"payoff_{s}" for s in range(n_seats)]].to_numpy(np.float64)


def _deals(sim_module):
    """The ``deal_block`` of a game whose simulation module gives ``deal_options``."""
    return generic_deal_block(sim_module.deal_options)


def generic_deal_block(deal_options):
    """A ``SimSpec.deal_block`` running the protocol's ``start_deal``/``write_row`` hooks.

    ``deal_options(game)`` gives the ``int64`` options the game's
    ``start_deal`` kernel reads. What a game registered from outside the
    package uses for independent deals.
    """

    def deal_block(game, seed, first, kinds, params, chunk, rows):
        template = np.empty(1, dtype=game.state_dtype)
        blocks.deal_block(
            template,
            seed,
            first,
            kinds,
            params,
            oracle_flag(kinds),
            deal_options(game),
            chunk,
            rows,
        )

    return deal_block


def _solowhist_matches(game, seed, first_match, kinds, params, rows):
    opts = game.options
    solowhist.simulate_match_block(
        seed,
        first_match,
        kinds,
        params,
        oracle_flag(kinds),
        opts.unit,
        opts.num_deals,
        opts.always_shuffle,
        opts.early_stop,
        rows,
    )


def _solowhist_add_dd(rows, max_nodes, game=None):
    from . import dd_columns_solowhist  # the solver: imported by dd runs only

    return dd_columns_solowhist.add_dd(rows, max_nodes)


def _points_add_dd(name, dtype):
    """The ``add_dd`` of a point-trick game (:mod:`trickgym.sim.dd_columns_points`)."""

    def add_dd(rows, max_nodes, game=None):
        # lazy: dd_columns_points reads these specs (an import circle)
        from . import dd_columns_points

        game = game or make_game(name)
        return dd_columns_points.add_dd(game, rows, dtype, max_nodes, sim_spec(game).dd_options)

    return add_dd


def _points_dd_dtype(row_dtype):
    """The dd row type of a point-trick game, without importing the solver."""
    return np.dtype(
        [
            *fields_of(row_dtype),
            ("dd_points", np.int16),
            ("dd_made", np.int8),
            ("dd_status", np.int8),
        ],
        align=True,
    )


_POINTS_DD_NODES = 4_000_000  # trickgym.sim.dd_columns_points.DD_DEFAULT_MAX_NODES


def _phat_matches(game, seed, first_match, kinds, params, rows):
    opts = game.options
    slots = phat.slots_per_match(opts.games_in_match, opts.target)
    phat.simulate_match_block(
        seed,
        first_match,
        kinds,
        params,
        oracle_flag(kinds),
        opts.target,
        opts.games_in_match,
        slots,
        rows,
    )


def _phat_whole_matches(game, seed, first_match, matches, kinds, params):
    slots = phat.slots_per_match(game.options.games_in_match, game.options.target)
    rows = np.zeros(matches * slots, dtype=phat.ROW_DTYPE)
    _phat_matches(game, seed, first_match, kinds, params, rows)
    return rows[rows["deal"] >= 0]


def _pinochle_whole_matches(game, seed, first_match, matches, kinds, params):
    """Rows of every hand of ``matches`` races to the target, in match order.

    Each match first gets ``default_slots`` rows; the few longer ones are
    played again alone with exactly the room they need (same seeds, same hands).
    """
    target = game.options.target
    slots = pinochle.default_slots(target)
    rows = np.zeros(matches * slots, dtype=pinochle.ROW_DTYPE)
    counts = np.zeros(matches, dtype=np.int64)
    opts = pinochle.deal_options(game)
    pinochle.simulate_match_block(
        seed, first_match, kinds, params, oracle_flag(kinds), opts, target, slots, rows, counts
    )
    if (counts > pinochle.MAX_HANDS).any():
        m = first_match + int(np.argmax(counts > pinochle.MAX_HANDS))
        raise ValueError(
            f"pinochle match {m} did not reach the target {target} in {pinochle.MAX_HANDS} "
            "hands; use agents that bid and take tricks, or a lower target"
        )
    parts = []
    for m in range(matches):
        if counts[m] <= slots:
            parts.append(rows[m * slots : m * slots + counts[m]])
            continue
        long_rows = np.zeros(counts[m], dtype=pinochle.ROW_DTYPE)
        one = np.zeros(1, dtype=np.int64)
        pinochle.simulate_match_block(
            seed,
            first_match + m,
            kinds,
            params,
            oracle_flag(kinds),
            opts,
            target,
            counts[m],
            long_rows,
            one,
        )
        parts.append(long_rows)
    return np.concatenate(parts) if parts else rows[:0]


def _pinochle_match_row(row, state, match, k):
    pinochle.write_row(row, state, k)
    row["match"] = match


def _team_margins(margin: np.ndarray) -> np.ndarray:
    """Seats 0 and 2 (NS) get ``margin``, seats 1 and 3 (EW) its negation."""
    return np.stack([margin, -margin, margin, -margin], axis=1)


def _pinochle_seat_payoffs(df, n_seats):
    return _team_margins((df["score_ns"] - df["score_ew"]).to_numpy(np.float64))


def _phat_seat_payoffs(df, n_seats):
    bonus_ns = np.where(df["bonus_to"] == "NS", df["bonus"], 0)
    bonus_ew = np.where(df["bonus_to"] == "EW", df["bonus"], 0)
    return _team_margins((df["phat_ns"] + bonus_ns - df["phat_ew"] - bonus_ew).to_numpy(np.float64))


SOLOWHIST = SimSpec(
    row_dtype=solowhist.ROW_DTYPE,
    deal_block=_deals(solowhist),
    deal_options=solowhist.deal_options,
    match_block=_solowhist_matches,
    frame=lambda rows, game, match_mode: solowhist_frame(rows, match_mode),
    write_row=solowhist.write_row,
    add_dd=_solowhist_add_dd,
    dd_row_dtype=solowhist.DD_ROW_DTYPE,
    dd_default_max_nodes=4_000_000,  # trickgym.sim.dd_columns_solowhist.DD_DEFAULT_MAX_NODES
)

TROGGU = SimSpec(
    row_dtype=troggu.ROW_DTYPE,
    deal_block=_deals(troggu),
    deal_options=troggu.deal_options,
    match_block=None,
    frame=lambda rows, game, match_mode: troggu_frame(rows, game.n_seats),
    write_row=troggu.write_row,
    add_dd=_points_add_dd("troggu", _points_dd_dtype(troggu.ROW_DTYPE)),
    dd_row_dtype=_points_dd_dtype(troggu.ROW_DTYPE),
    dd_default_max_nodes=_POINTS_DD_NODES,
)

PHAT = SimSpec(
    row_dtype=phat.ROW_DTYPE,
    deal_block=None,
    match_block=_phat_matches,
    frame=lambda rows, game, match_mode: phat_frame(rows),
    write_row=phat.write_row,
    unit="match",
    slots=lambda game: phat.slots_per_match(game.options.games_in_match, game.options.target),
    whole_matches=_phat_whole_matches,
    write_match_row=lambda row, state, match, k: phat.write_row(row, state, match),
    seat_payoffs=_phat_seat_payoffs,
    add_dd=_points_add_dd("phat", _points_dd_dtype(phat.ROW_DTYPE)),
    dd_row_dtype=_points_dd_dtype(phat.ROW_DTYPE),
    dd_default_max_nodes=_POINTS_DD_NODES,
)

PINOCHLE = SimSpec(
    row_dtype=pinochle.ROW_DTYPE,
    deal_block=_deals(pinochle),
    deal_options=pinochle.deal_options,
    match_block=None,
    frame=lambda rows, game, match_mode: pinochle_frame(rows, match_mode),
    write_row=pinochle.write_row,
    whole_matches=_pinochle_whole_matches,
    write_match_row=_pinochle_match_row,
    seat_payoffs=_pinochle_seat_payoffs,
    dd_options=pinochle.deal_options,  # the rule options its first lead replays the auction with
    add_dd=_points_add_dd("pinochle", _points_dd_dtype(pinochle.ROW_DTYPE)),
    dd_row_dtype=_points_dd_dtype(pinochle.ROW_DTYPE),
    dd_default_max_nodes=_POINTS_DD_NODES,
)


def sim_spec(game) -> SimSpec:
    """The ``SimSpec`` of a game (name, instance or class) from its description.

    Raises ``ValueError`` for an unknown game or one its description gives no
    simulation.
    """
    desc = description(game)
    if desc.sim is None:
        raise ValueError(f"{desc.name} has no simulation (its description names no SimSpec)")
    return load(desc.sim)


class _Specs(Mapping):
    """``{game name: SimSpec}`` of every registered game that has one, read when asked."""

    def _names(self) -> list[str]:
        return [name for name, d in DESCRIPTIONS.items() if d.sim is not None]

    def __getitem__(self, name: str) -> SimSpec:
        if name not in self._names():
            raise KeyError(name)
        return sim_spec(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


#: Every registered game's ``SimSpec`` by name (from the descriptions).
SPECS: Mapping[str, SimSpec] = _Specs()
