"""Weight files that cannot hurt (issue 42): every loader refuses a bad file in one line.

Each crafted file (empty, a bare ``.npy``, a text or pickle file, a folder,
a FIFO, a 300-byte archive whose header claims 10**12 elements, a member
inflating past its declared size, object arrays, NaN or infinite weights)
is given to every loader of ``.npz`` files: policy files (``policy:PATH``,
``trickgym evaluate --policy``), learnt value nets (``ValueNet.load``,
``LearntAgent(weights=...)``) and distillation labels. Each must raise one
``ValueError`` line naming the path, what is wrong and what to do, without
allocating more than the file's declared arrays. A seeded fuzz of
truncations, bit flips and edited arrays of valid files checks the same:
a valid object or a ``ValueError``, nothing else, never a hang or a big
allocation.
"""

from __future__ import annotations

import io
import json
import os
import signal
import struct
import tracemalloc
import zipfile
from contextlib import contextmanager

import numpy as np
import pytest

from trickgym.agents.learnt import LearntAgent
from trickgym.agents.learnt.net import ValueNet
from trickgym.agents.policy import load_policy
from trickgym.npzfile import MAX_BYTES, load_npz
from trickgym.training.distill import Labels

# Peak Python/numpy allocation allowed while refusing a crafted file (tracemalloc sees
# numpy's buffers): far below what the files claim (terabytes, or 100 MB inflated).
PEAK_LIMIT = 16 * 2**20


def _learnt(path):
    return LearntAgent("solowhist", weights=path)


#: name -> (load(path), the words naming the file in messages)
LOADERS = {
    "policy": (load_policy, "policy file"),
    "value net": (ValueNet.load, "weights file"),
    "learnt agent": (_learnt, "weights file"),
    "labels": (Labels.load, "labels file"),
}


@contextmanager
def deadline(seconds: int):
    """Fail (not hang) if the block takes longer than ``seconds`` (a FIFO read would block)."""

    def expired(signum, frame):
        raise TimeoutError(f"took over {seconds} s: a hang")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def refused(load, path, *words) -> str:
    """``load(path)`` raises one ValueError line holding ``words`` and the path, and
    allocates less than ``PEAK_LIMIT`` on the way."""
    tracemalloc.start()
    try:
        with deadline(20):
            load(path)
    except ValueError as err:
        message = str(err)
    else:
        pytest.fail(f"SILENT: {path} accepted")
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < PEAK_LIMIT, f"refusing {path} allocated {peak:,} bytes"
    assert "\n" not in message, f"not one line: {message!r}"
    missing = [w for w in (*words, str(path)) if w not in message]
    assert not missing, f"UNCLEAR: {message!r} does not name {missing}"
    return message


# ------------------------------------------------------------------ crafted files


def npy_bytes(array) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array)
    return buf.getvalue()


def npy_header(descr: str, shape: tuple) -> bytes:
    """An .npy header alone, claiming ``shape`` of ``descr``."""
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        buf, {"descr": descr, "fortran_order": False, "shape": shape}
    )
    return buf.getvalue()


def write_zip(path, members: dict, compress=zipfile.ZIP_STORED):
    with zipfile.ZipFile(path, "w", compression=compress) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def patch_sizes(path, size: int) -> None:
    """Set the declared uncompressed size of a one-member zip (local and central headers)."""
    raw = bytearray(path.read_bytes())
    struct.pack_into("<I", raw, 22, size)  # local file header: uncompressed size
    central = raw.rfind(b"PK\x01\x02")
    struct.pack_into("<I", raw, central + 24, size)
    path.write_bytes(bytes(raw))


def make_empty(p):
    p.write_bytes(b"")


def make_bare_npy(p):
    p.write_bytes(npy_bytes(np.ones((3, 2), np.float32)))


def make_text(p):
    p.write_text("w0,b0\n1,2\n")


def make_pickle(p):
    import pickle

    p.write_bytes(pickle.dumps({"w0": [1.0]}))


def make_directory(p):
    p.mkdir()


def make_fifo(p):
    os.mkfifo(p)


def make_huge_header(p):
    write_zip(p, {"w0.npy": npy_header("<f4", (10**12,)) + bytes(16)})
    assert p.stat().st_size < 400


