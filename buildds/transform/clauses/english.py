"""English clause starts: ``ARTICLE II`` / ``Article 3`` when a document has two of them,
otherwise ``1.`` / ``1.0`` / ``Section 2`` headings numbered forward; appendices (Exhibit,
Schedule …); the signature line and the paragraph/item markers of a clause body.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

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
_EN_NUMBERED = re.compile(r"^(?P<num>\d{1,2})(?:\s*\.\s*0\.?|\.)\s*(?P<rest>\[?[A-Z\u201c\"].*)$")
_EN_TOC = re.compile(r"^[^a-z]*\s\d{1,3}$")
_EN_SIGNATURE = re.compile(
    r"^(?:IN WITNESS (?:WHEREOF|OF WHICH)|In [Ww]itness [Ww]hereof|AS WITNESS|"
    r"(?:SIGNED|Signed|EXECUTED|Executed)\s+(?:by|BY|for|FOR|as a deed|AS A DEED|on behalf|ON BEHALF)"
    r"(?!.*[a-z]\.$)|This (?:agreement|Agreement|AGREEMENT) has been (?:entered into|executed|signed) "
    r"on the date)")
_EN_APPENDIX = re.compile(
    r"^(?:EXHIBIT|SCHEDULE|ANNEXURE|ANNEX|APPENDIX|ATTACHMENT|Exhibit|Schedule|Annexure|Annex|Appendix|Attachment)"
    r"(?:\s+[A-Z0-9][A-Z0-9.\-]*)?(?P<rest>(?:\s*[-–—:\t]\s*\S.*|\s+\S.*)?)$"
)
_EN_IMPLIED = re.compile(r"^(?P<num>\d{1,2})\s*\.\s*\d{1,2}\.?\s+[A-Z\u201c\"]")
_LEADING_NUMBER = re.compile(r"^(\d{1,2})(?:\.0)?\.?\s+")
_SMALL_WORDS = {"of", "and", "the", "to", "for", "in", "on", "a", "an", "or", "with", "by"}
_EN_PARA = re.compile(r"^(?:(?:Section|SECTION|Clause|CLAUSE)\s+)?\d+(?:\s*\.\s*\d+)+\.?\s")
_EN_CAPS_HEADING = re.compile(r"^(?=.*[A-Z]{3})[A-Z0-9][A-Z0-9 ,;:'’&()/\-]{2,60}\.?$")
_EN_ITEM = re.compile(r"^(?:\((?:[a-z]{1,2}|[ivx]+|\d+)\)|[a-z]\))\s")


def is_en_appendix(det: str, number_text: str | None = None) -> bool:
    """``Schedule 1 – Pre-completion obligations``, ``EXHIBIT A``, ``Annex B Deed of
    accession``: after a dash, colon or tab any title; after a space a short one (at most
    eight words, up to 60 characters, starting with a capital, no ``( ) , ;``) —
    ``Exhibit A ("Content"), subject to…`` wrapped to a line start is text. A Word paragraph
    numbered ``Schedule %1`` by its numbering definition (``number_text``) is one too."""
    if number_text and _EN_APPENDIX.match(number_text) and len(det) <= 120:
        return True
    m = _EN_APPENDIX.match(det)
    if m is None or len(det) > 80 or det.endswith((".", ",", ";")):
        return False
    rest = m.group("rest").strip()
    if not rest or re.match(r"^[-–—:]", rest) or "\t" in m.group("rest"):
        return True
    return (len(det) <= 60 and len(rest.split()) <= 8 and not re.search(r"[(),;]", rest)
            and bool(re.match(r"^[A-Z0-9\u201c\"'\[]", rest)))


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



def en_starts(lines: Sequence[Line], *, toc: Collection[int] = (),
              headings: Sequence[bool] | None = None) -> list[ClauseStart]:
    """Where clauses start; ``toc`` lines (a table of contents) never start one. Without two
    numbered starts, the document's own headings (``headings``: Word heading styles, PDF
    lines in a larger font) and then ALL-CAPS heading lines are the clauses."""
    articles: list[ClauseStart] = []
    for i, ln in enumerate(lines):
        if i in toc:
            continue
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
            if i in toc or _EN_TOC.match(ln.det):
                continue
            m = _EN_SECTION.match(ln.det) or _EN_NUMBERED.match(ln.det)
            if not m:
                implied = _EN_IMPLIED.match(ln.det)
                if implied and last is not None and int(implied.group("num")) == last + 1:
                    # "11. 1 TELKOM's sole…" with no "11." heading line: section 11 starts
                    last = last + 1
                    starts.append(ClauseStart(i, "section", last, f"{last}.", None, ln.text))
                continue
            rest = m.group("rest")
            if rest.strip(" .:") and not re.match(r"^[\s.:\-–—]*\[?[A-Z\u201c\"]", rest):
                continue
            num = int(m.group("num"))
            if not (num <= 2 if last is None else last < num <= last + 3):
                continue
            heading, body = _en_heading(rest)
            label = m.groupdict().get("label")
            number_text = f"{label} {num}" if label else ln.det[: m.start("rest")].strip()
            starts.append(ClauseStart(i, "section", num, number_text, heading, body))
            last = num
    if len(starts) < 2:
        starts = _heading_starts(lines, toc, headings) or starts
    if starts:
        first = starts[0].line
        for i, ln in enumerate(lines):
            # "Exhibit C." wrapped to the start of a line ends a sentence: not a heading
            if (i > first and i not in toc
                    and is_en_appendix(ln.det, ln.block.number_text if ln.first else None)
                    # "Schedule 2 … 14" is a TOC entry, "ANNEXURE 1" alone a heading
                    and (not _EN_TOC.match(ln.det) or len(ln.det.split()) <= 2)
                    and not any(s.line == i for s in starts)):
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


def _heading_starts(lines: Sequence[Line], toc: Collection[int],
                    headings: Sequence[bool] | None) -> list[ClauseStart]:
    """Unnumbered sections: lines the layout marks as headings, else ALL-CAPS lines."""
    def start(i: int, ln: Line) -> ClauseStart:
        m = _LEADING_NUMBER.match(ln.det)
        if m is None:
            return ClauseStart(i, "section", heading=ln.det.rstrip(".:"))
        return ClauseStart(i, "section", int(m.group(1)), m.group(0).strip(),
                           ln.det[m.end():].rstrip(".:") or None)

    def pick(test: Callable[[int, Line], bool]) -> list[ClauseStart]:
        return [start(i, ln) for i, ln in enumerate(lines)
                if i not in toc and len(ln.det) <= 80 and not is_en_signature(ln.det)
                and not is_en_appendix(ln.det) and test(i, ln)]

    found: list[ClauseStart] = []
    if headings is not None:
        found = pick(lambda i, ln: headings[i] and not ln.det.endswith((".", ",", ";")))
    if len(found) < 2:
        found = pick(lambda i, ln: bool(_EN_CAPS_HEADING.match(ln.det))
                     and len(ln.det.split()) <= 8)
        if len(found) < 3:  # one or two capitalised lines are a title, not a structure
            return []
    return found[1:] if found and found[0].line == 0 and len(found) > 2 else found


def is_en_signature(det: str) -> bool:
    """A line that starts the signature clause (IN WITNESS WHEREOF)."""
    return bool(_EN_SIGNATURE.match(det))


def en_para_item(det: str) -> tuple[bool, bool]:
    """Whether a body line starts a numbered paragraph (``2.1 …``) and whether it starts an
    item (``(a) …``)."""
    return bool(_EN_PARA.match(det)), bool(_EN_ITEM.match(det))
