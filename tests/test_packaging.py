"""The top-level envs/ and agents/ folders ship as trickgym.envs and trickgym.agents."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_editable_install_maps_top_level_folders():
    import trickgym.agents
    import trickgym.envs

    assert Path(trickgym.envs.__file__).resolve().parent == ROOT / "envs"
    assert Path(trickgym.agents.__file__).resolve().parent == ROOT / "agents"
    assert "solowhist" in trickgym.GAMES


def test_wheel_contains_envs_and_agents(tmp_path):
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(ROOT),
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
        ],
        check=True,
    )
    (wheel,) = tmp_path.glob("trickgym-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for module in (
        "envs/base.py",
        "envs/solowhist.py",
        "envs/troggu.py",
        "agents/random.py",
        "agents/troggu.py",
        "games/solowhist/rules.py",
        "games/troggu/rules.py",
        "cli.py",
        "agents/learnt/agent.py",
    ):
        assert f"trickgym/{module}" in names
    # The learnt agent's weights are package data: `learnt` must play from a wheel.
    from trickgym.agents.learnt import shipped_weights

    for weights in shipped_weights():
        assert f"trickgym/agents/learnt/weights/{weights}" in names
    # So are the fitted bidders' options, which the `fitted` preset reads.
    from trickgym.agents.rule.presets import fitted_games

    assert fitted_games()
    for game in fitted_games():
        assert f"trickgym/agents/rule/fitted/{game}.json" in names
    (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    requires = [
        line.split(":", 1)[1].strip()
        for line in zipfile.ZipFile(wheel).read(meta).decode().splitlines()
        if line.startswith("Requires-Dist:")
    ]
    core = {r.split(">")[0].split("[")[0] for r in requires if "extra ==" not in r}
    # A plain `pip install .` must run `trickgym report` (issue 17: ModuleNotFoundError).
    assert {"numpy", "numba", "pandas", "pyarrow", "matplotlib"} <= core


def test_extras_named_in_messages_exist():
    """Every extra a missing-dependency message names (``trickgym[dask]``) is declared."""
    import re
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    named = set()
    for file in [*(ROOT / "src").rglob("*.py"), *(ROOT / "envs").rglob("*.py")]:
        named |= set(re.findall(r'require_extra\(\s*"[^"]+",\s*"([^"]+)"', file.read_text()))
    assert named == {"dask", "pettingzoo", "train"}
    assert named <= set(extras)
