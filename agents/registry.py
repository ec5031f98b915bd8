"""Agents by name: the compiled built-in kinds and registered Python agents.

``register_agent("pimc", factory)`` makes ``--agents rule,pimc,rule,pimc``
and ``simulate(agents=["rule", "pimc", ...])`` work: ``factory(game,
**kwargs)`` returns a fresh Python agent (an object with ``act`` or
``act_record``) for one seat of ``game`` (a ``trickgym.api.Game``). The
built-in names (``random``, ``rule``, ``oracle``) stay compiled kinds and
cannot be registered over.

A registered name resolves in the process that runs the deals: for a Dask
cluster, register it in a module the workers import (or pass agent objects,
which are pickled to them). A local run on several threads sends the
factories of the names it uses to its worker processes (they must be
picklable: a module-level function or a ``functools.partial`` of one).

``"policy:PATH"`` names a policy's weights file (``trickgym.agents.policy``):
no registration needed, and it resolves on any worker that can read PATH;
it bids as the file's settings say, ``"policy:PATH:bidding=rule"`` (or
``=policy``) as told.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from trickgym.checks import check_options
from trickgym.engine.kinds import KINDS
from trickgym.games import game as make_game

from .learnt import LearntAgent
from .learnt.card_net import DMC_WEIGHTS, CardNetAgent
from .mc import make_mc_agent
from .policy import POLICY_PREFIX, policy_from_name

__all__ = [
    "is_agent_name",
    "is_builtin",
    "is_python_name",
    "known_agents",
    "make_agent",
    "register_agent",
    "registered_agents",
    "registered_factory",
    "resolve_kind",
]

_FACTORIES: dict[str, Callable[..., Any]] = {}


def register_agent(name: str, factory: Callable[..., Any], *, replace: bool = False) -> None:
    """Register ``factory(game, **kwargs) -> agent`` under ``name``.

    Raises ``ValueError`` for a built-in name, a name with a comma (the CLI
    splits on commas), or a name already registered unless ``replace``.
    """
    if not isinstance(name, str) or not name or "," in name or name != name.strip():
        raise ValueError(f"agent name must be a non-empty string without commas, got {name!r}")
    if name in KINDS:
        raise ValueError(f"agent name {name!r} is built in ({', '.join(sorted(KINDS))})")
    if not callable(factory):
        raise ValueError(f"factory for agent {name!r} must be callable, got {factory!r}")
    if name in _FACTORIES and not replace:
        raise ValueError(f"agent {name!r} is already registered (pass replace=True)")
    _FACTORIES[name] = factory


def registered_agents() -> list[str]:
    """Names of the registered Python agents, sorted."""
    return sorted(_FACTORIES)


def registered_factory(name: str) -> Callable[..., Any] | None:
    """The factory registered under ``name`` (``None`` if none is).

    The simulator sends it to its worker processes, so that a name
    registered in the calling process resolves there too.
    """
    return _FACTORIES.get(name)


def known_agents() -> list[str]:
    """Every agent name: built-in kinds and registered Python agents, sorted."""
    return sorted([*KINDS, *_FACTORIES])


def is_python_name(name) -> bool:
    """Whether ``name`` names a Python agent: registered, or ``"policy:PATH"``."""
    return isinstance(name, str) and (name in _FACTORIES or name.startswith(POLICY_PREFIX))


def is_agent_name(name) -> bool:
    """Whether ``name`` is an agent name: built in, registered or ``"policy:PATH"``."""
    return isinstance(name, str) and (name in KINDS or is_python_name(name))


def is_builtin(name: str) -> bool:
    """Whether ``name`` is a compiled built-in agent kind."""
    return name in KINDS


def make_agent(name: str, game, **kwargs):
    """A fresh agent called ``name`` for ``game`` (a ``Game`` or a game name).

    A built-in name is returned as is (the simulator runs it compiled; it
    takes no options: they are refused, never ignored); a registered name
    calls its factory; ``"policy:PATH"`` plays the policy file at PATH (a
    :class:`trickgym.agents.policy.PolicyAgent`; its option ``bidding``
    overrides the file's). An unknown name, or an
    option the factory does not take, raises ``ValueError`` listing the
    known ones.
    """
    if not is_agent_name(name):
        raise ValueError(
            f"unknown agent {name!r}; known agents: {', '.join(known_agents())} "
            "or policy:PATH[:bidding=rule|policy] (a policy's .npz weights)"
        )
    if name in KINDS:
        if kwargs:
            given = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
            raise ValueError(
                f"agent {name!r} is built in and takes no options, got {given} "
                "(rule agents' settings: simulate(rule_options=...))"
            )
        return name
    if isinstance(game, str):
        game = make_game(game)
    if name not in _FACTORIES:  # "policy:PATH"
        unknown = sorted(set(kwargs) - {"bidding"})
        if unknown:
            raise ValueError(
                f"agent {name!r} has no option {', '.join(unknown)}; its options: bidding"
            )
        return policy_from_name(game, name, **kwargs)
    factory = _FACTORIES[name]
    check_options(name, factory, game, kwargs)
    return factory(game, **kwargs)


def _monte_carlo(name: str, game, **kwargs):
    """Factory of the Monte Carlo agents (imported only when one is asked for)."""
    return make_mc_agent(name, game, **kwargs)


def _learnt(game, **kwargs):
    """Factory of the learnt agent (the game's shipped value network unless ``weights=``)."""
    check_options("learnt", LearntAgent, game, kwargs)
    return LearntAgent(game, **kwargs)


def _dmc(game, margin=None, seed=None, rule_options=None):
    """Factory of the Solo Whist agent trained by Deep Monte Carlo with oracle guiding
    (``experiments/train_oracle_solowhist.py``; its weights ship with the package)."""
    if game.name != "solowhist":
        raise ValueError(
            f"agent 'dmc' plays Solo Whist only, got {game.name!r} (other games: 'learnt')"
        )
    return CardNetAgent(
        cards=DMC_WEIGHTS["cards"], bids=DMC_WEIGHTS["bids"], margin=margin, seed=seed,
        rule_options=rule_options,
    )  # fmt: skip


for _name in ("pimc", "ismcts"):
    register_agent(_name, partial(_monte_carlo, _name))
# PIMC's bids alone (its cards the rule agent's) and its cards alone (its bids the rule
# agent's): against "rule" they split where PIMC's points come from (bench_mc.py --split).
register_agent("pimc_bids", partial(_monte_carlo, "pimc", cards="rule"))
register_agent("pimc_cards", partial(_monte_carlo, "pimc", bids="rule"))
register_agent("learnt", _learnt)
register_agent("dmc", _dmc)


def resolve_kind(name: str) -> int:
    """Kind number of a built-in agent name, with a clear error otherwise."""
    if name not in KINDS:
        if name in registered_agents():
            raise ValueError(
                f"agent {name!r} is a registered Python agent, not a compiled kind: "
                "make it with trickgym.agents.registry.make_agent(name, game)"
            )
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(known_agents())}")
    return KINDS[name]
