"""Every figure of every game reads at face value: no text cut off, no contract or
declarer in a game that has neither, no column or parameter names (issue 43).

Each plotting function is drawn on hand-made rows of every game it applies
to, with the Agg canvas, and every text of the figure (titles, axis and
tick labels, legends, footnotes) is inspected. Nothing here compiles a
kernel.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text

import trickgym
from trickgym import analysis as A
from trickgym.games import GAMES, game_class
from trickgym.sim.features import FEATURE_COLUMNS

N = 900  # rows per game: enough for every contract to pass the plots' 30-deal rule

CONTRACTS = {  # what a deal's rows say was played; None: nobody declared
    "solowhist": {"Passed out": None, "Prop & Cop": 0.5, "Solo": 0.3, "Misère": 0.1,
                  "Abundance": 0.1},
    "troggu": {"Misère": None, "Tapp": 0.7, "Solo": 0.3},
    "pinochle": {"250-290": 0.7, "300-340": 0.3},
}  # fmt: skip


def _common(rng, n_seats: int) -> dict:
    """Columns every game's rows have: deal, dealer, hand features (random, -1 when undeclared)."""
    return {"deal": np.arange(N), "dealer": rng.integers(0, n_seats, N)}


def _bid_rows(game: str, seed: int = 0) -> pd.DataFrame:
    """Rows shaped like ``simulate(game)`` for a game with an auction."""
    rng = np.random.default_rng(seed)
    seats = 5 if game == "troggu" else 4
    names = list(CONTRACTS[game])
    weights = np.array([0.1 if w is None else w for w in CONTRACTS[game].values()])
    contract = rng.choice(names, N, p=weights / weights.sum())
    undeclared = np.isin(contract, [k for k, w in CONTRACTS[game].items() if w is None])
    declarer = np.where(undeclared, -1, rng.integers(0, seats, N))
    frame = _common(rng, seats) | {
        "contract": pd.Categorical(contract, categories=names),
        "declarer": declarer,
        "made": (declarer >= 0) & (rng.random(N) < 0.6),
    }
    for column in FEATURE_COLUMNS[game]:
        frame[column] = np.where(declarer >= 0, rng.integers(0, 8, N), -1)
    if game == "pinochle":
        scores = {f"score_{team}": rng.integers(-300, 300, N) for team in ("ns", "ew")}
        frame |= {"bid": 250 + 10 * rng.integers(0, 10, N), "meld_ns": rng.integers(0, 90, N)}
        frame |= scores
        frame["hf_meld"] = rng.integers(0, 300, N)
    else:
        frame |= {f"payoff_{s}": rng.integers(-30, 30, N) for s in range(seats)}
    if game == "solowhist":
        frame |= {"turn_up": rng.integers(0, 52, N), "declarer_tricks": rng.integers(0, 14, N)}
        frame["dd_made"] = pd.array(np.where(rng.random(N) < 0.1, None, rng.random(N) < 0.7),
                                    dtype="boolean")  # fmt: skip
    if game == "troggu":
        frame |= {"players": np.full(N, seats), "declarer_points": rng.integers(0, 90, N)}
    return pd.DataFrame(frame)


def _phat_rows(seed: int = 0) -> pd.DataFrame:
    """Rows shaped like ``simulate("phat", matches=...)``: deals of races to 181."""
    rng = np.random.default_rng(seed)
    game_over = np.arange(N) % 5 == 4
    frame = _common(rng, 4) | {
        "match": np.arange(N) // 10,
        "game": np.arange(N) // 5,
        "game_over": game_over,
        "winner": np.where(game_over, rng.choice(["NS", "EW"], N), None),
        "pitcher": rng.integers(0, 4, N),
        "trumps": rng.choice(list("SHDC"), N),
        "tricks": np.where(rng.random(N) < 0.95, 13, 9),
        "phat_ns": rng.integers(0, 81, N),
        "bonus_to": rng.choice(["NS", "EW", None], N),
        "score_ns": rng.integers(-100, 181, N),
        "score_ew": rng.integers(-100, 181, N),
    }
    frame["phat_ew"] = 80 - frame["phat_ns"]
    for column in FEATURE_COLUMNS["phat"]:
        frame[column] = rng.integers(0, 8, N)
    return pd.DataFrame(frame)


def _rows(game: str, seed: int = 0) -> pd.DataFrame:
    return _phat_rows(seed) if game == "phat" else _bid_rows(game, seed)


def _bids(game: str, seed: int = 0) -> pd.DataFrame:
    """The rows as bids: Phat's pitches (``pitch_frame``), the others as they are."""
    rows = _rows(game, seed)
    return A.pitch_frame(rows) if game == "phat" else rows


def _figures(game: str) -> dict:
    """Every figure the analysis draws for ``game``, by a name for the failure messages."""
    bids, other = _bids(game), _bids(game, seed=1)
    features = FEATURE_COLUMNS[game]
    model = A.out_of_fold_predictions(bids, list(features), folds=3)
    comparison = A.compare_success(bids, other, labels=("rule", "random"))
    agents = A.bid_success_by_agent({"rule": _rows(game), "random": _rows(game, seed=1)})
    figures = {
        "plot_success": A.plot_success(A.bid_success(bids)),
        "plot_expected_payoff": A.plot_expected_payoff(A.expected_payoff(bids)),
        "plot_calibration": A.plot_calibration(A.calibration_table(bids, model)),
        "plot_comparison": A.plot_comparison(comparison),
        "plot_comparison frequency": A.plot_comparison(comparison, value="freq_diff_pct"),
        "plot_agent_success": A.plot_agent_success(agents),
    }
    for feature in features:
        table = A.success_by_feature(bids, feature, bins=4 if feature == "hf_meld" else None)
        figures[f"plot_feature_success {feature}"] = A.plot_feature_success(table)
        alone = A.success_by_feature(bids, feature, by=None, bins=4)
        figures[f"plot_feature_success {feature} by=None"] = A.plot_feature_success(alone)
    if "bid" in bids.columns:
        figures["plot_made_scatter"] = A.plot_made_scatter(bids, features[0], "bid")
    if "dd_made" in bids.columns:
        figures["plot_failure_shares"] = A.plot_failure_shares(A.failure_split(bids))
    if game == "phat":
        figures["plot_race"] = A.plot_race(A.race_table(_rows(game)))
    return figures


