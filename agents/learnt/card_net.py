"""A per-card scorer for Solo Whist card play: one small MLP applied to each legal card.

The ``ValueNet`` over the 1,123 observation features with one output per
card id did not generalise from oracle labels: fitted on 190 k labelled
decisions it valued the cards worse than the rule agent's choice on
held-out decisions at every margin (see ``experiments/results/dmc``). Here
each legal card is described by what decides a card in whist, relative to
the seat: suit is trumps or led, rank, higher and lower cards still out in
its suit, the seat's own length and cards around it there, whether it wins
the trick as it stands, which later players are known void in its suit or
in trumps, whether it is the rule agent's card; plus a short context of the
deal (contract, side, tricks won and needed, trick position, whether the
seat's side is winning the trick). The same weights score every card, so
what is learnt about "a top card when the opponents are void" carries over
every suit and rank.

Everything is read from the seat's observation record (the fields any
player sees: its hand, the cards played, the voids shown, the contract),
so a scorer of these features is a fair player. Its training (oracle labels, then
Deep Monte Carlo) is in :mod:`trickgym.training.card_scorer`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from trickgym.agents.mc.agent import check_observation, legal_of_mask, record_or_refuse
from trickgym.cards.bits import popcount
from trickgym.checks import check_real
from trickgym.games import game as make_game
from trickgym.games.solowhist.constants import GOAL
from trickgym.games.solowhist.constants import PLAY as PLAY_PHASE
from trickgym.games.solowhist.rules import SUIT_OF
from trickgym.tricks.whist import whist_beats, whist_trick_winner

from .agent import NEVER, LearntAgent
from .forward import PackedNet
from .net import ValueNet

__all__ = ["DMC_WEIGHTS", "N_CARD_FEATURES", "CardNetAgent", "best_cards", "card_features"]

# The shipped weights of the registered agent "dmc" (copies of experiments/results/dmc/oracle/).
_WEIGHTS = Path(__file__).resolve().parent / "weights" / "dmc"
DMC_WEIGHTS = {"cards": _WEIGHTS / "solowhist-cards.npz", "bids": _WEIGHTS / "solowhist-bids.npz"}

_CONTRACTS = 8
_N_GLOBAL = _CONTRACTS + 3 + 1 + 4 + 3 + 3
_N_CARD = 24
N_CARD_FEATURES = _N_GLOBAL + _N_CARD


@njit(cache=True, inline="always")
def _trump_mask(trumps) -> np.uint64:
    return np.uint64(0) if trumps < 0 else np.uint64(0x1FFF) << np.uint64(13 * trumps)


@njit(cache=True, inline="always")
def _suit_bits(s) -> np.uint64:
    return np.uint64(0x1FFF) << np.uint64(13 * s)


@njit(cache=True)
def _card_rows(rec, legal, rule, out):
    """``out[i]``: the features of legal card ``legal[i]`` (see :func:`card_features`)."""
    one = np.uint64(1)
    seat = np.int64(rec.seat)
    hand = np.uint64(rec.hand)
    played = np.uint64(0)
    for s in range(4):
        played |= np.uint64(rec.played[s])
    n = np.int64(rec.trick_n)
    for k in range(n):
        played |= one << np.uint64(rec.trick_cards[k])
    out_mask = ((one << np.uint64(52)) - one) & ~played & ~hand  # still out, not the seat's
    trumps = np.int64(rec.trumps)
    contract = np.int64(rec.contract)
    declarers = np.int64(rec.declarers)
    leader = np.int64(rec.leader)
    mine = (declarers >> seat) & 1
    side = declarers if mine else (~declarers & 15)
    side_won = 0
    decl_won = 0
    for s in range(4):
        if (side >> s) & 1:
            side_won += np.int64(rec.tricks_won[s])
        if (declarers >> s) & 1:
            decl_won += np.int64(rec.tricks_won[s])
    trick_no = np.int64(rec.trick_no)
    g = np.zeros(_N_GLOBAL, dtype=np.float32)
    g[contract] = 1.0
    lone = popcount(declarers) == 1
    g[_CONTRACTS + (0 if mine and lone else 1 if mine else 2)] = 1.0
    g[_CONTRACTS + 3] = trick_no / 13.0
    g[_CONTRACTS + 4 + n] = 1.0
    k = _CONTRACTS + 8
    g[k] = side_won / 13.0
    g[k + 1] = (trick_no - side_won) / 13.0
    g[k + 2] = (GOAL[contract] - decl_won) / 13.0
    led = np.int64(rec.trick_cards[0]) // 13 if n else -1
    win_card = -1
    if n:
        cards = np.empty(n, dtype=np.int64)
        for j in range(n):
            cards[j] = rec.trick_cards[j]
        pos = whist_trick_winner(cards, n, SUIT_OF, _trump_mask(trumps))
        win_card = cards[pos]
        g[k + 3] = 1.0 if (side >> ((leader + pos) % 4)) & 1 else 0.0
    # later players in this trick: how many, and how many on the seat's side
    later = 3 - n
    on_side = 0
    for i in range(1, 4 - n):
        on_side += (side >> ((seat + i) % 4)) & 1
    g[k + 4] = later / 3.0
    g[k + 5] = on_side / 3.0
    trump_out = popcount(out_mask & _trump_mask(trumps)) if trumps >= 0 else 0
    lowest = np.full(4, 99, dtype=np.int64)
    highest = np.full(4, -1, dtype=np.int64)
    for i in range(legal.shape[0]):
        c = legal[i]
        lowest[c // 13] = min(lowest[c // 13], c)
        highest[c // 13] = max(highest[c // 13], c)
    n_suits = 0
    for s in range(4):
        n_suits += highest[s] >= 0
    for i in range(legal.shape[0]):
        c = legal[i]
        s, r = c // 13, c % 13
        suit = _suit_bits(s)
        above = suit & ~((one << np.uint64(c + 1)) - one)
        below = suit & ((one << np.uint64(c)) - one)
        f = out[i]
        f[:_N_GLOBAL] = g
        f = f[_N_GLOBAL:]
        f[:] = 0.0
        f[0] = s == trumps
        f[1] = n > 0 and s == led
        f[2] = n == 0
        f[3] = r / 12.0
        f[4] = popcount(out_mask & above) / 12.0
        f[5] = popcount(out_mask & below) / 12.0
        f[6] = popcount(out_mask & suit) / 13.0
        f[7] = popcount(hand & suit) / 13.0
        f[8] = popcount(hand & above) / 12.0
        f[9] = popcount(hand & below) / 12.0
        f[10] = popcount(out_mask & above) == 0
        if n:
            f[11] = whist_beats(c, win_card, SUIT_OF, _trump_mask(trumps))
        f[12] = trump_out / 13.0
        for j in range(3):
            p = (seat + 1 + j) % 4
            f[13 + j] = (np.int64(rec.voids[p]) >> s) & 1
            f[16 + j] = (np.int64(rec.voids[p]) >> trumps) & 1 if trumps >= 0 else 1
        f[19] = c == rule
        f[20] = c == lowest[s]
        f[21] = c == highest[s]
        f[22] = n_suits > 1  # a choice of suit (leading, or void in the led one)
        f[23] = (side >> ((seat + 2) % 4)) & 1  # the partner across is on the seat's side


@njit(cache=True)
def _card_batch(records, masks, rule, start, out):
    """The features of every legal card of every record, decision ``i``'s rows from
    ``start[i]`` (its legal cards in ascending order)."""
    for i in range(records.shape[0]):
        legal = np.flatnonzero(masks[i, :52])
        _card_rows(records[i], legal, rule[i], out[start[i] : start[i] + legal.shape[0]])


def card_features(rec, legal, rule: int) -> np.ndarray:
    """Features (float32[len(legal), N_CARD_FEATURES]) of each legal card of the seat whose
    observation record is ``rec`` (a Solo Whist ``OBS_DTYPE`` record, in the card play),
    given the rule agent's card ``rule``."""
    legal = np.asarray(legal, dtype=np.int64)
    rows = np.zeros((len(legal), N_CARD_FEATURES), dtype=np.float32)
    _card_rows(rec, legal, int(rule), rows)
    return rows


