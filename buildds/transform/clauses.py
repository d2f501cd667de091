"""Cut a contract's blocks into clauses (条 / numbered sections) with provenance.

Input is the document model (:class:`DocBlock`, from a .docx, or one block per PDF line via
:func:`blocks_from_pdf`). Blocks carrying a ``bbox`` are *lines* (PDF, OCR) and are re-joined
into paragraphs with :func:`join_wrapped`; blocks without one are paragraphs (docx), and each
``\\n`` inside them (a ``<w:br/>``) starts a new unit.

Clause boundaries:

* Japanese — an **article heading** is a line ``第N条`` / ``第N条のM`` (N in ASCII, full-width
  or kanji digits, spaces allowed inside: ``第 10 条``) followed by a heading bracket, a space
  / ideographic space, or the end of the line — see :func:`ja_article_heading`. A wrapped
  cross-reference at the start of a line (``第4条第4項、…``, ``第３条の規定により``,
  ``第5条に基づき``, ``第2条 及び…``) is not one. A heading may stand before the number on the
  same line (``（目的）第1条 …``) or alone on the line before it (``（目的）``). Documents
  without any ``第N条`` fall back to numbered headings ``１（見出し）``. ``第N章`` lines are
  chapter clauses (kind ``other``); ``附則`` starts a supplementary clause, ``別紙``/``別表``
  an appendix.
* English — ``ARTICLE II`` / ``Article 3`` when the document has at least two of them,
  otherwise ``1.`` / ``1.0`` / ``Section 2`` headings that start with a capital letter and
  keep the numbering going forward (``last < N <= last + 3``: numbered lists inside a section
  restart at 1 and are not sections); table-of-contents lines (``3.0 OWNERSHIP 8``) are skipped.
* Everything before the first clause is the ``preamble``; in the last clause, the first
  signature line (``以上``, ``…を証するため``, ``本書２通``, a date line, ``甲：``/``住所``,
  ``IN WITNESS WHEREOF``) starts the ``signature`` clause.

Text is normalised with :func:`normalize_text` (zero-width characters and Kangxi radicals);
article numbers are read with :func:`to_int_number` on a half-width-digit copy.
``char_span`` indexes :func:`document_text` of the same blocks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from buildds.extract.pdf.lines import join_wrapped
from buildds.schema import PdfDocument
from buildds.schema.contracts import Clause, ClauseKind, DocBlock
from buildds.transform.normalize import normalize_text, to_int_number

__all__ = [
    "ArticleHeading",
    "blocks_from_pdf",
    "document_text",
    "ja_article_heading",
    "split_clauses",
]

Language = Literal["auto", "ja", "en"]

_SP = r"[ \u3000]"
_KNUM = "〇零一二三四五六七八九十百千"
_NUM = rf"(?:[0-9]+|[{_KNUM}]+)"
_OPEN, _CLOSE = "（(【〔［[", "）)】〕］]"
# What may follow 第N条 / its heading bracket in running text, never in a heading line.
_REF_CONTINUATION = re.compile(
    r"^(?:第|の|に|を|は|が|で|と|へ|も|や|から|まで|より|及び|並びに|又は|若しくは|または|"
    r"および|ならびに|もしくは|ないし|乃至|[、，,。．.・～〜\-－])"
)


# --------------------------------------------------------------------------- detection
@dataclass(frozen=True)
class ArticleHeading:
    number: int | None
    number_text: str
    heading: str | None
    body: str
    branch: bool = False  # 第N条のM


_JA_ARTICLE = re.compile(
    rf"^第{_SP}*(?P<num>{_NUM}){_SP}*条(?:{_SP}*の{_SP}*(?P<sub>{_NUM}))?(?P<rest>.*)$"
)
_JA_HEADING_FIRST = re.compile(rf"^[（(](?P<h>[^（）()]{{1,30}})[)）]{_SP}*(?P<art>第.*)$")


def _split_bracket(rest: str) -> tuple[str, str] | None:
    """``（目的）本契約は…`` → ("目的", "本契約は…"); None without a closed bracket."""
    if not rest or rest[0] not in _OPEN:
        return None
    depth = 0
    for i, ch in enumerate(rest):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
            if depth == 0:
                return rest[1:i].strip(), rest[i + 1 :].strip()
    return None


def _heading_rest(rest: str) -> tuple[str | None, str] | None:
    """Apply the heading-line rule to what follows a number; None when it is running text."""
    if rest == "":
        return None, ""
    stripped = rest.strip(" \u3000")
    if rest[0] not in _OPEN and stripped == rest:
        return None  # glued to text: 第4条第4項 / 第３条の規定 / 第5条に
    if stripped == "":
        return None, ""
    bracket = _split_bracket(stripped)
    if bracket is not None:
        heading, body = bracket
        if body and _REF_CONTINUATION.match(body):
            return None  # 第7条（損害の賠償）に定める…
        return heading or None, body
    if _REF_CONTINUATION.match(stripped):
        return None  # 第2条 及び第3条…
    return None, stripped


def ja_article_heading(line: str) -> ArticleHeading | None:
    """Parse a Japanese article heading line, or None when the line is not one.

    The rule (the cross-reference trap): ``第N条`` (optionally ``のM``) must be followed by

    1. the end of the line (``第１条`` — body on the next line), or
    2. a heading bracket ``（…）``/``(…)``/``【…】``, or
    3. a space or ideographic space,

    and what comes after the bracket or space must not continue a reference: not
    ``第M項``/``第M条``, not a particle (の, に, を, は, が, で, と, へ, も, や, から, まで,
    より), not a conjunction (及び, 並びに, 又は, 若しくは, ないし …) and not punctuation
    (、，。・～). So ``第4条第4項、第5条…``, ``第３条の規定により``, ``第5条に基づき``,
    ``第2条 及び第3条`` and ``第7条（損害の賠償）に定める`` are running text.
    ``line`` may use full-width or half-width digits.
    """
    det = normalize_text(line, digits="halfwidth").strip()
    shown = normalize_text(line).strip()
    before: str | None = None
    m0 = _JA_HEADING_FIRST.match(det)
    if m0:
        before = m0.group("h").strip()
        offset = m0.start("art")
        det, shown = det[offset:], shown[offset:]
    m = _JA_ARTICLE.match(det)
    if not m:
        return None
    parsed = _heading_rest(m.group("rest"))
    if parsed is None:
        return None
    heading, body = parsed
    number_text = re.sub(r"\s+$", "", shown[: m.start("rest")]).strip()
    return ArticleHeading(
        number=to_int_number(m.group("num")),
        number_text=number_text,
        heading=before if before is not None else heading,
        body=body,
        branch=m.group("sub") is not None,
    )


_JA_NUMBERED_HEADING = re.compile(
    rf"^(?P<num>[0-9]+){_SP}*[（(](?P<h>[^（）()]{{1,30}})[)）]{_SP}*$"
)
_JA_CHAPTER = re.compile(rf"^第{_SP}*(?P<num>{_NUM}){_SP}*[章編節](?P<rest>.*)$")
_JA_SUPPLEMENTARY = re.compile(rf"^附{_SP}*則(?:{_SP}*[（(][^（）()]*[)）])?{_SP}*$")
_JA_APPENDIX = re.compile(
    rf"^(?:別{_SP}*[紙表]|別{_SP}*添){_SP}*(?:第?{_SP}*{_NUM})?(?P<rest>.*)$"
)
_JA_BARE_HEADING = re.compile(r"^[（(【](?P<h>[^（）()【】]{1,30})[)）】]$")
_JA_SIGNATURE = re.compile(
    rf"^(?:以{_SP}*上(?:$|[、，,。]|を証)|.*(?:を証する|証として)|.*本書{_SP}*を?{_SP}*[0-9一二三四五]+{_SP}*通"
    rf"|本契約は{_SP}*[0-9一二三四五]+{_SP}*通)"
)
_DATE_PART = r"[0-9○〇元＿_ ]*"
_JA_DATE_LINE = re.compile(
    rf"^(?:令和|平成|昭和|西暦)?{_SP}*{_DATE_PART}{_SP}*年{_SP}*{_DATE_PART}{_SP}*月{_SP}*{_DATE_PART}{_SP}*日$"
)
_JA_PARTY = re.compile(
    rf"^(?:[【（(]?[甲乙丙][】）)]?{_SP}*(?:[:：]|$|住所|所在地|氏名)|住{_SP}*所{_SP}*[:：]|所在地{_SP}*[:：])"
)
_JA_PARA = re.compile(rf"^[0-9]+(?:[.．]{_SP}*|{_SP}+)(?=\S)")
_JA_ITEM = re.compile(
    rf"^(?:[（(][0-9]+[)）]|[\u2460-\u2473\u3251-\u325f\u32b1-\u32bf]"
    rf"|[一二三四五六七八九十]+(?:{_SP}|[、．.])|[アイウエオカキクケコサシスセソタチツテト](?:{_SP}|[.．、])"
    rf"|[（(](?:[a-zａ-ｚア-ン]|[ivx]+)[)）])"
)

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
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


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


# --------------------------------------------------------------------------- model
@dataclass
class _Line:
    pos: int  # position in the body block list
    block: DocBlock
    text: str  # normalised accepted text of this sub-line
    det: str  # same with half-width digits, stripped
    is_line: bool  # a PDF/OCR line (joined with neighbours) rather than a paragraph
    first: bool  # first sub-line of its block


@dataclass
class _Start:
    line: int  # index into the line list
    kind: ClauseKind
    number: int | None = None
    number_text: str | None = None
    heading: str | None = None
    body: str = ""  # inline body after the number/heading on the start line
    heading_line: int | None = None  # a bare heading line before the number
    branch: bool = False
    extra: dict[str, object] = field(default_factory=dict)


def blocks_from_pdf(doc: PdfDocument) -> list[DocBlock]:
    """One :class:`DocBlock` per body line of a :class:`PdfDocument` (furniture excluded),
    with page, bbox and ``source_index`` = the line's number in the document (0-based)."""
    blocks = []
    for n, line in enumerate(doc.lines):
        blocks.append(
            DocBlock(index=n, text=line.text, page=line.page, bbox=line.bbox, source_index=n)
        )
    return blocks


