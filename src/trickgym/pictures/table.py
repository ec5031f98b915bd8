"""A game state laid out as a :class:`~.scene.Scene`: the hands, the trick, the words.

One row per seat: its name and caption (tricks, the call it made, its
meld), then its hand by suit, strongest first (open cards face up, hidden
ones as backs). Beside the rows, a panel: the trick on the table with the
seat that led it (the last trick, once a trick is complete), the auction or
contract, the scores and result, and for partnership races to a target
(Phat's 181, Pinochle's match target) a bar per team.

Everything game-specific comes from the game's description
(:meth:`trickgym.api.Game.describe`, the words ``print(state)`` shows) and
the state's shared fields (``hands``, the trick fields, ``scores``,
``target``), so a new game draws without code here. The size of a picture
depends on the game alone, never on the state, so that an episode's frames
make one video.
"""

from __future__ import annotations

import math
import re
import textwrap

from ..render import cards_by_suit, legal_card_set
from .cards import CARD_W, card_advance, card_back, card_face
from .scene import Group, Rect, Scene, Text

__all__ = ["table_scene"]

_STEP, _BACK_STEP, _SUIT_GAP = 22, 12, 8  # horizontal pitch of fanned cards
_TOP, _ROW, _HAND_X, _PANEL_W = 44, 64, 150, 340
_LINE, _MAX_LINES, _WRAP = 16, 8, 50
_INK, _MUTED, _GREEN, _BG, _PANEL = "#1a1a1a", "#555555", "#1b7a3a", "#eef3ee", "#dde9de"
_TEAMS = ("NS", "EW")


def _hand_width(game) -> int:
    """Room for a hand: the cards a seat is dealt and a few more (a kitty, a Tapp)."""
    deck = game.deck
    most = math.ceil(deck.n_cards / game.n_seats) + 2
    mean = sum(card_advance(c, deck, _STEP) for c in range(deck.n_cards)) / deck.n_cards
    return round((most - 1) * mean) + CARD_W + (deck.n_suits - 1) * _SUIT_GAP


def _size(game) -> tuple[int, int]:
    width = _HAND_X + _hand_width(game) + 20 + _PANEL_W + 12
    height = _TOP + max(game.n_seats * _ROW, 330) + 12
    return width + width % 2, height + height % 2  # even sides: video encoders need them


def _words(text: str) -> str:
    """A text line's column padding as separators (a picture lays out its own columns)."""
    return re.sub(r"\s{2,}", " · ", text.strip())


def _hand(game, mask: int, seat: int, x: float, y: float, width: float, legal: int) -> Group:
    """``seat``'s open hand ``mask`` fanned from ``(x, y)`` within ``width`` pixels."""
    deck = game.deck
    groups = [cards for cards in cards_by_suit(mask, deck) if cards]
    n = sum(len(cards) for cards in groups)
    advances = [card_advance(c, deck, _STEP) for cards in groups for c in cards][:-1]
    room = width - CARD_W - (len(groups) - 1) * _SUIT_GAP
    # A hand too long for its row (a kitty or Tapp taken up) is fanned tighter.
    squeeze = min(1.0, room / sum(advances)) if advances else 1.0
    hand = Group("hand", data={"seat": str(seat), "view": "open", "cards": str(n)})
    for cards in groups:
        for card in cards:
            playable = bool(legal >> card & 1)
            # A card the player to move may play stands a little out of the hand.
            hand.add(card_face(card, deck, x, y - 5 * playable, legal=playable))
            x += card_advance(card, deck, _STEP) * squeeze
        x += _SUIT_GAP
    return hand


def _backs(seat: int, n: int, x: float, y: float, width: float) -> Group:
    """``n`` hidden cards of ``seat`` as backs."""
    step = _BACK_STEP if n < 2 else min(_BACK_STEP, (width - CARD_W) / (n - 1))
    hand = Group("hand", data={"seat": str(seat), "view": "hidden", "cards": str(n)})
    for k in range(n):
        hand.add(card_back(x + k * step, y))
    return hand


def _trick(state, x: float, y: float) -> Group:
    """The trick on the table (or, between tricks, the last one), led by whom."""
    game, r = state.game, state.record
    n = game.n_seats
    cards, leader, label = [], -1, ""
    if r["trick_n"] > 0:
        cards = [int(c) for c in r["trick_cards"][: r["trick_n"]]]
        leader = int(r["leader"])
        label = f"Trick {int(r['trick_no']) + 1}, led by seat {leader}"
    elif r["trick_no"] > 0 and r["last_leader"] >= 0:
        cards = [int(c) for c in r["last_trick_cards"][:n] if c >= 0]
        leader = int(r["last_leader"])
        label = f"Last trick ({int(r['trick_no'])}), led by seat {leader}"
    trick = Group("trick", data={"leader": str(leader), "cards": str(len(cards))})
    trick.add(Text(x, y + 14, label or "No trick on the table", 13, _INK, bold=True))
    step = min(38, (_PANEL_W - 20 - CARD_W) / max(1, n - 1))
    for k, card in enumerate(cards):
        seat = (leader + k) % n
        cx = x + k * step
        face = card_face(card, game.deck, cx, y + 22)
        face.data["seat"] = str(seat)
        trick.add(face)
        led = k == 0
        trick.add(Text(cx + CARD_W / 2, y + 84, f"{seat}", 11, _INK, "middle", bold=led))
        if led:
            trick.add(Text(cx + CARD_W / 2, y + 97, "led", 10, _GREEN, "middle", bold=True))
    return trick