def best_cards(net, records, masks, rule, margin: float) -> np.ndarray:
    """Per observation record (the card play, ``masks`` its legal actions): the rule
    agent's card ``rule[i]`` unless the scorer ``net`` (a ``ValueNet`` or its
    :class:`~.forward.PackedNet`) values another legal card more than ``margin`` points
    above it (int64[n]). Features and values come from compiled kernels, each card
    valued alone, so a decision is the same in any batch."""
    packed = net if isinstance(net, PackedNet) else PackedNet(net)
    act = np.asarray(rule, dtype=np.int64).copy()
    masks = np.asarray(masks)
    counts = masks[:, :52].astype(bool).sum(axis=1)
    rows = np.flatnonzero(counts > 1)
    if not len(rows):
        return act
    start = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(counts[rows], out=start[1:])
    feats = np.zeros((start[-1], N_CARD_FEATURES), dtype=np.float32)
    _card_batch(records[rows], masks[rows], act[rows], start, feats)
    values = packed.values(feats, np.zeros(len(feats), dtype=np.int64))[:, 0]
    _pick_cards(values, start, masks[rows], act[rows], float(margin), act, rows)
    return act


@njit(cache=True)
def _pick_cards(values, start, masks, rule, margin, act, rows):
    """``act[rows[i]]``: decision ``i``'s best card by ``values`` if it beats the rule
    agent's card by more than ``margin``."""
    for i in range(rows.shape[0]):
        legal = np.flatnonzero(masks[i, :52])
        v = values[start[i] : start[i + 1]]
        best = np.argmax(v)
        at_rule = -1
        for j in range(legal.shape[0]):
            if legal[j] == rule[i]:
                at_rule = j
                break
        if at_rule < 0 or v[best] - v[at_rule] > margin:
            act[rows[i]] = legal[best]


