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

from pathlib import Path

import numpy as np

from trickgym.checks import check_real
from trickgym.rng import mix64, seed_rng

from .net import ValueNet, feature_digest

NEVER = 1e9  # a margin no value difference reaches: the rule agent's action is kept

__all__ = [
    "WEIGHTS_DIR",
    "LearntAgent",
    "keeps_rule_action",
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

    The net learns values of those only; the others' outputs are untrained, and a
    Pinochle net free to jump-bid bid 950-990 and went down in 88 of 1,000 deals.
    PIMC's Pinochle auction considers Pass and the lowest ``MAX_BID_STEP`` bids
    (``sample_pinochle.candidates``, on the state's legal sets; this is that rule
    on the legal ids, which a test holds equal to it); every other decision, all.
    """
    if game.name == "pinochle":
        from trickgym.agents.mc.sample_pinochle import MAX_BID_STEP

        from trickgym.games.pinochle.constants import AUCTION, BID_BASE, PASS

        if phase == AUCTION:
            return np.concatenate([legal[legal == PASS], legal[legal >= BID_BASE][:MAX_BID_STEP]])
    return legal


def keeps_rule_action(game, rec) -> bool:
    """Whether the learnt agent plays the rule agent's action at the decision of ``rec``
    (one observation record), whatever its net says.

    Pinochle: a bid over one's own partner. PIMC valued raising a partner with
    the partner played by rule-agent rollouts, which pass; two learnt partners
    raised each other to 990 instead (kitty, 400 deals: -19 a deal against rule
    with the candidate guards only; +24 with the rule agent's call there).
    """
    if game.name == "pinochle":
        from trickgym.games.pinochle.constants import AUCTION

        return int(rec["phase"]) == AUCTION and int(rec["holder"]) == (int(rec["seat"]) + 2) % 4
    return False


class LearntAgent:
    """A fair agent that plays a :class:`ValueNet` (default: the game's shipped weights).

    ``weights`` is a path or a :class:`ValueNet`; ``margin`` (payoff points,
    one number for every phase; default the per-phase margins stored with
    the weights) is how much better than the rule agent's action another
    must be valued to be played instead.
    """

    def __init__(self, game, weights=None, margin=None, seed=None, rule_options=None):
        from trickgym.agents.rule import params_matrix

        from trickgym.api import Game
        from trickgym.games.obs_features import feature_names, feature_plan

        if isinstance(game, str):
            import trickgym

            game = trickgym.game(game)
        if not isinstance(game, Game):
            raise ValueError(f"game must be a name or a trickgym Game, got {game!r}")
        if weights is None:
            path = WEIGHTS_DIR / weights_name(game)
            if not path.is_file():
                shipped = ", ".join(shipped_weights()) or "none"
                raise ValueError(
                    f"no learnt weights shipped for {game!r} ({path.name}; shipped: {shipped}); "
                    "train some with experiments/train_learnt.py and pass weights=<path>"
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
        self._rule_action = game.rule_kernel
        self._searched = game.search.phases

    def __repr__(self) -> str:
        margins = self.margins or self.margin
        return f"LearntAgent({self.game.name}, margins={margins})"

    def start_deal(self, seed: int, seat: int) -> None:
        """Reseed the rule agent's generator from the deal's derived seed."""
        from trickgym.agents.mc.agent import check_deal_start

        self.rng[0] = mix64(check_deal_start(self.game, seed, seat) ^ np.uint64(self._own_seed))

    def act(self, observation, action_mask) -> int:
        """The action for ``observation``, the seat's observation record (as
        :meth:`act_record`; the encoded dict is refused: the rule agent reads the record)."""
        from trickgym.agents.mc.agent import record_or_refuse

        return self.act_record(record_or_refuse(self, self.game, observation), action_mask)

    def action_values(self, record: np.ndarray, rule: int) -> np.ndarray:
        """The network's value of every action (float32[n_actions], payoff points), given
        the rule agent's action ``rule``."""
        features = self.plan.observe(self.game, record, 0)["features"]
        return self.net.values(features[None, :], [rule])[0]

    def act_record(self, record: np.ndarray, action_mask: np.ndarray) -> int:
        """The action for the seat whose observation record is ``record`` (one-record array)."""
        from trickgym.agents.loops import rule_choice
        from trickgym.agents.mc.agent import check_observation, legal_of_mask

        check_observation(self, self.game, record)
        legal = legal_of_mask(self.game, action_mask)
        rec = record[0]
        rule = rule_choice(rec, self.params, self.rng)
        if len(legal) == 1 or int(rec["phase"]) not in self._searched:
            return rule
        if keeps_rule_action(self.game, rec):
            return rule
        phase = int(rec["phase"])
        legal = teacher_candidates(self.game, legal, phase)
        if phase in self.trained:
            # A Pinochle net that never saw a bid above 470 bid its partner up to 990.
            legal = legal[np.isin(legal, self.trained[phase])]
            if len(legal) == 0:
                return rule
        values = self.action_values(record, rule)[legal]
        best = int(np.argmax(values))
        margin = self.margins.get(int(rec["phase"]), self.margin)
        if rule in legal and values[legal == rule][0] >= values[best] - margin:
            return rule
        return int(legal[best])
