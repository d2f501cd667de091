"""A PDF's outline (bookmarks) as heading marks on its lines: the author's own structure.

:func:`mark_outline_headings` turns each body line whose text is a bookmark title (spaces
ignored; on the bookmark's page when it names one) into a ``heading`` block with the
bookmark's level (1 = top), which :mod:`buildds.transform.clauses` reads as a clause heading
before any pattern. A PDF without an outline (most contracts) is left as it is; an outline
that cannot be read is ignored (the text is still there).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from buildds.schema.contracts import DocBlock

__all__ = ["mark_outline_headings", "outline_entries"]

#: bookmarks read at most (a hostile outline must not cost more than the pages do)
MAX_BOOKMARKS = 5000
#: bookmark depth read at most
MAX_DEPTH = 6


def _key(text: str) -> str:
    return re.sub(r"\s+", "", text)


def outline_entries(path: Path, password: str | None = None) -> list[tuple[int | None, int, str]]:
    """``(page or None, level from 1, title)`` for each bookmark, in outline order."""
    import pypdfium2 as pdfium

    try:
        doc = pdfium.PdfDocument(str(path), password=password)
    except pdfium.PdfiumError:
        return []
    out: list[tuple[int | None, int, str]] = []
    try:
        for k, mark in enumerate(doc.get_toc(max_depth=MAX_DEPTH)):
            if k >= MAX_BOOKMARKS:
                break
            title = (mark.get_title() or "").strip()
            dest = mark.get_dest()
            index = dest.get_index() if dest is not None else None
            if title:
                out.append((index + 1 if index is not None else None, mark.level + 1, title))
    except pdfium.PdfiumError:
        return []
    finally:
        doc.close()
    return out


def mark_outline_headings(blocks: Sequence[DocBlock], path: Path,
                          password: str | None = None) -> list[DocBlock]:
    """``blocks`` with the lines that are bookmark titles marked as headings."""
    entries = outline_entries(path, password)
    if not entries:
        return list(blocks)
    wanted: dict[str, list[tuple[int | None, int]]] = {}
    for page, level, title in entries:
        wanted.setdefault(_key(title), []).append((page, level))
    out = []
    for b in blocks:
        hits = wanted.get(_key(b.text), [])
        found = next((lv for page, lv in hits if page is None or page == b.page), None)
        out.append(b if found is None else b.model_copy(update={"kind": "heading",
                                                                "level": found}))
    return out
