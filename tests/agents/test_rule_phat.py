"""The Phat rule agent (``agents/rule/phat.py``): each named rule, the games it wins
and the pitching team's success.

Its information set, legality and strength per deal against random agents
are checked for every game in ``tests/agents``.
"""

from __future__ import annotations

import functools

import numpy as np

import trickgym
from trickgym.agents import kernel_scratch
from trickgym.agents.rule import phat as rule
from trickgym.cards import STANDARD
from trickgym.engine.loops import act
from trickgym.engine.params import params_row
from trickgym.games.phat.rules import observe_at
from trickgym.sim import simulate

N_CARDS = 52
SUIT_OF = STANDARD.suit_of
RULE = 1
PARAMS = params_row(rule.RuleOptions())

# Deal A: seat 0 pitches the ace of spades (trumps) and wins trick 1.
HANDS_A = [
    "AK873.A43.432.32",
    "Q62.KQJ.AKQ.AKQJ",
    "JT4.T987.JT98.T9",
    "95.652.765.87654",
]
TRICK1_A = ["AS", "2S", "4S", "5S"]
# Deal B: as A, but seat 2 (partner of 0) holds no diamonds.
HANDS_B = [
    "AK873.A43.A432.2",
    "Q62.KQJ.KQJ.AKQJ",
    "JT4.T987.-.T98763",
    "95.652.T98765.54",
]
# Deal C: seat 0 pitches the ace of hearts (trumps); seat 3 holds no hearts.
HANDS_C = [
    "6432.A32.432.872",
    "QJ7.KQJT987.9.93",
    "AT85.654.A765.Q5",
    "K9.-.KQJT8.AKJT64",
]
TRICK1_C = ["AH", "7H", "4H", "4C"]


@functools.cache
def _game():
    return trickgym.game("phat")


def _state(hands, pitcher, moves=()):
    state = _game().deal(0, hands=hands, pitcher=pitcher)
    for m in moves:
        state.apply(m)
    return state


def _obs(state, seat=None):
    """The seat's observation record (the seat to move by default)."""
    seat = state.current_player if seat is None else seat
    obs = np.zeros(1, dtype=_game().obs_dtype)
    observe_at(state.array, 0, seat, obs, 0)
    return obs[0]


def _act(state) -> int:
    seat = state.current_player
    rng = np.array([1], dtype=np.uint64)
    return int(act(RULE, state.record, seat, rng, *kernel_scratch(state.game), None))


def _card(name: str) -> int:
    return _game().parse_action(name)


def _ctx(state):
    """``(obs, trumps, unseen)`` for calling a lead rule directly."""
    obs = _obs(state)
    return obs, int(obs["trumps"]), rule.unseen_cards(obs)


# ------------------------------------------------------------------ lead rules


def test_choose_pitch_ace_of_long_suit():
    """The pitcher leads the ace of the long suit holding the protected 9 (spades)."""
    state = _state(HANDS_A, 0)
    assert rule.choose_pitch(_obs(state), PARAMS) == _card("AS")
    assert _act(state) == _card("AS")


def test_choose_pitch_low_blank_card_without_ace():
    """Without the ace the pitch is a low blank card of the trump suit, never its 9."""
    state = _state(HANDS_A, 2)  # hearts T987: protected 9, no honours
    assert _act(state) == _card("7H")


def test_lead_draw_trumps_with_the_boss_trump():
    """Holding the boss trump (K once A is gone), lead it while opponents hold trumps."""
    state = _state(HANDS_A, 0, TRICK1_A)
    obs, trumps, unseen = _ctx(state)
    assert rule.lead_draw_trumps(obs, trumps, unseen, PARAMS) == _card("KS")
    assert _act(state) == _card("KS")


def test_lead_boss_side():
    """The ace of hearts is boss and nobody has shown out of hearts: lead it."""
    state = _state(HANDS_A, 0, TRICK1_A)
    obs, trumps, unseen = _ctx(state)
    assert rule.lead_boss_side(obs, trumps, unseen, PARAMS) == _card("AH")


def test_lead_to_partner_void():
    """Partner showed out of diamonds (and may ruff): lead a low diamond."""
    state = _state(HANDS_B, 0, [*TRICK1_A, "AD", "JD", "3C", "5D"])
    assert state.current_player == 0
    obs, trumps, unseen = _ctx(state)
    assert rule.lead_to_partner_void(obs, trumps, unseen, PARAMS) == _card("2D")