def _body_blocks(blocks: Sequence[DocBlock]) -> list[DocBlock]:
    return [b for b in blocks if b.part == "body"]


def _block_spans(body: Sequence[DocBlock]) -> tuple[str, list[tuple[int, int]]]:
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    for b in body:
        t = b.in_view("accepted")
        if t is None:
            spans.append((pos, pos))
            continue
        t = normalize_text(t)
        if parts:
            pos += 1
        spans.append((pos, pos + len(t)))
        parts.append(t)
        pos += len(t)
    return "\n".join(parts), spans


def document_text(blocks: Sequence[DocBlock]) -> str:
    """The text ``Clause.char_span`` indexes: the body blocks' accepted-view texts,
    normalised, joined with ``\\n`` (blocks deleted in the accepted view contribute nothing)."""
    return _block_spans(_body_blocks(blocks))[0]


def _detect_language(lines: Sequence[_Line]) -> Literal["ja", "en"]:
    text = "".join(ln.det for ln in lines)
    cjk = len(_CJK.findall(text))
    return "ja" if text and cjk / len(text) > 0.1 else "en"


def _make_lines(body: Sequence[DocBlock]) -> list[_Line]:
    lines = []
    for pos, b in enumerate(body):
        t = b.in_view("accepted")
        if t is None:
            continue
        for k, sub in enumerate(normalize_text(t).split("\n")):
            if not sub.strip() and k > 0:
                continue
            det = normalize_text(sub, digits="halfwidth").strip()
            lines.append(_Line(pos, b, sub.strip(), det, b.bbox is not None, k == 0))
    return lines


