"""Keep numba's on-disk kernel cache in step with the package's sources.

Numba checks a cached kernel only against its own source file, not against
the kernels it calls from other files: after an edit (or an upgrade) a
cached caller can keep running the old callee. So the package hashes all of
its Python sources at import and, when the hash changed since the cache was
written, deletes its cached kernels before any is loaded.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from pathlib import Path

__all__ = ["OWNED_MARK", "refresh_kernel_cache"]

_STAMP = "trickgym-kernel-sources.sha1"
#: A ``NUMBA_CACHE_DIR`` holding this file is trickgym's own, cleared like ``__pycache__``.
OWNED_MARK = "trickgym-owned-cache"


def _package_dirs() -> list[Path]:
    dirs = [Path(__file__).resolve().parent]
    for sub in ("trickgym.agents", "trickgym.envs"):
        spec = importlib.util.find_spec(sub)
        if spec is not None and spec.submodule_search_locations:
            dirs.extend(Path(p).resolve() for p in spec.submodule_search_locations)
    return sorted(set(dirs))


def refresh_kernel_cache() -> bool:
    """Delete stale cached kernels (``*.nbi``/``*.nbc``); returns whether it did.

    The default cache places (``__pycache__`` beside the sources) are
    handled, and a ``NUMBA_CACHE_DIR`` that holds the file
    ``trickgym-owned-cache`` (the test suite's, made by its conftest); any
    other ``NUMBA_CACHE_DIR`` is left alone: clear it after upgrades.
    """
    dirs = _package_dirs()
    stamp = dirs[0] / "__pycache__" / _STAMP
    places = dirs
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        if not (Path(custom) / OWNED_MARK).exists():
            return False  # someone else's cache folder: not ours to clear
        places = [Path(custom)]
        stamp = places[0] / _STAMP
    digest = hashlib.sha1()
    for folder in dirs:
        for path in sorted(folder.rglob("*.py")):
            digest.update(str(path.relative_to(folder)).encode())
            digest.update(path.read_bytes())
    current = digest.hexdigest()
    try:
        if stamp.read_text() == current:
            return False
    except OSError:
        pass
    for folder in places:
        for cached in [*folder.rglob("*.nbi"), *folder.rglob("*.nbc")]:
            try:
                cached.unlink()
            except OSError:
                pass  # another process got there first, or a read-only install
    try:
        stamp.parent.mkdir(exist_ok=True)
        tmp = stamp.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(current)
        tmp.replace(stamp)
    except OSError:
        pass  # read-only install: nothing cached there either
    return True
