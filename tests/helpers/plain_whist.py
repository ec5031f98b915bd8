"""Plain whist, a fifth game written for the tests: the worked example of ``docs/protocol.md``.

Four players in partnerships (seats 0+2 against 1+3) play the 52-card pack,
13 cards each. The dealer's last card is turned up and names trumps. Each
seat, from the dealer's left, makes one call, ``Pass`` or ``Double`` (a
trivial auction, there to exercise the call actions); any Double doubles
the deal's stake. Then 13 tricks: follow suit if you can, the highest trump
or else the highest card of the led suit wins, the winner leads next. The
side with 7 tricks or more scores its tricks over 6 (times 2 if doubled),
the other side loses as much: zero-sum.

This module is all a new game has to bring, everything else being the
package's generic machinery: the rules (:data:`STATE_DTYPE`,
:data:`OBS_DTYPE` and kernels over them), the encoding (``encode_kernel``,
``LAYOUT``), the hidden-card sampler (``determinize``), the rule agent
(``rule_policy``), the :class:`PlainWhist` game class and its one
description (:data:`DESCRIPTION`), registered with
:func:`trickgym.games.register`. The oracle lives in
:mod:`.plain_whist_oracle`, registered by name so that it is imported only
when a loop with an oracle seat is compiled.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from pathlib import Path

import numpy as np
from numba import njit

from trickgym._kernel_cache import OWNED_MARK
from trickgym.agents.mc.deal import deal_standard_hands
from trickgym.api import Game, SearchDefaults, State, validate_options
from trickgym.cards.bits import bit, highest_bit, lowest_bit, popcount
from trickgym.cards.decks import STANDARD
from trickgym.cards.notation import format_card, format_hand
from trickgym.engine.params import PARAMS_DTYPE, params_row
from trickgym.games import kernels as generic_kernels
from trickgym.games.encoding import ObsLayout, put_bits
from trickgym.games.trick_play import close_trick
from trickgym.protocol import GameDescription
from trickgym.rng import below, seed_rng
from trickgym.tricks.whist import whist_beats, whist_legal

__all__ = [
    "CALL_BASE",
    "DOUBLE",
    "LAYOUT",
    "OBS_DTYPE",
    "PASS",
    "STATE_DTYPE",
    "PlainWhist",
    "PlainWhistOptions",
    "RuleOptions",
    "determinize",
    "encode_kernel",
    "rule_params",
    "rule_policy",
]


def _refresh_stale_kernels() -> None:
    """Clear the test suite's kernel cache when this file changed since it was filled.

    trickgym clears its cache when its own sources change
    (:mod:`trickgym._kernel_cache`), but the generic kernels compiled for
    this game (the play loops, the searches) live in the package's cache
    files and numba checks them only against the package's files: without
    this, an edit here would leave them running the old rules. Only the
    suite's own cache folder (marked by its conftest) is touched.
    """
    folder = os.environ.get("NUMBA_CACHE_DIR")
    if not folder or not (Path(folder) / OWNED_MARK).exists():
        return
    stamp = Path(folder) / "plain-whist-sources.sha1"
    here = Path(__file__).resolve().parent
    digest = hashlib.sha1()
    for name in ("plain_whist.py", "plain_whist_oracle.py"):
        digest.update((here / name).read_bytes())
    current = digest.hexdigest()
    try:
        if stamp.read_text() == current:
            return
    except OSError:
        pass
    for cached in [*Path(folder).rglob("*.nbi"), *Path(folder).rglob("*.nbc")]:
        try:
            cached.unlink()
        except OSError:
            pass  # another worker got there first
    tmp = stamp.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(current)
    tmp.replace(stamp)


_refresh_stale_kernels()  # before any kernel of this game is loaded from the cache

# ------------------------------------------------------------------ constants

N_SEATS = 4
N_CARDS = 52
N_TRICKS = 13
CALL_BASE = N_CARDS  # actions 0..51 play a card, 52 and 53 are the calls
PASS = CALL_BASE
DOUBLE = CALL_BASE + 1
CALL_NAMES = ("Pass", "Double")
N_ACTIONS = CALL_BASE + len(CALL_NAMES)
AUCTION, PLAY, DEAL_OVER = 0, 1, 2
PHASE_NAMES = ("auction", "play", "deal over")

SUIT_OF = STANDARD.suit_of.copy()
SUIT_MASKS = STANDARD.suit_masks.copy()
CALL_BITS = np.uint64(0b11)  # both calls are always legal in the auction

# ---------------------------------------------------------------------- state

STATE_DTYPE = np.dtype(
    [
        ("rng", np.uint64, (1,)),  # splitmix64 state (trickgym.rng) for the shuffles
        ("num_deals", np.int32),
        ("deal_index", np.int32),
        ("scores", np.int32, (N_SEATS,)),
        ("dealer", np.int8),
        ("turn_up", np.int8),  # the dealer's last card: names trumps
        ("trumps", np.int8),
        ("trump_mask", np.uint64),
        ("phase", np.int8),
        ("to_move", np.int8),
        ("n_calls", np.int8),
        ("calls", np.int8, (N_SEATS,)),  # action ids, in the order called (from eldest)
        ("doubled", np.bool_),
        ("initial_hands", np.uint64, (N_SEATS,)),
        ("hands", np.uint64, (N_SEATS,)),
        ("trick_no", np.int8),
        ("leader", np.int8),
        ("trick_n", np.int8),
        ("trick_cards", np.int8, (N_SEATS,)),  # in play order from the leader
        ("win_pos", np.int8),
        ("led_mask", np.uint64),
        ("last_trick_cards", np.int8, (N_SEATS,)),
        ("last_leader", np.int8),
        ("tricks_won", np.int8, (N_SEATS,)),
        ("played", np.uint64, (N_SEATS,)),
        ("voids", np.uint8, (N_SEATS,)),  # suits each seat has shown out of
        ("payoffs", np.int32, (N_SEATS,)),
    ],
    align=True,
)

OBS_DTYPE = np.dtype(
    [
        ("seat", np.int8),
        ("dealer", np.int8),
        ("turn_up", np.int8),
        ("trumps", np.int8),
        ("phase", np.int8),
        ("to_move", np.int8),
        ("hand", np.uint64),
        ("n_calls", np.int8),
        ("calls", np.int8, (N_SEATS,)),
        ("doubled", np.bool_),
        ("trick_no", np.int8),
        ("leader", np.int8),
        ("trick_n", np.int8),
        ("trick_cards", np.int8, (N_SEATS,)),
        ("last_trick_cards", np.int8, (N_SEATS,)),
        ("last_leader", np.int8),
        ("tricks_won", np.int8, (N_SEATS,)),
        ("played", np.uint64, (N_SEATS,)),
        ("voids", np.uint8, (N_SEATS,)),
        ("legal_cards", np.uint64),
        ("legal_calls", np.uint64),
        ("scores", np.int32, (N_SEATS,)),
    ],
    align=True,
)

# ---------------------------------------------------------------------- rules


@njit(cache=True)
def _reset_deal(state):
    """Empty auction and play; the deal's hands and turn-up are already set."""
    state.trumps = SUIT_OF[state.turn_up]
    state.trump_mask = SUIT_MASKS[state.trumps]
    state.phase = AUCTION
    state.to_move = (state.dealer + 1) % N_SEATS
    state.n_calls = 0
    state.doubled = False
    state.trick_no = 0
    state.leader = -1
    state.trick_n = 0
    state.win_pos = 0
    state.led_mask = 0
    state.last_leader = -1
    for s in range(N_SEATS):
        state.calls[s] = -1
        state.trick_cards[s] = -1
        state.last_trick_cards[s] = -1
        state.tricks_won[s] = 0
        state.played[s] = 0
        state.voids[s] = 0
        state.payoffs[s] = 0


