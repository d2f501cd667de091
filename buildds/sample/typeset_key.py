"""Typeset an answer key (正解及び配点) PDF in the layout of the official bar-exam keys.

Why: the answer-key parser must be tested on keys the project writes itself (fixtures that
ship with the repository, and edge cases the real keys lack), and those must look like the
real ones where it matters to a parser: two side-by-side ruled blocks with the header
``問 No 解答 配点 備考``, one row per answer slot, and the 問, 配点 and 備考 cells of
multi-slot questions merged over their rows with the text centred vertically, so that
plain-text extraction scrambles the rows exactly as it does on the official PDFs.

The geometry (A4, 16.5 pt rows, block columns 30/30/36/36/112 pt, 1.2 pt rules) is measured
from the reconstructed keys in ``../shared/jbe/pdf``. Output is byte-for-byte deterministic
(reportlab ``invariant=1`` fixes the dates and the document id).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from itertools import groupby, pairwise
from pathlib import Path

from buildds.errors import MissingDependency
from buildds.schema import AnswerSlot

__all__ = ["default_left_questions", "find_ipa_mincho", "typeset_answer_key"]

_FONT = "IPAMincho"
_DEBIAN_FONT = Path("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf")

_PAGE_W, _PAGE_H = 595.2756, 841.8898
_TABLE_TOP = 118.0  # top rule, in points from the top of the page
_ROW_H = 16.5
_RULE_W = 1.2
_BLOCK_X = (44.64, 306.64)
#: column edges relative to the block's left edge: 問 | No | 解答 | 配点 | 備考
_EDGES = (0.0, 30.0, 60.0, 96.0, 132.0, 244.0)
_TEXT_PT = 10.5
_HEAD_PT = 10.0
#: baseline below the centre line of a cell, for IPAMincho at 10-11 pt
_BASELINE = 3.24
#: long notes sit lower than centred, as in the keys (keeps pdfplumber's lines identical)
_LONG_NOTE_DROP = 4.14
_NOTE_PT = 10.0
_LONG_NOTE_PT = 8.6
_NOTE_LEAD = 12.2
_LONG_NOTE_LEAD = 13.2
_NOTE_PAD = 2.0


def find_ipa_mincho() -> Path:
    """The IPAMincho TrueType file: the Debian path, else whatever fontconfig resolves
    *as IPAMincho* (fc-match falls back to any font, so the family is checked)."""
    if _DEBIAN_FONT.exists():
        return _DEBIAN_FONT
    if shutil.which("fc-match"):
        out = subprocess.run(["fc-match", "-f", "%{file}\n%{family}", _FONT],
                             capture_output=True, text=True, check=False).stdout.split("\n")
        if len(out) >= 2 and "IPAMincho" in out[1] and Path(out[0]).exists():
            return Path(out[0])
    raise MissingDependency("the IPA Mincho font", hint="apt-get install fonts-ipafont-mincho")


def _register_font() -> None:
    try:
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.ttfonts import TTFont
    except ImportError as exc:  # pragma: no cover - reportlab is the sample extra
        raise MissingDependency("reportlab", "sample") from exc
    if _FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(_FONT, str(find_ipa_mincho())))


def default_left_questions(groups: Sequence[Sequence[AnswerSlot]], subject_jp: str = "") -> int:
    """How many questions go in the left block, as the real 2023/2024 keys split them:
    憲法 half the questions (10 of 20), 民法 19 questions, 刑法 as many whole questions as
    fit in 25 rows; any other subject, whole questions until half the rows are on the left."""
    n = len(groups)
    if subject_jp == "憲法":
        return (n + 1) // 2
    if subject_jp == "民法":
        return max(min(n, 19), (n + 1) // 2)
    total = sum(len(g) for g in groups)
    rows = 0
    for i, group in enumerate(groups, start=1):
        rows += len(group)
        if subject_jp == "刑法":
            if rows > 25:
                return max(1, i - 1)
        elif 2 * rows >= total:
            return i
    return n


def _note_lines(note: str) -> tuple[list[str], float]:
    """The lines a 備考 note is printed on, and the font size: the two standard notes
    break as the keys break them (``順 不 同`` letter-spaced over ``（部分点なし）``;
    ``2問正解で`` over ``部分点1点``); anything else wraps to the cell width."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    if note.startswith("順不同") and len(note) > 3:
        return ["順 不 同", note[3:]], _NOTE_PT
    if "正解で" in note and not note.endswith("正解で"):
        cut = note.index("正解で") + 3
        return [note[:cut], note[cut:]], _NOTE_PT
    width = _EDGES[5] - _EDGES[4] - 2 * _NOTE_PAD
    if stringWidth(note, _FONT, _NOTE_PT) <= width:
        return [note], _NOTE_PT
    lines, line = [], ""
    for ch in note:
        if line and stringWidth(line + ch, _FONT, _LONG_NOTE_PT) > width and ch not in "、。）":
            lines.append(line)
            line = ""
        line += ch
    return lines + [line], _LONG_NOTE_PT


