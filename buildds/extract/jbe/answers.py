"""The bar-exam answer key (正解及び配点) page → :class:`~buildds.schema.AnswerKey`.

The key is a ruled table in side-by-side blocks with the header ``問 No 解答 配点 備考``.
For questions with several answer slots the 問, 配点 and 備考 cells are merged over the
slot rows and their text is centred vertically, so plain-text lines do not line up with
the slots. We therefore parse by position, from pdfium's text segments
(``extract_pdf(..., words=True)``):

* the header words of each block give its column x-ranges (a word belongs to the column
  whose header centre is nearest to its own centre, so a wide note still lands in 備考);
* every No value is a slot row; the 解答 value on that row is its answer;
* a merged cell is centred over its rows, so the 問 values, taken top to bottom, cut the
  rows into groups: the group of a 問 value starts at the first row not yet taken and ends
  at the row that puts the group's middle on the value's centre;
* 配点 and 備考 text belong to the group whose vertical extent holds their centre.

The ruled lines would bound the merged cells directly, but :class:`PdfDocument` does not
carry them; the geometry above is exact for centred cells and needs nothing but the words.
Recoverable oddities become :class:`Problem` records; only a page set without any table
raises :class:`PdfError`. Pure Python over ~150 words: about 1 ms per key page.

Its numbering checks, and whether it belongs to its booklet (same slots, same 配点), are in
:mod:`.key_checks`.
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Literal

from buildds.errors import PdfError
from buildds.extract.jbe.key_checks import check_numbering
from buildds.schema import SUBJECTS, AnswerKey, AnswerSlot, PdfDocument, PdfWord, Problem
from buildds.text import is_page_number, join_wrapped

__all__ = ["ALL_CORRECT_MARKERS", "NOTE_UNORDERED", "parse_answer_key"]

#: The 備考 note of a "choose two" question, as the keys print it (on two lines).
NOTE_UNORDERED = "順不同（部分点なし）"
#: Phrases of the note that scores every examinee correct (2023 刑法 第６問).
ALL_CORRECT_MARKERS = ("全員を正答", "全員正答", "全員を正解", "全員正解")

_COLUMNS = ("問", "No", "解答", "配点", "備考")
_INT = re.compile(r"^\d+$")
_CJK = r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]"
# Letter-spaced headings and notes (順 不 同, 備 考) come as separate words or with spaces.
_CJK_GAP = re.compile(rf"(?<={_CJK})\s+(?={_CJK})")
_FULL_MARKS = re.compile(r"満点\s*[:：]?\s*(\d+)")


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


class _W:
    """A word with its box and centre precomputed (the parser reads them many times)."""

    __slots__ = ("bottom", "cx", "cy", "text", "top", "x0", "x1")

    def __init__(self, text: str, x0: float, top: float, x1: float, bottom: float) -> None:
        self.text, self.x0, self.top, self.x1, self.bottom = text, x0, top, x1, bottom
        self.cx, self.cy = (x0 + x1) / 2, (top + bottom) / 2

    @classmethod
    def of(cls, word: PdfWord) -> _W:
        return cls(word.text, *word.bbox)


@dataclass
class _Block:
    """One side-by-side block of the table: column centres and the x-range it owns."""

    centres: dict[str, float]
    left: float
    right: float
    words: dict[str, list[_W]] = field(default_factory=dict)

    def column_of(self, word: _W) -> str:
        x, best, dist = word.cx, "", float("inf")
        for col, centre in self.centres.items():
            if abs(centre - x) < dist:
                best, dist = col, abs(centre - x)
        return best


@dataclass
class _Group:
    """A 問 cell: the question number, the rows (slot Nos) it spans and their y-extent."""

    question: int
    rows: list[int]
    top: float
    bottom: float
    points: list[int] = field(default_factory=list)
    note_words: list[_W] = field(default_factory=list)


class _Ctx:
    """Collects problems for one key file."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.problems: list[Problem] = []

    def add(self, code: str, message: str, page: int | None,
            severity: Literal["error", "warning"] = "error") -> None:
        self.problems.append(Problem(stage="answers", code=code, message=message,
                                     source=self.source, page=page, severity=severity))


