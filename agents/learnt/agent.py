"""``LearntAgent``: plays a learnt value network, with no search and no PyTorch.

At each searched decision (the phases PIMC searches, the game's
``search.phases``) the agent encodes its seat's observation
record as a feature vector, asks the network for every action's value and
plays the legal action valued highest. The rule agent's action is kept
unless another is valued more than a margin above it (per phase, chosen
when the net was fitted: the phases where the net is no better judge than
the rule agent keep the rule agent's actions): the rule agent knows
conventions that the network values alike, and the margin keeps it from
trading them for noise. Other decisions (Troggu's discards,
Pinochle's kitty) are the rule agent's, as for PIMC.

It acts only on the seat's observation, so it is a fair player.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np

from trickgym.agents.mc.agent import (
    check_deal_start,
    check_observation,
    legal_of_mask,
    record_or_refuse,
)
from trickgym.agents.rows import record_features, rule_actions, seen_rows
from trickgym.api import Game
from trickgym.checks import check_real
from trickgym.engine.loops import rule_choice
from trickgym.engine.params import params_matrix
from trickgym.games import game as make_game
from trickgym.games.obs_features import feature_names, feature_plan
from trickgym.rng import mix64_each, seed_rng

from .forward import PackedNet
from .net import ValueNet, feature_digest

NEVER = 1e9  # a margin no value difference reaches: the rule agent's action is kept

__all__ = [
    "WEIGHTS_DIR",
    "LearntAgent",
    "candidate_masks",
    "keeps_rule_action",
    "keeps_rule_rows",
    "shipped_weights",
    "teacher_candidates",
    "weights_name",
]

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"


def weights_name(game) -> str:
    """The file name of a game's shipped weights: ``solowhist.npz``, ``troggu-5p.npz``,
    ``pinochle.npz`` (kitty mode), ``pinochle-exchange.npz``."""
    return f"{game.tag}.npz"


def shipped_weights() -> list[str]:
    """The weights files shipped with the package (their names, sorted)."""
    return sorted(p.name for p in WEIGHTS_DIR.glob("*.npz"))


def teacher_candidates(game, legal: np.ndarray, phase: int) -> np.ndarray:
    """The legal actions PIMC values at a decision of ``phase`` (``legal``: sorted ids).

    The one-decision form of :func:`candidate_masks`.
    """
    mask = np.zeros((1, game.n_actions), dtype=bool)
    mask[0, legal] = True
    return np.flatnonzero(candidate_masks(game, mask, np.array([phase]))[0])


def _guards(game):
    """The module of the game's guards for this agent (its description's ``learnt_guards``:
    ``candidate_masks(legal, phases)``, ``keeps_rule_rows(records)``), or None."""
    module = game.description.learnt_guards
    return None if module is None else importlib.import_module(module)


def candidate_masks(game, legal: np.ndarray, phases: np.ndarray) -> np.ndarray:
    """``bool[k, n_actions]``: the legal actions (``legal``, ``bool[k, n_actions]``) that
    PIMC values at decisions of ``phases`` (``int[k]``).

    The net learns values of those only; the others' outputs are untrained. A
    game whose PIMC considers fewer (Pinochle's auction: Pass and the lowest
    bids) narrows them in its guards module; every other decision, all.
    """
    legal = np.asarray(legal, dtype=bool)
    guards = _guards(game)
    return legal if guards is None else guards.candidate_masks(legal, phases)


def keeps_rule_action(game, rec) -> bool:
    """Whether the learnt agent plays the rule agent's action at the decision of ``rec``
    (one observation record), whatever its net says (see :func:`keeps_rule_rows`)."""
    return bool(keeps_rule_rows(game, np.asarray(rec).reshape(1))[0])


def keeps_rule_rows(game, records: np.ndarray) -> np.ndarray:
    """``bool[k]``: the decisions of ``records`` where the learnt agent plays the rule
    agent's action, whatever its net says (the game's guards say which: Pinochle's
    bids over one's own partner; none elsewhere).
    """
    guards = _guards(game)
    if guards is None:
        return np.zeros(len(records), dtype=bool)
    return guards.keeps_rule_rows(records)


def _train_args(game) -> str:
    """The arguments of experiments/train_learnt.py that train ``game``'s table: its
    options that differ from the defaults (``--players 5``, ``--mode exchange``)."""
    options = "".join(f" --{k} {v}" for k, v in game.non_default_options().items())
    return f"--game {game.name}{options}"


class LearntAgent:
    """A fair agent that plays a :class:`ValueNet` (default: the game's shipped weights).

    ``weights`` is a path or a :class:`ValueNet`; ``margin`` (payoff points,
    one number for every phase; default the per-phase margins stored with
    the weights) is how much better than the rule agent's action another
    must be valued to be played instead.
    """

    values_name = "the network's value (payoff points)"

    def __init__(self, game, weights=None, margin=None, seed=None, rule_options=None):
        if isinstance(game, str):
            game = make_game(game)
        if not isinstance(game, Game):
            raise ValueError(f"game must be a name or a trickgym Game, got {game!r}")
        if weights is None:
            path = WEIGHTS_DIR / weights_name(game)
            if not path.is_file():
                shipped = ", ".join(shipped_weights()) or "none"
                raise ValueError(
                    f"no learnt weights shipped for {game.name} {game.tag} ({path.name}; "
                    f"shipped: {shipped}); make them with `python experiments/train_learnt.py "
                    f"{_train_args(game)} --install`, or pass LearntAgent(weights=<path>)"
                )
            weights = path
        if not isinstance(weights, ValueNet | str | Path) or weights == "":
            raise ValueError(
                f"weights must be a path to a .npz file or a ValueNet (None: the shipped "
                f"weights), got {weights!r}"
            )
        net = weights if isinstance(weights, ValueNet) else ValueNet.load(weights)
        tag = net.meta.get("tag")
        if tag is not None and tag != game.tag:
            # Kitty and exchange Pinochle may share a feature table, not a game.
            raise ValueError(
                f"weights trained for {tag!r} do not fit {game!r} ({game.tag!r}): pass the "
                f"weights of its own table size or mode ({weights_name(game)})"
            )
        names = feature_names(game)
        fits = (
            net.meta.get("game") == game.name
            and net.meta.get("seats", game.n_seats) == game.n_seats
            and net.meta.get("features") == feature_digest(names)
        )
        if not fits:
            raise ValueError(
                f"weights for {net.meta.get('game')!r} at {net.meta.get('seats')} seats with "
                f"feature table {net.meta.get('features')!r} do not fit {game!r} "
                f"({game.n_seats} seats, feature table {feature_digest(names)!r}): retrain them"
            )
        if net.n_outputs != game.n_actions:
            raise ValueError(
                f"weights value {net.n_outputs} actions; {game.name} has {game.n_actions}"
            )
        if margin is not None:
            margin = check_real("margin (points)", margin, 0)
        stored = {int(p): float(m) for p, m in net.meta.get("margins", {}).items()}
        self.margins = stored if margin is None else {}
        # Weights older than this record list none: every action was theirs to pick.
        self.trained = {
            int(p): np.asarray(a, dtype=np.int64)
            for p, a in net.meta.get("trained_actions", {}).items()
        }
        # A phase the held-out decisions never showed keeps the rule agent's actions.
        self.margin = NEVER if margin is None else float(margin)
        self.game = game
        self.net = net
        self.plan = feature_plan(game)
        self.seed = seed_rng(seed)
        self._own_seed = 0 if seed is None else self.seed
        self.rng = np.array([self.seed], dtype=np.uint64)
        self.params = params_matrix(game, game.n_seats, rule_options)
        self._packed = PackedNet(net)
        self._table_key = None
        # The values the last decision compared (the ``last_values`` hook of trickgym.agents).
        self.last_values = None

    def _tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per phase: searched (``bool``), margin (``float64``), trained actions
        (``bool[n_actions]``), from ``margins``, ``margin`` and ``trained`` as they are now
        (a :class:`~.card_net.CardNetAgent` sets a margin after construction)."""
        key = (tuple(sorted(self.margins.items())), self.margin)
        if key != self._table_key:
            n_phases = len(self.game.phase_names)
            searched = np.zeros(n_phases, dtype=bool)
            searched[list(self.game.search.phases)] = True
            margin = np.array(
                [self.margins.get(p, self.margin) for p in range(n_phases)], dtype=np.float64
            )
            trained = np.ones((n_phases, self.game.n_actions), dtype=bool)
            for p, actions in self.trained.items():
                trained[p] = False
                trained[p, actions] = True
            self._table_key, self._table = key, (searched, margin, trained)
        return self._table

    def __repr__(self) -> str:
        margins = self.margins or self.margin
        return f"LearntAgent({self.game.name}, margins={margins})"

    def deal_rng(self, seeds: np.ndarray, seat: int) -> np.ndarray:
        """The generator words (``uint64[k]``) :meth:`start_deal` sets for deal seeds
        ``seeds`` (``uint64[k]``) at ``seat``."""
        return mix64_each(np.asarray(seeds, dtype=np.uint64), np.uint64(self._own_seed))

    def start_deal(self, seed: int, seat: int) -> None:
        """Reseed the rule agent's generator from the deal's derived seed."""
        self.rng[0] = self.deal_rng(np.array([check_deal_start(self.game, seed, seat)]), seat)[0]

    def act(self, observation, action_mask) -> int:
        """The action for ``observation``, the seat's observation record (as
        :meth:`act_record`; the encoded dict is refused: the rule agent reads the record)."""
        return self.act_record(record_or_refuse(self, self.game, observation), action_mask)

    def action_values(self, record: np.ndarray, rule: int) -> np.ndarray:
        """The network's value of every action (float32[n_actions], payoff points), given
        the rule agent's action ``rule``."""
        features = self.plan.observe(self.game, record, 0)["features"]
        return self._packed.values(features[None, :], np.array([rule]))[0]

    def act_record(self, record: np.ndarray, action_mask: np.ndarray) -> int:
        """The action for the seat whose observation record is ``record`` (one-record array)."""
        check_observation(self, self.game, record)
        legal = legal_of_mask(self.game, action_mask)
        mask = np.zeros((1, self.game.n_actions), dtype=bool)
        mask[0, legal] = True
        actions, rows, cands, values = self._decide(record, mask, self.rule_of_record(record))
        self.last_values = None
        if len(rows):  # the net valued this decision: keep what it compared
            shown = np.flatnonzero(cands[0])
            self.last_values = (shown, values[0, shown].astype(np.float64))
        return int(actions[0])

    def rule_of_record(self, record: np.ndarray) -> np.ndarray:
        """The rule agent's action (``int64[1]``) on a one-record observation array,
        drawing from this agent's generator (the kernel :meth:`act_rows` runs per row)."""
        return np.array([rule_choice(record[0], self.params, self.rng)], dtype=np.int64)

    def rows_seen(self, states, rows, seats, rngs):
        """``(records, legal, rule)`` of seats ``seats`` in ``states[rows]``: their
        observation records, legal actions (``bool[k, n_actions]``) and the rule agent's
        actions, drawn from ``rngs`` (see :mod:`trickgym.agents.rows`)."""
        rows = np.asarray(rows, dtype=np.int64)
        seats = np.asarray(seats, dtype=np.int64)
        records, legal = seen_rows(self.game, states, rows, seats)
        return records, legal, rule_actions(self.game, records, self.params, rngs, rows, seats)

    def act_rows(self, states, rows, seats, rngs) -> np.ndarray:
        """The actions of seats ``seats`` in ``states[rows]``, decided together (see
        :mod:`trickgym.agents.rows`): each the one :meth:`act_record` makes."""
        return self.decide(*self.rows_seen(states, rows, seats, rngs))

    def decide(self, records: np.ndarray, legal: np.ndarray, rule: np.ndarray) -> np.ndarray:
        """``int64[k]``: the actions at the decisions of ``records`` (their legal actions
        ``legal``, ``bool[k, n_actions]``, and the rule agent's actions ``rule``).

        The rule agent's action, unless the decision is searched, has a choice and
        another candidate is valued more than the phase's margin above it.
        """
        return self._decide(records, legal, rule)[0]

    def _decide(self, records, legal, rule):
        """:meth:`decide`'s actions, and what the net compared: ``(actions, rows,
        candidates, values)``, the rows of ``records`` it valued, their candidate
        masks (``bool[r, n_actions]``) and values (``float32[r, n_actions]``)."""
        none = np.zeros(0, dtype=np.int64)

        searched, margins, trained = self._tables()
        actions = np.array(rule, dtype=np.int64)
        phase = records["phase"].astype(np.int64)
        open_ = searched[phase] & (legal.sum(axis=1) > 1)
        open_ &= ~keeps_rule_rows(self.game, records)
        idx = np.flatnonzero(open_)
        if not len(idx):
            return actions, none, None, None
        phase, rule = phase[idx], actions[idx]
        cands = candidate_masks(self.game, legal[idx], phase) & trained[phase]
        margin = margins[phase]
        at = np.arange(len(idx))
        rule_in = cands[at, rule]
        # a margin no value reaches keeps the rule agent's action: no need to ask the net
        asks = cands.any(axis=1) & ~(rule_in & (margin >= NEVER))
        if not asks.any():
            return actions, none, None, None
        idx, cands, margin, rule_in, rule = (
            idx[asks],
            cands[asks],
            margin[asks],
            rule_in[asks],
            rule[asks],
        )
        features = record_features(self.game, self.plan, records[idx])
        values = self._packed.values(features, rule)
        at = np.arange(len(idx))
        shown = np.where(cands, values, -np.inf)
        best = np.argmax(shown, axis=1)
        keep = rule_in & (values[at, rule] >= shown[at, best] - margin)
        actions[idx] = np.where(keep, rule, best)
        return actions, idx, cands, values
