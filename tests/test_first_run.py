"""A newcomer's first run: what the first (compiling) run says before its progress bar."""

from __future__ import annotations

import os
import subprocess
import sys

import trickgym.compiling
import trickgym.sim
from trickgym.sim import simulate


def _fresh_kernel():
    """A jitted function numba has never compiled (so calling it sends a compile event)."""
    import numba

    @numba.njit
    def fresh(x):
        return x + 1

    return fresh


def _slow_warm_up(monkeypatch, seconds: float, compile_one: bool):
    """Make the warm-up (the first ``run_chunk_rows`` call) slow, compiling or not."""
    import time

    import trickgym.sim.plan

    real = trickgym.sim.plan.run_chunk_rows
    calls = []

    def slow_first_call(*args, **kwargs):
        if not calls:
            calls.append(1)
            if compile_one:
                _fresh_kernel()(1)
            time.sleep(seconds)
        return real(*args, **kwargs)

    monkeypatch.setattr(trickgym.sim.plan, "run_chunk_rows", slow_first_call)


def test_compiling_notice_comes_before_the_progress_bar(monkeypatch, capsys):
    """The first run sat at 0% with a 10-minute ETA while numba compiled, saying nothing."""
    _slow_warm_up(monkeypatch, 0.5, compile_one=True)  # as slow as a first compile
    monkeypatch.setattr(trickgym.sim, "COMPILE_NOTICE_AFTER", 0.05)
    simulate("solowhist", deals=50, agents="rule", seed=1, progress=True)
    err = capsys.readouterr().err
    notice = err.index("numba is compiling the solowhist rules and rule agents, once: ")
    low, high = trickgym.compiling.COLD_COMPILE_SECONDS["solowhist"]  # measured, as a range
    cpu = trickgym.compiling.COLD_COMPILE_CPU["solowhist"]
    assert f"about {cpu} CPU s, {low}-{high} s (wall on 2 cores from idle to load 6" in err
    assert "bench_readme.py" in err[notice:]
    assert notice < err.index("deal/s") and "kernels ready after" in err


def test_loading_from_the_cache_is_silent_however_slow(monkeypatch, capsys):
    """The notice comes from numba's compile events: a slow load that compiles nothing is quiet."""
    _slow_warm_up(monkeypatch, 0.4, compile_one=False)
    monkeypatch.setattr(trickgym.sim, "COMPILE_NOTICE_AFTER", 0.05)
    simulate("solowhist", deals=50, agents="rule", seed=1, progress=True)
    assert "compiling" not in capsys.readouterr().err


def test_compile_watch_counts_and_names_numba_compiles():
    from trickgym.compiling import run_compiling, watch_compiles

    fresh = _fresh_kernel()
    with watch_compiles() as watch:
        fresh(1)
        fresh(2)  # compiled already: not counted again
        fresh(1.5)  # a new signature is a new compile
    assert watch.count == 2 and watch.names[0].endswith("_fresh_kernel.<locals>.fresh")
    result, done = run_compiling(lambda: fresh(3), "compiling", progress=False)
    assert result == 4 and done.count == 0 and done.seconds >= 0


def test_warm_up_does_not_change_rows():
    """The warm-up deal is discarded: the rows are those of a run without it."""
    quiet = simulate("solowhist", deals=40, agents="rule", seed=3, dealing="match")
    shown = simulate("solowhist", deals=40, agents="rule", seed=3, dealing="match", progress=True)
    assert quiet.equals(shown)


def test_forked_child_gets_a_clear_error_not_killed():
    """A child forked after the parent ran parallel kernels was killed by GNU OpenMP."""
    import os

    import numba
    import pytest

    if not hasattr(os, "fork"):
        pytest.skip("no fork() here")
    simulate("solowhist", deals=200, agents="random", seed=1)
    if numba.threading_layer() != "omp":
        pytest.skip(f"threading layer {numba.threading_layer()!r} survives fork")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report what happened through the pipe, never return to pytest
        try:
            simulate("solowhist", deals=200, agents="random", seed=2)
            message = "ran"
        except ValueError as err:
            message = str(err)
        except BaseException as err:  # pragma: no cover - reported to the parent
            message = repr(err)
        os.write(write, message.encode())
        os._exit(0)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    message = os.read(read, 10_000).decode()
    os.close(read)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, (status, message)
    assert "multiprocessing.get_context('spawn')" in message and "NUMBA_THREADING_LAYER" in message


