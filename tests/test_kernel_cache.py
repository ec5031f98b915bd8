"""The kernel cache is cleared when the sources change: __pycache__ and the tests' own folder."""

from __future__ import annotations

from trickgym._kernel_cache import OWNED_MARK, refresh_kernel_cache


def test_an_owned_cache_folder_is_cleared_once_per_change_of_sources(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    (tmp_path / OWNED_MARK).touch()
    stale = tmp_path / "sub" / "rules.apply_action-10.py311.nbi"
    stale.parent.mkdir()
    stale.write_bytes(b"old")
    assert refresh_kernel_cache() is True  # no stamp yet: the sources count as changed
    assert not stale.exists()
    stale.write_bytes(b"compiled from today's sources")
    assert refresh_kernel_cache() is False  # same sources: the cache stays
    assert stale.exists()
    (tmp_path / "trickgym-kernel-sources.sha1").write_text("another version")
    assert refresh_kernel_cache() is True
    assert not stale.exists()


def test_someone_elses_cache_folder_is_left_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    theirs = tmp_path / "theirs.f-1.py311.nbc"
    theirs.write_bytes(b"not ours")
    assert refresh_kernel_cache() is False
    assert theirs.exists()
