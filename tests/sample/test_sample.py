"""The bundled sample exam: deterministic, never stale, extracts exactly as laid out, and
its keys and booklets parse into the ground truth of buildds.sample.content."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from buildds.errors import MissingDependency
from buildds.extract.jbe.answers import parse_answer_key
from buildds.extract.jbe.booklet import parse_booklet
from buildds.extract.jbe.raw import discover_exam_files
from buildds.extract.pdf.lines import extract_pdf
from buildds.sample import (
    SAMPLE_DIR,
    SAMPLE_YEAR,
    SUBJECT_CODES,
    answer_rows,
    booklet_layout,
    expected,
    write_sample,
)
from buildds.sample.content import FORMATS, QUESTIONS, full_marks
from buildds.sample.typeset_booklet import LINE_CHARS, LINES_PER_PAGE, text_width, wrap
from buildds.schema import SUBJECTS
from buildds.text import era_of, normalise_spaces

FILES = [f"{SAMPLE_YEAR}/{s}-{k}.pdf" for s in SUBJECT_CODES for k in ("mondai", "seito")]


def _can_typeset() -> bool:
    try:
        import reportlab  # noqa: F401

        from buildds.sample.typeset_key import find_ipa_mincho

        find_ipa_mincho()
    except (ImportError, MissingDependency):
        return False
    return True


needs_typesetting = pytest.mark.skipif(not _can_typeset(),
                                       reason="needs reportlab and the IPAMincho font")


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Path:
    dest = tmp_path_factory.mktemp("sample")
    write_sample(dest)
    return dest


def _pdfium_pages(path: Path) -> list[list[str]]:
    doc = pdfium.PdfDocument(path)
    try:
        pages = []
        for page in doc:
            text = page.get_textpage().get_text_range()
            pages.append([t for t in (normalise_spaces(x) for x in text.split("\r\n")) if t])
        return pages
    finally:
        doc.close()


#: the reportlab release the committed bundle was typeset with (its bytes depend on it)
BUNDLED_WITH_REPORTLAB = "5.1.0"


# --------------------------------------------------------------------------- determinism
@needs_typesetting
def test_two_runs_give_identical_bytes(tmp_path, fresh):
    written = write_sample(tmp_path / "again")
    assert [p.relative_to(tmp_path / "again").as_posix() for p in written] == FILES + [
        "manifest.json"]
    for rel in FILES + ["manifest.json"]:
        assert (tmp_path / "again" / rel).read_bytes() == (fresh / rel).read_bytes(), rel


@needs_typesetting
def test_bundled_sample_is_not_stale(fresh):
    """The committed buildds/sample/pdf is exactly what the code writes today; after a change
    to the content or the typesetters run  python -m buildds.sample  and commit the result."""
    import reportlab

    bundled = sorted(p.relative_to(SAMPLE_DIR).as_posix()
                     for p in SAMPLE_DIR.rglob("*") if p.is_file())
    assert bundled == sorted(FILES + ["manifest.json"])
    if reportlab.Version != BUNDLED_WITH_REPORTLAB:
        pytest.skip(f"bundle typeset with reportlab {BUNDLED_WITH_REPORTLAB}, this is "
                    f"{reportlab.Version}: bytes may differ (text checks still run)")
    for rel in bundled:
        assert (SAMPLE_DIR / rel).read_bytes() == (fresh / rel).read_bytes(), (
            f"{rel} is stale: run  python -m buildds.sample  and commit buildds/sample/pdf")


def test_bundled_pdfs_are_small():
    for rel in FILES:
        assert (SAMPLE_DIR / rel).stat().st_size < 250_000, rel


def test_manifest_describes_the_files():
    data = json.loads((SAMPLE_DIR / "manifest.json").read_text("utf-8"))
    assert data["sample"] is True
    entries = {e["path"]: e for e in data["files"]}
    assert sorted(entries) == sorted(FILES)
    import hashlib

    for rel, e in entries.items():
        path = SAMPLE_DIR / rel
        assert e["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        assert e["year"] == SAMPLE_YEAR and e["era"] == era_of(SAMPLE_YEAR) == "令和7年"
        assert e["subject_jp"] == SUBJECTS[e["subject"]].jp
        assert e["sample"] is True
        doc = pdfium.PdfDocument(path)
        assert e["pages"] == len(doc)
        doc.close()
        assert rel == f"{e['year']}/{e['subject']}-{e['kind']}.pdf"


def test_raw_folder_discovery_accepts_the_bundle():
    found = discover_exam_files(SAMPLE_DIR, [SAMPLE_YEAR])
    assert [f.subject for f in found] == list(SUBJECTS)
    for f in found:
        assert f.problems == [] and f.mondai and f.seito


# --------------------------------------------------------------------------- text layer
@pytest.mark.parametrize("subject", SUBJECT_CODES)
def test_pdfium_gives_back_the_laid_out_lines(subject):
    layout = booklet_layout(subject)
    want = [[normalise_spaces(t) for t in page] for page in layout.page_texts()]
    got = _pdfium_pages(SAMPLE_DIR / f"{SAMPLE_YEAR}/{subject}-mondai.pdf")
    assert len(got) == len(want) == layout.page_count
    for number, (g, w) in enumerate(zip(got, want), start=1):
        assert g == w, f"page {number}"


@pytest.mark.parametrize("subject", SUBJECT_CODES)
def test_pdfplumber_gives_back_the_laid_out_lines(subject):
    pdfplumber = pytest.importorskip("pdfplumber")
    want = [[normalise_spaces(t) for t in page] for page in booklet_layout(subject).page_texts()]
    with pdfplumber.open(SAMPLE_DIR / f"{SAMPLE_YEAR}/{subject}-mondai.pdf") as pdf:
        got = [[normalise_spaces(t) for t in p.extract_text().splitlines() if t.strip()]
               for p in pdf.pages]
    assert got == want


@pytest.mark.parametrize("subject", SUBJECT_CODES)
def test_pages_look_like_the_booklets(subject):
    jp = SUBJECTS[subject].jp
    pages = booklet_layout(subject).page_texts()
    assert pages[0] == [f"短答式試験問題集［{jp}］", "- 1 -"]
    assert pages[1][0] == f"［{jp}］"
    assert re.fullmatch(r"〔第１問〕（配点：[２-４]）", pages[1][1])
    for number, page in enumerate(pages, start=1):
        assert page[-1] == f"- {number} -"
        assert len(page) - 1 <= LINES_PER_PAGE
    doc = pdfium.PdfDocument(SAMPLE_DIR / f"{SAMPLE_YEAR}/{subject}-mondai.pdf")
    w, h = doc[0].get_size()
    doc.close()
    assert (round(w), round(h)) == (595, 842)
    data = (SAMPLE_DIR / f"{SAMPLE_YEAR}/{subject}-mondai.pdf").read_bytes()
    assert b"+IPAMincho" in data and b"/FontFile2" in data and b"/ToUnicode" in data


@pytest.mark.parametrize("subject", SUBJECT_CODES)
def test_lines_respect_the_measure(subject):
    """43 characters a line, one closing mark may hang; no line starts with one."""
    for page in booklet_layout(subject).pages:
        for line in page.lines:
            x, last = line.segments[-1]
            end = x + text_width(last)
            assert end <= LINE_CHARS or (end <= LINE_CHARS + 1 and last[-1] in "、。）」］"), last
            assert line.text[0] not in "、。）」］", line.text


# --------------------------------------------------------------------------- answer keys
@pytest.mark.parametrize("subject", SUBJECT_CODES)
def test_keys_parse_into_the_content_answers(subject):
    doc = extract_pdf(SAMPLE_DIR / f"{SAMPLE_YEAR}/{subject}-seito.pdf", words=True)
    key = parse_answer_key(doc, year=SAMPLE_YEAR, subject=subject)
    assert key.problems == ()
    assert key.full_marks == full_marks(subject)
    assert list(key.slots) == answer_rows(subject)
    by_q = {sq.number: sq.answer_values for sq in expected()[subject]}
    for q in QUESTIONS[subject]:
        assert tuple(key.by_no()[n].answer for n in q.slots) == q.answers == by_q[q.number]


# --------------------------------------------------------------------------- booklets
@pytest.mark.parametrize("subject", SUBJECT_CODES)
def test_booklet_parses_into_the_ground_truth(subject):
    doc = extract_pdf(SAMPLE_DIR / f"{SAMPLE_YEAR}/{subject}-mondai.pdf")
    booklet = parse_booklet(doc, year=SAMPLE_YEAR, era=era_of(SAMPLE_YEAR),
                            subject=SUBJECTS[subject])
    assert booklet.problems == ()
    want = [sq.question for sq in expected()[subject]]
    assert len(booklet.questions) == len(want)
    for got, exp in zip(booklet.questions, want):
        for name in type(exp).model_fields:
            assert getattr(got, name) == getattr(exp, name), f"question {exp.number}: {name}"


# --------------------------------------------------------------------------- content
@pytest.mark.parametrize("subject", SUBJECT_CODES)
def test_content_follows_the_exam_rules(subject):
    qs = QUESTIONS[subject]
    assert 5 <= len(qs) <= 7
    slots = [n for q in qs for n in q.slots]
    assert slots == list(range(1, len(slots) + 1)) and len(slots) >= 10
    for q in qs:
        stem = q.full_stem
        assert "，" not in stem and stem.endswith("）")
        assert stem.count("（解答欄は、") == 1
        for n in {q.slots[0], q.slots[-1]}:  # full-width 1-9, half-width from 10
            assert (f"［No.{n}］" if n >= 10 else f"［No.{chr(0xFF10 + n)}］") in stem
        if q.slot_mode == "single":
            assert q.points == 2 and q.note is None
            n_choices = len(q.options) or len(q.statements)
            assert 1 <= int(q.answers[0]) <= n_choices
        elif q.slot_mode == "per_statement":
            assert [s.slot for s in q.statements] == list(q.slots)
            assert set(q.answers) <= {"1", "2"}
            assert (q.points, q.note) == ((3, "2問正解で部分点1点") if len(q.slots) == 3
                                          else (4, "4問正解で部分点2点"))
        else:
            assert (q.points, q.note) == (3, "順不同（部分点なし）")
            assert len(set(q.answers)) == 2 and list(q.answers) == sorted(q.answers)
            assert all(1 <= int(a) <= len(q.statements) for a in q.answers)
        if q.options and q.option_tab == 7:  # combination: two different statements
            assert all(re.fullmatch(r"[ア-オ]　[ア-オ]", o) for o in q.options)
            assert len(set(q.options)) == len(q.options)


def test_formats_cover_every_case_the_parser_handles():
    text = {s: "\n".join(ln for page in booklet_layout(s).page_texts() for ln in page)
            for s in SUBJECT_CODES}
    allq = [q for s in SUBJECT_CODES for q in QUESTIONS[s]]
    # (a) combination, options on one line
    assert "１．ア イ ２．ア エ ３．イ ウ ４．ウ オ ５．エ オ" in text["minpo"]
    # (b) ○× table, three options a line
    assert "１．ア○ イ○ ウ○ ２．ア○ イ○ ウ× ３．ア○ イ× ウ○" in text["kenpo"]
    assert "７．ア× イ× ウ○ ８．ア× イ× ウ×" in text["minpo"]
    # (c) per-statement slots, also with ａ/ｂ views in 憲法
    assert any(q.slot_mode == "per_statement" and q.statements[0].parts
               for q in QUESTIONS["kenpo"])
    assert "ｂの見解がａの見解の批判となっている場合には１を、そうでない場合には２を選びなさい" in \
        "".join(q.stem for q in QUESTIONS["kenpo"])
    # (d) choose two
    assert "（解答欄は、［No.１］、［No.２］順不同）" in "".join(q.full_stem for q in allq)
    # (e) lead-in blocks and 語句群 blanks
    assert {b.kind for q in allq for b in q.lead_ins} >= {"事例", "見解", "語句群"}
    assert "【事 例】" in text["minpo"] and "【見 解】" in text["kenpo"]
    assert "【語句群】" in text["keiho"] and "（ａ）" in text["keiho"]
    # (f) numbered statements in 刑法, single choice and choose two
    assert any(q.slot_mode == "single" and q.statements and q.statements[0].label == "１"
               for q in QUESTIONS["keiho"])
    # (g) remarks
    assert sum(1 for q in allq if q.remark and q.remark.startswith("なお、")) >= 2
    assert {row[0] for row in FORMATS} == set(SUBJECT_CODES)


def test_a_slot_marker_breaks_across_lines():
    lines = [ln for page in booklet_layout("kenpo").page_texts() for ln in page]
    i = next(i for i, ln in enumerate(lines) if ln.endswith("［No."))
    assert lines[i + 1].startswith("14］")


def test_questions_flow_across_page_breaks():
    """Every booklet has a question whose lines run onto the next page, and in one the
    footer falls between two lines of an option grid."""
    between_options = False
    for subject in SUBJECT_CODES:
        layout = booklet_layout(subject)
        straddling = [q.number for q in QUESTIONS[subject] if len(layout.pages_of(q.number)) > 1]
        assert straddling, subject
        for page, nxt in zip(layout.pages, layout.pages[1:]):
            last, first = page.lines[-1], nxt.lines[0]
            if last.question == first.question and last.ref[0] == first.ref[0] == "option":
                between_options = True
        truth = {sq.number: sq.question for sq in expected()[subject]}
        for n in straddling:
            assert truth[n].page_last == truth[n].page_first + 1
    assert between_options


# --------------------------------------------------------------------------- wrapping
def test_wrap_hangs_one_closing_mark_and_keeps_no_whole():
    assert wrap("あ" * 43 + "。い", 43) == ["あ" * 43 + "。", "い"]
    # two closing marks cannot both hang: the line gives up a character instead
    assert wrap("あ" * 43 + "。」い", 43) == ["あ" * 42, "あ。」い"]
    # an opening bracket never ends a line, "No." and digit runs stay whole
    assert wrap("あ" * 42 + "［No.14］", 43) == ["あ" * 42, "［No.14］"]
    assert wrap("あ" * 39 + "［No.14］", 43 - 1)[0].endswith("［No.")
    # half-width characters count half
    assert wrap("-" * 87, 43) == ["-" * 86, "-"]


def test_page_break_modes():
    from buildds.sample.typeset_booklet import layout_booklet

    qs = QUESTIONS["kenpo"]
    kept = layout_booklet("憲法", qs, "question")
    assert all(len(kept.pages_of(q.number)) == 1 for q in qs)
    explicit = layout_booklet("憲法", qs, [30, 35])
    assert [len(p.lines) for p in explicit.pages][:2] == [30, 35]
    flat = [ln for p in explicit.pages for ln in p.lines]
    assert flat == [ln for p in booklet_layout("kenpo").pages for ln in p.lines]
    with pytest.raises(ValueError):
        layout_booklet("憲法", qs, "sideways")
