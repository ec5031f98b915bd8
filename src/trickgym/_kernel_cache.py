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

__all__ = ["refresh_kernel_cache"]

_STAMP = "trickgym-kernel-sources.sha1"


def _package_dirs() -> list[Path]:
    dirs = [Path(__file__).resolve().parent]
    for sub in ("trickgym.agents", "trickgym.envs"):
        spec = importlib.util.find_spec(sub)
        if spec is not None and spec.submodule_search_locations:
            dirs.extend(Path(p).resolve() for p in spec.submodule_search_locations)
    return sorted(set(dirs))


def refresh_kernel_cache() -> bool:
    """Delete stale cached kernels (``*.nbi``/``*.nbc``); returns whether it did.

    Only the default cache places (``__pycache__`` beside the sources) are
    handled; with ``NUMBA_CACHE_DIR`` set, clear that folder after upgrades.
    """
    dirs = _package_dirs()
    digest = hashlib.sha1()
    for folder in dirs:
        for path in sorted(folder.rglob("*.py")):
            digest.update(str(path.relative_to(folder)).encode())
            digest.update(path.read_bytes())
    stamp = dirs[0] / "__pycache__" / _STAMP
    current = digest.hexdigest()
    try:
        if stamp.read_text() == current:
            return False
    except OSError:
        pass
    for folder in dirs:
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