def typeset_answer_key(
    path: Path,
    *,
    subject_jp: str,
    full_marks: int,
    rows: Sequence[AnswerSlot],
    left_questions: int | None = None,
    spaced_remarks: bool | None = None,
    title: str | None = None,
) -> None:
    """Write a one-page answer key to ``path``.

    ``rows`` are the slots in order; consecutive rows of one question form a merged cell
    whose 配点 and note come from its first row. An ``all_correct`` question prints no
    answers. ``left_questions`` sets how many questions the left block holds (default:
    :func:`default_left_questions`); ``spaced_remarks`` prints the header ``備 考``
    letter-spaced (default: as the real keys do, for 民法 and 刑法). Nothing is checked
    against ``full_marks``, so faulty keys can be typeset to test the parser."""
    _register_font()
    from reportlab.pdfgen.canvas import Canvas

    groups = [list(g) for _, g in groupby(rows, key=lambda s: s.question)]
    seen = [g[0].question for g in groups]
    if len(set(seen)) != len(seen):
        raise ValueError(f"the rows of a question must be consecutive (questions: {seen})")
    n_left = default_left_questions(groups, subject_jp) if left_questions is None else left_questions
    if spaced_remarks is None:
        spaced_remarks = subject_jp != "憲法"
    label = title or f"{subject_jp}の正解及び配点"

    c = Canvas(str(path), pagesize=(_PAGE_W, _PAGE_H), invariant=1, pageCompression=1)
    c.setTitle(label)
    c.setAuthor("buildds")
    c.setCreator("buildds.sample.typeset_key")
    c.setSubject("司法試験 短答式試験 正解及び配点")

    def text(x_centre: float, y_centre: float, s: str, size: float = _TEXT_PT) -> None:
        """Centre ``s`` on a point given from the top of the page."""
        c.setFont(_FONT, size)
        c.drawCentredString(x_centre, _PAGE_H - (y_centre + _BASELINE), s)

    def spaced(x_centre: float, y_centre: float, chars: str, step: float, size: float) -> None:
        """Letter-spaced text: one glyph per call, so the gaps are real gaps."""
        first = x_centre - step * (len(chars) - 1) / 2
        for i, ch in enumerate(chars):
            text(first + i * step, y_centre, ch, size)

    text(_PAGE_W / 2, 66.76, label, 14.0)
    c.setFont(_FONT, 11.0)
    c.drawString(490.64, _PAGE_H - 98.0, "満点")
    c.drawString(523.64, _PAGE_H - 98.0, str(full_marks))

    for block, block_groups in enumerate((groups[:n_left], groups[n_left:])):
        if not block_groups:
            continue
        x0 = _BLOCK_X[block]
        _draw_block(c, text, spaced, x0, block_groups, spaced_remarks)
    c.showPage()
    c.save()


def _draw_block(c, text, spaced, x0: float, groups: list[list[AnswerSlot]],  # type: ignore[no-untyped-def]
                spaced_remarks: bool) -> None:
    """Rules and text of one block; ``text``/``spaced`` draw centred text from the top."""
    centre = [x0 + (a + b) / 2 for a, b in pairwise(_EDGES)]
    head_y = _TABLE_TOP + _ROW_H / 2
    for x, label in zip(centre[:4], ("問", "No", "解答", "配点")):
        text(x, head_y, label, _HEAD_PT)
    if spaced_remarks:
        spaced(centre[4], head_y, "備考", 20.0, _HEAD_PT)
    else:
        text(centre[4], head_y, "備考", _HEAD_PT)

    n_rows = sum(len(g) for g in groups)
    bottom = _TABLE_TOP + _ROW_H * (n_rows + 1)
    c.setLineWidth(_RULE_W)

    def hline(y: float, a: float, b: float) -> None:
        c.line(x0 + a, _PAGE_H - y, x0 + b, _PAGE_H - y)

    hline(_TABLE_TOP, _EDGES[0], _EDGES[-1])
    for edge in _EDGES:
        c.line(x0 + edge, _PAGE_H - _TABLE_TOP, x0 + edge, _PAGE_H - bottom)

    y = _TABLE_TOP + _ROW_H
    for group in groups:
        hline(y, _EDGES[0], _EDGES[-1])  # the rule above each question spans the block
        first = group[0]
        for i, slot in enumerate(group):
            row_mid = y + _ROW_H * (i + 0.5)
            if i:
                hline(y + _ROW_H * i, _EDGES[1], _EDGES[3])  # merged cells: No/解答 only
            text(centre[1], row_mid, str(slot.no))
            if slot.answer is not None and not slot.all_correct:
                text(centre[2], row_mid, slot.answer)
        mid = y + _ROW_H * len(group) / 2
        text(centre[0], mid, str(first.question))
        if first.points is not None:
            text(centre[3], mid, str(first.points))
        if first.note:
            lines, size = _note_lines(first.note)
            lead = _NOTE_LEAD if size == _NOTE_PT else _LONG_NOTE_LEAD
            drop = 0.0 if size == _NOTE_PT else _LONG_NOTE_DROP
            if len(lines) * lead > _ROW_H * len(group) + 4:
                raise ValueError(f"the note of 問 {first.question} does not fit its "
                                 f"{len(group)} row(s): {first.note!r}")
            top = mid - lead * (len(lines) - 1) / 2 + drop
            for k, line in enumerate(lines):
                if line == "順 不 同":
                    spaced(centre[4], top + k * lead, "順不同", 14.4, size)
                else:
                    text(centre[4], top + k * lead, line, size)
        y += _ROW_H * len(group)
    hline(bottom, _EDGES[0], _EDGES[-1])
