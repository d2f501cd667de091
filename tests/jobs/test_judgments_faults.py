"""``buildds judgments`` on a full disk: the last export, rejects and report stay as they were
(the first 20 JuDGE judgments of ../shared; skipped when it is absent)."""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from buildds import staging as staging_mod
from buildds.cli import main
from buildds.staging import is_staging_name
from tests.conftest import shared_path


def _args(out: Path, *extra: str) -> list[str]:
    shared = shared_path("realdata", "judgments")
    return ["judgments", str(shared / "judge-benchmark" / "test.json"), "--out", str(out),
            "--law", str(shared / "cn-criminal-law"),
            "--confusable", str(shared / "cn-confusable-charges"
                                / "legalattack_sheet1_similar_charges.csv"),
            "--limit", "20", "-q", *extra]


def _tree(out: Path) -> dict[str, bytes]:
    """The outputs (not .shards/: the finished shards a failed run keeps so the next resumes)."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.relative_to(out).parts[0] != ".shards"}


def test_disk_full_while_writing_the_report_keeps_the_last_export(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "arbench"
    first = CliRunner().invoke(main, _args(out))
    assert first.exit_code == 0, first.output
    before = _tree(out)
    real = open

    def full(path: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if "w" in mode and str(path).endswith("report.md"):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, mode, *args, **kwargs)

    monkeypatch.setattr(staging_mod, "open", full, raising=False)
    result = CliRunner().invoke(main, _args(out, "--seed", "1"))  # a new export, new report
    assert result.exit_code == 1, result.output
    assert result.output == f"Error: {out / 'report.md'}: cannot write: No space left on device\n"
    assert _tree(out) == before
    assert not [p for p in out.iterdir() if is_staging_name(p.name)]
    monkeypatch.undo()
    again = CliRunner().invoke(main, _args(out, "--seed", "1"))
    assert again.exit_code == 0, again.output
    assert _tree(out) != before
