"""Bar-exam question booklet (短答式試験問題集) → :class:`ExamBooklet`.

Input is the :class:`PdfDocument` of one booklet (text layer or OCR). The parser walks the
body lines once:

1. ``〔第18問〕（配点：２）`` starts a question (full- or half-width digits).
2. The stem runs up to the end of its answer-slot marker ``（解答欄は、…）``, which may be
   broken across lines (``［No.`` / ``14］``); the marker gives the slots and their mode:
   ``［No.1］`` single, ``アからウの順に［No.5］から［No.7］`` one per statement,
   ``［No.1］、［No.2］順不同`` choose two.
3. After the stem, each line is a statement start (``ア．``, or ``１．`` when the stem numbers
   its statements), a nested view (``ａ．``/``ｂ．``), a section heading standing alone
   (``【事 例】``, ``【語句群】`` …, letter-spacing removed), an option line (``１．ア イ ２．ア エ``,
   ○× grids, ``１．①ア ③ウ``), a lone ``［No.n］``, or the continuation of whatever came
   before. A continuation is joined without a space (Japanese wraps mid-word). This walk
   over the body lines is :mod:`.body`; this module splits the questions, reads the stem and
   assembles and checks each question.

Numbered lines are read as options when the stem points at them (``後記１から５までのうちどれか``);
otherwise they are numbered statements (刑法 ``次の１から５までの各記述``, ``後記１から５までの
各【記述】``). Read as options, they are still the question's statements when nothing they say
refers to labels and the question has no labelled statements (:mod:`.structure`).

Whatever cannot be placed is kept in ``ExamQuestion.other`` with a warning — never dropped.
Problems (a slot marker that is missing or disagrees with the statements, slots that do not
run consecutively) are recorded on the booklet with the page, for the caller to report.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from buildds.extract.jbe.body import KATAKANA_LABELS, TRAILING_NO, Block, read_body, to_int
from buildds.extract.jbe.structure import numbered_blocks_are_statements
from buildds.schema import (
    ExamBooklet,
    ExamQuestion,
    LeadIn,
    Option,
    PdfDocument,
    PdfLine,
    Problem,
    Statement,
    Subject,
)
from buildds.text import join_wrapped

__all__ = ["parse_booklet"]

STAGE = "booklet"

_QUESTION = re.compile(r"^〔\s*第\s*([0-9０-９]+)\s*問\s*〕\s*[（(]\s*配点\s*[：:]\s*([0-9０-９]+)\s*[）)]")
_SLOT_MARKER = re.compile(
    r"[（(]\s*解答欄は\s*[，、,]?\s*"
    r"(?:(?P<from_label>[ア-ン])から(?P<to_label>[ア-ン])(?:まで)?の順に\s*)?"
    r"[［\[]\s*No\s*[.．]\s*(?P<first>[0-9０-９]+)\s*[］\]]"
    r"\s*(?:(?P<sep>から|[，、,])\s*[［\[]\s*No\s*[.．]\s*(?P<second>[0-9０-９]+)\s*[］\]])?"
    r"\s*(?P<unordered>順\s*不\s*同)?\s*[）)]"
)
_SUBJECT_HEADER = re.compile(r"^(?:短答式試験問題集\s*)?［\s*(憲\s*法|民\s*法|刑\s*法)\s*］$")
_NUMBERED_STATEMENTS = re.compile(r"後記\s*[１1]\s*から\s*[０-９0-9]+\s*までの各\s*(?:【記述】|記述)")
_REMARK = re.compile(r"((?:なお|ただし)[、，,][^。]*。)")


@dataclass
class _RawQuestion:
    number: int
    points: int
    header_page: int
    lines: list[PdfLine] = field(default_factory=list)


_OCR_FIXES: tuple[tuple[re.Pattern[str], str], ...] = (
    # （第１問］, 第２問〕］ → 〔第１問〕
    (re.compile(r"^[〔（(［\[【]?\s*第\s*([0-9０-９]+)\s*問\s*[〕）)］\]】]*"), r"〔第\1問〕"),
    (re.compile(r"解答\S?は"), "解答欄は"),  # 解答柳は
    (re.compile(r"[【\[]+(?=［)"), ""),  # 【［No.３］
    (re.compile(r"[\[［【]\s*No\s*[.．,，]?\s*([0-9０-９]+)\s*[\]］】]"), r"［No.\1］"),
    (re.compile(r"^([ア-ン])\1+(?=[．.])"), r"\1"),  # エエ．
    (re.compile(r"^工(?=[．.])"), "エ"),  # the kanji 工 for the katakana エ
    (re.compile(r"^力(?=[．.])"), "カ"),  # 力 for カ
    (re.compile(r"^[^\s０-９0-9〔（(［【]([ア-ン])(?=[．.])"), r"\1"),  # ツウ． (a speck)
    (re.compile(r"(?<=[ア-ン])([１-９])。(?=[ア-ン])"), r"\1．"),  # ４。イオ in option grids
)


def _repair_ocr(line: PdfLine) -> PdfLine:
    """Undo the OCR misreadings that would break the structure (not the wording): bracket
    shapes of question headers and slot markers, a doubled statement label."""
    text = line.text
    for pattern, replacement in _OCR_FIXES:
        text = pattern.sub(replacement, text)
    return line if text == line.text else line.model_copy(update={"text": text})


def _split_questions(doc: PdfDocument, problems: list[Problem]) -> list[_RawQuestion]:
    questions: list[_RawQuestion] = []
    for page in doc.pages:
        lines = [_repair_ocr(ln) for ln in page.lines] if page.ocr else page.lines
        for line in lines:
            m = _QUESTION.match(line.text)
            if m:
                questions.append(_RawQuestion(to_int(m.group(1)), to_int(m.group(2)), page.number))
                rest = line.text[m.end():].strip()
                if rest:
                    questions[-1].lines.append(line.model_copy(update={"text": rest}))
            elif questions:
                questions[-1].lines.append(line)
            elif not _SUBJECT_HEADER.match(line.text):
                problems.append(Problem(
                    stage=STAGE, code="text-before-first-question", severity="warning",
                    message=f"text before the first question kept out of the XML: {line.text!r}",
                    source=doc.source.path, page=page.number))
    return questions


def _stem_end(lines: list[PdfLine]) -> tuple[int, re.Match[str] | None, str]:
    """Index of the line that closes the slot marker, the marker match, and the stem text."""
    parts: list[str] = []
    for i, line in enumerate(lines):
        parts.append(line.text)
        joined = join_wrapped(parts)
        m = _SLOT_MARKER.search(joined)
        if m:
            return i, m, joined
        if i > 12:  # a stem is never this long: the marker is missing
            break
    return -1, None, ""


def _slots_from_marker(m: re.Match[str]) -> tuple[list[int], str, tuple[str, str] | None]:
    first = to_int(m.group("first"))
    second = m.group("second")
    if second is None:
        return [first], "single", None
    last = to_int(second)
    if m.group("unordered") or m.group("sep") != "から":
        return [first, last], "unordered", None
    labels = (m.group("from_label"), m.group("to_label")) if m.group("from_label") else None
    return list(range(first, last + 1)), "per_statement", labels


def _join_block(b: Block) -> str:
    """Wrapped lines are joined; paragraph breaks (speaker turns, word-list lines) kept."""
    cuts = sorted({0, *b.breaks, len(b.lines)})
    return "\n".join(join_wrapped(b.lines[a:z]) for a, z in itertools.pairwise(cuts) if a < z)


def _build_question(raw: _RawQuestion, source: str, problems: list[Problem],
                    ocr_pages: frozenset[int] = frozenset()) -> ExamQuestion:
    """The stem up to its slot marker, then the body's blocks (:func:`.body.read_body`),
    assembled and checked; without a marker the question's text is all kept as ``other``."""
    lines = raw.lines
    pages = [raw.header_page] + [ln.page for ln in lines]
    idx, marker, stem = _stem_end(lines)
    if marker is None:
        problems.append(Problem(
            stage=STAGE, code="no-slot-marker",
            message=f"question {raw.number}: no answer-slot marker （解答欄は、…） in its stem",
            source=source, page=raw.header_page))
        return ExamQuestion(
            number=raw.number, points=raw.points, page_first=min(pages), page_last=max(pages),
            stem="", slots=(), slot_mode="single", other=tuple(ln.text for ln in lines))
    slots, mode, label_range = _slots_from_marker(marker)
    trailing = stem[marker.end():].strip()
    stem = stem[: marker.end()]
    # "後記１から５までのうちどれか" points at options; "後記１から５までの各【記述】" and
    # "次の１から５までの各記述" number the statements themselves.
    numbered_options = "後記" in stem and not _NUMBERED_STATEMENTS.search(stem)
    blocks = [Block("other", "", [trailing], raw.header_page)] if trailing else []
    read_body(lines[idx + 1:], numbered_options=numbered_options, ocr_pages=ocr_pages,
              blocks=blocks)
    return _assemble(raw, stem, slots, mode, label_range, blocks, pages, source, problems)


