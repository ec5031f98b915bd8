"""The top-level envs/ and agents/ folders ship as trickgym.envs and trickgym.agents."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_editable_install_maps_top_level_folders():
    import trickgym.agents
    import trickgym.envs

    assert Path(trickgym.envs.__file__).resolve().parent == ROOT / "envs"
    assert Path(trickgym.agents.__file__).resolve().parent == ROOT / "agents"
    assert "solowhist" in trickgym.GAMES


def test_wheel_contains_envs_and_agents(tmp_path):
    # -v shows setuptools' output; PYTHONDONTWRITEBYTECODE (set on some machines) would add
    # a "byte-compiling is disabled" line that says nothing about the project.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    argv = ["wheel", str(ROOT), "--no-deps", "--no-build-isolation", "-v", "-w", str(tmp_path)]
    build = subprocess.run(
        [sys.executable, "-m", "pip", *argv], capture_output=True, text=True, env=env, check=True
    )
    # Issue 31: the license table was deprecated and two data folders "would be ignored".
    output = build.stdout + build.stderr
    warnings = [line for line in output.splitlines() if "warn" in line.lower()]
    assert not warnings, "\n".join(warnings)
    (wheel,) = tmp_path.glob("trickgym-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "trickgym-0.1.0.dist-info/licenses/LICENSE" in names
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    # Every module of the three source folders ships (trickgym.bindings was left out).
    for folder, prefix in ((ROOT / "src" / "trickgym", ""), (ROOT / "envs", "envs/"),
                           (ROOT / "agents", "agents/")):  # fmt: skip
        for module in folder.rglob("*.py"):
            assert f"trickgym/{prefix}{module.relative_to(folder).as_posix()}" in names
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
    from trickgym.agents.learnt.card_net import DMC_WEIGHTS  # the "dmc" agent's

    for path in DMC_WEIGHTS.values():
        assert f"trickgym/agents/learnt/weights/dmc/{path.name}" in names
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


REQUIRES = [
    "numpy>=1.26",
    'dask[distributed]>=2024.1; extra == "dask"',
    "pytest>=8; extra == 'test'",
]


@pytest.mark.parametrize(
    ("direct_url", "command"),
    [
        (None, "pip install 'trickgym[dask]'"),  # a wheel from an index
        ({"url": "file:///src/trick%20gym", "dir_info": {"editable": True}},
         "pip install -e '/src/trick gym[dask]'"),
        ({"url": "file:///src/trickgym", "dir_info": {}}, "pip install '/src/trickgym[dask]'"),
        ({"url": "https://github.com/o/trickgym.git",
          "vcs_info": {"vcs": "git", "commit_id": "ab12", "requested_revision": "v0.1"}},
         "pip install 'trickgym[dask] @ git+https://github.com/o/trickgym.git@v0.1'"),
        ({"url": "https://github.com/o/trickgym.git", "vcs_info": {"vcs": "git", "commit_id": "a"}},
         "pip install 'trickgym[dask] @ git+https://github.com/o/trickgym.git'"),
        ({"url": "file:///w/trickgym-0.1.0-py3-none-any.whl", "archive_info": {}},
         "pip install 'trickgym[dask] @ file:///w/trickgym-0.1.0-py3-none-any.whl'"),
    ],
)  # fmt: skip
def test_install_hint_fits_how_trickgym_was_installed(tmp_path, direct_url, command):
    """Issue 31: ``pip install 'trickgym[dask]'`` fails, trickgym being on no index."""
    import json
    from importlib.metadata import PathDistribution

    from trickgym.checks import install_hint

    info = tmp_path / "trickgym-0.1.0.dist-info"
    info.mkdir()
    metadata = ["Metadata-Version: 2.1", "Name: trickgym", "Version: 0.1.0"]
    metadata += [f"Requires-Dist: {r}" for r in REQUIRES]
    (info / "METADATA").write_text("\n".join(metadata) + "\n")
    if direct_url is not None:
        (info / "direct_url.json").write_text(json.dumps(direct_url))
    hint = install_hint("dask", PathDistribution(info))
    # The extra's own packages are the alternative, read from the installed metadata.
    assert hint == f"{command} (or only its packages: pip install 'dask[distributed]>=2024.1')"


def test_missing_extra_message_uses_the_install_hint(monkeypatch):
    from trickgym.checks import MissingExtraError, install_hint, require_extra

    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(MissingExtraError) as err:
        require_extra("pettingzoo", "pettingzoo", "trickgym.envs.pettingzoo")
    assert str(err.value).endswith(install_hint("pettingzoo"))
    assert "'pettingzoo>=1.24'" in str(err.value)
