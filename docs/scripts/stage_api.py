"""A mkdocs hook: the package laid out as installed, for mkdocstrings to read.

``pip install`` maps ``pyproject.toml``'s ``package-dir``: ``src/trickgym``,
with the top-level ``agents/`` and ``envs/`` as ``trickgym.agents`` and
``trickgym.envs``. griffe, which reads the sources without importing them,
finds only ``src/trickgym``; so ``build/api-src/trickgym`` is made a tree of
links to the mapped folders, and mkdocstrings reads it (``mkdocs.yml``).
It is laid out when the config loads, before mkdocstrings looks for the
package (a path that does not exist yet is passed over).
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parents[2]
STAGE = ROOT / "build" / "api-src"
PACKAGE = "trickgym"


def stage() -> Path:
    """Link the package's folders into ``build/api-src`` as setuptools maps them."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    mapping = setuptools.get("package-dir", {})
    base = ROOT / mapping.get("", ".")
    shutil.rmtree(STAGE, ignore_errors=True)
    top = STAGE / PACKAGE
    top.mkdir(parents=True)
    for entry in sorted((base / PACKAGE).iterdir()):
        if entry.name != "__pycache__":
            (top / entry.name).symlink_to(entry)
    # Sub-packages mapped elsewhere (trickgym.agents -> agents/) take their place.
    for name, folder in sorted(mapping.items()):
        if name.startswith(PACKAGE + "."):
            link = STAGE.joinpath(*name.split("."))
            if link.is_symlink() or link.exists():
                link.unlink()
            link.symlink_to(ROOT / folder)
    return top


@event_priority(100)  # before the plugins' own on_config
def on_config(config):
    """Lay out ``build/api-src`` before any plugin reads the config."""
    stage()
    return config
