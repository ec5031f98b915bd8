"""The Troggu rule agent: one test per named rule, and its contracts' success.

Its information set, legality and strength against random agents are
checked for every game in ``tests/agents``.
"""

from __future__ import annotations

import numpy as np
import pytest

import trickgym
from trickgym.agents import kernel_scratch
from trickgym.agents.rule import troggu as rt
from trickgym.cards.decks import TAROT
from trickgym.engine.loops import act
from trickgym.engine.params import params_row
from trickgym.games.troggu.constants import (
    CALL,
    DISCARD,
    FOOL,
    HAND_SIZE,
    MISERE,
    NO_PARTNER,
    PASS,
    PLAY,
    SOLO_CALL,
    TAPP,
    TAPP_CALL,
    TAPP_SIZE,
    TRUMP_XXI,
    TRUMPS,
)
from trickgym.games.troggu.state import OBS_DTYPE
from trickgym.sim import simulate
from trickgym.tricks.troggu import troggu_legal

RULE = 1
NAMES = TAROT.card_names
CARD = {name: i for i, name in enumerate(NAMES)}
PARAMS = params_row(rt.RuleOptions())
SUIT_OF = TAROT.suit_of


def mask(cards: str) -> int:
    """Bit set of space-separated card names."""
    m = 0
    for name in cards.split():
        m |= 1 << CARD[name]
    return m


def names(m: int) -> str:
    return " ".join(NAMES[c] for c in range(62) if m >> c & 1)


def fixed_deal(n: int, dealer: int, fixed: dict[int, str], tapp: str | None = None):
    """A deal with the given hands for some seats; the other seats and the Tapp get the rest."""
    h, t = HAND_SIZE[n], TAPP_SIZE[n]
    used = 0
    for cards in fixed.values():
        used |= mask(cards)
    if tapp is not None:
        used |= mask(tapp)
    rest = [c for c in range(62) if not used >> c & 1]
    hands = []
    for s in range(n):
        if s in fixed:
            hands.append(fixed[s])
        else:
            hands.append(" ".join(NAMES[c] for c in rest[:h]))
            rest = rest[h:]
    if tapp is None:
        tapp = " ".join(NAMES[c] for c in rest[:t])
    return trickgym.game("troggu", players=n).deal(hands=hands, tapp=tapp, dealer=dealer)


def rule_act(state) -> int:
    """The rule agent's action for the seat to move, through the compiled dispatcher."""
    rng = np.zeros(1, dtype=np.uint64)
    seat = state.current_player
    return int(act(RULE, state.record, seat, rng, *kernel_scratch(state.game), None))


def play_obs(n, seat, hand, trick=(), leader=0, contract=TAPP, declarer=0, partner=-1, played=None):
    """A play-phase observation record built by hand (legal set from the trick rules)."""
    obs = np.zeros(1, dtype=OBS_DTYPE)
    o = obs[0]
    o["seat"], o["n_players"], o["phase"], o["to_move"] = seat, n, PLAY, seat
    o["hand"] = np.uint64(mask(hand))
    o["contract"], o["declarer"], o["partner"], o["called_card"] = contract, declarer, partner, -1
    o["leader"], o["trick_n"], o["last_leader"] = leader, len(trick), -1
    o["calls"][:] = -1
    o["trick_cards"][:] = -1
    o["last_trick_cards"][:] = -1
    for i, name in enumerate(trick):
        o["trick_cards"][i] = CARD[name]
        o["played"][(leader + i) % n] |= np.uint64(1 << CARD[name])
    for s, cards in (played or {}).items():
        o["played"][s] |= np.uint64(mask(cards))
    led = 0
    if trick:
        led = int(TAROT.suit_masks[SUIT_OF[CARD[trick[0]]]])
    o["legal_cards"] = troggu_legal(
        np.uint64(mask(hand)), np.uint64(led), np.uint64(TRUMPS), np.uint64(1 << FOOL), False, False
    )
    return obs


def decide(obs) -> int:
    rng = np.zeros(1, dtype=np.uint64)
    action = int(rt.rule_action(obs[0], PARAMS, rng))
    assert obs[0]["legal_cards"] >> np.uint64(action) & np.uint64(1)
    return action


# ------------------------------------------------------------------ bidding


STRONG = "Fool XXI XX XIX XVIII XVII XVI XV KC KD KS KB QC"
MEDIUM = "XXI XVIII XV XII X VIII KC QC KD 6D 5S 7S 9B"
WEAK = "II III 6C 5C 4C 6D 5D 5S 6S 7S 5B 6B 7B"


