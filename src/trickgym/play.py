"""A person plays one deal in the terminal against built-in agents.

The table is drawn by :mod:`trickgym.render` (suit symbols, colours, the
legal cards marked; a ten is ``10`` everywhere, as in the card names); the
person answers with a card (``QS``, ``Q♠``, ``10H``), a call (``Solo``,
``pass``) or the number of an action in the menu (``quit`` stops). A
deal is fixed by its seed: the same seed deals the same cards and, given the
same answers, the agents play the same way.
"""

from __future__ import annotations

import sys

import numpy as np

from trickgym.agents import KINDS, python_action, start_deal
from trickgym.agents.registry import make_agent
from trickgym.agents.rule.presets import resolve_presets
from trickgym.engine.loops import act, oracle_flag
from trickgym.engine.params import params_matrix
from trickgym.games import game as make_game

from .agents.registry import is_python_name, known_agents
from .agents.rule.presets import PRESETS
from .checks import check_int, split_names
from .render import TAROT_SUIT_SYMBOLS, card_text, color_enabled, hand_text, strip_ansi
from .rng import derive_seed, seed_rng

__all__ = ["DealAbandoned", "play_deal"]

QUIT_WORDS = ("q", "quit", "exit")
HELP_WORDS = ("?", "h", "help")
ANSWERS = "a menu number 1..{n}, a card (QS, Q♠, 10H) or a call (Pass, Solo)"


class DealAbandoned(ValueError):
    """The person stopped before the deal was over: typed ``quit``, or the input ended."""

    def __init__(self, message: str, seed: int):
        super().__init__(message)
        self.seed = seed


def _opponents(agents, seat: int, n: int) -> dict[int, str]:
    """Agent name of every other seat, in seat order after ``seat``."""
    names = (
        split_names("agents", agents, "rule,random") if isinstance(agents, str) else list(agents)
    )
    names = [a.strip() if isinstance(a, str) else a for a in names]
    if len(names) == 1:
        names = names * (n - 1)
    if len(names) != n - 1:
        raise ValueError(
            f"agents must be one name or {n - 1} (one per other seat, after seat {seat}), "
            f"got {len(names)}"
        )
    known = sorted([*known_agents(), *PRESETS])
    for name in names:
        if name not in known and not is_python_name(name):
            raise ValueError(
                f"unknown agent {name!r}; known agents: {', '.join(known)} "
                "or policy:PATH[:bidding=rule|policy] (a policy's .npz weights)"
            )
    return {(seat + 1 + i) % n: name for i, name in enumerate(names)}


def _action_text(game, action: int, color: bool) -> str:
    if action < game.deck.n_cards:
        return card_text(action, game.deck, color)
    return game.action_name(action)


def _display_order(game, actions: list[int]) -> list[int]:
    """Cards as the hand shows them (by suit, strongest first), then calls in id order."""
    deck = game.deck

    def key(a: int):
        return (1, 0, a) if a >= deck.n_cards else (0, int(deck.suit_of[a]), -a)

    return sorted(actions, key=key)


def _menu(game, legal: list[int], color: bool, width: int = 78) -> str:
    """The legal actions numbered from 1, wrapped to ``width`` columns."""
    lines, line, used = [], "  ", 2
    for i, a in enumerate(legal, start=1):
        item = f"{i}) {_action_text(game, a, color)}"
        size = len(strip_ansi(item)) + 2
        if used + size > width and used > 2:
            lines.append(line.rstrip())
            line, used = "  ", 2
        line += item + "  "
        used += size
    lines.append(line.rstrip())
    return "\n".join(lines)


def _parse_answer(game, state, text: str, legal: list[int]) -> int:
    """The legal action meant by ``text``: a menu number, a card or a call name.

    Raises ``ValueError`` saying why it is not a legal action.
    """
    text = text.strip()
    if text.isdigit():  # a menu position, never a card or action id
        k = int(text)
        if 1 <= k <= len(legal):
            return legal[k - 1]
        raise ValueError(f"{k} is not on the menu (1..{len(legal)})")
    if game.deck.name == "tarot":  # accept the symbols the table shows: "K⚱" is "KC"
        for symbol, letter in zip(TAROT_SUIT_SYMBOLS[1:], game.deck.suit_letters[1:], strict=True):
            text = text.replace(symbol, letter)
    try:
        action = game.parse_action(text)
    except ValueError:  # the API's message offers action ids, which the menu numbers replace
        raise ValueError(f"{text!r} is not {ANSWERS.format(n=len(legal))}") from None
    if action < game.deck.n_cards:  # a card by name: any legal copy of it
        first = action - action % game.deck.copies
        copies = [c for c in range(first, first + game.deck.copies) if c in legal]
        if copies:
            return copies[0]
        hand = int(state.record["hands"][state.current_player])
        if not any(hand >> c & 1 for c in range(first, first + game.deck.copies)):
            raise ValueError(f"you do not hold {game.action_name(action)}")
    if action not in legal:
        raise ValueError(f"{game.action_name(action)} is not legal now")
    return action


