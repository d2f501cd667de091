"""A run that built nothing never exits 0: jbe with no buildable booklet or a dataset that
was not exported, contracts with no readable file. Partial failures are listed and fail the
run only with --strict."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from buildds.cli import main

REPO = Path(__file__).resolve().parents[1]
SAMPLE_DOCX = next((REPO / "buildds" / "sample" / "highbar").rglob("*.docx"))


def test_jbe_with_no_buildable_booklet_exits_1(tmp_path: Path) -> None:
    raw = tmp_path / "raw" / "2025"
    raw.mkdir(parents=True)
    (raw / "minpo-mondai.pdf").write_text("not a pdf\n")
    (raw / "minpo-seito.pdf").write_text("nor this\n")
    result = CliRunner().invoke(main, ["jbe", "--years", "2025", "--raw", str(raw.parent),
                                       "--subjects", "minpo", "--out", str(tmp_path / "o"),
                                       "-q", "--corrections", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert "0 XML" in result.output
    assert "minpo-mondai.pdf: not a PDF" in result.output


def test_jbe_one_good_and_one_failed_subject(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    shutil.copytree(REPO / "buildds" / "sample" / "pdf", raw)
    for manifest in raw.rglob("manifest.json"):  # its checksums would flag the broken file
        manifest.unlink()
    (raw / "2025" / "keiho-mondai.pdf").write_text("not a pdf\n")
    args = ["jbe", "--years", "2025", "--raw", str(raw), "--out", str(tmp_path / "o"), "-q",
            "-j", "1", "--corrections", str(tmp_path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "dataset exported" in result.output
    assert "keiho-mondai.pdf: not a PDF" in result.output
    assert "1 failed" in result.output
    strict = CliRunner().invoke(main, [*args, "--strict"])
    assert strict.exit_code == 1


def test_contracts_exit_codes(tmp_path: Path) -> None:
    junk = tmp_path / "junk.docx"
    junk.write_text("plain text, not Word")
    good = tmp_path / "good.docx"
    shutil.copyfile(SAMPLE_DOCX, good)
    only_bad = CliRunner().invoke(main, ["contracts", str(junk), "--out", str(tmp_path / "a"),
                                         "-q"])
    assert only_bad.exit_code == 1, only_bad.output
    assert "junk.docx: named .docx but not a Word .docx" in only_bad.output
    mixed = [str(junk), str(good), "--out", str(tmp_path / "b"), "-q"]
    assert CliRunner().invoke(main, ["contracts", *mixed]).exit_code == 0
    assert CliRunner().invoke(main, ["contracts", *mixed, "--strict"]).exit_code == 1


def test_contract_names_are_relative_to_the_common_folder_unless_that_is_root(
        tmp_path: Path) -> None:
    from buildds.jobs.contracts import _root

    assert _root([Path("/srv/a/x.docx"), Path("/home/b/y.pdf")]) is None  # names stay absolute
    assert _root([Path("/srv/a/x.docx"), Path("/srv/b/y.pdf")]) == Path("/srv")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    junk = tmp_path / "a" / "junk.docx"
    junk.write_text("plain text")
    shutil.copyfile(SAMPLE_DOCX, tmp_path / "b" / "good.docx")
    result = CliRunner().invoke(main, ["contracts", str(junk), str(tmp_path / "b" / "good.docx"),
                                       "--out", str(tmp_path / "o"), "-q"])
    assert result.exit_code == 0, result.output
    assert "failed: a/junk.docx: named .docx but not a Word .docx" in result.output
