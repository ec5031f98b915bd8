"""Troggu for people and tests: options, dealing, names and printing."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...api import Game, SearchDefaults, State
from ...cards.decks import TAROT
from ...cards.notation import format_card
from ...checks import check_int
from ...render import ljust
from ...rng import seed_rng
from ..dealing import check_hand_list, check_hands, check_seat
from . import rules
from .constants import (
    AUCTION,
    CALL_BASE,
    CALL_NAMES,
    CONTRACT_NAMES,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MISERE,
    N_ACTIONS,
    PHASE_NAMES,
    PLAY,
    TAPP_SIZE,
)
from .encode import FEATURE_LABELS, FEATURES, LAYOUT, encode_kernel
from .state import OBS_DTYPE, STATE_DTYPE

__all__ = ["Troggu", "TrogguOptions"]


MAX_DEALS = 10_000


@dataclass(frozen=True)
class TrogguOptions:
    """Table options (rules §9).

    players:
        3 to 8 (TR-D17); required.
    num_deals:
        Deals in a match, 1..10000; default ``2 * players`` (TR-D15).
    """

    players: int = field(metadata={"allowed": f"{MIN_PLAYERS}..{MAX_PLAYERS}", "example": 4})
    num_deals: int | None = None

    def __post_init__(self):
        players = check_int("option players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        object.__setattr__(self, "players", players)
        if self.num_deals is None:
            object.__setattr__(self, "num_deals", 2 * players)
        else:
            num_deals = check_int("option num_deals", self.num_deals, 1, MAX_DEALS)
            object.__setattr__(self, "num_deals", num_deals)


class Troggu(Game):
    """Troggu as on Board Game Arena (``docs/rules/troggu.md``), 3 to 8 players."""

    name = "troggu"
    advisor = "trickgym.advisor.troggu"  # the hand advisor's part (trickgym.advisor.advise)
    title = "Troggu"
    phase_names = PHASE_NAMES
    play_phase = PLAY
    features = FEATURES
    feature_labels = FEATURE_LABELS
    # The Tappist's discards and partner call are the rule agent's (no sampler for them yet).
    search = SearchDefaults(
        samples=32, iterations=200, others="tree", phases=frozenset({AUCTION, PLAY})
    )
    solver = "points"
    n_actions = N_ACTIONS
    call_base = CALL_BASE
    call_names = CALL_NAMES
    deck = TAROT
    kernels = rules
    state_dtype = STATE_DTYPE
    obs_dtype = OBS_DTYPE
    obs_layout = LAYOUT
    encode_kernel = staticmethod(encode_kernel)

    def __init__(self, options: TrogguOptions):
        self.n_seats = options.players
        super().__init__(options)

    @property
    def tag(self) -> str:
        """``"troggu-<players>p"``: the table size is an option."""
        return f"{self.name}-{self.n_seats}p"

    def has_side(self, record) -> bool:
        """No declaring side in a Misère: everybody plays for themselves."""
        return int(record["contract"]) != MISERE

    def deal(self, seed=None, *, hands=None, tapp=None, dealer=None) -> State:
        """Start a match and its first deal.

        With ``hands`` (one hand string per seat, e.g. ``"Fool XXI KC 1D"``)
        and ``tapp`` the deal is set, and ``dealer`` is required. Otherwise
        the cards are shuffled from ``seed`` and ``dealer`` (default random)
        deals.
        """
        n = self.n_seats
        if dealer is not None:
            check_seat("dealer", dealer, n)
        array = self.new_match(np.uint64(seed_rng(seed)), dealer=-1 if dealer is None else dealer)
        if hands is not None or tapp is not None:
            if dealer is None:
                raise ValueError("a deal with given hands needs dealer= (a seat)")
            masks, tapp_mask = self._check_deal(hands, tapp)
            rules.set_deal(array[0], np.array(masks + [0] * (8 - n), dtype=np.uint64), tapp_mask)
        return State(self, array)

    def _check_deal(self, hands, tapp):
        n, h, t = self.n_seats, HAND_SIZE[self.n_seats], TAPP_SIZE[self.n_seats]
        hands = check_hand_list(hands, n)
        if tapp is None:
            raise ValueError(f"a deal with given hands needs tapp= ({t} cards)")
        parts = [(f"seat {s}", x, h) for s, x in enumerate(hands)] + [("tapp", tapp, t)]
        *masks, tapp_mask = check_hands(parts, TAROT, need=f"{n} players need")
        return masks, np.uint64(tapp_mask)

    def new_match(self, seed, num_deals=None, dealer=-1):
        """A one-record state array holding a new match from ``seed`` (see ``Game``)."""
        seed, num_deals, dealer = self._match_args(seed, num_deals, dealer)
        array = np.zeros(1, dtype=STATE_DTYPE)
        n_deals = self.options.num_deals if num_deals is None else num_deals
        rules.init_match(array[0], seed, self.n_seats, n_deals, dealer)
        return array

    @property
    def payoff_bound(self) -> int:
        """The largest payoff magnitude of a seat in one deal (``rules.payoff_bound``)."""
        return rules.payoff_bound(self.n_seats)

    def _obs_ranges(self):
        # Every env episode is a one-deal match: scores are 0, then the deal's payoffs.
        b = self.payoff_bound
        return {"scores": (-b, b), "tricks_won": (0, HAND_SIZE[self.n_seats])}

    contract_fields = ("contract", "declarer")

    def contract_of(self, record) -> tuple[str, int]:
        """``(contract, declarer)``: see ``Game.contract_of`` (Misère has no declarer)."""
        c = int(record["contract"])
        return (CONTRACT_NAMES[c] if c else ""), int(record["declarer"])

    def _title(self, state, symbols, color):
        r = state.record
        deal = int(r["deal_index"]) + (0 if state.is_over else 1)
        return (
            f"Troggu, {self.n_seats} players  deal {deal}  "
            f"dealer {int(r['dealer'])}  phase {PHASE_NAMES[r['phase']]}"
        )

    def _seat_line(self, state, seat, hand, marks):
        r = state.record
        call = int(r["calls"][seat])
        said = CALL_NAMES[call] if call >= 0 else ""
        tricks = int(r["tricks_won"][seat])
        return f"  {seat}: {ljust(hand, 48)} {said:<5} tricks {tricks}  {marks}"

    def _table_lines(self, state, symbols, color):
        r = state.record
        if not r["contract"]:
            return []
        text = f"  contract: {CONTRACT_NAMES[r['contract']]}"
        if r["declarer"] >= 0:
            text += f" by {int(r['declarer'])}"
        if r["called_card"] >= 0:
            text += f", partner's card {format_card(r['called_card'], TAROT)}"
        return [text]

    def _result_lines(self, state):
        if not state.is_over:
            return []
        points = state.record["points"][: self.n_seats].tolist()
        return [
            f"  points: {points}  payoffs: {state.payoffs.tolist()}  "
            f"scores: {state.scores.tolist()}"
        ]
