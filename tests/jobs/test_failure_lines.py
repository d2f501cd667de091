"""The console names each failed file with its reason (buildds/commands/failures.py), for
``buildds contracts`` as for ``buildds jbe`` (tests/jobs/test_jbe_bad_inputs.py)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from buildds.cli import main
from tests.conftest import simple_pdf_bytes


def test_contracts_console_names_failed_files(tmp_path: Path) -> None:
    good = tmp_path / "good.pdf"
    good.write_bytes(simple_pdf_bytes("Article 1 (Purpose)", "This agreement sets out terms."))
    bad = [tmp_path / f"bad{i}.pdf" for i in range(7)]
    for path in bad:
        path.write_text("not a pdf at all\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["contracts", str(good), *map(str, bad), "--out",
                                       str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert "(7 files failed)" in result.output
    failed = [ln for ln in result.output.splitlines() if ln.startswith("failed: ")]
    assert len(failed) == 5
    assert all("bad" in ln and "not a PDF" in ln for ln in failed), failed
    assert f"… and 2 more (see {out / 'report.md'})" in result.output
    strict = CliRunner().invoke(main, ["contracts", str(good), str(bad[0]), "--out",
                                       str(tmp_path / "o2"), "-q", "--strict"])
    assert strict.exit_code == 1 and "failed: " in strict.output
