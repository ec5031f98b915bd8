"""Checks of user-given values: one implementation of each, shared by every surface.

Options, seeds, seats, actions and counts come from people (and from code
written by people): a float, a string, a bool or a huge integer must be
refused with a ``ValueError`` naming the value and what is allowed, before
anything is stored in a fixed-width field or allocated. Numbers are never
silently truncated (``52.7``), parsed (``"52"``) or wrapped (``2**32``).
"""

from __future__ import annotations

import importlib
import inspect
import json
import math
import operator
import os
import stat
import tempfile
from importlib import metadata
from urllib.parse import urlparse

import numpy as np

__all__ = [
    "INT32_MAX",
    "SEED_MAX",
    "TT_MB_MAX",
    "MissingExtraError",
    "as_int",
    "check_callable",
    "check_choice",
    "check_file",
    "check_flag",
    "check_int",
    "check_options",
    "check_path",
    "check_real",
    "check_seed",
    "check_tt_mb",
    "check_writable",
    "install_hint",
    "is_int",
    "kind_of",
    "require_extra",
    "split_names",
]

INT32_MAX = 2**31 - 1
SEED_MAX = 2**64 - 1
# Largest solver transposition table, in megabytes (16 GiB): a bigger one is a typo
# (``tt_mb=1e12``) that would end in a MemoryError, not a faster search.
TT_MB_MAX = 16384


