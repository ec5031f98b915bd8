"""Is a folder still clean for git? For the tests that run what a newcomer runs in a clone."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A throwaway identity: the copy's one commit needs an author, and the machine may have none.
_GIT = ["git", "-c", "user.name=trickgym tests", "-c", "user.email=tests@trickgym.invalid"]


def _git(folder: Path, *args: str) -> str:
    result = subprocess.run([*_GIT, *args], cwd=folder, capture_output=True, text=True, check=True)
    return result.stdout


def tracked_files(*paths: str) -> list[str]:
    """The files git tracks under ``paths`` of the repository (relative paths)."""
    return _git(ROOT, "ls-files", "--", *paths).splitlines()


def git_repo_with_gitignore(folder: Path, *paths: str) -> Path:
    """``folder`` as a git repository holding the project's ``.gitignore`` and the tracked
    files under ``paths``, all committed: a stand-in for a fresh clone of them."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in [".gitignore", *(tracked_files(*paths) if paths else [])]:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, folder / name)
    _git(folder, "init", "-q")
    _git(folder, "add", "-A")
    _git(folder, "commit", "-q", "-m", "a fresh clone")
    return folder


def git_status(folder: Path) -> str:
    """``git status --porcelain`` of ``folder``, every untracked file listed: "" when clean."""
    return _git(folder, "status", "--porcelain", "--untracked-files=all").strip()
