"""Staged outputs (buildds.staging): unchanged files untouched, a failure anywhere leaves the
previous outputs whole, stale staging folders cleaned but a live run's kept, modes from the
umask."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from buildds.errors import ExportError
from buildds.staging import OutputStaging, clean_stale_staging, is_staging_name


def tree(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes()
            for p in sorted(out.rglob("*")) if p.is_file()}


def first_build(out: Path) -> None:
    staging = OutputStaging(out)
    staging.write_text(out / "report.json", "{}\n")
    staging.write_text(out / "xml" / "2019" / "kenpo.xml", "<exam/>\n")
    dataset = staging.tree("dataset")
    dataset.mkdir()
    (dataset / "state.json").write_text("1", encoding="utf-8")
    staging.write_text(out / ".fingerprint", "1\n", last=True)
    staging.commit()


def test_commit_swaps_everything_in_and_leaves_no_staging(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first_build(out)
    assert tree(out) == {".fingerprint": b"1\n", "dataset/state.json": b"1",
                         "report.json": b"{}\n", "xml/2019/kenpo.xml": b"<exam/>\n"}
    assert not [p for p in out.iterdir() if is_staging_name(p.name)]


def test_unchanged_files_are_not_staged_and_keep_their_mtime(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first_build(out)
    for p in out.rglob("*"):
        os.utime(p, ns=(1_000_000_000, 1_000_000_000))
    os.utime(out, ns=(1_000_000_000, 1_000_000_000))
    before = {p: p.stat().st_mtime_ns for p in [out, *out.rglob("*")]}
    staging = OutputStaging(out)
    assert staging.write_text(out / "report.json", "{}\n") is False
    assert staging.pending == {}
    staging.commit()
    assert {p: p.stat().st_mtime_ns for p in [out, *out.rglob("*")]} == before


def test_remove_happens_at_commit(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first_build(out)
    staging = OutputStaging(out)
    staging.remove(out / "xml" / "2019" / "kenpo.xml")
    assert (out / "xml" / "2019" / "kenpo.xml").exists()
    staging.commit()
    assert not (out / "xml" / "2019" / "kenpo.xml").exists()


def test_a_failed_move_puts_everything_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    out = tmp_path / "out"
    first_build(out)
    before = tree(out)
    staging = OutputStaging(out)
    staging.write_text(out / "report.json", "{\"new\": 1}\n")
    staging.remove(out / "xml" / "2019" / "kenpo.xml")
    staging.write_text(out / "xml" / "2019" / "minpo.xml", "<exam/>\n")
    staging.write_text(out / ".fingerprint", "2\n", last=True)
    real = os.replace
    failed: list[object] = []

    def flaky(src: object, dst: object) -> None:
        if Path(str(dst)) == out / ".fingerprint" and not failed:  # the very last move
            failed.append(src)
            raise OSError(errno.ENOSPC, "No space left on device", str(dst))
        real(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", flaky)
    with pytest.raises(ExportError) as err:
        staging.commit()
    monkeypatch.setattr(os, "replace", real)
    assert str(err.value) == f"{out / '.fingerprint'}: cannot write: No space left on device"
    assert tree(out) == before
    assert not [p for p in out.iterdir() if is_staging_name(p.name)]


def test_a_failed_write_names_the_target_and_discards_the_staging(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    first_build(out)
    before = tree(out)
    staging = OutputStaging(out)
    staging.write_text(out / "report.json", "{\"new\": 1}\n")
    real_open = open

    def full(path: object, mode: str = "r", *a: object, **k: object) -> object:
        if "w" in mode and str(path).endswith("kenpo.xml"):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real_open(path, mode, *a, **k)  # type: ignore[call-overload]

    monkeypatch.setattr("builtins.open", full)
    with pytest.raises(ExportError) as err:
        staging.write_text(out / "xml" / "2019" / "kenpo.xml", "<exam version='2'/>\n")
    monkeypatch.setattr("builtins.open", real_open)
    assert str(err.value) == (f"{out / 'xml' / '2019' / 'kenpo.xml'}: cannot write: "
                              "No space left on device")
    assert tree(out) == before
    assert sorted(p.name for p in out.iterdir()) == [".fingerprint", "dataset", "report.json",
                                                     "xml"]


def test_a_file_where_a_folder_should_be(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first_build(out)
    (out / "data").write_text("not a folder", encoding="utf-8")
    before = tree(out)
    staging = OutputStaging(out)
    staging.write_text(out / "report.json", "{\"new\": 1}\n")
    staging.write_text(out / "data" / "test.parquet", "x")
    with pytest.raises(ExportError, match=r"data: cannot write: (File exists|Not a directory)"):
        staging.commit()
    assert tree(out) == before


def test_stale_staging_is_cleaned_but_a_live_one_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    # a live run: another process holding its staging folder
    live = subprocess.Popen([sys.executable, "-c", (
        "import sys, time\n"
        "from buildds.staging import OutputStaging\n"
        f"s = OutputStaging({str(out)!r}); s.write_text('x.txt', 'x')\n"
        "print(s.folder.name, flush=True); time.sleep(60)\n")],
        stdout=subprocess.PIPE, text=True)
    try:
        assert live.stdout is not None
        live_name = live.stdout.readline().strip()
        assert is_staging_name(live_name)
        stale = out / ".export.abcd1234"  # left by a run that is gone
        (stale / "dataset").mkdir(parents=True)
        not_ours = out / ".export.keep"  # not our pattern
        not_ours.mkdir()
        removed = clean_stale_staging(out)
        assert [p.name for p in removed] == [stale.name]
        assert (out / live_name).is_dir() and not_ours.is_dir()
    finally:
        live.kill()
        live.wait()
    # its owner is gone now (kill -9): the next run cleans it
    assert [p.name for p in clean_stale_staging(out)] == [live_name]


def test_a_run_cleans_stale_staging_when_it_first_writes(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / ".export.zzzz9999" / "data").mkdir(parents=True)
    staging = OutputStaging(out)
    staging.write_text(out / "a.txt", "a")
    assert not (out / ".export.zzzz9999").exists()
    staging.commit()
    assert sorted(p.name for p in out.iterdir()) == ["a.txt"]


def test_an_abandoned_staging_is_removed_when_dropped(tmp_path: Path) -> None:
    out = tmp_path / "out"
    staging = OutputStaging(out)
    staging.write_text(out / "a.txt", "a")
    folder = staging.folder
    assert folder.is_dir()
    del staging
    deadline = time.monotonic() + 5
    while folder.exists() and time.monotonic() < deadline:
        import gc

        gc.collect()
    assert not folder.exists()


def test_modes_follow_the_umask(tmp_path: Path) -> None:
    out = tmp_path / "out"
    old = os.umask(0o027)
    try:
        staging = OutputStaging(out)
        staging.write_text(out / "xml" / "2019" / "kenpo.xml", "<exam/>")
        staging.commit()
    finally:
        os.umask(old)
    assert (out / "xml" / "2019" / "kenpo.xml").stat().st_mode & 0o777 == 0o640
    assert (out / "xml" / "2019").stat().st_mode & 0o777 == 0o750
