"""The replay page, opened as a person opens it: in a real headless browser.

Debian's chromium (``.ci/run`` installs it) driven by Playwright, with no
browser download: the page loads from disk with no console error and no
request, steps with the arrow keys, and shows the cards the deal played
and the values the agent compared. Without the browser the test is skipped
on a developer's machine and fails in CI (``CI`` set), where it must run.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import trickgym
from trickgym.cards.notation import format_card
from trickgym.cli import main
from trickgym.replay import record_deal, write_replay

CHROMIUM = "/usr/bin/chromium"
SVG = "{http://www.w3.org/2000/svg}"


class ValuedAgent:
    """Plays its first legal action and says it valued each legal action at minus its rank."""

    values_name = "test values"

    def __init__(self):
        self.last_values = None

    def act(self, observation, action_mask):
        legal = np.flatnonzero(action_mask)
        self.last_values = (legal, -np.arange(len(legal), dtype=np.float64))
        return int(legal[0])


def _browser(playwright):
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
        pytest.skip(f"no {CHROMIUM} (apt-get install chromium)")
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True)


def test_the_page_steps_through_the_deal_in_a_headless_browser(tmp_path):
    if os.environ.get("CI"):
        import playwright  # noqa: F401  (a missing test extra fails in CI)
    sync_api = pytest.importorskip("playwright.sync_api")
    game = trickgym.game("phat")
    agents = [ValuedAgent(), "rule", "random", "rule"]
    page_path = write_replay(tmp_path / "deal.html", game, 11, agents)
    replay = record_deal(game, 11, [ValuedAgent(), "rule", "random", "rule"])
    # What the deal says: the same seed deals the same cards, and the moves are legal there.
    state = game.deal(seed=11)
    dealt = state.record["hands"].copy()
    for move in replay.moves[:3]:
        assert move.seat == state.current_player and dealt[move.seat] >> move.action & 1
        state.apply(move.action)
    played = [format_card(m.action, game.deck) for m in replay.moves[:3]]
    valued = next(i for i, m in enumerate(replay.moves, 1) if m.seat == 0 and m.values)

    with sync_api.sync_playwright() as p:
        browser = _browser(p)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        errors, requests = [], []
        page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else 0)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: requests.append(r.url))
        page.goto(page_path.as_uri())
        assert page.inner_text("#step") == f"0 / {len(replay.moves)}"
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        assert page.inner_text("#step") == f"3 / {len(replay.moves)}"
        trick = page.eval_on_selector_all(
            "#board g.trick g.card", "cards => cards.map(c => c.dataset.card)"
        )
        assert trick == played
        assert page.inner_text("#move") == replay.moves[2].text
        page.keyboard.press("ArrowLeft")
        assert page.eval_on_selector_all("#board g.trick g.card", "c => c.length") == 2
        # The agent's values at its decision, its choice marked.
        page.keyboard.press("Home")
        for _ in range(valued):
            page.keyboard.press("ArrowRight")
        rows = page.eval_on_selector_all(
            "#values tr", "rows => rows.map(r => [r.dataset.action, r.className])"
        )
        move = replay.moves[valued - 1]
        assert [r[0] for r in rows] == [v["label"] for v in move.values]
        assert [r[1] for r in rows].count("chosen") == 1 and rows[0][1] == "chosen"
        assert "test values" in page.inner_text("#values")
        assert not page.is_visible("#result")
        page.keyboard.press("End")
        assert page.is_visible("#result")
        payoffs = page.inner_text("#payoffs")
        assert all(f"seat {s}: {v:+d}" in payoffs for s, v in enumerate(replay.payoffs))
        page.screenshot(path=str(tmp_path / "end.png"))
        browser.close()
    assert errors == []
    assert requests == [page_path.as_uri()]  # the page itself, nothing else
    assert (tmp_path / "end.png").stat().st_size > 10_000


def _frames(path) -> list[ET.Element]:
    text = path.read_text(encoding="utf-8")
    data = json.loads(re.search(r'id="replay-data">(.*?)</script>', text, re.S).group(1))
    return [ET.fromstring(svg) for svg in [data["start"], *(m["svg"] for m in data["moves"])]]


def test_trickgym_replay_writes_the_page_of_a_seats_view(tmp_path, capsys):
    out = tmp_path / "deal.html"
    code = main(["replay", "--game", "troggu", "--players", "3", "--seed", "4",
                 "--agents", "rule", "--viewer", "1", "--out", str(out)])  # fmt: skip
    assert code == 0 and "seed 4" in capsys.readouterr().out
    frames = _frames(out)
    assert len(frames) > 18  # the auction, and every card of the deal
    for frame in frames:
        hands = {
            int(g.get("data-seat")): g.get("data-view")
            for g in frame.iter(f"{SVG}g")
            if g.get("class") == "hand"
        }
        assert hands[1] == "open" and hands[0] == hands[2] == "hidden"


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--agents", "rule,rule"], "--agents must be one name or 4"),
        (["--agents", "nobody"], "unknown agent 'nobody'"),
        (["--viewer", "4"], "--viewer must be an integer 0..3"),
    ],
)
def test_bad_replay_flags_are_named(argv, words, tmp_path, capsys):
    out = tmp_path / "x.html"
    code = main(["replay", "--game", "phat", "--seed", "1", "--out", str(out), *argv])
    assert code == 2
    assert words in capsys.readouterr().err
    assert not out.exists()
