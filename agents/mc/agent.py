"""The Monte Carlo agents as Python objects: ``PIMCAgent`` and ``ISMCTSAgent``.

Both act from the seat's raw observation record (the ``act_record`` hook of
:mod:`trickgym.agents`), so they see exactly the seat's information set;
``start_deal`` reseeds them per deal, so a decision depends only on the
observation and the seed, never on the run's chunking.
"""

from __future__ import annotations

import numpy as np

from trickgym.rng import mix64, seed_rng

__all__ = ["DEFAULT_ITERATIONS", "DEFAULT_SAMPLES", "ISMCTSAgent", "PIMCAgent", "make_mc_agent"]

GAMES = ("solowhist", "troggu", "phat", "pinochle")
# Default budgets per game: each keeps a 1,000-deal duplicate tournament
# against the rule agent under ten minutes (benchmarks/bench_mc.py); games
# with more decisions per tournament (Troggu's seatings, Phat's matches)
# get less per decision.
DEFAULT_SAMPLES = {"solowhist": 96, "troggu": 32, "phat": 32, "pinochle": 96}
DEFAULT_OTHERS = {"solowhist": "tree", "troggu": "tree", "phat": "tree", "pinochle": "rule"}
DEFAULT_ITERATIONS = {"solowhist": 800, "troggu": 200, "phat": 200, "pinochle": 600}


def _rule_kernel(game_name):
    """``rule_action(obs, params, rng)`` of a game's rule agent."""
    from trickgym.agents.rule import phat, pinochle, solowhist, troggu

    return {
        "solowhist": solowhist.rule_action,
        "troggu": troggu.rule_action,
        "phat": phat.rule_action,
        "pinochle": pinochle.rule_action,
    }[game_name]


class _MonteCarloAgent:
    """Shared plumbing: seeding, the rule fallback, the per-deal memory."""

    def __init__(self, game, seed=None, rule_options=None):
        from trickgym.agents.rule import params_matrix

        from trickgym.api import Game

        if not isinstance(game, Game):
            raise ValueError(
                f"game must be a trickgym Game (trickgym.game(name, ...)), got {game!r}"
            )
        if game.name not in GAMES:
            raise ValueError(f"no Monte Carlo agent for game {game.name!r}; games: {GAMES}")
        self.game = game
        self.seed = seed_rng(seed)
        # Without a seed of its own, the agent is seeded by the deals alone, so
        # runs that name it (simulate, tournaments, play) are reproducible.
        self._own_seed = 0 if seed is None else self.seed
        self.rng = np.array([self.seed], dtype=np.uint64)
        self.params = params_matrix(game.name, game.n_seats, rule_options)
        self.template = game.new_match(0)
        self.memory = np.zeros(4, dtype=np.uint64)
        self.uniform = 0  # decisions' determinisations drawn exactly uniformly
        self.samples_drawn = 0
        self._rule_action = _rule_kernel(game.name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game.name}, {self._budget()}, seed={self.seed})"

    def _budget(self) -> str:
        raise NotImplementedError

    def start_deal(self, seed: int, seat: int) -> None:
        """Reseed from the deal's derived seed; forget the last deal."""
        self.rng[0] = mix64(np.uint64(seed) ^ np.uint64(self._own_seed))
        self.memory[:] = 0

    def act(self, observation, action_mask) -> int:
        """Monte Carlo agents need the raw record: the loops call :meth:`act_record`."""
        raise ValueError(
            f"{type(self).__name__} acts on the observation record: call act_record(record, mask)"
        )

    def act_record(self, record: np.ndarray, action_mask: np.ndarray) -> int:
        """The action for the seat whose observation record is ``record`` (one-record array)."""
        from .memory import update_memory

        legal = np.flatnonzero(action_mask)
        if len(legal) == 0:
            raise ValueError("no legal action in the mask")
        update_memory(self.game.name, record[0], self.memory)
        if len(legal) == 1:
            return int(legal[0])
        if not self._searched(record[0]):
            seat = int(record[0]["seat"])
            return int(self._rule_action(record[0], self.params[seat]["values"], self.rng))
        return int(self._search(record, legal))

    def _searched(self, rec) -> bool:
        from .phases import searched_phase

        return searched_phase(self.game.name, rec)

    def _search(self, record, legal) -> int:
        raise NotImplementedError


