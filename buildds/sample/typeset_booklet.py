"""Typeset a question booklet (短答式試験問題集) the way the Ministry of Justice sets it.

Layout (see ../shared/jbe/README.md, "Layout conventions"):

* A4 portrait, IPAMincho (embedded TrueType subset with a ToUnicode map), 10.5 pt, a text
  block of 43 full-width characters centred on the page, lines 16.4 pt apart, 40 lines a page;
* lines break mid-word (half-width characters count half, ``No.`` and digit runs are kept
  together); ``、。`` and closing brackets may hang one character past the margin
  (burasage); a line never starts with closing punctuation nor ends with an opening bracket;
* page 1 is a cover ``短答式試験問題集［民法］``; the questions start on page 2 under ``［民法］``;
  every page has a centred footer ``- n -``;
* ``〔第１問〕（配点：２）`` heads each question, the stem follows, then lead-in blocks under
  letter-spaced headings (``【事 例】``), then the statements ``ア．…`` (continuation lines
  indented one character; nested ``ａ．``/``ｂ．`` views deeper), then the options, on tab
  stops several to a line when they are short.

The layout is computed by pure Python (:func:`layout_booklet`, no reportlab needed), so the
text of every line is known before drawing; :func:`typeset_booklet` draws exactly those
lines and returns the layout, which is what text extraction must give back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from buildds.sample.model import Block, Item, Question, fw_number

__all__ = [
    "FONT_SIZE",
    "LINES_PER_PAGE",
    "LINE_CHARS",
    "PAGE_HEIGHT",
    "PAGE_WIDTH",
    "BookletLayout",
    "Line",
    "Page",
    "char_width",
    "layout_booklet",
    "layout_question",
    "register_mincho",
    "text_width",
    "typeset_booklet",
    "wrap",
]

PAGE_WIDTH = 595.2755905511812  # A4 in points
PAGE_HEIGHT = 841.8897637795277
FONT_SIZE = 10.5
LINE_CHARS = 43
LINE_PITCH = 16.4
LINES_PER_PAGE = 40
LEFT = (PAGE_WIDTH - LINE_CHARS * FONT_SIZE) / 2  # 71.89
FIRST_BASELINE = PAGE_HEIGHT - 62.0
FOOTER_BASELINE = 36.0
COVER_BASELINE = 522.0
COVER_FONT_SIZE = 20.0
FONT_NAME = "IPAMincho"

#: may hang past the right margin, and never start a line
_CLOSING = set("、。，．）」』］〕】｝〉》")
#: never end a line
_OPENING = set("（「『［〔【｛〈《")
_TOKEN = re.compile(r"[A-Za-z]+\.|[A-Za-z0-9]+|.", re.DOTALL)


def char_width(ch: str) -> float:
    """Advance of one character in full-width units, as IPAMincho sets it (monospaced:
    half-width ASCII and half-width katakana 0.5, everything else 1)."""
    o = ord(ch)
    if 0x20 <= o <= 0x7E or 0xFF61 <= o <= 0xFF9F:
        return 0.5
    return 1.0


def text_width(text: str) -> float:
    return sum(char_width(c) for c in text)


def wrap(text: str, first_width: float, rest_width: float | None = None) -> list[str]:
    """Break ``text`` into lines of at most ``first_width`` (then ``rest_width``) units.

    Breaks fall between any two characters except inside a run of half-width letters or
    digits (``No.`` stays whole, ``14`` stays whole). One closing mark may hang past the
    margin; if more would follow, the line gives up characters instead (oidashi)."""
    rest_width = first_width if rest_width is None else rest_width
    tokens = _TOKEN.findall(text)
    lines: list[str] = []
    i = 0
    limit = first_width
    eps = 1e-9
    while i < len(tokens):
        cur: list[str] = []
        width = 0.0
        while i < len(tokens):
            tw = text_width(tokens[i])
            if width + tw <= limit + eps:
                cur.append(tokens[i])
                width += tw
                i += 1
                continue
            if cur and tokens[i] in _CLOSING and width + tw <= limit + 1 + eps:
                cur.append(tokens[i])  # burasage: hang one mark past the margin
                i += 1
            break
        if not cur:  # a token wider than the line: put it alone
            cur.append(tokens[i])
            i += 1
        # oidashi: the next line may not start with a closing mark, this one may not end
        # with an opening bracket
        while len(cur) > 1 and i < len(tokens) and (tokens[i] in _CLOSING or cur[-1] in _OPENING):
            cur.pop()
            i -= 1
        lines.append("".join(cur))
        limit = rest_width
    return lines


# --------------------------------------------------------------------------- layout
@dataclass(frozen=True)
class Line:
    """One printed line: text segments at x offsets in character units from the left margin.

    ``ref`` says what the line belongs to: ``("subject",)``, ``("header",)``, ``("stem",)``,
    ``("lead_in", k)``, ``("statement", i)``, ``("part", i, j)``, ``("option", n)`` (one
    entry per option on the line is not kept; a grid line refers to its first option)."""

    segments: tuple[tuple[float, str], ...]
    question: int | None
    ref: tuple[int | str, ...]

    @property
    def text(self) -> str:
        """The line as text extraction gives it: segments joined by one space, runs of
        spaces (also full-width) collapsed."""
        return re.sub(r"[ \u3000]+", " ", " ".join(t for _, t in self.segments)).strip()

    @property
    def indent(self) -> float:
        return self.segments[0][0]


@dataclass(frozen=True)
class Page:
    number: int
    lines: tuple[Line, ...]

    @property
    def footer(self) -> str:
        return f"- {self.number} -"


@dataclass(frozen=True)
class BookletLayout:
    subject_jp: str
    title: str
    #: the question pages, from page 2 (page 1 is the cover)
    pages: tuple[Page, ...]

    def page_texts(self) -> list[list[str]]:
        """Every page's lines as extraction gives them, footer included, cover first."""
        out = [[self.title, "- 1 -"]]
        for page in self.pages:
            out.append([ln.text for ln in page.lines] + [page.footer])
        return out

    def pages_of(self, question: int) -> list[int]:
        return [p.number for p in self.pages if any(ln.question == question for ln in p.lines)]

    @property
    def page_count(self) -> int:
        return len(self.pages) + 1


