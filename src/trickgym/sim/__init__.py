"""Batch simulation: N deals with given agents and seed, as a DataFrame.

Built-in agents (names such as ``"random"``) run inside one compiled,
parallel loop; Python agents (objects with ``act(observation, action_mask)``)
run through the slower Python game API. Either way deal ``k`` of a seed is
the same deal, whatever the number of threads or the chunk size.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..games import GAMES
from ..games import game as make_game
from ..rng import seed_rng
from .solowhist import MAX_PASSED_OUT
from .specs import SPECS

__all__ = ["simulate"]

_BLOCK = 1 << 16


def _agent_kinds(agents, n_seats: int):
    """Per-seat built-in kinds (or ``None`` if any agent is a Python object), and the agents."""
    from trickgym.agents import resolve_agents

    resolved = resolve_agents(agents, n_seats)
    if all(isinstance(a, int) for a in resolved):
        return np.array(resolved, dtype=np.int64), resolved
    names = agents if isinstance(agents, list | tuple) else [agents] * n_seats
    return None, list(names)


def simulate(
    game: str = "solowhist",
    deals: int = 1000,
    agents="random",
    seed: int | None = 0,
    *,
    first: int = 0,
    mode: str = "deal",
    chunk: int = 1024,
    threads: int | None = None,
    progress: bool = False,
    **options,
) -> pd.DataFrame:
    """Play ``deals`` independent deals and return one row per deal.

    Parameters
    ----------
    game : str
        Game name (see ``trickgym.GAMES``).
    deals : int
        Number of deals; rows are deals ``first .. first+deals-1`` of ``seed``.
    agents : str, Agent, or list of them
        One agent for every seat, or one per seat: built-in names
        (``"random"``) or objects with ``act(observation, action_mask)``.
    seed : int
        Reproducibility seed; deal ``k`` depends only on ``(seed, k)``.
    mode : ``"deal"`` or ``"match"``
        ``"deal"``: every deal is the freshly shuffled first deal of its own
        match. ``"match"``: rows are the scored deals of whole matches of
        ``num_deals`` (a game option), dealt as on BGA (dealer rotation,
        gather-and-cut unless the previous contract was Abundance or
        higher); ``deals`` and ``first`` must be multiples of ``num_deals``
        and match ``m`` depends only on ``(seed, m)``.
    chunk : int
        Deals per parallel work item (does not change results).
    threads : int, optional
        numba threads to use (default: all).
    progress : bool
        Show a tqdm progress bar.
    **options
        Game options (``unit=...``), validated by the game.

    Returns
    -------
    pandas.DataFrame
        For Solo Whist: ``deal, dealer, turn_up, contract, declarer, partner,
        trumps, declarer_tricks, made, payoff_0..3, auction, hand_0..3``;
        match mode adds ``match, deal_in_match, passed_out_before, shuffled``
        and ``score_0..3`` (match scores after the deal).
        For Troggu (``players=n``): ``deal, players, dealer, contract,
        declarer, partner, called_card, declarer_points, declarer_tricks,
        made, fool_held_back, fool_held_back_by, auction, payoff_0..n-1,
        points_0..n-1, hand_0..n-1, tapp``.
    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; available: {', '.join(sorted(GAMES))}")
    g = make_game(game, **options)
    for name, value, low in (("deals", deals, 1), ("chunk", chunk, 1), ("first", first, 0)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    _check_threads(threads)
    if mode not in ("deal", "match"):
        raise ValueError(f"mode must be 'deal' or 'match', got {mode!r}")
    match_mode = mode == "match"
    spec = SPECS[game]
    if match_mode and spec.match_block is None:
        raise ValueError(f"mode='match' is not available for {game}; use mode='deal'")
    per_match = g.options.num_deals
    if match_mode and (deals % per_match or first % per_match):
        raise ValueError(
            f"in match mode deals ({deals}) and first ({first}) must be multiples of "
            f"num_deals ({per_match})"
        )
    seed = np.uint64(seed_rng(seed))
    kinds, agent_list = _agent_kinds(agents, g.n_seats)
    if kinds is None:
        from .python_loop import simulate_python, simulate_python_matches

        if match_mode:
            rows = simulate_python_matches(
                g, spec, seed, first // per_match, deals // per_match, agent_list, progress
            )
        else:
            rows = simulate_python(g, spec, seed, first, deals, agent_list, progress)
    else:
        rows = _simulate_compiled(
            g, spec, seed, first, deals, kinds, chunk, threads, progress, match_mode
        )
    if match_mode and (rows["deal"] < 0).any():
        raise ValueError(
            "some matches were abandoned after their agents passed out "
            f"{MAX_PASSED_OUT} deals in a row; use agents that bid"
        )
    return spec.frame(rows, g, match_mode)


def _check_threads(threads) -> None:
    import numba

    most = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        return
    integer = isinstance(threads, int | np.integer) and not isinstance(threads, bool)
    if not integer or not 1 <= threads <= most:
        raise ValueError(f"threads must be an integer 1..{most} (or None for all), got {threads!r}")


def _simulate_compiled(g, spec, seed, first, deals, kinds, chunk, threads, progress, match_mode):
    import numba
    from tqdm.auto import tqdm

    rows = np.zeros(deals, dtype=spec.row_dtype)
    opts = g.options
    # Whole matches per block in match mode, so a block never splits a match.
    block_size = _BLOCK - _BLOCK % opts.num_deals if match_mode else _BLOCK
    old_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        with tqdm(total=deals, unit="deal", disable=not progress, unit_scale=True) as bar:
            for start in range(0, deals, block_size):
                block = rows[start : start + block_size]
                if match_mode:
                    spec.match_block(g, seed, (first + start) // opts.num_deals, kinds, block)
                else:
                    spec.deal_block(g, seed, first + start, kinds, chunk, block)
                bar.update(len(block))
    finally:
        numba.set_num_threads(old_threads)
    return rows
