"""``buildds jbe`` end to end on a raw folder built in tmp_path.

The good booklet + key pairs are the bundled sample exam (``buildds/sample/pdf/2025/``, which
the project typesets itself); the bad cases are files written here into that layout. Tests
that need the sample skip with a reason when it has not been generated.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from reportlab.lib.pdfencrypt import StandardEncryption

from buildds.cli import main
from buildds.errors import BuildError, PdfError
from buildds.jobs.jbe import JbeReport, build_jbe
from buildds.safeio.hashing import sha256_file
from tests.conftest import REPO, simple_pdf_bytes

SAMPLE_ROOT = REPO / "buildds" / "sample" / "pdf"
YEAR = 2025
SUBJECTS = ("kenpo", "minpo", "keiho")
KINDS = ("mondai", "seito")


# ---------------------------------------------------------------------------- helpers
@pytest.fixture(scope="session")
def sample_dir() -> Path:
    folder = SAMPLE_ROOT / str(YEAR)
    missing = [f"{s}-{k}.pdf" for s in SUBJECTS for k in KINDS
               if not (folder / f"{s}-{k}.pdf").is_file()]
    if missing:
        pytest.skip(f"the bundled sample is not generated yet: {folder} lacks "
                    f"{', '.join(missing)} (python -m buildds.sample buildds/sample/pdf)")
    return folder


@pytest.fixture
def raw(tmp_path: Path, sample_dir: Path) -> Path:
    """A raw folder with copies of the sample PDFs (no manifest)."""
    root = tmp_path / "raw"
    (root / str(YEAR)).mkdir(parents=True)
    for s in SUBJECTS:
        for k in KINDS:
            shutil.copyfile(sample_dir / f"{s}-{k}.pdf", root / str(YEAR) / f"{s}-{k}.pdf")
    return root


def pdf(raw: Path, subject: str, kind: str) -> Path:
    return raw / str(YEAR) / f"{subject}-{kind}.pdf"


def build(raw: Path, out: Path, **kw: Any) -> JbeReport:
    kw.setdefault("years", [YEAR])
    kw.setdefault("processes", 1)
    kw.setdefault("xml_only", True)  # stage 1; the dataset stage has tests/jobs/test_jbe_dataset.py
    return build_jbe(raw=raw, out=out, progress=False, **kw)


def report_json(out: Path) -> dict[str, Any]:
    return json.loads((out / "report.json").read_text("utf-8"))


def rejects(out: Path) -> list[dict[str, Any]]:
    text = (out / "rejects.jsonl").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def pair(out: Path, subject: str) -> dict[str, Any]:
    (p,) = [p for p in report_json(out)["pairs"] if p["subject"] == subject]
    return p


def xml(out: Path, subject: str, year: int = YEAR) -> Path:
    return out / "xml" / str(year) / f"{subject}.xml"


def assert_clean(out: Path) -> None:
    """No temp files left anywhere under out."""
    leftovers = [p for p in out.rglob("*") if p.name.endswith(".tmp")]
    assert not leftovers, leftovers


def simple_pdf(text: str = "Not a bar exam booklet", **canvas_kw: Any) -> bytes:
    return simple_pdf_bytes(text, "with a second line of text", **canvas_kw)


def corrupt_bytes() -> bytes:
    return b"%PDF-1.4\n" + bytes((i * 37 + 11) % 256 for i in range(4096)) + b"\n%%EOF\n"


def error_problem(p: dict[str, Any]) -> dict[str, Any]:
    errs = [x for x in p["problems"] if x["severity"] == "error"]
    assert errs, p
    return errs[0]


# ---------------------------------------------------------------------------- good build
def test_sample_builds(raw: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    report = build(raw, out)
    data = report_json(out)
    assert [p["subject"] for p in data["pairs"]] == list(SUBJECTS)
    assert all(p["status"] == "ok" for p in data["pairs"]), data["pairs"]
    assert data["missing"] == [] and data["totals"]["failed"] == 0
    assert data["totals"]["xml"] == 3 and report.xml_files == 3
    for s in SUBJECTS:
        path = xml(out, s)
        assert path.is_file()
        text = path.read_text("utf-8")
        assert f'source="{YEAR}/{s}-mondai.pdf"' in text
        assert sha256_file(pdf(raw, s, "mondai")) in text
        assert pair(out, s)["counts"]["questions"] > 0
    assert rejects(out) == []
    assert report.problem_count == 0
    line = report.summary_line()
    assert line.startswith("processed 6 files: 3 XML,") and "0 failed, 0 problems" in line
    assert_clean(out)


# ---------------------------------------------------------------------------- bad files
BAD_BOOKLETS = {
    "corrupt": (corrupt_bytes(), "corrupt"),
    "empty": (b"", "empty"),
    "html": (b"<!DOCTYPE html><html><body>404 Not Found</body></html>\n", "not a PDF"),
    "png": (b"\x89PNG\r\n\x1a\n" + b"\x00" * 100, "not a PDF"),
    "truncated": (None, "truncated"),  # filled in from the real booklet below
}


@pytest.mark.parametrize("case", sorted(BAD_BOOKLETS))
@pytest.mark.parametrize("bad", [("kenpo", "mondai"), ("keiho", "seito")], ids=["booklet", "key"])
def test_one_bad_file_fails_only_its_pair(raw: Path, tmp_path: Path, case: str,
                                          bad: tuple[str, str]) -> None:
    subject, kind = bad
    data, words = BAD_BOOKLETS[case]
    target = pdf(raw, subject, kind)
    if data is None:
        good = target.read_bytes()
        data = good[: len(good) // 2]
    target.write_bytes(data)
    out = tmp_path / "out"
    report = build(raw, out)

    rel = f"{YEAR}/{subject}-{kind}.pdf"
    failed = pair(out, subject)
    assert failed["status"] == "failed"
    problem = error_problem(failed)
    assert problem["code"] == "PdfError"
    assert problem["source"] == rel
    assert words in problem["message"]
    assert problem["page"] is None  # a whole-file fault has no page
    assert not xml(out, subject).exists()
    for other in SUBJECTS:
        if other != subject:
            assert pair(out, other)["status"] == "ok"
            assert xml(out, other).is_file()
    rows = rejects(out)
    assert [r["id"] for r in rows] == [f"{YEAR}-{subject}"]
    assert rows[0]["reason"] == "pair-failed" and words in rows[0]["message"]
    assert rows[0]["source"] == rel  # the bad file itself, also when it is the key
    assert rel in json.dumps(report_json(out), ensure_ascii=False)
    assert report.problem_count == 1
    assert "1 failed" in report.summary_line()
    assert_clean(out)


def test_cli_strict_exit_codes(raw: Path, tmp_path: Path) -> None:
    pdf(raw, "kenpo", "mondai").write_bytes(corrupt_bytes())
    out = tmp_path / "out"
    args = ["jbe", "--xml-only", "--years", str(YEAR), "--raw", str(raw), "--out", str(out), "-q",
            "-j", "1"]
    result = CliRunner().invoke(main, args)
    # a whole booklet failed: exit 1 with or without --strict; the others still built
    assert result.exit_code == 1, result.output
    assert "processed 6 files: 2 XML" in result.output and "1 failed" in result.output
    assert f"run failed: 1 booklet(s) failed: {YEAR}/kenpo-mondai.pdf" in result.output
    assert str(out / "report.md") in result.output

    strict = CliRunner().invoke(main, [*args, "--strict"])
    assert strict.exit_code == 1, strict.output
    assert "1 failed" in strict.output
    assert f"{YEAR}/kenpo-mondai.pdf" in (out / "rejects.jsonl").read_text("utf-8")
    assert xml(out, "minpo").is_file() and not xml(out, "kenpo").exists()


def test_cli_strict_passes_on_a_clean_build(raw: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["jbe", "--xml-only", "--years", str(YEAR), "--raw", str(raw), "--out",
                                       str(tmp_path / "out"), "-q", "--strict"])
    assert result.exit_code == 0, result.output
    assert "3 XML" in result.output and "0 failed, 0 problems" in result.output


def test_missing_answer_key(raw: Path, tmp_path: Path) -> None:
    pdf(raw, "minpo", "seito").unlink()
    out = tmp_path / "out"
    report = build(raw, out)
    data = report_json(out)
    assert [p["subject"] for p in data["pairs"]] == ["kenpo", "keiho"]
    assert all(p["status"] == "ok" for p in data["pairs"])
    (missing,) = data["missing"]
    assert (missing["year"], missing["subject"]) == (YEAR, "minpo")
    (problem,) = missing["problems"]
    assert problem["code"] == "missing-seito"
    assert problem["source"] == f"{YEAR}/minpo-seito.pdf"
    assert str(pdf(raw, "minpo", "seito")) in problem["message"]
    assert not xml(out, "minpo").exists()
    assert xml(out, "kenpo").is_file() and xml(out, "keiho").is_file()
    (row,) = rejects(out)
    assert row["reason"] == "missing-seito" and row["id"] == f"{YEAR}-minpo"
    assert "1 failed, 1 problems" in report.summary_line()
    assert "processed 5 files" in report.summary_line()


def test_encrypted_pdf_needs_the_password(raw: Path, tmp_path: Path) -> None:
    enc = StandardEncryption("s3cret", ownerPassword="owner", canPrint=1)
    pdf(raw, "keiho", "mondai").write_bytes(simple_pdf(encrypt=enc))
    out = tmp_path / "out"
    build(raw, out)
    problem = error_problem(pair(out, "keiho"))
    assert problem["source"] == f"{YEAR}/keiho-mondai.pdf"
    assert "password is needed" in problem["message"] and "--password" in problem["message"]
    assert not xml(out, "keiho").exists()

    build(raw, out, password="wrong")
    assert "does not open" in error_problem(pair(out, "keiho"))["message"]

    # with the password the file opens; it is no booklet, so the pair still fails, but no
    # longer for want of a password — and the unencrypted files still open with it given
    build(raw, out, password="s3cret")
    assert "password" not in error_problem(pair(out, "keiho"))["message"]
    assert pair(out, "kenpo")["status"] == "ok"


def test_encrypted_key_builds_with_password(raw: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A real answer key, typeset encrypted: --password makes the pair build."""
    typeset = pytest.importorskip("buildds.sample.typeset_key")
    from buildds.extract.jbe.answers import parse_answer_key
    from buildds.extract.pdf.lines import extract_pdf

    key_path = pdf(raw, "minpo", "seito")
    key = parse_answer_key(extract_pdf(key_path, words=True), year=YEAR, subject="minpo")
    import reportlab.pdfgen.canvas as rl_canvas

    class Encrypted(rl_canvas.Canvas):
        def __init__(self, *a: Any, **kw: Any) -> None:
            kw["encrypt"] = StandardEncryption("k3y", canPrint=1)
            super().__init__(*a, **kw)

    monkeypatch.setattr(rl_canvas, "Canvas", Encrypted)
    if hasattr(typeset, "Canvas"):  # imported at module level
        monkeypatch.setattr(typeset, "Canvas", Encrypted)
    typeset.typeset_answer_key(key_path, subject_jp="民法", full_marks=key.full_marks or 0,
                               rows=list(key.slots))
    monkeypatch.undo()
    with pytest.raises(PdfError, match="password is needed"):
        extract_pdf(key_path)  # the fixture really is encrypted

    result = CliRunner().invoke(main, ["jbe", "--xml-only", "--years", str(YEAR), "--raw", str(raw), "--out",
                                       str(tmp_path / "a"), "-q", "-j", "1", "--strict"])
    assert result.exit_code == 1
    assert "--password" in error_problem(pair(tmp_path / "a", "minpo"))["message"]

    result = CliRunner().invoke(main, ["jbe", "--xml-only", "--years", str(YEAR), "--raw", str(raw), "--out",
                                       str(tmp_path / "b"), "-q", "-j", "1", "--strict",
                                       "--password", "k3y"])
    assert result.exit_code == 0, result.output
    assert pair(tmp_path / "b", "minpo")["status"] == "ok"
    assert xml(tmp_path / "b", "minpo").is_file()


