"""Read an ``.npz`` file of plain arrays without trusting it: one check for every loader.

A weights file comes from people: it may be empty, a directory, a named
pipe, a bare ``.npy`` or a text file renamed ``.npz``, truncated, bit-flipped,
or crafted so that a 300-byte file claims 10**12 elements. ``numpy.load``
meets these with ``EOFError``, ``TypeError``, a hang (a FIFO) or an attempt to
allocate terabytes. :func:`load_npz` instead checks, before it allocates
anything, that the path is a non-empty regular file holding a zip archive
whose every member is an ``.npy`` array of a plain dtype (no pickle, no
objects) whose header declares exactly the member's size, all of them
within ``max_bytes``; each member is then read with a bounded read, so a
member that inflates past its declared size cannot allocate more. Any fault
is one ``ValueError`` line: what is wrong, the path, what to do.

What the arrays must hold (keys, shapes, finite values) is each caller's to
check; :func:`check_finite` is the shared check of the last.
"""

from __future__ import annotations

import os
import stat
import struct
import zipfile
import zlib
from pathlib import Path

import numpy as np
from numpy.lib import format as npy_format

from .checks import kind_of

__all__ = ["MAX_BYTES", "NpzError", "check_finite", "load_npz", "npz_path"]

#: The largest total of array bytes :func:`load_npz` reads by default: 256 MiB, a
#: hundred times the largest shipped weights (``troggu-8p.npz``, 2.3 MB of arrays).
MAX_BYTES = 256 * 2**20
# The most members an archive may list: the shipped weights have at most 9 arrays;
# a central directory of a million entries would cost memory before any check.
MAX_MEMBERS = 4096
# Dtype kinds of plain arrays: bool, integers, floats, complex, byte and unicode strings
# (a JSON ``meta`` entry is a 0-d unicode array). Not objects (pickle) nor structured.
_PLAIN_KINDS = "biufcSU"
_PIECE = 4 * 2**20  # bytes read from a member at a time
_ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")  # a local file header; an empty archive
# What a read of a damaged archive may raise (zipfile parses headers with struct and
# decompresses with zlib/bz2/lzma; an unsupported method is NotImplementedError).
_ARCHIVE_ERRORS = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    OSError,
    EOFError,
    ValueError,
    struct.error,
    zlib.error,
    NotImplementedError,
    RuntimeError,  # an encrypted member
    UnicodeDecodeError,
    OverflowError,
    KeyError,
    IndexError,
)


class NpzError(ValueError):
    """A file that is no readable ``.npz`` of plain arrays, or whose arrays are unfit."""


def npz_path(path, what: str) -> Path:
    """``path`` as a ``Path`` if it is a non-empty ``str`` or path-like (ValueError if not)."""
    if not isinstance(path, str | os.PathLike) or os.fspath(path) in ("", b""):
        raise NpzError(f"{what} must be a path to an .npz file, got {path!r}")
    if "\0" in os.fsdecode(os.fspath(path)):  # os.open's own ValueError would not name it
        raise NpzError(f"{what} path {path!r} holds a NUL character: give a file path")
    return Path(os.fsdecode(os.fspath(path)))


