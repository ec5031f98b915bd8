"""The progress bar of long runs: one choice of tqdm for every caller.

``tqdm.auto`` picks the notebook widget inside Jupyter, but without
``ipywidgets`` it warns ("TqdmWarning: IProgress not found") on every run.
There the plain text bar is used instead; a terminal gets the text bar anyway.
"""

from __future__ import annotations

import importlib.util

__all__ = ["progress_bar"]


def progress_bar(**kwargs):
    """A tqdm bar: the notebook widget if ``ipywidgets`` is installed, else the text bar."""
    if importlib.util.find_spec("ipywidgets") is not None:
        from tqdm.auto import tqdm
    else:
        from tqdm.std import tqdm
    return tqdm(**kwargs)
