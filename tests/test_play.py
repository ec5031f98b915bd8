"""The terminal renderer, ``trickgym play`` and the envs' ansi render."""

from __future__ import annotations

import doctest
import io
import re

import numpy as np
import pytest
from run_helpers import not_quiet

import trickgym
import trickgym.render
from trickgym import render
from trickgym.cards.decks import DECKS
from trickgym.cli import main
from trickgym.play import play_deal

GAMES = [("solowhist", {}), ("troggu", {"players": 3}), ("phat", {}), ("pinochle", {})]


def test_docstring_examples():
    result = doctest.testmod(trickgym.render)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("deck_name", ["standard", "tarot", "pinochle"])
def test_hand_text_shows_every_card_once(deck_name):
    deck = DECKS[deck_name]
    rng = np.random.default_rng(1)
    for _ in range(50):
        cards = rng.choice(deck.n_cards, size=rng.integers(0, 20), replace=False)
        mask = sum(1 << int(c) for c in cards)
        legal = sum(1 << int(c) for c in cards[: len(cards) // 2])
        marked = render.hand_text(mask, deck, legal=legal)
        # Spaced form: one token per card, a legal card carries a star.
        tokens = [
            t for t in marked.split() if t not in render.TAROT_SUIT_SYMBOLS + deck.suit_symbols
        ]
        assert len(tokens) == len(cards)
        assert sum(t.endswith("*") for t in tokens) == bin(legal).count("1")
        # Colour changes only the escape codes around the same text.
        coloured = render.hand_text(mask, deck, legal=legal, color=True)
        assert render.strip_ansi(coloured) == marked.replace("*", "")
        assert render.strip_ansi(render.hand_text(mask, deck, color=True)) == render.hand_text(
            mask, deck
        )


def test_tarot_symbols_and_colours():
    deck = DECKS["tarot"]
    assert render.card_text(21, deck) == "Fool"
    king_cups = deck.card_names.index("KC")
    assert render.card_text(king_cups, deck) == "K⚱"
    assert render.card_text(king_cups, deck, color=True) == "\x1b[31mK⚱\x1b[0m"
    assert render.ljust(render.card_text(king_cups, deck, color=True), 5).endswith("K⚱\x1b[0m   ")
    with pytest.raises(ValueError, match="card id 62"):
        render.card_text(62, deck)


def test_color_enabled(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)

    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert render.color_enabled(Tty()) is True
    assert render.color_enabled(io.StringIO()) is False  # not a terminal
    assert render.color_enabled(Tty(), flag=False) is False  # --no-color
    monkeypatch.setenv("NO_COLOR", "1")
    assert render.color_enabled(Tty()) is False
    assert render.color_enabled(io.StringIO(), flag=True) is True


def _marked_cards(line: str, deck) -> set[int]:
    """Card ids starred in a rendered hand line (spaced form)."""
    symbols = list(render.TAROT_SUIT_SYMBOLS if deck.name == "tarot" else deck.suit_symbols)
    letters = deck.suit_letters
    found, suit = set(), None
    for token in line.split():
        if token in symbols:
            suit = symbols.index(token)
        elif token.endswith("*"):
            rank = token[:-1].replace("T", "10") if deck.name != "tarot" else token[:-1]
            name = rank if (deck.name == "tarot" and suit == 0) else rank + letters[suit]
            ids = [c for c in range(deck.n_cards) if deck.card_names[c] == name]
            found.update(ids)
    return found


@pytest.mark.parametrize("name, options", GAMES)
def test_render_marks_exactly_the_legal_cards(name, options):
    game = trickgym.game(name, **options)
    rng = np.random.default_rng(2)
    checked = 0
    for seed in range(6):
        state = game.deal(seed=seed)
        while not state.is_over:
            p = state.current_player
            legal_cards = render.legal_card_set(state)
            text = game.render(state, mark_legal=True, viewer=p)
            line = next(x for x in text.splitlines() if re.match(rf"\s+{p}[ :]", x))
            marked = _marked_cards(line, game.deck)
            copies = game.deck.copies  # Pinochle: a starred name stands for both copies
            expect = {
                c - c % copies + k for c in range(64) if legal_cards >> c & 1 for k in range(copies)
            }
            hand = {c for c in range(64) if int(state.record["hands"][p]) >> c & 1}
            assert marked & hand == expect & hand
            exposed = name == "solowhist" and state.record["exposed"]
            others = [
                s
                for s in range(game.n_seats)
                if s != p and not (exposed and s == state.record["declarer"])
            ]
            assert all(re.search(rf"\s{s}[ :].*\(\d+ cards?\)", text) for s in others)
            checked += bool(legal_cards)
            state.apply(int(rng.choice(state.legal_actions())))
    assert checked > 10


@pytest.mark.parametrize("name, options", GAMES)
def test_play_a_deal_from_stdin(name, options):
    seed = 9
    out = io.StringIO()
    payoffs = play_deal(name, 1, "rule", seed, options, stdin=io.StringIO("1\n" * 400), stdout=out)
    text = out.getvalue()
    assert f"seed {seed}" in text and "Your legal actions:" in text
    shown = "  ".join(
        f"seat {s}{' (you)' if s == 1 else ''}: {int(v):+d}" for s, v in enumerate(payoffs)
    )
    assert "Deal over. Payoffs: " + shown in text
    assert "\x1b[" not in text  # not a terminal: no colour
    # The deal is the game's deal of that seed, and replaying it gives the same game.
    dealt = trickgym.game(name, **options).deal(seed=seed).record["initial_hands"]
    game = trickgym.game(name, **options)
    for s in range(game.n_seats):
        assert render.hand_text(dealt[s], game.deck) in text
    again = io.StringIO()
    play_deal(name, 1, "rule", seed, options, stdin=io.StringIO("1\n" * 400), stdout=again)
    assert again.getvalue() == text


def test_different_seeds_deal_differently():
    texts = []
    for seed in (1, 2):
        out = io.StringIO()
        play_deal("solowhist", 0, "random", seed, stdin=io.StringIO("1\n" * 200), stdout=out)
        texts.append(out.getvalue().split("Hands as dealt:")[1])
    assert texts[0] != texts[1]


def test_bad_answers_are_prompted_again():
    out = io.StringIO()
    answers = "zz\n0\n99\nAbundance Declared\n\n" + "1\n" * 200
    play_deal("solowhist", 0, "rule", 4, stdin=io.StringIO(answers), stdout=out)
    text = out.getvalue()
    # Numbers are menu positions (not action ids), and the message says what may be typed.
    menu = "a menu number 1..7, a card (QS, Q♠, 10H) or a call (Pass, Solo)"
    assert f"'zz' is not {menu}. Legal:" in text
    assert "0 is not on the menu (1..7). Legal:" in text
    assert "99 is not on the menu (1..7). Legal:" in text
    assert "or an id" not in text
    assert "Deal over." in text
    # After every refusal the legal list is shown again.
    assert text.count(". Legal:") == 3


class _ByName(io.StringIO):
    """Answers every prompt with the printed name of the first legal action, e.g. ``K⚱``."""

    def __init__(self, out: io.StringIO):
        super().__init__()
        self.out = out
        self.answers: list[str] = []

    def readline(self, *args):
        menu = self.out.getvalue().rsplit("Your legal actions:", 1)[1]
        answer = re.search(r"1\) (\S+(?: \S+)*?)(?:  |\n)", menu + "\n").group(1)
        self.answers.append(answer)
        return answer + "\n"


@pytest.mark.parametrize("name, options", GAMES)
def test_answers_by_card_and_call_names(name, options):
    out = io.StringIO()
    stdin = _ByName(out)
    play_deal(name, 2, "random", 6, options, stdin=stdin, stdout=out)
    played = re.findall(r"^  seat 2 \(you\): (.+)$", out.getvalue(), re.MULTILINE)
    assert played == stdin.answers and len(played) >= 3


def test_colour_output():
    out = io.StringIO()
    play_deal("phat", 0, "random", 1, stdin=io.StringIO("1\n" * 40), stdout=out, color=True)
    assert "\x1b[1;4m" in out.getvalue()  # legal cards bold and underlined


def test_bad_arguments():
    with pytest.raises(ValueError, match=r"agents must be one name or 3 \(one per other seat"):
        play_deal("solowhist", 0, "rule,rule", 1, stdin=io.StringIO(""), stdout=io.StringIO())
    with pytest.raises(ValueError, match="unknown agent 'bot'"):
        play_deal("solowhist", 0, "bot", 1, stdin=io.StringIO(""), stdout=io.StringIO())
    with pytest.raises(ValueError, match="seat must be"):
        play_deal("solowhist", 4, "rule", 1, stdin=io.StringIO(""), stdout=io.StringIO())
    with pytest.raises(ValueError, match="input ended"):
        play_deal("solowhist", 0, "rule", 1, stdin=io.StringIO(""), stdout=io.StringIO())


def test_cli_play(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 200))
    argv = ["play", "--game", "pinochle", "--seat", "3", "--agents", "rule,random,rule"]
    assert main([*argv, "--seed", "5", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "you are seat 3; 0: rule, 1: random, 2: rule" in out
    assert "Deal over. Payoffs:" in out and "seat 3 (you)" in out
    # The old spellings still run: the game as a positional word, --opponents.
    assert main(["play", "solowhist", "--opponents", "nobody"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
    assert main(["play", "phat", "--game", "troggu"]) == 2
    assert "give the game once" in capsys.readouterr().err


class _CtrlC(io.StringIO):
    def readline(self, *args):
        raise KeyboardInterrupt


@pytest.mark.parametrize(
    "stdin, why",
    [
        (io.StringIO("quit\n"), "you typed 'quit'"),
        (io.StringIO("q\n"), "you typed 'q'"),
        (io.StringIO(""), "input ended before the deal was over"),  # Ctrl-D
        (_CtrlC(), "Ctrl-C"),
    ],
)
def test_cli_play_quits_cleanly(monkeypatch, capsys, stdin, why):
    """Issue 31: ``quit`` ended with ``error: deal abandoned`` and exit 2."""
    monkeypatch.setattr("sys.stdin", stdin)
    assert main(["play", "--seed", "4", "--no-color"]) == 0
    captured = capsys.readouterr()
    assert not_quiet(captured.err) == []
    last = captured.out.rstrip().splitlines()[-1]
    assert last.startswith(f"deal abandoned ({why})")
    if why != "Ctrl-C":
        assert last.endswith("replay it with --seed 4")


def test_play_shows_a_ten_one_way():
    """Issue 31: the hand showed ``♠ Q T 8`` while the menu showed ``10♠``."""
    for seed in range(1, 30):
        out = io.StringIO()
        play_deal("solowhist", 0, "rule", seed, stdin=io.StringIO("1\n" * 200), stdout=out)
        text = out.getvalue()
        if "10♠" in text or "10♥" in text:
            break
    tokens = re.findall(r"(?<![\w♠♥♦♣])(?:10|T)(?=[♠♥♦♣*\s])", text)
    assert tokens and set(tokens) == {"10"}
    assert not re.search(r"[♠♥♦♣][2-9AKQJ]*T", text)  # nor in a compact hand


def test_env_ansi_render_marks_the_learners_cards():
    import gymnasium

    import trickgym.envs

    env = gymnasium.make("trickgym/Phat-v0", seat=0, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    mask = env.unwrapped.action_masks()
    line = next(x for x in text.splitlines() if x.startswith("  0 NS:"))
    assert _marked_cards(line, trickgym.game("phat").deck) == set(
        np.flatnonzero(mask[:52]).tolist()
    )


def test_other_seats_discards_stay_hidden():
    # Pinochle kitty mode: the declarer buries four cards; a person at another seat must
    # not learn which (the trick cards are named as they are played).
    for seed in range(1, 40):
        out = io.StringIO()
        play_deal("pinochle", 0, "rule", seed, stdin=io.StringIO("1\n" * 100), stdout=out)
        text = out.getvalue()
        if re.search(r"seat [123] \(rule\): Trumps", text):
            break
    else:
        pytest.fail("no seed in 1..39 where another seat declared")
    buried = re.findall(r"seat [123] \(rule\): discard \(a card you cannot see\)", text)
    assert len(buried) == 4
    assert "-- trick won by seat" in text


@pytest.mark.parametrize("name, options", GAMES)
def test_a_card_not_held_is_said_so(name, options):
    """Issue 43: a card you do not hold was answered 'KH is not legal now'."""
    from trickgym.play import _parse_answer

    game = trickgym.game(name, **options)
    state = game.deal(seed=3)
    hand = int(state.record["hands"][state.current_player])
    held = next(c for c in range(game.deck.n_cards) if hand >> c & 1)
    copies = game.deck.copies  # Pinochle's twins: neither copy held
    absent = next(
        c for c in range(0, game.deck.n_cards, copies) if not hand >> c & ((1 << copies) - 1)
    )
    legal = state.legal_actions()
    with pytest.raises(
        ValueError, match=f"^you do not hold {re.escape(game.action_name(absent))}$"
    ):
        _parse_answer(game, state, game.action_name(absent), legal)
    if held not in legal:  # the auction: a card you hold is not playable yet
        with pytest.raises(ValueError, match="is not legal now"):
            _parse_answer(game, state, game.action_name(held), legal)