class PIMCAgent(_MonteCarloAgent):
    """Determinised Monte Carlo: each legal action's mean payoff over sampled deals.

    ``samples`` determinisations per decision (default per game:
    ``DEFAULT_SAMPLES``), ``rollouts`` rule-agent playouts per action and
    sample. Solo Whist card play with at most ``dd_cards`` cards in hand
    is valued by the double-dummy solver instead (default 6: above that a
    solve can take tenths of a second, too slow for the budget; 0 turns it
    off). ``dd=True`` (Solo Whist only) values
    card play by the double-dummy solver when it is available.
    """

    def __init__(
        self,
        game,
        samples=None,
        seed=None,
        rollouts: int = 1,
        rule_options=None,
        dd_cards: int = 6,
    ):
        super().__init__(game, seed, rule_options)
        if samples is None:
            samples = DEFAULT_SAMPLES[game.name]
        if isinstance(dd_cards, bool) or not isinstance(dd_cards, int) or not 0 <= dd_cards <= 13:
            raise ValueError(f"dd_cards must be an integer 0..13, got {dd_cards!r}")
        self.dd_cards = dd_cards if game.name == "solowhist" else 0
        self._dd_table = None
        for name, v in (("samples", samples), ("rollouts", rollouts)):
            if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 1:
                raise ValueError(f"{name} must be a positive integer, got {v!r}")
        self.samples = int(samples)
        self.rollouts = int(rollouts)

    def _budget(self) -> str:
        return f"samples={self.samples}, rollouts={self.rollouts}"

    def _search(self, record, legal) -> int:
        from .pimc import MAX_ACTIONS, pimc_values

        values = np.zeros(MAX_ACTIONS, dtype=np.float64)
        counts = np.zeros(MAX_ACTIONS, dtype=np.int64)
        rec = record[0]
        if (
            self.dd_cards > 0
            and int(rec["phase"]) == 4  # Solo Whist PLAY
            and bin(int(rec["hand"])).count("1") <= self.dd_cards
        ):
            from trickgym.solvers.dd_search import new_table

            from .pimc_dd import pimc_dd_values

            if self._dd_table is None:
                self._dd_table = new_table(8)
            self.uniform += pimc_dd_values(
                record, self.memory, self.template, self.rng, self.samples, self._dd_table,
                values, counts,
            )  # fmt: skip
            self.samples_drawn += self.samples
            means = values[legal] / np.maximum(counts[legal], 1)
            return int(legal[int(np.argmax(np.where(counts[legal] > 0, means, -np.inf)))])
        self.uniform += pimc_values(
            record,
            self.memory,
            self.template,
            self.params,
            self.rng,
            self.samples,
            self.rollouts,
            values,
            counts,
        )
        self.samples_drawn += self.samples
        means = np.where(counts[legal] > 0, values[legal] / np.maximum(counts[legal], 1), -np.inf)
        return int(legal[int(np.argmax(means))])


class ISMCTSAgent(_MonteCarloAgent):
    """Single-observer ISMCTS with rule-agent rollouts.

    ``iterations`` per decision (default per game: ``DEFAULT_ITERATIONS``);
    ``exploration`` is the UCB1 constant on payoffs scaled by their RMS.
    ``others="tree"`` lets every seat choose in the tree (classic
    SO-ISMCTS); ``"rule"`` (default per game: ``DEFAULT_OTHERS``) has the
    other seats act by the rule agent inside the tree as well.
    """

    def __init__(
        self,
        game,
        iterations=None,
        seed=None,
        exploration: float = 0.7,
        rule_options=None,
        others=None,
    ):
        super().__init__(game, seed, rule_options)
        if others is None:
            others = DEFAULT_OTHERS[game.name]
        if others not in ("tree", "rule"):
            raise ValueError(f"others must be 'tree' or 'rule', got {others!r}")
        self.others = others
        if iterations is None:
            iterations = DEFAULT_ITERATIONS[game.name]
        if isinstance(iterations, bool) or not isinstance(iterations, int | np.integer):
            raise ValueError(f"iterations must be a positive integer, got {iterations!r}")
        if iterations < 1:
            raise ValueError(f"iterations must be a positive integer, got {iterations!r}")
        if not exploration >= 0:
            raise ValueError(f"exploration must be >= 0, got {exploration!r}")
        self.iterations = int(iterations)
        self.exploration = float(exploration)

    def _budget(self) -> str:
        return f"iterations={self.iterations}"

    def _search(self, record, legal) -> int:
        from .ismcts import ismcts_search
        from .pimc import MAX_ACTIONS

        visits = np.zeros(MAX_ACTIONS, dtype=np.float64)
        self.uniform += ismcts_search(
            record,
            self.memory,
            self.template,
            self.params,
            self.rng,
            self.iterations,
            self.exploration,
            self.others == "rule",
            visits,
        )
        self.samples_drawn += self.iterations
        return int(legal[int(np.argmax(visits[legal]))])


def make_mc_agent(name: str, game, **kwargs):
    """A Monte Carlo agent by name: ``"pimc"`` or ``"ismcts"`` (kwargs: budget, seed, ...)."""
    from trickgym.api import Game

    if isinstance(game, str):
        import trickgym

        game = trickgym.game(game)
    if not isinstance(game, Game):
        raise ValueError(f"game must be a name or a trickgym Game, got {game!r}")
    makers = {"pimc": PIMCAgent, "ismcts": ISMCTSAgent}
    if name not in makers:
        raise ValueError(f"unknown Monte Carlo agent {name!r}; choose from {sorted(makers)}")
    return makers[name](game, **kwargs)
