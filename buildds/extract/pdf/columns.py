"""Reading order of multi-column pages, found from the text boxes themselves.

A column boundary (a *gutter*) is an x-range that almost no line covers, with a fair share
of the page's lines wholly on each side of it: on a one-column page every body line crosses
the middle, so none is found; on a two-column page the left column's lines end before the
gutter and the right column's begin after it. A line that crosses a gutter (a heading set
across the page, a centred footer) *spans*: it closes the band of columns above it, so a
page reads band by band, and within a band column by column, each top to bottom.

Each line comes back with its ``column`` (0 for the leftmost; a spanning line keeps the
column it starts in), so that indentation is measured from its own column's margin.

Columns set row by row (the left column's line, then the right one's at the same height)
come out of the PDF's text as one line per row; :mod:`buildds.extract.pdf.lines` then finds
the gutters from pdfium's text runs (:func:`gutters_of_spans`) and cuts those lines there.

Pure geometry over :class:`~buildds.schema.PdfLine` boxes; no text is looked at.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from buildds.schema import PdfLine

__all__ = ["find_gutters", "gutters_of_spans", "order_columns", "order_pages"]

#: a gutter must leave at least this share of the lines wholly on each side
_MIN_SIDE_SHARE = 0.2
#: lines that may cross a gutter (headings, a centred footer), as a share of all lines
_MAX_CROSSING_SHARE = 0.08
#: gutters are looked for in this middle part of the text block
_INNER = (0.15, 0.85)


def _median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if ordered else 0.0


def find_gutters(lines: Sequence[PdfLine]) -> list[float]:
    """The x of each column boundary on a page (the middle of its gutter), left to right;
    empty for a one-column page (or one with too few lines to tell)."""
    char = _median([ln.font_size or 10.0 for ln in lines]) or 10.0
    return gutters_of_spans([(ln.bbox[0], ln.bbox[2]) for ln in lines], char)


def gutters_of_spans(spans: Sequence[tuple[float, float]], char: float) -> list[float]:
    """:func:`find_gutters` over the x-extents of any boxes (lines, or pdfium's text runs,
    which stop at a gap even where the PDF's text joins two columns into one line)."""
    if len(spans) < 8:
        return []
    left = min(a for a, _ in spans)
    right = max(b for _, b in spans)
    if right - left < 50:
        return []
    allowed = max(3, int(len(spans) * _MAX_CROSSING_SHARE))
    lo = left + (right - left) * _INNER[0]
    hi = left + (right - left) * _INNER[1]
    gutters: list[float] = []
    for start, end in _sparse_ranges(spans, allowed):
        start, end = max(start, lo), min(end, hi)
        if end - start >= 0.8 * char and _splits(spans, start, end):
            gutters.append(round((start + end) / 2, 2))
    return gutters


def _sparse_ranges(spans: Sequence[tuple[float, float]],
                   allowed: int) -> list[tuple[float, float]]:
    """The x-ranges covered by at most ``allowed`` spans (a sweep over their edges)."""
    events = sorted([(a, 1) for a, _ in spans] + [(b, -1) for _, b in spans])
    ranges: list[tuple[float, float]] = []
    count = 0
    open_at: float | None = None
    for x, delta in events:
        count += delta
        if count <= allowed and open_at is None:
            open_at = x
        elif count > allowed and open_at is not None:
            if x > open_at:
                ranges.append((open_at, x))
            open_at = None
    return ranges


def _splits(spans: Sequence[tuple[float, float]], start: float, end: float) -> bool:
    """Enough spans lie wholly left of ``start`` and wholly right of ``end``."""
    need = _MIN_SIDE_SHARE * len(spans)
    on_left = sum(1 for _, b in spans if b <= start + 0.5)
    on_right = sum(1 for a, _ in spans if a >= end - 0.5)
    return on_left >= need and on_right >= need


def order_pages(pages: Sequence[Sequence[PdfLine]],
                row_order: Callable[[list[PdfLine]], list[PdfLine]]) -> list[list[PdfLine]]:
    """Every page in reading order (:func:`order_columns`). A page too thin to show its
    columns by itself — the last page, its right column a few lines long — takes the
    gutters of the document's other pages when its lines keep clear of them."""
    found = [find_gutters(lines) for lines in pages]
    seen = sorted(g for gutters in found for g in gutters)
    recurring = [g for g in seen if sum(1 for h in seen if abs(h - g) < 6.0) >= 2]
    common = sorted({round(g, -1) for g in recurring})
    out = []
    for lines, own in zip(pages, found, strict=True):
        gutters = own or [g for g in _merge(recurring, common) if _fits(lines, g)]
        out.append(order_columns(lines, row_order, gutters=gutters))
    return out


def _merge(recurring: list[float], common: list[float]) -> list[float]:
    """One gutter per cluster of recurring gutters (their median)."""
    return [_median([g for g in recurring if round(g, -1) == c]) for c in common]


def _fits(lines: Sequence[PdfLine], gutter: float) -> bool:
    """Lines on both sides of ``gutter`` and (almost) none across it."""
    crossing = sum(1 for ln in lines if ln.bbox[0] < gutter < ln.bbox[2])
    left = any(ln.bbox[2] <= gutter for ln in lines)
    right = any(ln.bbox[0] >= gutter for ln in lines)
    return left and right and crossing <= max(2, int(len(lines) * _MAX_CROSSING_SHARE))


def order_columns(lines: Sequence[PdfLine],
                  row_order: Callable[[list[PdfLine]], list[PdfLine]],
                  gutters: Sequence[float] | None = None) -> list[PdfLine]:
    """``lines`` in reading order: bands separated by spanning lines, each band column by
    column, each column in ``row_order`` (top to bottom, then left to right). ``gutters``:
    the page's column boundaries, found from its lines when not given. A page without
    gutters is just ``row_order(lines)``, its lines unchanged."""
    gutters = find_gutters(lines) if gutters is None else list(gutters)
    if not gutters:
        return row_order(list(lines))

    def column_of(ln: PdfLine) -> int:
        return sum(1 for g in gutters if ln.bbox[0] >= g)

    def spans(ln: PdfLine) -> bool:
        return any(ln.bbox[0] < g < ln.bbox[2] for g in gutters)

    out: list[PdfLine] = []
    band: list[PdfLine] = []

    def flush() -> None:
        for k in range(len(gutters) + 1):
            out.extend(row_order([ln for ln in band if column_of(ln) == k]))
        band.clear()

    for ln in sorted(lines, key=lambda x: (x.bbox[1], x.bbox[0])):
        if spans(ln):
            flush()
            out.append(ln)
        else:
            band.append(ln)
    flush()
    return [ln if column_of(ln) == ln.column else ln.model_copy(update={"column": column_of(ln)})
            for ln in out]
