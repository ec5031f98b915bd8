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
    deals: int | None = None,
    agents="random",
    seed: int | None = 0,
    *,
    matches: int | None = None,
    first: int = 0,
    dealing: str = "shuffled",
    chunk: int = 1024,
    threads: int | None = None,
    progress: bool = False,
    rule_options=None,
    **options,
) -> pd.DataFrame:
    """Play ``deals`` deals (Phat: ``matches`` whole matches) and return one row per deal.

    Parameters
    ----------
    game : str
        Game name (see ``trickgym.GAMES``).
    deals : int
        Number of deals (default 1000); rows are deals ``first ..
        first+deals-1`` of ``seed``. Not for Phat.
    matches : int
        Phat only: number of matches (races to 181, ``games_in_match`` each;
        default 100); rows are all the deals of matches ``first ..
        first+matches-1``, and match ``m`` depends only on ``(seed, m)``.
    agents : str, Agent, or list of them
        One agent for every seat, or one per seat: built-in names
        (``"random"``) or objects with ``act(observation, action_mask)``.
    seed : int
        Reproducibility seed; deal ``k`` depends only on ``(seed, k)``.
    dealing : ``"shuffled"`` or ``"match"``
        ``"shuffled"``: every deal is the freshly shuffled first deal of its
        own match. ``"match"`` (Solo Whist): rows are the scored deals of whole matches of
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
    rule_options : optional
        The rule agents' settings (``trickgym.agents.rule.<game>.RuleOptions``):
        one object for every seat or a list with one per seat; default
        settings when omitted.
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
        For Phat: ``match, game, deal, pitcher, trumps, tricks, phat_ns,
        phat_ew, muck_ns, muck_ew, bonus_to, bonus, carry, score_ns,
        score_ew, game_over, winner, hand_0..3``.
    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; available: {', '.join(sorted(GAMES))}")
    g = make_game(game, **options)
    spec = SPECS[game]
    from trickgym.agents.rule import params_matrix

    params = params_matrix(game, g.n_seats, rule_options)
    if spec.unit == "match":
        if deals is not None:
            raise ValueError(
                f"{game} is simulated in whole matches: pass matches=N, not deals={deals!r}"
            )
        _check_count("chunk", chunk, 1)  # unused: a whole match is the unit of work
        n_matches = 100 if matches is None else matches
        return _simulate_whole_matches(
            g, spec, n_matches, agents, seed, first, threads, progress, params
        )
    if matches is not None:
        raise ValueError("matches= is for games simulated in whole matches (phat); use deals=")
    deals = 1000 if deals is None else deals
    for name, value, low in (("deals", deals, 1), ("chunk", chunk, 1), ("first", first, 0)):
        _check_count(name, value, low)
    _check_threads(threads)
    if dealing not in ("shuffled", "match"):
        raise ValueError(f"dealing must be 'shuffled' or 'match', got {dealing!r}")
    match_mode = dealing == "match"
    if match_mode and spec.match_block is None:
        raise ValueError(f"dealing='match' is not available for {game}; use dealing='shuffled'")
    per_match = g.options.num_deals if match_mode else 1
    if match_mode and (deals % per_match or first % per_match):
        raise ValueError(
            f"with dealing='match', deals ({deals}) and first ({first}) must be multiples of "
            f"num_deals ({per_match})"
        )
    seed = np.uint64(seed_rng(seed))
    kinds, agent_list = _agent_kinds(agents, g.n_seats)
    if kinds is None:
        from .python_loop import simulate_python, simulate_python_matches

        if match_mode:
            rows = simulate_python_matches(
                g, spec, seed, first // per_match, deals // per_match, agent_list, progress, params
            )
        else:
            rows = simulate_python(g, spec, seed, first, deals, agent_list, progress, params)
    else:
        rows = _simulate_compiled(
            g, spec, seed, first, deals, kinds, params, chunk, threads, progress, match_mode
        )
    if match_mode and (rows["deal"] < 0).any():
        raise ValueError(
            "some matches were abandoned after their agents passed out "
            f"{MAX_PASSED_OUT} deals in a row; use agents that bid"
        )
    return spec.frame(rows, g, match_mode)


def _check_count(name: str, value, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")


def _simulate_whole_matches(g, spec, matches, agents, seed, first, threads, progress, params):
    """Phat: all deals of ``matches`` matches, compiled or through the Python loop."""
    import numba
    from tqdm.auto import tqdm

    _check_count("matches", matches, 1)
    _check_count("first", first, 0)
    _check_threads(threads)
    seed = np.uint64(seed_rng(seed))
    kinds, agent_list = _agent_kinds(agents, g.n_seats)
    if kinds is None:
        from .python_loop import simulate_python_whole_matches

        rows = simulate_python_whole_matches(
            g, spec, seed, first, matches, agent_list, progress, params
        )
        return spec.frame(rows[rows["deal"] >= 0], g, True)
    slots = spec.slots(g)
    per_block = max(1, _BLOCK // slots)
    parts = []
    old_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        with tqdm(total=matches, unit="match", disable=not progress, unit_scale=True) as bar:
            for start in range(0, matches, per_block):
                count = min(per_block, matches - start)
                block = np.zeros(count * slots, dtype=spec.row_dtype)
                spec.match_block(g, seed, first + start, kinds, params, block)
                parts.append(block[block["deal"] >= 0])
                bar.update(count)
    finally:
        numba.set_num_threads(old_threads)
    return spec.frame(np.concatenate(parts), g, True)


def _check_threads(threads) -> None:
    import numba

    most = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        return
    integer = isinstance(threads, int | np.integer) and not isinstance(threads, bool)
    if not integer or not 1 <= threads <= most:
        raise ValueError(f"threads must be an integer 1..{most} (or None for all), got {threads!r}")


def _simulate_compiled(
    g, spec, seed, first, deals, kinds, params, chunk, threads, progress, match_mode
):
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
                    first_match = (first + start) // opts.num_deals
                    spec.match_block(g, seed, first_match, kinds, params, block)
                else:
                    spec.deal_block(g, seed, first + start, kinds, params, chunk, block)
                bar.update(len(block))
    finally:
        numba.set_num_threads(old_threads)
    return rows