# --------------------------------------------------------------------------- starts
def _ja_starts(lines: Sequence[_Line]) -> list[_Start]:
    starts: list[_Start] = []
    for i, ln in enumerate(lines):
        art = ja_article_heading(ln.det)
        if art is not None:
            start = _Start(i, "article", art.number, _shown(ln, art.number_text), art.heading,
                           art.body, branch=art.branch)
            prev = lines[i - 1] if i > 0 else None
            if art.heading is None and prev is not None and not (starts and starts[-1].line == i - 1):
                bare = _JA_BARE_HEADING.match(prev.det)
                if bare is None and not prev.is_line and len(prev.det) <= 20 and (
                    prev.block.kind == "heading" or not re.search(r"[。、，「」]", prev.det)
                ) and not (_JA_PARA.match(prev.det) or _JA_ITEM.match(prev.det)):
                    start.heading, start.heading_line = prev.det, i - 1
                elif bare is not None:
                    start.heading, start.heading_line = bare.group("h").strip(), i - 1
            starts.append(start)
            continue
        ch = _JA_CHAPTER.match(ln.det)
        if ch and _heading_rest(ch.group("rest")) is not None:
            starts.append(_Start(i, "other", to_int_number(ch.group("num")), None,
                                 ch.group("rest").strip() or None))
            continue
        if _JA_SUPPLEMENTARY.match(ln.det):
            starts.append(_Start(i, "supplementary", heading=ln.text))
            continue
        ap = _JA_APPENDIX.match(ln.det)
        if ap and len(ln.det) <= 40 and _heading_rest(ap.group("rest")) is not None:
            starts.append(_Start(i, "appendix", heading=ln.text))
    if not any(s.kind == "article" for s in starts):
        # No 第N条: numbered headings 「１（秘密保持の誓約）」 as in a 誓約書.
        for i, ln in enumerate(lines):
            m = _JA_NUMBERED_HEADING.match(ln.det)
            if m:
                starts.append(_Start(i, "section", int(m.group("num")),
                                     _shown(ln, m.group("num")), m.group("h").strip()))
        starts.sort(key=lambda s: s.line)
    # a bare heading line taken by an article moves the article's start up to it
    for s in starts:
        if s.heading_line is not None:
            s.extra["start"] = s.heading_line
    return starts


