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
    ):
        assert f"trickgym/{module}" in names