def load_npz(path, what: str = "file", hint: str = "", max_bytes: int = MAX_BYTES) -> dict:
    """The arrays of the ``.npz`` file at ``path``, ``{name: ndarray}``; ValueError if bad.

    ``what`` names the file in messages (``"policy file"``), ``hint`` says what to
    do about a bad one (``"give the policy.npz that experiments/... writes"``).
    Arrays are writable and own their memory. Nothing beyond the archive's
    declared array sizes, at most ``max_bytes`` in all, is ever allocated.
    """
    p = npz_path(path, what)
    where = f"{what} {str(p)!r}"
    tail = f"; {hint}" if hint else ""
    fd = _open_regular(p, where, tail)
    with os.fdopen(fd, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size == 0:
            raise NpzError(f"{where} is empty (0 bytes){tail}")
        _check_magic(f.read(8), where, tail)
        if size > max_bytes:  # compression only shrinks arrays: no smaller archive holds them
            raise NpzError(
                f"{where} is {size:,} bytes, over the {max_bytes:,}-byte limit of arrays read{tail}"
            )
        f.seek(0)
        try:
            return _read_archive(f, where, tail, max_bytes)
        except NpzError:
            raise
        except _ARCHIVE_ERRORS as err:
            raise NpzError(
                f"{where} is a damaged .npz archive ({type(err).__name__}: {_one_line(err)}){tail}"
            ) from None


def _open_regular(p: Path, where: str, tail: str) -> int:
    """A read-only descriptor of ``p`` if it is a regular file (never blocking on a FIFO)."""
    # O_NONBLOCK: opening a FIFO with no writer would wait forever. The type is checked
    # on the open descriptor, so a file swapped after a stat cannot slip through.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(p, flags)
    except FileNotFoundError:
        raise NpzError(f"{where} does not exist{tail}") from None
    except IsADirectoryError:  # Windows cannot open a folder
        raise NpzError(f"{where} is a directory, not an .npz file{tail}") from None
    except OSError as err:
        raise NpzError(f"{where} cannot be opened ({err.strerror}){tail}") from None
    mode = os.fstat(fd).st_mode
    if stat.S_ISREG(mode):
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return fd
    os.close(fd)
    raise NpzError(f"{where} is {kind_of(mode)}, not a regular .npz file{tail}")


def _check_magic(head: bytes, where: str, tail: str) -> None:
    """A zip archive's first bytes, or a message naming what the file is instead."""
    if head.startswith(_ZIP_MAGICS):
        return
    if head.startswith(b"\x93NUMPY"):
        what = "a bare .npy array (np.save), not an .npz archive (np.savez)"
    elif head.startswith(b"\x80") or head.startswith(b"(dp"):
        what = "pickled Python data, not an .npz archive (never unpickled here)"
    elif _is_text(head):
        what = f"a text file (starts {head.decode('ascii', 'replace')!r}), not an .npz archive"
    else:
        what = f"not an .npz (zip) archive (starts with bytes {head.hex(' ')})"
    raise NpzError(f"{where} is {what}{tail}")


def _is_text(head: bytes) -> bool:
    """Whether ``head`` looks like the start of a text file (printable ASCII or UTF-8)."""
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        text = head[:-3].decode("utf-8", "ignore") if len(head) > 3 else ""
    return bool(text) and all(c.isprintable() or c in "\t\r\n" for c in text)


def _one_line(err: BaseException) -> str:
    return " ".join(str(err).split()) or "no detail"


def _read_archive(f, where: str, tail: str, max_bytes: int) -> dict:
    """Every member of the open zip ``f`` as an array (see :func:`load_npz`)."""
    with zipfile.ZipFile(f) as archive:
        members = archive.infolist()
        if len(members) > MAX_MEMBERS:
            raise NpzError(f"{where} lists {len(members):,} members, over {MAX_MEMBERS}{tail}")
        names = [m.filename for m in members]
        for name in names:
            if not name.endswith(".npy") or name == ".npy":
                raise NpzError(
                    f"{where} holds {name!r}, not an .npy array: an .npz holds arrays only{tail}"
                )
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise NpzError(f"{where} holds {twice[0]!r} twice{tail}")
        total = sum(m.file_size for m in members)
        if total > max_bytes:
            raise NpzError(
                f"{where} declares {total:,} bytes of arrays, over the {max_bytes:,}-byte "
                f"limit{tail}"
            )
        return {m.filename[:-4]: _read_member(archive, m, where, tail) for m in members}


def _read_member(archive: zipfile.ZipFile, member: zipfile.ZipInfo, where: str, tail: str):
    """One member as an array, its header checked against its declared size first."""
    key = member.filename[:-4]
    with archive.open(member) as f:
        dtype, shape, fortran, header_bytes = _read_header(f, key, where, tail)
        nbytes = int(np.prod(shape, dtype=object)) * dtype.itemsize  # Python ints: no overflow
        if header_bytes + nbytes != member.file_size:
            raise NpzError(
                f"{where}: array {key!r} declares {dtype}{list(shape)} ({_size(nbytes)}) but "
                f"its member holds {_size(max(member.file_size - header_bytes, 0))} of data"
                f"{tail}"
            )
        # Read in bounded pieces: zipfile stops at the declared size, so a member inflating
        # past it cannot make this allocate more than nbytes, and a member declaring more
        # than it holds costs no more than what it holds (no up-front nbytes buffer).
        data = bytearray()
        while len(data) < nbytes:
            piece = f.read(min(_PIECE, nbytes - len(data)))
            if not piece:
                raise NpzError(f"{where}: array {key!r} is truncated{tail}")
            data += piece
    return np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran else "C")


def _read_header(f, key: str, where: str, tail: str):
    """``(dtype, shape, fortran_order, header bytes)`` of an .npy stream (no pickle)."""
    start = f.tell()
    try:
        version = npy_format.read_magic(f)
        if version == (1, 0):
            shape, fortran, dtype = npy_format.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, fortran, dtype = npy_format.read_array_header_2_0(f)
        else:
            raise ValueError(f"npy format version {version[0]}.{version[1]} is not read here")
    except (zipfile.BadZipFile, EOFError, zlib.error, OSError):
        raise  # the zip's fault (a bad CRC, a truncated stream): named as such by the caller
    except Exception as err:
        # numpy parses the header's text with ast and tokenize, which raise more than
        # ValueError on damaged text (tokenize.TokenError, SyntaxError, RecursionError):
        # whatever it raises, the header is not one numpy wrote.
        raise NpzError(
            f"{where}: array {key!r} has no valid .npy header ({_one_line(err)}){tail}"
        ) from None
    if any(n < 0 for n in shape):  # numpy's header reader takes any int
        raise NpzError(f"{where}: array {key!r} has a negative shape {list(shape)}{tail}")
    if dtype.hasobject or dtype.kind not in _PLAIN_KINDS or dtype.itemsize == 0:
        raise NpzError(
            f"{where}: array {key!r} has dtype {dtype}, not a plain number or string type "
            f"(object arrays would need pickle, never used here){tail}"
        )
    return dtype, shape, fortran, f.tell() - start


def _size(nbytes: int) -> str:
    """Bytes in a readable unit: ``3.64 TiB``."""
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if nbytes < 1024 or unit == "PiB":
            return f"{nbytes:,} bytes" if unit == "bytes" else f"{nbytes:.3g} {unit}"
        nbytes /= 1024
    return ""


def check_finite(arrays: dict, where: str, hint: str = "", allow_nan=()) -> None:
    """ValueError naming the first array of ``arrays`` holding NaN or an infinity.

    ``where`` names the file (``"policy file 'out/p.npz'"``); arrays named in
    ``allow_nan`` may hold NaN (meaning "no value") but no infinity.
    """
    tail = f"; {hint}" if hint else ""
    for key, a in arrays.items():
        a = np.asarray(a)
        if a.dtype.kind not in "fc":
            continue
        bad = np.isinf(a) if key in allow_nan else ~np.isfinite(a)
        n = int(np.count_nonzero(bad))
        if n:
            kinds = "infinite" if key in allow_nan else "NaN or infinite"
            raise NpzError(f"{where}: array {key!r} holds {n:,} {kinds} values of {a.size:,}{tail}")