def _paragraph(text: str, *, label: str = "", at: float = 0, cont: float | None = None,
               question: int, ref: tuple[int | str, ...], first_at: float | None = None
               ) -> list[Line]:
    """A labelled paragraph: the first line starts at ``first_at`` (default ``at``) with the
    label, continuation lines start at ``cont``; all end at the right margin."""
    first_at = at if first_at is None else first_at
    cont = at if cont is None else cont
    body = label + text
    lines = wrap(body, LINE_CHARS - first_at, LINE_CHARS - cont)
    return [Line(((first_at if k == 0 else cont, s),), question, ref) for k, s in enumerate(lines)]


def _tab_lines(items: Sequence[str], tab: int, *, question: int,
               ref_of: Sequence[tuple[int | str, ...]]) -> list[Line]:
    """Items set on tab stops every ``tab`` characters, as many to a line as fit, with at
    least one character of space between two items."""
    out: list[Line] = []
    segs: list[tuple[float, str]] = []
    first_ref: tuple[int | str, ...] = ref_of[0]
    pos = 0.0
    for item, ref in zip(items, ref_of):
        w = text_width(item)
        if segs:
            end = segs[-1][0] + text_width(segs[-1][1]) + 1
            pos = -(-end // tab) * tab
            if pos + w > LINE_CHARS:
                out.append(Line(tuple(segs), question, first_ref))
                segs, pos = [], 0.0
        if not segs:
            first_ref = ref
            pos = 0.0
        segs.append((pos, item))
    if segs:
        out.append(Line(tuple(segs), question, first_ref))
    return out


def _block(block: Block, k: int, question: int) -> list[Line]:
    ref: tuple[int | str, ...] = ("lead_in", k)
    out = [Line(((0, block.heading),), question, ref)] if len(block.kind) != 2 else [
        # letter-spaced heading: 【事 and 例】 with one empty character between them
        Line(((0, "【" + block.kind[0]), (3, block.kind[1] + "】")), question, ref)]
    for para in block.paragraphs:
        out += _paragraph(para, first_at=1, at=0, question=question, ref=ref)
    for speaker, text in block.speakers:
        w = text_width(speaker)
        out += _paragraph(text, label=speaker, at=0, cont=w, question=question, ref=ref)
    if block.words:
        out += _tab_lines(block.words, 5, question=question, ref_of=[ref] * len(block.words))
    return out


def _statement(item: Item, i: int, question: int) -> list[Line]:
    label = item.label + "．"
    marker = f"［No.{_fw(item.slot)}］" if item.slot is not None else ""
    if not item.parts:
        return _paragraph(item.text + marker, label=label, at=0, cont=1, question=question,
                          ref=("statement", i))
    out: list[Line] = []
    for j, part in enumerate(item.parts):
        text = part.text + (marker if j == len(item.parts) - 1 else "")
        plabel = part.label + "．"
        if j == 0:  # ア．ａ．… on the statement's line, continuation under the view's text
            out += _paragraph(text, label=label + plabel, at=0, cont=3, question=question,
                              ref=("part", i, j))
        else:
            out += _paragraph(text, label=plabel, first_at=2, at=3, question=question,
                              ref=("part", i, j))
    return out


def _fw(n: int | None) -> str:
    assert n is not None
    return fw_number(n)


def layout_question(q: Question) -> list[Line]:
    """The lines of one question, in order."""
    n = q.number
    out = [Line(((0, f"〔第{_fw(n)}問〕（配点：{_fw(q.points)}）"),), n, ("header",))]
    out += _paragraph(q.full_stem, question=n, ref=("stem",))
    for k, block in enumerate(q.lead_ins):
        out += _block(block, k, n)
    for i, item in enumerate(q.statements):
        out += _statement(item, i, n)
    options = [f"{_fw(k + 1)}．{text}" for k, text in enumerate(q.options)]
    if options and q.option_tab:
        out += _tab_lines(options, q.option_tab, question=n,
                          ref_of=[("option", k + 1) for k in range(len(options))])
    else:
        for k, opt in enumerate(options):
            out += _paragraph(opt, at=0, cont=1, question=n, ref=("option", k + 1))
    return out


def layout_booklet(subject_jp: str, questions: Sequence[Question],
                   page_breaks: str | Sequence[int] = "flow") -> BookletLayout:
    """Lay the questions out on pages.

    ``page_breaks``: ``"flow"`` fills every page (40 lines) and lets questions run across page
    breaks, as in the 2015–2023 reconstructions; ``"question"`` moves a question that does not
    fit to the next page, as the real booklets do; a sequence of numbers gives the number of
    lines on each question page explicitly (the last page takes what is left)."""
    body = [Line(((0, f"［{subject_jp}］"),), None, ("subject",))]
    per_question = [layout_question(q) for q in questions]
    pages: list[list[Line]] = []
    if page_breaks == "flow":
        flat = body + [ln for lines in per_question for ln in lines]
        pages = [flat[k:k + LINES_PER_PAGE] for k in range(0, len(flat), LINES_PER_PAGE)]
    elif page_breaks == "question":
        cur = body
        for lines in per_question:
            if cur and len(cur) + len(lines) > LINES_PER_PAGE:
                pages.append(cur)
                cur = []
            while len(lines) > LINES_PER_PAGE:  # longer than a page: it has to flow
                pages.append(lines[:LINES_PER_PAGE])
                lines = lines[LINES_PER_PAGE:]
            cur = cur + lines
        if cur:
            pages.append(cur)
    elif isinstance(page_breaks, str):
        raise ValueError(f"page_breaks must be 'flow', 'question' or a list of line counts, "
                         f"not {page_breaks!r}")
    else:
        flat = body + [ln for lines in per_question for ln in lines]
        k = 0
        for count in page_breaks:
            if not 0 < count <= LINES_PER_PAGE:
                raise ValueError(f"a page holds 1 to {LINES_PER_PAGE} lines, not {count}")
            if k >= len(flat):
                break
            pages.append(flat[k:k + count])
            k += count
        while k < len(flat):
            pages.append(flat[k:k + LINES_PER_PAGE])
            k += LINES_PER_PAGE
    return BookletLayout(
        subject_jp=subject_jp, title=f"短答式試験問題集［{subject_jp}］",
        pages=tuple(Page(number=i + 2, lines=tuple(lines)) for i, lines in enumerate(pages)))


# --------------------------------------------------------------------------- drawing
def register_mincho() -> str:
    """Register IPAMincho with reportlab once (the same registration as the answer keys);
    returns the font name. Raises :class:`MissingDependency` without reportlab or the font."""
    from buildds.errors import MissingDependency

    try:
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.ttfonts import TTFont
    except ImportError as exc:  # pragma: no cover - reportlab is the sample extra
        raise MissingDependency("reportlab", "sample") from exc
    from buildds.sample.typeset_key import find_ipa_mincho

    if FONT_NAME not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT_NAME, str(find_ipa_mincho())))
    return FONT_NAME


