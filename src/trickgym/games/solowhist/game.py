"""Solo Whist for people and tests: options, dealing, names and printing."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...api import Game, SearchDefaults, State
from ...cards.decks import STANDARD
from ...cards.notation import format_card, parse_card
from ...checks import check_flag, check_int
from ...render import card_label, ljust
from ...rng import seed_rng
from ..dealing import check_hand_list, check_hands, check_seat
from . import rules
from .constants import (
    AUCTION,
    CALL_BASE,
    CALL_NAMES,
    CONTRACT_NAMES,
    COP_OFFER,
    DEAL_OVER,
    N_ACTIONS,
    N_SEATS,
    PHASE_NAMES,
    PLAY,
    TRUMP_CHOICE,
    UPGRADE,
)
from .encode import FEATURE_LABELS, FEATURES, LAYOUT, encode_kernel
from .state import OBS_DTYPE, STATE_DTYPE

__all__ = ["MAX_DEALS", "MAX_UNIT", "SoloWhist", "SoloWhistOptions"]

MAX_UNIT = 1000  # 3 x 6 units + overtricks per deal, times MAX_DEALS, stays far below 2**31
MAX_DEALS = 10_000


@dataclass(frozen=True)
class SoloWhistOptions:
    """Table options (rules §9).

    unit:
        Value of one unit, an integer 1..1000 (BGA default 5). Over- and
        under-tricks are absolute points, not units.
    num_deals:
        Scored (not passed-out) deals in a match, 1..10000 (SW-D10; default 8).

    The ranges keep every payoff and match score within the state's 32-bit
    fields; a value outside them is refused, never wrapped.
    always_shuffle:
        Shuffle before every deal instead of BGA's gather-and-cut
        (simulation convenience).
    early_stop:
        End a Misère deal once the declarer takes a trick, an Abundance
        Declared once it loses one (SW-D11); scores are unchanged.
    """

    unit: int = 5
    num_deals: int = 8
    always_shuffle: bool = False
    early_stop: bool = False

    def __post_init__(self):
        for name, high in (("unit", MAX_UNIT), ("num_deals", MAX_DEALS)):
            object.__setattr__(
                self, name, check_int(f"option {name}", getattr(self, name), 1, high)
            )
        for name in ("always_shuffle", "early_stop"):
            object.__setattr__(self, name, check_flag(f"option {name}", getattr(self, name)))


class SoloWhist(Game):
    """Solo Whist as on Board Game Arena (``docs/rules/solowhist.md``)."""

    name = "solowhist"
    advisor = "trickgym.advisor.solowhist"  # the hand advisor's part (trickgym.advisor.advise)
    title = "Solo Whist"
    phase_names = PHASE_NAMES
    play_phase = PLAY
    features = FEATURES
    feature_labels = FEATURE_LABELS
    # Every decision is searched; the card play is solved double dummy.
    search = SearchDefaults(
        samples=24,
        iterations=800,
        others="tree",
        phases=frozenset({AUCTION, COP_OFFER, UPGRADE, TRUMP_CHOICE, PLAY}),
    )
    solver = "dd"
    n_seats = N_SEATS
    n_actions = N_ACTIONS
    call_base = CALL_BASE
    call_names = CALL_NAMES
    deck = STANDARD
    kernels = rules
    state_dtype = STATE_DTYPE
    obs_dtype = OBS_DTYPE
    obs_layout = LAYOUT
    encode_kernel = staticmethod(encode_kernel)

    def deal(self, seed=None, *, hands=None, dealer=None, turn_up=None) -> State:
        """Start a match and its first deal.

        With ``hands`` (four hand strings, seats 0..3) the deal is set, and
        ``dealer`` is required; ``turn_up`` must be in the dealer's hand
        (default: the dealer's lowest card). Otherwise the pack is shuffled
        from ``seed`` and ``dealer`` (default random) deals.
        """
        if dealer is not None:
            check_seat("dealer", dealer, N_SEATS)
        array = self.new_match(np.uint64(seed_rng(seed)), dealer=-1 if dealer is None else dealer)
        record = array[0]
        if hands is not None:
            if dealer is None:
                raise ValueError("a deal with given hands needs dealer= (a seat 0..3)")
            record["pack"] = _pack_for(hands, dealer, turn_up)
            rules.deal_pack(record)
        elif turn_up is not None:
            raise ValueError("turn_up= is only allowed together with hands=")
        return State(self, array)

    def new_match(self, seed, num_deals=None, dealer=-1):
        """A one-record state array holding a new match from ``seed`` (see ``Game``)."""
        seed, num_deals, dealer = self._match_args(seed, num_deals, dealer)
        opts = self.options
        array = np.zeros(1, dtype=STATE_DTYPE)
        rules.init_match(
            array[0],
            seed,
            opts.unit,
            opts.num_deals if num_deals is None else num_deals,
            opts.always_shuffle,
            opts.early_stop,
            dealer,
        )
        return array

    @property
    def payoff_bound(self) -> int:
        """The largest payoff magnitude of a seat in one deal (``rules.payoff_bound``)."""
        return rules.payoff_bound(self.options.unit)

    def _obs_ranges(self):
        # Every env episode is a one-deal match: scores are 0, then the deal's payoffs.
        b = self.payoff_bound
        return {"scores": (-b, b)}

    contract_fields = ("contract", "declarer", "phase")

    def contract_of(self, record) -> tuple[str, int]:
        """``(contract, declarer)``: see ``Game.contract_of``; a passed-out deal is
        ``"Passed out"`` once over."""
        c = int(record["contract"])
        if c == 0:
            return ("Passed out" if record["phase"] == DEAL_OVER else ""), -1
        return CONTRACT_NAMES[c], int(record["declarer"])

    def _title(self, state, symbols, color):
        r = state.record
        return (
            f"Solo Whist  deal {int(r['deal_index']) + 1}  dealer {int(r['dealer'])}  "
            f"turn-up {card_label(r['turn_up'], STANDARD, symbols, color)}  "
            f"phase {PHASE_NAMES[r['phase']]}"
        )

    def _is_declarer(self, state, seat):
        return bool((int(state.record["declarers"]) >> seat) & 1)

    def _face_up(self, state, seat):
        # A Misère Ouverte hand, once exposed, stays shown to every viewer.
        r = state.record
        return bool(r["exposed"]) and seat == r["declarer"]

    def _seat_line(self, state, seat, hand, marks):
        tricks = int(state.record["tricks_won"][seat])
        return f"  {seat}: {ljust(hand, 40)} tricks {tricks}  {marks}"

    def _table_lines(self, state, symbols, color):
        r = state.record
        lines = ["  auction: " + (auction_string(r) or "-")]
        if r["contract"]:
            trumps = (
                "no trumps" if r["trumps"] < 0 else "trumps " + STANDARD.suit_symbols[r["trumps"]]
            )
            lines.append(
                f"  contract: {CONTRACT_NAMES[r['contract']]} by {int(r['declarer'])}, {trumps}"
            )
        return lines

    def _result_lines(self, state):
        if not state.is_over:
            return []
        return [f"  payoffs: {state.payoffs.tolist()}  scores: {state.scores.tolist()}"]


def auction_string(record) -> str:
    """The calls so far, e.g. ``"0:Pass 1:Prop 2:Pass 3:Pass 0:Cop"``."""
    n = int(record["n_calls"])
    return " ".join(
        f"{int(s)}:{CALL_NAMES[int(c) - CALL_BASE]}"
        for s, c in zip(record["call_seats"][:n], record["calls"][:n], strict=True)
    )


def _pack_for(hands, dealer: int, turn_up) -> np.ndarray:
    """A pack that deals ``hands`` 3-3-3-3-1 from eldest, ``turn_up`` last."""
    hands = check_hand_list(hands, N_SEATS)
    masks = check_hands([(f"seat {s}", h, 13) for s, h in enumerate(hands)], STANDARD)
    cards = [[c for c in range(52) if masks[s] >> c & 1] for s in range(N_SEATS)]
    if turn_up is None:
        up = cards[dealer][0]
    else:
        up = (
            parse_card(turn_up)
            if isinstance(turn_up, str)
            else check_int("turn_up", turn_up, 0, 51)
        )
        if up not in cards[dealer]:
            raise ValueError(
                f"turn_up {format_card(up)} is not in the dealer's (seat {dealer}) "
                f"hand {hands[dealer]!r}"
            )
    cards[dealer].remove(up)
    cards[dealer].append(up)
    pack = np.zeros(52, dtype=np.uint8)
    e = (dealer + 1) % N_SEATS
    for j in range(N_SEATS):
        seat_cards = cards[(e + j) % N_SEATS]
        for r in range(4):
            pack[r * 12 + j * 3 : r * 12 + j * 3 + 3] = seat_cards[r * 3 : r * 3 + 3]
        pack[48 + j] = seat_cards[12]
    return pack
