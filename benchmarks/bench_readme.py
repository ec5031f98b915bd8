"""The README's times, measured as a newcomer meets them: a fresh clone, an empty numba cache.

Clones this repository (its committed HEAD) into a temporary folder and times there,
each as a shell command, wall seconds and CPU seconds (user+sys of every process):

- README command 1, part by part (its ``&&`` steps: the venv, the quiet ``pip install``,
  then the million-deal simulation, compile included);
- README command 2 in a second fresh clone (install, lint, the test suite; skip it with
  ``--skip-command-2``): the suite uses its own numba cache in the clone, as for a user;
- per game, ``trickgym simulate --game G --deals 1000 --agents rule --seed 1`` (Troggu
  ``--players 4``; Phat plays whole matches: ``--matches`` a quarter of the deals) with an
  empty ``NUMBA_CACHE_DIR`` (cold) and again with the same cache (warm), with the seconds
  until the compile notice showed and the command's own ``deals/s`` line;
- per feature compiled on top of a game's cached rules (the compile notice names it):
  Solo Whist's BGA match dealing and double-dummy columns, Pinochle's races to the target;
- with ``--warm``, ``trickgym warm`` (every game, agent and env) cold and warm.

``--load N`` runs N busy processes beside the per-game and feature rows, to measure a
loaded machine (``--load 5`` makes load average 6 with the command itself: the high end
of the notice's ranges). The header gives the CPU model, the cores and the load.

It prints a table and the ``COLD_COMPILE_SECONDS`` figures the compile notice quotes
(``src/trickgym/compiling.py``). The README's figures come from a run of this script on
a quiet 2-core machine: ``python benchmarks/bench_readme.py --warm``. A quick check that the
script works: ``python benchmarks/bench_readme.py --skip-command-2 --games phat
--command-1-deals 2000``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"solowhist": [], "troggu": ["--players", "4"], "phat": None, "pinochle": []}
# What each feature adds to a game's run (timed with the game's rules already cached).
FEATURES = {
    ("solowhist", "match"): "--deals 1000 --dealing match",
    ("solowhist", "dd"): "--deals 20 --dd",
    ("pinochle", "races"): "--matches 20",
}
NOTICE = "numba is compiling"


def readme_commands(readme: str) -> list[str]:
    """README commands 1 and 2: the lines of its first bash block that are not comments."""
    block = re.search(r"```bash\n(.*?)```", readme, re.S).group(1)
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(command: str, cwd: Path, env: dict) -> dict:
    """Run ``command`` in bash; wall and CPU seconds, stdout, and when the notice showed."""
    cpu, start = _cpu(), time.perf_counter()
    proc = subprocess.Popen(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    err, notice = [], []

    def read_err():  # timestamps the notice as a user would see it
        for line in proc.stderr:
            if NOTICE in line and not notice:
                notice.append(time.perf_counter() - start)
            err.append(line)

    reader = threading.Thread(target=read_err)
    reader.start()
    out = proc.stdout.read()
    proc.wait()
    reader.join()
    result = {
        "command": command,
        "wall": time.perf_counter() - start,
        "cpu": _cpu() - cpu,
        "notice": notice[0] if notice else None,
        "out": out,
        "code": proc.returncode,
    }
    if proc.returncode != 0:  # kept and shown in the table: a long run's time is not lost
        print(f"failed ({proc.returncode}): {command}\n{out[-2000:]}\n{''.join(err)[-4000:]}")
        result["out"] = f"FAILED (exit {proc.returncode}) " + out
    return result


def clone(into: Path) -> Path:
    """A fresh clone of this repository's committed HEAD (what a newcomer gets)."""
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()  # a worktree's HEAD, which a plain clone of its folder would not check out
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(into)], check=True)
    subprocess.run(["git", "-C", str(into), "checkout", "--quiet", head], check=True)
    return into


