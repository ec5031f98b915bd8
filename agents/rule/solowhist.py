"""Rule-based Solo Whist agent (placeholder: plays like the random agent until written)."""

from __future__ import annotations

from dataclasses import dataclass

from numba import njit

from trickgym.games.solowhist.constants import CALL_BASE

from ..random import random_action

__all__ = ["RuleOptions", "rule_action"]


@dataclass(frozen=True)
class RuleOptions:
    """Thresholds of the Solo Whist rule agent's heuristics."""

    placeholder: float = 0.0


@njit(cache=True)
def rule_action(obs, params, rng):
    """The rule agent's action from the seat's observation record obs."""
    return random_action(obs.legal_cards, obs.legal_calls, CALL_BASE, rng)