# ---------------------------------------------------------------------------- mismatch
def test_key_of_another_subject(raw: Path, tmp_path: Path) -> None:
    shutil.copyfile(pdf(raw, "kenpo", "seito"), pdf(raw, "minpo", "seito"))
    out = tmp_path / "out"
    build(raw, out)
    failed = pair(out, "minpo")
    assert failed["status"] == "failed"
    # the key's title names another subject: refused before pairing, with file and page
    header, copy = failed["problems"]
    assert header["code"] == "header-mismatch"
    assert (header["source"], header["page"]) == (f"{YEAR}/minpo-seito.pdf", 1)
    assert header["message"] == (f"the answer key says 憲法 but its path says {YEAR} 民法 "
                                 "(its booklet says 民法)")
    assert copy["code"] == "duplicate-file"
    assert f"is the same file as {YEAR}/kenpo-seito.pdf" in copy["message"]
    assert not xml(out, "minpo").exists()
    assert pair(out, "kenpo")["status"] == pair(out, "keiho")["status"] == "ok"
    (row,) = rejects(out)
    assert row["id"] == f"{YEAR}-minpo"


def test_key_with_one_slot_fewer(raw: Path, tmp_path: Path) -> None:
    typeset = pytest.importorskip("buildds.sample.typeset_key")
    from buildds.extract.jbe.answers import parse_answer_key
    from buildds.extract.pdf.lines import extract_pdf

    key_path = pdf(raw, "keiho", "seito")
    key = parse_answer_key(extract_pdf(key_path, words=True), year=YEAR, subject="keiho")
    rows = list(key.slots)
    # the last slot without a 備考 note (a note may not fit the rows that remain)
    dropped = next(r for r in reversed(rows) if r.note is None)
    rows.remove(dropped)
    typeset.typeset_answer_key(key_path, subject_jp="刑法", full_marks=key.full_marks or 0,
                               rows=rows)
    out = tmp_path / "out"
    build(raw, out)
    failed = pair(out, "keiho")
    assert failed["status"] == "failed"
    problem = next(x for x in failed["problems"] if x["code"] == "KeyMismatchError")
    assert f"{YEAR}/keiho-mondai.pdf" in problem["message"]
    assert f"{YEAR}/keiho-seito.pdf" in problem["message"]
    assert f"No {dropped.no}" in problem["message"]
    assert "only in the booklet" in problem["message"]
    assert not xml(out, "keiho").exists()
    assert xml(out, "kenpo").is_file() and xml(out, "minpo").is_file()


