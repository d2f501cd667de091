"""Every record type buildds passes between stages.

Stages import these; they never redefine them. All records are frozen pydantic v2 models, so
they hash, compare and serialise (``model_dump_json``) the same way everywhere, which the
content-hash cache and the byte-identical outputs rely on.

Coordinates: a ``BBox`` is ``(x0, top, x1, bottom)`` in PDF points from the page's top-left
corner (pdfplumber's convention), and pages are numbered from 1.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator

from buildds.safeio.names import printable_name

__all__ = [
    "SUBJECTS",
    "AnswerKey",
    "AnswerSlot",
    "BBox",
    "ExamBooklet",
    "ExamQuestion",
    "Frozen",
    "JbeExclusion",
    "JbeExclusionReason",
    "JbeItem",
    "JbeQuestionType",
    "LeadIn",
    "Option",
    "PdfDocument",
    "PdfLine",
    "PdfPage",
    "PdfWord",
    "Problem",
    "Source",
    "Statement",
    "Subject",
]

BBox = tuple[float, float, float, float]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Source(Frozen):
    """Where a record came from: a path (relative to the raw root when there is one) and
    the sha256 of the file's bytes."""

    path: str
    sha256: str

    @field_validator("path")
    @classmethod
    def _printable(cls, value: str) -> str:
        return printable_name(value)


class Problem(Frozen):
    """A per-document error or warning: data, not an exception."""

    stage: str
    code: str
    message: str
    source: str | None = None
    page: int | None = None
    severity: Literal["error", "warning"] = "error"

    @field_validator("source")
    @classmethod
    def _printable(cls, value: str | None) -> str | None:
        return None if value is None else printable_name(value)

    def __str__(self) -> str:
        where = self.source or ""
        if self.page is not None:
            where += f", page {self.page}"
        return f"{where}: {self.message}" if where else self.message


# --------------------------------------------------------------------------- PDF text
class PdfLine(Frozen):
    text: str
    bbox: BBox
    font_size: float
    page: int
    #: the column the line stands in, 0 for the leftmost (multi-column pages only:
    #: ``extract_pdf(columns=True)``, :mod:`buildds.extract.pdf.columns`)
    column: int = 0
    #: OCR lines only: mean and least tesseract word confidence (0-100) of the line's words
    confidence: float | None = None
    min_confidence: float | None = None


class PdfWord(Frozen):
    """A run of text pdfium reports as one segment (a word, a cell, a tab-stop group)."""

    text: str
    bbox: BBox


class PdfPage(Frozen):
    number: int
    width: float
    height: float
    lines: tuple[PdfLine, ...]
    words: tuple[PdfWord, ...] = ()
    #: headers, footers and page numbers taken out of ``lines``
    furniture: tuple[PdfLine, ...] = ()
    ocr: bool = False
    #: mean tesseract word confidence (0-100) when the page went through OCR
    ocr_confidence: float | None = None


class PdfDocument(Frozen):
    source: Source
    pages: tuple[PdfPage, ...]

    @property
    def lines(self) -> list[PdfLine]:
        return [line for page in self.pages for line in page.lines]


# --------------------------------------------------------------------------- JBE exam
class Subject(Frozen):
    code: Literal["kenpo", "minpo", "keiho"]
    jp: str
    en: str


SUBJECTS: dict[str, Subject] = {
    "kenpo": Subject(code="kenpo", jp="憲法", en="Constitution"),
    "minpo": Subject(code="minpo", jp="民法", en="Civil Code"),
    "keiho": Subject(code="keiho", jp="刑法", en="Penal Code"),
}


class LeadIn(Frozen):
    """An auxiliary block of a question: 【事例】, 【見解】, 【会話】, 【語句群】 …"""

    kind: str
    text: str
    #: the label of the statement this block stands before (a 教授 question before its
    #: answer ア), ``None`` for blocks that serve the whole question
    before: str | None = None


class Statement(Frozen):
    """One statement (ア．…, or numbered １．… in some 刑法 questions).

    ``parts`` keeps nested ａ．/ｂ． statements (a view and its criticism) in order.
    ``slot`` is the answer-slot number when the statement carries its own ［No.n］."""

    label: str
    text: str
    slot: int | None = None
    parts: tuple[Statement, ...] = ()
    page: int


class Option(Frozen):
    number: int
    text: str


class ExamQuestion(Frozen):
    number: int
    points: int
    page_first: int
    page_last: int
    stem: str
    lead_ins: tuple[LeadIn, ...] = ()
    statements: tuple[Statement, ...] = ()
    options: tuple[Option, ...] = ()
    #: answer-slot numbers, in the order the stem gives them
    slots: tuple[int, ...]
    #: "single" (one slot), "per_statement" (アからウの順に［No.5］から［No.7］),
    #: "unordered" (［No.1］、［No.2］順不同, choose two)
    slot_mode: Literal["single", "per_statement", "unordered"]
    remark: str | None = None
    #: text the parser could not place anywhere else (kept, never dropped)
    other: tuple[str, ...] = ()


class ExamBooklet(Frozen):
    year: int
    era: str
    subject: Subject
    source: Source
    questions: tuple[ExamQuestion, ...]
    problems: tuple[Problem, ...] = ()

    @property
    def slots(self) -> list[int]:
        return [s for q in self.questions for s in q.slots]


class AnswerSlot(Frozen):
    """One row of the answer key, keyed by the No column."""

    no: int
    question: int
    #: the correct answer as printed ("3"), ``None`` when every examinee is scored correct
    answer: str | None
    points: int | None
    #: notes from the 備考 column, e.g. "順不同（部分点なし）", "2問正解で部分点1点"
    note: str | None = None
    unordered: bool = False
    all_correct: bool = False


class AnswerKey(Frozen):
    year: int
    subject: Subject
    source: Source
    full_marks: int | None
    slots: tuple[AnswerSlot, ...]
    problems: tuple[Problem, ...] = ()

    def by_no(self) -> dict[int, AnswerSlot]:
        return {s.no: s for s in self.slots}


# --------------------------------------------------------------------------- JBE-QA items
JbeQuestionType = Literal["combination", "truth_table", "per_statement", "view_relation",
                          "choose_two", "single_choice"]
JbeExclusionReason = Literal["no_statements", "all_correct", "missing_answer", "fill_in",
                             "counting", "ordering", "unknown_statement",
                             "answer_not_in_options", "non_binary", "ambiguous", "correction",
                             "matching"]


class JbeItem(Frozen):
    """One JBE-QA instance: a statement and whether it is true (seed 001, section 2.4).

    ``id`` is ``令和６年-民法-18-5``: era year (full-width digits), subject, question number,
    statement index from 1. ``year`` is the era year as JBE-QA writes it (``令和元年``)."""

    id: str
    year: str
    subject: str
    subject_jp: str
    instruction: str
    question: str
    label: Literal["Y", "N"]
    answer: bool
    theme: str | None = None
    lead_in: str | None = None
    remark: str | None = None
    question_type: JbeQuestionType
    points: int
    #: provenance: booklet path (relative to the raw root), its sha256, the statement's page
    source: str
    sha256: str
    page: int
    #: ids of the corrections applied to this item, in order
    corrections: tuple[str, ...] = ()
    #: the statement came from OCR: tesseract's mean word confidence over it (0-100);
    #: None for a statement from a text layer
    ocr_confidence: float | None = None


class JbeExclusion(Frozen):
    """A question that was not turned into items, and why (written to the rejects file)."""

    id: str
    subject: str
    reason: JbeExclusionReason
    message: str
    source: str
    page: int | None = None