def make_huge_declared(p):
    """Header and zip both declare 4 GB: refused by the cap before any read."""
    n = (2**32 - 2 - 128) // 4
    head = npy_header("<f4", (n,))
    write_zip(p, {"w0.npy": head + bytes(64)}, zipfile.ZIP_DEFLATED)
    patch_sizes(p, len(head) + 4 * n)


def make_inflating(p):
    """A member declaring 80 bytes of data whose deflate stream inflates to 100 MB."""
    head = npy_header("<f8", (10,))
    write_zip(p, {"w0.npy": head + bytes(100 * 2**20)}, zipfile.ZIP_DEFLATED)
    patch_sizes(p, len(head) + 80)


def make_object(p):
    buf = io.BytesIO()
    np.save(buf, np.array([{"x": 1}, None], dtype=object), allow_pickle=True)
    write_zip(p, {"w0.npy": buf.getvalue()})


def make_not_npy(p):
    write_zip(p, {"w0.npy": npy_bytes(np.ones(2)), "notes.txt": b"hello"})


def make_truncated(p):
    np.savez(p, w0=np.ones((30, 4), np.float32), b0=np.zeros(4, np.float32))
    p.write_bytes(p.read_bytes()[:300])


#: case -> (make(path), words the message must hold)
CASES = {
    "empty": (make_empty, ["is empty (0 bytes)"]),
    "bare npy": (make_bare_npy, ["is a bare .npy array", "not an .npz archive"]),
    "text": (make_text, ["is a text file", "not an .npz archive"]),
    "pickle": (make_pickle, ["is pickled Python data", "never unpickled"]),
    "directory": (make_directory, ["is a directory"]),
    "fifo": (make_fifo, ["is a FIFO (named pipe)"]),
    "missing": (lambda p: None, ["does not exist"]),
    "huge header": (make_huge_header, ["declares float32[1000000000000] (3.64 TiB)"]),
    "huge declared": (make_huge_declared, [f"over the {MAX_BYTES:,}-byte limit"]),
    "inflating": (make_inflating, ["damaged .npz archive"]),
    "object": (make_object, ["'w0' has dtype object", "pickle"]),
    "not npy member": (make_not_npy, ["'notes.txt', not an .npy array"]),
    "truncated": (make_truncated, ["damaged .npz archive"]),
}


@pytest.mark.parametrize("loader", list(LOADERS))
@pytest.mark.parametrize("case", list(CASES))
def test_crafted_file_is_refused_in_one_line(tmp_path, case, loader):
    make, words = CASES[case]
    load, named = LOADERS[loader]
    if case == "huge declared" and loader == "labels":  # labels may be bigger than weights
        words = ["is truncated"]  # under their cap: read until the data ends
    path = tmp_path / "w.npz"
    make(path)
    message = refused(load, path, named, *words)
    assert "; " in message  # ... and what to do


def test_what_to_do_is_said_per_loader(tmp_path):
    path = tmp_path / "w.npz"
    path.write_bytes(b"")
    assert "experiments/cleanrl_masked_ppo.py" in refused(load_policy, path)
    assert "retrain with experiments/train_learnt.py" in refused(ValueNet.load, path)
    assert "relabel with experiments/train_learnt.py" in refused(Labels.load, path)


def test_cli_evaluate_names_a_bad_policy_file(tmp_path, capsys):
    from trickgym.cli import main

    path = tmp_path / "policy.npz"
    path.write_bytes(npy_bytes(np.ones(3)))
    assert main(["evaluate", "--game", "solowhist", "--policy", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("trickgym: error: policy file")
    assert "is a bare .npy array" in err


def test_a_plain_npz_loads_as_arrays(tmp_path):
    """What numpy writes is read back exactly, C and Fortran order, strings too."""
    arrays = {
        "a": np.arange(12, dtype=">i4").reshape(3, 4),
        "f": np.asfortranarray(np.arange(6.0).reshape(2, 3)),
        "s": np.array("{}"),
        "e": np.zeros((0, 5), np.float32),
    }
    np.savez_compressed(tmp_path / "x.npz", **arrays)
    back = load_npz(tmp_path / "x.npz")
    assert list(back) == list(arrays)
    for key, a in arrays.items():
        assert back[key].dtype == a.dtype and np.array_equal(back[key], a)
        assert back[key].flags.writeable


# ------------------------------------------------------------------ array contents


def small_policy() -> dict:
    rng = np.random.default_rng(0)
    return {
        "w0": rng.normal(size=(20, 8)).astype(np.float32),
        "b0": np.zeros(8, np.float32),
        "w1": rng.normal(size=(8, 5)).astype(np.float32),
        "b1": np.zeros(5, np.float32),
    }


def small_net() -> ValueNet:
    import trickgym

    return ValueNet.for_game(trickgym.game("solowhist"), hidden=(4,), seed=1)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, 1e300])