def _shown(ln: _Line, det_prefix: str) -> str:
    """The printed form of a prefix found in the half-width copy (same length)."""
    lead = len(ln.text) - len(ln.text.lstrip())
    return ln.text[lead : lead + len(det_prefix)] if det_prefix else det_prefix


def _en_starts(lines: Sequence[_Line]) -> list[_Start]:
    articles: list[_Start] = []
    for i, ln in enumerate(lines):
        m = _EN_ARTICLE.match(ln.det)
        if m:
            num = _en_number(m.group("num"))
            rest = m.group("rest")
            if num is None or (rest and not re.match(r"^\s*(?:[-–—:.]|$|\s+[A-Z])", rest)):
                continue
            heading, body = _en_heading(rest)
            articles.append(_Start(i, "article", num, f"{m.group('label')} {m.group('num')}",
                                   heading, body))
    starts: list[_Start]
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
            starts.append(_Start(i, "section", num, number_text, heading, body))
            last = num
    if starts:
        first = starts[0].line
        for i, ln in enumerate(lines):
            # "Exhibit C." wrapped to the start of a line ends a sentence: not a heading
            if (i > first and _EN_APPENDIX.match(ln.det) and len(ln.det) <= 80
                    and not ln.det.endswith(".") and not _EN_TOC.match(ln.det)):
                starts.append(_Start(i, "appendix", heading=ln.text))
        starts.sort(key=lambda s: s.line)
        # sections inside an appendix are the appendix's own numbering
        kept: list[_Start] = []
        in_appendix = False
        for s in starts:
            if s.kind == "appendix":
                in_appendix = True
            elif in_appendix:
                continue
            kept.append(s)
        starts = kept
    return starts


def _is_signature(det: str, lang: str) -> bool:
    if lang == "en":
        return bool(_EN_SIGNATURE.match(det))
    return bool(_JA_SIGNATURE.match(det) or _JA_DATE_LINE.match(det) or _JA_PARTY.match(det))


def _add_signature(starts: list[_Start], lines: Sequence[_Line], lang: str) -> None:
    numbered = [k for k, s in enumerate(starts) if s.kind in ("article", "section", "supplementary")]
    if not numbered:
        return
    k = numbered[-1]
    begin = starts[k].line + 1
    end = starts[k + 1].line if k + 1 < len(starts) else len(lines)
    for i in range(begin, end):
        if _is_signature(lines[i].det, lang):
            starts.insert(k + 1, _Start(i, "signature"))
            return


