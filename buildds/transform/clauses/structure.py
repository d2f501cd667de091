"""What a document's layout says before any pattern is read: table-of-contents lines, PDF
lines that end a paragraph, and headings set apart by their style or font size.

* **Table of contents** (:func:`toc_lines`): a Word paragraph in a TOC style (``toc 1``,
  ``TOC 2``, ``目次 1`` …), a line with a dot leader and a page number
  (``1. Definitions ........ 3``, ``第１条（目的）・・・・2``), a line ending in a tab and a
  page number (``3.\\tPurchase Price\\t13``, the way Word's TOC field renders), or a short
  line ending in a page number right after a ``CONTENTS`` / ``Table of Contents`` / ``目次``
  heading (and the lines after it that look the same). These lines never start a clause.
* **Paragraph ends in PDFs** (:func:`ends_paragraph`): a PDF/OCR line whose right edge stops
  well before the page's text column (more than :data:`SHORT_LINE_EMS` character heights)
  ends its paragraph; the next line starts a new unit instead of being glued on.
* **Headings by font** (:func:`larger_font`): a PDF line whose height is at least
  :data:`HEADING_FONT_RATIO` times the document's median line height.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence

from buildds.transform.clauses.lines import Line

__all__ = ["HEADING_FONT_RATIO", "RAGGED_SHARE", "SHORT_LINE_EMS", "ends_paragraph", "larger_font",
           "toc_lines"]

#: a PDF line ending this many character heights before the column's right edge ends a paragraph
SHORT_LINE_EMS = 2.0
#: an English PDF line stopping this share of the column short ends a paragraph anyway
RAGGED_SHARE = 0.3
#: a PDF line this much taller than the median line is set in a heading font
HEADING_FONT_RATIO = 1.15

_TOC_STYLE = re.compile(r"^(?:toc|目次|table of contents|contents)\s*\d*$", re.IGNORECASE)
_TOC_TITLE = re.compile(r"^(?:table\s+of\s+contents|contents|index|目\s*次)$", re.IGNORECASE)
_DOT_LEADER = re.compile(r"(?:[.．·・…‥_]\s*){4,}\s*(?:page\s*)?[0-9ivxlc]{1,4}$", re.IGNORECASE)
_TAB_PAGE = re.compile(r"\t\s*[0-9]{1,3}$")
_ENDS_PAGE = re.compile(r"\D\s+[0-9]{1,3}$")


def _toc_style(ln: Line) -> bool:
    return bool(ln.block.style and _TOC_STYLE.match(ln.block.style.strip()))


def toc_lines(lines: Sequence[Line]) -> set[int]:
    """Indices of the lines that belong to a table of contents (see the module docstring)."""
    out: set[int] = set()
    in_toc = False
    for i, ln in enumerate(lines):
        det = ln.det
        if _TOC_TITLE.match(det.strip(" :：")):
            out.add(i)
            in_toc = True
            continue
        page_end = bool(_ENDS_PAGE.search(det)) and len(det) <= 120
        if _toc_style(ln) or _DOT_LEADER.search(det) or (
                _TAB_PAGE.search(ln.text) and len(det) <= 120):
            out.add(i)
            in_toc = True
        elif in_toc and page_end:
            out.add(i)
        elif in_toc and len(det) <= 60 and not det.endswith((".", "。")) and not out:
            continue  # a title line under "CONTENTS" (e.g. "CLAUSE", a rule) before the entries
        else:
            in_toc = False
    return out


def ends_paragraph(lines: Sequence[Line], lang: str = "ja") -> list[bool]:
    """For each line: whether it is a PDF/OCR line that stops short of its page's right text
    edge (the author ended the paragraph there). Paragraph lines (docx) are always ends.

    Japanese text fills its lines (every character is one em), so any short line ends a
    paragraph; English text is often set ragged-right, so there a short line must also end a
    sentence (``.``, ``:``, ``;``) or stop before :data:`RAGGED_SHARE` of the column."""
    edges: dict[int | None, list[float]] = {}
    lefts: dict[int | None, float] = {}
    for ln in lines:
        if ln.block.bbox is not None:
            page = ln.block.page
            edges.setdefault(page, []).append(ln.block.bbox[2])
            lefts[page] = min(lefts.get(page, ln.block.bbox[0]), ln.block.bbox[0])
    # the column's right edge: a high quantile, so one wide table row does not move it
    right = {page: sorted(xs)[int(0.8 * (len(xs) - 1))] for page, xs in edges.items()}
    out = []
    for ln in lines:
        box = ln.block.bbox
        if box is None:
            out.append(True)
            continue
        edge = right[ln.block.page]
        short = box[2] < edge - SHORT_LINE_EMS * max(box[3] - box[1], 1.0)
        if lang != "ja" and short:
            width = max(edge - lefts[ln.block.page], 1.0)
            short = ln.det.endswith((".", ":", ";", "!", "?")) or (
                box[2] < edge - RAGGED_SHARE * width)
        out.append(short)
    return out


def larger_font(lines: Sequence[Line]) -> list[bool]:
    """For each line: whether it is a PDF line set noticeably larger than the median line."""
    heights = [ln.block.bbox[3] - ln.block.bbox[1] for ln in lines if ln.block.bbox is not None]
    if len(heights) < 5:
        return [False] * len(lines)
    median = statistics.median(heights)
    return [ln.block.bbox is not None and median > 0
            and (ln.block.bbox[3] - ln.block.bbox[1]) >= HEADING_FONT_RATIO * median
            for ln in lines]