reset_deal = _reset_deal  # for a deal set by hand (the advisor's state_for)


@njit(cache=True)
def deal(state):
    """Shuffle (Fisher-Yates on the state's own generator) and deal one card at a time.

    Card ``i`` of the pack goes to seat ``dealer + 1 + i``, so the dealer
    gets the last card, which is turned up.
    """
    pack = np.arange(N_CARDS)
    for i in range(N_CARDS - 1, 0, -1):
        j = below(state.rng, i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    for s in range(N_SEATS):
        state.hands[s] = 0
    for i in range(N_CARDS):
        state.hands[(state.dealer + 1 + i) % N_SEATS] |= bit(pack[i])
    for s in range(N_SEATS):
        state.initial_hands[s] = state.hands[s]
    state.turn_up = pack[N_CARDS - 1]
    _reset_deal(state)


@njit(cache=True)
def init_match(state, seed, num_deals, dealer):
    """A new match of ``num_deals`` deals from ``seed``; ``dealer`` -1 draws the first dealer."""
    state.rng[0] = np.uint64(seed)
    state.num_deals = num_deals
    state.deal_index = 0
    for s in range(N_SEATS):
        state.scores[s] = 0
    state.dealer = below(state.rng, N_SEATS) if dealer < 0 else dealer
    deal(state)


@njit(cache=True)
def legal_sets(state):
    """``(cards, calls)``: bit ``c`` of ``cards`` plays card ``c``; bit ``i`` of ``calls``
    is action ``CALL_BASE + i``."""
    if state.phase == PLAY:
        return whist_legal(state.hands[state.to_move], state.led_mask), np.uint64(0)
    if state.phase == AUCTION:
        return np.uint64(0), CALL_BITS
    return np.uint64(0), np.uint64(0)


@njit(cache=True)
def is_legal(state, action):
    """Whether ``action`` is legal for the player to move."""
    cards, calls = legal_sets(state)
    if 0 <= action < CALL_BASE:
        return (cards >> np.uint64(action)) & np.uint64(1) != 0
    if CALL_BASE <= action < N_ACTIONS:
        return (calls >> np.uint64(action - CALL_BASE)) & np.uint64(1) != 0
    return False


@njit(cache=True)
def _end_deal(state):
    state.phase = DEAL_OVER
    state.to_move = -1
    ours = state.tricks_won[0] + state.tricks_won[2]  # seats 0 and 2
    score = ours - 6 if ours > 6 else ours - 7  # the side with 7+ tricks scores its odd tricks
    if state.doubled:
        score *= 2
    for s in range(N_SEATS):
        state.payoffs[s] = score if s % 2 == 0 else -score
        state.scores[s] += state.payoffs[s]


@njit(cache=True)
def _play_card(state, card):
    p = state.to_move
    card_bit = bit(card)
    state.hands[p] &= ~card_bit
    state.played[p] |= card_bit
    n = state.trick_n
    state.trick_cards[n] = card
    if n == 0:
        state.led_mask = SUIT_MASKS[SUIT_OF[card]]
        state.win_pos = 0
    else:
        if not (card_bit & state.led_mask):
            state.voids[p] |= 1 << SUIT_OF[state.trick_cards[0]]
        if whist_beats(card, state.trick_cards[state.win_pos], SUIT_OF, state.trump_mask):
            state.win_pos = n
    if n < N_SEATS - 1:
        state.trick_n = n + 1
        state.to_move = (p + 1) % N_SEATS
        return
    close_trick(state, (state.leader + state.win_pos) % N_SEATS, N_SEATS)
    if state.trick_no == N_TRICKS:
        _end_deal(state)


@njit(cache=True)
def apply_action(state, action):
    """Apply a legal ``action`` (a call in the auction, a card in the play)."""
    if state.phase == PLAY:
        _play_card(state, action)
        return
    state.calls[state.n_calls] = action
    state.n_calls += 1
    state.doubled |= action == DOUBLE
    state.to_move = (state.to_move + 1) % N_SEATS
    if state.n_calls == N_SEATS:  # everyone has spoken: eldest leads
        state.phase = PLAY
        state.leader = state.to_move


@njit(cache=True)
def deal_over(state):
    """Whether the deal is over (13 tricks played)."""
    return state.phase == DEAL_OVER


@njit(cache=True)
def match_over(state):
    """Whether the match has played its ``num_deals`` deals."""
    return state.phase == DEAL_OVER and state.deal_index + 1 >= state.num_deals


@njit(cache=True)
def next_deal(state):
    """The next deal of the match: the deal passes left."""
    state.dealer = (state.dealer + 1) % N_SEATS
    state.deal_index += 1
    deal(state)


@njit(cache=True)
def observe_core(state, seat, obs):
    """What the rule agent reads: hand, trumps, phase, the trick, the cards played, legal sets."""
    obs.seat = seat
    obs.turn_up = state.turn_up
    obs.trumps = state.trumps
    obs.phase = state.phase
    obs.hand = state.hands[seat]
    obs.leader = state.leader
    obs.trick_n = state.trick_n
    for s in range(N_SEATS):
        obs.trick_cards[s] = state.trick_cards[s]
        obs.played[s] = state.played[s]
    cards, calls = legal_sets(state) if state.to_move == seat else (np.uint64(0), np.uint64(0))
    obs.legal_cards = cards
    obs.legal_calls = calls


@njit(cache=True)
def observe(state, seat, obs):
    """Seat ``seat``'s information set: its hand and everything public, nothing else."""
    observe_core(state, seat, obs)
    obs.dealer = state.dealer
    obs.to_move = state.to_move
    obs.n_calls = state.n_calls
    obs.doubled = state.doubled
    obs.trick_no = state.trick_no
    obs.last_leader = state.last_leader
    for s in range(N_SEATS):
        obs.calls[s] = state.calls[s]
        obs.last_trick_cards[s] = state.last_trick_cards[s]
        obs.tricks_won[s] = state.tricks_won[s]
        obs.voids[s] = state.voids[s]
        obs.scores[s] = state.scores[s]


# ------------------------------------------------------------------- encoding

OBS_SHAPES = {
    "seat": ((), np.int64, 0, 3),
    "dealer": ((), np.int64, 0, 3),
    "turn_up": ((), np.int64, 0, 51),
    "phase": ((), np.int64, 0, 2),
    "hand": ((N_CARDS,), np.int8, 0, 1),
    "calls": ((N_SEATS,), np.int8, -1, 1),  # per seat: -1 not yet, 0 pass, 1 double
    "trick": ((N_SEATS,), np.int8, -1, 51),  # per seat
    "played": ((N_SEATS, N_CARDS), np.int8, 0, 1),
    "tricks_won": ((N_SEATS,), np.int8, 0, 13),
    "voids": ((N_SEATS, 4), np.int8, 0, 1),
    "scores": ((N_SEATS,), np.int32, -(2**30), 2**30),
    "action_mask": ((N_ACTIONS,), np.int8, 0, 1),
}
LAYOUT = ObsLayout(OBS_SHAPES)
HAND, CALLS, TRICK, PLAYED, TRICKS_WON, VOIDS, MASK = (LAYOUT.offsets[k] for k in LAYOUT.int8_keys)


@njit(cache=True)
def encode_kernel(observations, j, buf, scalars, scores):
    """``observations[j]`` into the flat int8 ``buf``, ``scalars`` and ``scores`` (``LAYOUT``)."""
    obs = observations[j]
    put_bits(buf, HAND, obs.hand, N_CARDS)
    for s in range(N_SEATS):
        buf[CALLS + s] = -1
        buf[TRICK + s] = -1
    for i in range(obs.n_calls):
        buf[CALLS + (obs.dealer + 1 + i) % N_SEATS] = obs.calls[i] - CALL_BASE
    for pos in range(obs.trick_n):
        buf[TRICK + (obs.leader + pos) % N_SEATS] = obs.trick_cards[pos]
    for s in range(N_SEATS):
        put_bits(buf, PLAYED + N_CARDS * s, obs.played[s], N_CARDS)
        buf[TRICKS_WON + s] = obs.tricks_won[s]
        put_bits(buf, VOIDS + 4 * s, obs.voids[s], 4)
        scores[s] = obs.scores[s]
    put_bits(buf, MASK, obs.legal_cards, CALL_BASE)
    put_bits(buf, MASK + CALL_BASE, obs.legal_calls, N_ACTIONS - CALL_BASE)
    scalars[0] = obs.seat
    scalars[1] = obs.dealer
    scalars[2] = obs.turn_up
    scalars[3] = obs.phase


# -------------------------------------------------------------------- sampler


@njit(cache=True)
def determinize(obs_arr, memory, template, out, rng):
    """A full deal in ``out[0]`` consistent with the seat's observation ``obs_arr[0]``.

    The other seats get the unseen cards (none of a suit they showed out
    of; the turn-up stays with the dealer until played), then the auction
    and the current trick are replayed, so the result is a state of the
    game's own. Returns whether the draw was exactly uniform.
    """
    obs = obs_arr[0]
    known = obs.hand
    for s in range(N_SEATS):
        known |= obs.played[s]
    fixed = np.zeros(N_SEATS, dtype=np.uint64)
    if obs.dealer != obs.seat and not (known & bit(obs.turn_up)):
        fixed[obs.dealer] = bit(obs.turn_up)
    hands = np.zeros(N_SEATS, dtype=np.uint64)
    uniform = deal_standard_hands(obs, fixed, rng, hands)
    out[0] = template[0]
    st = out[0]
    st.dealer = obs.dealer
    st.turn_up = obs.turn_up
    in_trick = np.zeros(N_SEATS, dtype=np.uint64)
    for i in range(obs.trick_n):
        in_trick[(obs.leader + i) % N_SEATS] |= bit(obs.trick_cards[i])
    for s in range(N_SEATS):
        st.initial_hands[s] = hands[s] | obs.played[s]
        st.hands[s] = hands[s] | in_trick[s]
        st.scores[s] = obs.scores[s]
    _reset_deal(st)
    for i in range(obs.n_calls):
        apply_action(st, obs.calls[i])
    if obs.phase != PLAY:
        return uniform
    # the finished tricks as observed, then the current one replayed
    for s in range(N_SEATS):
        st.played[s] = obs.played[s] & ~in_trick[s]
        st.voids[s] = obs.voids[s]
        st.tricks_won[s] = obs.tricks_won[s]
        st.last_trick_cards[s] = obs.last_trick_cards[s]
    st.trick_no = obs.trick_no
    st.leader = obs.leader
    st.to_move = obs.leader
    st.last_leader = obs.last_leader
    for i in range(obs.trick_n):
        apply_action(st, obs.trick_cards[i])
    return uniform


# ----------------------------------------------------------------- rule agent


@dataclasses.dataclass(frozen=True)
class RuleOptions:
    """The rule agent's settings: it doubles holding ``double_trumps`` trumps or more."""

    double_trumps: int = 5


def rule_params(options: RuleOptions | None = None, n_seats: int = N_SEATS) -> np.ndarray:
    """Per-seat parameter records (``PARAMS_DTYPE``) for the compiled loops."""
    params = np.zeros(n_seats, dtype=PARAMS_DTYPE)
    params["values"] = params_row(options or RuleOptions())
    return params


@njit(cache=True)
def _cheapest(cards, trump_mask):
    """The lowest-ranked card of ``cards``, a side-suit card before a trump of the same rank."""
    best, best_cost = -1, 1 << 30
    while cards:
        c = lowest_bit(cards)
        cards &= cards - np.uint64(1)
        cost = c % 13 + (13 if (trump_mask >> np.uint64(c)) & np.uint64(1) else 0)
        if cost < best_cost:
            best, best_cost = c, cost
    return best


@njit(cache=True)
def _lead(obs, trump_mask):
    """A master (no unseen card of its suit beats it), else the lowest of the longest suit."""
    seen = obs.hand
    for s in range(N_SEATS):
        seen |= obs.played[s]
    masters = np.uint64(0)
    longest, longest_n = 0, -N_CARDS - 1  # trumps count as shorter than any side suit
    for suit in range(4):
        mine = obs.hand & SUIT_MASKS[suit]
        if not mine:
            continue
        top = highest_bit(mine)
        above = SUIT_MASKS[suit] & ~((bit(top) << np.uint64(1)) - np.uint64(1))
        if not (above & ~seen):
            masters |= bit(top)
        n = popcount(mine) - (N_CARDS if SUIT_MASKS[suit] == trump_mask else 0)
        if n > longest_n:
            longest, longest_n = suit, n
    if masters:
        return _cheapest(masters, trump_mask)
    return lowest_bit(obs.hand & SUIT_MASKS[longest])


@njit(cache=True)
def rule_policy(obs, values, rng):
    """The rule agent: double with ``values[0]`` trumps or more; in the play win as cheaply
    as possible unless the partner is winning, else throw the lowest card."""
    trump_mask = SUIT_MASKS[obs.trumps]
    if obs.phase == AUCTION:
        return DOUBLE if popcount(obs.hand & trump_mask) >= values[0] else PASS
    legal = obs.legal_cards
    if obs.trick_n == 0:
        return _lead(obs, trump_mask)
    win_pos = 0
    for pos in range(1, obs.trick_n):
        if whist_beats(obs.trick_cards[pos], obs.trick_cards[win_pos], SUIT_OF, trump_mask):
            win_pos = pos
    if (obs.leader + win_pos) % N_SEATS == (obs.seat + 2) % N_SEATS:
        return _cheapest(legal, trump_mask)  # the partner holds the trick
    winners = np.uint64(0)
    rest = legal
    while rest:
        c = lowest_bit(rest)
        rest &= rest - np.uint64(1)
        if whist_beats(c, obs.trick_cards[win_pos], SUIT_OF, trump_mask):
            winners |= bit(c)
    return _cheapest(winners if winners else legal, trump_mask)


# ------------------------------------------------------------------- bindings


@njit(cache=True)
def start_match(state, seed, opts):
    """Vector env episode: a one-deal match from ``seed`` (drawn from the env's generator)."""
    init_match(state, seed, 1, -1)


# The rule agent's options dataclass, for the Python side (Game.rule_options).
RULE_OPTIONS = RuleOptions

# ----------------------------------------------------------------- Python API


@dataclasses.dataclass(frozen=True)
class PlainWhistOptions:
    """Table options: the number of deals in a match."""

    num_deals: int = 1


class PlainWhist(Game):
    """Plain partnership whist (see the module docstring)."""

    name = "plainwhist"
    advisor = __name__.rpartition(".")[0] + ".plain_whist_advisor"  # the hand advisor's part
    title = "Plain whist"
    phase_names = PHASE_NAMES
    play_phase = PLAY
    search = SearchDefaults(
        samples=8, iterations=200, others="tree", phases=frozenset({AUCTION, PLAY})
    )
    n_seats = N_SEATS
    n_actions = N_ACTIONS
    call_base = CALL_BASE
    call_names = CALL_NAMES
    deck = STANDARD
    kernels = generic_kernels  # the batch entry points written once over the protocol
    state_dtype = STATE_DTYPE
    obs_dtype = OBS_DTYPE
    obs_layout = LAYOUT
    encode_kernel = staticmethod(encode_kernel)

    def __init__(self, options: PlainWhistOptions | None = None, **kwargs):
        if options is None:
            options = validate_options(PlainWhistOptions, kwargs)
        elif kwargs:
            raise ValueError("give options either as a PlainWhistOptions or as keywords")
        super().__init__(options)

    @property
    def payoff_bound(self) -> int:
        """A seat's largest payoff in a deal: 7 odd tricks, doubled."""
        return 2 * (N_TRICKS - 6)

    contract_fields = ("phase", "doubled")

    def contract_of(self, record) -> tuple[str, int]:
        """``("", -1)`` in the auction, then ``"Doubled"`` or ``"Plain"`` (no declarer)."""
        if int(record["phase"]) == AUCTION:
            return "", -1
        return ("Doubled" if record["doubled"] else "Plain"), -1

    def new_match(self, seed, num_deals=None, dealer=-1):
        """A one-record state array holding a new match from ``seed``."""
        seed, num_deals, dealer = self._match_args(seed, num_deals, dealer)
        array = np.zeros(1, dtype=STATE_DTYPE)
        n = self.options.num_deals if num_deals is None else num_deals
        init_match(array[0], seed, n, dealer)
        return array

    def deal(self, seed=None, dealer=None) -> State:
        """A new match and its first deal, shuffled from ``seed``."""
        return State(self, self.new_match(seed_rng(seed), dealer=-1 if dealer is None else dealer))

    def render(self, state: State) -> str:
        """Hands, trumps, the trick and tricks won."""
        r = state.record
        lines = [
            f"Plain whist  dealer {int(r['dealer'])}  turn-up {format_card(int(r['turn_up']))}  "
            f"{PHASE_NAMES[int(r['phase'])]}{'  doubled' if r['doubled'] else ''}"
        ]
        for s in range(N_SEATS):
            hand = format_hand(int(r["hands"][s]))
            lines.append(f"  {s}: {hand:<24} tricks {int(r['tricks_won'][s])}")
        if r["trick_n"]:
            cards = " ".join(format_card(int(c)) for c in r["trick_cards"][: r["trick_n"]])
            lines.append(f"  trick led by {int(r['leader'])}: {cards}")
        if state.is_over:
            lines.append(f"  payoffs: {state.payoffs.tolist()}")
        return "\n".join(lines)


# ---------------------------------------------------------------- description

_HERE = __name__.rpartition(".")[0]
_ORACLE = f"{_HERE}.plain_whist_oracle"
_SIM = f"{_HERE}.plain_whist_sim"
_ENVS = f"{_HERE}.plain_whist_envs"
_ADVISOR = f"{_HERE}.plain_whist_advisor"
#: Its Gymnasium id (single env and native vector env).
ENV_ID = "plainwhist/PlainWhist-v0"

#: The game's one description: its kernels for the protocol (the rules hooks are this
#: module's functions of those names), its rule agent, simulation, envs and advisor part.
#: Made here, it registers the kernels; the tests add it to the registry of games
#: (``trickgym.games.register``) for as long as they run, so the other tests' lists of
#: games stay the four built-in ones.
DESCRIPTION = GameDescription(
    name=PlainWhist.name,
    game=PlainWhist,
    options=PlainWhistOptions,
    rules=__name__,
    encode_wide=1,  # scores
    kernels={
        "rule_policy": rule_policy,
        "determinize": determinize,
        "start_match": start_match,
        # by name: imported only when a loop with an oracle seat is compiled
        "oracle_action": f"{_ORACLE}:oracle_action",
        "oracle_no_table": f"{_ORACLE}:oracle_no_table",
        "oracle_table": f"{_ORACLE}:oracle_table",
        # the simulator's hooks, in the module of its rows (imported by simulate only)
        "start_deal": f"{_SIM}:start_deal",
        "write_row": f"{_SIM}:write_row",
        # the hand advisor's: imported by the advisor only
        "advise_settle": f"{_ADVISOR}:settle",
        "advise_outcome": f"{_ADVISOR}:outcome",
    },
    rule_options=f"{__name__}:RuleOptions",
    sim=f"{_SIM}.SIM",
    envs=((ENV_ID, f"{_ENVS}.PlainWhistEnv", f"{_ENVS}.PlainWhistVectorEnv"),),
)