# --------------------------------------------------------------------------- assembly
def _units(body_lines: Sequence[tuple[_Line, str]], lang: str) -> list[tuple[str, list[str]]]:
    """Group body lines into 項 ("para") and 号 ("item") units."""
    units: list[tuple[str, list[str]]] = []
    para_x: float | None = None
    para_level: int | None = None
    for ln, text in body_lines:
        det = normalize_text(text, digits="halfwidth")
        x = ln.block.bbox[0] if ln.block.bbox else None
        if lang == "ja":
            is_para, is_item = bool(_JA_PARA.match(det)), bool(_JA_ITEM.match(det))
        else:
            is_para, is_item = bool(_EN_PARA.match(det)), bool(_EN_ITEM.match(det))
        if is_para:
            if para_x is None and para_level is None:
                para_x, para_level = x, ln.block.level
            deeper = (x is not None and para_x is not None and x > para_x + 6) or (
                ln.block.level is not None and para_level is not None and ln.block.level > para_level
            )
            units.append(("item" if deeper else "para", [text]))
        elif is_item:
            units.append(("item", [text]))
        elif units and ln.is_line:
            units[-1][1].append(text)
        else:
            units.append(("para", [text]))
    return units


def _original_text(blocks: Sequence[DocBlock]) -> str:
    texts = [normalize_text(t) for b in blocks if (t := b.in_view("original")) is not None]
    if all(b.bbox is not None for b in blocks):
        return join_wrapped(texts)
    return "\n".join(texts)


def split_clauses(
    blocks: Sequence[DocBlock], *, source: str, language: Language = "auto"
) -> list[Clause]:
    """Cut ``blocks`` into clauses (see the module docstring for the rules)."""
    body = _body_blocks(blocks)
    if not body:
        return []
    _, spans = _block_spans(body)
    lines = _make_lines(body)
    if not lines:
        return []
    lang = _detect_language(lines) if language == "auto" else language
    starts = _ja_starts(lines) if lang == "ja" else _en_starts(lines)
    _add_signature(starts, lines, lang)
    first_line = [int(s.extra.get("start", s.line)) for s in starts]  # type: ignore[call-overload]
    if not starts or first_line[0] > 0:
        starts.insert(0, _Start(0, "preamble" if starts else "other"))
        first_line.insert(0, 0)

    clauses: list[Clause] = []
    for k, s in enumerate(starts):
        begin = first_line[k]
        end = first_line[k + 1] if k + 1 < len(starts) else len(lines)
        if begin >= end:
            continue
        seg = lines[begin:end]
        # Blocks absent from the accepted view (deleted paragraphs) belong to the clause
        # before them; a clause starting inside a block (after a <w:br/>) shares that block.
        pos_start = 0 if k == 0 else seg[0].pos
        if end < len(lines):
            pos_end = lines[end].pos - 1 if lines[end].first else lines[end].pos
        else:
            pos_end = len(body) - 1
        pos_end = max(pos_end, seg[-1].pos)
        seg_blocks = body[pos_start : pos_end + 1]

        body_lines: list[tuple[_Line, str]] = []
        for j, ln in enumerate(seg):
            idx = begin + j
            if idx == s.heading_line:
                continue
            if idx == s.line and s.kind in ("article", "section", "other"):
                if s.body:
                    body_lines.append((ln, s.body))
                continue
            if idx == s.line and s.kind in ("supplementary", "appendix"):
                continue
            body_lines.append((ln, ln.text))
        heading = s.heading
        if (lang == "en" and s.kind == "article" and heading is None and body_lines
                and not s.body and len(body_lines[0][1]) <= 80
                and body_lines[0][1].upper() == body_lines[0][1]):
            heading = body_lines.pop(0)[1]
        if s.kind == "signature":  # names, addresses, dates: one unit per line
            units = [("para", [text]) for _, text in body_lines]
        else:
            units = _units(body_lines, lang)
        joined = [join_wrapped(u) if len(u) > 1 else u[0] for _, u in units]
        changed = any(b.changed for b in seg_blocks)
        clauses.append(
            Clause(
                source=source,
                kind=s.kind,
                number=s.number,
                number_text=s.number_text,
                heading=heading,
                text="\n".join(joined),
                paragraphs=tuple(t for (kind, _), t in zip(units, joined) if kind == "para"),
                items=tuple(t for (kind, _), t in zip(units, joined) if kind == "item"),
                page=next((b.page for b in seg_blocks if b.page is not None), None),
                block_start=seg_blocks[0].index,
                block_end=seg_blocks[-1].index,
                char_span=(spans[pos_start][0], spans[pos_end][1]),
                original_text=_original_text(seg_blocks) if changed else None,
                changed=changed,
            )
        )
    return clauses
