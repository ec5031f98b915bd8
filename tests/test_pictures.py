"""Every game's state as a picture: the SVG parses and shows what the state holds.

Read as a person reads it: each open hand shows its cards face up with the
deck's rank and suit symbol in the suit's colour, each hidden hand as many
backs, the trick the cards on the table with the seat that led.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from conformance_helpers import CONFIGS, IDS, game_of

from trickgym.cards.notation import format_card
from trickgym.render import suit_colour, suit_symbol

SVG = "{http://www.w3.org/2000/svg}"
# Cards dealt to each seat (the rules files, §3 or §2): what an open hand shows at the start.
DEALT = {
    "solowhist": 13,
    "troggu3": 18,
    "troggu5": 11,
    "troggu8": 7,
    "phat": 13,
    "pinochle-kitty": 11,
    "pinochle-exchange": 12,
}


def _in_play(config, cards: int = 2):
    """A deal of ``config`` played (first legal actions) to ``cards`` cards on the table."""
    game = game_of(config)
    for seed in range(40):
        state = game.deal(seed=seed)
        while not state.is_over and (
            int(state.record["phase"]) != game.play_phase or state.record["trick_n"] < cards
        ):
            state.apply(state.legal_actions()[-1 if state.record["phase"] == 0 else 0])
        if not state.is_over:
            return state
    raise AssertionError(f"no deal of {config.id} reached its card play")


def _groups(root, kind: str):
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == kind]


def _hands(root) -> dict[int, ET.Element]:
    return {int(g.get("data-seat")): g for g in _groups(root, "hand")}


def _faces(group):
    return [g for g in group.iter(f"{SVG}g") if g.get("class") == "card face"]


def _backs(group):
    return [g for g in group.iter(f"{SVG}g") if g.get("class") == "card back"]


def test_every_config_has_a_dealt_hand_size():
    assert set(DEALT) == set(IDS)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_open_hands_show_every_dealt_card_face_up(config):
    game = game_of(config)
    state = game.deal(seed=1)
    root = ET.fromstring(state.to_svg())
    hands = _hands(root)
    assert sorted(hands) == list(range(game.n_seats))
    for seat, hand in hands.items():
        faces = _faces(hand)
        assert len(faces) == DEALT[config.id], f"seat {seat}"
        assert not _backs(hand)
        held = int(state.record["hands"][seat])
        by_name = {format_card(c, game.deck): c for c in range(game.deck.n_cards) if held >> c & 1}
        assert {f.get("data-card") for f in faces} == set(by_name)
        for face in faces:  # the face reads as the terminal's card: rank, symbol, colour
            card = by_name[face.get("data-card")]
            suit = int(game.deck.suit_of[card])
            texts = list(face.iter(f"{SVG}text"))
            assert [t.text for t in texts] == [
                game.deck.rank_names[card],
                suit_symbol(game.deck, suit),
            ]
            assert {t.get("fill") for t in texts} == {suit_colour(game.deck, suit)}


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_seats_view_shows_its_hand_and_backs_for_the_others(config):
    state = _in_play(config)
    game = state.game
    viewer = (state.current_player + 1) % game.n_seats
    root = ET.fromstring(state.to_svg(viewer=viewer))
    assert f"seat {viewer}'s view" in root.find(f"{SVG}title").text
    for seat, hand in _hands(root).items():
        n = int(state.record["hands"][seat]).bit_count()
        if seat == viewer or seat in game.describe(state)["face_up"]:
            assert hand.get("data-view") == "open"
            assert len(_faces(hand)) == n and not _backs(hand)
        else:
            assert hand.get("data-view") == "hidden", f"seat {seat}"
            assert len(_backs(hand)) == n and not _faces(hand)
            assert not hand.findall(f".//{SVG}text")  # nothing of a hidden card is written


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_trick_shows_its_cards_and_who_led(config):
    state = _in_play(config, cards=2)
    r = state.record
    (trick,) = _groups(ET.fromstring(state.to_svg()), "trick")
    leader = int(r["leader"])
    assert int(trick.get("data-leader")) == leader
    assert f"led by seat {leader}" in trick.find(f"{SVG}text").text
    cards = [format_card(int(c), state.game.deck) for c in r["trick_cards"][: r["trick_n"]]]
    faces = _faces(trick)
    assert [f.get("data-card") for f in faces] == cards
    n = state.game.n_seats
    assert [int(f.get("data-seat")) for f in faces] == [(leader + k) % n for k in range(len(cards))]


def test_the_player_to_move_has_its_legal_cards_marked():
    state = _in_play(CONFIGS[0], cards=1)
    hands = _hands(ET.fromstring(state.to_svg()))
    faces = _faces(hands[state.current_player])
    marked = {f.get("data-card") for f in faces if f.get("data-legal")}
    legal = {state.action_name(a) for a in state.legal_actions()}
    assert marked == legal and marked
    others = [h for s, h in hands.items() if s != state.current_player]
    assert not any(f.get("data-legal") for h in others for f in _faces(h))


@pytest.mark.parametrize("name", ["phat", "pinochle-kitty"])
def test_a_partnership_race_shows_each_teams_score_against_the_target(name):
    config = next(c for c in CONFIGS if c.id == name)
    state = _in_play(config)
    state.record["scores"][:2] = (45, 12)
    (race,) = _groups(ET.fromstring(state.to_svg()), "race")
    target = int(state.record["target"])
    texts = [t.text for t in race.iter(f"{SVG}text")]
    assert f"Race to {target}" in texts
    assert f"45 / {target}" in texts and f"12 / {target}" in texts


def test_notebooks_show_the_picture_and_save_svg_writes_it(tmp_path):
    state = game_of(CONFIGS[0]).deal(seed=4)
    assert state._repr_svg_() == state.to_svg()
    state.save_svg(tmp_path / "deal.svg", viewer=2)
    saved = (tmp_path / "deal.svg").read_text(encoding="utf-8")
    assert saved == state.to_svg(viewer=2)
    assert ET.fromstring(saved).tag == f"{SVG}svg"


def test_the_picture_size_depends_on_the_game_alone():
    """So that an episode's frames make one video."""
    config = next(c for c in CONFIGS if c.id == "troggu3")
    start = game_of(config).deal(seed=2).picture()
    later = _in_play(config).picture()
    assert (start.width, start.height) == (later.width, later.height)
    assert start.width % 2 == 0 and start.height % 2 == 0


@pytest.mark.parametrize(
    "kwargs, word",
    [({"viewer": 4}, "viewer"), ({"viewer": "0"}, "viewer"), ({"mark_legal": 2}, "mark_legal")],
)
def test_bad_picture_arguments_are_named(kwargs, word):
    state = game_of(CONFIGS[0]).deal(seed=4)
    with pytest.raises(ValueError, match=word):
        state.picture(**kwargs)
    with pytest.raises(ValueError, match="path"):
        state.picture().save_svg(None)