def _info_lines(state, words: dict) -> list[str]:
    """The panel's words: auction or contract, result, and the scores if they said none."""
    lines = [*words["table"], *words["result"]]
    if not any("score" in line for line in lines):
        scores = state.scores.tolist()
        if state.game.partnership:
            lines.append(f"scores NS {scores[0]} EW {scores[1]}")
        else:
            lines.append("scores " + "  ".join(f"{s}: {v}" for s, v in enumerate(scores)))
    wrapped = [w for line in lines for w in textwrap.wrap(_words(line), _WRAP) or [""]]
    if len(wrapped) > _MAX_LINES:  # a long auction: its end matters most, so keep it
        wrapped = [*wrapped[: _MAX_LINES - 2], "…", wrapped[-1]]
    return wrapped


def _race(state, x: float, y: float) -> Group | None:
    """Each team's bar towards the match's target (a partnership game that has one)."""
    r = state.record
    if not state.game.partnership or "target" not in r.dtype.names:
        return None
    target = max(1, int(r["target"]))
    race = Group("race", data={"target": str(target)})
    race.add(Text(x, y + 12, f"Race to {target}", 12, _INK, bold=True))
    width = _PANEL_W - 120
    for team in (0, 1):
        score = int(r["scores"][team])
        ty = y + 20 + team * 22
        share = min(1.0, max(0.0, score / target))
        race.add(Text(x, ty + 13, _TEAMS[team], 12, _INK, bold=True))
        race.add(Rect(x + 28, ty + 2, width, 14, "#ffffff", "#8a8a8a", rx=3))
        if share > 0:
            race.add(Rect(x + 28, ty + 2, width * share, 14, ("#c0392b", "#2a6fb0")[team], rx=3))
        race.add(Text(x + 36 + width, ty + 13, f"{score} / {target}", 11, _INK))
    return race


def table_scene(state, viewer: int | None = None, mark_legal: bool = True) -> Scene:
    """The picture of ``state`` (a ``trickgym.api.State``) as a :class:`Scene`.

    ``viewer``: None shows every hand; a seat shows the table as that seat
    sees it (the other hands as backs, an exposed hand face up).
    ``mark_legal`` outlines the cards the player to move may play, where
    they are shown.
    """
    game, r = state.game, state.record
    words = game.describe(state)
    width, height = _size(game)
    to_move = state.current_player
    legal = legal_card_set(state) if mark_legal else 0
    title = _words(words["title"])
    if viewer is not None:
        title += f" · seat {viewer}'s view"
    scene = Scene(width, height, title)
    scene.items.append(Rect(0, 0, width, height, _BG))
    scene.items.append(Text(12, 26, title, 15, _INK, bold=True))
    hand_w = _hand_width(game)
    for s in range(game.n_seats):
        y = _TOP + s * _ROW
        name, _, caption = words["seats"][s].partition(":")
        marks = []
        if s == to_move:
            marks.append("▶ to move")
        if s in words["declarers"]:
            marks.append("declarer")
        seat = Group("seat", data={"seat": str(s)})
        you = " (you)" if s == viewer else ""
        seat.add(Text(12, y + 17, f"Seat {name.strip()}{you}", 13, _INK, bold=True))
        seat.add(Text(12, y + 33, caption.strip(), 11, _MUTED))
        seat.add(Text(12, y + 49, " · ".join(marks), 11, _GREEN, bold=True))
        mask = int(r["hands"][s])
        shown = viewer is None or s == viewer or s in words["face_up"]
        if shown:
            playable = legal if s == to_move else 0
            seat.add(_hand(game, mask, s, _HAND_X, y + 10, hand_w, playable))
        else:
            seat.add(_backs(s, mask.bit_count(), _HAND_X, y + 10, hand_w))
        scene.items.append(seat)
    px = _HAND_X + hand_w + 20
    scene.items.append(Rect(px, _TOP, _PANEL_W, height - _TOP - 12, _PANEL, rx=8))
    scene.items.append(_trick(state, px + 10, _TOP + 6))
    info = Group("info")
    y = _TOP + 126
    for line in _info_lines(state, words):
        info.add(Text(px + 10, y, line, 12, _INK))
        y += _LINE
    scene.items.append(info)
    race = _race(state, px + 10, y + 4)
    if race is not None:
        scene.items.append(race)
    return scene
