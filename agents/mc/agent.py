"""The Monte Carlo agents as Python objects: ``PIMCAgent`` and ``ISMCTSAgent``.

Both act from the seat's raw observation record (the ``act_record`` hook of
:mod:`trickgym.agents`), so they see exactly the seat's information set.

What a decision depends on: the agent's options and ``seed``, the seed of
the deal's last ``start_deal``, the observation record, and (Pinochle only)
the seat's memory of who won the deal's earlier tricks (:mod:`.memory`),
nothing else. Each decision draws from a generator seeded from the deal's
seed and the record itself, not from one that earlier decisions advanced,
and the solver tables, kept for the agent's life to save allocating them,
are emptied at each decision: a table warm from earlier searches settles
solves that a cold one abandons at the node budget, which changed the
action. So one decision replayed alone (``start_deal`` with the deal's
seed, then ``act_record``) is the one the run made, whatever the object
searched before, and a run's decisions do not depend on its chunking.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields

import numpy as np

from trickgym.agents.solved_points import NODE_LIMIT, PIMC_SOLVE_CARDS
from trickgym.agents.solved_points import solve_cards as line
from trickgym.api import Game
from trickgym.checks import (
    check_flag,
    check_int,
    check_options,
    check_real,
    check_seed,
    check_tt_mb,
    record_or_keywords,
)
from trickgym.engine.loops import rule_choice
from trickgym.engine.params import params_matrix
from trickgym.games import GAMES
from trickgym.games import game as make_game
from trickgym.games.solowhist.constants import SOLO_CALL, TRUMP_CHOICE
from trickgym.rng import mix64, seed_rng
from trickgym.solvers.points_search import (
    DEFAULT_REFINE_NODES,
    META_NODE_LIMIT,
    META_REFINE,
    new_points_table,
)

from .ismcts import ismcts_search
from .memory import update_memory
from .pimc import MAX_ACTIONS, pimc_values
from .pimc_points import pimc_leaf_values, pimc_points_values

__all__ = ["ISMCTSAgent", "PIMCAgent", "PointSearch", "SoloWhistSearch", "make_mc_agent"]

# Default budgets per game are the game's ``search`` (trickgym.api.SearchDefaults): each
# keeps a 1,000-deal duplicate tournament against the rule agent under ten minutes
# (Solo Whist, solved: 8.7 measured on a loaded 2-core machine) (benchmarks/bench_mc.py);
# games with more decisions per tournament (Troggu's seatings, Phat's matches) get less
# per decision.
# Node budget of one solver call (Solo Whist; a few tens of milliseconds): a sample
# whose solve runs out of it is valued by rule-agent playouts instead (counted in the
# agent's ``fallbacks``). Phat, Pinochle, Troggu: trickgym.agents.solved_points.NODE_LIMIT.
DEFAULT_NODE_LIMIT = 100_000
# Solo Whist ISMCTS leaves solved double dummy from this many cards in hand down.
DEFAULT_ISMCTS_DD_CARDS = 6
# Solo Whist bidders of PIMC: "playouts" (each call valued by rule-agent
# playouts), "dd" (the contract each call leads to among rule bidders, solved
# double dummy), "calibrated" (calibrated double-dummy made-rates: .solved_bids;
# Pass, Prop and Cop by the rule agent), "hybrid" (playouts, except the calls
# above Solo: Misère and up valued by the calibrated made-rates).
# "rule" (every game): the rule agent's calls, so that a tournament measures PIMC's card
# play alone. Phat, Pinochle and Troggu take "playouts", "dd" (each call's deal played on
# by the rule agents to the solve line, then solved: .pimc_points) and "rule".
BIDS = ("playouts", "dd", "calibrated", "hybrid", "rule")
POINTS_BIDS = ("playouts", "dd", "rule")
DEFAULT_BIDS = "playouts"
# PIMC's card play: "pimc" (searched), or "rule" (the rule agent's cards, so that a
# tournament measures PIMC's bidding alone).
CARDS = ("pimc", "rule")
# Upper bound of a node budget: far past any solve that finishes in hours.
MAX_NODE_LIMIT = 10**12
# Upper bounds of the budgets: far past any useful setting (a decision of a million
# samples takes hours), so that a typo (2**63) is refused instead of looping for ever.
MAX_SAMPLES = 1_000_000
MAX_ROLLOUTS = 10_000
MAX_ITERATIONS = 100_000_000


def check_deal_start(game, seed, seat) -> np.uint64:
    """``start_deal``'s arguments checked: the deal's seed (0 .. 2**64-1) and a seat of ``game``."""
    check_int("seat", seat, 0, game.n_seats - 1)
    return np.uint64(check_seed(seed, optional=False))


def legal_of_mask(game, action_mask) -> np.ndarray:
    """The legal action ids of ``action_mask``, which must be ``game.n_actions`` flags.

    A mask of another length would silently map ids to other actions.
    """
    mask = np.asarray(action_mask)
    if mask.shape != (game.n_actions,) or mask.dtype.kind not in "bui":
        raise ValueError(
            f"action_mask must be {game.n_actions} flags (one per action of {game.name}), "
            f"got {action_mask!r:.80} (shape {mask.shape}, dtype {mask.dtype})"
        )
    legal = np.flatnonzero(mask)
    if len(legal) == 0:
        raise ValueError("no legal action in the mask")
    return legal


def check_observation(agent, game, record) -> None:
    """``record`` must be a one-record observation array of ``game`` (the agent's own).

    Another game's observation (``KeyError 'pitcher'`` deep in the kernels) is
    refused with a ``ValueError`` naming both games.
    """
    dtype = getattr(record, "dtype", None)
    if isinstance(record, np.ndarray) and dtype == game.obs_dtype and record.shape == (1,):
        return
    other = next((name for name, (cls, _) in GAMES.items() if cls.obs_dtype == dtype), None)
    what = f"an observation record of {other}" if other else f"{record!r:.80}"
    raise ValueError(
        f"{type(agent).__name__} plays {game.name}: it needs a one-record {game.name} "
        f"observation array, got {what}"
    )


def record_or_refuse(agent, game, observation) -> np.ndarray:
    """``observation`` if it is a record array, else a ``ValueError`` saying how an agent
    that samples from the raw record is used."""
    if isinstance(observation, np.ndarray):
        return observation  # act_record checks its game and shape
    raise ValueError(
        f"{type(agent).__name__} acts on the seat's observation record (a one-record array "
        f"of game.obs_dtype, e.g. from game.kernels.observe_at), got {type(observation).__name__}:"
        " the encoded dict does not hold all of it. Pass the agent to simulate, tournament or "
        "an env's opponents, which hand it the record"
    )


class _MonteCarloAgent:
    """Shared plumbing: seeding, the rule fallback, the per-deal memory."""

    def __init__(self, game, seed=None, rule_options=None):
        if not isinstance(game, Game):
            raise ValueError(
                f"game must be a trickgym Game (trickgym.game(name, ...)), got {game!r}"
            )
        if getattr(game, "search", None) is None:
            raise ValueError(f"no Monte Carlo agent for game {game.name!r} (it has no search)")
        self.game = game
        self.seed = seed_rng(seed)
        # Without a seed of its own, the agent is seeded by the deals alone, so
        # runs that name it (simulate, tournaments, play) are reproducible.
        self._own_seed = 0 if seed is None else self.seed
        self.rng = np.array([self.seed], dtype=np.uint64)
        self._deal_seed = self.seed  # until the first start_deal
        # The record's fields without the dtype's alignment padding, whose bytes are
        # whatever the buffer held: the decision's seed hashes the fields alone.
        self._packed = np.dtype([(f, game.obs_dtype.fields[f][0]) for f in game.obs_dtype.names])
        self.params = params_matrix(game, game.n_seats, rule_options)
        self.template = game.new_match(0)
        self.memory = np.zeros(4, dtype=np.uint64)
        self.uniform = 0  # decisions' determinisations drawn exactly uniformly
        self.samples_drawn = 0
        self._rule_action = game.rule_kernel
        self._dd_table = None
        self._pt_table = None
        self.tt_mb = 8
        self.node_limit = DEFAULT_NODE_LIMIT
        # Solver valuations settled, and those past the node budget valued by rule-agent
        # playouts instead (.pimc_common.STAT_*), over the agent's life.
        self.stats = np.zeros(2, dtype=np.int64)
        # The values the last decision compared (the ``last_values`` hook of trickgym.agents).
        self.last_values = None

    @property
    def solves(self) -> int:
        """Valuations settled by a solve so far (a sampled world's cards, or one call's deal)."""
        return int(self.stats[0])

    @property
    def fallbacks(self) -> int:
        """Valuations whose solve ran past the node budget, valued by rule-agent playouts."""
        return int(self.stats[1])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game.name}, {self._budget()}, seed={self.seed})"

    def _budget(self) -> str:
        raise NotImplementedError

    def start_deal(self, seed: int, seat: int) -> None:
        """Seed the deal's decisions from the deal's derived seed; forget the last deal."""
        seed = check_deal_start(self.game, seed, seat)
        self._deal_seed = int(mix64(seed ^ np.uint64(self._own_seed)))
        self.rng[0] = self._deal_seed
        self.memory[:] = 0

    def _start_decision(self, record) -> None:
        """Make the decision of ``record`` independent of every earlier one.

        Its generator is seeded from the deal's seed and a hash of the
        record (distinct for every decision of a deal), and the solver
        tables are emptied if a search used them since the last decision.
        """
        fields = np.asarray(record)[:1].astype(self._packed).tobytes()
        key = int.from_bytes(hashlib.blake2b(fields, digest_size=8).digest(), "little")
        self.rng[0] = mix64(np.uint64(self._deal_seed) ^ np.uint64(key))
        if self._dd_table is not None:
            # lazy: the double-dummy solver takes 0.2 s to import
            from trickgym.solvers.dd_search import META_NODES, reset_table

            if self._dd_table[1][META_NODES] > 0:
                reset_table(self._dd_table)
        if self._pt_table is not None:
            # here, not at the top: the same name as the double-dummy branch's (lazy) import
            from trickgym.solvers.points_search import META_NODES, reset_points_table

            if self._pt_table[1][META_NODES] > 0:
                reset_points_table(self._pt_table)

    def act(self, observation, action_mask) -> int:
        """The action for ``observation``, the seat's observation record (see :meth:`act_record`).

        The agent samples deals from the raw record, which the simulators,
        tournaments, ``play`` and the envs' opponents hand it (through
        :meth:`act_record`); the encoded dict (``State.observe``, the
        Gymnasium observation) does not hold all of it and is refused.
        """
        return self.act_record(record_or_refuse(self, self.game, observation), action_mask)

    def act_record(self, record: np.ndarray, action_mask: np.ndarray) -> int:
        """The action for the seat whose observation record is ``record`` (one-record array)."""
        check_observation(self, self.game, record)
        legal = legal_of_mask(self.game, action_mask)
        update_memory(self.game, record[0], self.memory)
        self.last_values = None
        if len(legal) == 1:
            return int(legal[0])
        self._start_decision(record)
        if not self._searched(record[0]):
            return rule_choice(record[0], self.params, self.rng)
        return int(self._search(record, legal))

    def _table(self):
        """The double-dummy solver's table, kept for the agent's life and emptied at each
        decision (a token one for games whose card play the point-trick solver values)."""
        if self._dd_table is None:
            # lazy: the double-dummy solver takes 0.2 s to import
            from trickgym.solvers.dd_search import META_NODE_LIMIT, new_table

            self._dd_table = new_table(self.tt_mb if self.game.solver == "dd" else 0.01)
            self._dd_table[1][META_NODE_LIMIT] = self.node_limit
        return self._dd_table

    def _searched(self, rec) -> bool:
        """Whether the decision of record ``rec`` is searched (else the rule agent acts)."""
        return int(rec["phase"]) in self.game.search.phases

    def _search(self, record, legal) -> int:
        raise NotImplementedError


@dataclass(frozen=True)
class SoloWhistSearch:
    """PIMC's double-dummy options, for Solo Whist (see :class:`PIMCAgent`).

    ``dd_cards``: card play solved from this many cards in hand (0: never);
    ``dd_bids``: calls solved (``bids="dd"``); ``exact_cards``: tricks
    counted exactly from this many cards down; ``bid_calibration``: the
    ``"calibrated"`` and ``"hybrid"`` bidders' calibration;
    ``node_limit``: nodes per solver call (``None``: the default).
    """

    dd_cards: int = 13
    dd_bids: bool = False
    exact_cards: int | None = None
    bid_calibration: object = None
    node_limit: int | None = None


@dataclass(frozen=True)
class PointSearch:
    """PIMC's point-trick solver options, for Phat, Pinochle and Troggu (see :class:`PIMCAgent`).

    ``solve_cards``: card play solved from this many cards in hand down
    (``None``: the game's default, 0: never); ``refine_nodes``: nodes a card
    to narrow the payoff past its steps; ``node_limit``: nodes per solver
    call (``None``: the default).
    """

    solve_cards: int | None = None
    refine_nodes: int | None = None
    node_limit: int | None = None


def _search_options(game, search, keywords: dict):
    """The solver options of ``game``'s kind (``search``, or made from ``keywords``)."""
    kind = SoloWhistSearch if game.solver == "dd" else PointSearch
    other = PointSearch if kind is SoloWhistSearch else SoloWhistSearch
    names = {f.name for f in fields(kind)}
    unknown = [k for k in keywords if k not in names]
    if unknown:
        theirs = [k for k in unknown if k in {f.name for f in fields(other)}]
        if theirs:
            raise ValueError(
                f"{', '.join(theirs)} is an option of {other.__name__}, not of {game.name}'s "
                f"{kind.__name__} ({', '.join(sorted(names))})"
                + ("; bids='dd' solves the calls" if "dd_bids" in theirs else "")
            )
        raise TypeError(f"PIMCAgent got unexpected keyword arguments {', '.join(unknown)}")
    return record_or_keywords("search", search, kind, keywords, f" for {game.name}")


class PIMCAgent(_MonteCarloAgent):
    """Determinised Monte Carlo: each legal action's mean payoff over sampled deals.

    ``samples`` determinisations per decision (default per game:
    ``game.search.samples``; at most ``MAX_SAMPLES``, ``rollouts`` at most
    ``MAX_ROLLOUTS``, ``tt_mb`` at most ``trickgym.checks.TT_MB_MAX``). Solo
    Whist is valued by the double-dummy solver on every sampled deal
    (:mod:`.pimc_dd`): cards with at most ``dd_cards`` cards in hand
    (default 13: full-deal solves from the first card, a median 0.2 s a
    first-trick decision on a loaded machine, ``benchmarks/bench_mc.py
    --decisions``; 12: from the second trick on; 0 turns the solver off),
    and, with ``dd_bids``, calls and the
    Abundance trump choice through the contract each leads to among rule
    bidders, solved from the first lead. Solved bids, made as if the
    declarer could see every card, overbid (off by default; bids are then
    valued by rule-agent playouts; docs/guides/agents.md, "Monte Carlo agents").
    These are the options of :class:`SoloWhistSearch`, given as
    ``search=SoloWhistSearch(...)`` or as keywords (``dd_cards=12``).
    Phat, Pinochle and Troggu (options of :class:`PointSearch`, as
    ``search=`` or keywords) card play is valued the same way by the
    point-trick solver from ``solve_cards`` cards in hand down (default per
    game and table size: :data:`trickgym.agents.solved_points.PIMC_SOLVE_CARDS`;
    0 turns it off), by rule-agent playouts above that line.
    Tricks are counted exactly from ``exact_cards`` cards in hand down,
    above that by one probe at the goal (:mod:`trickgym.agents.solved_solowhist`).
    Each world is asked the payoff's question
    (:mod:`trickgym.solvers.points_payoff`): the payoff's steps (Troggu's
    class, Pinochle's made or set, Phat's race), then at most
    ``refine_nodes`` more nodes a card to narrow the rest (Pinochle's
    counters, Phat's phat; default ``DEFAULT_REFINE_NODES``; 0: the steps
    alone, -1: the exact payoff).
    A sampled world whose solve runs past ``node_limit`` nodes (per solver
    call; default ``DEFAULT_NODE_LIMIT`` for Solo Whist,
    :data:`trickgym.agents.solved_points.NODE_LIMIT` for the others) is
    valued by rule-agent playouts instead; :attr:`solves` and
    :attr:`fallbacks` count both over the agent's life (``stats``).
    ``cards="rule"`` plays the rule agent's cards and ``bids="rule"`` makes
    its calls (every game), so that a tournament measures PIMC's bidding or
    its card play alone.
    Ties between actions go to the rule agent's. ``bids`` picks the
    bidder (``BIDS``; Phat, Pinochle and Troggu take ``POINTS_BIDS``):
    ``"playouts"`` (each call valued by rule-agent
    playouts, as every non-solved decision), ``"dd"`` (``dd_bids=True``; in
    Pinochle and Troggu each call's deal is played on by the rule agents to
    the solve line and solved there: :func:`.pimc_points.pimc_leaf_values`),
    ``"calibrated"`` or ``"hybrid"`` (:mod:`.solved_bids`: lone-declarer calls
    valued by sampled made-rates calibrated to PIMC's play, with
    ``bid_calibration``, a :class:`.solved_bids.BidCalibration` or its dict,
    default :data:`.solved_bids.CALIBRATION`). Everything else (other games, or the solver
    turned off) is valued by ``rollouts`` rule-agent playouts per action
    and sample. One solver table of ``tt_mb`` megabytes serves the samples
    of a decision and is emptied before the next, so that the node budget
    leaves out the same samples whatever was searched before: a decision
    depends only on the options, the seeds and the observation (module
    docstring).
    """

    values_name = "mean payoff over the samples"
    # the options of SoloWhistSearch and PointSearch, also taken as keywords
    keyword_options = ("dd_cards", "dd_bids", "exact_cards", "bid_calibration", "solve_cards",
                       "node_limit", "refine_nodes")  # fmt: skip

    def __init__(
        self,
        game,
        samples=None,
        seed=None,
        rollouts: int = 1,
        rule_options=None,
        tt_mb: float = 8,
        bids: str | None = None,
        cards: str = "pimc",
        search: SoloWhistSearch | PointSearch | None = None,
        **keywords,
    ):
        # lazy: the double-dummy solver takes 0.2 s to import
        from trickgym.agents.solved_solowhist import EXACT_CARDS

        # lazy: the bid calibration loads with the solver above
        from .solved_bids import CALIBRATION, BidCalibration

        super().__init__(game, seed, rule_options)
        search = _search_options(game, search, keywords)
        solo = SoloWhistSearch() if game.solver != "dd" else search
        dd_cards, dd_bids, exact_cards = solo.dd_cards, solo.dd_bids, solo.exact_cards
        bid_calibration = solo.bid_calibration
        node_limit = search.node_limit
        solve_cards = None if game.solver == "dd" else search.solve_cards
        refine_nodes = None if game.solver == "dd" else search.refine_nodes
        if bids is None:
            bids = "dd" if dd_bids else DEFAULT_BIDS
        if not isinstance(bids, str) or bids not in BIDS:
            raise ValueError(f"bids must be one of {BIDS}, got {bids!r}")
        if dd_bids and bids != "dd":
            raise ValueError(f"dd_bids=True is bids='dd', not bids={bids!r}")
        if bid_calibration is None:
            bid_calibration = CALIBRATION
        elif isinstance(bid_calibration, dict):
            bid_calibration = BidCalibration.from_dict(bid_calibration)
        if not isinstance(bid_calibration, BidCalibration):
            raise ValueError(
                f"bid_calibration must be a BidCalibration or its dict, got {bid_calibration!r}"
            )
        self.bid_calibration = bid_calibration
        dd_bids = check_flag("dd_bids", dd_bids)
        dd = game.solver == "dd"  # the double-dummy options and bidders (Solo Whist)
        if not dd and bids not in POINTS_BIDS:
            raise ValueError(
                f"bids={bids!r} is a Solo Whist bidder; {game.name} takes one of {POINTS_BIDS}"
            )
        self.bids = bids
        if not isinstance(cards, str) or cards not in CARDS:
            raise ValueError(f"cards must be one of {CARDS}, got {cards!r}")
        self.cards = cards
        if node_limit is None:
            node_limit = DEFAULT_NODE_LIMIT if dd else NODE_LIMIT
        self.node_limit = check_int("node_limit", node_limit, 1, MAX_NODE_LIMIT)
        if refine_nodes is None:
            refine_nodes = DEFAULT_REFINE_NODES
        self.refine_nodes = check_int("refine_nodes", refine_nodes, -1, MAX_NODE_LIMIT)
        dd_bids = self.bids == "dd"
        if samples is None:
            samples = game.search.samples
        for name, v in (("dd_cards", dd_cards), ("exact_cards", exact_cards)):
            if v is not None:
                check_int(name, v, 0, 13)
        self.dd_cards = dd_cards if dd else 0
        self.solve_cards = self._solve_line(solve_cards)
        self.dd_bids = bool(dd_bids) and dd
        self.exact_cards = EXACT_CARDS if exact_cards is None else exact_cards
        self.tt_mb = check_tt_mb(tt_mb)
        self.samples = check_int("samples", samples, 1, MAX_SAMPLES)
        self.rollouts = check_int("rollouts", rollouts, 1, MAX_ROLLOUTS)

    def _solve_line(self, solve_cards) -> int:
        """Cards in hand from which Phat, Pinochle and Troggu card play is solved (0: never)."""
        if self.game.solver != "points":
            if solve_cards not in (None, 0):
                raise ValueError(
                    "solve_cards is for the games the point-trick solver plays (Phat, "
                    f"Pinochle, Troggu); {self.game.name}: dd_cards"
                )
            return 0
        if solve_cards is None:
            return line(PIMC_SOLVE_CARDS, self.game.name, self.game.n_seats)
        # Cards in hand: the pack's size is past any hand (solve every card).
        return check_int("solve_cards", solve_cards, 0, self.game.deck.n_cards)

    def _points_table(self):
        """The point-trick solver's table, kept for the agent's life and emptied at each
        decision."""
        if self._pt_table is None:
            self._pt_table = new_points_table(self.tt_mb)
            self._pt_table[1][META_NODE_LIMIT] = self.node_limit
            self._pt_table[1][META_REFINE] = self.refine_nodes
        return self._pt_table

    def _budget(self) -> str:
        split = "" if self.cards == "pimc" else f", cards={self.cards}"
        if self.solve_cards:
            return (
                f"samples={self.samples}, solve_cards={self.solve_cards}, "
                f"node_limit={self.node_limit}, refine_nodes={self.refine_nodes}, "
                f"bids={self.bids}{split}"
            )
        if self.dd_cards or self.dd_bids:
            return (
                f"samples={self.samples}, dd_cards={self.dd_cards}, "
                f"node_limit={self.node_limit}, bids={self.bids}{split}"
            )
        return f"samples={self.samples}, rollouts={self.rollouts}, bids={self.bids}{split}"

    def _solved(self, rec) -> bool:
        """Whether this decision is valued by a solver (by phase and hand size)."""
        game = self.game
        in_hand = bin(int(rec["hand"])).count("1")
        play = int(rec["phase"]) == game.play_phase
        if game.solver == "points":
            if not play:  # calls: solved leaves (.pimc_points.pimc_leaf_values) when asked
                return self.bids == "dd" and self.solve_cards > 0
            if not game.has_side(rec):  # the solver values a side's points: none to value
                return False
            return in_hand <= self.solve_cards
        if play:
            return self.dd_cards > 0 and in_hand <= self.dd_cards
        return self.dd_bids

    def action_values(self, record, legal) -> np.ndarray:
        """Each legal action's mean payoff to the seat over this decision's samples.

        ``float64[len(legal)]`` in the order of ``legal``; ``-inf`` for an
        action no sample valued (every solve of it ran out of nodes). Solved
        (double-dummy) where :meth:`_solved` says so, else by rule-agent
        playouts. Seeded and with emptied tables like a decision: the values
        :meth:`act_record` compares for this record after the same ``start_deal``.
        """
        self._start_decision(record)
        return self._values(record, legal)

    def _values(self, record, legal) -> np.ndarray:
        """:meth:`action_values` drawing from the decision's generator as it stands."""
        values = np.zeros(MAX_ACTIONS, dtype=np.float64)
        counts = np.zeros(MAX_ACTIONS, dtype=np.int64)
        solved = self._solved(record[0])
        play = int(record[0]["phase"]) == self.game.play_phase
        if solved and self.game.solver == "points" and play:
            self.uniform += pimc_points_values(
                record, self.memory, self.template, self.params, self.rng, self.samples,
                self._points_table(), values, counts, self.stats,
            )  # fmt: skip
        elif solved and self.game.solver == "points":
            self.uniform += pimc_leaf_values(
                record, self.memory, self.template, self.params, self.rng, self.samples,
                self._points_table(), self.solve_cards, (values, counts, self.stats),
            )  # fmt: skip
        elif solved:
            # lazy: the double-dummy solver takes 0.2 s to import
            from .pimc_dd import pimc_dd_values

            self.uniform += pimc_dd_values(
                record, self.memory, self.template, self.params, self.rng, self.samples,
                self._table(), self.exact_cards, (values, counts, self.stats),
            )  # fmt: skip
        else:
            self.uniform += pimc_values(
                record, self.memory, self.template, self.params, self.rng, self.samples,
                self.rollouts, values, counts,
            )  # fmt: skip
        self.samples_drawn += self.samples
        return np.where(counts[legal] > 0, values[legal] / np.maximum(counts[legal], 1), -np.inf)

    def _search(self, record, legal) -> int:
        rec = record[0]
        bidding = int(rec["phase"]) != self.game.play_phase
        if (self.bids == "rule" and bidding) or (self.cards == "rule" and not bidding):
            return rule_choice(rec, self.params, self.rng)
        if self.bids == "calibrated" and bidding:
            # lazy: the double-dummy solver takes 0.2 s to import
            from .solved_bids import solved_call

            call = solved_call(self, record)
            if call is not None and call in legal:
                return int(call)
            return rule_choice(rec, self.params, self.rng)
        hybrid = self.bids == "hybrid" and bidding
        if hybrid and int(rec["phase"]) == TRUMP_CHOICE:  # the bidders are Solo Whist's
            # lazy: the double-dummy solver takes 0.2 s to import
            from .solved_bids import solved_call

            call = solved_call(self, record)
            if call is not None and call in legal:
                return int(call)
        means = self._values(record, legal)
        self.last_values = (legal, means)  # the array the choice below reads (hybrid edits it)
        if self._solved(rec):
            best = means.max()
            # Ties (the solver often values several cards the same) go to the rule agent's
            # choice: it knows card-play conventions that the values cannot tell apart.
            rule = rule_choice(rec, self.params, self.rng)
            ties = legal[means >= best - 1e-9]
            return rule if rule in ties else int(ties[0])
        if hybrid:
            # lazy: the double-dummy solver takes 0.2 s to import
            from .solved_bids import call_values

            solved = call_values(self, record, solo=False)
            margin = self.bid_calibration.margin
            for i, a in enumerate(legal):
                if int(a) in solved and int(a) != SOLO_CALL:
                    means[i] = solved[int(a)] - margin
        return int(legal[int(np.argmax(means))])


class ISMCTSAgent(_MonteCarloAgent):
    """Single-observer ISMCTS with rule-agent rollouts.

    ``iterations`` per decision (default per game: ``game.search.iterations``;
    at most ``MAX_ITERATIONS``);
    ``exploration`` is the UCB1 constant on payoffs scaled by their RMS.
    ``others="tree"`` lets every seat choose in the tree (classic
    SO-ISMCTS); ``"rule"`` (default per game: ``game.search.others``) has the
    other seats act by the rule agent inside the tree as well. Solo Whist
    leaves with at most ``dd_cards`` cards in hand (default
    ``DEFAULT_ISMCTS_DD_CARDS``) are valued by the double-dummy solver
    instead of a rollout (one ``tt_mb`` table, emptied at each decision: a
    decision depends only on the options, the seeds and the observation, as
    PIMC's).
    """

    values_name = "visits"

    def __init__(
        self,
        game,
        iterations=None,
        seed=None,
        exploration: float = 0.7,
        rule_options=None,
        others=None,
        dd_cards: int | None = None,
        tt_mb: float = 8,
    ):
        super().__init__(game, seed, rule_options)
        if dd_cards is None:
            dd_cards = DEFAULT_ISMCTS_DD_CARDS
        dd_cards = check_int("dd_cards", dd_cards, 0, 13)
        self.dd_cards = dd_cards if game.solver == "dd" else 0
        self.tt_mb = check_tt_mb(tt_mb)
        if others is None:
            others = game.search.others
        if not isinstance(others, str) or others not in ("tree", "rule"):
            raise ValueError(f"others must be 'tree' or 'rule', got {others!r}")
        self.others = others
        if iterations is None:
            iterations = game.search.iterations
        self.iterations = check_int("iterations", iterations, 1, MAX_ITERATIONS)
        self.exploration = check_real("exploration", exploration, 0)

    def _budget(self) -> str:
        return f"iterations={self.iterations}, dd_cards={self.dd_cards}"

    def _search(self, record, legal) -> int:
        visits = np.zeros(MAX_ACTIONS, dtype=np.float64)
        self.uniform += ismcts_search(
            record,
            self.memory,
            self.template,
            self.params,
            self.rng,
            (self.iterations, self.exploration, self.others == "rule"),
            visits,
            self._table(),
            self.dd_cards,
        )
        self.samples_drawn += self.iterations
        self.last_values = (legal, visits[legal])
        return int(legal[int(np.argmax(visits[legal]))])


def make_mc_agent(name: str, game, **kwargs):
    """A Monte Carlo agent by name: ``"pimc"`` or ``"ismcts"`` (kwargs: budget, seed, ...)."""
    if isinstance(game, str):
        game = make_game(game)
    if not isinstance(game, Game):
        raise ValueError(f"game must be a name or a trickgym Game, got {game!r}")
    makers = {"pimc": PIMCAgent, "ismcts": ISMCTSAgent}
    if name not in makers:
        raise ValueError(f"unknown Monte Carlo agent {name!r}; choose from {sorted(makers)}")
    check_options(name, makers[name], game, kwargs)
    return makers[name](game, **kwargs)
