"""``buildds jbe`` against inputs that are not what they claim to be, and bad options.

Every bad input is made here, in tmp_path: copies of the bundled sample (2025) or of the
PDFs in ../shared put under the wrong year or subject, re-typeset sample keys, a dataset
built into an --out before. Each case checks the exit code, the text the user reads and
that the good pairs of the same run still build.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, Literal

import pytest
from click.testing import CliRunner, Result

from buildds.cli import main
from tests.conftest import REPO, shared_path

SAMPLE = REPO / "buildds" / "sample" / "pdf" / "2025"
YEAR = 2025


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    """The sample's six PDFs under raw/2025 (no manifest: the cases below change files)."""
    if not (SAMPLE / "minpo-seito.pdf").is_file():
        pytest.skip("the bundled sample is not generated (python -m buildds.sample ...)")
    dest = tmp_path / "raw" / str(YEAR)
    dest.mkdir(parents=True)
    for pdf in SAMPLE.glob("*.pdf"):
        shutil.copyfile(pdf, dest / pdf.name)
    return tmp_path / "raw"


def shared_raw(tmp_path: Path, files: dict[str, str]) -> Path:
    """raw/<path> ← a copy of ../shared/jbe/pdf/<source>, for each path → source."""
    root = tmp_path / "raw"
    for path, source in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shared_path("jbe", "pdf", source), root / path)
    return root


def jbe(raw: Path, out: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["jbe", "--raw", str(raw), "--out", str(out), "-q",
                                     "-j", "1", *args])


def pairs(out: Path) -> dict[tuple[int, str], dict[str, Any]]:
    data = json.loads((out / "report.json").read_text("utf-8"))
    return {(p["year"], p["subject"]): p for p in data["pairs"]}


def codes(pair: dict[str, Any]) -> list[str]:
    return [p["code"] for p in pair["problems"]]


# ------------------------------------------------------------------ printed subject and year
def test_booklet_and_key_of_another_subject_fail_their_pair(raw: Path, tmp_path: Path) -> None:
    for kind in ("mondai", "seito"):  # a 憲法 booklet and key saved as 民法
        shutil.copyfile(raw / "2025" / f"kenpo-{kind}.pdf", raw / "2025" / f"minpo-{kind}.pdf")
    out = tmp_path / "out"
    result = jbe(raw, out, "--years", "2025")
    assert result.exit_code == 1, result.output  # a failed booklet fails the run
    assert ("failed: 2025/minpo-mondai.pdf, page 1: the booklet says 憲法 but its path says "
            "2025 民法 (its answer key says 憲法)") in result.output
    assert ("failed: 2025/minpo-seito.pdf, page 1: the answer key says 憲法 but its path says "
            "2025 民法 (its booklet says 憲法)") in result.output
    # they are also the kenpo files: named, but the kenpo pair that built is kept
    assert "2025/minpo-mondai.pdf is the same file as 2025/kenpo-mondai.pdf" in result.output
    built = pairs(out)
    assert built[YEAR, "minpo"]["status"] == "failed"
    assert codes(built[YEAR, "minpo"])[:2] == ["header-mismatch", "header-mismatch"]
    assert built[YEAR, "kenpo"]["status"] == built[YEAR, "keiho"]["status"] == "ok"
    assert not (out / "xml" / "2025" / "minpo.xml").exists()
    import pandas as pd

    items = pd.read_parquet(out / "data" / "test.parquet")
    assert set(items["subject_jp"]) == {"憲法", "刑法"}  # no 民法 item holds 憲法 text
    strict = jbe(raw, tmp_path / "strict", "--years", "2025", "--xml-only", "--strict")
    assert strict.exit_code == 1 and "the booklet says 憲法" in strict.output


def test_a_key_that_prints_another_year(raw: Path, tmp_path: Path) -> None:
    typeset = pytest.importorskip("buildds.sample.typeset_key")
    from buildds.extract.jbe.answers import parse_answer_key
    from buildds.extract.pdf.lines import extract_pdf

    path = raw / "2025" / "minpo-seito.pdf"
    key = parse_answer_key(extract_pdf(path, words=True), year=YEAR, subject="minpo")
    typeset.typeset_answer_key(path, subject_jp="民法", full_marks=key.full_marks or 0,
                               rows=list(key.slots), title="令和６年司法試験 民法の正解及び配点")
    out = tmp_path / "out"
    result = jbe(raw, out, "--years", "2025", "--xml-only")
    assert result.exit_code == 1, result.output
    assert ("2025/minpo-seito.pdf, page 1: the answer key says 令和6年 民法 but its path says "
            "2025 民法") in result.output
    built = pairs(out)
    assert built[YEAR, "minpo"]["status"] == "failed"
    assert built[YEAR, "minpo"]["printed"]["key"]["years"] == [2024]
    assert {built[YEAR, s]["status"] for s in ("kenpo", "keiho")} == {"ok"}

    # the right year printed (令和７年 = 2025): it builds, and the report says it was read
    typeset.typeset_answer_key(path, subject_jp="民法", full_marks=key.full_marks or 0,
                               rows=list(key.slots), title="令和７年司法試験 民法の正解及び配点")
    result = jbe(raw, out, "--years", "2025", "--xml-only", "--strict")
    assert result.exit_code == 0, result.output
    assert pairs(out)[YEAR, "minpo"]["status"] == "ok"
    assert "| 民法 / 令和7年 民法 |" in (out / "report.md").read_text("utf-8")


