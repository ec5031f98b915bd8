"""Phat for people and tests: options, dealing, names and printing."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...api import BidWords, Game, SearchDefaults, State
from ...cards.decks import STANDARD
from ...checks import check_int
from ...render import ljust
from ...rng import seed_rng
from ..dealing import check_hand_list, check_hands, check_seat
from . import rules
from .constants import CALL_BASE, N_ACTIONS, N_SEATS, PHASE_NAMES, PLAY, TARGET, TEAM_NAMES
from .encode import FEATURE_LABELS, FEATURES, LAYOUT, encode_kernel
from .state import OBS_DTYPE, STATE_DTYPE

__all__ = ["MAX_GAMES", "MAX_TARGET", "Phat", "PhatOptions"]

MAX_GAMES = 1000
MAX_TARGET = 10_000


@dataclass(frozen=True)
class PhatOptions:
    """Table options (rules §7).

    games_in_match:
        Games (races to 181) in a match, 1..1000 (PH-D10; default 1).
    target:
        Points that win a game, 1..10000: 181 on BGA (PH-D5); other values
        are for experiments only.

    The ranges bound the deals a match can last (the simulator sizes its
    buffers by them); a value outside them is refused, never wrapped.
    """

    games_in_match: int = 1
    target: int = TARGET

    def __post_init__(self):
        for name, high in (("games_in_match", MAX_GAMES), ("target", MAX_TARGET)):
            object.__setattr__(
                self, name, check_int(f"option {name}", getattr(self, name), 1, high)
            )


class Phat(Game):
    """Phat as on Board Game Arena (``docs/rules/phat.md``): NS (0, 2) against EW (1, 3)."""

    name = "phat"
    advisor = "trickgym.advisor.phat"  # the hand advisor's part (trickgym.advisor.advise)
    title = "Phat"
    partnership = True
    phase_names = PHASE_NAMES
    play_phase = PLAY
    features = FEATURES
    feature_labels = FEATURE_LABELS
    search = SearchDefaults(samples=32, iterations=200, others="tree", phases=frozenset({PLAY}))
    solver = "points"
    run_unit = "matches"  # a match is the race to 181: deals are not independent
    n_seats = N_SEATS
    n_actions = N_ACTIONS
    call_base = CALL_BASE
    call_names = ()
    # No auction, so no contract and no declarer: a deal's bid is the pitch.
    bid_words = BidWords("pitch", "pitches", "pitcher")
    deck = STANDARD
    kernels = rules
    state_dtype = STATE_DTYPE
    obs_dtype = OBS_DTYPE
    obs_layout = LAYOUT
    encode_kernel = staticmethod(encode_kernel)

    def deal(self, seed=None, *, hands=None, pitcher=None) -> State:
        """Start a match and its first deal.

        With ``hands`` (four hand strings, seats 0..3) the deal is set, and
        ``pitcher`` is required. Otherwise the cards are shuffled from
        ``seed`` and the first pitcher is ``pitcher`` (default random).
        """
        if pitcher is not None:
            check_seat("pitcher", pitcher, N_SEATS)
        array = self.new_match(np.uint64(seed_rng(seed)), dealer=-1 if pitcher is None else pitcher)
        if hands is not None:
            if pitcher is None:
                raise ValueError("a deal with given hands needs pitcher= (a seat 0..3)")
            rules.set_deal(array[0], _check_hands(hands))
        return State(self, array)

    def new_match(self, seed, num_deals=None, dealer=-1):
        """A one-record state array holding a new match from ``seed``.

        ``dealer`` here names the first pitcher (-1: random); ``num_deals``
        is ignored (a game lasts until a team reaches the target).
        """
        seed, _, dealer = self._match_args(seed, num_deals, dealer)
        array = np.zeros(1, dtype=STATE_DTYPE)
        opts = self.options
        rules.init_match(array[0], seed, opts.target, opts.games_in_match, dealer)
        return array

    @property
    def payoff_bound(self) -> int:
        """The largest payoff magnitude of a seat in one deal (``rules.payoff_bound``)."""
        return rules.payoff_bound(self.options.target)

    def _obs_ranges(self):
        # A game's scores end below the target plus one deal's margin; the env's
        # deal episodes go on through the match.
        o = self.options
        return {
            "scores": (0, o.target - 1 + self.payoff_bound),
            "carry": (0, rules.max_carry(o.target)),
            "games_won": (0, o.games_in_match),
        }

    contract_fields = ("trumps", "pitcher")

    def contract_of(self, record) -> tuple[str, int]:
        """``(contract, declarer)``: ``"Trumps S"`` once the pitch names trumps, and the
        pitcher (see ``Game.contract_of``)."""
        t = int(record["trumps"])
        return (f"Trumps {STANDARD.suit_letters[t]}" if t >= 0 else ""), int(record["pitcher"])

    def _title(self, state, symbols, color):
        r = state.record
        trumps = STANDARD.suit_symbols[r["trumps"]] if r["trumps"] >= 0 else "not pitched"
        return (
            f"Phat  game {int(r['game_index']) + 1}  deal {int(r['deal_in_game']) + 1}  "
            f"pitcher {int(r['pitcher'])}  trumps {trumps}  phase {PHASE_NAMES[r['phase']]}"
        )

    def _seat_line(self, state, seat, hand, marks):
        tricks = int(state.record["tricks_won"][seat])
        return f"  {seat} {TEAM_NAMES[seat % 2]}: {ljust(hand, 40)} tricks {tricks}  {marks}"

    def _result_lines(self, state):
        r = state.record
        lines = [
            f"  phat NS {int(r['phat'][0])} EW {int(r['phat'][1])}   muck NS {int(r['muck'][0])} "
            f"EW {int(r['muck'][1])}   score NS {int(r['scores'][0])} EW {int(r['scores'][1])}"
            f"   carry {int(r['carry'])}"
        ]
        if r["game_over"]:
            lines.append(f"  game won by {TEAM_NAMES[r['winner']]}")
        return lines


def _check_hands(hands) -> np.ndarray:
    hands = check_hand_list(hands, N_SEATS)
    masks = check_hands([(f"seat {s}", h, 13) for s, h in enumerate(hands)], STANDARD)
    return np.array(masks, dtype=np.uint64)
