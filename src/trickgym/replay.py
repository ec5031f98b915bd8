"""A deal played by agents and kept move by move, for the replay page.

:func:`record_deal` plays one deal of a game from a seed with one agent per
seat, exactly as ``trickgym play --seed`` deals it, and keeps after every
move the table's picture (every hand open, or one seat's view), what was
played, and the values a search or learnt agent compared at its decision
(the ``last_values`` hook of :mod:`trickgym.agents`). :func:`write_replay`
turns it into one self-contained HTML page (:mod:`trickgym.replay_page`).

Example::

    from trickgym.replay import write_replay
    write_replay("deal.html", "solowhist", seed=7, agents="pimc,rule,rule,rule")
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from trickgym.agents import KINDS, python_action, start_deal
from trickgym.agents.registry import make_agent
from trickgym.agents.rule.presets import resolve_presets
from trickgym.engine.loops import act, oracle_flag
from trickgym.engine.params import params_matrix
from trickgym.games import game as make_game

from .agents import is_agent
from .agents.registry import is_python_name, known_agents
from .agents.rule.presets import PRESETS
from .api import Game
from .checks import check_int
from .render import card_text, suit_colour
from .replay_page import replay_html
from .rng import derive_seed, seed_rng

__all__ = ["Move", "Replay", "record_deal", "write_replay"]


@dataclass
class Move:
    """One move of a recorded deal and the picture of the table after it."""

    seat: int
    agent: str
    action: int
    text: str  # what a person reads: "seat 2 (pimc) plays Q♥"
    svg: str
    values: list[dict] | None = None  # [{"action", "label", "suit", "value", "chosen"}]
    values_name: str = ""
    trick_won_by: int = -1


@dataclass
class Replay:
    """A recorded deal: its game, seed and agents, the first picture, the moves, the result."""

    game: object
    seed: int
    agents: list[str]  # per seat: the name, or an agent object's class name
    viewer: int | None
    start_svg: str
    moves: list[Move] = field(default_factory=list)
    payoffs: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    result: list[str] = field(default_factory=list)


def _seat_agents(agents, n: int) -> list:
    """One agent per seat (a name or an agent object) from one, a comma-separated string
    or a list."""
    seats = agents.split(",") if isinstance(agents, str) else agents
    if is_agent(seats):
        seats = [seats]
    if not isinstance(seats, list | tuple) or not all(
        isinstance(a, str) or is_agent(a) for a in seats
    ):
        raise ValueError(
            f"agents must be a name, an agent object or a list of them, got {agents!r:.80}"
        )
    seats = [a.strip() if isinstance(a, str) else a for a in seats]
    if len(seats) == 1:
        seats = seats * n
    if len(seats) != n:
        raise ValueError(f"agents must be one name or {n} (one per seat), got {len(seats)}")
    known = sorted([*known_agents(), *PRESETS])
    for name in seats:
        if isinstance(name, str) and name not in known and not is_python_name(name):
            raise ValueError(
                f"unknown agent {name!r}; known agents: {', '.join(known)} "
                "or policy:PATH[:bidding=rule|policy] (a policy's .npz weights)"
            )
    return seats


def _values(game, agent, action: int) -> tuple[list[dict] | None, str]:
    """What ``agent`` compared at the decision it just made (its ``last_values``), if anything."""
    seen = getattr(agent, "last_values", None)
    if seen is None:
        return None, ""
    deck = game.deck
    rows = []
    for a, v in zip(*seen, strict=True):
        a, v = int(a), float(v)
        card = a < deck.n_cards
        rows.append(
            {
                "action": a,
                "label": card_text(a, deck) if card else game.action_name(a),
                "colour": suit_colour(deck, int(deck.suit_of[a])) if card else "",
                "value": v if np.isfinite(v) else None,  # JSON has no infinity
                "chosen": a == action,
            }
        )
    rows.sort(key=lambda r: -np.inf if r["value"] is None else r["value"], reverse=True)
    return rows, str(getattr(agent, "values_name", "value"))


def _move_text(game, seat: int, agent: str, action: int, phase: int, hidden: bool) -> str:
    """``"seat 2 (pimc) plays Q♥"``; a card moved outside a trick is not named when hidden."""
    who = f"seat {seat} ({agent})"
    if action >= game.deck.n_cards:
        return f"{who}: {game.action_name(action)}"
    if phase != game.play_phase:
        what = "a card" if hidden else card_text(action, game.deck)
        return f"{who}: {game.phase_names[phase]} {what}"
    return f"{who} plays {card_text(action, game.deck)}"


def record_deal(
    game,
    seed: int,
    agents="rule",
    *,
    viewer: int | None = None,
    options: dict | None = None,
    rule_options=None,
) -> Replay:
    """Play one deal of ``game`` from ``seed`` and keep every move (see the module docstring).

    ``game``: a name (with table ``options``) or a ``trickgym.api.Game``;
    ``agents``: one for every seat, or one per seat (a list or
    ``"pimc,rule,rule,rule"``): a name (built-in, registered such as ``pimc``,
    ``ismcts`` or ``learnt``, a rule preset, ``policy:PATH``) or an agent
    object (``act``/``act_record``; its ``last_values`` are shown). ``viewer`` None draws every
    hand open; a seat draws that seat's view, names only its own hidden moves
    (discards, passed cards) and shows only its own agent's values.
    """
    if isinstance(game, Game):
        if options:
            raise ValueError("options= is for a game given by name; this Game has its own")
    else:
        game = make_game(game, **(options or {}))
    n = game.n_seats
    if viewer is not None:
        viewer = check_int("viewer", viewer, 0, n - 1)
    seed = seed_rng(seed)
    seats = _seat_agents(agents, n)
    names = [a if isinstance(a, str) else type(a).__name__ for a in seats]
    # Presets ("fitted") are the compiled rule agent with their own options at their seats.
    seats, rule_options = resolve_presets(game.name, list(seats), rule_options, n)
    params = params_matrix(game, n, rule_options)
    python_agents = {
        s: make_agent(a, game) if isinstance(a, str) else a
        for s, a in enumerate(seats)
        if not (isinstance(a, str) and a in KINDS)
    }
    oracle = oracle_flag([KINDS[a] for a in seats if isinstance(a, str) and a in KINDS])
    # The deal and the agents' draws of `trickgym play --seed`: the same seed, the same deal.
    rngs = [np.array([derive_seed(seed, 0, 100 + s)], dtype=np.uint64) for s in range(n)]
    obs = np.zeros(1, dtype=game.obs_dtype)
    state = game.deal(seed=seed)
    start_deal([python_agents.get(s) for s in range(n)], seed, 0)
    replay = Replay(game, seed, names, viewer, state.to_svg(viewer))
    while not state.is_over:
        p = state.current_player
        phase = int(state.record["phase"])
        values, values_name = None, ""
        if p in python_agents:
            action = python_action(python_agents[p], game, state.array, 0, p)
            if viewer is None or viewer == p:
                values, values_name = _values(game, python_agents[p], action)
        else:
            kind = KINDS[seats[p]]
            action = int(act(kind, state.array[0], p, rngs[p], obs, params, oracle))
        before = state.record["tricks_won"].copy()
        state.apply(action)
        gained = np.flatnonzero(state.record["tricks_won"] > before)
        hidden = viewer is not None and viewer != p
        move = Move(
            seat=p,
            agent=names[p],
            action=action,
            text=_move_text(game, p, names[p], action, phase, hidden),
            svg=state.to_svg(viewer),
            values=values,
            values_name=values_name,
            trick_won_by=int(gained[0]) if len(gained) else -1,
        )
        replay.moves.append(move)
    replay.payoffs = state.payoffs.tolist()
    replay.scores = state.scores.tolist()
    replay.result = game.describe(state)["result"]
    return replay


def write_replay(
    path,
    game,
    seed: int,
    agents="rule",
    *,
    viewer: int | None = None,
    options: dict | None = None,
    rule_options=None,
) -> Path:
    """Record a deal (:func:`record_deal`) and write its replay page to ``path``; returns it.

    The page is one HTML file with everything inline (pictures, style,
    script): it opens offline, from disk, with no server.
    """
    if not isinstance(path, str | Path) or not str(path):
        raise ValueError(f"path must be a file path, got {path!r}")
    replay = record_deal(
        game, seed, agents, viewer=viewer, options=options, rule_options=rule_options
    )
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)  # as simulate's out=: out/deal.html
    path.write_text(replay_html(replay), encoding="utf-8")
    return path