def _header_blocks(words: list[_W], width: float) -> tuple[list[_Block], float]:
    """Find the header rows (問 No 解答 配点 備考) and return one block per 問 header,
    with the bottom of the header row (table text starts below it)."""
    anchors = [w for w in words if _nfkc(w.text).rstrip(".") in ("No", "NO", "no")]
    blocks: list[_Block] = []
    header_bottom = 0.0
    seen_rows: list[float] = []
    for anchor in anchors:
        y = anchor.cy
        if any(abs(y - seen) < 4.0 for seen in seen_rows):
            continue  # the same header row, met through another block's "No"
        seen_rows.append(y)
        row = sorted((w for w in words if abs(w.cy - y) < 4.0), key=lambda w: w.x0)
        cells: list[tuple[str, _W]] = []
        pending_bi: _W | None = None
        for w in row:
            t = _CJK_GAP.sub("", _nfkc(w.text)).rstrip(".")
            if t in ("NO", "no"):
                t = "No"
            if t == "備":
                pending_bi = w
                continue
            if t == "考" and pending_bi is not None:
                w = _W("備考", pending_bi.x0, min(pending_bi.top, w.top), w.x1,
                       max(pending_bi.bottom, w.bottom))
                t, pending_bi = "備考", None
            if t in _COLUMNS:
                cells.append((t, w))
        # split the row into runs that start at 問
        runs: list[dict[str, _W]] = []
        for name, w in cells:
            if name == "問" or not runs:
                runs.append({})
            runs[-1].setdefault(name, w)
        for run in runs:
            if {"問", "No", "解答"} <= run.keys():
                centres = {name: w.cx for name, w in run.items()}
                blocks.append(_Block(centres=centres, left=0.0, right=width))
                header_bottom = max(header_bottom, max(w.bottom for w in run.values()))
    blocks.sort(key=lambda b: b.centres["問"])
    # a block owns the x-range up to halfway between its last column and the next 問 column
    for prev, nxt in itertools.pairwise(blocks):
        edge = (max(prev.centres.values()) + nxt.centres["問"]) / 2
        prev.right = nxt.left = edge
    return blocks, header_bottom


def _int_or_none(word: _W) -> int | None:
    t = _nfkc(word.text)
    return int(t) if _INT.match(t) else None


def _int_cells(words: list[_W], column: str, code: str, ctx: _Ctx, page: int
               ) -> list[tuple[int, float]]:
    """(value, centre y) of the column's integer cells, top to bottom; an unreadable cell
    becomes a ``code`` problem."""
    out: list[tuple[int, float]] = []
    for w in words:
        value = _int_or_none(w)
        if value is None:
            ctx.add(code, f"unreadable {column} cell {w.text!r} at y={w.cy:.0f}", page)
        else:
            out.append((value, w.cy))
    out.sort(key=lambda r: r[1])
    return out


def _note_text(words: list[_W]) -> str | None:
    """Join the note's words: same-line words left to right, lines top to bottom, with no
    spaces between Japanese characters (letter-spacing and line breaks are layout)."""
    if not words:
        return None
    lines: list[list[_W]] = []
    for w in sorted(words, key=lambda w: w.cy):
        if lines and abs(lines[-1][-1].cy - w.cy) < 3.0:
            lines[-1].append(w)
        else:
            lines.append([w])
    texts = []
    for line in lines:
        text = " ".join(w.text for w in sorted(line, key=lambda w: w.x0))
        texts.append(_CJK_GAP.sub("", text))
    return join_wrapped(texts) or None