def _off_view_ticks(fig) -> set[int]:
    """Ids of the tick labels beyond their axis' limits: matplotlib keeps them, never draws them."""
    hidden = set()
    for ax in fig.axes:
        for axis, limits in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            low, high = sorted(limits)
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if not low - 1e-9 <= tick.get_loc() <= high + 1e-9:
                    hidden |= {id(tick.label1), id(tick.label2)}
    return hidden


def _texts(fig) -> list[Text]:
    """The texts a reader sees, laid out by the Agg canvas as saving the figure does."""
    FigureCanvasAgg(fig).draw()
    hidden = _off_view_ticks(fig)
    return [t for t in fig.findobj(Text)
            if t.get_visible() and t.get_text().strip() and id(t) not in hidden]  # fmt: skip


@pytest.fixture(scope="module", params=sorted(GAMES))
def drawn(request):
    """``(game, {name: [texts]})``: every figure of one game, drawn once for every check."""
    figures = _figures(request.param)
    return request.param, {name: (fig, _texts(fig)) for name, fig in figures.items()}


def test_no_text_is_cut_off(drawn):
    _, figures = drawn
    cut = []
    for name, (fig, texts) in figures.items():
        box = fig.bbox
        renderer = fig.canvas.get_renderer()
        for text in texts:
            ext = text.get_window_extent(renderer)
            inside = box.x0 - 1 <= ext.x0 and ext.x1 <= box.x1 + 1  # a pixel for rounding
            if not (inside and box.y0 - 1 <= ext.y0 and ext.y1 <= box.y1 + 1):
                cut.append(f"{name}: {text.get_text()!r}")
    assert not cut, "texts run off the figure:\n" + "\n".join(cut)


def _has_auction(game: str) -> bool:
    """The protocol's word on it: a game whose actions include calls has an auction, and
    with it contracts and declarers (Phat's pitcher leads a card, calls nothing)."""
    options = {"players": 4} if game == "troggu" else {}  # Troggu's table size is required
    return bool(trickgym.game(game, **options).call_names)


def test_no_contract_or_declarer_where_the_game_has_none(drawn):
    game, figures = drawn
    if _has_auction(game):
        pytest.skip(f"{game} has an auction: contracts and declarers are its words")
    wrong = [
        f"{name}: {text.get_text()!r}"
        for name, (_, texts) in figures.items()
        for text in texts
        if re.search(r"\b(contracts?|declarer'?s?)\b", text.get_text(), re.I)
    ]
    assert not wrong, f"{game} has no auction, yet:\n" + "\n".join(wrong)


# snake_case: a column or parameter name (hf_trump_len, solo_min), never a word of a label.
RAW_NAME = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def test_no_raw_names_in_the_texts(drawn):
    _, figures = drawn
    raw = [
        f"{name}: {text.get_text()!r}"
        for name, (_, texts) in figures.items()
        for text in texts
        if RAW_NAME.search(text.get_text())
    ]
    assert not raw, "column or parameter names shown:\n" + "\n".join(raw)


def test_notebook_titles_are_words():
    """The titles and labels the notebooks write themselves, read in their source."""
    raw = []
    for book in sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb")):
        for cell in json.loads(book.read_text())["cells"]:
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            for m in re.finditer(r"""(?:title|label|labels)=\(?f?(["'])(.*?)\1""", source):
                if RAW_NAME.search(m.group(2)):
                    raw.append(f"{book.name}: {m.group(0)}")
    assert not raw, "notebook titles with column or parameter names:\n" + "\n".join(raw)


def _calls(game: str) -> tuple[str, ...]:
    options = {"players": 4} if game == "troggu" else {}  # Troggu's table size is required
    return trickgym.game(game, **options).call_names


@pytest.mark.parametrize("game", sorted(g for g, (cls, _) in GAMES.items() if cls.advisor))
def test_advice_legend_names_no_other_games_calls(game):
    """The advisor's legend under its table (``trickgym advise``) speaks of the game's own
    calls: Phat's trumps column is its pitch, not Solo Whist's Abundance."""
    import importlib

    part = importlib.import_module(game_class(game).advisor)
    row = {"contract": "a call", "card": "AS", "trumps": "S", "deals": 100, "played": 100,
           "made": 60, "made_pct": 60.0, "ci_low_pct": 50.0, "ci_high_pct": 70.0, "exact": 0,
           getattr(part, "MEAN", "mean_tricks"): 7.0, "expected_payoff": 3.0, "unsolved": 0,
           "no_side": 0, "best": True}  # fmt: skip
    advice = pd.DataFrame([row])
    advice.attrs.update(game=game, play="rule")
    legend = A.format_advice(advice).split("\n\n", 1)[1]
    own = {word for call in _calls(game) for word in call.split()}
    others = {word for g in GAMES for call in _calls(g) for word in call.split() if word.istitle()}
    foreign = sorted(w for w in others - own if re.search(rf"\b{re.escape(w)}\b", legend))
    assert not foreign, f"{game}'s advice legend names other games' calls {foreign}:\n{legend}"
    if not _has_auction(game):
        assert not re.search(r"\b(contracts?|declarer'?s?)\b", legend, re.I), legend
