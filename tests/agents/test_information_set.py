"""No fair agent's decision changes when the cards its seat has not seen are dealt otherwise.

Over every game configuration and every agent that acts on a seat's
information set: the compiled built-in kinds (``random``, ``rule``), which
read the full state inside compiled loops and must use only what the seat
knows, and the registered Python agents (``pimc``, ``ismcts``, ``learnt``
where weights ship), which are handed the seat's observation. Twin deals
come from :func:`conformance_helpers.hidden_twin`: the seat's unseen cards
permuted, the history replayed, the rules' public facts unchanged (``oracle``
sees every hand and is left out on purpose).
"""

from __future__ import annotations

import numpy as np
import pytest
from conformance_helpers import (
    CONFIGS,
    IDS,
    builtin_action,
    game_of,
    hidden_twin,
    random_history,
    replay,
)
from trickgym.agents import python_action
from trickgym.agents.registry import make_agent

BUILTIN = ("random", "rule")
# Tiny budgets: the decision is checked, not its strength.
PYTHON = {"pimc": {"samples": 4}, "ismcts": {"iterations": 24}, "learnt": {}}


def twins(game, rng, wanted: int, seeds: int = 40):
    """Up to ``wanted`` pairs of states, one information set apart, with the seat to move."""
    out = []
    for seed in range(seeds):
        final, actions = random_history(game, seed, int(rng.integers(0, 90)), rng)
        if final.is_over:
            continue
        seat = final.current_player
        twin = hidden_twin(game, final, actions, seat, rng)
        if twin is None:
            continue
        other = replay(game, final.record, *twin)
        assert other.current_player == seat
        out.append((final, other, seat))
        if len(out) == wanted:
            break
    return out


@pytest.mark.parametrize("kind", BUILTIN)
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_builtin_agents_see_only_their_seat(config, kind):
    """``random`` and ``rule``, compiled: the same action in twin states, for many seeds."""
    game = game_of(config)
    rng = np.random.default_rng(21)
    pairs = twins(game, rng, wanted=8)
    assert len(pairs) >= 6
    varied = False
    for a, b, seat in pairs:
        legal = a.legal_actions()
        choices = set()
        for seed in range(1, 9):
            action = builtin_action(kind, a, seat, seed)
            assert action == builtin_action(kind, b, seat, seed)
            assert action in legal
            choices.add(action)
        varied |= len(choices) > 1
    if kind == "random":
        assert varied  # the seeds matter, so the equalities are not vacuous


@pytest.mark.parametrize("kind", list(PYTHON))
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_python_agents_see_only_their_seat(config, kind):
    """The registered Python agents, through ``python_action``: the same action in twin states."""
    game = game_of(config)
    try:
        make_agent(kind, game, **PYTHON[kind])
    except ValueError:
        pytest.skip(f"no {kind} agent for {config.id}")  # learnt: no weights ship for it
    rng = np.random.default_rng(31)
    pairs = twins(game, rng, wanted=3)
    assert len(pairs) >= 2
    for a, b, seat in pairs:
        decisions = []
        for state in (a, b):
            agent = make_agent(kind, game, seed=5, **PYTHON[kind])
            agent.start_deal(77, seat)
            decisions.append(python_action(agent, game, state.array, 0, seat))
        assert decisions[0] == decisions[1]
        assert decisions[0] in a.legal_actions()