def test_progress_bar_without_ipywidgets_is_the_text_bar(monkeypatch):
    """Notebooks printed "TqdmWarning: IProgress not found" (tqdm.auto without ipywidgets)."""
    import importlib.util
    import warnings

    import tqdm.std

    from trickgym.progress import progress_bar

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "ipywidgets" else real(name, *a),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bar = progress_bar(total=3, disable=True)
    assert type(bar) is tqdm.std.tqdm
    bar.close()


def _fresh_cache(tmp_path) -> tuple[dict, object]:
    """Environment for a subprocess with an empty numba cache (marked as tests/conftest.py does)."""
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    (cache / "trickgym-owned-cache").touch()
    return {**os.environ, "NUMBA_CACHE_DIR": str(cache), "NUMBA_OPT": "1"}, cache


WARM = """
from trickgym.warm import warm
report = warm(game="solowhist", agents=("random",), envs=False, progress=False)
print([(s.what, s.count) for s in report.steps])
"""

# numba's compile events (never sent for a kernel loaded from the cache) during a run.
COUNT_COMPILES = """
from numba.core import event
recorder = event.RecordingListener()
event.register("numba:compile", recorder)
from trickgym.sim import simulate
simulate("solowhist", deals=30, agents="random", seed=5)
print([e.data["dispatcher"].py_func.__qualname__ for _, e in recorder.buffer if e.is_start])
"""


def test_warm_fills_a_fresh_cache_and_the_next_run_compiles_nothing(tmp_path):
    """``trickgym warm`` for a cluster image: a later process loads every kernel it runs."""
    env, cache = _fresh_cache(tmp_path)
    run = [sys.executable, "-c"]
    warmed = subprocess.run([*run, WARM], env=env, capture_output=True, text=True, timeout=1200)
    assert warmed.returncode == 0, warmed.stderr
    assert warmed.stderr == ""  # progress=False: not a line
    steps = dict(eval(warmed.stdout))
    assert list(steps) == ["import trickgym.sim", "random agents"] and steps["random agents"] > 0
    assert len(list(cache.rglob("*.nbi"))) > 10
    later = subprocess.run([*run, COUNT_COMPILES], env=env, capture_output=True, text=True)
    assert later.returncode == 0, later.stderr
    assert later.stdout.strip() == "[]", f"compiled again: {later.stdout}"


def test_warm_in_process_says_nothing_without_progress(capsys):
    """A Python caller with progress=False gets the report and no output; envs are stepped."""
    from trickgym.warm import warm

    report = warm(game="solowhist", agents=["random"], progress=False)
    assert [s.what for s in report.steps] == [
        "import trickgym.sim",
        "random agents",
        "single env",
        "vector env",
    ]
    assert capsys.readouterr() == ("", "")
    text = report.format()
    assert text.splitlines()[-1].startswith(f"total: {report.count} functions compiled in")
    assert "solowhist: " in text and "  vector env" in text


def test_a_feature_compile_says_which_feature(capsys):
    """Issue 43: a notebook's dealing="match" run said "compiling the solowhist rules" again."""
    from trickgym.compiling import FEATURE_COMPILE_SECONDS, announce
    from trickgym.sim import RunSpec, _features

    spec = RunSpec("solowhist", 16, "rule", 1, dealing="match").plan
    assert _features(spec) == ("match",)
    announce(spec.game, spec.agents, _features(spec))
    err = capsys.readouterr().err
    low, high = FEATURE_COMPILE_SECONDS[("solowhist", "match")]
    assert "compiling BGA match dealing for solowhist, once: " in err
    assert f"{low}-{high} s, plus " in err and "rules and rule agents" not in err