def cpu_model() -> str:
    """The CPU's model name, as /proc/cpuinfo gives it (``unknown`` elsewhere)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def busy(n: int) -> list[subprocess.Popen]:
    """``n`` processes that spin on a core each (a loaded machine), until terminated."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def simulate_args(game: str, deals: int) -> str:
    extra = GAMES[game]
    size = ["--matches", str(max(1, deals // 4))] if extra is None else ["--deals", str(deals)]
    return " ".join(["--game", game, *size, *(extra or []), "--agents", "rule", "--seed", "1"])


def speed_line(out: str) -> str:
    if out.startswith("FAILED"):
        return out.split(")", 1)[0] + ")"
    found = re.search(r"^[\d,]+ deals in .*$", out, re.M)
    return found.group(0) if found else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-command-2", action="store_true", help="skip the test suite")
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--warm", action="store_true", help="also time `trickgym warm`")
    parser.add_argument("--deals", type=int, default=1000, help="deals of the per-game runs")
    parser.add_argument(
        "--load", type=int, default=0, help="busy processes beside the per-game and feature rows"
    )
    parser.add_argument(
        "--command-1-deals",
        type=int,
        default=None,
        help="run command 1 with this many deals instead of the README's (a quick check)",
    )
    args = parser.parse_args()
    commands = readme_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    rows = []
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="trickgym-bench-readme-") as tmp:
        tmp = Path(tmp)
        cache = tmp / "numba-cache"
        cache.mkdir()
        env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
        env.pop("VIRTUAL_ENV", None)
        first = clone(tmp / "clone1")
        command1 = commands[0]
        if args.command_1_deals is not None:
            command1 = re.sub(r"--deals \d+", f"--deals {args.command_1_deals}", command1)
        steps = [s.strip() for s in command1.split("&&")]
        for i, step in enumerate(steps):
            r = run(step, first, env)
            rows.append((f"command 1, step {i + 1}: {step[:60]}", r))
        rows.append(
            (
                "command 1, whole",
                {
                    "wall": sum(r["wall"] for _, r in rows),
                    "cpu": sum(r["cpu"] for _, r in rows),
                    "notice": None,
                    "out": "",
                },
            )
        )
        trickgym = first / ".venv" / "bin" / "trickgym"
        spinners = busy(args.load)
        loads = []
        try:
            for game in args.games:
                game_cache = tmp / f"cache-{game}"
                game_cache.mkdir()
                game_env = {**env, "NUMBA_CACHE_DIR": str(game_cache)}
                command = f"{trickgym} simulate {simulate_args(game, args.deals)}"
                rows.append((f"{game}, cold", run(command, first, game_env)))
                loads.append(os.getloadavg()[0])
                rows.append((f"{game}, warm", run(command, first, game_env)))
                for (of, feature), flags in FEATURES.items():
                    if of == game:
                        extra = f"{trickgym} simulate --game {game} {flags} --agents rule --seed 1"
                        rows.append((f"{game}, feature {feature}", run(extra, first, game_env)))
        finally:
            for spinner in spinners:
                spinner.terminate()
        if args.warm:  # every game, agent and env: the README's `trickgym warm` figures
            warm_cache = tmp / "cache-warm"
            warm_cache.mkdir()
            warm_env = {**env, "NUMBA_CACHE_DIR": str(warm_cache)}
            rows.append(("trickgym warm, cold", run(f"{trickgym} warm --quiet", first, warm_env)))
            rows.append(("trickgym warm, warm", run(f"{trickgym} warm --quiet", first, warm_env)))
        if not args.skip_command_2:
            second = clone(tmp / "clone2")
            test_env = {k: v for k, v in env.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_OPT")}
            r = run(commands[1], second, test_env)
            rows.append(("command 2 (install, lint, tests)", r))
    print(
        f"bench_readme: {datetime.date.today()}, {cpu_model()}, {os.cpu_count()} cores, "
        f"load average {load[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; "
        f"{args.load} busy processes beside the game rows (load average after each cold run: "
        f"{', '.join(f'{x:.1f}' for x in loads)})"
    )
    print(f"{'what':<74} {'wall s':>8} {'cpu s':>8} {'notice s':>8}  deals/s line")
    for what, r in rows:
        notice = "" if r["notice"] is None else f"{r['notice']:.1f}"
        line = speed_line(r["out"])
        print(f"{what:<74} {r['wall']:>8.1f} {r['cpu']:>8.1f} {notice:>8}  {line}")
    cold = {w: r for w, r in rows if w.endswith(", cold") or ", feature " in w}
    if cold:
        print(
            "measured cold runs (wall s / CPU s), for COLD_COMPILE_SECONDS and "
            "FEATURE_COMPILE_SECONDS in src/trickgym/compiling.py:"
        )
        print("  " + ", ".join(f"{w}: {r['wall']:.0f} / {r['cpu']:.0f}" for w, r in cold.items()))


if __name__ == "__main__":
    main()
