"""Pinochle for people and tests: options, dealing, names and printing."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...api import Game, SearchDefaults, State
from ...cards.decks import PINOCHLE
from ...cards.notation import format_hand
from ...checks import check_flag, is_int
from ...render import hand_text, ljust
from ...rng import seed_rng
from ..dealing import check_hand_list, check_hands, check_seat
from . import rules
from .constants import (
    AUCTION,
    BID_BASE,
    CALL_BASE,
    MAX_ACTIONS,
    MAX_BID,
    MAX_BID_LEVELS,
    MAX_TARGET,
    MODES,
    N_SEATS,
    PHASE_NAMES,
    PLAY,
    SUIT_LETTERS,
    TEAM_NAMES,
    TRUMP,
)
from .encode import FEATURE_LABELS, FEATURES, LAYOUT, encode_kernel
from .meld import HAND_MELD_MAX
from .state import OBS_DTYPE, STATE_DTYPE

__all__ = ["Pinochle", "PinochleOptions"]


@dataclass(frozen=True)
class PinochleOptions:
    """Table options (rules §9; each decision's ID in brackets).

    mode:
        ``"kitty"`` (BGA normal play: 11 cards each, the declarer takes a
        4-card kitty and buries 4) or ``"exchange"`` (BGA Friendly mode
        with Card Exchange: 12 each, partners pass cards) [PN-D2].
    pass_count:
        Cards passed each way in exchange mode, 3 or 4 [PN-D7].
    min_bid:
        Lowest bid, a positive multiple of 10 up to 100000 [PN-D8].
    max_bid:
        Highest bid the action space holds (not a rule [PN-D20]): a multiple
        of 10 with at most 75 levels from ``min_bid``; default 990, the
        largest that fits above 250 (the rules file suggests 1000).
    all_pass:
        ``"dealer_stuck"`` (the dealer must bid) or ``"redeal"`` [PN-D9].
    must_head:
        Whether a follower must beat the winning card when able [PN-D11].
    meld_save:
        ``"one_trick"`` or ``"twenty_counters"``: what a team needs to win
        for its meld to count [PN-D13].
    target:
        Score that ends the match, a positive multiple of 10 up to 1000000
        [PN-D15].

    Values outside these ranges are refused, never wrapped into the state's
    32-bit fields.
    """

    mode: str = "kitty"
    pass_count: int = 4
    min_bid: int = 250
    max_bid: int = 990
    all_pass: str = "dealer_stuck"
    must_head: bool = True
    meld_save: str = "one_trick"
    target: int = 1500

    def __post_init__(self):
        choices = {
            "mode": MODES,
            "all_pass": ("dealer_stuck", "redeal"),
            "meld_save": ("one_trick", "twenty_counters"),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                value = getattr(self, name)
                raise ValueError(
                    f"option {name} must be one of {', '.join(allowed)}, got {value!r}"
                )
        if not is_int(self.pass_count) or self.pass_count not in (3, 4):
            raise ValueError(f"option pass_count must be 3 or 4, got {self.pass_count!r}")
        object.__setattr__(self, "pass_count", int(self.pass_count))
        for name, most in (("min_bid", MAX_BID), ("max_bid", MAX_BID), ("target", MAX_TARGET)):
            value = getattr(self, name)
            if not is_int(value) or not 0 < value <= most or value % 10:
                raise ValueError(
                    f"option {name} must be a positive multiple of 10 up to {most}, got {value!r}"
                )
            object.__setattr__(self, name, int(value))
        levels = (self.max_bid - self.min_bid) // 10 + 1
        if not 1 <= levels <= MAX_BID_LEVELS:
            raise ValueError(
                f"option max_bid must be min_bid ({self.min_bid}) to min_bid + "
                f"{10 * (MAX_BID_LEVELS - 1)} (at most {MAX_BID_LEVELS} bid levels), "
                f"got {self.max_bid!r}"
            )
        object.__setattr__(self, "must_head", check_flag("option must_head", self.must_head))


class Pinochle(Game):
    """Four-player partnership Pinochle, single deck (``docs/rules/pinochle.md``)."""

    name = "pinochle"
    advisor = "trickgym.advisor.pinochle"  # the hand advisor's part (trickgym.advisor.advise)
    title = "Pinochle"
    partnership = True
    phase_names = PHASE_NAMES
    play_phase = PLAY
    features = FEATURES
    feature_labels = FEATURE_LABELS
    # The kitty burial and the card passing are the rule agent's (no sampler for them yet);
    # the seat remembers which team took past tricks (its observation does not say).
    search = SearchDefaults(
        samples=96,
        iterations=600,
        others="rule",
        phases=frozenset({AUCTION, TRUMP, PLAY}),
        trick_memory=True,
    )
    solver = "points"
    n_seats = N_SEATS
    call_base = CALL_BASE
    deck = PINOCHLE
    kernels = rules
    state_dtype = STATE_DTYPE
    obs_dtype = OBS_DTYPE
    obs_layout = LAYOUT
    encode_kernel = staticmethod(encode_kernel)

    def __init__(self, options: PinochleOptions):
        # A fixed action space: bids above max_bid exist but are never legal.
        self.n_actions = MAX_ACTIONS
        self.call_names = (
            "Pass",
            *(f"Trumps {s}" for s in SUIT_LETTERS),
            *(str(options.min_bid + 10 * i) for i in range(MAX_BID_LEVELS)),
        )
        super().__init__(options)

    @property
    def tag(self) -> str:
        """``"pinochle"`` (kitty mode) or ``"pinochle-exchange"``: the modes are different
        games to a learnt agent (12 cards each, a pass instead of a kitty)."""
        return self.name if self.options.mode == "kitty" else f"{self.name}-{self.options.mode}"

    def bid_action(self, value: int) -> int:
        """The action id of bidding ``value``."""
        opts = self.options
        if not is_int(value) or value % 10 or not opts.min_bid <= value <= opts.max_bid:
            raise ValueError(
                f"bid {value!r} must be a multiple of 10 from {opts.min_bid} to {opts.max_bid}"
            )
        return BID_BASE + (value - opts.min_bid) // 10

    def deal(self, seed=None, *, hands=None, kitty=None, dealer=None) -> State:
        """Start a match and its first hand.

        With ``hands`` (four hand strings such as ``"AATK.Q9.J.9"`` or
        ``"AS AS 10H"``; 11 cards each with a 4-card ``kitty`` in kitty mode,
        12 each in exchange mode) the deal is set and ``dealer`` is required.
        """
        if dealer is not None:
            check_seat("dealer", dealer, N_SEATS)
        array = self.new_match(np.uint64(seed_rng(seed)), dealer=-1 if dealer is None else dealer)
        if hands is not None or kitty is not None:
            if dealer is None:
                raise ValueError("a deal with given hands needs dealer= (a seat 0..3)")
            masks, kitty_mask = self._check_deal(hands, kitty)
            rules.set_deal(array[0], np.array(masks, dtype=np.uint64), kitty_mask)
        return State(self, array)

    def _check_deal(self, hands, kitty):
        kitty_mode = self.options.mode == "kitty"
        size = 11 if kitty_mode else 12
        hands = check_hand_list(hands, 4)
        if kitty_mode and kitty is None:
            raise ValueError("kitty mode needs kitty= (4 cards)")
        if not kitty_mode and kitty:
            raise ValueError("exchange mode has no kitty")
        parts = [(f"seat {s}", h, size) for s, h in enumerate(hands)]
        if kitty_mode:
            parts.append(("kitty", kitty, 4))
        masks = check_hands(parts, PINOCHLE)
        kitty_mask = masks.pop() if kitty_mode else 0
        return masks, np.uint64(kitty_mask)

    def rule_args(self) -> tuple:
        """The options as the kernels' positional rule arguments.

        ``(mode index, pass_count, min_bid, max_bid, redeal, must_head,
        twenty_counters)``, in the order ``rules.init_match`` and the
        simulation kernels take them (the target follows where needed).
        """
        o = self.options
        return (
            MODES.index(o.mode),
            o.pass_count,
            o.min_bid,
            o.max_bid,
            o.all_pass == "redeal",
            o.must_head,
            o.meld_save == "twenty_counters",
        )

    def new_match(self, seed, num_deals=None, dealer=-1):
        """A one-record state array holding a new match from ``seed`` (see ``Game``)."""
        seed, _, dealer = self._match_args(seed, num_deals, dealer)
        array = np.zeros(1, dtype=STATE_DTYPE)
        rules.init_match(array[0], seed, *self.rule_args(), self.options.target, dealer)
        return array

    @property
    def payoff_bound(self) -> int:
        """The largest payoff magnitude of a seat in one hand (``rules.payoff_bound``)."""
        return rules.payoff_bound(MODES.index(self.options.mode), self.options.max_bid)

    def _obs_ranges(self):
        # Every env episode is one hand of a new match: scores are 0, then its scores.
        o = self.options
        mode = MODES.index(o.mode)
        low, high = rules.hand_score_range(mode, o.max_bid)
        return {
            "meld": (0, HAND_MELD_MAX[rules.meld_hand_size(mode)]),
            "bids": (0, o.max_bid),
            "auction": (-1, o.max_bid),
            "scores": (low, high),
        }

    contract_fields = ("declarer", "bid", "trumps")

    def contract_of(self, record) -> tuple[str, int]:
        """``(contract, declarer)``: the bid (``"300"``), with its trumps once named
        (``"300 S"``); see ``Game.contract_of``."""
        d = int(record["declarer"])
        if d < 0:
            return "", -1
        t = int(record["trumps"])
        return f"{int(record['bid'])}{' ' + SUIT_LETTERS[t] if t >= 0 else ''}", d

    def _title(self, state, symbols, color):
        r = state.record
        trumps = PINOCHLE.suit_symbols[r["trumps"]] if r["trumps"] >= 0 else "-"
        return (
            f"Pinochle ({self.options.mode})  hand {int(r['hand_index']) + 1}  dealer "
            f"{int(r['dealer'])}  trumps {trumps}  phase {PHASE_NAMES[r['phase']]}"
        )

    def _seat_line(self, state, seat, hand, marks):
        r = state.record
        return (
            f"  {seat} {TEAM_NAMES[seat % 2]}: {ljust(hand, 44)}"
            f" meld {int(r['meld'][seat]):>4}  tricks {int(r['tricks_won'][seat])}  {marks}"
        )

    def _table_lines(self, state, symbols, color):
        r = state.record
        calls = " ".join(
            f"{int(seat)}:{int(v) if v else 'Pass'}"
            for seat, v in zip(
                r["call_seats"][: r["n_calls"]], r["calls"][: r["n_calls"]], strict=True
            )
        )
        lines = [f"  auction: {calls or '-'}"]
        if self.options.mode == "kitty" and r["declarer"] >= 0:
            kitty = r["kitty"]
            shown = (
                hand_text(kitty, PINOCHLE, color=color) if symbols else format_hand(kitty, PINOCHLE)
            )
            lines.append(f"  kitty: {shown}")
        return lines

    def _result_lines(self, state):
        r = state.record
        return [f"  scores NS {int(r['scores'][0])} EW {int(r['scores'][1])}"]