def _group_rows(
    rows: list[tuple[int, float]], markers: list[tuple[int, float]], pitch: float,
    ctx: _Ctx, page: int,
) -> list[_Group]:
    """Cut the slot rows (No, centre y) into 問 groups, greedily from the top: a merged
    cell is centred over its rows, so its first row is the first one not yet taken and its
    last row is the one that puts the middle of the two on the 問 value's centre."""
    groups: list[_Group] = []
    start = 0
    for q, c in markers:
        if start >= len(rows):
            ctx.add("question-without-rows", f"問 {q} has no slot rows (No) beside it", page)
            continue
        y0 = rows[start][1]
        best = min(range(start, len(rows)), key=lambda e: abs((y0 + rows[e][1]) / 2 - c))
        off = abs((y0 + rows[best][1]) / 2 - c)
        if off > 0.3 * pitch:
            ctx.add("question-cell-off", f"問 {q} is not centred over slot rows (No "
                    f"{rows[start][0]}–{rows[best][0]}, {off:.1f} pt off); check the key", page)
        span = rows[start:best + 1]
        groups.append(_Group(question=q, rows=[no for no, _ in span],
                             top=span[0][1] - pitch / 2, bottom=span[-1][1] + pitch / 2))
        start = best + 1
    if start < len(rows):
        nos = ", ".join(str(no) for no, _ in rows[start:])
        ctx.add("rows-without-question", f"slot rows No {nos} have no 問 cell", page)
    return groups