def test_non_finite_policy_weights_are_refused(tmp_path, bad):
    weights = small_policy()
    weights["w1"] = weights["w1"].astype(np.float64)
    weights["w1"][2, 3] = bad  # 1e300: infinite as the float32 the policy plays in
    path = tmp_path / "p.npz"
    np.savez(path, **weights)
    message = refused(load_policy, path, "array 'w1' holds 1 NaN or infinite values of 40")
    assert "retrain" in message


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_net_weights_are_refused(tmp_path, bad):
    net = small_net()
    net.biases[0][1] = bad
    path = net.save(tmp_path / "w.npz")
    refused(ValueNet.load, path, "weights file", "array 'b0' holds 1 NaN or infinite values")
    refused(_learnt, path, "array 'b0'")


def rewrite(path, edit) -> None:
    """Rewrite the ``.npz`` at ``path`` with ``edit(arrays)`` applied (np.savez_compressed)."""
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    edit(arrays)
    np.savez_compressed(path, **arrays)


def set_meta(**changes):
    def edit(arrays):
        meta = json.loads(str(arrays["meta"]))
        meta.update(changes)
        arrays["meta"] = np.array(json.dumps(meta))

    return edit


NET_EDITS = {
    "no meta": (lambda a: a.pop("meta"), "no 'meta' entry"),
    "meta not json": (lambda a: a.update(meta=np.array("{oops")), "not JSON"),
    "meta a list": (lambda a: a.update(meta=np.array("[1]")), "a JSON list, not an object"),
    "meta numbers": (lambda a: a.update(meta=np.zeros(3)), "not a JSON string"),
    "format": (set_meta(format=2), "weights format 2"),
    "layers": (set_meta(layers=10**9), "meta layers 1000000000"),
    "layers bool": (set_meta(layers=True), "meta layers True"),
    "scale": (set_meta(scale=float("nan")), "meta scale nan"),
    "margins": (set_meta(margins=[1]), "meta margins [1]"),
    "margin value": (set_meta(margins={"1": "x"}), "margins['1'] 'x'"),
    "trained": (set_meta(trained_actions={"4": [1, -2]}), "trained_actions['4']"),
    "missing layer": (lambda a: a.pop("w1"), "missing ['w1']"),
    "extra array": (lambda a: a.update(w9=np.zeros(2)), "unexpected ['w9']"),
    "bad chain": (lambda a: a.update(w1=np.zeros((3, 66), np.float32)), "w1 takes 3 inputs"),
    "bias shape": (lambda a: a.update(b0=np.zeros(5, np.float32)), "b0 float[n_out]"),
    "string weights": (lambda a: a.update(w0=np.array(["x"] * 4)), "w0 must be a real"),
}


@pytest.mark.parametrize("case", list(NET_EDITS))
def test_damaged_net_contents_are_named(tmp_path, case):
    edit, words = NET_EDITS[case]
    path = small_net().save(tmp_path / "w.npz")
    rewrite(path, edit)
    assert "retrain with" in refused(ValueNet.load, path, words)


