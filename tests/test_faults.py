"""Faults on output, through the command line: a folder that cannot be written, a disk that
fills up, Ctrl-C. Every command says which path and why in one line (exit 1, no traceback)
or ``interrupted`` (exit 130); a build keeps its last good export and report byte for byte.

Generated inputs only: the bundled sample exam and a generated .docx contract.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from buildds import staging as staging_mod
from buildds.cli import main
from buildds.staging import is_staging_name
from tests.jobs.test_contracts_job import make_docx

SAMPLE = Path(__file__).resolve().parents[1] / "buildds" / "sample" / "pdf"


def jbe_args(out: Path, *extra: str) -> list[str]:
    return ["jbe", "--years", "2025", "--raw", str(SAMPLE), "--out", str(out), "-q", "-j", "1",
            *extra]


def snapshot(out: Path) -> dict[str, bytes]:
    """Every output file but the cache (which a failed run may extend: content-addressed)."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and ".cache" not in p.relative_to(out).parts}


def no_staging_left(out: Path) -> bool:
    return not [p for p in out.iterdir() if is_staging_name(p.name)]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A good build of the sample, copied afresh for each test that changes it."""
    out = tmp_path_factory.mktemp("built") / "out"
    result = CliRunner().invoke(main, jbe_args(out))
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def out(built: Path, tmp_path: Path) -> Path:
    import shutil

    copy = tmp_path / "out"
    shutil.copytree(built, copy, symlinks=True)
    return copy


def full_disk_on(match: Callable[[str], bool]) -> Callable[..., Any]:
    """An ``open`` that fails like a full disk when writing a path ``match`` accepts."""
    real = open

    def fake(path: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if any(c in mode for c in "wax") and match(str(path)):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, mode, *args, **kwargs)

    return fake


# --------------------------------------------------------------------------- disk full
def test_disk_full_after_the_export_keeps_the_last_export_and_report(
        out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tester's case: the dataset is written, then the disk fills while the XML and the
    report are written. Nothing of the new run may show."""
    before = snapshot(out)
    # --seed 1 changes the few-shot draw, so the dataset, card and report all change
    monkeypatch.setattr(staging_mod, "open", full_disk_on(lambda p: p.endswith("report.json")),
                        raising=False)
    result = CliRunner().invoke(main, jbe_args(out, "--seed", "1"))
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines()[-1] == (
        f"Error: {out / 'report.json'}: cannot write: No space left on device")
    assert "Traceback" not in result.output
    assert snapshot(out) == before
    assert no_staging_left(out)
    monkeypatch.undo()
    again = CliRunner().invoke(main, jbe_args(out, "--seed", "1"))  # space again: it completes
    assert again.exit_code == 0, again.output
    assert snapshot(out) != before and no_staging_left(out)


