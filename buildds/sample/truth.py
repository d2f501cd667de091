"""Ground truth for the bundled sample: what a correct parse of each booklet and key gives.

Built from :mod:`buildds.sample.content` and the page layout (pure Python, no reportlab), so
the pages a question spans are exactly those of the PDF.

Text conventions (so that a parser's output can be compared field by field):

* texts are as printed, joined across line breaks without a space, with runs of spaces
  (also the full-width ``　`` in ``（　）`` and in option grids) collapsed to one ASCII space;
* ``ExamQuestion.stem`` runs up to and including the slot marker, remark included;
* a statement's ``text`` and ``slot`` come without its trailing ``［No.n］``; a statement with
  ａ．/ｂ． views has an empty ``text`` and the views in ``parts`` (the slot on the statement);
* ``LeadIn.text``: 事例/見解 paragraphs and 会話 turns (``学生Ａ．…``) one per line (``\\n``);
  語句群 as printed, one printed line per line (``ア．不能犯 イ．中止犯 …``);
* numbered statements (``１．…``) are labelled with ASCII digits (``"1"``);
* ``Option.text`` is the option without its number (``ア イ``, ``ア○ イ× ウ○``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from buildds.sample.content import QUESTIONS, SUBJECT_CODES
from buildds.sample.model import Question
from buildds.sample.typeset_booklet import BookletLayout, layout_booklet
from buildds.schema import (
    SUBJECTS,
    AnswerSlot,
    ExamQuestion,
    LeadIn,
    Option,
    Statement,
)

__all__ = ["PAGE_BREAKS", "SampleQuestion", "answer_rows", "booklet_layout", "expected"]

#: how the sample booklets break pages: questions flow across pages (the 2015–2023 style),
#: so footers fall inside questions and, in 憲法, between two lines of an option grid
PAGE_BREAKS = "flow"

_SPACES = re.compile(r"[ \u3000]+")
_ASCII_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")


def _norm(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


@dataclass(frozen=True)
class SampleQuestion:
    """One sample question: the parse a booklet parser should produce, and the key rows."""

    subject: str
    question: ExamQuestion
    answers: tuple[AnswerSlot, ...]
    #: what the question exercises ("○× table, 8 options three to a line", …)
    format: str

    @property
    def number(self) -> int:
        return self.question.number

    @property
    def slots(self) -> tuple[int, ...]:
        return self.question.slots

    @property
    def answer_values(self) -> tuple[str, ...]:
        return tuple(a.answer or "" for a in self.answers)


def booklet_layout(subject: str) -> BookletLayout:
    """The page layout of a sample booklet (the same one the PDF is drawn from)."""
    return layout_booklet(SUBJECTS[subject].jp, QUESTIONS[subject], PAGE_BREAKS)


def answer_rows(subject: str) -> list[AnswerSlot]:
    """The rows of the subject's answer key, one per slot, in No order."""
    return [row for q in QUESTIONS[subject] for row in _rows(q)]


def _rows(q: Question) -> list[AnswerSlot]:
    return [
        AnswerSlot(no=no, question=q.number, answer=answer, points=q.points, note=q.note,
                   unordered=q.slot_mode == "unordered")
        for no, answer in zip(q.slots, q.answers)
    ]


def _pages(layout: BookletLayout) -> dict[tuple[int, tuple[int | str, ...]], int]:
    """(question, ref) → the page its first line is on."""
    out: dict[tuple[int, tuple[int | str, ...]], int] = {}
    for page in layout.pages:
        for line in page.lines:
            if line.question is not None:
                out.setdefault((line.question, line.ref), page.number)
    return out


def _label(label: str) -> str:
    """Numbered statements are labelled with ASCII digits (``１．`` → ``"1"``), as parsed."""
    return label.translate(_ASCII_DIGITS)


def _exam_question(q: Question, layout: BookletLayout) -> ExamQuestion:
    first = _pages(layout)
    pages = layout.pages_of(q.number)

    def page_of(ref: tuple[int | str, ...]) -> int:
        return first[(q.number, ref)]

    statements = []
    for i, item in enumerate(q.statements):
        if item.parts:
            parts = tuple(Statement(label=p.label, text=_norm(p.text), page=page_of(("part", i, j)))
                          for j, p in enumerate(item.parts))
            statements.append(Statement(label=item.label, text="", slot=item.slot, parts=parts,
                                        page=page_of(("part", i, 0))))
        else:
            statements.append(Statement(label=_label(item.label), text=_norm(item.text),
                                        slot=item.slot, page=page_of(("statement", i))))
    lead_ins = []
    for k, block in enumerate(q.lead_ins):
        if block.paragraphs:
            pieces = list(block.paragraphs)
        elif block.speakers:
            pieces = [who + what for who, what in block.speakers]
        else:  # 語句群: the printed lines, several words to a line
            pieces = [ln.text for page in layout.pages for ln in page.lines
                      if ln.question == q.number and ln.ref == ("lead_in", k)][1:]
        lead_ins.append(LeadIn(kind=block.kind, text="\n".join(_norm(t) for t in pieces)))
    return ExamQuestion(
        number=q.number, points=q.points, page_first=min(pages), page_last=max(pages),
        stem=_norm(q.full_stem), lead_ins=tuple(lead_ins), statements=tuple(statements),
        options=tuple(Option(number=k + 1, text=_norm(t)) for k, t in enumerate(q.options)),
        slots=q.slots, slot_mode=q.slot_mode, remark=_norm(q.remark) if q.remark else None)


def expected() -> dict[str, list[SampleQuestion]]:
    """Per subject code, the sample questions with their correct parse and key rows."""
    out: dict[str, list[SampleQuestion]] = {}
    for subject in SUBJECT_CODES:
        layout = booklet_layout(subject)
        out[subject] = [
            SampleQuestion(subject=subject, question=_exam_question(q, layout),
                           answers=tuple(_rows(q)), format=q.format)
            for q in QUESTIONS[subject]
        ]
    return out

