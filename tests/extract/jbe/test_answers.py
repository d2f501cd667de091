"""Answer-key parser: a key the project typesets itself (golden file), hand-made pages for
the failure paths, all 30 keys in ../shared, and a cross-check against the real pdfplumber
text of the official 2023/2024 keys."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from buildds.errors import KeyMismatchError, PdfError
from buildds.extract.jbe.answers import NOTE_UNORDERED, parse_answer_key
from buildds.extract.jbe.key_checks import reconcile
from buildds.extract.pdf.lines import extract_pdf
from buildds.sample.typeset_key import typeset_answer_key
from buildds.schema import AnswerSlot, PdfDocument, PdfPage, PdfWord, Source
from tests.conftest import check_golden, shared_path

ALL_CORRECT_NOTE = "※ 第６問の採点に当たっては、受験者全員を正答として取り扱うこととします。"
PARTIAL_2 = "2問正解で部分点1点"
PARTIAL_4 = "4問正解で部分点2点"


def _q(question: int, first_no: int, answers: list[str | None], points: int,
       note: str | None = None, *, unordered: bool = False,
       all_correct: bool = False) -> list[AnswerSlot]:
    return [AnswerSlot(no=first_no + i, question=question, answer=a, points=points, note=note,
                       unordered=unordered, all_correct=all_correct)
            for i, a in enumerate(answers)]


#: Every cell shape of the real keys: single slots, per-statement questions with 部分点
#: notes (3, 4 and 5 slots), 順不同 pairs, an all-correct question, two-digit Nos and 問.
ROWS: list[AnswerSlot] = [
    *_q(1, 1, ["3"], 2),
    *_q(2, 2, ["1", "2", "1"], 3, PARTIAL_2),
    *_q(3, 5, ["2", "4"], 3, NOTE_UNORDERED, unordered=True),
    *_q(4, 7, ["5"], 2),
    *_q(5, 8, ["1", "2", "2", "1", "2"], 4, PARTIAL_4),
    *_q(6, 13, [None] * 5, 4, ALL_CORRECT_NOTE, all_correct=True),
    *_q(7, 18, ["4"], 2),
    *_q(8, 19, ["1", "5"], 3, NOTE_UNORDERED, unordered=True),
    *_q(9, 21, ["2"], 2),
    *_q(10, 22, ["2", "1", "1", "2"], 3, "3問正解で部分点1点"),
    *_q(11, 26, ["3"], 2),
    *_q(12, 27, ["2", "5"], 3, NOTE_UNORDERED, unordered=True),
]
FULL_MARKS = 33  # 問 points counted once each


def _typeset_and_parse(tmp_path: Path, rows: list[AnswerSlot] = ROWS, *,
                       full_marks: int = FULL_MARKS, name: str = "sample/keiho-seito.pdf"):
    pdf = tmp_path / "key.pdf"
    typeset_answer_key(pdf, subject_jp="刑法", full_marks=full_marks, rows=rows)
    doc = extract_pdf(pdf, words=True, source_path=name)
    return parse_answer_key(doc, year=2099, subject="keiho")


# ------------------------------------------------------------------ typeset → parse
def test_typeset_key_parses_back_exactly(tmp_path):
    key = _typeset_and_parse(tmp_path)
    assert key.problems == ()
    assert list(key.slots) == ROWS
    assert key.full_marks == FULL_MARKS
    # the generated PDF's hash depends on the reportlab and font versions, not on the parser
    stable = key.model_copy(update={"source": Source(path=key.source.path, sha256="-")})
    check_golden("answers/sample-keiho.json", stable.model_dump_json(indent=1) + "\n")


def test_problems_are_reported_not_raised(tmp_path):
    rows = [s for s in ROWS if s.no != 9]  # a gap in the Nos
    rows = [s.model_copy(update={"answer": None}) if s.no == 1 else s for s in rows]
    key = _typeset_and_parse(tmp_path, rows, full_marks=40)
    codes = {p.code for p in key.problems}
    assert {"slot-numbering", "missing-answer", "points-sum"} <= codes
    assert all(p.source == "sample/keiho-seito.pdf" for p in key.problems)
    assert "9" in next(p.message for p in key.problems if p.code == "slot-numbering")


def _doc(words: list[tuple[str, float, float]], name: str = "x/minpo-seito.pdf") -> PdfDocument:
    """A page of 10 pt words given as (text, x0, top)."""
    ws = tuple(PdfWord(text=t, bbox=(x, y, x + 10.0 * len(t), y + 10.0)) for t, x, y in words)
    page = PdfPage(number=1, width=595.0, height=842.0, lines=(), words=ws)
    return PdfDocument(source=Source(path=name, sha256="0" * 64), pages=(page,))


def test_page_without_table_raises_naming_the_file():
    doc = _doc([("民法の正解及び配点", 230, 60), ("満点", 490, 90), ("75", 520, 90)])
    with pytest.raises(PdfError, match="x/minpo-seito.pdf"):
        parse_answer_key(doc, year=2024, subject="minpo")
    empty = PdfDocument(source=Source(path="x/minpo-seito.pdf", sha256="0" * 64),
                        pages=(PdfPage(number=1, width=595.0, height=842.0, lines=()),))
    with pytest.raises(PdfError, match="words=True"):
        parse_answer_key(empty, year=2024, subject="minpo")


def test_hand_made_words_with_letter_spaced_header_and_wrong_title():
    header = [("問", 55, 120), ("No", 85, 120), ("解答", 113, 120), ("配点", 149, 120),
              ("備", 218, 120), ("考", 238, 120)]
    body = [("1", 57, 137), ("1", 88, 137), ("4", 120, 137), ("2", 156, 137),
            # 問 2 over two rows, its 問/配点 on the rule between them
            ("2", 88, 154), ("3", 120, 154), ("3", 88, 170), ("1", 120, 170),
            ("2", 57, 162), ("3", 156, 162), ("順 不 同", 205, 156), ("（部分点なし）", 200, 168),
            ("- 1 -", 280, 800)]
    doc = _doc([("憲法の正解及び配点", 230, 60), ("満点 5", 490, 90), *header, *body])
    key = parse_answer_key(doc, year=2024, subject="minpo")
    assert [(s.no, s.question, s.answer, s.points) for s in key.slots] == [
        (1, 1, "4", 2), (2, 2, "3", 3), (3, 2, "1", 3)]
    assert key.slots[1].note == NOTE_UNORDERED and key.slots[1].unordered
    assert key.full_marks == 5
    assert [p.code for p in key.problems] == ["title-subject"]


# ------------------------------------------------------------------ the 30 keys in ../shared
YEARS = range(2015, 2025)
SUBJECTS_JP = {"kenpo": "憲法", "minpo": "民法", "keiho": "刑法"}
FULL = {"kenpo": 50, "minpo": 75, "keiho": 50}


def _manifest() -> dict[str, dict]:
    path = shared_path("jbe", "pdf", "manifest.json")
    return {f["path"]: f for f in json.loads(path.read_text("utf-8"))["files"]}


def _parse_shared(year: int, subject: str):
    pdf = shared_path("jbe", "pdf", str(year), f"{subject}-seito.pdf")
    doc = extract_pdf(pdf, words=True, source_path=f"{year}/{subject}-seito.pdf")
    return doc, parse_answer_key(doc, year=year, subject=subject)


@pytest.mark.shared
@pytest.mark.parametrize("subject", sorted(FULL))
@pytest.mark.parametrize("year", YEARS)
def test_shared_keys_parse_cleanly(year, subject):
    entry = _manifest()[f"pdf/{year}/{subject}-seito.pdf"]
    _, key = _parse_shared(year, subject)
    assert [p for p in key.problems if p.severity == "error"] == []
    assert [s.no for s in key.slots] == list(range(1, len(key.slots) + 1))
    per_question = {s.question: s.points for s in key.slots}
    assert list(per_question) == list(range(1, len(per_question) + 1))
    assert sum(p or 0 for p in per_question.values()) == entry["full_marks"] == FULL[subject]
    assert key.full_marks == entry["full_marks"]
    for s in key.slots:
        assert s.all_correct or (s.answer or "").isdigit(), s
        assert s.unordered == (s.note == NOTE_UNORDERED)


@pytest.mark.shared
def test_2023_keiho_question_6_is_scored_correct_for_everyone():
    _, key = _parse_shared(2023, "keiho")
    q6 = [s for s in key.slots if s.question == 6]
    assert [s.no for s in q6] == [11, 12, 13, 14, 15]
    assert all(s.all_correct and s.answer is None and s.note == ALL_CORRECT_NOTE for s in q6)
    assert not any(s.all_correct for s in key.slots if s.question != 6)


@pytest.mark.shared
def test_parsing_is_fast():
    docs = [_parse_shared(y, s)[0] for y in (2023, 2024) for s in FULL]
    start = time.perf_counter()
    for _ in range(5):
        for doc in docs:
            parse_answer_key(doc, year=2024, subject="keiho")
    per_page = (time.perf_counter() - start) / (5 * len(docs))
    assert per_page < 0.030, f"{per_page * 1000:.1f} ms per key page"


# ------------------------------------------------------------------ real text of 2023/2024
REAL = {2024: "reiwa_06", 2023: "reiwa_05"}


def real_pairs(text: str) -> tuple[dict[int, str], dict[int, tuple[int, int]]]:
    """(No → answer) and (No → (問, 配点)) from the lines of pdfplumber text that can be read
    without the layout: only-number lines of 8 numbers (問 No 解答 配点 in both blocks), and
    of 4 numbers when just one reading fits (問 No 解答 配点, or No 解答 No 解答)."""
    answers: dict[int, str] = {}
    cells: dict[int, tuple[int, int]] = {}
    for line in text.splitlines():
        tokens = line.split()
        if not tokens or not all(re.fullmatch(r"\d+", t) for t in tokens):
            continue
        n = [int(t) for t in tokens]
        if len(n) == 8:
            for q, no, ans, pts in (n[:4], n[4:]):
                answers[no], cells[no] = str(ans), (q, pts)
        elif len(n) == 4:
            as_row = n[2] < 10 and n[1] >= n[0] and n[3] in (2, 3, 4)
            as_pairs = n[1] < 10 and n[3] < 10 and n[2] > n[0]
            if as_row and not as_pairs:
                answers[n[1]], cells[n[1]] = str(n[2]), (n[0], n[3])
            elif as_pairs and not as_row:
                answers[n[0]], answers[n[2]] = str(n[1]), str(n[3])
    return answers, cells


@pytest.mark.shared
@pytest.mark.parametrize("subject", sorted(FULL))
@pytest.mark.parametrize("year", sorted(REAL))
def test_answers_match_the_real_key_text(year, subject):
    folder = shared_path("jbe", "real-text", REAL[year], "seito")
    (txt,) = folder.glob(f"{SUBJECTS_JP[subject]}_*.txt")
    answers, cells = real_pairs(txt.read_text("utf-8"))
    _, key = _parse_shared(year, subject)
    by_no = key.by_no()
    assert len(answers) >= 10  # the reading above must not silently degrade to nothing
    assert {no: by_no[no].answer for no in answers} == answers
    assert {no: (by_no[no].question, by_no[no].points) for no in cells} == cells


# ------------------------------------------------------------------ reconcile
@pytest.fixture(scope="module")
def sample_key(tmp_path_factory):
    return _typeset_and_parse(tmp_path_factory.mktemp("key"))


def test_reconcile_matching_slots(sample_key):
    slots = {s.no: s.question for s in ROWS}
    assert reconcile(slots, sample_key, booklet_name="sample/keiho-mondai.pdf") == []


@pytest.mark.parametrize("change, expect", [
    (lambda s: {k: v for k, v in s.items() if k != 7}, "only in the key: No 7"),
    (lambda s: {**s, 29: 12}, "only in the booklet: No 29"),
    (lambda s: {**s, 4: 3}, "No 4 (booklet 問 3, key 問 2)"),
])
def test_reconcile_mismatch_names_both_files(sample_key, change, expect):
    slots = change({s.no: s.question for s in ROWS})
    with pytest.raises(KeyMismatchError) as info:
        reconcile(slots, sample_key, booklet_name="sample/keiho-mondai.pdf")
    message = str(info.value)
    assert "sample/keiho-mondai.pdf" in message and "sample/keiho-seito.pdf" in message
    assert expect in message