def test_hand_strength_orders_hands():
    """hand_strength: the strong hand rates above the medium, the medium above the weak."""
    s, m, w = (rt.hand_strength(np.uint64(mask(h)), 4, 0.8) for h in (STRONG, MEDIUM, WEAK))
    assert s > m > w
    assert w < 1.0 < m


@pytest.mark.parametrize(("hand", "call"), [(STRONG, SOLO_CALL), (MEDIUM, TAPP_CALL), (WEAK, PASS)])
def test_bid_call(hand, call):
    """bid_call: Solo with a huge hand, Tapp with a good one, Pass with a weak one (4 players)."""
    state = fixed_deal(4, 0, {1: hand})
    assert state.current_player == 1
    assert rule_act(state) == call


def test_bid_thresholds_scale_with_players():
    """bid_call: the same medium-strength hand is a Tapp at 3 players but a Pass at 6."""
    hand3 = MEDIUM + " XI IX VII V VI"  # 18 cards
    s3 = fixed_deal(3, 0, {1: hand3})
    assert rule_act(s3) == TAPP_CALL
    hand6 = "XXI XV XII KC 6D 5S 7S 9B 5B"  # 9 cards, ratio ~1.2 < 6-player threshold
    s6 = fixed_deal(6, 0, {1: hand6})
    assert rule_act(s6) == PASS


# --------------------------------------------------------- discard and call


def test_discard_choice_voids_short_suit_and_banks_points():
    """discard_choice: the singleton Queen goes first (void + banked), never trumps or Kings."""
    n = 4
    hand = "Fool XXI XX XIX XVIII XVII XVI XV XIV XIII KC 5C QS"
    tapp = "XII XI X IX VIII KD 4C 3C 2C 6D"
    state = fixed_deal(n, 0, {1: hand}, tapp=tapp)
    state.apply("Tapp")
    for _ in range(3):
        state.apply("Pass")
    assert state.record["phase"] == DISCARD
    first = rule_act(state)
    assert NAMES[first] == "QS"
    discards = []
    while state.record["phase"] == DISCARD:
        a = rule_act(state)
        assert a in state.legal_actions()
        discards.append(a)
        state.apply(a)
    assert discards[0] == first
    # Coins (KD 6D) is shorter than Cups (KC 5C 4C 3C 2C): its pip goes before the Cups pips.
    assert NAMES[discards[1]] == "6D"
    # Every plain non-King, then the lowest trumps to make up ten; Kings are never discarded.
    assert set(names(sum(1 << c for c in discards)).split()) == set(
        "QS 6D 5C 4C 3C 2C VIII IX X XI".split()
    )


def test_partner_call_names_highest_trump_not_held():
    """partner_call: at 7 players the Tappist names the highest trump II-XX it lacks."""
    n = 7
    hand = "Fool XXI XX XVIII KC KD KS QB"
    state = fixed_deal(n, 0, {1: hand})
    state.apply("Tapp")
    for _ in range(n - 1):
        state.apply("Pass")
    while state.record["phase"] == DISCARD:
        state.apply(rule_act(state))
    assert state.record["phase"] == CALL
    a = rule_act(state)
    held = int(state.record["hands"][1]) | int(state.record["discards"])
    expect = max(c for c in range(1, 20) if not held >> c & 1)
    assert a == expect != NO_PARTNER


# ------------------------------------------------------------------ play


def test_fool_hold_back_cheap_trick():
    """fool_hold_back: Fool the only trump, cheap enemy trick -> hold it back (play another)."""
    obs = play_obs(4, 2, "Fool 5S 6S KD", trick=("6C", "5C"), leader=0, declarer=0)
    a = decide(obs)
    assert a != FOOL and NAMES[a] in ("5S", "6S")


def test_fool_hold_back_valuable_trick():
    """fool_hold_back: Fool the only trump, enemy trick worth 9 -> the Fool wins it."""
    obs = play_obs(4, 2, "Fool 5S 6S KD", trick=("KC", "QC"), leader=0, declarer=0)
    assert decide(obs) == FOOL


def test_lead_draws_trumps_from_the_top():
    """lead_card: a declarer holding most trumps and the boss leads its top trump."""
    hand = "Fool XXI XX XIX XVIII XVII XVI XV XIV XIII 5C KD QD"
    obs = play_obs(4, 0, hand, leader=0, declarer=0)
    assert decide(obs) == FOOL