def _apply_and_tell(state, action: int, who: str, color: bool, say, hidden: bool) -> None:
    """Apply ``action`` and say who did what, and who won the trick it completed.

    With ``hidden``, a card moved outside the play of a trick (a discard, a
    buried or passed card) is not named: only its owner may know it.
    """
    game = state.game
    phase = int(state.record["phase"])
    before = state.record["tricks_won"].copy()
    state.apply(action)
    if hidden and action < game.deck.n_cards and phase != game.play_phase:
        say(f"  {who}: {game.phase_names[phase]} (a card you cannot see)")
    else:
        say(f"  {who}: {_action_text(state.game, action, color)}")
    gained = np.flatnonzero(state.record["tricks_won"] > before)
    if len(gained):
        say(f"  -- trick won by seat {int(gained[0])}")


def play_deal(
    game_name: str,
    seat: int = 0,
    agents="rule",
    seed: int | None = None,
    options: dict | None = None,
    *,
    stdin=None,
    stdout=None,
    color: bool | None = None,
    rule_options=None,
) -> np.ndarray:
    """Play one deal of ``game_name`` as ``seat`` against built-in ``agents``; return the payoffs.

    ``agents`` is one built-in name for every other seat or a list (or
    comma-separated string) with one per other seat, starting at the seat
    after yours. ``seed`` fixes the deal and the agents' randomness (a fresh
    one is drawn and printed when omitted). ``color`` None decides from the
    output (see :func:`trickgym.render.color_enabled`). Reads answers from
    ``stdin`` and writes to ``stdout`` (default: the terminal). Typing
    ``quit`` (or the end of input) abandons the deal with :class:`DealAbandoned`
    (a ``ValueError`` carrying the deal's seed).
    """
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    game = make_game(game_name, **(options or {}))
    n = game.n_seats
    seat = check_int("seat", seat, 0, n - 1)
    others = _opponents(agents, seat, n)
    # Presets ("fitted") are the compiled rule agent with their own options at their seats.
    names, rule_options = resolve_presets(
        game_name, [others.get(s) for s in range(n)], rule_options, n
    )
    others = {s: names[s] for s in others}
    color = color_enabled(stdout, color)
    seed = seed_rng(seed)
    kinds = [KINDS[name] for name in others.values() if name in KINDS]
    oracle = oracle_flag(kinds)  # None: no solver linked
    params = params_matrix(game, n, rule_options)
    rngs = [np.array([derive_seed(seed, 0, 100 + s)], dtype=np.uint64) for s in range(n)]
    obs = np.zeros(1, dtype=game.obs_dtype)
    state = game.deal(seed=seed)
    # Registered Python agents (pimc, ismcts, ...) see only their seat's record.
    python_agents = {p: make_agent(name, game) for p, name in others.items() if name not in KINDS}
    start_deal([python_agents.get(s) for s in range(n)], seed, 0)

    def say(text: str = "") -> None:
        print(text, file=stdout, flush=True)

    table = ", ".join(f"{s}: {name}" for s, name in sorted(others.items()))
    say(f"{game_name}, seed {seed} (replay with --seed {seed}); you are seat {seat}; {table}")
    while not state.is_over:
        p = state.current_player
        if p != seat:
            if p in python_agents:
                action = python_action(python_agents[p], game, state.array, 0, p)
            else:
                kind = KINDS[others[p]]
                action = int(act(kind, state.array[0], p, rngs[p], obs, params, oracle))
            _apply_and_tell(state, action, f"seat {p} ({others[p]})", color, say, hidden=True)
            continue
        legal = _display_order(game, state.legal_actions())
        say()
        say(game.render(state, color=color, viewer=seat, mark_legal=True))
        say("Your legal actions:")
        say(_menu(game, legal, color))
        while True:
            print(f"Seat {seat}, your move: ", end="", file=stdout, flush=True)
            line = stdin.readline()
            if not line:  # Ctrl-D, or the end of piped answers
                raise DealAbandoned("input ended before the deal was over", seed)
            answer = line.strip()
            if not getattr(stdin, "isatty", lambda: False)():
                say(answer)  # piped answers are not echoed by a terminal
            if answer.lower() in QUIT_WORDS:
                raise DealAbandoned(f"you typed {answer!r}", seed)
            if answer.lower() in HELP_WORDS or not answer:
                say(f"Type {ANSWERS.format(n=len(legal))}, or quit:")
                say(_menu(game, legal, color))
                continue
            try:
                action = _parse_answer(game, state, answer, legal)
            except ValueError as err:
                say(f"{err}. Legal:")
                say(_menu(game, legal, color))
                continue
            break
        _apply_and_tell(state, action, f"seat {p} (you)", color, say, hidden=False)
    payoffs = state.payoffs
    say()
    say(game.render(state, color=color))
    say("Hands as dealt:")
    for s in range(n):
        dealt = hand_text(state.record["initial_hands"][s], game.deck, color=color)
        say(f"  {s}{' (you)' if s == seat else ''}: {dealt}")
    say(
        "Deal over. Payoffs: "
        + "  ".join(
            f"seat {s}{' (you)' if s == seat else ''}: {int(v):+d}" for s, v in enumerate(payoffs)
        )
    )
    return payoffs
