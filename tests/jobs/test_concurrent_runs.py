"""Two ``buildds jbe`` runs into one ``--out`` at once: both finish, the outputs are those of
one run, and neither removes the other's staging folder (real processes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SAMPLE = Path(__file__).resolve().parents[2] / "buildds" / "sample" / "pdf"
ROOT = Path(__file__).resolve().parents[2]


def _args(out: Path) -> list[str]:
    return [sys.executable, "-m", "buildds", "jbe", "--years", "2025", "--raw", str(SAMPLE),
            "--out", str(out), "-q", "-j", "1"]


def _tree(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and ".cache" not in p.relative_to(out).parts}


def test_two_runs_into_one_out(tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    subprocess.run(_args(reference), check=True, capture_output=True, cwd=ROOT)
    out = tmp_path / "out"
    (out / ".export.dead0000").mkdir(parents=True)  # left by a run that was killed
    runs = [subprocess.Popen(_args(out), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=ROOT) for _ in range(2)]
    for run in runs:
        _, stderr = run.communicate(timeout=120)
        assert run.returncode == 0, stderr
        assert "Traceback" not in stderr
    assert _tree(out) == _tree(reference)
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".export.")) == []
