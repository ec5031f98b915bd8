"""Audit: bad inputs over every public entry point, classified as the faults issue counts them.

Each case calls one public function with one bad value (every other argument
valid and small) and is classified:

- ``ok``: a ``ValueError`` whose message names the parameter and the value;
- ``unclear``: a ``ValueError`` or ``TypeError`` that does not name both;
- ``crash``: any other exception (``IndexError``, ``KeyError``, ``OverflowError``,
  numba errors ...) or a dead worker process;
- ``silent``: the call returned (or was still running after the timeout).

Cases run in a worker process that is replaced after a timeout or a crash,
so one hang does not stop the audit. Run by hand, never by the test suite::

    python benchmarks/audit_inputs.py                 # all cases, summary + non-ok cases
    python benchmarks/audit_inputs.py --only simulate --show all
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import sys
import tempfile
import time
from collections import Counter

import numpy as np

HUGE = [2**62, 2**63, 2**64, 2**70]
INT_BAD = [True, False, 1.5, 2.0, "1", "", -1, *HUGE, math.nan, math.inf, [1], np.float64(3.0)]
COUNT_BAD = [*INT_BAD, 0]
SEED_BAD = [True, 1.5, "1", -1, 2**64, 2**70, math.nan, [1], np.float64(1.0)]
FLAG_BAD = ["no", "yes", 0, 1, 2, None, "True", 1.0]
NAME_BAD = ["", "nonsense", 5, True, ["x"], 1.5]
REAL_BAD = [math.nan, math.inf, -math.inf, -1.0, "1", True, 1e300, None]

GAMES = {
    "solowhist": {},
    "troggu": {"players": 5},
    "phat": {},
    "pinochle": {},
}
ENV_IDS = {
    "solowhist": "trickgym/SoloWhist-v0",
    "troggu": "trickgym/Troggu-v0",
    "phat": "trickgym/Phat-v0",
    "pinochle": "trickgym/Pinochle-v0",
}


def _sim_base(game):
    if game == "phat":
        return {"game": game, "matches": 2, **GAMES[game]}
    return {"game": game, "deals": 8, **GAMES[game]}


def cases():
    """``[(group, label, param, value, thunk)]``: one bad value per call."""
    out = []

    def add(group, label, param, value, fn):
        out.append((group, label, param, value, fn))

    def add_each(group, head, bad, call):
        """``add`` each bad value of each parameter of ``bad``: ``call(name, value)``.

        Labelled ``f"{head}{name}=...)"``; ``call`` must bind its loop variables now
        (default arguments): it runs after the loops are done.
        """
        for name, values in bad.items():
            for v in values:
                add(group, f"{head}{name}=...)", name, v, lambda name=name, v=v: call(name, v))

    # --- games and their options ------------------------------------------------------
    import trickgym

    for g in GAMES:
        options = trickgym.game(g, **GAMES[g]).options
        for name, default in vars(options).items():
            if isinstance(default, bool):
                values = FLAG_BAD
            elif isinstance(default, str):
                values = NAME_BAD
            else:
                values = [*INT_BAD, "nonsense"] + ([] if default is None else [None])
            for v in values:
                add(
                    "game",
                    f"game({g!r}, {name}=...)",
                    name,
                    v,
                    lambda g=g, name=name, v=v: trickgym.game(g, **{**GAMES[g], name: v}),
                )
        for v in SEED_BAD:
            add("deal", f"{g}.deal(seed=...)", "seed", v, lambda g=g, v=v: _game(g).deal(seed=v))
        for v in [5, 1.5, [1, 2], "AS", True]:
            add("deal", f"{g}.deal(hands=...)", "hands", v, lambda g=g, v=v: _deal_hands(g, v))
        seat = "pitcher" if g == "phat" else "dealer"
        for v in [-1, 9, 1.5, "0", True, 2**64]:
            add(
                "deal",
                f"{g}.deal({seat}=...)",
                seat,
                v,
                lambda g=g, seat=seat, v=v: _game(g).deal(1, **{seat: v}),
            )
        for v in [-1, 2**70, 1.5, "x", True, None, 10_000]:
            add("state", f"{g} state.apply(...)", "action", v, lambda g=g, v=v: _state(g).apply(v))
        for v in [-1, 9, 1.5, "0", True, None]:
            add(
                "state", f"{g} state.observe(...)", "seat", v, lambda g=g, v=v: _state(g).observe(v)
            )
        add_each(
            "state",
            f"{g}.new_match(",
            {
                "seed": [-1, 1.5, "x", True, None, 2**64],
                "num_deals": [0, "x", 1.5, True, 2**70],
                "dealer": [-2, 9, "x", None, 1.5],
            },
            lambda name, v, g=g: _game(g).new_match(**{"seed": 1, name: v}),
        )
        add_each(
            "state",
            f"{g}.render(",
            {
                "viewer": [-1, 9, "x", 1.5, True],
                "symbols": FLAG_BAD,
                "color": FLAG_BAD,
                "mark_legal": FLAG_BAD,
            },
            lambda name, v, g=g: _game(g).render(_state(g), **{name: v}),
        )
        for v in [-1, 2**70, 1.5, "x", None]:
            add(
                "state",
                f"{g} state.action_name(...)",
                "action",
                v,
                lambda g=g, v=v: _state(g).action_name(v),
            )

    # --- simulate ---------------------------------------------------------------------
    from trickgym.sim import simulate

    for g in GAMES:
        base = _sim_base(g)
        unit = "matches" if g == "phat" else "deals"
        params = {
            unit: COUNT_BAD,
            "seed": SEED_BAD,
            "first": [v for v in INT_BAD if v != 2**62],  # 2**62 is a valid first deal
            "chunk": COUNT_BAD,
            "threads": [*COUNT_BAD],
            "progress": FLAG_BAD,
            "resume": FLAG_BAD,
            "dd": FLAG_BAD,
            "dealing": NAME_BAD,
            "pack": NAME_BAD,
            "backend": NAME_BAD,
            "agents": [*NAME_BAD, [], ["rule"] * 9, [5, 6, 7, 8], None],
            "columns": ["contract", [], ["nonsense"], 5, [1]],
            "on_chunk": [5, "x", True],
            "dd_max_nodes": [0, -1, 1.5, "1", True, 2**70],
            "rule_options": [5, "x", [1]],
        }
        add_each(
            "simulate",
            f"simulate({g}, ",
            params,
            lambda name, v, base=base: simulate(**{**base, name: v}),
        )
        add(
            "simulate",
            f"simulate({g}, first=2**63-1)",
            "first",
            2**63 - 1,
            lambda base=base: simulate(**{**base, "first": 2**63 - 1}),
        )
    for v in ["", "nonsense", 5, None]:
        add("simulate", "simulate(game=...)", "game", v, lambda v=v: simulate(game=v, deals=8))

    # --- tournament -------------------------------------------------------------------
    for g in GAMES:
        base = {"agents": ["rule", "random"], "deals": 4, **GAMES[g]}
        add_each(
            "tournament",
            f"tournament({g}, ",
            {
                "deals": COUNT_BAD,
                "seed": SEED_BAD,
                "threads": COUNT_BAD,
                "progress": FLAG_BAD,
                "agents": [*NAME_BAD, ["rule"], [], "rule,", None],
            },
            lambda name, v, g=g, base=base: trickgym.tournament(g, **{**base, name: v}),
        )

    # --- agents -----------------------------------------------------------------------
    from trickgym.agents import make_agent

    for g in GAMES:
        for kind, options in {
            "pimc": ["samples", "rollouts", "max_nodes", "seed"],
            "ismcts": ["iterations", "seed"],
        }.items():
            for name in options:
                # None is each option's documented default
                for v in SEED_BAD if name == "seed" else COUNT_BAD:
                    add(
                        "agents",
                        f"make_agent({kind!r}, {g}, {name}=...)",
                        name,
                        v,
                        lambda g=g, kind=kind, name=name, v=v: make_agent(
                            kind, _game(g), **{name: v}
                        ),
                    )
        for v in [*NAME_BAD, None]:
            add(
                "agents",
                f"make_agent(..., {g})",
                "agent",
                v,
                lambda g=g, v=v: make_agent(v, _game(g)),
            )
        for kind in ["pimc", "ismcts", "learnt"]:
            other = "phat" if g != "phat" else "solowhist"
            add(
                "agents",
                f"{kind} for {g} given a {other} observation",
                "observation",
                other,
                lambda g=g, kind=kind, other=other: _act_other_game(kind, g, other),
            )

    # --- solvers and advisor ----------------------------------------------------------
    from trickgym import solvers

    for g in GAMES:
        for fn in ["solve", "card_values"]:
            for v in [*REAL_BAD, 0, 2**70, 1000000000000.0]:
                add(
                    "solvers",
                    f"solvers.{fn}({g}, tt_mb=...)",
                    "tt_mb",
                    v,
                    lambda g=g, fn=fn, v=v: getattr(solvers, fn)(_play_state(g), tt_mb=v),
                )
            for v in [0, -1, 1.5, "1", True, 2**70]:
                add(
                    "solvers",
                    f"solvers.{fn}({g}, max_nodes=...)",
                    "max_nodes",
                    v,
                    lambda g=g, fn=fn, v=v: getattr(solvers, fn)(_play_state(g), max_nodes=v),
                )
        for v in ["state", 5, None, [1]]:
            add("solvers", f"solvers.solve({v!r})", "state", v, lambda v=v: solvers.solve(v))
    from trickgym.advisor.advise import advise_state

    for v in ["state", 5, None]:
        add("advisor", f"advise_state({v!r})", "state", v, lambda v=v: advise_state(v))
    add_each(
        "advisor",
        "advise_state(solowhist, ",
        {
            "deals": COUNT_BAD,
            "seed": SEED_BAD,
            "play": NAME_BAD,
            "threads": COUNT_BAD,
            "progress": FLAG_BAD,
            "max_nodes": [0, -1, 1.5, "1", True, 2**70],
        },
        lambda name, v: advise_state(_game("solowhist").deal(1), **{name: v}),
    )

    # --- datasets ---------------------------------------------------------------------

    add_each(
        "dataset",
        "read_dataset(",
        {
            "chunks": [[1.0], [-1], [2**70], ["0"], 5, [True]],
            "columns": ["contract", [5], ["nonsense"]],
            "partial": FLAG_BAD,
        },
        _read,
    )
    for v in ["/proc/trickgym", "/dev/null", 5, True]:
        add(
            "dataset", f"simulate(out={v!r})", "out", v, lambda v=v: simulate("solowhist", 8, out=v)
        )

    # --- analysis (the notebook functions) --------------------------------------------
    import trickgym.analysis as A

    frame_takers = [
        "bid_counts", "bid_success", "declared", "declarer_payoff", "detect_game",
        "expected_payoff", "failure_counts", "failure_split", "feature_columns",
        "success_by_position", "seat_position", "html_report", "phat_summary", "race_table",
        "pitch_frame", "calibration_table",
    ]  # fmt: skip
    for name in frame_takers:
        for v in [None, 5, "rows", [1, 2]]:
            add(
                "analysis",
                f"analysis.{name}(df=...)",
                "df",
                v,
                lambda n=name, v=v: getattr(A, n)(v),
            )
    for name in ["bid_counts", "bid_success", "expected_payoff", "failure_counts", "failure_split",
                 "success_by_position"]:  # fmt: skip
        for v in ["nope", 5, ["nope"], None]:
            add(
                "analysis",
                f"analysis.{name}(by=...)",
                "by",
                v,
                lambda n=name, v=v: getattr(A, n)(_rows("solowhist"), by=v),
            )
    for param, values in {
        "feature": ["nope", 5, None],
        "min_count": [-1, 1.5, "1", True],
        "bins": [-1, 0, "x", 1.5],
        "drop_missing": FLAG_BAD,
    }.items():
        kwargs = {"feature": "hf_trump_len"}
        for v in values:
            add(
                "analysis",
                f"analysis.success_by_feature({param}=...)",
                param,
                v,
                lambda param=param, v=v, kw=kwargs: A.success_by_feature(
                    _rows("solowhist"), **{**kw, param: v}
                ),
            )
    for param, values in {
        "successes": [-1, 1.5, "1", True, 11, math.inf],
        "trials": [-1, 1.5, "1", True, math.inf],
        "z": [-1.0, math.nan, math.inf, "1", 0],
    }.items():
        for v in values:
            kwargs = {"successes": 5, "trials": 10, param: v}
            add(
                "analysis",
                f"wilson_interval({param}=...)",
                param,
                v,
                lambda kw=kwargs: A.wilson_interval(**kw),
            )
    for v in [None, 5, "", "/nonexistent/folder", True]:
        add("analysis", "load_dataset(path=...)", "path", v, lambda v=v: A.load_dataset(v))
    for param, values in {
        "hand": ["", "ZZZ", 5, None, "AKQJ5.K2.A7"],
        "seat": [-1, 4, 1.5, "0", True],
        "deals": COUNT_BAD,
        "play": NAME_BAD,
        "seed": SEED_BAD,
        "turn_up": ["", "ZZ", 52, "1S"],
    }.items():
        for v in values:
            kwargs = {"hand": "AKQJ5.K2.A7.9832", "turn_up": "2S", "deals": 8, param: v}
            add(
                "analysis",
                f"hand_odds(solowhist, {param}=...)",
                param,
                v,
                lambda kw=kwargs: A.hand_odds("solowhist", **kw),
            )
    for param, values in {"folds": [0, -1, 1.5, "5", True, 2**70], "title": [5, ["x"]]}.items():
        for v in values:
            add(
                "analysis",
                f"html_report({param}=...)",
                param,
                v,
                lambda param=param, v=v: A.html_report(_rows("solowhist"), **{param: v}),
            )

    # --- the command line -------------------------------------------------------------
    cli_bad = ["", "x", "-1", "1.5", "0", str(2**64), str(2**70), "nan", "inf"]
    for command, base, flags in (
        ("simulate", ["--game", "solowhist", "--deals", "8", "--quiet"],
         ["--deals", "--seed", "--threads", "--chunk", "--agents", "--game", "--dealing",
          "--pack", "--dd-max-nodes", "--backend", "--out"]),
        ("simulate", ["--game", "troggu", "--deals", "8", "--quiet"], ["--players"]),
        ("simulate", ["--game", "phat", "--matches", "2", "--quiet"], ["--matches"]),
        ("tournament", ["--game", "solowhist", "--agents", "rule,random", "--deals", "2",
                        "--quiet"], ["--deals", "--seed", "--threads", "--agents"]),
        ("advise", ["--game", "solowhist", "--hand", "AKQJ5.K2.A7.9832", "--turn-up", "2S",
                    "--deals", "8"],
         ["--seat", "--dealer", "--deals", "--seed", "--threads", "--max-nodes", "--play"]),
    ):  # fmt: skip
        for flag in flags:
            name = flag.lstrip("-").replace("-", "_")
            values = [v for v in cli_bad if not (name in ("seed", "seat", "dealer") and v == "0")]
            if flag == "--out":  # paths that cannot be a dataset folder
                values = ["", "/proc/trickgym", "/dev/null", "/dev/null/run"]
            for v in values:
                argv = [command, *base, flag, v]
                add("cli", f"trickgym {command} {flag}", name, v, lambda argv=argv: _cli(argv))

    # --- envs -------------------------------------------------------------------------
    for g in GAMES:
        for v in SEED_BAD:
            add(
                "env", f"{g} env.reset(seed=...)", "seed", v, lambda g=g, v=v: _env(g).reset(seed=v)
            )
            add(
                "env", f"{g} vec.reset(seed=...)", "seed", v, lambda g=g, v=v: _vec(g).reset(seed=v)
            )
            add(
                "env", f"{g} aec.reset(seed=...)", "seed", v, lambda g=g, v=v: _aec(g).reset(seed=v)
            )
        for mode in ["terminate", "raise"]:
            for v in [2**70, -1, 10_000, 1.5, "1", None, True]:
                add(
                    "env",
                    f"{g} env.step(...) illegal_action={mode}",
                    "action",
                    v,
                    lambda g=g, mode=mode, v=v: _step(g, mode, v),
                )
        make_bad = {
            "gym.make": (
                _env,
                {
                    "seat": [-1, 9, 1.5, "0", True, None],
                    "opponents": [*NAME_BAD, None],
                    "illegal_action": NAME_BAD,
                    "illegal_penalty": REAL_BAD,
                    "render_mode": ["", "x", 5],
                    "obs_mode": NAME_BAD,
                },
            ),
            "make_vec": (
                _vec,
                {
                    "num_envs": [*COUNT_BAD, 2**40],
                    "copy": FLAG_BAD,
                    "parallel": ["no", 0, 1, 2],
                    "seat": [-1, 9, 1.5, True],
                    "autoreset_mode": ["", "x", 5],
                },
            ),
        }
        for maker, (make, bad) in make_bad.items():
            call = lambda name, v, make=make, g=g: make(g, **{name: v})  # noqa: E731
            add_each("env", f"{maker}({g}, ", bad, call)
        for v in [-1, 2, 2**70, 1.5, "0", True]:
            add("env", f"{g} vec.state(...)", "i", v, lambda g=g, v=v: _vec(g, num_envs=2).state(v))
        for v in [2**70, -1, 10_000, 1.5, "1"]:
            add("env", f"{g} vec.step([...])", "action", v, lambda g=g, v=v: _vec_step(g, v))
            add("env", f"{g} aec.step(...)", "action", v, lambda g=g, v=v: _aec_step(g, v))
    return out


# --- helpers the thunks call (valid everything else) --------------------------------------
def _game(g):
    import trickgym

    return trickgym.game(g, **GAMES[g])


def _deal_hands(g, hands):
    return _game(g).deal(1, hands=hands, **{"pitcher" if g == "phat" else "dealer": 0})


def _state(g):
    return _game(g).deal(1)


def _play_state(g):
    """A state in the card play near its end, reached by legal moves (small solves)."""
    state = _game(g).deal(3)
    game = _game(g)
    while not state.is_over and not _late(state, game):
        state.apply(state.legal_actions()[0])
    return state


def _late(state, game):
    record = state.record
    try:
        return (
            int(record["phase"]) == int(game.play_phase)
            and int(np.bitwise_count(np.asarray(record["hands"]).astype(np.uint64)).sum()) <= 16
        )
    except Exception:
        return False


def _act_other_game(kind, g, other):
    from trickgym.agents import make_agent

    agent = make_agent(kind, _game(g), **({"samples": 2} if kind == "pimc" else {}))
    state = _game(other).deal(1)
    record = np.zeros(1, dtype=state.game.obs_dtype)
    return agent.act_record(record, state.legal_action_mask())


_DATASET = None


def _read(name, value):
    global _DATASET
    from trickgym.sim import simulate
    from trickgym.sim.dataset import read_dataset

    if _DATASET is None:
        _DATASET = tempfile.mkdtemp() + "/run"
        simulate("solowhist", 64, "rule", chunk=16, out=_DATASET)
    return read_dataset(_DATASET, **{name: value})


_ROWS = {}


def _rows(g):
    """A small simulated frame of ``g`` (rule agents), made once per worker."""
    if g not in _ROWS:
        from trickgym.sim import simulate

        _ROWS[g] = simulate(g, 300, "rule", seed=1, **GAMES[g])
    return _ROWS[g]


def _cli(argv):
    """Run the CLI; a non-zero exit becomes a ValueError of what it printed (0: returned)."""
    import contextlib
    import io

    from trickgym.cli import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exit_:
            code = exit_.code
    text = err.getvalue()
    if code in (0, None):
        return code
    if "Traceback" in text:
        raise RuntimeError(text)
    raise ValueError(text.strip().splitlines()[-1] if text.strip() else f"exit {code}")


def _env(g, **kwargs):
    import gymnasium as gym

    return gym.make(ENV_IDS[g], **{**GAMES[g], **kwargs})


def _vec(g, num_envs=2, **kwargs):
    import gymnasium as gym

    return gym.make_vec(
        ENV_IDS[g],
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        **{**GAMES[g], **kwargs},
    )


def _aec(g):
    from trickgym.envs.pettingzoo import env

    return env(g, **GAMES[g])


def _step(g, mode, action):
    env = _env(g, illegal_action=mode)
    env.reset(seed=1)
    return env.step(action)


def _vec_step(g, action):
    vec = _vec(g)
    vec.reset(seed=1)
    return vec.step(np.array([action, action], dtype=object))


def _aec_step(g, action):
    env = _aec(g)
    env.reset(seed=1)
    return env.step(action)


# --- the worker and the classification ---------------------------------------------------
def _names(message: str, param: str, value) -> bool:
    """Whether ``message`` names the parameter (or its singular) and the value (or its bad item)."""
    words = message.replace("_", " ").replace("-", " ")
    stem = param.replace("_", " ")
    if stem not in words and stem.rstrip("s") not in words:
        return False
    if isinstance(value, list) and value:
        return any(_names(message, param, v) for v in value) or repr(value) in message
    if isinstance(value, str):
        return repr(value) in message or (value != "" and value in message)
    texts = {repr(value), str(value)}
    if isinstance(value, float | np.floating) and not math.isfinite(value):
        texts |= {"nan", "inf"}
    return any(t in message for t in texts)


def _worker(conn):
    table = cases()
    conn.send(len(table))
    while True:
        index = conn.recv()
        if index is None:
            return
        _group, _label, param, value, fn = table[index]
        try:
            fn()
            conn.send(("silent", "returned"))
        except ValueError as err:
            message = str(err)
            conn.send(
                ("ok" if _names(message, param, value) else "unclear", f"ValueError: {message}")
            )
        except TypeError as err:
            conn.send(("unclear", f"TypeError: {err}"))
        except BaseException as err:
            conn.send(("crash", f"{type(err).__name__}: {err}"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only", help="run only cases of these groups, comma-separated (game,simulate,env,...)"
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per case")
    parser.add_argument("--show", choices=["bad", "all"], default="bad")
    args = parser.parse_args(argv)

    table = cases()
    groups = None if args.only is None else set(args.only.split(","))
    picked = [i for i, c in enumerate(table) if groups is None or c[0] in groups]
    ctx = mp.get_context("spawn")
    results = {}
    conn = proc = None
    start = time.perf_counter()
    for n, index in enumerate(picked):
        if proc is None:
            conn, child = ctx.Pipe()
            proc = ctx.Process(target=_worker, args=(child,), daemon=True)
            proc.start()
            conn.recv()
        conn.send(index)
        if conn.poll(args.timeout):
            try:
                results[index] = conn.recv()
            except EOFError:
                results[index] = ("crash", "worker died")
                proc = None
        else:
            results[index] = ("silent", f"still running after {args.timeout:g} s")
            proc.kill()
            proc = None
        if proc is not None and not proc.is_alive():
            results[index] = ("crash", f"worker died (exit {proc.exitcode})")
            proc = None
        print(f"\r{n + 1}/{len(picked)}", end="", file=sys.stderr, flush=True)
    if proc is not None:
        conn.send(None)
    print(file=sys.stderr)
    by_group = Counter()
    totals = Counter()
    for index, (kind, message) in results.items():
        group, label, _param, value, _ = table[index]
        by_group[group, kind] += 1
        totals[kind] += 1
        if args.show == "all" or kind != "ok":
            print(f"{kind:8s} {label} = {value!r}: {message[:200]}")
    print()
    for group in dict.fromkeys(table[i][0] for i in picked):
        counts = {k: by_group[group, k] for k in ("ok", "unclear", "crash", "silent")}
        print(f"{group:11s} " + "  ".join(f"{k} {v}" for k, v in counts.items()))
    print(
        f"{'total':11s} "
        + "  ".join(f"{k} {totals[k]}" for k in ("ok", "unclear", "crash", "silent"))
    )
    print(f"{len(picked)} cases in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
