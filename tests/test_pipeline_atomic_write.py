"""atomic_write_bytes: the umask's mode (not mkstemp's 0600), no temp file left on failure,
errors that name the target."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from buildds.pipeline import atomic_write_bytes, atomic_write_text


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_new_files_follow_the_umask(tmp_path: Path, umask: int, mode: int) -> None:
    old = os.umask(umask)
    try:
        assert atomic_write_text(tmp_path / "sub" / "a.json", "{}")
        assert atomic_write_text(tmp_path / "sub" / "a.json", "{\"b\": 1}")  # a rewrite too
    finally:
        os.umask(old)
    assert (tmp_path / "sub" / "a.json").stat().st_mode & 0o777 == mode
    assert (tmp_path / "sub").stat().st_mode & 0o777 == 0o777 & ~umask


def test_unchanged_bytes_are_not_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    assert atomic_write_bytes(path, b"x")
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    assert not atomic_write_bytes(path, b"x")
    assert path.stat().st_mtime_ns == 1_000_000_000


def test_a_failed_write_names_the_target_and_leaves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "report.json"
    path.write_text("old", encoding="utf-8")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError) as err:
        atomic_write_text(path, "new")
    assert err.value.errno == errno.ENOSPC
    assert err.value.filename == str(path)
    assert err.value.strerror == "cannot write: No space left on device"
    assert path.read_text("utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


def test_a_file_where_a_folder_should_be(tmp_path: Path) -> None:
    (tmp_path / "xml").write_text("a file", encoding="utf-8")
    with pytest.raises(NotADirectoryError) as err:
        atomic_write_text(tmp_path / "xml" / "2019" / "kenpo.xml", "<exam/>")
    assert err.value.filename == str(tmp_path / "xml" / "2019")
    assert err.value.strerror.startswith("cannot write: ")
