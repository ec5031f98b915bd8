"""Oracle-guided targets for Solo Whist card play: every legal card valued on the actual deal.

:func:`label_deals` plays deals with the rule agent at every seat (some
random bids and cards for variety, or a :class:`~.dmc.QLearner`'s cards).
At each card decision with a choice it values every legal card of the seat
to move by the double-dummy solver on the *actual* layout, every hand
visible, and turns the declaring side's trick count into the seat's payoff
by the rules' own ``deal_payoffs``:
:func:`trickgym.agents.solved_solowhist.card_payoffs`, the function the PIMC
agent and the oracle value each sampled deal with (misère and Abundance
Declared made or beaten; the other contracts counted exactly from
``exact_cards`` cards in hand down, above that the goal made or missed by
one). Tricks already taken count in the total, so a label is the seat's
payoff for the whole deal.

These are perfect-information returns (Suphx's oracle): the features the
label is stored with are the seat's own observation
(``feature_plan(game).observe`` of the seat's observation record, exactly
what :class:`~trickgym.agents.learnt.agent.LearntAgent` reads), so a net regressed on them learns
the expected double-dummy payoff of each card given what the seat knows,
i.e. PIMC with the true posterior of the hidden cards under the table's play.
A decision whose solve runs past ``max_nodes`` is skipped and counted.

Deals are seeded from ``seed`` and their index alone, and the solver table
is cleared at every deal, so a run's labels repeat exactly.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from trickgym.checks import check_int, check_real
from trickgym.engine.loops import rule_choice
from trickgym.engine.params import params_matrix
from trickgym.games import game as make_game
from trickgym.games.obs_features import feature_plan
from trickgym.games.solowhist.constants import PLAY
from trickgym.rng import mix64
from trickgym.training.distill import Labels

__all__ = ["OracleStats", "card_targets", "fit_oracle", "label_deals", "seat_view"]

GAME = "solowhist"
# 4096 buckets (12 MB): a deal's solves stay well inside it.
TABLE_LOG2 = 12
DEFAULT_MAX_NODES = 500_000
_UNVALUED = -1e8


@dataclass
class OracleStats:
    """What a labelling run did: decisions labelled and skipped, solver cost."""

    deals: int
    labelled: int
    skipped: int  # card decisions with a choice whose solve ran past the node budget
    seconds: float
    solve_ms_median: float
    solve_ms_p90: float
    solve_ms_max: float
    nodes_median: float
    nodes_p90: float

    def as_dict(self) -> dict:
        """The fields as a plain dict (for JSON)."""
        return dict(self.__dict__)


def seat_view(game, state, seat: int, obs: np.ndarray) -> np.ndarray:
    """Write ``seat``'s observation record of ``state`` into ``obs`` (a one-record
    ``OBS_DTYPE`` array) and return it: all a label's features are computed from it."""
    game.kernels.observe_at(state.array, 0, seat, obs, 0)
    return obs


def card_targets(state, seat: int, table, exact_cards: int) -> np.ndarray:
    """``seat``'s payoff (float32[52], NaN where not valued) after each legal card of the
    player to move in ``state`` (a Solo Whist ``State`` in the card play), best play by all
    after; all NaN when the solver ran out of the table's node budget."""
    # lazy: the double-dummy solver takes 0.2 s to import
    from trickgym.agents.solved_solowhist import card_payoffs

    out = np.empty(52, dtype=np.float64)
    card_payoffs(state.array[0], seat, table, exact_cards, out)
    values = np.where(out > _UNVALUED, out, np.nan).astype(np.float32)
    return values


