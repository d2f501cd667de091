"""Ctrl-C and kill -9 against a real ``buildds jbe`` process and its workers.

Scanned copies of the bundled sample booklets (rendered and saved as image-only PDFs here)
keep stage 1 busy with OCR: two pairs on two stage-1 workers, each with its own OCR pool
and tesseracts — every kind of process buildds starts. The signal goes to the whole process
group, as a terminal's Ctrl-C does.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.procs import descendants, needs_proc, wait_gone

pytestmark = [needs_proc, pytest.mark.ocr]

SAMPLE = Path(__file__).resolve().parents[2] / "buildds" / "sample" / "pdf"
SUBJECTS = ("kenpo", "minpo")


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``<raw>/2025/{kenpo,minpo}-mondai.pdf`` as image-only scans, with their keys."""
    if shutil.which("tesseract") is None:
        pytest.skip("needs tesseract")
    import pypdfium2 as pdfium

    raw = tmp_path_factory.mktemp("scanned")
    (raw / "2025").mkdir()
    for subject in SUBJECTS:
        pdf = pdfium.PdfDocument(SAMPLE / "2025" / f"{subject}-mondai.pdf")
        pages = [pdf[i].render(scale=150 / 72, grayscale=True).to_pil() for i in range(len(pdf))]
        pdf.close()
        pages[0].save(raw / "2025" / f"{subject}-mondai.pdf", save_all=True,
                      append_images=pages[1:], resolution=150)
        shutil.copyfile(SAMPLE / "2025" / f"{subject}-seito.pdf",
                        raw / "2025" / f"{subject}-seito.pdf")
    return raw


def _as_from_a_terminal() -> None:
    # A job started with & by a non-interactive shell (CI scripts, chroot runs) inherits
    # SIGINT ignored, and Python then keeps ignoring it; a terminal's program does not.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def popen(argv: list[str]) -> subprocess.Popen[str]:
    """``argv`` in a process group of its own, with SIGINT as a terminal gives it."""
    return subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=_as_from_a_terminal,  # noqa: PLW1509 - no threads
        cwd=Path(__file__).resolve().parents[2])


def start(raw: Path, out: Path, *extra: str) -> subprocess.Popen[str]:
    return popen([sys.executable, "-m", "buildds", "jbe", "--years", "2025", "--raw",
                  str(raw), "--out", str(out), "-q", *extra])


def wait_for_family(proc: subprocess.Popen[str], *, at_least: int, seconds: float = 30
                    ) -> dict[int, int]:
    """The build's processes, once there are ``at_least`` of them (it is then mid-OCR)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        family = descendants(proc.pid)
        if len(family) >= at_least:
            return family
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"the build never had {at_least} worker processes: "
                         f"{proc.communicate()}")


def test_ctrl_c_during_ocr_stops_every_worker_at_once(scanned: Path, tmp_path: Path) -> None:
    proc = start(scanned, tmp_path / "out", "-j", "2", "--subjects", ",".join(SUBJECTS))
    # two stage-1 workers, each with an OCR pool of two: six processes at least
    family = wait_for_family(proc, at_least=6)
    time.sleep(0.5)
    family.update(descendants(proc.pid))  # tesseracts started meanwhile
    os.killpg(proc.pid, signal.SIGINT)
    started = time.monotonic()
    stdout, stderr = proc.communicate(timeout=20)
    assert proc.returncode == 130, stderr
    assert time.monotonic() - started < 10
    assert stderr == "interrupted\n"  # no worker tracebacks, no "Aborted!"
    assert stdout == ""
    assert wait_gone(family, 5) == []
    out = tmp_path / "out"
    assert not out.exists() or not [p for p in out.iterdir() if p.name.startswith(".export.")]


def test_workers_exit_when_the_build_is_killed(scanned: Path, tmp_path: Path) -> None:
    proc = start(scanned, tmp_path / "out", "-j", "2", "--subjects", ",".join(SUBJECTS))
    family = wait_for_family(proc, at_least=6)
    time.sleep(0.5)
    family.update(descendants(proc.pid))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    assert wait_gone(family, 5) == []
    proc.communicate(timeout=10)  # every writer of its pipes is gone: no hang


def test_ctrl_c_while_contracts_are_read_by_ocr(scanned: Path, tmp_path: Path) -> None:
    """The OCR pool of ``buildds contracts`` (in the main process, no stage-1 workers)."""
    proc = popen([sys.executable, "-m", "buildds", "contracts",
                  str(scanned / "2025" / "kenpo-mondai.pdf"), "--out", str(tmp_path / "out"),
                  "-q"])
    family = wait_for_family(proc, at_least=2)
    time.sleep(0.5)
    family.update(descendants(proc.pid))
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=20)
    assert proc.returncode == 130, stderr
    assert stderr == "interrupted\n"
    assert wait_gone(family, 5) == []


def _tree(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and ".cache" not in p.relative_to(out).parts}


def test_an_interrupted_build_keeps_the_last_export_and_a_rerun_is_identical(
        tmp_path: Path) -> None:
    """Text booklets (no OCR: fast): a previous export (seed 1), a build with seed 0 cut off
    by Ctrl-C while its workers run, then the same build again: byte-identical to a build that
    was never interrupted, and the interrupted one left the previous export as it was."""
    def build(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "buildds", "jbe", "--years", "2025", "--raw", str(SAMPLE),
             "--out", str(out), "-q", *extra], capture_output=True, text=True, timeout=120,
            check=False, cwd=Path(__file__).resolve().parents[2])

    reference = tmp_path / "reference"
    assert build(reference).returncode == 0
    out = tmp_path / "out"
    assert build(out, "--seed", "1").returncode == 0
    previous = _tree(out)

    proc = start(SAMPLE, out, "-j", "2", "--no-cache")  # stage 1 redone: workers run
    wait_for_family(proc, at_least=2, seconds=60)
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert _tree(out) == previous
    assert not [p for p in out.iterdir() if p.name.startswith(".export.")]

    again = build(out)
    assert again.returncode == 0, again.stderr
    assert _tree(out) == _tree(reference)