def test_lead_cashes_boss_king():
    """lead_card: a defender without trump control cashes a King (boss of its suit)."""
    obs = play_obs(4, 1, "III KS 5S 6S 6C 5C", leader=1, declarer=0)
    assert NAMES[decide(obs)] == "KS"


def test_follow_wins_cheaply_last_hand():
    """follow_card: last to play against the declarer, win with the lowest winning card."""
    obs = play_obs(4, 3, "KC QC NC 6C XV", trick=("JC", "5C", "2C"), leader=0, declarer=0)
    assert NAMES[decide(obs)] == "NC"


def test_follow_smears_on_safe_ally_trick():
    """follow_card: a partner's boss King is winning and I am last: smear my Queen."""
    obs = play_obs(4, 3, "QS 5S XII", trick=("6S", "KS", "7S"), leader=0, declarer=1)
    # declarer 1; seats 2 and 3 are defenders; seat 2's 7S follows; KS by seat 1 wins -> enemy.
    assert NAMES[decide(obs)] == "5S"  # cannot win: discard cheaply
    obs = play_obs(4, 3, "QS 5S XII", trick=("6S", "7S", "KS"), leader=0, declarer=0)
    # KS by defender seat 2 is winning, I am last: smear the Queen.
    assert NAMES[decide(obs)] == "QS"


def test_follow_takes_with_sure_winner():
    """follow_card: second hand with the boss trump on a valuable enemy lead takes it."""
    played = {s: "" for s in range(4)}
    obs = play_obs(4, 1, "XXI II 5S", trick=("KC",), leader=0, declarer=0, played=played)
    assert decide(obs) == TRUMP_XXI


def test_misere_follow_ducks_high():
    """misere_follow: duck under the winner with the highest-point card that loses."""
    obs = play_obs(4, 2, "QC 3C 5C KC", trick=("1C", "2C"), leader=0, contract=MISERE, declarer=-1)
    # 1C wins so far (1 is the highest pip); QC and KC win, 3C and 5C duck: shed 3C.
    assert NAMES[decide(obs)] == "3C"
    obs = play_obs(4, 2, "QC 3C 5C KC", trick=("NC",), leader=1, contract=MISERE, declarer=-1)
    assert NAMES[decide(obs)] == "5C" or NAMES[decide(obs)] == "3C"


def test_misere_follow_dumps_queen_under_king():
    """misere_follow: on a King lead the Queen ducks and sheds 4 points."""
    obs = play_obs(4, 2, "QC 3C XX", trick=("KC",), leader=1, contract=MISERE, declarer=-1)
    assert NAMES[decide(obs)] == "QC"


def test_misere_never_plays_fool_unforced():
    """misere_follow / fool_hold_back: in Misère the Fool is held back, not played."""
    obs = play_obs(4, 2, "Fool 5S 6S", trick=("KC",), leader=1, contract=MISERE, declarer=-1)
    assert decide(obs) != FOOL


def test_misere_lead_low():
    """misere_lead: lead the low card that many unseen cards outrank (never the Fool)."""
    obs = play_obs(4, 0, "Fool KS 6C XX", leader=0, contract=MISERE, declarer=-1)
    assert NAMES[decide(obs)] == "6C"


def test_misere_from_real_auction():
    """All pass at 4 players: Misère; the rule agent's lead is legal and not the Fool."""
    state = fixed_deal(4, 0, {1: "Fool II III 6C 5C 4C 6D 5D 5S 6S 7S 5B 6B"})
    for _ in range(4):
        state.apply("Pass")
    assert state.record["contract"] == MISERE and state.current_player == 1
    a = rule_act(state)
    assert a in state.legal_actions() and a != FOOL


# ---------------------------------------------------------------- bid success
#
# That the rule agent acts on its seat's information set, always legally,
# and beats random agents is checked for every game in tests/agents.


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_bid_success(players):
    """All-rule tables: the Tapp (the main contract) is made more than half the time."""
    df = simulate("troggu", 4000, "rule", 21, players=players)
    rates = df.groupby("contract", observed=True)["made"].agg(["mean", "size"])
    print(f"\n{players} players:\n{rates}")
    tapp = df[df["contract"].isin(["Tapp", "Forced Tapp"])]
    assert len(tapp) > 200
    assert tapp["made"].mean() > 0.5
    solo = df[df["contract"] == "Solo"]
    if len(solo) >= 50:
        assert solo["made"].mean() > 0.5
