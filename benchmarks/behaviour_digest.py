"""Digests of what trickgym decides, to show a structural change changed none of it.

Run it before a refactor (``--out base.json``) and after (``--compare
base.json``): every entry hashes one run's complete output, so one changed
decision anywhere changes that entry's digest. It reaches the package only
through public entry points (``trickgym.simulate``, ``trickgym.tournament``,
``gymnasium.make_vec``, ``trickgym.game(...).deal``, the advisor), so the
same script runs on both sides of a change that moves modules around.

Covered, for the seven tables (Solo Whist; Troggu 3, 5 and 8; Phat; Pinochle
kitty and exchange):

- ``sim``: simulate rows with random, rule and mixed seats, on 1 and 2 threads;
- ``oracle``: simulate rows with oracle players (Solo Whist and Troggu 3);
- ``mc``: simulate rows with PIMC and ISMCTS players (few deals);
- ``tour``: a duplicate tournament, rule against random;
- ``vec``: 60 steps of the native vector env under seeded random actions;
- ``advise``: the advisor's table for the first call decision of a seeded deal.

Usage::

    python benchmarks/behaviour_digest.py --out base.json [--only sim,tour]
    python benchmarks/behaviour_digest.py --compare base.json
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import sys
import time

import numpy as np
import pandas as pd

TABLES = {
    "solowhist": ("solowhist", {}),
    "troggu3": ("troggu", {"players": 3}),
    "troggu5": ("troggu", {"players": 5}),
    "troggu8": ("troggu", {"players": 8}),
    "phat": ("phat", {}),
    "pinochle_kitty": ("pinochle", {"mode": "kitty"}),
    "pinochle_exchange": ("pinochle", {"mode": "exchange"}),
}
ENV_IDS = {
    "solowhist": "trickgym/SoloWhist-v0",
    "troggu": "trickgym/Troggu-v0",
    "phat": "trickgym/Phat-v0",
    "pinochle": "trickgym/Pinochle-v0",
}
PARTS = ("sim", "oracle", "mc", "tour", "vec", "advise")


def frame_digest(df: pd.DataFrame) -> str:
    """sha256 of a frame's columns, names and values (not its memory layout)."""
    h = hashlib.sha256()
    for name in df.columns:
        h.update(str(name).encode())
        col = df[name]
        values = col.to_numpy()
        if values.dtype == object:  # categories, strings, lists: by value, not by address
            h.update(repr(col.tolist()).encode())
        else:
            h.update(np.ascontiguousarray(values).tobytes())
    return h.hexdigest()