# ---------------------------------------------------------------------------- years
def test_unknown_year_folder_is_a_clear_error(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    (raw / "2024").mkdir(parents=True)
    out = tmp_path / "out"
    with pytest.raises(BuildError) as info:
        build(raw, out, years=[2030])
    assert str(raw / "2030") in str(info.value)

    result = CliRunner().invoke(main, ["jbe", "--xml-only", "--years", "2030", "--raw", str(raw),
                                       "--out", str(out), "-q"])
    assert result.exit_code == 1
    error_lines = [ln for ln in result.output.splitlines() if ln.startswith("Error:")]
    assert len(error_lines) == 1, result.output
    assert str(raw / "2030") in error_lines[0]
    assert "-mondai.pdf" in error_lines[0]
    assert not (out / "report.json").exists()


def test_raw_folder_that_does_not_exist(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["jbe", "--xml-only", "--years", "2024", "--raw",
                                       str(tmp_path / "nope"), "--out", str(tmp_path / "o"), "-q"])
    assert result.exit_code == 1
    assert "raw folder does not exist" in result.output and str(tmp_path / "nope") in result.output


def test_year_before_the_parsers(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    (raw / "2010").mkdir(parents=True)
    for s in SUBJECTS:
        for k in KINDS:
            (raw / "2010" / f"{s}-{k}.pdf").write_bytes(simple_pdf())
    result = CliRunner().invoke(main, ["jbe", "--xml-only", "--years", "2010", "--raw", str(raw),
                                       "--out", str(tmp_path / "out"), "-q"])
    assert result.exit_code == 1
    assert "unknown-year" in result.output and "2015" in result.output


def test_unknown_year_next_to_a_good_one(raw: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    report = build(raw, out, years=[2010, YEAR])
    data = report_json(out)
    assert [(m["year"], m["problems"][0]["code"]) for m in data["missing"]] == [
        (2010, "unknown-year")] * 3
    assert data["totals"]["xml"] == 3
    assert {r["reason"] for r in rejects(out)} == {"unknown-year"}
    assert report.problem_count == 3


# ---------------------------------------------------------------------------- manifest
def test_manifest_checksum_mismatch(raw: Path, tmp_path: Path) -> None:
    good = sha256_file(pdf(raw, "minpo", "mondai"))
    manifest = {"files": [
        {"path": f"{YEAR}/kenpo-mondai.pdf", "sha256": "0" * 64},
        {"path": f"{YEAR}/minpo-mondai.pdf", "sha256": good},
    ]}
    (raw / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    out = tmp_path / "out"
    build(raw, out)
    data = report_json(out)
    assert [p["subject"] for p in data["pairs"]] == ["minpo", "keiho"]
    (missing,) = data["missing"]
    assert missing["subject"] == "kenpo"
    (problem,) = missing["problems"]
    assert problem["code"] == "checksum-mismatch"
    assert problem["source"] == f"{YEAR}/kenpo-mondai.pdf"
    assert "000000000000" in problem["message"]
    assert not xml(out, "kenpo").exists()
    assert xml(out, "minpo").is_file()
    (row,) = rejects(out)
    assert row["reason"] == "checksum-mismatch"


def test_manifest_by_year_subject_kind(raw: Path, tmp_path: Path) -> None:
    manifest = [{"year": YEAR, "subject": "keiho", "kind": "seito", "sha256": "f" * 64}]
    (raw / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    out = tmp_path / "out"
    build(raw, out)
    (missing,) = report_json(out)["missing"]
    assert missing["subject"] == "keiho"
    assert missing["problems"][0]["source"] == f"{YEAR}/keiho-seito.pdf"


def test_manifest_that_is_not_json(raw: Path, tmp_path: Path) -> None:
    (raw / "manifest.json").write_text("{not json", "utf-8")
    result = CliRunner().invoke(main, ["jbe", "--xml-only", "--years", str(YEAR), "--raw", str(raw),
                                       "--out", str(tmp_path / "out"), "-q"])
    assert result.exit_code == 1
    assert "manifest.json" in result.output and "not valid JSON" in result.output


# ---------------------------------------------------------------------------- no stale outputs
def test_stale_xml_removed_when_its_pair_now_fails(raw: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(raw, out)
    assert xml(out, "kenpo").is_file()
    pdf(raw, "kenpo", "mondai").write_bytes(corrupt_bytes())
    build(raw, out)
    assert pair(out, "kenpo")["status"] == "failed"
    assert not xml(out, "kenpo").exists()
    assert xml(out, "minpo").is_file() and xml(out, "keiho").is_file()
    assert_clean(out)


@pytest.mark.parametrize("how", ["deleted", "checksum"])
def test_stale_xml_removed_when_its_input_goes(raw: Path, tmp_path: Path, how: str) -> None:
    out = tmp_path / "out"
    build(raw, out)
    assert xml(out, "keiho").is_file()
    if how == "deleted":
        pdf(raw, "keiho", "seito").unlink()
    else:
        (raw / "manifest.json").write_text(json.dumps(
            {"files": [{"path": f"{YEAR}/keiho-seito.pdf", "sha256": "1" * 64}]}), "utf-8")
    build(raw, out)
    assert [m["subject"] for m in report_json(out)["missing"]] == ["keiho"]
    assert not xml(out, "keiho").exists()
    assert xml(out, "kenpo").is_file()


def test_failure_then_fix(raw: Path, tmp_path: Path, sample_dir: Path) -> None:
    """A pair that failed is not cached: putting the right file back builds it again."""
    out = tmp_path / "out"
    pdf(raw, "minpo", "mondai").write_bytes(b"")
    build(raw, out)
    assert not xml(out, "minpo").exists()
    shutil.copyfile(sample_dir / "minpo-mondai.pdf", pdf(raw, "minpo", "mondai"))
    report = build(raw, out)
    assert report.built == 1 and report.cached == 2
    assert pair(out, "minpo")["status"] == "ok" and xml(out, "minpo").is_file()
    assert rejects(out) == []


# ---------------------------------------------------------------------------- determinism, cache
def _tree(out: Path) -> dict[str, bytes]:
    files = {p.relative_to(out).as_posix(): p.read_bytes()
             for p in (out / "xml").rglob("*") if p.is_file()}
    files["report.json"] = (out / "report.json").read_bytes()
    files["rejects.jsonl"] = (out / "rejects.jsonl").read_bytes()
    return files


def test_two_builds_are_byte_identical(raw: Path, tmp_path: Path) -> None:
    pdf(raw, "keiho", "mondai").write_bytes(corrupt_bytes())  # a failure is reported the same
    build(raw, tmp_path / "a", processes=1)
    build(raw, tmp_path / "b", processes=3)
    a, b = _tree(tmp_path / "a"), _tree(tmp_path / "b")
    assert sorted(a) == sorted(b) == ["rejects.jsonl", "report.json",
                                      f"xml/{YEAR}/kenpo.xml", f"xml/{YEAR}/minpo.xml"]
    assert a == b


def test_cached_build_is_identical_to_uncached(raw: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(raw, out)
    first = _tree(out)
    report = build(raw, tmp_path / "nocache", use_cache=False)
    assert report.cached == 0 and report.built == 3
    assert not (tmp_path / "nocache" / ".cache").exists()
    assert _tree(tmp_path / "nocache") == first


def _mtimes(out: Path) -> dict[str, int]:
    return {p.relative_to(out).as_posix(): p.stat().st_mtime_ns
            for p in out.rglob("*") if p.is_file()}


def test_second_run_reads_everything_from_cache(raw: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = build(raw, out)
    assert first.built == 3 and first.cached == 0
    before = _mtimes(out)
    # back-date everything so a rewrite would show even on a coarse clock
    for rel in before:
        os.utime(out / rel, ns=(1_000_000_000, 1_000_000_000))
    before = _mtimes(out)

    second = build(raw, out)
    assert second.cached == 3 and second.built == 0
    assert "(3 from cache)" in second.summary_line()
    assert _mtimes(out) == before  # nothing rewritten, nothing added


def test_cli_second_run_from_cache(raw: Path, tmp_path: Path) -> None:
    args = ["jbe", "--years", str(YEAR), "--raw", str(raw), "--out", str(tmp_path / "o"), "-q"]
    assert CliRunner().invoke(main, args).exit_code == 0
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0
    assert "(3 from cache)" in result.output
    result = CliRunner().invoke(main, [*args, "--no-cache"])
    assert "from cache" not in result.output


def test_changed_booklet_rebuilds_only_its_pair(raw: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(raw, out)
    for rel in _mtimes(out):
        os.utime(out / rel, ns=(1_000_000_000, 1_000_000_000))
    before = _mtimes(out)

    target = pdf(raw, "minpo", "mondai")
    target.write_bytes(target.read_bytes() + b"% touched\n")  # new bytes, same content
    report = build(raw, out)
    assert report.built == 1 and report.cached == 2
    after = _mtimes(out)
    assert after[f"xml/{YEAR}/minpo.xml"] != before[f"xml/{YEAR}/minpo.xml"]
    assert sha256_file(target) in xml(out, "minpo").read_text("utf-8")
    for s in ("kenpo", "keiho"):
        assert after[f"xml/{YEAR}/{s}.xml"] == before[f"xml/{YEAR}/{s}.xml"]
    new_cache = set(after) - set(before)
    assert len(new_cache) == 1 and next(iter(new_cache)).startswith(".cache/")
    assert_clean(out)
