"""Training the per-card Solo Whist scorer of :mod:`trickgym.agents.learnt.card_net`.

:class:`CardData` holds oracle-labelled card decisions
(:func:`trickgym.training.oracle_labels.label_deals`) as per-card rows;
:class:`CardTrainer` fits a scorer to them by Adam, :func:`departures` and
:func:`evaluate_cards` measure it against the rule agent, and
:func:`reinforce_cards` goes on by Deep Monte Carlo on the deals' returns.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from trickgym.agents.learnt.card_net import N_CARD_FEATURES, best_cards, card_features
from trickgym.agents.learnt.net import ValueNet
from trickgym.training.adam import adam_step
from trickgym.training.dmc import make_env, seat0_payoffs

__all__ = [
    "CardData",
    "CardTrainer",
    "ReinforceOptions",
    "departures",
    "evaluate_cards",
    "new_card_net",
    "reinforce_cards",
    "run_cards",
]


class CardData:
    """Oracle-labelled card decisions as per-card rows: ``rows`` float32[m, N_CARD_FEATURES],
    ``target`` float32[m] (the seat's payoff after the card, points), ``start`` int64[n+1]
    (decision ``i`` owns rows ``start[i]:start[i+1]``) and ``rule_row`` int64[n] (the row
    of the rule agent's card)."""

    def __init__(self, rows, target, start, rule_row):
        self.rows, self.target, self.start, self.rule_row = rows, target, start, rule_row

    def __len__(self) -> int:
        return len(self.rule_row)

    @classmethod
    def from_labels(cls, records, values, rule) -> CardData:
        """Rows of the decisions labelled by
        :func:`~trickgym.training.oracle_labels.label_deals` (its observation ``records``,
        ``labels.values`` and ``labels.rule``)."""
        parts, targets, starts, rule_rows = [], [], [0], []
        for rec, v, r in zip(records, values, rule, strict=True):
            legal = np.flatnonzero(~np.isnan(v[:52]))
            parts.append(card_features(rec, legal, int(r)))
            targets.append(v[legal])
            rule_rows.append(starts[-1] + int(np.flatnonzero(legal == int(r))[0]))
            starts.append(starts[-1] + len(legal))
        if not parts:
            empty = np.zeros((0, N_CARD_FEATURES), np.float32)
            return cls(empty, np.zeros(0, np.float32), np.zeros(1, np.int64), np.zeros(0, np.int64))
        return cls(
            np.concatenate(parts),
            np.concatenate(targets).astype(np.float32),
            np.array(starts, dtype=np.int64),
            np.array(rule_rows, dtype=np.int64),
        )

    def subset(self, decisions) -> CardData:
        """The decisions ``decisions`` (int array), their rows renumbered."""
        decisions = np.asarray(decisions, dtype=np.int64)
        lo, hi = self.start[decisions], self.start[decisions + 1]
        lengths = hi - lo
        first = np.concatenate([[0], np.cumsum(lengths)])
        idx = np.repeat(lo - first[:-1], lengths) + np.arange(first[-1])
        rule_row = self.rule_row[decisions] - lo + first[:-1]
        return CardData(self.rows[idx], self.target[idx], first, rule_row)

    def groups(self) -> np.ndarray:
        """The decision of each row (int64[m])."""
        return np.repeat(np.arange(len(self)), np.diff(self.start))


def new_card_net(hidden=(64, 64), seed: int = 0, scale: float = 10.0):
    """A fresh per-card scorer (a :class:`~trickgym.agents.learnt.net.ValueNet` with one output)."""
    meta = {"game": "solowhist", "kind": "card scorer", "n_features": N_CARD_FEATURES}
    meta["hidden"] = list(hidden)
    return ValueNet.init([N_CARD_FEATURES, *hidden, 1], seed=seed, scale=scale, meta=meta)


class CardTrainer:
    """Adam on a per-card scorer: squared error of each card's score minus the rule
    agent's card's score against the same difference of targets (``fit_batch``), or of
    a played card's value against a return (:meth:`dmc_batch`)."""

    def __init__(self, net, lr: float = 1e-3):
        self.net, self.lr = net, lr
        self._m = [np.zeros_like(a) for a in self._params()]
        self._v = [np.zeros_like(a) for a in self._params()]
        self._t = 0

    def _params(self):
        return self.net.weights + self.net.biases

    def scores(self, rows: np.ndarray) -> np.ndarray:
        """Scores in points (float32[m])."""
        return self.net.forward(rows)[0][:, 0] * np.float32(self.net.scale)

    def _grads(self, rows, hidden, dout):
        net = self.net
        layers = len(net.weights)
        gw, gb = [None] * layers, [None] * layers
        grad = dout[:, None].astype(np.float32)
        for layer in range(layers - 1, -1, -1):
            below = rows if layer == 0 else hidden[layer - 1]
            gw[layer] = below.T @ grad
            gb[layer] = grad.sum(axis=0)
            if layer:
                grad = (grad @ net.weights[layer].T) * (hidden[layer - 1] > 0)
        return gw + gb

    def loss_and_grads(self, data: CardData):
        """Loss (points squared) and gradient of the advantage fit on ``data``."""
        out, hidden = self.net.forward(data.rows)
        s = out[:, 0]
        g = data.groups()
        scale = np.float32(self.net.scale)
        t = data.target / scale
        err = (s - s[data.rule_row][g]) - (t - t[data.rule_row][g])
        err[data.rule_row] = 0.0
        count = max(len(err) - len(data), 1)
        loss = float(np.sum(err.astype(np.float64) ** 2) / count) * float(scale) ** 2
        d = (2.0 / count) * err
        np.add.at(d, data.rule_row, -np.bincount(g, weights=d, minlength=len(data)))
        return loss, self._grads(data.rows, hidden, d)

    def step(self, grads) -> None:
        """One Adam step along ``grads``."""
        self._t += 1
        adam_step(self._params(), grads, self._m, self._v, self._t, self.lr)

    def fit(self, data: CardData, epochs: int, batch: int, seed: int = 0, log=None) -> list:
        """``epochs`` passes over ``data`` in shuffled batches of ``batch`` decisions; the
        mean loss of each pass."""
        rng = np.random.default_rng(seed)
        curve = []
        for epoch in range(epochs):
            order = rng.permutation(len(data))
            losses = []
            for lo in range(0, len(data) - batch + 1, batch):
                loss, grads = self.loss_and_grads(data.subset(np.sort(order[lo : lo + batch])))
                self.step(grads)
                losses.append(loss)
            curve.append(float(np.mean(losses)) if losses else float("nan"))
            if log is not None:
                log({"card_epoch": epoch + 1, "loss": curve[-1]})
        return curve


def departures(trainer: CardTrainer, data: CardData, margins) -> dict:
    """Per margin: the share of decisions where the scorer departs from the rule agent's
    card and the mean oracle gain per decision of doing so (points), on ``data``."""
    s = trainer.scores(data.rows)
    g = data.groups()
    out = {}
    # best row per decision: the highest score (ties: the first)
    order = np.lexsort((-s, g))
    first = np.concatenate([[0], np.flatnonzero(np.diff(g[order])) + 1])
    best = order[first]
    gain = s[best] - s[data.rule_row]
    for m in margins:
        act = np.where(gain > m, best, data.rule_row)
        out[float(m)] = (
            float(np.mean(act != data.rule_row)),
            float(np.mean(data.target[act] - data.target[data.rule_row])),
        )
    return out


def _play_rows(mask: np.ndarray) -> np.ndarray:
    return np.flatnonzero(mask[:, :52].sum(axis=1) > 1)


def run_cards(env, net, margin, deals: int, seed: int) -> np.ndarray:
    """Seat 0's payoffs over ``deals`` deals of the vector ``env`` (three rule opponents),
    the rule agent's bids and the scorer's cards (``margin`` None: the rule agent's)."""

    def choose(obs, act):
        rows = _play_rows(obs["action_mask"])
        if margin is not None and len(rows):
            mask = obs["action_mask"][rows]
            act[rows] = best_cards(net, env._obs_records[rows], mask, act[rows], margin)
        return act

    return seat0_payoffs(env, choose, deals, seed)


def evaluate_cards(net, margin: float, deals: int, seed: int, envs: int = 256):
    """Paired mean payoff difference (scorer's cards at seat 0 minus the rule agent's, rule
    bids, three rule opponents, the same deals): ``(mean, half-width of a 95% CI)``."""
    env = make_env(min(envs, deals))
    d = run_cards(env, net, margin, deals, seed) - run_cards(env, net, None, deals, seed)
    return float(d.mean()), float(1.96 * d.std(ddof=1) / np.sqrt(len(d)))


@dataclass(frozen=True)
class ReinforceOptions:
    """The settings of :func:`reinforce_cards`: ``envs`` vector sub-envs, the scorer's
    ``margin`` over the rule agent's card, the chance ``eps`` of a random card, the oracle
    loss's ``weights`` (first, last), ``batch`` played samples and ``oracle_batch`` oracle
    decisions per update, and the ``seed``."""

    envs: int = 256
    margin: float = 0.25
    eps: float = 0.05
    weights: tuple[float, float] = (1.0, 0.5)
    batch: int = 2048
    oracle_batch: int = 256
    seed: int = 0


def reinforce_cards(
    trainer: CardTrainer,
    oracle: CardData,
    value,
    deals: int,
    options: ReinforceOptions | None = None,
    *,
    log=None,
) -> list[dict]:
    """Deep Monte Carlo on the scorer's departures from the rule agent, oracle-guided.

    Seat 0 of the vector env (rule bids, three rule opponents) plays the scorer's
    cards (``margin``), a uniformly random legal card with probability ``eps``.
    Each decision where the card played is not the rule agent's is a sample: the
    scorer's advantage of the card over the rule agent's card is regressed on the
    deal's return minus ``value``'s estimate of the position under rule play
    (``value``: a :class:`~trickgym.training.dmc.QLearner` whose V(s) = Q(s, rule card)
    was fitted on such returns). Each update mixes that loss (weight ``1 - w``) with the oracle
    advantage loss on a random batch of ``oracle`` decisions (weight ``w``), ``w``
    fading linearly from ``weights[0]`` to ``weights[1]`` over the ``deals``: the
    targets move from the oracle's to the deals' own returns. ``options``: a
    :class:`ReinforceOptions` (default ``ReinforceOptions()``). Returns the curve rows.
    """
    options = ReinforceOptions() if options is None else options
    if not isinstance(options, ReinforceOptions):
        raise ValueError(f"options must be ReinforceOptions, got {options!r}")
    envs, margin, eps, weights = options.envs, options.margin, options.eps, options.weights
    batch, oracle_batch, seed = options.batch, options.oracle_batch, options.seed
    rng = np.random.default_rng(seed)
    env = make_env(envs)
    obs, _ = env.reset(seed=seed)
    scale = np.float32(trainer.net.scale)
    waiting = [[] for _ in range(envs)]  # per env: (played row, rule row, baseline)
    ready_rows, ready_target = [], []
    played_deals, curve, returns = 0, [], []
    while played_deals < deals:
        act = env.builtin_actions("rule")
        mask = obs["action_mask"]
        rows = _play_rows(mask)
        if len(rows):
            rule = act[rows].copy()
            base = value.q(obs["features"][rows], rule)[np.arange(len(rows)), rule]
            for k, i in enumerate(rows):
                legal = np.flatnonzero(mask[i][:52])
                feats = card_features(env._obs_records[i], legal, int(rule[k]))
                s = trainer.net.forward(feats)[0][:, 0] * scale
                r_idx = int(np.flatnonzero(legal == rule[k])[0])
                best = int(np.argmax(s))
                pick = best if s[best] - s[r_idx] > margin else r_idx
                if rng.random() < eps:
                    pick = int(rng.integers(len(legal)))
                if pick != r_idx:
                    waiting[i].append((feats[pick], feats[r_idx], float(base[k])))
                act[i] = legal[pick]
        obs, reward, term, _, _ = env.step(act)
        for i in np.flatnonzero(term):
            for played_row, rule_row, b in waiting[i]:
                ready_rows.append((played_row, rule_row))
                ready_target.append(float(reward[i]) - b)
            waiting[i] = []
            played_deals += 1
            returns.append(float(reward[i]))
        if len(ready_target) >= batch:
            w = weights[0] + (weights[1] - weights[0]) * min(played_deals / deals, 1.0)
            pairs = np.array(ready_rows[:batch], dtype=np.float32)  # [n, 2, F]
            target = np.array(ready_target[:batch], dtype=np.float32) / scale
            ready_rows, ready_target = ready_rows[batch:], ready_target[batch:]
            x = pairs.reshape(-1, pairs.shape[-1])
            out, hidden = trainer.net.forward(x)
            adv = out[0::2, 0] - out[1::2, 0]
            err = adv - target
            d = np.zeros(len(x), dtype=np.float32)
            d[0::2] = (2.0 / len(err)) * err
            d[1::2] = -d[0::2]
            grads = trainer._grads(x, hidden, d)
            o_loss, o_grads = trainer.loss_and_grads(
                oracle.subset(np.sort(rng.choice(len(oracle), oracle_batch, replace=False)))
            )
            trainer.step([(1 - w) * a + w * b for a, b in zip(grads, o_grads, strict=True)])
            row = {
                "deals": played_deals,
                "oracle_weight": round(float(w), 4),
                "dmc_loss": float(np.mean(err.astype(np.float64) ** 2)) * float(scale) ** 2,
                "oracle_loss": o_loss,
                "train_payoff": float(np.mean(returns)),
            }
            returns = []
            curve.append(row)
            if log is not None:
                log(row)
    return curve