def test_labels_keep_their_nan_but_not_infinities(tmp_path):
    n, f, a = 6, 5, 4
    values = np.full((n, a), np.nan, np.float32)
    values[:, 0] = 1.0
    labels = Labels(
        np.zeros((n, f), np.float16), values, np.zeros(n, np.int16), np.zeros(n, np.int8)
    )
    labels.save(tmp_path / "l.npz")
    assert len(Labels.load(tmp_path / "l.npz")) == n
    labels.values[2, 1] = np.inf
    labels.save(tmp_path / "l.npz")
    refused(Labels.load, tmp_path / "l.npz", "array 'values' holds 1 infinite values")
    labels.values[2, 1] = 0
    labels.rule = np.zeros(n + 1, np.int16)
    labels.save(tmp_path / "l.npz")
    refused(Labels.load, tmp_path / "l.npz", "one row per decision")


def test_shipped_weights_still_load():
    from trickgym.agents.learnt.agent import WEIGHTS_DIR

    files = sorted(WEIGHTS_DIR.rglob("*.npz"))
    assert files
    for path in files:
        assert ValueNet.load(path).n_outputs > 0


# ------------------------------------------------------------------ fuzz


def mutations(raw: bytes, rng, n: int):
    """``n`` damaged copies of ``raw``: truncations, bit flips, byte runs overwritten."""
    for i in range(n):
        data = bytearray(raw)
        kind = i % 4
        if kind == 0:
            data = data[: int(rng.integers(0, len(data)))]
        elif kind == 1:
            for at in rng.integers(0, len(data), int(rng.integers(1, 9))):
                data[at] ^= 1 << int(rng.integers(0, 8))
        elif kind == 2:  # the headers are at the ends: a zip's central directory, the first member
            at = (
                int(rng.integers(0, 200))
                if rng.random() < 0.5
                else len(data) - 1 - int(rng.integers(0, min(300, len(data))))
            )
            data[at : at + 4] = rng.integers(0, 256, 4, dtype=np.uint8).tobytes()
        else:  # a size field made huge
            at = int(rng.integers(0, len(data) - 4))
            data[at : at + 4] = struct.pack("<I", int(rng.choice([2**31 - 1, 2**32 - 1, 10**9])))
        yield bytes(data)


def fuzz(tmp_path, raw: bytes, load, seed: int, n: int) -> dict:
    """Load ``n`` mutations of ``raw``: each a valid object or a one-line ValueError."""
    rng = np.random.default_rng(seed)
    path = tmp_path / "fuzz.npz"
    outcomes = {"loaded": 0, "refused": 0}
    tracemalloc.start()
    try:
        with deadline(120):
            for data in mutations(raw, rng, n):
                path.write_bytes(data)
                try:
                    load(path)
                    outcomes["loaded"] += 1
                except ValueError as err:
                    assert "\n" not in str(err) and str(path) in str(err), str(err)
                    outcomes["refused"] += 1
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * PEAK_LIMIT, f"the fuzz allocated {peak:,} bytes at its peak"
    return outcomes


def test_fuzzed_policy_files_load_or_are_refused(tmp_path):
    np.savez(tmp_path / "p.npz", **small_policy())
    raw = (tmp_path / "p.npz").read_bytes()
    outcomes = fuzz(tmp_path, raw, load_policy, seed=42, n=400)
    assert outcomes["refused"] > 200  # the mutations hurt: the test tests something


def test_fuzzed_value_nets_load_or_are_refused(tmp_path):
    raw = small_net().save(tmp_path / "w.npz").read_bytes()
    outcomes = fuzz(tmp_path, raw, ValueNet.load, seed=7, n=400)
    assert outcomes["refused"] > 200


def test_fuzzed_uncompressed_net_arrays_are_checked(tmp_path):
    """Stored (uncompressed) members: flips land in the .npy headers and data, not only
    in the deflate streams, whose CRC catches them."""
    path = small_net().save(tmp_path / "w.npz")
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    np.savez(path, **arrays)
    fuzz(tmp_path, path.read_bytes(), ValueNet.load, seed=3, n=200)


def test_a_damaged_phat_win_table_is_named(monkeypatch, tmp_path):
    """The shipped table read at import goes through the same loader."""
    from trickgym.solvers import phat_race

    monkeypatch.setattr(phat_race, "TABLE_FILE", "no_such_table.npz")
    with pytest.raises(ValueError, match=r"Phat win table .*no_such_table\.npz' does not exist"):
        phat_race._load()
    assert phat_race._WIN16.flags.writeable and phat_race.BONUS.flags.writeable
