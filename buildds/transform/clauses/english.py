"""English clause starts: ``ARTICLE II`` / ``Article 3`` when a document has two of them,
otherwise ``1.`` / ``1.0`` / ``Section 2`` headings numbered forward; appendices (Exhibit,
Schedule …); the signature line and the paragraph/item markers of a clause body.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from buildds.text import to_int_number
from buildds.transform.clauses.lines import ClauseStart, Line

_EN_WORD_NUMBERS = {
    w: i for i, w in enumerate(
        ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "ELEVEN", "TWELVE", "THIRTEEN", "FOURTEEN", "FIFTEEN", "SIXTEEN", "SEVENTEEN", "EIGHTEEN", "NINETEEN", "TWENTY"], start=1)
}
_EN_ARTICLE = re.compile(
    r"^(?P<label>ARTICLE|Article)\s+(?P<num>[IVXLC]+|\d+|[A-Z]+)\b\.?(?P<rest>.*)$"
)
_EN_SECTION = re.compile(r"^(?P<label>SECTION|Section)\s+(?P<num>\d{1,3})(?:\.0)?\.?(?![\d(])(?P<rest>.*)$")
_EN_NUMBERED = re.compile(r"^(?P<num>\d{1,2})(?:\s*\.\s*0\.?|\.)\s*(?P<rest>[A-Z\u201c\"].*)$")
_EN_TOC = re.compile(r"^[^a-z]*\s\d{1,3}$")
_EN_SIGNATURE = re.compile(r"^IN WITNESS WHEREOF", re.IGNORECASE)
_EN_APPENDIX = re.compile(
    r"^(?:EXHIBIT|SCHEDULE|ANNEX|APPENDIX|Exhibit|Schedule|Annex|Appendix)\s+[A-Z0-9][A-Z0-9.\-]*"
    r"\s*(?:[-–—:].*)?$"
)
_EN_PARA = re.compile(r"^\d+(?:\s*\.\s*\d+)+\.?\s")
_EN_ITEM = re.compile(r"^\((?:[a-z]{1,2}|[ivx]+|\d+)\)\s")


def _en_number(token: str) -> int | None:
    if token.upper() in _EN_WORD_NUMBERS:
        return _EN_WORD_NUMBERS[token.upper()]
    return to_int_number(token)


def _en_heading(rest: str) -> tuple[str | None, str]:
    """Split what follows an English section number into heading and body."""
    rest = rest.lstrip(" .:-–—\t").rstrip()
    if not rest:
        return None, ""
    letters = [c for c in rest if c.isalpha()]
    if letters and all(c.isupper() for c in letters):
        return rest.rstrip("."), ""
    if re.match(r"^[^.]{1,80}\.$", rest) and len(rest.split()) <= 8:  # "4. Miscellaneous."
        return rest[:-1], ""
    m = re.match(r"^(.{1,100}?)\.\s+(\S.*)$", rest)
    if m:
        return m.group(1), m.group(2)
    if len(rest) <= 80 and not rest.endswith((".", ",", ";")):
        return rest, ""
    return None, rest



def en_starts(lines: Sequence[Line]) -> list[ClauseStart]:
    articles: list[ClauseStart] = []
    for i, ln in enumerate(lines):
        m = _EN_ARTICLE.match(ln.det)
        if m:
            num = _en_number(m.group("num"))
            rest = m.group("rest")
            if num is None or (rest and not re.match(r"^\s*(?:[-–—:.]|$|\s+[A-Z])", rest)):
                continue
            heading, body = _en_heading(rest)
            articles.append(ClauseStart(i, "article", num,
                                        f"{m.group('label')} {m.group('num')}", heading, body))
    starts: list[ClauseStart]
    if len(articles) >= 2:
        starts = articles
    else:
        starts = []
        last: int | None = None
        for i, ln in enumerate(lines):
            if _EN_TOC.match(ln.det):
                continue
            m = _EN_SECTION.match(ln.det) or _EN_NUMBERED.match(ln.det)
            if not m:
                continue
            rest = m.group("rest")
            if rest.strip(" .:") and not re.match(r"^[\s.:\-–—]*[A-Z\u201c\"]", rest):
                continue
            num = int(m.group("num"))
            if not (num <= 2 if last is None else last < num <= last + 3):
                continue
            heading, body = _en_heading(rest)
            label = m.groupdict().get("label")
            number_text = f"{label} {num}" if label else ln.det[: m.start("rest")].strip()
            starts.append(ClauseStart(i, "section", num, number_text, heading, body))
            last = num
    if starts:
        first = starts[0].line
        for i, ln in enumerate(lines):
            # "Exhibit C." wrapped to the start of a line ends a sentence: not a heading
            if (i > first and _EN_APPENDIX.match(ln.det) and len(ln.det) <= 80
                    and not ln.det.endswith(".") and not _EN_TOC.match(ln.det)):
                starts.append(ClauseStart(i, "appendix", heading=ln.text))
        starts.sort(key=lambda s: s.line)
        # sections inside an appendix are the appendix's own numbering
        kept: list[ClauseStart] = []
        in_appendix = False
        for s in starts:
            if s.kind == "appendix":
                in_appendix = True
            elif in_appendix:
                continue
            kept.append(s)
        starts = kept
    return starts


def is_en_signature(det: str) -> bool:
    """A line that starts the signature clause (IN WITNESS WHEREOF)."""
    return bool(_EN_SIGNATURE.match(det))


def en_para_item(det: str) -> tuple[bool, bool]:
    """Whether a body line starts a numbered paragraph (``2.1 …``) and whether it starts an
    item (``(a) …``)."""
    return bool(_EN_PARA.match(det)), bool(_EN_ITEM.match(det))
