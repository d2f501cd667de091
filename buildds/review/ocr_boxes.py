"""Where a statement stands on a scanned page: the page's OCR lines, not its text layer.

A scanned booklet has no text layer, so :func:`buildds.review.pages.locate_text` finds
nothing on its pages. The build read such a page with tesseract
(:func:`buildds.extract.pdf.ocr_pages.ocr_pdf_pages`), whose lines carry boxes in PDF points
from the top-left corner, as text-layer lines do. :func:`ocr_page_lines` reads the page the
same way, with the build's OCR settings (:data:`buildds.jobs.jbe_ocr.DEFAULT_OCR` unless
given), and caches the lines as JSON under the build's ``.review-cache/ocr/`` by the file's
sha256, the page and the settings, so tesseract runs once per page whatever the number of
looks. :func:`locate_loosely` then finds the statement in those lines: first as the text
layer is searched, then — an OCR line may differ from the item's text where the build
repaired a label or a slot marker — by the first of several short probes from the text's
start and the first of several from its end.

Tesseract takes seconds a page, so the queue does not wait for it: an item of a scanned page
carries :class:`OcrBoxEvidence`, whose ``bbox`` and ``box_from`` are found when the item page
first reads them. The build's outputs are not changed; a page tesseract cannot read (no tesseract, an
unreadable page) gives no box, and the page is shown without one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from buildds.errors import BuildError
from buildds.jobs.jbe_ocr import DEFAULT_OCR, OcrSettings
from buildds.pipeline import atomic_write_text
from buildds.review.pages import PDFIUM_LOCK, _squash, locate_text
from buildds.safeio.hashing import sha256_file
from buildds.schema import PdfLine

__all__ = ["OCR_CACHE", "OcrBoxEvidence", "locate_loosely", "ocr_page_lines"]

#: where the OCR lines of scanned pages are cached, under the build output
OCR_CACHE = Path(".review-cache") / "ocr"

Box = tuple[float, float, float, float]


def ocr_page_lines(pdf: Path, page: int, cache_dir: Path,
                   settings: OcrSettings = DEFAULT_OCR) -> list[PdfLine] | None:
    """The OCR lines of page ``page`` (from 1) of ``pdf``, from ``cache_dir`` when read
    before; None when the page cannot be read (no tesseract, a bad page)."""
    key = f"{sha256_file(pdf)}-p{page}-{settings.lang}-{settings.dpi}-{settings.psm}.json"
    cached = cache_dir / key
    if cached.is_file():
        return [PdfLine.model_validate(x) for x in json.loads(cached.read_text("utf-8"))]
    from buildds.extract.pdf.ocr_pages import ocr_pdf_pages

    try:
        with PDFIUM_LOCK:
            read = ocr_pdf_pages(pdf, [page], lang=settings.lang, processes=1,
                                 dpi=settings.dpi, psm=settings.psm)
    except BuildError:
        return None
    lines = list(read[page].lines) if page in read else []
    atomic_write_text(cached, json.dumps([ln.model_dump(mode="json") for ln in lines],
                                         ensure_ascii=False))
    return lines


def _joined(lines: Sequence[PdfLine]) -> tuple[str, list[int]]:
    joined, owner = "", []
    for n, line in enumerate(lines):
        part = _squash(line.text)
        joined += part
        owner += [n] * len(part)
    return joined, owner


def locate_loosely(lines: Sequence[PdfLine], text: str, *, probe: int = 6,
                   tries: int = 4) -> Box | None:
    """The box around the lines holding ``text`` (as :func:`~buildds.review.pages.locate_text`
    gives it), tolerant of OCR differences: when the exact search fails, the start is where
    the first of ``tries`` ``probe``-character pieces from the text's start is found (moved
    back by its offset), the end where the first of ``tries`` pieces from its end is found
    after it. Only the lines of the first page matched make the box."""
    box = locate_text(lines, text)
    if box is not None:
        return box
    wanted = _squash(text)
    joined, owner = _joined(lines)
    if len(wanted) < probe or not joined:
        return None
    start = end = -1
    for i in range(0, min(tries * probe, len(wanted) - probe + 1), probe):
        at = joined.find(wanted[i:i + probe])
        if at >= 0:
            start = max(0, at - i)
            break
    if start < 0:
        return None
    for j in range(0, min(tries * probe, len(wanted) - probe + 1), probe):
        piece = wanted[len(wanted) - j - probe:len(wanted) - j]
        at = joined.find(piece, start)
        if at >= 0:
            end = min(len(joined), at + probe + j)
            break
    if end <= start:
        end = min(len(joined), start + len(wanted))
    chosen = [lines[i] for i in sorted(set(owner[start:end]))]
    chosen = [ln for ln in chosen if ln.page == chosen[0].page]
    return (min(ln.bbox[0] for ln in chosen), min(ln.bbox[1] for ln in chosen),
            max(ln.bbox[2] for ln in chosen), max(ln.bbox[3] for ln in chosen))


class OcrBoxEvidence(dict):  # type: ignore[type-arg]
    """An item's evidence whose ``bbox`` (the statement's box, or None) and ``box_from``
    (``"OCR lines"``, or ``""`` when not found) are looked up in the OCR lines of its
    scanned page on first use — the item page — and kept; every other key is as given."""

    LAZY = ("bbox", "box_from")

    def __init__(self, evidence: Mapping[str, object], *, pdf: Path, page: int, text: str,
                 cache_dir: Path):
        super().__init__(evidence)
        self._where = (pdf, page, text, cache_dir)

    def __missing__(self, key: str) -> object:
        if key not in self.LAZY:
            raise KeyError(key)
        pdf, page, text, cache_dir = self._where
        lines = ocr_page_lines(pdf, page, cache_dir)
        box = locate_loosely(lines, text) if lines else None
        self["bbox"] = [round(v, 2) for v in box] if box else None
        self["box_from"] = "OCR lines" if box else ""
        return self[key]

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        return self[key] if key in self.LAZY else super().get(key, default)
