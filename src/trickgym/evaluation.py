"""``trickgym.evaluate``: a policy's duplicate tournaments against reference agents, one call.

The policy plays a duplicate tournament (:func:`trickgym.tournament`: the
same deals in every seating, so the luck of the cards cancels) against each
opponent, ``random``, ``rule`` and ``pimc`` by default, on the same deals
(the same ``seed``). The table gives, per opponent, the policy's margin per
deal over it with a 95% interval. PIMC decides in milliseconds, not
microseconds: it plays ``slow_deals`` deals (fewer than ``deals``), and
``opponents=("random", "rule")`` leaves it out.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from trickgym.agents import is_agent
from trickgym.agents.policy import (
    POLICY_PREFIX,
    RuleBiddingPolicyAgent,
    parse_policy_name,
    policy_agent,
    policy_from_name,
    resolve_bidding,
)
from trickgym.agents.registry import is_agent_name, known_agents

from .api import Game
from .checks import check_int, split_names
from .games import GAMES, game_class
from .games import game as make_game

__all__ = ["COLUMNS", "EvaluationReport", "evaluate"]

#: The columns of :attr:`EvaluationReport.table` (one row per opponent).
COLUMNS = (
    "deals",
    "seatings",
    "policy",
    "opponent_mean",
    "margin",
    "ci_low",
    "ci_high",
    "significant",
)
DEFAULT_OPPONENTS = ("random", "rule", "pimc")
SLOW = ("pimc", "ismcts", "pimc_bids", "pimc_cards", "learnt", "oracle")  # Python or solving


@dataclass
class EvaluationReport:
    """What :func:`evaluate` found.

    ``table``: one row per opponent (index ``opponent``), columns
    :data:`COLUMNS`: ``deals`` played (Phat: matches), ``seatings`` of the
    duplicate, the policy's and the opponent's mean payoff per deal,
    ``margin`` (the policy's minus the opponent's, paired by deal) with its
    95% interval ``ci_low .. ci_high``, and ``significant`` (the interval
    excludes 0). ``reports``: each opponent's full
    :class:`trickgym.duplicate.TournamentReport` (rows of every seating,
    per-deal values, bid success).
    """

    game: str
    policy: str
    table: pd.DataFrame
    reports: dict

    def format(self) -> str:
        """The table as aligned text."""
        unit = game_class(self.game).run_unit
        lines = [
            f"{self.policy} on {self.game}: duplicate, every seating; "
            "margin per deal, 95% interval",
            f"{'opponent':<12}{unit:>8}{'policy':>10}{'opponent':>10}{'margin':>10}   interval",
        ]
        for name, row in self.table.iterrows():
            lines.append(f"{name!s:<12}{int(row['deals']):>8}{margin_cells(row)}")
        lines.append("(* the interval excludes 0)")
        return "\n".join(lines)


def margin_cells(row) -> str:
    """A result row's ``policy``, ``opponent`` and ``margin`` cells and its interval,
    ``*`` where it excludes 0: the columns every evaluation table prints."""
    mark = "  *" if row["significant"] else ""
    return (
        f"{row['policy']:>10.3f}{row['opponent_mean']:>10.3f}{row['margin']:>+10.3f}"
        f"   [{row['ci_low']:+.3f}, {row['ci_high']:+.3f}]{mark}"
    )


def _as_agent(policy, game: str, options: dict, bidding: str | None):
    """``(agent, label)``: an agent name or object as is; a policy made a policy agent.

    A ``policy:PATH`` name given no ``bidding`` stays a name (the tournament
    makes its agents, with the file's bidding, checking its table); with one,
    it is made here.
    """
    resolve_bidding(None, bidding)  # a bad value is named before anything is read
    table = make_game(game, **options)  # a bad option is named before any deal
    if isinstance(policy, str) and policy.startswith(POLICY_PREFIX):
        path, _ = parse_policy_name(policy)
        agent = policy_from_name(table, policy, bidding)  # a bad file fails before any deal
        if bidding is None:
            return policy, _label(policy, agent, prefix="")
        return agent, _label(path, agent)
    if (isinstance(policy, str) and is_agent_name(policy)) or is_agent(policy):
        if bidding == "rule":
            raise ValueError(
                f"bidding='rule' is for a policy (weights or a callable), not the agent "
                f"{policy!r}, which makes its own bids"
            )
        return policy, policy if isinstance(policy, str) else type(policy).__name__
    agent = policy_agent(table, policy, bidding)
    label = str(policy) if isinstance(policy, str | Path) else type(policy).__name__
    return agent, _label(label, agent)


def _label(what: str, agent, prefix: str = "policy ") -> str:
    """``"policy PATH"``, with ``" (rule bidding)"`` if the rule agent bids for it."""
    rule = isinstance(agent, RuleBiddingPolicyAgent)
    return f"{prefix}{what}" + (" (rule bidding)" if rule else "")


def evaluate(
    policy,
    game: str,
    *,
    opponents=DEFAULT_OPPONENTS,
    deals: int = 1000,
    slow_deals: int = 20,
    seed: int = 0,
    bidding: str | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    **options,
) -> EvaluationReport:
    """Duplicate tournaments of ``policy`` against each of ``opponents`` on ``game``.

    ``game``: a game name (its table options as ``**options``) or a
    ``Game`` (``env.unwrapped.game``: its options are used).

    ``policy``: a path to ``.npz`` MLP weights (``policy.npz`` of
    ``experiments/cleanrl_masked_ppo.py``), a dict of such weights, a
    batched callable ``policy(features, action_mask) -> actions or logits``
    (see :mod:`trickgym.agents.policy`), an agent object or an agent name
    (``"policy:PATH"``, ``"learnt"``...). ``opponents``: agent names, each
    played in its own tournament (default ``random``, ``rule``, ``pimc``;
    leave ``pimc`` out to skip the slow one). ``deals``: deals per
    tournament (Phat: matches) against the compiled opponents;
    ``slow_deals`` against Python or solving ones (``pimc``, ``ismcts``,
    ``learnt``, ``oracle``). Every tournament plays the deals of ``seed``.
    ``bidding``: by default the policy file's settings say
    (:func:`trickgym.agents.policy.save_policy`; ``"policy"`` for a file
    without settings or a callable). ``"rule"``: the rule agent makes the
    policy's decisions before the card play (for a policy trained with the
    envs' ``bidding="rule"``), so the table measures its card play;
    ``"policy"``: the policy makes them all. A file trained for another
    game or table is refused.
    ``progress``: the simulations' bars (default: in a terminal or a
    notebook). ``**options``: the game's table options (Troggu's
    ``players``). Returns an :class:`EvaluationReport`; ``print(r.format())``.
    """
    # lazy: trickgym.duplicate loads pyarrow
    from .duplicate import _check_run, tournament

    if isinstance(game, Game):  # e.g. env.unwrapped.game: its name and its options
        options = {**game.non_default_options(), **options}
        game = game.name
    if not isinstance(game, str) or game not in GAMES:
        raise ValueError(f"unknown game {game!r}; available: {', '.join(sorted(GAMES))}")
    # lazy: trickgym.sim.plan loads pyarrow
    from .sim.plan import MAX_ITEMS

    _check_run(game, deals, seed)
    # Bounded as deals are, here: past MAX_ITEMS the slow tournament would refuse it
    # only after the fast ones had run.
    slow_deals = check_int("slow_deals", slow_deals, 1, MAX_ITEMS)
    if isinstance(opponents, str):
        opponents = split_names("opponents", opponents, "random,rule")
    if not isinstance(opponents, list | tuple) or not opponents:
        raise ValueError(
            f"opponents must be a non-empty list of agent names such as "
            f"{list(DEFAULT_OPPONENTS)}, got {opponents!r}"
        )

    for name in opponents:
        if not is_agent_name(name):
            raise ValueError(
                f"opponent {name!r} is not an agent name; known agents: {', '.join(known_agents())}"
            )
    if len(set(opponents)) != len(opponents):
        raise ValueError(f"opponents must each be named once, got {list(opponents)}")
    agent, label = _as_agent(policy, game, options, bidding)
    rows, reports = {}, {}
    for name in opponents:
        if name == agent:
            raise ValueError(f"the policy {agent!r} cannot also be an opponent")
        n = slow_deals if name in SLOW else deals
        report = tournament(
            game, [agent, name], n, seed, threads=threads, progress=progress, **options
        )
        me, them = report.agents
        d = report.difference
        rows[name] = (
            int(report.standings.loc[me, "deals"]),
            int(report.rows["seating"].nunique()),
            float(report.standings.loc[me, "mean"]),
            float(report.standings.loc[them, "mean"]),
            float(d["mean"]),
            float(d["ci_low"]),
            float(d["ci_high"]),
            bool(d["ci_low"] > 0 or d["ci_high"] < 0),
        )
        reports[name] = report
    table = pd.DataFrame.from_dict(rows, orient="index", columns=list(COLUMNS))
    table.index.name = "opponent"
    return EvaluationReport(game, label, table, reports)