def is_int(value) -> bool:
    """Whether ``value`` is an integer proper (``int``, numpy integer), not a bool."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def check_int(name: str, value, low: int | None = None, high: int | None = None) -> int:
    """``value`` as a Python int in ``low..high`` (either end open when ``None``).

    Raises ``ValueError`` naming ``name``, the value and the allowed range for
    anything else: floats (even ``2.0``), strings, bools, out-of-range ints.
    """
    if not is_int(value):
        raise ValueError(f"{name} must be an integer{_range(low, high)}, got {value!r}")
    v = operator.index(value)
    if (low is not None and v < low) or (high is not None and v > high):
        raise ValueError(f"{name} must be an integer{_range(low, high)}, got {v}")
    return v


def _range(low, high) -> str:
    if low is not None and high is not None:
        return f" {low}..{high}"
    if low is not None:
        return f" >= {low}"
    if high is not None:
        return f" <= {high}"
    return ""


def as_int(name: str, value) -> int:
    """An integer given as ``int``, numpy integer or 0-d integer array, as a Python int.

    What a policy returns for one action (``np.int64``, ``np.array(3)``) is
    accepted; ``52.7``, ``"52"``, ``None`` and bools are refused with a
    ``ValueError`` naming ``name``, never truncated or parsed.
    """
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iu":
        value = value[()]
    if not is_int(value):
        raise ValueError(f"{name} must be an integer, got {value!r} ({type(value).__name__})")
    return operator.index(value)


def check_real(
    name: str, value, low: float | None = None, high: float | None = None, *, above: bool = False
) -> float:
    """``value`` as a finite float in ``low..high`` (either end open when ``None``).

    No NaN, no infinity, no string, no bool. With ``above`` the value must be
    strictly greater than ``low`` (a size: ``tt_mb > 0``).
    """
    bound = ""
    if low is not None:
        bound = f" {'>' if above else '>='} {low}"
    if high is not None:
        bound += f"{' and' if bound else ''} <= {high}"
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.number):
        raise ValueError(f"{name} must be a finite number{bound}, got {value!r}")
    try:
        v = float(value)
    except OverflowError:  # an int past float's range (2**1024)
        v = math.inf
    too_low = low is not None and (v <= low if above else v < low)
    if not math.isfinite(v) or too_low or (high is not None and v > high):
        raise ValueError(f"{name} must be a finite number{bound}, got {value!r}")
    return v


def check_tt_mb(value, name: str = "tt_mb") -> float:
    """A solver table size in megabytes: a finite number ``> 0`` and ``<= TT_MB_MAX``."""
    return check_real(name, value, 0, TT_MB_MAX, above=True)


def check_callable(name: str, value, optional: bool = True, args: str | None = None):
    """``value`` if it can be called (or ``None`` when ``optional``), else a ``ValueError``.

    ``args`` names the call's arguments for the message (``"index, rows"``
    reads ``on_chunk must be a function on_chunk(index, rows)``).
    """
    if (value is None and optional) or (value is not None and callable(value)):
        return value
    call = "" if args is None else f" {name}({args})"
    raise ValueError(
        f"{name} must be a function{call}{' or None' if optional else ''}, got {value!r}"
    )


def check_choice(name: str, value, choices: tuple):
    """``value`` if it is one of ``choices`` (names or ``None``), else a ValueError listing them.

    Compared by type as well as value: ``True`` is not ``1``, and a numpy
    string or array is not a name.
    """
    for choice in choices:
        if value is choice or (type(value) is type(choice) and value == choice):
            return choice
    names = [repr(c) for c in choices]
    allowed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    raise ValueError(f"{name} must be {allowed}, got {value!r}")


def check_path(name: str, value, what: str = "folder path"):
    """``value`` as a path: a non-empty ``str`` or ``os.PathLike`` without NUL, else a ValueError.

    ``what`` says what the path is for the message (``"folder path"``,
    ``"file path"``). A NUL character can be in no path: ``open`` would
    say only ``embedded null byte``, naming neither the argument nor the path.
    """
    if isinstance(value, os.PathLike) or (isinstance(value, str) and value):
        if "\x00" in os.fspath(value):
            raise ValueError(f"{name} must be a {what} without NUL characters, got {value!r}")
        return value
    kinds = "" if isinstance(value, str) else " (a str or Path)"  # '' at the command line
    raise ValueError(f"{name} must be a {what}{kinds}, got {value!r}")


def check_file(name: str, value):
    """``value`` as the path of an existing file to read, else a ``ValueError`` saying why not."""
    check_path(name, value, "file path")
    if not os.path.exists(value):
        raise ValueError(f"{name} {os.fspath(value)!r}: no such file")
    if not os.path.isfile(value):
        raise ValueError(f"{name} {os.fspath(value)!r} is a folder, not a file")
    return value


def check_writable(name: str, value, folder: bool = False, parents: bool = False):
    """``value`` as a path that can be written (a file, or a ``folder``), checked before any work.

    A run must fail at once, not after hours, if its output cannot be
    written. A folder's missing parents are fine (they are created); a
    file's folder must exist, unless ``parents`` (the caller creates it).
    The nearest existing folder must take a new file: tried, since
    ``os.access`` says yes to root everywhere (``/proc``).
    A file must not be a folder, and a folder must not be a file.
    """
    check_path(name, value, "folder path" if folder else "file path")
    path = os.path.abspath(os.fspath(value))
    if os.path.isdir(path) and not folder:
        raise ValueError(f"{name} {os.fspath(value)!r} is a folder; give a file path")
    if os.path.isfile(path) and folder:
        raise ValueError(f"{name} {os.fspath(value)!r} is a file; give a folder path")
    parent = os.path.dirname(path)
    while not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent):
        raise ValueError(f"{name} {os.fspath(value)!r}: {parent!r} is not a folder")
    if not folder and not parents and parent != os.path.dirname(path):
        missing = os.path.dirname(path)
        raise ValueError(f"{name} {os.fspath(value)!r}: folder {missing!r} does not exist")
    try:
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError:
        raise ValueError(
            f"{name} {os.fspath(value)!r}: folder {parent!r} is not writable"
        ) from None
    return value


def record_or_keywords(name: str, record, cls: type, given: dict, what: str = ""):
    """``record`` (a ``cls``), or ``cls(**given)`` when it is ``None``: an option group
    given as one record or as its fields' keywords, not both.

    ``what`` follows the type in the error (e.g. ``" for phat"``).
    """
    if record is None:
        return cls(**given)
    if not isinstance(record, cls):
        raise ValueError(f"{name} must be a {cls.__name__} record{what} or None, got {record!r}")
    if given:
        raise ValueError(
            f"{', '.join(given)} given both in {name}= and as a keyword: pass one or the other"
        )
    return record


def split_names(name: str, value: str, example: str) -> list[str]:
    """The names of a comma-separated list (``"rule,random"``), each stripped.

    An empty item (``"rule,"``, ``",rule"``, ``"a,,b"``, ``""``) is a slip,
    never skipped: it is refused naming the list and an ``example``.
    """
    if not value.strip():
        raise ValueError(
            f"{name} must be one or more names separated by commas, e.g. {example}, got {value!r}"
        )
    names = [n.strip() for n in value.split(",")]
    if "" in names:
        raise ValueError(
            f"{name} {value!r} has an empty name: give names separated by commas, e.g. {example}"
        )
    return names


def check_seed(value, name: str = "seed", high: int = SEED_MAX, optional: bool = True):
    """A seed ``0..high`` as a Python int (numpy integers accepted, bools not), or ``None``.

    The one rule for seeds everywhere (``2**64`` would alias seed 0); with
    ``optional=False`` a ``None`` is refused too.
    """
    if value is None and optional:
        return None
    if not is_int(value) or not 0 <= value <= high:
        allowed = f"a non-negative integer 0..{high}{', or None' if optional else ''}"
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return operator.index(value)


def check_flag(name: str, value) -> bool:
    """``value`` as a bool: only ``True``/``False`` (numpy's too), not ``0``/``1``/``"yes"``."""
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


class MissingExtraError(ImportError):
    """An optional dependency is not installed; the message names the extra to install."""


def require_extra(module: str, extra: str, what: str):
    """Import ``module``, or raise :class:`MissingExtraError` naming the extra that installs it.

    ``what`` says what needs it (``"--backend dask"``); the message reads
    ``"--backend dask needs the dask extra (distributed is not installed):
    pip install ..."`` with the command of :func:`install_hint`.
    """
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise MissingExtraError(
            f"{what} needs the {extra} extra ({err.name or module} is not installed): "
            f"{install_hint(extra)}"
        ) from err


def _quoted(text: str) -> str:
    """``text`` for a POSIX shell, always quoted (``[dask]`` is a glob in zsh)."""
    # lazy: keeps `import trickgym` light
    import shlex

    return f"'{text}'" if "'" not in text else shlex.quote(text)


def install_hint(extra: str, dist=None) -> str:
    """The pip command that adds trickgym's ``extra`` to trickgym as it was installed.

    trickgym is not on a package index, so ``pip install 'trickgym[dask]'``
    only works for a wheel installed from one. The distribution's
    ``direct_url.json`` (PEP 610) says where it came from: a local folder
    (``pip install -e '/path[dask]'`` if editable), a VCS URL (``pip install
    'trickgym[dask] @ git+URL'``) or an archive (``'trickgym[dask] @ URL'``).
    The extra's own packages, read from the installed metadata, follow as
    the alternative. ``dist`` is an ``importlib.metadata.Distribution``
    (default: the installed trickgym).
    """
    if dist is None:
        try:
            dist = metadata.distribution("trickgym")
        except metadata.PackageNotFoundError:  # run from a source tree, never installed
            return f"pip install -e '.[{extra}]' in a trickgym checkout"
    try:
        origin = json.loads(dist.read_text("direct_url.json") or "null")
    except ValueError:  # a damaged record: fall back to the index form
        origin = None
    command = f"pip install {_quoted(f'trickgym[{extra}]')}"
    if isinstance(origin, dict) and isinstance(origin.get("url"), str):
        url = origin["url"]
        vcs = origin.get("vcs_info")
        if isinstance(vcs, dict):
            rev = vcs.get("requested_revision")
            source = f"{vcs.get('vcs', 'git')}+{url}{f'@{rev}' if rev else ''}"
            command = f"pip install {_quoted(f'trickgym[{extra}] @ {source}')}"
        elif "dir_info" in origin and urlparse(url).scheme == "file":
            # lazy: urllib.request loads http and ssl, 30 ms on every import of trickgym
            from urllib.request import url2pathname

            path = url2pathname(urlparse(url).path)
            editable = "-e " if (origin.get("dir_info") or {}).get("editable") else ""
            command = f"pip install {editable}{_quoted(f'{path}[{extra}]')}"
        else:  # an archive (wheel or sdist), local or remote
            command = f"pip install {_quoted(f'trickgym[{extra}] @ {url}')}"
    packages = []
    for requirement in dist.requires or []:
        spec, _, marker = requirement.partition(";")
        if marker.replace("'", '"').replace(" ", "").find(f'extra=="{extra}"') >= 0:
            packages.append(_quoted(spec.strip()))
    if packages:
        command += f" (or only its packages: pip install {' '.join(packages)})"
    return command


def kind_of(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, in words (``"a directory"``): for messages."""
    for test, words in (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return words
    return "not a regular file"


def check_options(name: str, target, game, kwargs: dict) -> None:
    """Refuse an option that ``target`` (an agent class or factory) does not take.

    A ``ValueError`` naming the agent and the option, before the agent is made
    (Python's own ``TypeError`` names ``__init__``, not what the user typed).
    """
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):  # no signature to read: the call itself will say
        return
    # A target whose **keywords are a fixed set of options names them in keyword_options.
    keyword_options = tuple(getattr(target, "keyword_options", ()))
    params = [
        p.name
        for p in signature.parameters.values()
        if p.name != "game" and p.kind is not p.VAR_KEYWORD
    ] + list(keyword_options)
    unknown = [f"{k}={v!r}" for k, v in kwargs.items() if k not in params]
    try:
        signature.bind(game, **kwargs)
    except TypeError as err:
        if not unknown:
            raise ValueError(f"agent {name!r}: {err}") from None
    else:
        if not (keyword_options and unknown):
            return
    raise ValueError(
        f"agent {name!r} has no option {', '.join(unknown)}; its options: {', '.join(params)}"
    ) from None
