"""OCR text of a bar-exam booklet → the exam's own alphabet, where the structure expects it.

Tesseract reads the prose of a scanned booklet well (about 99 % of characters) but gets the
few characters the *structure* hangs on wrong often enough that whole questions are lost:
the kanji 工 for the katakana エ, a label read twice (``エエ．``), option lines without the
tab-stop gaps (``１．アイ２．アエエ``, so ``アイ`` is one unknown label), question headers with
the wrong brackets (``（第３問〕``, ``第２問〕］``), slot markers as ``【No. 3]``.

This module repairs those, and only those: every rule is tied to a place in the booklet's
structure, never applied blindly to a statement's wording (a 工 inside 工作物 stays):

* **question header** — a line that starts ``第N問`` with any brackets, followed by ``配点``,
  becomes ``〔第N問〕（配点：M）``; the number is the expected one (previous + 1) when the read
  one is not a number or the expected one is a one-character misreading away;
* **slot marker** — ``［No.N］`` in any bracket shape and with ``O``/``0`` for ``o`` (a slot
  marker never occurs in prose); full-width digits for 1–9 as the booklets print them;
* **statement label** at the start of a line — ア–コ with their look-alikes (工→エ, 才→オ,
  力→カ, small kana, half-width kana), doubled (``エエ``), followed by ``．`` or something
  read for it (``.``, ``,``, ``、``, ``。``, ``・``), repaired only to the label the question
  expects next, so a prose line is never turned into a statement;
* **view label** ``ａ．``/``ｂ．`` at the start of a line (``a.``, ``ａ,``);
* **numbered statement** — ``4 .Ｂ説は``, ``５、甲と乙は`` → ``４．Ｂ説は`` when 4 is the number
  expected next;
* **speaker turn** — ``教授、`` at a line start → ``教授．`` when the stem names the speaker;
* **option line** (:mod:`.ocr_option_lines`) — a line of numbered options whose every option is a run of labels
  (``アイ``, ``アエエ``, ``アとイ``) or a ○× row (``ア〇イXウ○``): rebuilt in the typeset form
  ``１．ア イ ２．ア エ`` / ``１．ア○ イ× ウ○``, labels split apart, a doubled label read once
  (a combination never names a statement twice), ○× look-alikes (``〇 O o 0``, ``X x ✕``)
  mapped; a ○× row takes the table's fixed order where a mark is unreadable. Options with
  prose (刑法's numbered statements, ``①ア ③ウ``) are left as read;
* **○× stem** — ``…ものにはＸメを`` → ``…ものには×を``;
* **footer** — ``- 11 -`` misread as ``ー］１ー`` moves to the page's furniture.

The alphabet (labels, look-alikes, marks, digits) is :mod:`.ocr_alphabet`.

:func:`repair_ocr_lines` is the pure function (tests feed it strings);
:func:`repair_ocr_document` applies it to the OCR pages of a :class:`PdfDocument` and returns
every change made (:class:`OcrRepair`), so the build can count them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from buildds.extract.jbe.ocr_alphabet import (
    FW,
    HW,
    LABEL_CHARS,
    LABELS,
    canon_label,
    number,
    printed,
)
from buildds.extract.jbe.ocr_option_lines import repair_options, stem_criterion, stem_marks
from buildds.schema import PdfDocument, PdfLine, PdfPage

__all__ = [
    "LABELS",
    "OcrRepair",
    "repair_ocr_document",
    "repair_ocr_lines",
]

#: scanner dust read before a line's first character (``・（第31問〕``, ``、ア．``)
_SPECK = r"[\s・･.,，、。'\"`|_~ー－\-—”“]{0,3}"
_HEADER = re.compile(
    r"^" + _SPECK + r"[〔（(［\[【|「]?\s*第\s*(?P<n>[0-9０-９OolISBZ|ｌＩＯ]{1,3})\s*[問間]\s*[〕）)］\]】|」1l]*\s*"
    r"[（(]?\s*配\s*[点占]\s*[：:;；]?\s*(?P<p>[0-9０-９]{1,2})\s*[）)]?\s*")  # 間 for 問
_SLOT = re.compile(
    r"[［\[【〔(（|LI]\s*[NＮ]\s*[oOＯｏ0０]\s*[.．,，・]?\s*(?P<n>[0-9０-９OolISBZ|ｌＩＯ]{1,3})\s*"
    r"(?:[］\]】〕)）|1l]|(?=[、，,]\s*[［\[]))")  # ］ lost before "、［No.10］"
#: what tesseract reads for the ．after a label (not 、 or 。: ``ア、イ及びウ`` can open a line)
_DOT = r"[．.，,・･]"
_LABEL_START = re.compile(rf"^{_SPECK}(?P<lab>[{LABEL_CHARS}])(?P=lab)?\s*(?P<dot>{_DOT})\s*")
_PART_START = re.compile(r"^(?P<lab>[a-eａ-ｅ])\s*[．.，,]\s*(?=\S)")
_SLOT_IN_STEM = re.compile(r"解答\s*欄")
#: dust read at a line's start that is never text (``_たものは``, ``”ーア．``), and a doubled
#: prolonged-sound mark at either end (``正しい場合ーー`` / ``には１を``)
_LEADING_DUST = re.compile(r"^(?:[_~|\"'`”“]+|ー{2,})\s*(?=\S)|(?<=\S)\s*ー{2,}$")  # ーー: dust
#: the marker's opening ``（解答欄は、`` with 答 or 欄 misread (解谷欄は, 解答柳は)
_MARKER_OPEN = re.compile(r"(?<=[（(])\s*解\S{1,2}は(?=\s*[、，,])")
#: the same at a line's end, the marker going on on the next line (``（解答柚`` / ``は、［No.３］）``)
_MARKER_OPEN_END = re.compile(r"(?<=[（(])\s*解(?!答欄$)\S{2}$")  # not "（解答" / "欄は"
#: dust read after the marker's close (``（解答欄は、［No.11］）．``)
_MARKER_TAIL_DUST = re.compile(r"(?<=］）)\s*[．.'`・･,，\"]+\s*$")
#: dust inside a marker: ``（解答欄は、・［No.30］）``, ``T ［No.36］）`` at a line's start
_MARKER_DUST = re.compile(r"(?:(?<=解答欄は[、，,])\s*[・･.'`]+\s*|^[A-Za-z|]\s+)(?=［No)")
#: the rest of a marker broken across lines (``［No.`` / ``8] )``)
_SLOT_TAIL = re.compile(r"^\s*(?P<n>[0-9０-９]{1,3})\s*[］\]】|1l]\s*(?P<close>[）)]?)")
#: a marker's closing bracket and the stem's ）read apart (``［No.11］ )``)
_SLOT_CLOSE = re.compile(r"(?<=］)\s*[)）]")
#: a numbered statement's label (``4 .Ｂ説は``, ``1.Ａ説に``)
_NUMBERED_START = re.compile(r"^(?P<n>[1-9１-９])\s*[.．,，、](?![0-9０-９])\s*")
#: a speaker's turn in a dialogue question (``教授．``), its ．read as 、 or ,
_SPEAKER = re.compile(r"^(?P<who>教授|学生\s*[Ａ-Ｚ]?|[Ａ-Ｚ]説|司会|裁判官\s*[Ａ-Ｚ]?|弁護人|検察官)"
                      r"\s*[、，,.・･]\s*")
#: a page footer ``- 11 -`` read as ``ー］１ー``: dashes around one to three characters
_FOOTER = re.compile(r"^[ー－—―‐\-一ニ二=~～]\s*\S{1,3}\s*[ー－—―‐\-一ニ二=~～]$")


@dataclass(frozen=True)
class OcrRepair:
    """One line changed: where, which rule, what was read and what it became."""

    page: int
    rule: str
    before: str
    after: str


def _near(read: int | None, expected: int) -> bool:
    """``read`` is a plausible misreading of ``expected``: missing, or one digit off."""
    if read is None or read == expected:
        return True
    a, b = str(read), str(expected)
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1


def repair_header(text: str, expected: int | None) -> tuple[str, int] | None:
    """``(repaired line, question number)`` when ``text`` is a question header, else None."""
    m = _HEADER.match(text)
    if not m:
        return None
    read = number(m.group("n"))
    # a number read as digits is trusted (a question may be missing: renumbering the next one
    # would shift every question after it); one with letters in it (l2, 1O) may be the expected
    clean = unicodedata.normalize("NFKC", m.group("n")).isdigit()
    found = expected if not clean and expected is not None and _near(read, expected) else read
    if found is None:
        return None
    points = str(int(m.group("p").translate(HW))).translate(FW)  # always full-width
    return f"〔第{printed(found)}問〕（配点：{points}）{text[m.end():]}", found


def repair_slots(text: str, expected: int | None = None) -> tuple[str, int | None]:
    """Every slot marker in ``text`` in the typeset form ``［No.１］``; a number that does not
    read as one (``No.l4``) takes the next expected slot. Returns the text and the last slot."""
    last = expected - 1 if expected is not None else None

    def fix(m: re.Match[str]) -> str:
        nonlocal last
        read = number(m.group("n"))
        want = None if last is None else last + 1
        n = want if want is not None and read is None else read
        if n is None:
            return m.group(0)
        last = n
        return f"［No.{printed(n)}］"

    fixed = _SLOT_CLOSE.sub("）", _SLOT.sub(fix, text))
    return fixed, None if last is None else last + 1


def repair_slot_tail(text: str, previous: str) -> str | None:
    """The second half of a slot marker broken after ``［No.`` on ``previous``: ``8] )`` →
    ``８］）``; None when ``previous`` does not end in an open marker."""
    if not re.search(r"[［\[]\s*No\s*[.．]?\s*$", previous):
        return None
    m = _SLOT_TAIL.match(text)
    if not m:
        return None
    n = int(m.group("n").translate(HW))
    close = "）" if m.group("close") else ""
    return f"{printed(n)}］{close}{text[m.end():]}"


def repair_label(text: str, expected: str) -> str | None:
    """The line with its statement label repaired to ``expected`` (``工．`` → ``エ．``,
    ``エエ．`` → ``エ．``), or None when the line does not start with that label."""
    m = _LABEL_START.match(text)
    if not m or canon_label(m.group("lab")) != expected:
        return None
    if m.group("lab") in "工力才" and m.group("dot") not in "．.":
        return None  # a kanji look-alike needs a real dot to be taken for a label
    return f"{expected}．{text[m.end():]}"


def repair_part(text: str, expected: str) -> str | None:
    """A view label ``a.``/``ａ,`` at the line start repaired to ``expected`` (``ａ``…)."""
    m = _PART_START.match(text)
    if not m:
        return None
    letter = unicodedata.normalize("NFKC", m.group("lab"))
    wanted = unicodedata.normalize("NFKC", expected)
    if letter != wanted:
        return None
    return f"{expected}．{text[m.end():]}"


class _Walk:
    """Where the walk is: the question, whether its stem is over, the labels it expects."""

    def __init__(self) -> None:
        self.question: int | None = None
        self.slot: int | None = None
        self.in_stem = False
        self.label = 0  # index into LABELS of the next statement label
        self.part = ""  # the next view letter, "" outside a statement
        self.option = 1  # the next option number
        self.numbered = 1  # the next numbered statement (刑法's １．… paragraphs)
        self.previous = ""  # the line before, repaired
        self.stem = ""  # the question's stem so far

    def line(self, text: str) -> list[tuple[str, str]]:
        """The repaired text and the rules that fired, as (rule, text) steps."""
        steps = self._line(text)
        self.previous = steps[-1][1] if steps else text
        return steps

    def _line(self, text: str) -> list[tuple[str, str]]:
        steps: list[tuple[str, str]] = []
        clean = _LEADING_DUST.sub("", text)
        if clean != text:
            text = clean
            steps.append(("dust", text))
        tail = repair_slot_tail(text, self.previous)
        if tail is not None and tail != text:
            text = tail
            steps.append(("slot", text))
        expected_q = None if self.question is None else self.question + 1
        header = repair_header(text, expected_q)
        if header is not None:
            if header[0] != text:
                steps.append(("header", header[0]))
            text, self.question = header
            self.in_stem, self.label, self.part, self.option = True, 0, "", 1
            self.numbered = 1
            self.stem = ""
        fixed, next_slot = repair_slots(text, self.slot)
        if fixed != text:
            steps.append(("slot", fixed))
            text = fixed
        if next_slot is not None:
            self.slot = next_slot
        if self.in_stem:
            fixed = _MARKER_OPEN.sub("解答欄は", stem_criterion(stem_marks(self.stem, text)))
            fixed = _MARKER_DUST.sub("", _MARKER_OPEN_END.sub("解答欄", fixed))
            fixed = _MARKER_TAIL_DUST.sub("", fixed)
            if fixed != text:
                text = fixed
                steps.append(("stem-marks", text))
            self.stem += text
            if not self._stem_over(text):
                return steps
        if self.question is None:
            return steps
        steps += self._body(text)
        return steps

    def _stem_over(self, text: str) -> bool:
        """Whether the stem has ended before or on this line: its slot marker closed (a
        ``）`` after ``解答欄``, looked for in the stem so far: the marker may be broken
        anywhere, ``（解答`` / ``欄は、…``), or a line opens with the first label (the marker
        misread)."""
        marker = None
        for marker in _SLOT_IN_STEM.finditer(self.stem):
            pass
        if marker is not None and re.search(r"[）)]", self.stem[marker.end():]):
            self.in_stem = False
            return False  # the marker line itself is still stem
        if repair_label(text, LABELS[0]) is not None:
            self.in_stem = False
            return True
        return False

    def _body(self, text: str) -> list[tuple[str, str]]:
        turn = _SPEAKER.match(text)
        if turn and re.sub(r"\s", "", turn.group("who"))[:2] in self.stem:
            # the stem names the speakers (教授と学生の対話): this line is a turn
            text = f"{turn.group('who')}．{text[turn.end():]}"
            return [("speaker", text)]
        if self.label < len(LABELS):
            fixed = repair_label(text, LABELS[self.label])
            if fixed is not None:
                self.label += 1
                self.part = "ａ"
                return [("label", fixed)] if fixed != text else []
        if self.part:
            fixed = repair_part(text, self.part)
            if fixed is not None:
                self.part = chr(ord(self.part) + 1)
                return [("view", fixed)] if fixed != text else []
        truth = self.label if "には○" in self.stem and "には×" in self.stem else 0
        fixed = repair_options(text, self.option, truth)
        if fixed is not None:
            self.option = int(fixed.rsplit("．", 1)[0].split()[-1].translate(HW)) + 1
            self.part = ""
            return [("options", fixed)] if fixed != text else []
        num = _NUMBERED_START.match(text)
        if num and int(num.group("n").translate(HW)) == self.numbered:
            fixed = f"{printed(self.numbered)}．{text[num.end():]}"
            self.numbered += 1
            return [("numbered", fixed)] if fixed != text else []
        return []


def repair_ocr_lines(texts: Sequence[str]) -> tuple[list[str], list[tuple[int, str, str]]]:
    """The lines of a booklet (OCR text, in reading order) with the structure repaired, and
    the changes as ``(line index, rule, original)``."""
    walk = _Walk()
    out: list[str] = []
    changes: list[tuple[int, str, str]] = []
    for i, text in enumerate(texts):
        steps = walk.line(text)
        if steps:
            changes.append((i, "+".join(rule for rule, _ in steps), text))
            text = steps[-1][1]
        out.append(text)
    return out, changes


def _footer(page: PdfPage) -> PdfPage:
    """A footer misread past recognition (``ー］１ー``) moved to the page's furniture: the
    last line, in the bottom tenth of the page, dashes around one to three characters."""
    if page.lines and _FOOTER.match(page.lines[-1].text.replace(" ", "")) and (
            page.lines[-1].bbox[1] >= page.height * 0.9):
        return page.model_copy(update={"lines": page.lines[:-1],
                                       "furniture": (*page.furniture, page.lines[-1])})
    return page


def repair_ocr_document(doc: PdfDocument) -> tuple[PdfDocument, list[OcrRepair]]:
    """``doc`` with the lines of its OCR pages repaired (text-layer pages untouched: the walk
    still reads them, so a scan that starts mid-booklet knows where it is)."""
    ocr_pages = {p.number for p in doc.pages if p.ocr}
    source = [_footer(p) if p.number in ocr_pages else p for p in doc.pages]
    repairs = [OcrRepair(page=a.number, rule="footer", before=a.lines[-1].text, after="")
               for a, b in zip(doc.pages, source) if a is not b]
    flat: list[tuple[int, PdfLine]] = [(p.number, ln) for p in source for ln in p.lines]
    fixed, changes = repair_ocr_lines([ln.text for _, ln in flat])
    new_lines: dict[int, list[PdfLine]] = {p.number: [] for p in source}
    changed = {i: (rule, before) for i, rule, before in changes}
    for i, ((page, line), text) in enumerate(zip(flat, fixed)):
        if i in changed and page in ocr_pages:
            repairs.append(OcrRepair(page=page, rule=changed[i][0], before=changed[i][1],
                                     after=text))
            line = line.model_copy(update={"text": text})
        new_lines[page].append(line)
    pages = tuple(p.model_copy(update={"lines": tuple(new_lines[p.number])})
                  if p.number in ocr_pages else p for p in source)
    return doc.model_copy(update={"pages": pages}), repairs