def _size(game: str, deals: int) -> dict:
    # Phat is counted in matches.
    return {"matches": max(1, deals // 10)} if game == "phat" else {"deals": deals}


def _seats(table: str) -> int:
    game, options = TABLES[table]
    return {"troggu": options.get("players", 4)}.get(game, 4)


def part_sim(table: str) -> dict:
    import trickgym

    game, options = TABLES[table]
    seats = _seats(table)
    mixed = ["rule" if s % 2 else "random" for s in range(seats)]
    out = {}
    for agents, label in (("random", "random"), ("rule", "rule"), (mixed, "mixed")):
        for threads in (1, 2):
            df = trickgym.simulate(
                game,
                agents=agents,
                seed=7,
                threads=threads,
                progress=False,
                **_size(game, 400),
                **options,
            )
            out[f"{label}/t{threads}"] = frame_digest(df)
    return out


def part_oracle(table: str) -> dict:
    import trickgym

    game, options = TABLES[table]
    if table not in ("solowhist", "troggu3"):
        return {}
    seats = _seats(table)
    agents = ["oracle"] + ["rule"] * (seats - 1)
    df = trickgym.simulate(
        game, agents=agents, seed=11, threads=1, progress=False, **_size(game, 20), **options
    )
    return {"oracle": frame_digest(df)}


def part_mc(table: str) -> dict:
    import trickgym

    game, options = TABLES[table]
    if table not in ("solowhist", "troggu3", "phat", "pinochle_kitty"):
        return {}
    seats = _seats(table)
    out = {}
    for name in ("pimc", "ismcts"):
        agents = [name] + ["rule"] * (seats - 1)
        deals = 3 if game != "phat" else 10
        df = trickgym.simulate(
            game, agents=agents, seed=5, threads=1, progress=False, **_size(game, deals), **options
        )
        out[name] = frame_digest(df)
    return out


def part_tour(table: str) -> dict:
    import trickgym

    game, options = TABLES[table]
    deals = 20 if game == "phat" else 100
    report = trickgym.tournament(
        game, ["rule", "random"], deals=deals, seed=3, progress=False, **options
    )
    parts = {}
    for attr in ("standings", "bids", "rows", "per_deal"):
        value = getattr(report, attr, None)
        if isinstance(value, pd.DataFrame):
            parts[attr] = frame_digest(value.reset_index())
    parts["format"] = hashlib.sha256(report.format().encode()).hexdigest()
    return parts


def part_vec(table: str) -> dict:
    import gymnasium as gym

    import trickgym  # noqa: F401  (registers the env ids)

    game, options = TABLES[table]
    env = gym.make_vec(
        ENV_IDS[game], num_envs=8, vectorization_mode="vector_entry_point", **options
    )
    obs, _info = env.reset(seed=21)
    rng = np.random.default_rng(21)
    h = hashlib.sha256()

    def feed(obs, *extra):
        items = obs.items() if isinstance(obs, dict) else [("obs", obs)]
        for k, v in sorted(items):
            h.update(k.encode())
            h.update(np.ascontiguousarray(v).tobytes())
        for e in extra:
            h.update(np.ascontiguousarray(e).tobytes())

    feed(obs)
    for _ in range(60):
        mask = obs["action_mask"] if isinstance(obs, dict) else None
        # A finished env (autoreset pending) has an empty mask: any action does.
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask], dtype=np.int64
        )
        obs, rew, term, trunc, _info = env.step(actions)
        feed(obs, rew, term, trunc)
    env.close()
    return {"steps60": h.hexdigest()}


def _advise_state():
    for mod in ("trickgym.advisor", "trickgym.analysis.advise", "trickgym.advisor.advise"):
        try:
            m = importlib.import_module(mod)
        except ImportError:
            continue
        if hasattr(m, "advise_state"):
            return m.advise_state
    raise ImportError("advise_state not found")


def part_advise(table: str) -> dict:
    import trickgym

    game, options = TABLES[table]
    if table not in ("solowhist", "troggu3", "phat", "pinochle_kitty"):
        return {}
    state = trickgym.game(game, **options).deal(seed=4)
    df = _advise_state()(state, deals=40, play="rule", seed=2, progress=False, threads=1)
    return {"rule": frame_digest(df.reset_index())}


def capture(parts) -> dict:
    """Every digest of ``parts``, keyed ``part/table/entry``."""
    result = {}
    for part in parts:
        fn = globals()[f"part_{part}"]
        for table in TABLES:
            t0 = time.perf_counter()
            for key, value in fn(table).items():
                result[f"{part}/{table}/{key}"] = value
            print(f"{part:7s} {table:18s} {time.perf_counter() - t0:6.1f} s", file=sys.stderr)
    return result


def main(argv=None) -> int:
    """Capture the digests, write them or compare them with a file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="write the digests to this JSON file")
    parser.add_argument("--compare", help="compare with the digests in this JSON file")
    parser.add_argument(
        "--only",
        default=",".join(PARTS),
        help=f"comma-separated parts (default all: {','.join(PARTS)})",
    )
    args = parser.parse_args(argv)
    parts = [p for p in args.only.split(",") if p]
    bad = [p for p in parts if p not in PARTS]
    if bad:
        parser.error(f"unknown part(s) {bad}; choose from {', '.join(PARTS)}")
    digests = capture(parts)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(digests, f, indent=1, sort_keys=True)
        print(f"{len(digests)} digests written to {args.out}")
    if args.compare:
        with open(args.compare) as f:
            base = json.load(f)
        keys = [k for k in base if k.split("/")[0] in parts]
        differ = [k for k in keys if digests.get(k) != base[k]]
        missing = [k for k in digests if k not in base]
        for k in differ:
            print(f"DIFFERENT {k}")
        for k in missing:
            print(f"NEW (not in base) {k}")
        print(f"{len(keys) - len(differ)} of {len(keys)} digests equal")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