def _finish_statement(b: Block) -> Statement:
    def strip_slot(text: str) -> tuple[str, int | None]:
        m = TRAILING_NO.search(text)
        return (text[: m.start()], to_int(m.group(1))) if m else (text, None)

    text, slot = strip_slot(join_wrapped(b.lines))
    parts = []
    for p in b.parts:
        ptext, pslot = strip_slot(join_wrapped(p.lines))
        slot = slot or pslot
        parts.append(Statement(label=p.label, text=ptext, page=p.page))
    return Statement(label=b.label, text=text, slot=b.slot or slot, parts=tuple(parts), page=b.page)


def _assemble(raw: _RawQuestion, stem: str, slots: list[int], mode: str,
              label_range: tuple[str, str] | None, blocks: list[Block], pages: list[int],
              source: str, problems: list[Problem]) -> ExamQuestion:
    statements: list[Statement] = []
    options: list[Option] = []
    lead_ins: list[LeadIn] = []
    other: list[str] = []
    option_blocks = [b for b in blocks if b.kind == "option"]
    if numbered_blocks_are_statements(stem, sum(b.kind == "statement" for b in blocks),
                                      [join_wrapped(b.lines) for b in option_blocks]):
        for b in option_blocks:  # the key's number names the block itself (.structure)
            b.kind = "statement"
    for b in blocks:
        if b.kind == "statement":
            statements.append(_finish_statement(b))
        elif b.kind == "option":
            options.append(Option(number=int(b.label), text=join_wrapped(b.lines)))
        elif b.kind == "lead_in":
            text = _join_block(b)
            if text:
                lead_ins.append(LeadIn(kind=b.label, text=text, before=b.before))
        elif b.lines:
            other.append(join_wrapped(b.lines))
    remarks = _REMARK.findall(stem)
    q = ExamQuestion(
        number=raw.number, points=raw.points, page_first=min(pages), page_last=max(pages),
        stem=stem, lead_ins=tuple(lead_ins), statements=tuple(statements),
        options=tuple(options), slots=tuple(slots), slot_mode=mode,  # type: ignore[arg-type]
        remark="".join(remarks) or None, other=tuple(other))
    _check_question(q, label_range, source, problems)
    return q


