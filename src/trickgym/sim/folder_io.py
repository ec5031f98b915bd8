"""Files of a dataset folder opened as an auditor would want: never through a link, never blocking.

A dataset folder may be shared, copied or tampered with. Every file the
dataset code reads is opened with ``O_NOFOLLOW | O_NONBLOCK`` and checked
to be a regular file before a byte is read (a symbolic link to
``/dev/zero`` or to a file outside the folder, a FIFO that would block the
reader, a directory named as a chunk: each is refused by name), and every
file it writes is created exclusively under an unpredictable temporary
name, so a link planted in the folder cannot redirect a write outside it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

from ..checks import kind_of

__all__ = [
    "LOCK_NAME",
    "NotRegularFile",
    "lock_folder",
    "read_regular",
    "remove_entry",
    "write_atomic",
]

LOCK_NAME = "_trickgym_run.lock"
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class NotRegularFile(ValueError):
    """A path that should be a regular file is a link, a directory, a FIFO or a device.

    ``kind`` says which (``"a symbolic link"``).
    """

    def __init__(self, message: str, kind: str):
        super().__init__(message)
        self.kind = kind


def _not_regular(path: Path, what: str, kind: str, fix: str) -> NotRegularFile:
    return NotRegularFile(f"{what} {str(path)!r} is {kind}, not a regular file; {fix}", kind)


def read_regular(path: Path, what: str, fix: str, limit: int | None = None) -> bytes:
    """The bytes of ``path``, which must be a regular file (not followed if a link).

    ``what`` names the file in the error ("chunk file"), ``fix`` says what
    to do; ``limit`` refuses a file larger than that many bytes before
    reading it. ``FileNotFoundError`` if it does not exist.
    """
    try:
        fd = os.open(path, _READ_FLAGS | _CLOEXEC)
    except OSError as err:
        if err.errno in (errno.ELOOP, errno.EMLINK):  # O_NOFOLLOW met a link
            raise _not_regular(path, what, "a symbolic link", fix) from None
        if err.errno == errno.ENXIO:  # a socket, or a FIFO without a writer on some systems
            raise _not_regular(path, what, kind_of(os.lstat(path).st_mode), fix) from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _not_regular(path, what, kind_of(info.st_mode), fix)
        if limit is not None and info.st_size > limit:
            raise ValueError(
                f"{what} {str(path)!r} holds {info.st_size:,} bytes, more than any such file "
                f"trickgym writes ({limit:,}); {fix}"
            )
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as file:
        return file.read()


def remove_entry(path: Path) -> None:
    """Delete ``path`` without following it: a file, a link, a FIFO, or an empty directory.

    ``ValueError`` for a directory that is not empty (never deleted).
    """
    mode = os.lstat(path).st_mode
    if not stat.S_ISDIR(mode):
        path.unlink()
        return
    try:
        path.rmdir()
    except OSError as err:
        if err.errno not in (errno.ENOTEMPTY, errno.EEXIST):
            raise
        raise ValueError(
            f"{str(path)!r} is a directory named as a dataset file and is not empty; move "
            "it out of the dataset folder"
        ) from None


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a new hidden temporary file and a rename.

    The temporary file ``.NAME.tmp-PID-RANDOM`` is created exclusively and
    not through a link (a link planted at a guessed name makes the write
    fail instead of following it); the rename replaces whatever entry is at
    ``path`` itself, never a link's target. A failed write (a full disk)
    removes its temporary file and raises an ``OSError`` naming ``path``.
    """
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | _CLOEXEC
    try:
        fd = os.open(tmp, flags, 0o666)  # the umask applies, as for open(..., "wb")
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except OSError as err:
        with contextlib.suppress(OSError):
            if err.errno != errno.EEXIST:  # never delete what someone else put there
                tmp.unlink(missing_ok=True)
        raise OSError(err.errno, f"cannot write {path}: {err.strerror or err}") from err


def _open_lock(folder: Path):
    """The folder's lock file, opened for locking, created if missing, never through a link."""
    path = folder / LOCK_NAME
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fix = "remove it (a finished or killed run leaves no lock that needs keeping)"
    try:
        fd = os.open(path, flags | _CLOEXEC, 0o666)
    except OSError as err:
        if err.errno in (errno.ELOOP, errno.EMLINK):
            raise _not_regular(path, "lock file", "a symbolic link", fix) from None
        if err.errno in (errno.EISDIR, errno.ENXIO):
            raise _not_regular(path, "lock file", kind_of(os.lstat(path).st_mode), fix) from None
        raise
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise _not_regular(path, "lock file", kind_of(mode), fix)
    return os.fdopen(fd, "r+b")


def lock_folder(folder: Path):
    """``(lock file, locked)``: an exclusive lock on ``folder``, or a ``ValueError``.

    ``fcntl.flock`` locks are released by the kernel when the process ends,
    however it ends, so a killed run never leaves the folder locked.
    Platforms without ``fcntl``, and file systems refusing locks, run
    unlocked (``locked`` false). A finished run deletes the lock file while
    holding its lock; whoever locked that deleted file meanwhile sees that
    the file at the path is another one, and locks that instead.
    """
    for _ in range(100):
        handle = _open_lock(folder)  # held until the caller closes it
        try:
            import fcntl  # lazy: POSIX only
        except ImportError:  # pragma: no cover - not POSIX
            return handle, False
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            break
        except OSError:  # pragma: no cover - a file system without locks (some NFS): run unlocked
            return handle, False
        held = os.fstat(handle.fileno())
        try:
            now = os.lstat(folder / LOCK_NAME)
        except FileNotFoundError:
            now = None
        if now is not None and (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino):
            return handle, True
        handle.close()  # pragma: no cover - a run finished just now and removed its lock file
    raise ValueError(
        f"output folder {str(folder)!r} is in use by another run (it holds the lock "
        f"{LOCK_NAME}); wait for that run to end, or choose another folder"
    )
