"""How sure tesseract was of each statement of an OCR'd booklet.

Every OCR line carries the mean and the least confidence (0–100) of its words
(:mod:`buildds.extract.ocr.tesseract_lines`). A statement is found again among the lines it
was parsed from — its text, without whitespace, searched in the booklet's lines laid end to
end, in reading order — and gets the character-weighted mean of those lines' confidences and
the least word confidence among them. Matching the text rather than re-walking the structure
keeps this independent of how the parser decides what a statement is.

:func:`statement_confidences` returns ``{"18-5": (mean, least)}``: question 18, fifth
statement (the index the item id ends with); a statement not found again (its text changed
after parsing) gets its page's mean confidence for both. Text-layer pages are skipped, so a
booklet without OCR gives ``{}``.
"""

from __future__ import annotations

import re

from buildds.schema import ExamBooklet, PdfDocument, Statement

__all__ = ["statement_confidences"]

_SPACE = re.compile(r"\s+")
#: characters of a statement's start used to find it (long enough to be unique in a booklet)
_PROBE = 24


def _compact(text: str) -> str:
    return _SPACE.sub("", text)


class _Stream:
    """The OCR lines of a booklet end to end, without whitespace, with each character's
    line."""

    def __init__(self, doc: PdfDocument) -> None:
        chunks: list[str] = []
        self.owner: list[int] = []
        self.conf: list[tuple[float, float]] = []
        for page in doc.pages:
            if not page.ocr:
                continue
            for line in page.lines:
                text = _compact(line.text)
                mean = line.confidence if line.confidence is not None else (
                    page.ocr_confidence or 0.0)
                least = line.min_confidence if line.min_confidence is not None else mean
                self.conf.append((mean, least))
                chunks.append(text)
                self.owner += [len(self.conf) - 1] * len(text)
        self.text = "".join(chunks)
        self.cursor = 0

    def find(self, text: str) -> list[tuple[int, int]] | None:
        """``(line, characters)`` spanned by ``text`` at or after the cursor, or None."""
        text = _compact(text)
        if not text:
            return None
        at = self.text.find(text[:_PROBE], self.cursor)
        if at < 0:
            at = self.text.find(text[:_PROBE])  # out of order (a column read late)
        if at < 0:
            return None
        end = min(len(self.text), at + len(text))
        self.cursor = end
        counts: dict[int, int] = {}
        for line in self.owner[at:end]:
            counts[line] = counts.get(line, 0) + 1
        return sorted(counts.items())


def _score(stream: _Stream, st: Statement) -> tuple[float, float] | None:
    spans: list[tuple[int, int]] = []
    for text in (st.text, *(p.text for p in st.parts)):
        if not text:
            continue
        found = stream.find(text)
        if found is None:
            return None
        spans += found
    if not spans:
        return None
    chars = sum(n for _, n in spans)
    mean = sum(stream.conf[line][0] * n for line, n in spans) / chars
    least = min(stream.conf[line][1] for line, _ in spans)
    return round(mean, 2), round(least, 2)


def statement_confidences(doc: PdfDocument, booklet: ExamBooklet) -> dict[str, tuple[float, float]]:
    """``{"<question>-<statement index>": (mean, least)}`` for every statement on an OCR
    page (see the module docstring); ``{}`` when no page went through OCR."""
    if not any(p.ocr for p in doc.pages):
        return {}
    page_conf = {p.number: p.ocr_confidence or 0.0 for p in doc.pages if p.ocr}
    stream = _Stream(doc)
    out: dict[str, tuple[float, float]] = {}
    for q in booklet.questions:
        for i, st in enumerate(q.statements, start=1):
            score = _score(stream, st)
            if score is None:
                if st.page not in page_conf:
                    continue
                score = (page_conf[st.page], page_conf[st.page])
            out[f"{q.number}-{i}"] = score
    return out