def test_a_booklet_that_prints_another_year(raw: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("reportlab")
    import dataclasses

    from buildds.sample import typeset_booklet as tb
    from buildds.sample.content import QUESTIONS
    from buildds.sample.truth import PAGE_BREAKS

    real_layout = tb.layout_booklet

    def with_year(*args: Any, **kw: Any) -> Any:
        layout = real_layout(*args, **kw)
        return dataclasses.replace(layout, title="令和元年司法試験短答式試験問題集［刑法］")

    monkeypatch.setattr(tb, "layout_booklet", with_year)
    tb.typeset_booklet(raw / "2025" / "keiho-mondai.pdf", subject_jp="刑法",
                       questions=QUESTIONS["keiho"], page_breaks=PAGE_BREAKS)
    out = tmp_path / "out"
    result = jbe(raw, out, "--years", "2025", "--xml-only", "--strict")
    assert result.exit_code == 1, result.output
    assert ("failed: 2025/keiho-mondai.pdf, page 1: the booklet says 令和元年 刑法 but its "
            "path says 2025 刑法 (its answer key says 刑法)") in result.output
    built = pairs(out)
    assert built[YEAR, "keiho"]["status"] == "failed"
    assert built[YEAR, "kenpo"]["status"] == built[YEAR, "minpo"]["status"] == "ok"


def test_a_booklet_without_a_subject_header_is_reported(raw: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("reportlab")
    import dataclasses

    from buildds.sample import typeset_booklet as tb
    from buildds.sample.content import QUESTIONS
    from buildds.sample.truth import PAGE_BREAKS

    real_layout = tb.layout_booklet

    def bare(*args: Any, **kw: Any) -> Any:  # no cover title, no ［民法］ above question 1
        layout = real_layout(*args, **kw)
        first = dataclasses.replace(layout.pages[0], lines=layout.pages[0].lines[1:])
        return dataclasses.replace(layout, title="", pages=(first, *layout.pages[1:]))

    monkeypatch.setattr(tb, "layout_booklet", bare)
    tb.typeset_booklet(raw / "2025" / "minpo-mondai.pdf", subject_jp="民法",
                       questions=QUESTIONS["minpo"], page_breaks=PAGE_BREAKS)
    out = tmp_path / "out"
    result = jbe(raw, out, "--years", "2025", "--xml-only")
    assert result.exit_code == 0, result.output
    assert "3 XML" in result.output and "0 failed, 1 problems" in result.output
    minpo = pairs(out)[YEAR, "minpo"]
    assert minpo["status"] == "warning"  # built, but not checked: reported
    (problem,) = [p for p in minpo["problems"] if p["severity"] == "error"]
    assert problem["code"] == "header-not-found"
    assert problem["message"] == ("the booklet prints no subject (expected ［民法］ on its cover "
                                  "or page header), so it cannot be checked against its path "
                                  "(2025 民法)")
    strict = jbe(raw, out, "--years", "2025", "--xml-only", "--strict")
    assert strict.exit_code == 1


# ------------------------------------------------------------------ keys of another year
@pytest.mark.shared
def test_key_of_another_year_with_the_same_slots(tmp_path: Path) -> None:
    # 民法 2019 and 2020 both have 37 single-slot questions: only 配点 tells the keys apart
    raw = shared_raw(tmp_path, {"2019/minpo-mondai.pdf": "2019/minpo-mondai.pdf",
                                "2019/minpo-seito.pdf": "2020/minpo-seito.pdf",
                                "2019/kenpo-mondai.pdf": "2019/kenpo-mondai.pdf",
                                "2019/kenpo-seito.pdf": "2019/kenpo-seito.pdf"})
    out = tmp_path / "out"
    result = jbe(raw, out, "--years", "2019", "--subjects", "kenpo,minpo", "--xml-only")
    assert result.exit_code == 1, result.output
    assert ("failed: 2019/minpo-mondai.pdf: question booklet 2019/minpo-mondai.pdf and answer "
            "key 2019/minpo-seito.pdf disagree on the 配点 of 2 question(s): 問 7 (booklet 2, "
            "key 3), 問 24 (booklet 3, key 2); is the key another year's?") in result.output
    built = pairs(out)
    assert built[2019, "minpo"]["status"] == "failed"
    assert built[2019, "kenpo"]["status"] == "ok"
    assert jbe(raw, out, "--years", "2019", "--subjects", "kenpo,minpo", "--xml-only",
               "--strict").exit_code == 1


@pytest.mark.shared
def test_the_same_key_file_in_two_years(tmp_path: Path) -> None:
    raw = shared_raw(tmp_path, {"2019/minpo-mondai.pdf": "2019/minpo-mondai.pdf",
                                "2019/minpo-seito.pdf": "2020/minpo-seito.pdf",
                                "2020/minpo-mondai.pdf": "2020/minpo-mondai.pdf",
                                "2020/minpo-seito.pdf": "2020/minpo-seito.pdf"})
    out = tmp_path / "out"
    result = jbe(raw, out, "--years", "2019-2020", "--subjects", "minpo", "--xml-only")
    assert result.exit_code == 1, result.output
    assert "2019/minpo-seito.pdf is the same file as 2020/minpo-seito.pdf" in result.output
    built = pairs(out)
    assert built[2019, "minpo"]["status"] == "failed"
    assert codes(built[2019, "minpo"]) == ["KeyMismatchError", "duplicate-file"]
    assert built[2020, "minpo"]["status"] == "ok"  # its own key: kept
    assert (out / "xml" / "2020" / "minpo.xml").is_file()


@pytest.mark.shared
@pytest.mark.parametrize("same_bytes", [True, False])
def test_identical_keys_that_both_pass_are_both_refused(tmp_path: Path, same_bytes: bool) -> None:
    # 2020 民法 holds the 2019 booklet and key: nothing in either says which year is right
    raw = shared_raw(tmp_path, {f"{y}/{s}-{k}.pdf": f"{2019 if s == 'minpo' else y}/{s}-{k}.pdf"
                                for y in (2019, 2020) for s in ("kenpo", "minpo")
                                for k in ("mondai", "seito")})
    if not same_bytes:  # other bytes, same content: caught by the answers
        for k in ("mondai", "seito"):
            with open(raw / "2020" / f"minpo-{k}.pdf", "ab") as fh:
                fh.write(b"\n% a re-saved copy\n")
    out = tmp_path / "out"
    result = jbe(raw, out, "--years", "2019-2020", "--subjects", "kenpo,minpo", "--xml-only")
    assert result.exit_code == 1, result.output
    built = pairs(out)
    assert built[2019, "minpo"]["status"] == built[2020, "minpo"]["status"] == "failed"
    assert built[2019, "kenpo"]["status"] == built[2020, "kenpo"]["status"] == "ok"
    if same_bytes:
        assert "2019/minpo-seito.pdf is the same file as 2020/minpo-seito.pdf" in result.output
        assert "2020/minpo-seito.pdf is the same file as 2019/minpo-seito.pdf" in result.output
    else:
        assert ("answer key 2019/minpo-seito.pdf has the same answers in the same slots as "
                "2020/minpo-seito.pdf: at most one of them is the key of its year"
                ) in result.output
        assert codes(built[2020, "minpo"]) == ["duplicate-key"]
    assert not (out / "xml" / "2019" / "minpo.xml").exists()


# ------------------------------------------------------------------ --out and --replace
def test_a_subset_into_a_fuller_export_needs_replace(raw: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert jbe(raw, out, "--years", "2025").exit_code == 0
    before = (out / "data" / "test.parquet").read_bytes()
    result = jbe(raw, out, "--years", "2025", "--subjects", "minpo")
    assert result.exit_code == 1, result.output
    assert (f"Error: {out} holds a dataset built from 2025 (all subjects); this run builds "
            "2025 (minpo) and would drop 2025 (kenpo, keiho) from it. Pass --replace to "
            "replace that dataset, or choose another --out.") in result.output
    assert (out / "data" / "test.parquet").read_bytes() == before  # untouched
    # the XML alone does not touch the dataset
    assert jbe(raw, out, "--years", "2025", "--subjects", "minpo", "--xml-only").exit_code == 0
    # the previous report now lists minpo only; the XML files still tell what the data holds
    assert jbe(raw, out, "--years", "2025", "--subjects", "minpo").exit_code == 1
    result = jbe(raw, out, "--years", "2025", "--subjects", "minpo", "--replace")
    assert result.exit_code == 0, result.output
    import pandas as pd

    assert set(pd.read_parquet(out / "data" / "test.parquet")["subject_jp"]) == {"民法"}


# ------------------------------------------------------------------ missing year, options
def test_a_missing_year_fails_the_run(raw: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = jbe(raw, out, "--years", "2025-2026", "--xml-only")
    assert result.exit_code == 1, result.output
    assert "3 XML" in result.output and "3 failed" in result.output
    assert (f"failed: 2026/kenpo-mondai.pdf: question booklet not found: "
            f"{raw / '2026' / 'kenpo-mondai.pdf'} (no folder {raw / '2026'})") in result.output
    # six missing files: five are named, then the count and where the rest are
    assert result.output.count("failed: 2026/") == 5
    assert f"… and 1 more (see {out / 'report.md'})" in result.output
    data = json.loads((out / "report.json").read_text("utf-8"))
    assert [(m["year"], m["subject"]) for m in data["missing"]] == [
        (2026, "kenpo"), (2026, "minpo"), (2026, "keiho")]
    assert {p["status"] for p in data["pairs"]} == {"ok"} and len(data["pairs"]) == 3


def test_explicit_corrections_folder_must_exist(raw: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    result = jbe(raw, tmp_path / "out", "--years", "2025", "--xml-only",
                 "--corrections", str(tmp_path / "nowhere"))
    assert result.exit_code == 2, result.output
    assert (f"Invalid value for '--corrections': {tmp_path / 'nowhere'} is not a folder of "
            "correction files") in result.output
    assert not (tmp_path / "out").exists()
    monkeypatch.chdir(tmp_path)  # the default corrections/jbe is absent here: fine
    result = jbe(raw, tmp_path / "out", "--years", "2025", "--xml-only")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(("value", "message"), [
    ("0.8,0.2", "'0.8,0.2': need 0 <= low <= high <= 1, e.g. 0.25,0.75"),
    ("abc", "'abc': expected two shares, e.g. 0.25,0.75"),
    ("0.1,0.5,0.9", "'0.1,0.5,0.9': expected two shares"),
])
def test_balance_is_checked_like_validate(raw: Path, tmp_path: Path, value: str,
                                          message: str) -> None:
    result = jbe(raw, tmp_path / "out", "--years", "2025", "--balance", value)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '--balance': {message}" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


def test_echo_failures_limits_the_list(capsys: pytest.CaptureFixture[str]) -> None:
    from buildds.commands.failures import echo_failures
    from buildds.jobs.failures import failure_line

    lines = [failure_line(f"f{i}.pdf", i or None, "bad") for i in range(7)]
    assert lines[:2] == ["f0.pdf: bad", "f1.pdf, page 1: bad"]
    echo_failures(lines, limit=5, report="out/report.md")
    err = capsys.readouterr().err.splitlines()
    assert err == [f"failed: {line}" for line in lines[:5]] + ["… and 2 more (see out/report.md)"]
    echo_failures([])
    assert capsys.readouterr().err == ""


def test_failure_lines_put_what_failed_a_pair_first(tmp_path: Path) -> None:
    from buildds.jobs.jbe import JbeReport
    from buildds.schema import Problem
    from buildds.schema.jbe_build import JbeMissingPair, JbePairResult

    def problem(stage: str, code: str, message: str, page: int | None = None,
                severity: Literal["error", "warning"] = "error",
                source: str = "2019/minpo-mondai.pdf") -> Problem:
        return Problem(stage=stage, code=code, message=message, source=source, page=page,
                       severity=severity)

    def pair(subject: str, status: Literal["ok", "warning", "failed"],
             *problems: Problem) -> JbePairResult:
        return JbePairResult(year=2019, subject=subject, booklet=f"2019/{subject}-mondai.pdf",
                             key=f"2019/{subject}-seito.pdf", status=status, problems=problems)

    report = JbeReport(out=tmp_path, code_version="test")
    report.pairs = [
        pair("minpo", "failed",
             problem("booklet", "no-slot-marker", "question 3: no answer-slot marker", 4),
             problem("booklet", "unplaced-text", "text kept", 4, severity="warning"),
             problem("jbe-xml", "KeyMismatchError", "booklet and key disagree")),
        pair("kenpo", "warning", problem("header", "header-not-found", "prints no subject")),
        pair("keiho", "failed")]
    report.missing = [JbeMissingPair(year=2018, subject="keiho", problems=(
        problem("discover", "missing-seito", "answer key not found",
                source="2018/keiho-seito.pdf"),))]
    assert report.failure_lines() == ["2018/keiho-seito.pdf: answer key not found",
                                      "2019/minpo-mondai.pdf: booklet and key disagree",
                                      "2019/keiho-mondai.pdf: failed (no reason recorded)"]
