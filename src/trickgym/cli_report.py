"""``trickgym report DATASET``: a self-contained HTML report of a simulation dataset.

Example::

    trickgym simulate --game solowhist --deals 100000 --agents rule --out runs/sw
    trickgym report runs/sw --out sw.html
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["add_parser"]


def _default_out(dataset: str) -> Path:
    """``results.parquet`` -> ``results.html``; a folder ``runs/a`` -> ``runs/a.html``."""
    path = Path(dataset.rstrip("/\\"))
    return path.with_suffix(".html") if path.suffix == ".parquet" else Path(f"{path}.html")


def _report(args) -> int:
    import matplotlib

    matplotlib.use("Agg")  # figures are written to PNG, never shown
    from .analysis import load_dataset, write_report

    out = Path(args.out) if args.out else _default_out(args.dataset)
    if not out.parent.is_dir():
        raise ValueError(f"--out {str(out)!r}: folder {str(out.parent)!r} does not exist")
    if args.folds < 2:
        raise ValueError(f"--folds must be >= 2, got {args.folds}")
    df = load_dataset(args.dataset)
    write_report(df, out, title=args.title, folds=args.folds)
    print(f"{len(df):,} deals from {args.dataset}; wrote {out}")
    return 0


def add_parser(sub) -> None:
    """Register the ``report`` subcommand on the ``trickgym`` parser's subparsers."""
    from .cli_common import add_parser

    rep = add_parser(
        sub, "report", help="write an HTML report (tables and plots) of a simulation dataset"
    )
    rep.add_argument(
        "dataset", help="a Parquet file, or a dataset folder written by simulate --out"
    )
    rep.add_argument("--out", default=None, help="HTML file to write (default: DATASET.html)")
    rep.add_argument("--title", default=None, help="the report's title (default: from the dataset)")
    rep.add_argument("--folds", type=int, default=5, help="folds of the calibration model")
    rep.set_defaults(run=_report)
