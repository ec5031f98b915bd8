"""Make the pictures the docs show: a state's SVG and a screenshot of a replay page.

Run from the repository's root after installing the test extra (Playwright) and
Debian's chromium (``apt-get install chromium``)::

    .venv/bin/python docs/pictures/make_pictures.py

It writes ``docs/pictures/solowhist.svg`` (Solo Whist, seed 7, during the first
trick: every hand open) and ``docs/pictures/replay.png`` (the replay page of
the same deal, PIMC at seat 0, at the card where it compared the most values).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import trickgym
from trickgym.agents.mc import PIMCAgent
from trickgym.replay import record_deal
from trickgym.replay_page import replay_html

HERE = Path(__file__).resolve().parent
SEED = 7
CHROMIUM = "/usr/bin/chromium"


def state_picture(path: Path) -> None:
    """Solo Whist, seed 7: the auction by the rule agents, then two cards of the first trick."""
    game = trickgym.game("solowhist")
    replay = record_deal(game, SEED, "rule")
    state = game.deal(seed=SEED)
    for move in replay.moves:
        state.apply(move.action)
        if int(state.record["phase"]) == game.play_phase and state.record["trick_n"] == 2:
            break
    state.save_svg(path)


def replay_screenshot(path: Path) -> None:
    """The replay page of seed 7 with PIMC at seat 0, at its decision with the most values."""
    from playwright.sync_api import sync_playwright

    game = trickgym.game("solowhist")
    agents = [PIMCAgent(game, seed=1), "rule", "rule", "rule"]
    replay = record_deal(game, SEED, agents)
    step = max(
        (i for i, m in enumerate(replay.moves, 1) if m.values),
        key=lambda i: len(replay.moves[i - 1].values),
    )
    with tempfile.TemporaryDirectory() as folder:
        page_path = Path(folder) / "deal.html"
        page_path.write_text(replay_html(replay), encoding="utf-8")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
            page = browser.new_page(viewport={"width": 1320, "height": 520})
            page.goto(page_path.as_uri())
            for _ in range(step):
                page.keyboard.press("ArrowRight")
            page.screenshot(path=str(path))
            browser.close()


if __name__ == "__main__":
    state_picture(HERE / "solowhist.svg")
    replay_screenshot(HERE / "replay.png")
    for name in ("solowhist.svg", "replay.png"):
        print(f"wrote docs/pictures/{name} ({(HERE / name).stat().st_size:,} bytes)")