def typeset_booklet(path: str | Path, *, subject_jp: str, questions: Sequence[Question],
                    page_breaks: str | Sequence[int] = "flow", year_label: str = "",
                    ) -> BookletLayout:
    """Write the booklet PDF to ``path`` and return its layout (the lines on each page).

    The PDF is deterministic (reportlab ``invariant=1``): the same input gives the same bytes.
    ``year_label`` (e.g. ``令和7年``) only goes into the document title in the metadata."""
    font = register_mincho()
    from reportlab.pdfgen import canvas

    layout = layout_booklet(subject_jp, questions, page_breaks)
    _check_widths(font, layout)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    c = canvas.Canvas(str(path), pagesize=(PAGE_WIDTH, PAGE_HEIGHT), invariant=1,
                      pageCompression=1)
    c.setTitle(f"{year_label}司法試験 短答式試験問題集［{subject_jp}］（サンプル）".strip())
    c.setSubject("司法試験 短答式試験問題集（buildds サンプル）")
    c.setAuthor("buildds sample: original questions in the style of the bar exam, "
                "not an official Ministry of Justice exam")
    c.setCreator("buildds.sample.typeset_booklet")
    c.setKeywords("sample")

    # cover
    c.setFont(font, COVER_FONT_SIZE)
    c.drawCentredString(PAGE_WIDTH / 2, COVER_BASELINE, layout.title)
    _footer(c, font, 1)
    c.showPage()
    for page in layout.pages:
        c.setFont(font, FONT_SIZE)
        for row, line in enumerate(page.lines):
            y = FIRST_BASELINE - row * LINE_PITCH
            for x, text in line.segments:
                c.drawString(LEFT + x * FONT_SIZE, y, text)
        _footer(c, font, page.number)
        c.showPage()
    c.save()
    return layout


def _footer(c, font: str, number: int) -> None:  # type: ignore[no-untyped-def]
    c.setFont(font, FONT_SIZE)
    c.drawCentredString(PAGE_WIDTH / 2, FOOTER_BASELINE, f"- {number} -")


def _check_widths(font: str, layout: BookletLayout) -> None:
    """The wrapping counts widths without the font; make sure the font agrees."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    seen = {ch for page in layout.pages for ln in page.lines for _, t in ln.segments for ch in t}
    for ch in sorted(seen):
        real = stringWidth(ch, font, 1.0)
        if abs(real - char_width(ch)) > 1e-6:
            raise ValueError(f"IPAMincho sets {ch!r} (U+{ord(ch):04X}) {real} wide, the layout "
                             f"assumed {char_width(ch)}")