def _parse_block(
    block: _Block, ctx: _Ctx, page: int
) -> tuple[list[_Group], dict[int, str]]:
    """Rows, answers and 問 groups of one block; returns groups and answers by No."""
    cols = block.words
    rows = _int_cells(cols.get("No", []), "No", "bad-no", ctx, page)
    if not rows:
        return [], {}
    gaps = sorted(b[1] - a[1] for a, b in itertools.pairwise(rows))
    pitch = gaps[len(gaps) // 2] if gaps else 16.5

    # text below the last row is not part of the table (page numbers, footnotes)
    table_bottom = rows[-1][1] + 0.5 * pitch + 2.0
    for name in ("問", "解答", "配点", "備考"):
        inside = []
        for w in cols.get(name, []):
            if w.cy <= table_bottom:
                inside.append(w)
            elif not is_page_number(w.text):
                ctx.add("text-below-table", f"text below the table ignored: {w.text!r}", page,
                        "warning")
        cols[name] = inside

    ys = [y for _, y in rows]

    def row_at(y: float) -> int | None:
        i = bisect.bisect_left(ys, y)
        near = min((k for k in (i - 1, i) if 0 <= k < len(ys)), key=lambda k: abs(ys[k] - y))
        return rows[near][0] if abs(ys[near] - y) <= 0.35 * pitch else None

    answers: dict[int, str] = {}
    for w in cols.get("解答", []):
        no = row_at(w.cy)
        text = _nfkc(w.text)
        if no is None:
            ctx.add("answer-off-row", f"解答 {text!r} at y={w.cy:.0f} is on no slot row", page)
        elif no in answers:
            ctx.add("duplicate-answer", f"No {no} has two answers: {answers[no]!r}, {text!r}", page)
        else:
            answers[no] = text

    markers = _int_cells(cols.get("問", []), "問", "bad-question", ctx, page)
    groups = _group_rows(rows, markers, pitch, ctx, page)

    def group_at(y: float) -> _Group | None:
        return next((g for g in groups if g.top <= y < g.bottom), None)

    for w in cols.get("配点", []):
        pts, g = _int_or_none(w), group_at(w.cy)
        if pts is None or g is None:
            ctx.add("points-unplaced", f"配点 cell {w.text!r} at y={w.cy:.0f} fits no question",
                    page)
        else:
            g.points.append(pts)
    for w in cols.get("備考", []):
        g = group_at(w.cy)
        if g is None:
            ctx.add("note-unplaced", f"備考 text {w.text!r} at y={w.cy:.0f} fits no question",
                    page, "warning")
        else:
            g.note_words.append(w)
    return groups, answers


def _slots_of(group: _Group, answers: dict[int, str], ctx: _Ctx, page: int) -> list[AnswerSlot]:
    note = _note_text(group.note_words)
    flat = (note or "").replace(" ", "")
    all_correct = any(m in flat for m in ALL_CORRECT_MARKERS)
    unordered = "順不同" in flat
    points: int | None = group.points[0] if group.points else None
    if not group.points:
        ctx.add("missing-points", f"問 {group.question} has no 配点", page)
    elif len(set(group.points)) > 1:
        ctx.add("conflicting-points", f"問 {group.question} has several 配点: {group.points}", page)
    if unordered and len(group.rows) < 2:
        ctx.add("unordered-single", f"問 {group.question} is 順不同 but has one slot", page,
                "warning")
    out = []
    for no in group.rows:
        answer = answers.get(no)
        if all_correct:
            if answer is not None:
                ctx.add("all-correct-answer", f"No {no} prints answer {answer!r} although 問 "
                        f"{group.question} is scored correct for everyone", page, "warning")
            answer = None
        elif answer is None:
            ctx.add("missing-answer", f"No {no} (問 {group.question}) has no answer", page)
        out.append(AnswerSlot(no=no, question=group.question, answer=answer, points=points,
                              note=note, unordered=unordered, all_correct=all_correct))
    return out


def parse_answer_key(doc: PdfDocument, *, year: int, subject: str) -> AnswerKey:
    """Parse an answer key read with ``extract_pdf(path, words=True, ...)``.

    Raises :class:`PdfError` (naming the file) when no page has the ``問 No 解答`` header;
    everything else that looks wrong is returned in ``AnswerKey.problems``."""
    subj = SUBJECTS[subject]
    source = doc.source.path
    ctx = _Ctx(source)
    if not any(page.words for page in doc.pages):
        raise PdfError("no text segments: read the answer key with extract_pdf(..., words=True)",
                       source=source)
    full_marks: int | None = None
    slots: list[AnswerSlot] = []
    found_table = False
    for page in doc.pages:
        words = [_W.of(w) for w in page.words]
        blocks, header_bottom = _header_blocks(words, page.width)
        for w in words:
            text = _nfkc(w.text) if "配点" in w.text else ""
            if "正解及び配点" in text and subj.jp not in text:
                ctx.add("title-subject", f"title {text!r} is not the {subj.jp} key", page.number,
                        "warning")
        if full_marks is None:
            full_marks = _full_marks(words)
        if not blocks:
            continue
        found_table = True
        for w in words:
            if w.cy <= header_bottom + 1.0:
                continue
            block = next((b for b in blocks if b.left <= w.cx < b.right), None)
            if block is None:
                continue
            block.words.setdefault(block.column_of(w), []).append(w)
        for block in blocks:
            groups, answers = _parse_block(block, ctx, page.number)
            for group in groups:
                slots.extend(_slots_of(group, answers, ctx, page.number))
    if not found_table:
        raise PdfError("no answer table (header 問 No 解答 配点 備考) on any page", source=source)
    if full_marks is None:
        ctx.add("missing-full-marks", "no 満点 found", None, "warning")
    slots.sort(key=lambda s: s.no)
    ctx.problems.extend(check_numbering(slots, full_marks, source=source))
    return AnswerKey(year=year, subject=subj, source=doc.source, full_marks=full_marks,
                     slots=tuple(slots), problems=tuple(ctx.problems))


def _full_marks(words: list[_W]) -> int | None:
    """満点 and its number: one segment (``満点 75``) or two on the same line."""
    for w in words:
        if "満点" not in w.text:
            continue
        m = _FULL_MARKS.search(_nfkc(w.text))
        if m:
            return int(m.group(1))
        right = sorted((v for v in words if abs(v.cy - w.cy) < 4.0
                        and v.x0 >= w.x1 - 1.0), key=lambda v: v.x0)
        value = _int_or_none(right[0]) if right else None
        if value is not None:
            return value
    return None
