"""Ctrl-C during ``buildds contracts --executor ray``: the run ends at once with exit 130 and
"interrupted", the Ray instance it started (and every worker of it) is gone, and nothing is
half-written under ``--out``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.extract.contracts.test_reader import (
    DPI,
    OCR_LINES,
    needs_font,
    needs_tesseract,
    render_png,
)
from tests.jobs.test_interrupts import popen
from tests.procs import descendants, needs_proc, wait_gone


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


@needs_proc
@needs_font
@needs_tesseract
def test_ctrl_c_on_ray_stops_the_instance(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="ray is not installed (pip install 'buildds[ray]')")
    from PIL import Image

    pages = [render_png(tmp_path / f"p{i}.png", OCR_LINES) for i in range(6)]
    scan = tmp_path / "scan.pdf"
    with Image.open(pages[0]) as first:
        rest = [Image.open(p).convert("RGB") for p in pages[1:]]
        first.convert("RGB").save(scan, "PDF", resolution=DPI, save_all=True,
                                  append_images=rest)
    out = tmp_path / "out"
    proc = popen([sys.executable, "-m", "buildds", "contracts", str(scan), "--out", str(out),
                  "-q", "--ocr-lang", "jpn", "--executor", "ray"])
    family: dict[int, int] = {}
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and proc.poll() is None:
        family = descendants(proc.pid)
        if any(_cmdline(pid).startswith("ray::_call") for pid in family):
            break  # a page is being read on a Ray worker
        time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail(f"no Ray task ever ran: {proc.communicate()}")
    family.update(descendants(proc.pid))
    started = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, stderr = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    assert proc.returncode == 130, stderr
    assert stderr.endswith("interrupted\n"), stderr
    assert time.monotonic() - started < 30
    assert wait_gone(family, 15) == []
    assert not out.exists() or not list(out.rglob("*.tmp"))
