"""No fair agent's decision changes when the cards its seat has not seen are dealt otherwise.

Over every game configuration, the compiled built-in kinds (``random``,
``rule``): they read the full state inside compiled loops and must use only
what the seat knows. Twin deals come from
:func:`conformance_helpers.hidden_twin`: the seat's unseen cards permuted,
the history replayed, the rules' public facts unchanged (``oracle`` sees
every hand and is left out on purpose).

The policy agent (``trickgym.agents.policy``) is checked here too. The other
registered Python agents are handed only the seat's observation record;
that their decisions ignore hidden cards is checked over every game
configuration where they are compiled anyway, with the memory they build
over a deal: ``pimc`` and ``ismcts`` in ``tests/agents/test_pimc.py``, ``learnt``
in ``tests/agents/test_learnt.py`` (their search kernels take minutes to compile,
which a second file would do again on the other CI worker).
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

BUILTIN = ("random", "rule")


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


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_policy_agents_see_only_their_seat(config):
    """A policy agent (random MLP weights over the features observation): the same action
    in twin states, for several weights, whose choices differ (so the test can fail)."""
    from trickgym.agents import python_action
    from trickgym.agents.policy import PolicyAgent
    from trickgym.games.obs_features import feature_plan

    game = game_of(config)
    rng = np.random.default_rng(5)
    pairs = twins(game, rng, wanted=6)
    assert len(pairs) >= 4
    size = feature_plan(game).size
    choices = [set() for _ in pairs]
    for k in range(4):
        w = np.random.default_rng(k)
        agent = PolicyAgent(game, {
            "w0": w.normal(0, 0.3, (size, 8)), "b0": w.normal(0, 0.1, 8),
            "w1": w.normal(0, 1, (8, game.n_actions)), "b1": np.zeros(game.n_actions),
        })  # fmt: skip
        for (a, b, seat), seen in zip(pairs, choices, strict=True):
            action = python_action(agent, game, a.array, 0, seat)
            assert action == python_action(agent, game, b.array, 0, seat)
            seen.add(action)
    assert any(len(seen) > 1 for seen in choices)  # the weights matter