def test_lead_low_blank_card():
    """With nothing better, lead a card worth nothing from the longest side suit."""
    state = _state(HANDS_A, 0, TRICK1_A)
    obs, trumps, unseen = _ctx(state)
    assert rule.lead_low(obs, trumps, unseen, PARAMS) == _card("3H")


# ---------------------------------------------------------------- follow rules


def test_feed_partner_a_phat_nine():
    """Partner's boss ace of diamonds will win: discard the 9 of hearts (9 phat) on it."""
    state = _state(HANDS_B, 0, [*TRICK1_A, "AD", "JD"])
    assert state.current_player == 2
    assert _act(state) == _card("9H")


def test_feed_partner_a_ten_on_a_sure_trump_trick():
    """Partner's boss trump wins for sure: follow with the 10 (muck) rather than the J."""
    state = _state(HANDS_A, 0, [*TRICK1_A, "KS", "6S"])
    assert _act(state) == _card("TS")


def test_win_last_with_the_phat_card():
    """Fourth hand wins with the 9 of spades (9 phat), not the king."""
    state = _state(HANDS_C, 0, [*TRICK1_C, "6S", "7S", "8S"])
    assert state.current_player == 3
    assert _act(state) == _card("9S")


def test_win_last_ruffs_with_big_phat():
    """Fourth hand, out of the led suit: a trick worth nothing is ruffed only because
    the ruff itself is the 9 of trumps, a sure 18 phat when nobody plays after."""
    state = _state(HANDS_C, 0, [*TRICK1_C, "2C", "3C", "QC", "AC", "KD", "2D", "9D", "AD"])
    # Trick 4 is led by seat 2 (won trick 3 with AD); seat 1 is fourth, out of diamonds.
    for card in ("6D", "8D", "3D"):
        state.apply(card)
    assert state.current_player == 1
    obs = _obs(state)
    unseen = rule.unseen_cards(obs)
    assert rule.win_last(obs, _card("8D"), 0.0, 1, unseen, PARAMS) == _card("9H")
    # Here partner's 8D already wins, so the full agent feeds it the 9 of clubs instead.
    assert _act(state) == _card("9C")


def test_win_safe_takes_the_phat():
    """Third hand takes the opponent's 9 of diamonds with the boss ace."""
    state = _state(HANDS_C, 0, [*TRICK1_C, "2D", "9D"])
    assert state.current_player == 2
    assert _act(state) == _card("AD")


def test_third_hand_high_without_the_phat():
    """Third hand plays the queen over the opponent's 3, not the 5 (phat)."""
    state = _state(HANDS_C, 0, [*TRICK1_C, "2C", "3C"])
    assert _act(state) == _card("QC")


def test_duck_low_protects_the_nine():
    """Second hand cannot win safely: play the 3, keeping the 9 (phat)."""
    state = _state(HANDS_C, 0, [*TRICK1_C, "8C"])
    assert state.current_player == 1
    assert _act(state) == _card("3C")


# -------------------------------------------------------------------- strength


def test_rule_team_wins_most_games():
    """Rule agents NS then EW on the same seed win most games of the race to 181.

    (That they earn more per deal than random agents is checked for every game
    in tests/agents.)
    """
    matches = 800
    a = simulate("phat", matches=matches, agents=["rule", "random", "rule", "random"], seed=21)
    b = simulate("phat", matches=matches, agents=["random", "rule", "random", "rule"], seed=21)
    wa = a[a.game_over].winner.astype(str)
    wb = b[b.game_over].winner.astype(str)
    won = ((wa == "NS").sum() + (wb == "EW").sum()) / (len(wa) + len(wb))
    print(f"rule team wins {won:.3f} of the games against random")
    assert won > 0.8


def test_pitching_team_success():
    """Phat has no bids; the pitch is the contract: the pitching team wins most of the phat."""
    df = simulate("phat", matches=800, agents="rule", seed=9)
    full = df[df.tricks == 13]
    team = full.pitcher.to_numpy() % 2
    phat = np.where(team == 0, full.phat_ns, full.phat_ew)
    trumps = full.trumps.astype(str).to_numpy()
    for suit in sorted(set(trumps)):
        m = trumps == suit
        print(f"trumps {suit}: pitching team > 40 phat in {np.mean(phat[m] > 40):.3f} of {m.sum()}")
    rate = np.mean(phat > 40)
    print(f"all: pitching team > 40 phat in {rate:.3f}, mean {phat.mean():.1f}")
    assert rate > 0.5
