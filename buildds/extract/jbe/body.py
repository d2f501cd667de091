"""The lines of a question after its stem → blocks: statements (``ア．``, or ``１．`` when the
stem numbers them), their nested views (``ａ．``), lead-ins (a section heading such as
``【事 例】``, a ``（参照条文）``, a speaker's turn), options (``１．ア イ ２．ア エ``), and whatever
else is kept as it was read. :func:`read_body` walks the lines once; :mod:`.booklet` turns
the blocks into a question.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from buildds.schema import PdfLine

__all__ = ["KATAKANA_LABELS", "NO", "TRAILING_NO", "Block", "last_statement", "parse_options",
           "read_body", "to_int"]

KATAKANA_LABELS = "アイウエオカキクケコサシスセソ"
_FW_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")

#: an answer slot ``［No.14］`` (its number in group 1)
NO = r"[［\[]\s*No\s*[.．]\s*([0-9０-９]+)\s*[］\]]"
_LONE_NO = re.compile(rf"^{NO}$")
TRAILING_NO = re.compile(rf"\s*{NO}\s*$")
_STATEMENT = re.compile(r"^([ア-ン])[．.]\s*(.*)$")
_PART = re.compile(r"^([ａ-ｚ])[．.]\s*(.*)$")
_NUMBERED = re.compile(r"^([１-９]|[0-9]{1,2}|１[０-９])[．.]\s*(.*)$")
_OPTION_SPLIT = re.compile(r"(?:^|(?<=[^0-9０-９]))([１-９]|[0-9]{1,2})[．.]")
_HEADING = re.compile(r"^【([^】]{1,8})】$")
_SPEAKER = re.compile(
    r"^(?:教授|学生\s*[Ａ-ＺA-Z]?|[Ａ-ＺA-Z]説|裁判官\s*[Ａ-Ｚ]?|弁護人|検察官|司会|[Ａ-Ｚ])[．.：:]")
_REFERENCE = re.compile(r"^[（(]参照条文[）)]\s*(.*)$")
_ARTICLE = re.compile(r"^第[０-９0-9一二三四五六七八九十百]+条")
_IN_STATEMENT = ("statement", "part")


def to_int(text: str) -> int:
    return int(text.translate(_FW_DIGITS))


@dataclass
class Block:
    kind: str  # "statement", "part", "lead_in", "option", "other"
    label: str
    lines: list[str] = field(default_factory=list)
    page: int = 0
    #: indexes into ``lines`` where a new paragraph starts (speaker turns, word lists)
    breaks: set[int] = field(default_factory=set)
    #: a statement is closed once its own ［No.n］ has been read
    closed: bool = False
    #: for lead-ins: the label of the statement that follows it
    before: str | None = None
    slot: int | None = None
    parts: list[Block] = field(default_factory=list)


def last_statement(blocks: list[Block]) -> Block | None:
    for b in reversed(blocks):
        if b.kind == "statement":
            return b
    return None


def _left_margin(lines: list[PdfLine]) -> dict[tuple[int, int], float]:
    """Per page and column, the x of unindented lines (the most common x0, rounded)."""
    by_page: dict[tuple[int, int], Counter[float]] = {}
    for ln in lines:
        by_page.setdefault((ln.page, ln.column), Counter())[round(ln.bbox[0])] += 1
    return {p: float(min(x for x, n in c.items() if n >= max(1, c.most_common(1)[0][1] // 4)))
            for p, c in by_page.items()}


def _char_width(line: PdfLine) -> float:
    return line.font_size or 10.5


def parse_options(text: str) -> list[tuple[int, str]]:
    """Options on one line: ``１．ア イ ２．ア エ``. A number counts as an option number only
    when it is the next in sequence, so ``１．５倍`` inside an option's text is safe and OCR
    output without the tab-stop spaces (``１．アイ２．アエ``) still splits."""
    cuts: list[tuple[int, int, int]] = []
    for m in _OPTION_SPLIT.finditer(text):
        number = to_int(m.group(1))
        if not cuts or number == cuts[-1][2] + 1:
            cuts.append((m.start(), m.end(), number))
    out = []
    for i, (_, end, number) in enumerate(cuts):
        stop = cuts[i + 1][0] if i + 1 < len(cuts) else len(text)
        out.append((number, text[end:stop].strip()))
    return out


class _BodyReader:
    """The state of one walk over a question's body: each line is, in this order of tries,
    a heading, a （参照条文）, a lone ［No.n］, the next statement label, the next view of the
    current statement, a numbered statement or option line — else a continuation."""

    def __init__(self, body: list[PdfLine], blocks: list[Block], *, numbered_options: bool,
                 ocr_pages: frozenset[int]) -> None:
        self.blocks = blocks
        self.current: Block | None = None
        self.in_words = False  # inside 【語句群】: ア．… lines are word choices, not statements
        self.expected = 0  # index into KATAKANA_LABELS of the next statement label
        self.numbered_options = numbered_options
        self.ocr_pages = ocr_pages
        self.margins = _left_margin(body) if body else {}

    def _start(self, block: Block) -> Block:
        self.blocks.append(block)
        self.current = block
        return block

    def read(self, line: PdfLine) -> None:
        text, page = line.text, line.page
        # OCR boxes wander by a character or so: there, the label sequence alone decides.
        indented = (bool(self.margins) and page not in self.ocr_pages
                    and line.bbox[0] > self.margins.get((page, line.column), 0)
                    + 0.5 * _char_width(line))
        if self._heading(text, page) or self._reference(text, page):
            return
        current = self.current
        if current is not None and current.label == "参照条文" and _ARTICLE.match(text):
            current.breaks.add(len(current.lines))
        if (self._lone_no(text) or self._statement(text, page, indented)
                or self._part(text, page) or self._numbered(text, page, indented)):
            return
        self._continuation(text, page, indented)

    def _heading(self, text: str, page: int) -> bool:
        heading = _HEADING.match(text)
        if not heading:
            return False
        kind = re.sub(r"\s+", "", heading.group(1))
        self.in_words = kind == "語句群"
        if kind == "記述":
            self.current = None  # statements follow
        else:
            self._start(Block("lead_in", kind, [], page))
        return True

    def _reference(self, text: str, page: int) -> bool:
        ref = _REFERENCE.match(text)
        if not ref:
            return False
        # （参照条文）民法 + the article text: context, never part of a statement
        self._start(Block("lead_in", "参照条文", [ref.group(1)] if ref.group(1) else [], page))
        self.in_words = False
        return True

    def _lone_no(self, text: str) -> bool:
        lone = _LONE_NO.match(text)
        current = self.current
        if not (lone and current is not None and current.kind in _IN_STATEMENT):
            return False
        owner = current if current.kind == "statement" else last_statement(self.blocks)
        if owner is not None:
            owner.slot = to_int(lone.group(1))
            owner.closed = True
        return True

    def _statement(self, text: str, page: int, indented: bool) -> bool:
        st = _STATEMENT.match(text)
        if not (st and not self.in_words and not indented
                and self.expected < len(KATAKANA_LABELS)
                and st.group(1) == KATAKANA_LABELS[self.expected]):
            return False
        self.expected += 1
        # An unheaded turn (教授．…) just before a statement is that statement's context.
        for prev in reversed(self.blocks):
            if prev.kind != "lead_in" or prev.before is not None or prev.label:
                break
            if prev.lines and _SPEAKER.match(prev.lines[0]):
                prev.before = st.group(1)
        current = self._start(Block("statement", st.group(1), [], page))
        rest = st.group(2)
        part = _PART.match(rest)
        if part:
            sub = Block("part", part.group(1), [part.group(2)], page)
            current.parts.append(sub)
            current = self.current = sub
        else:
            current.lines.append(rest)
        if TRAILING_NO.search(rest):
            current.closed = True
        return True

    def _part(self, text: str, page: int) -> bool:
        part = _PART.match(text)
        owner = last_statement(self.blocks) if self.current is not None and (
            self.current.kind in _IN_STATEMENT) else None
        # Views ａ．/ｂ． are indented under their statement; accept the next letter only.
        if part and owner is not None:
            wanted = chr(ord(owner.parts[-1].label) + 1) if owner.parts else "ａ"
            if part.group(1) == wanted:
                sub = Block("part", part.group(1), [part.group(2)], page)
                owner.parts.append(sub)
                self.current = sub
                return True
        return False

    def _numbered(self, text: str, page: int, indented: bool) -> bool:
        num = _NUMBERED.match(text)
        if not num or indented:
            return False
        if self.numbered_options:
            for number, opt_text in parse_options(text):
                self._start(Block("option", str(number), [opt_text], page))
        else:
            self._start(Block("statement", str(to_int(num.group(1))), [num.group(2)], page))
        self.in_words = False
        return True

    def _continuation(self, text: str, page: int, indented: bool) -> None:
        speaker = bool(_SPEAKER.match(text)) and not indented
        current = self.current
        statement_over = current is not None and current.kind in _IN_STATEMENT and (
            speaker or (last_statement(self.blocks) or current).closed)
        if current is None or statement_over:
            current = self._start(Block("lead_in", "", [], page))
        elif current.kind == "lead_in" and (speaker or self.in_words) and current.lines:
            current.breaks.add(len(current.lines))
        current.lines.append(text)
        if current.kind in _IN_STATEMENT and TRAILING_NO.search(text):
            owner = last_statement(self.blocks)
            if owner is not None:
                owner.closed = True


def read_body(body: list[PdfLine], *, numbered_options: bool,
              ocr_pages: frozenset[int] = frozenset(),
              blocks: list[Block] | None = None) -> list[Block]:
    """The blocks of a question's body lines, appended to ``blocks`` (what came before them,
    such as text after the slot marker). ``numbered_options``: numbered lines are options,
    not statements. On ``ocr_pages`` indentation is not trusted."""
    blocks = [] if blocks is None else blocks
    reader = _BodyReader(body, blocks, numbered_options=numbered_options, ocr_pages=ocr_pages)
    for line in body:
        reader.read(line)
    return blocks