def label_deals(
    deals: int,
    seed: int = 0,
    *,
    eps_bid: float = 0.05,
    eps_play: float = 0.1,
    max_nodes: int = DEFAULT_MAX_NODES,
    exact_cards: int | None = None,
    actor=None,
    first: int = 0,
    progress=None,
    with_features: bool = True,
) -> tuple[Labels, np.ndarray, OracleStats]:
    """Oracle labels of the card decisions of deals ``first .. first+deals-1`` of ``seed``.

    Every seat bids and plays as the rule agent, or with probability
    ``eps_bid`` / ``eps_play`` a uniformly random legal call / card. ``actor``
    (optional): ``(learner, margin)``, a :class:`~.dmc.QLearner` whose
    greedy cards (departing from the rule agent's card when another is valued
    ``margin`` points above it) are played instead of the rule agent's.
    Returns the :class:`~.distill.Labels` (``values``: the seat's payoff of
    each legal card, NaN elsewhere; ``rule``: the rule agent's card;
    ``features``: the seat's feature rows, empty with ``with_features=False``),
    the seat's observation records (``OBS_DTYPE``, one per label: what
    :func:`~trickgym.agents.learnt.card_net.card_features` reads) and the run's
    :class:`OracleStats`. ``progress``: called with 1 after each deal.
    """
    # lazy: the double-dummy solver takes 0.2 s to import
    from trickgym.agents.solved_solowhist import EXACT_CARDS

    # lazy: the double-dummy solver takes 0.2 s to import
    from trickgym.solvers.dd_search import META_NODES, make_table, reset_table

    deals = check_int("deals", deals, 0)
    first = check_int("first", first, 0)
    max_nodes = check_int("max_nodes", max_nodes, 1)
    eps_bid = check_real("eps_bid", eps_bid, 0, 1)
    eps_play = check_real("eps_play", eps_play, 0, 1)
    exact_cards = EXACT_CARDS if exact_cards is None else check_int("exact_cards", exact_cards, 0)
    game = make_game(GAME)
    plan = feature_plan(game)
    params = params_matrix(game, 4)
    table = make_table(TABLE_LOG2, max_nodes)
    rule_rng = np.zeros(1, dtype=np.uint64)
    obs = np.zeros(1, dtype=game.obs_dtype)
    feats, values, rules, phases, records = [], [], [], [], []
    solve_ms, nodes = [], []
    skipped = 0
    start = time.perf_counter()
    for d in range(first, first + deals):
        deal_seed = int(mix64(np.uint64(seed) * np.uint64(1_000_003) + np.uint64(d)))
        state = game.deal(seed=deal_seed)
        rng = np.random.default_rng([seed, d])
        rule_rng[0] = np.uint64(deal_seed ^ 0x9E3779B97F4A7C15)
        reset_table(table)  # a deal's labels depend on the deal alone
        while not state.is_over:
            seat = state.current_player
            seat_view(game, state, seat, obs)
            mask = state.legal_action_mask()
            legal = np.flatnonzero(mask)
            rule = rule_choice(obs[0], params, rule_rng)
            action = rule
            if len(legal) > 1:
                playing = int(state.record["phase"]) == PLAY
                features = None
                if playing:
                    t0 = time.perf_counter()
                    n0 = int(table[1][META_NODES])
                    v = card_targets(state, seat, table, exact_cards)
                    solve_ms.append(1e3 * (time.perf_counter() - t0))
                    nodes.append(int(table[1][META_NODES]) - n0)
                    features = plan.observe(game, obs, 0)["features"]
                    if np.isnan(v[legal]).any():
                        skipped += 1
                    else:
                        row = np.full(game.n_actions, np.nan, dtype=np.float32)
                        row[:52] = v
                        if with_features:
                            feats.append(features.astype(np.float16))
                        records.append(obs[0].copy())
                        values.append(row)
                        rules.append(rule)
                        phases.append(PLAY)
                    if actor is not None:
                        learner, margin = actor
                        m = np.zeros((1, game.n_actions), dtype=np.int8)
                        m[0, legal] = 1
                        action = int(
                            learner.choose(
                                features[None, :], m, np.array([rule]), (None, margin),
                                (0.0, 0.0), rng,
                            )[0]
                        )  # fmt: skip
                if rng.random() < (eps_play if playing else eps_bid):
                    action = int(rng.choice(legal))
            state.apply(action)
        if progress is not None:
            progress(1)
    n_features = plan.size
    labels = Labels(
        np.stack(feats) if feats else np.zeros((len(values), n_features), np.float16)[:0],
        np.stack(values) if values else np.zeros((0, game.n_actions), np.float32),
        np.array(rules, dtype=np.int16),
        np.array(phases, dtype=np.int8),
    )
    ms = np.array(solve_ms) if solve_ms else np.zeros(1)
    nd = np.array(nodes) if nodes else np.zeros(1)
    stats = OracleStats(
        deals=deals,
        labelled=len(labels),
        skipped=skipped,
        seconds=round(time.perf_counter() - start, 1),
        solve_ms_median=float(np.median(ms)),
        solve_ms_p90=float(np.percentile(ms, 90)),
        solve_ms_max=float(ms.max()),
        nodes_median=float(np.median(nd)),
        nodes_p90=float(np.percentile(nd, 90)),
    )
    recs = np.array(records, dtype=game.obs_dtype) if records else np.zeros(0, game.obs_dtype)
    return labels, recs, stats


def fit_oracle(learner, labels: Labels, epochs: int, batch: int, seed: int = 0, log=None):
    """Regress ``learner`` (a :class:`~.dmc.QLearner`) on oracle ``labels`` for ``epochs``
    passes in shuffled batches of ``batch`` (every legal card's value, squared error, Adam);
    returns the mean loss of each pass (points squared)."""
    rng = np.random.default_rng(seed)
    n = len(labels)
    curve = []
    scale2 = float(learner.net.scale) ** 2
    for epoch in range(epochs):
        order = rng.permutation(n)
        losses = []
        for lo in range(0, n - batch + 1, batch):
            idx = np.sort(order[lo : lo + batch])
            batch_labels = (
                labels.features[idx].astype(np.float32),
                labels.rule[idx].astype(np.int64),
                labels.values[idx],
            )
            losses.append(learner.update(None, None, None, None, batch_labels, 1.0))
        curve.append(float(np.mean(losses)) * scale2 if losses else float("nan"))
        if log is not None:
            log({"oracle_epoch": epoch + 1, "loss": curve[-1]})
    return curve
