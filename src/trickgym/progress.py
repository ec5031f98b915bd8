"""The progress bar of long runs: one choice of tqdm, and one rule for when to show it.

``progress=None`` (the default of every long call: ``simulate``,
``tournament``, ``hand_odds``, ``warm``) means *show progress where someone
watches*: when stderr is a terminal, or inside a Jupyter notebook. Under a
test runner, a pipe or a log file it stays quiet; ``progress=True`` shows it
anyway, ``progress=False`` never.

Inside Jupyter with ``ipywidgets`` the bar is tqdm's notebook widget;
without ``ipywidgets`` (``tqdm.auto`` would warn "IProgress not found" on
every run) and everywhere else it is the plain text bar.
"""

from __future__ import annotations

import importlib.util
import sys
from contextlib import contextmanager
from contextvars import ContextVar

from .checks import check_flag

__all__ = ["interactive", "labelled", "progress_bar", "want_progress"]

# The label of the bars drawn inside a ``labelled`` block (a tournament's seating).
_LABEL: ContextVar[str | None] = ContextVar("trickgym_bar_label", default=None)


@contextmanager
def labelled(text: str):
    """Label every progress bar drawn inside the block with ``text`` (unless it has its own).

    A call that runs several simulations (a tournament: one per seating)
    labels each one's bar, so that two bars on the screen say which is which.
    """
    token = _LABEL.set(text)
    try:
        yield
    finally:
        _LABEL.reset(token)


def _in_notebook() -> bool:
    """Whether this process is a Jupyter kernel (IPython's shell there has a ``kernel``)."""
    ipython = sys.modules.get("IPython")
    get = getattr(ipython, "get_ipython", None)
    try:
        shell = get() if get is not None else None
    except Exception:  # a half-imported IPython: not a notebook we can draw in
        return False
    return shell is not None and hasattr(shell, "kernel")


def interactive(stream=None) -> bool:
    """Whether someone watches ``stream`` (default ``sys.stderr``): a terminal or a notebook."""
    if _in_notebook():
        return True
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):  # a closed or detached stream
        return False


def want_progress(progress, name: str = "progress") -> bool:
    """``progress`` as a bool: ``None`` is :func:`interactive` (auto), else ``True``/``False``.

    Anything else (``1``, ``"yes"``) raises ``ValueError`` naming ``name``.
    """
    if progress is None:
        return interactive()

    try:
        return check_flag(name, progress)
    except ValueError:
        raise ValueError(
            f"{name} must be True, False or None (auto: shown in a terminal or a notebook), "
            f"got {progress!r}"
        ) from None


def progress_bar(**kwargs):
    """A tqdm bar: in a notebook with ``ipywidgets`` its widget, else the text bar.

    The widget is imported from ``tqdm.notebook`` itself: ``tqdm.auto`` would
    pick the same one but warn ``TqdmExperimentalWarning`` on every run.
    """
    # lazy: tqdm is slow to import, and which bar it is depends on where we run
    if _in_notebook() and importlib.util.find_spec("ipywidgets") is not None:
        from tqdm.notebook import tqdm
    else:
        from tqdm.std import tqdm
    if kwargs.get("desc") is None and _LABEL.get() is not None:
        kwargs["desc"] = _LABEL.get()
    return tqdm(**kwargs)
