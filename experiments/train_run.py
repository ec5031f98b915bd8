"""What the Solo Whist training scripts share: their start, learning-curve files and tournaments.

``train_dmc_solowhist.py`` and ``train_oracle_solowhist.py`` import it
(Python puts the script's folder on the path).
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def start(parse_args, argv=None):
    """``(args, out)``: the parsed options and the output folder ``--out``, made.

    The checkout's ``src`` goes first on the path, so a script runs from a
    checkout without an install.
    """
    sys.path.insert(0, str(ROOT / "src"))
    args = parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    return args, out


def write_curve(out: Path, rows: list[dict], fields: list[str], draw) -> None:
    """``curve.csv`` (``rows`` under the columns ``fields``) and, with matplotlib, ``curve.png``.

    ``draw(plt)`` draws the figure and returns it.
    """
    with open(out / "curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields, restval="")
        writer.writeheader()
        writer.writerows(rows)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - matplotlib is optional
        return
    fig = draw(plt)
    fig.tight_layout()
    fig.savefig(out / "curve.png", dpi=100)
    plt.close(fig)


def play_tournaments(out: Path, args, tournaments, played) -> None:
    """With ``--tournament-deals N``: ``tournaments(played, N, seed)`` into ``tournament.txt``."""
    if args.tournament_deals:
        text = tournaments(played, args.tournament_deals, args.seed + 30_000)
        (out / "tournament.txt").write_text(text)