def test_disk_full_while_saving_the_dataset(out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from buildds.export import common

    before = snapshot(out)

    def full(pq: Any, table: Any, path: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(common, "write_parquet", full)
    result = CliRunner().invoke(main, jbe_args(out, "--seed", "1"))
    assert result.exit_code == 1, result.output
    assert (f"{out / 'data' / 'test.parquet'}: cannot write the JBE-QA export: "
            "No space left on device") in result.output
    assert "Traceback" not in result.output
    assert snapshot(out) == before and no_staging_left(out)


def test_disk_full_in_the_middle_of_the_swap(out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Even a failure among the final renames puts the previous outputs back."""
    before = snapshot(out)
    real = os.replace
    failed: list[Any] = []

    def replace(src: Any, dst: Any) -> None:
        if str(dst) == str(out / "xml" / "2025" / "minpo.xml") and not failed \
                and ".replaced" not in str(src):  # the new file going in, not the old back
            failed.append(src)
            raise OSError(errno.ENOSPC, "No space left on device", str(dst))
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    xml = out / "xml" / "2025" / "minpo.xml"
    xml.write_bytes(xml.read_bytes() + b"<!-- edited -->")  # so that it is rewritten
    before = snapshot(out)
    result = CliRunner().invoke(main, jbe_args(out, "--seed", "1"))
    assert result.exit_code == 1, result.output
    assert f"{xml}: cannot write: No space left on device" in result.output
    assert snapshot(out) == before and no_staging_left(out)


# --------------------------------------------------------------------------- unwritable --out
def test_a_file_where_the_output_folder_should_be(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    result = CliRunner().invoke(main, jbe_args(blocker / "out"))
    assert result.exit_code == 1, result.output
    assert result.output.startswith(f"Error: {blocker / 'out'}")
    assert result.output.rstrip().endswith("Not a directory")
    assert "Traceback" not in result.output


def test_a_file_where_an_output_subfolder_should_be(out: Path) -> None:
    import shutil

    # a file in place of dataset/ is an old output like any other: replaced
    shutil.rmtree(out / "dataset")
    (out / "dataset").write_text("in the way", encoding="utf-8")
    result = CliRunner().invoke(main, jbe_args(out, "--seed", "1"))
    assert result.exit_code == 0, result.output
    assert (out / "dataset" / "dataset_dict.json").is_file()
    # a file in place of xml/, which must hold folders: the swap fails and is rolled back
    shutil.rmtree(out / "xml")
    (out / "xml").write_text("in the way", encoding="utf-8")
    before = snapshot(out)
    result = CliRunner().invoke(main, jbe_args(out, "--seed", "2"))
    assert result.exit_code == 1, result.output
    assert f"{out / 'xml' / '2025'}: cannot write: Not a directory" in result.output
    assert snapshot(out) == before and no_staging_left(out)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_output_folder(out: Path) -> None:
    before = snapshot(out)
    modes = {p: p.stat().st_mode for p in [out, *out.rglob("*")] if p.is_dir()}
    for p in modes:
        p.chmod(0o555)
    try:
        result = CliRunner().invoke(main, jbe_args(out, "--seed", "1"))
    finally:
        for p, mode in modes.items():
            p.chmod(mode)
    assert result.exit_code == 1, result.output
    assert "Permission denied" in result.output and "Traceback" not in result.output
    assert snapshot(out) == before


def test_contracts_into_an_unwritable_folder(tmp_path: Path) -> None:
    doc = make_docx(tmp_path / "契約.docx")
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    result = CliRunner().invoke(main, ["contracts", str(doc), "--out", str(blocker / "o"), "-q"])
    assert result.exit_code == 1, result.output
    assert f"{blocker / 'o'}" in result.output and "Not a directory" in result.output
    assert "Traceback" not in result.output


def test_validate_and_eval_into_an_unwritable_folder(built: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(built), "--out", str(blocker / "v")])
    assert result.exit_code == 1, result.output
    assert f"Error: {blocker / 'v'}: cannot write: Not a directory" in result.output
    result = CliRunner().invoke(main, ["eval", str(built), "--task", "jbe", "--model", "majority",
                                       "--out", str(blocker / "e")])
    assert result.exit_code == 1, result.output
    assert f"{blocker / 'e'}" in result.output and "Not a directory" in result.output
    assert "Traceback" not in result.output


# --------------------------------------------------------------------------- every command
def _commands(tmp_path: Path) -> dict[str, tuple[str, list[str]]]:
    """command → (library function it calls, arguments)."""
    law = tmp_path / "law"
    law.mkdir()
    (law / "criminal_law_PRC_2023_amendment12.md").write_text("# law\n", encoding="utf-8")
    csv = tmp_path / "similar.csv"
    csv.write_text("a,b\n", encoding="utf-8")
    doc = tmp_path / "a.json"
    doc.write_text("{}\n", encoding="utf-8")
    out = str(tmp_path / "out")
    return {
        "jbe": ("buildds.jobs.jbe.build_jbe", jbe_args(tmp_path / "out")),
        "contracts": ("buildds.jobs.contracts.build_contracts",
                      ["contracts", str(doc), "--out", out, "-q"]),
        "judgments": ("buildds.jobs.judgments.build_judgments",
                      ["judgments", str(doc), "--out", out, "--law", str(law),
                       "--confusable", str(csv), "-q"]),
        "eval": ("buildds.evaluate.runner.run_eval",
                 ["eval", str(tmp_path), "--task", "jbe", "--model", "majority", "--out", out]),
        "validate": ("buildds.validate.load.load_export", ["validate", str(tmp_path)]),
        "fetch": ("buildds.fetch.fetch_jbe",
                  ["fetch", "jbe", "--years", "2019", "--dest", out]),
    }


COMMANDS = ["jbe", "contracts", "judgments", "eval", "validate", "fetch"]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("code, reason", [(errno.ENOSPC, "No space left on device"),
                                          (errno.EDQUOT, "Disk quota exceeded"),
                                          (errno.EROFS, "Read-only file system"),
                                          (errno.EACCES, "Permission denied")])
def test_every_command_turns_an_os_error_into_one_line(
        command: str, code: int, reason: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    target, args = _commands(tmp_path)[command]
    where = tmp_path / "out" / "xml" / "2019"

    def fail(*a: Any, **k: Any) -> None:
        raise OSError(code, reason, str(where))

    monkeypatch.setattr(target, fail)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    assert result.output == f"Error: {where}: {reason}\n"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_exits_130_on_ctrl_c(command: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    target, args = _commands(tmp_path)[command]

    def interrupted(*a: Any, **k: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(target, interrupted)
    import signal

    previous = signal.getsignal(signal.SIGINT)
    try:
        result = CliRunner().invoke(main, args)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert result.exit_code == 130, result.output
    assert result.output == "interrupted\n"


def test_help_documents_the_exit_codes() -> None:
    result = subprocess.run([sys.executable, "-m", "buildds", "--help"], capture_output=True,
                            text=True, check=True)
    for line in ("0    done", "1    errors", "2    usage", "130  interrupted"):
        assert line in result.stdout


# --------------------------------------------------------------------------- a real full disk
@pytest.fixture
def small_disk(tmp_path: Path) -> Any:
    """A 1 MiB tmpfs (skipped where mounting is not allowed)."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)],
                             capture_output=True, check=False)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True, check=False)


def test_a_really_full_disk_keeps_the_last_export(small_disk: Path) -> None:
    out = small_disk / "out"

    def build(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "buildds", *jbe_args(out, *extra)],
                              capture_output=True, text=True, check=False,
                              cwd=Path(__file__).resolve().parents[1])

    first = build()
    assert first.returncode == 0, first.stderr
    before = snapshot(out)
    stat = os.statvfs(small_disk)
    filler = small_disk / "filler"
    filler.write_bytes(b"\0" * max(0, stat.f_bavail * stat.f_frsize - 16 * 1024))
    full = build("--seed", "1")
    assert full.returncode == 1, full.stderr
    assert full.stderr.startswith(f"Error: {out}")
    assert "No space left on device" in full.stderr and "Traceback" not in full.stderr
    assert snapshot(out) == before and no_staging_left(out)
    filler.unlink()
    again = build("--seed", "1")
    assert again.returncode == 0, again.stderr
    assert snapshot(out) != before and no_staging_left(out)


