"""Progress by default where someone watches (a terminal, a notebook), silence when asked."""

from __future__ import annotations

import io
import sys
import types

import pytest

from trickgym.progress import interactive, want_progress


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_auto_is_off_under_captured_stderr(capsys):
    """pytest's captured stderr (like a pipe or a log file) is nobody's screen."""
    assert not sys.stderr.isatty()
    assert interactive() is False and want_progress(None) is False


def test_auto_is_on_in_a_terminal(monkeypatch):
    monkeypatch.setattr(sys, "stderr", _Terminal())
    assert want_progress(None) is True
    assert want_progress(False) is False and want_progress(True) is True


def test_auto_is_on_in_a_notebook(monkeypatch):
    """A Jupyter kernel's IPython shell has a ``kernel``; a terminal IPython's has not."""
    shell = types.SimpleNamespace(kernel=object())
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    assert want_progress(None) is True
    del shell.kernel
    assert want_progress(None) is False


def test_progress_bar_by_default_in_a_terminal_and_never_with_false(monkeypatch):
    """simulate() defaulted to progress=False: a dd=True run sat silent for 19 minutes."""
    from trickgym.sim import simulate

    screen = _Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    simulate("solowhist", deals=40, agents="random", seed=1)
    assert "deal/s" in screen.getvalue()
    screen.seek(0), screen.truncate()
    simulate("solowhist", deals=40, agents="random", seed=1, progress=False)
    assert screen.getvalue() == ""


def test_explicit_true_shows_where_auto_would_not(capsys):
    from trickgym.sim import simulate

    simulate("solowhist", deals=40, agents="random", seed=1)
    assert capsys.readouterr().err == ""
    simulate("solowhist", deals=40, agents="random", seed=1, progress=True)
    assert "deal/s" in capsys.readouterr().err


def _long_calls():
    import trickgym.analysis as ta
    from trickgym.duplicate import tournament
    from trickgym.sim import simulate
    from trickgym.warm import warm

    return {
        "simulate": lambda p: simulate("solowhist", deals=10, progress=p),
        "tournament": lambda p: tournament("solowhist", ["rule", "random"], 10, progress=p),
        "hand_odds": lambda p: ta.hand_odds(
            "solowhist", "AKQJ5.K2.A7.9832", turn_up="2S", seat=1, dealer=0, progress=p
        ),
        "warm": lambda p: warm(game="solowhist", progress=p),
    }


@pytest.mark.parametrize("name", ["simulate", "tournament", "hand_odds", "warm"])
def test_every_long_call_defaults_to_auto_and_checks_the_flag(name):
    """Each long call takes ``progress`` through the one rule: ``None`` auto, ``1`` refused."""
    import inspect

    import trickgym.analysis as ta
    from trickgym.duplicate import tournament
    from trickgym.warm import warm

    if name == "simulate":  # simulate's keywords build a RunSpec: the default is its Output's
        from trickgym.sim import Output

        assert Output().progress is None
    else:
        func = {"tournament": tournament, "hand_odds": ta.hand_odds}.get(name, warm)
        assert inspect.signature(func).parameters["progress"].default is None
    with pytest.raises(ValueError, match=r"progress must be True, False or None .*got 1"):
        _long_calls()[name](1)


def test_notebook_bar_without_experimental_warning(monkeypatch):
    """Issue 43: a notebook printed a TqdmExperimentalWarning (tqdm.auto) on every run."""
    import importlib.util
    import sys
    import types
    import warnings

    import trickgym.progress as progress

    class Shell:  # what a Jupyter kernel's IPython shell looks like to both tqdm and us
        config = {"IPKernelApp": {}}
        kernel = object()

    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=Shell))
    for name in ("tqdm.auto", "tqdm.autonotebook"):  # they choose once, when imported
        monkeypatch.delitem(sys.modules, name, raising=False)
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: object() if name == "ipywidgets" else find_spec(name, *a),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bar = progress.progress_bar(total=3, disable=True)
        bar.close()
    assert type(bar).__module__ == "tqdm.notebook"
