"""Both PPO examples on every game and table, then ``trickgym evaluate`` on each saved policy.

Run (needs the ``train`` extra; one process at a time, so a shared machine
stays usable)::

    python experiments/examples_every_table.py [--steps 3000] [--num-envs 16]
        [--out experiments/results/every_table] [--only cleanrl|sb3] [--tables phat,...]

For each of Solo Whist, Troggu at 3 to 8 players, Phat, Pinochle kitty and
Pinochle exchange, and each of ``experiments/cleanrl_masked_ppo.py`` and
``experiments/sb3_masked_ppo.py``: train ``--steps`` steps (evaluating
against random and rule, no PIMC), then ``trickgym evaluate`` the policy
file with no flag but the table's (the file carries its bidding). Prints
and writes (``results.csv``) one row per run: pass or fail, the env steps
run (the curve's last row), the seconds of training and of evaluation.
Not part of the test suite: a few minutes of training per row.
"""

from __future__ import annotations

import argparse
import csv
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TABLES = [
    ("solowhist", "trickgym/SoloWhist-v0", []),
    *((f"troggu-{p}p", "trickgym/Troggu-v0", ["--players", str(p)]) for p in range(3, 9)),
    ("phat", "trickgym/Phat-v0", []),
    ("pinochle-kitty", "trickgym/Pinochle-v0", ["--mode", "kitty"]),
    ("pinochle-exchange", "trickgym/Pinochle-v0", ["--mode", "exchange"]),
]
SCRIPTS = {"cleanrl": "cleanrl_masked_ppo.py", "sb3": "sb3_masked_ppo.py"}


def run(cmd: list[str], log: Path) -> tuple[bool, float]:
    """Run ``cmd``, its output to ``log``: (succeeded, seconds)."""
    started = time.perf_counter()
    with open(log, "w") as f:
        code = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode
    return code == 0, time.perf_counter() - started


def last_env_steps(curve: Path) -> int | None:
    """The ``env_steps`` of the curve's last row (None if there is none)."""
    if not curve.is_file():
        return None
    rows = list(csv.DictReader(curve.open()))
    return int(rows[-1]["env_steps"]) if rows else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--num-envs", type=int, default=16)
    ap.add_argument("--eval-deals", type=int, default=50, help="deals (Phat: matches)")
    ap.add_argument("--out", default="experiments/results/every_table")
    ap.add_argument("--only", choices=sorted(SCRIPTS), default=None)
    ap.add_argument("--tables", default=None, help="comma list of table names (default: all)")
    args = ap.parse_args()
    trickgym_cli = shutil.which("trickgym", path=str(Path(sys.executable).parent))
    if trickgym_cli is None:
        ap.error("no trickgym command beside this Python: pip install -e '.[train]' first")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    header = f"{'script':<8}{'table':<19}{'train':>6}{'steps':>7}{'train s':>9}{'evaluate':>9}"
    print(header + f"{'eval s':>8}", flush=True)
    for trainer, script in SCRIPTS.items():
        if args.only and trainer != args.only:
            continue
        for name, env, flags in TABLES:
            if args.tables and name not in args.tables.split(","):
                continue
            folder = out / trainer / name
            folder.mkdir(parents=True, exist_ok=True)
            trained, train_s = run(
                [sys.executable, str(HERE / script), "--env", env, *flags,
                 "--steps", str(args.steps), "--num-envs", str(args.num_envs),
                 "--eval-deals", str(args.eval_deals), "--eval-slow-deals", "0",
                 "--eval-agents", "random,rule", "--out", str(folder)],
                folder / "train.log",
            )  # fmt: skip
            game = env.split("/")[1].split("-")[0].lower()
            count = "--matches" if game == "phat" else "--deals"  # Phat: whole matches
            evaluated, eval_s = (False, 0.0)
            if trained:
                evaluated, eval_s = run(
                    [trickgym_cli, "evaluate", "--game", game, *flags,
                     "--policy", str(folder / "policy.npz"), "--opponents", "random,rule",
                     count, str(args.eval_deals), "--quiet"],
                    folder / "evaluate.log",
                )  # fmt: skip
            steps = last_env_steps(folder / "curve.csv")
            row = [trainer, name, "pass" if trained else "FAIL", steps, round(train_s, 1),
                   "pass" if evaluated else "FAIL", round(eval_s, 1)]  # fmt: skip
            rows.append(row)
            print(f"{row[0]:<8}{row[1]:<19}{row[2]:>6}{row[3] or '-':>7}{row[4]:>9}"
                  f"{row[5]:>9}{row[6]:>8}", flush=True)  # fmt: skip
    with open(out / "results.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["script", "table", "train", "env_steps", "train_seconds", "evaluate",
                         "evaluate_seconds"])  # fmt: skip
        writer.writerows(rows)
    print(f"wrote {out / 'results.csv'}")
    if any("FAIL" in row for row in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