# --------------------------------------------------------------------------- file modes
def test_every_output_follows_the_umask(tmp_path: Path) -> None:
    out = tmp_path / "out"
    old = os.umask(0o027)
    try:
        result = CliRunner().invoke(main, jbe_args(out))
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.output
    modes = {(p.is_dir(), p.stat().st_mode & 0o777) for p in out.rglob("*")}
    assert modes == {(False, 0o640), (True, 0o750)}


def test_a_read_only_file_system_keeps_the_last_export(small_disk: Path) -> None:
    """A real read-only --out (remounted read-only: refused even to root)."""
    out = small_disk / "out"

    def build(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "buildds", *jbe_args(out, *extra)],
                              capture_output=True, text=True, check=False,
                              cwd=Path(__file__).resolve().parents[1])

    assert build().returncode == 0
    before = snapshot(out)
    remount = subprocess.run(["mount", "-o", "remount,ro", str(small_disk)],
                             capture_output=True, check=False)
    if remount.returncode != 0:
        pytest.skip("cannot remount read-only here")
    result = build("--seed", "1")
    subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=False)
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith(f"Error: {out}")
    assert result.stderr.rstrip().endswith("Read-only file system")
    assert "Traceback" not in result.stderr
    assert snapshot(out) == before


def test_ctrl_c_handling_puts_the_sigint_handler_back(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """After an interrupted command, a caller that goes on (here pytest) still has its Ctrl-C
    handler: processes it starts later must not inherit SIGINT ignored."""
    import signal

    import buildds.jobs.jbe

    def interrupted(*a: Any, **k: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(buildds.jobs.jbe, "build_jbe", interrupted)
    # as in a terminal (a run started in the background may begin with SIGINT ignored)
    outer = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        result = CliRunner().invoke(main, ["jbe", "--years", "2025", "--raw", str(tmp_path),
                                           "--out", str(tmp_path / "o"), "-q"])
        assert result.exit_code == 130
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, outer)


def test_a_ctrl_c_another_library_turns_into_its_own_error_is_still_an_interrupt(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pydantic-core reports a KeyboardInterrupt that came while it built a model as a
    SchemaError; the command must still end as interrupted (130), not with a traceback —
    while an error nobody pressed Ctrl-C for stays an error."""
    import signal

    import buildds.jobs.jbe

    def swallowed(*a: Any, **k: Any) -> None:
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # the handler raises before this ends
        except KeyboardInterrupt:
            raise RuntimeError("SchemaError: KeyboardInterrupt") from None

    def failing(*a: Any, **k: Any) -> None:
        raise RuntimeError("a real bug")

    args = ["jbe", "--years", "2025", "--raw", str(tmp_path), "--out", str(tmp_path / "o"), "-q"]
    outer = signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal
    try:
        monkeypatch.setattr(buildds.jobs.jbe, "build_jbe", swallowed)
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 130, result.output
        assert result.output == "interrupted\n"
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        monkeypatch.setattr(buildds.jobs.jbe, "build_jbe", failing)
        result = CliRunner().invoke(main, args)
        assert isinstance(result.exception, RuntimeError) and result.exit_code == 1
    finally:
        signal.signal(signal.SIGINT, outer)
