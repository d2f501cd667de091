"""What a bar-exam booklet or answer key prints about itself — its subject and exam year — and
whether that is what its path claims.

Only title lines are read, so a date inside a question (``最高裁判所平成２４年１２月７日``) is
never taken for the exam year:

* a booklet: every line before its first question header (the cover
  ``短答式試験問題集［民法］`` and the page header ``［民法］``), page furniture included;
* an answer key: the lines of its first page above the table header ``問 No 解答``
  (the title ``民法の正解及び配点``).

A title line is at most :data:`TITLE_CHARS` characters once NFKC-normalised and stripped of
spaces, so full-width digits, letter spacing (``令和 6 年``, ``民 法``) and OCR spacing do not
matter; ``令和元年``, ``令和1年``, ``令和６年度`` and ``2024年`` all read as a year, a following
month (``平成31年4月``) makes it a date instead. The official booklets and keys print their
subject but no year; when a year is printed it is checked too.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from buildds.schema import PdfDocument, PdfLine, Problem, Subject
from buildds.text import era_of, era_year

__all__ = ["TITLE_CHARS", "PrintedHeader", "check_printed", "read_booklet_header",
           "read_key_header"]

STAGE = "header"
#: Longer lines are body text (instructions on a cover), not a title.
TITLE_CHARS = 40
_SUBJECT = re.compile(r"(憲|民|刑)法")
_ERA = re.compile(r"(平成|令和)(元|\d{1,2})年(?!\d{1,2}月)")
_WESTERN = re.compile(r"(?<!\d)((?:19|20)\d\d)年(?!\d{1,2}月)")
_QUESTION = re.compile(r"^[〔(\[【]?第\d+問")
_KEY_TABLE = re.compile(r"問.*No.*解答")
_TITLE_WORDS = ("問題", "試験", "正解", "配点", "科目")
_ALONE = re.compile(r"[^\w]*(?:憲|民|刑)法[^\w]*")  # a line that is just the subject
_BRACKETED = re.compile(r"[\[(【「〔《]\s*(?:憲|民|刑)法|(?:憲|民|刑)法\s*[\])】」〕》]")


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


@dataclass(frozen=True)
class PrintedHeader:
    """What the title lines print: distinct subjects (``民法``) and exam years, in order."""

    subjects: tuple[str, ...] = ()
    years: tuple[int, ...] = ()
    page: int | None = None
    #: the title lines read, joined (for the report)
    text: str = ""

    def describe(self) -> str:
        """``令和元年 憲法``, ``憲法``, or ``no subject or year``."""
        parts = [_era_text(y) for y in self.years] + list(self.subjects)
        return " ".join(parts) if parts else "no subject or year"

    def as_json(self) -> dict[str, object]:
        return {"subjects": list(self.subjects), "years": list(self.years), "page": self.page,
                "text": self.text}


def _era_text(year: int) -> str:
    try:
        return era_of(year)
    except ValueError:
        return f"{year}年"


def _read(lines: list[PdfLine]) -> PrintedHeader:
    subjects: list[str] = []
    years: list[int] = []
    titles: list[str] = []
    page: int | None = None
    for line in lines:
        text = _norm(line.text)
        if not text or len(text) > TITLE_CHARS:
            continue
        found = _SUBJECT.findall(text)
        titled = (any(w in text for w in _TITLE_WORDS) or bool(_BRACKETED.search(text))
                  or _ALONE.fullmatch(text) is not None)
        line_years = [era_year(m.group(1), m.group(2)) for m in _ERA.finditer(text)]
        line_years += [int(m.group(1)) for m in _WESTERN.finditer(text)]
        if not ((found and titled) or line_years):
            continue
        titles.append(text)
        page = page if page is not None else line.page
        for name in (f"{s}法" for s in found if titled):
            if name not in subjects:
                subjects.append(name)
        for y in line_years:
            if y not in years:
                years.append(y)
    return PrintedHeader(tuple(subjects), tuple(years), page, " / ".join(titles))


def read_booklet_header(doc: PdfDocument) -> PrintedHeader:
    """The subject and year a question booklet prints before its first question."""
    lines: list[PdfLine] = []
    for page in doc.pages:
        started = False
        for line in page.lines:
            if _QUESTION.match(_norm(line.text)):
                started = True
                break
            lines.append(line)
        lines.extend(page.furniture)
        if started:
            break
    return _read(lines)


def read_key_header(doc: PdfDocument) -> PrintedHeader:
    """The subject and year an answer key prints above its table (first page with text)."""
    for page in doc.pages:
        if not page.lines:
            continue
        lines: list[PdfLine] = []
        for line in page.lines:
            if _KEY_TABLE.search(_norm(line.text)):
                break
            lines.append(line)
        return _read(lines + list(page.furniture))
    return PrintedHeader()


def check_printed(printed: PrintedHeader, *, kind: Literal["booklet", "key"], source: str,
                  year: int, subject: Subject,
                  other: PrintedHeader | None = None) -> list[Problem]:
    """Problems when ``printed`` contradicts the path's ``year`` and ``subject``
    (``header-mismatch``: the pair must not be built) or names no subject at all
    (``header-not-found``: it cannot be checked). ``other`` is the partner file's header,
    quoted when it printed something."""
    what = "booklet" if kind == "booklet" else "answer key"
    claimed = f"{year} {subject.jp}"
    if not printed.subjects:
        expected = f"［{subject.jp}］" if kind == "booklet" else f"{subject.jp}の正解及び配点"
        where = "on its cover or page header" if kind == "booklet" else "as its title"
        return [Problem(stage=STAGE, code="header-not-found", source=source, page=printed.page,
                        message=f"the {what} prints no subject (expected {expected} {where}), "
                                f"so it cannot be checked against its path ({claimed})")]
    wrong_subject = printed.subjects != (subject.jp,)
    wrong_year = bool(printed.years) and printed.years != (year,)
    if not (wrong_subject or wrong_year):
        return []
    message = f"the {what} says {printed.describe()} but its path says {claimed}"
    if other is not None and other.subjects:
        partner = "answer key" if kind == "booklet" else "booklet"
        message += f" (its {partner} says {other.describe()})"
    return [Problem(stage=STAGE, code="header-mismatch", source=source, page=printed.page,
                    message=message)]