class CardNetAgent:
    """A fair Solo Whist agent: cards by a per-card scorer, bids by a learnt value net.

    ``cards``: the scorer (:func:`trickgym.training.card_scorer.new_card_net`'s kind;
    path or ``ValueNet``), played with ``margin`` points (default: the one in its
    ``meta``) over the rule agent's card. ``bids``: a :class:`~.agent.LearntAgent`'s weights for the
    auction, Cop offer, upgrade and trumps (with their stored margins), or None for
    the rule agent's bids. Everything else is the rule agent's.
    """

    def __init__(self, cards, bids=None, margin=None, seed=None, rule_options=None):
        net = cards if isinstance(cards, ValueNet) else ValueNet.load(cards)
        if net.meta.get("kind") != "card scorer" or net.n_inputs != N_CARD_FEATURES:
            raise ValueError(
                f"cards must be a Solo Whist card scorer ({N_CARD_FEATURES} inputs), got "
                f"{net.meta.get('kind')!r} with {net.n_inputs} inputs"
            )

        self.net = net
        margin = net.meta.get("margin", 0.0) if margin is None else margin
        self.margin = check_real("margin (points)", margin, 0)
        if bids is None:
            bids = ValueNet.for_game(make_game("solowhist"), hidden=(1,))
            bids.meta["margins"] = {str(p): NEVER for p in range(5)}
        # The bids' agent also draws the rule agent's actions, from the same generator.
        self.inner = LearntAgent("solowhist", weights=bids, seed=seed, rule_options=rule_options)
        self.inner.margins[PLAY_PHASE] = NEVER
        self.game = self.inner.game
        self._packed = PackedNet(net)

    def __repr__(self) -> str:
        return f"CardNetAgent(margin={self.margin}, bids={self.inner.margins})"

    def start_deal(self, seed: int, seat: int) -> None:
        """Reseed the rule agent's generator from the deal's derived seed."""
        self.inner.start_deal(seed, seat)

    def deal_rng(self, seeds: np.ndarray, seat: int) -> np.ndarray:
        """The generator words :meth:`start_deal` sets (``uint64[k]``) for deal seeds ``seeds``."""
        return self.inner.deal_rng(seeds, seat)

    def act(self, observation, action_mask) -> int:
        """The action for the seat's observation record (see :meth:`act_record`)."""
        return self.act_record(record_or_refuse(self, self.game, observation), action_mask)

    def act_record(self, record: np.ndarray, action_mask: np.ndarray) -> int:
        """The action for the seat whose observation record is ``record`` (one-record array)."""
        check_observation(self, self.game, record)
        legal = legal_of_mask(self.game, action_mask)
        mask = np.zeros((1, self.game.n_actions), dtype=bool)
        mask[0, legal] = True
        rule = self.inner.rule_of_record(record)
        return int(self.decide(record, mask, rule)[0])

    def act_rows(self, states, rows, seats, rngs) -> np.ndarray:
        """The actions of seats ``seats`` in ``states[rows]``, decided together
        (:mod:`trickgym.agents.rows`): each the one :meth:`act_record` makes."""
        records, legal, rule = self.inner.rows_seen(states, rows, seats, rngs)
        return self.decide(records, legal, rule)

    def decide(self, records: np.ndarray, legal: np.ndarray, rule: np.ndarray) -> np.ndarray:
        """``int64[k]``: the bids' net's actions before the card play, the scorer's in it
        (``legal``: ``bool[k, n_actions]``; ``rule``: the rule agent's actions)."""
        actions = self.inner.decide(records, legal, rule)
        play = np.flatnonzero(records["phase"] == PLAY_PHASE)
        if len(play):
            actions[play] = best_cards(
                self._packed, records[play], legal[play], rule[play], self.margin
            )
        return actions
