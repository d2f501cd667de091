"""A run that built nothing never exits 0: jbe with no buildable booklet or a dataset that
was not exported, contracts with no readable file. jbe also exits 1 when a whole booklet
failed, even if the others built (a script must not take a partial dataset for a whole
one); its --strict adds problems of the files that built. contracts lists partial failures
and fails on them only with --strict."""

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
    # the good booklets are exported, but a whole booklet failed: a script must see it
    assert result.exit_code == 1, result.output
    assert "dataset exported" in result.output
    assert "keiho-mondai.pdf: not a PDF" in result.output
    assert "1 failed" in result.output
    assert "run failed: 1 booklet(s) failed: 2025/keiho-mondai.pdf" in result.output
    strict = CliRunner().invoke(main, [*args, "--strict"])
    assert strict.exit_code == 1
    xml_only = CliRunner().invoke(main, [*args, "--xml-only"])
    assert xml_only.exit_code == 1, xml_only.output


def test_jbe_dataset_not_exported_exits_1_without_strict(tmp_path: Path) -> None:
    """Every question excluded (by corrections): no items, so no dataset and no booklet
    that gave an item — exit 1, each booklet named."""
    from buildds.extract.jbe.booklet import parse_booklet
    from buildds.extract.pdf.lines import extract_pdf
    from buildds.schema import SUBJECTS
    from buildds.text import era_fullwidth, era_of

    sample = REPO / "buildds" / "sample" / "pdf" / "2025"
    corrections = tmp_path / "corrections"
    corrections.mkdir()
    entries = []
    for code in ("kenpo", "minpo", "keiho"):
        booklet = parse_booklet(extract_pdf(sample / f"{code}-mondai.pdf"), year=2025,
                                era=era_of(2025), subject=SUBJECTS[code])
        entries += [f"- {{id: {era_fullwidth(2025)}-{SUBJECTS[code].jp}-{q.number}, "
                    f"action: exclude, reason: test}}" for q in booklet.questions]
    (corrections / "all.yaml").write_text("\n".join(entries) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["jbe", "--years", "2025", "--raw", str(sample.parent),
                                       "--out", str(tmp_path / "o"), "-q", "-j", "1",
                                       "--corrections", str(corrections)])
    assert result.exit_code == 1, result.output
    assert "0 failed" in result.output and "; 0 items," in result.output
    assert "dataset NOT exported (no items)" in result.output
    assert "run failed: dataset NOT exported: no items" in result.output
    assert "run failed: 2025/minpo-mondai.pdf: " in result.output
    assert not (tmp_path / "o" / "data").exists()


def test_jbe_exit_reasons_of_a_report(tmp_path: Path) -> None:
    from buildds.jobs.jbe_dataset import DatasetOutcome
    from buildds.jobs.jbe_exit import exit_code, run_failures
    from buildds.jobs.jbe_report import JbeReport
    from buildds.schema import Problem
    from buildds.schema.jbe_build import JbePairResult, PairCounts

    def pair(subject: str, questions: int, status: str = "ok",
             problems: tuple[Problem, ...] = ()) -> JbePairResult:
        return JbePairResult(year=2025, subject=subject, booklet=f"2025/{subject}-mondai.pdf",
                             key=f"2025/{subject}-seito.pdf", status=status, problems=problems,
                             counts=PairCounts(pages=2, ocr_pages=0, questions=questions,
                                               slots=questions, statements=0, options=0))

    warning = Problem(stage="booklet", code="unplaced-text", message="m", severity="error")
    report = JbeReport(out=tmp_path, code_version="x",
                       pairs=[pair("kenpo", 3, "warning", (warning,))])
    assert run_failures(report) == []
    assert exit_code(report, strict=False) == 0  # a problem fails only --strict
    assert exit_code(report, strict=True) == 1
    report.pairs.append(pair("minpo", 0))  # two columns read as nothing
    assert run_failures(report) == [
        "2025/minpo-mondai.pdf: no question found (is the layout readable?)"]
    assert exit_code(report, strict=False) == 1
    report.pairs[1] = pair("minpo", 5)
    report.dataset = DatasetOutcome(exported=True)  # their questions gave no item
    assert run_failures(report) == [
        "2025/kenpo-mondai.pdf: 3 questions read but no item built (0 excluded)",
        "2025/minpo-mondai.pdf: 5 questions read but no item built (0 excluded)"]
    assert exit_code(report, strict=False) == 1


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