def _check_question(q: ExamQuestion, label_range: tuple[str, str] | None, source: str,
                    problems: list[Problem]) -> None:
    def warn(code: str, message: str) -> None:
        problems.append(Problem(stage=STAGE, code=code, message=f"question {q.number}: {message}",
                                source=source, page=q.page_first))

    if q.slot_mode == "per_statement":
        own = [s.slot for s in q.statements]
        if label_range:
            first = KATAKANA_LABELS.index(label_range[0])
            last = KATAKANA_LABELS.index(label_range[1])
            labels = list(KATAKANA_LABELS[first: last + 1])
            if [s.label for s in q.statements] != labels:
                warn("statement-labels", f"statements {[s.label for s in q.statements]} do not "
                     f"match the slot marker's {label_range[0]}から{label_range[1]}")
        if own != list(q.slots):
            warn("statement-slots", f"statement slots {own} do not match the marker's "
                 f"{list(q.slots)}")
    if not q.statements and not q.lead_ins:
        warn("no-statements", "no statements found")
    if q.other:
        problems.append(Problem(stage=STAGE, code="unplaced-text", severity="warning",
                                message=f"question {q.number}: text kept as <other>: "
                                        f"{q.other[0][:40]!r}", source=source, page=q.page_first))


def parse_booklet(doc: PdfDocument, *, year: int, era: str, subject: Subject) -> ExamBooklet:
    """Parse one booklet. Never raises for content problems: they are on ``.problems``."""
    problems: list[Problem] = []
    raws = _split_questions(doc, problems)
    source = doc.source.path
    if not raws:
        problems.append(Problem(stage=STAGE, code="no-questions",
                                message="no question headers 〔第１問〕 found; is this a question "
                                        "booklet (mondai)?", source=source))
    ocr_pages = frozenset(p.number for p in doc.pages if p.ocr)
    questions = [_build_question(r, source, problems, ocr_pages) for r in raws]
    numbers = [q.number for q in questions]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(Problem(stage=STAGE, code="question-numbering",
                                message=f"questions are not numbered 1..{len(numbers)}: {numbers}",
                                source=source))
    all_slots = [s for q in questions for s in q.slots]
    if all_slots != list(range(1, len(all_slots) + 1)):
        problems.append(Problem(stage=STAGE, code="slot-numbering",
                                message="answer slots do not run 1..N in order", source=source))
    return ExamBooklet(year=year, era=era, subject=subject, source=doc.source,
                       questions=tuple(questions), problems=tuple(problems))
