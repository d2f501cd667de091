"""PDF pages as evidence: a page rendered to PNG (cached on disk) and where a statement stands
on it.

* :func:`render_page_png` renders one page of an original PDF with pypdfium2 and caches the
  PNG under the build's ``.review-cache/pages/`` by the file's sha256, the page and the
  resolution, so a second look at the same page costs a file read;
* :func:`locate_text` finds the lines of a page that carry a statement and returns the box
  around them (PDF points, origin top-left, as :class:`~buildds.schema.PdfLine` boxes are),
  which the item page draws as a highlight over the image. The lines come from the same
  extraction the build ran (:func:`buildds.extract.pdf.lines.extract_pdf`), so the box
  covers exactly the text the item was made from; the build's outputs are not changed.

pdfium is not thread-safe, and the web app answers requests from a thread pool: every call
into it here holds :data:`PDFIUM_LOCK`.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from buildds.pipeline import atomic_write_bytes
from buildds.safeio.hashing import sha256_file
from buildds.schema import PdfDocument, PdfLine

__all__ = ["DPI", "PDFIUM_LOCK", "locate_text", "page_lines", "render_page_png"]

#: resolution of the rendered page images
DPI = 110
PDFIUM_LOCK = threading.RLock()


def render_page_png(pdf: Path, page: int, cache_dir: Path, *, dpi: int = DPI) -> bytes:
    """The PNG of page ``page`` (from 1) of ``pdf``, from ``cache_dir`` when rendered before.
    Raises ``ValueError`` for a page the file does not have."""
    key = f"{sha256_file(pdf)}-p{page}-{dpi}.png"
    cached = cache_dir / "pages" / key
    if cached.is_file():
        return cached.read_bytes()
    import io

    import pypdfium2 as pdfium

    with PDFIUM_LOCK:
        doc = pdfium.PdfDocument(str(pdf))
        try:
            if not 1 <= page <= len(doc):
                raise ValueError(f"{pdf.name} has {len(doc)} pages, not a page {page}")
            bitmap = doc[page - 1].render(scale=dpi / 72, grayscale=True)
            image = bitmap.to_pil()
        finally:
            doc.close()
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False)
    data = buf.getvalue()
    atomic_write_bytes(cached, data)
    return data


def page_lines(pdf: Path) -> PdfDocument:
    """Every page's body lines of ``pdf`` as the build extracted them (text layer only: a
    scanned page has none; :mod:`buildds.review.ocr_boxes` reads its OCR lines instead)."""
    from buildds.extract.pdf.lines import extract_pdf

    with PDFIUM_LOCK:
        return extract_pdf(pdf, ocr="never", max_pages=None)


def _squash(text: str) -> str:
    """Text compared without spaces and width differences (ｂ/b, １/1)."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text) if not ch.isspace())


def locate_text(lines: Sequence[PdfLine], text: str,
                *, probe: int = 12) -> tuple[float, float, float, float] | None:
    """The box (x0, top, x1, bottom) around the lines holding ``text``, or None when the
    text is not found. The match is on the text's start and end (``probe`` characters each,
    spaces and widths ignored), so a statement split over lines is found whole; give the
    next page's lines too for one that runs over a page break (the box is then the part on
    the first page)."""
    wanted = _squash(text)
    if not wanted:
        return None
    joined = ""
    owner: list[int] = []
    for n, line in enumerate(lines):
        part = _squash(line.text)
        joined += part
        owner += [n] * len(part)
    head = wanted[:probe]
    start = joined.find(head)
    if start < 0:
        return None
    tail = wanted[-probe:]
    end = joined.find(tail, start + max(0, len(wanted) - len(tail) - probe))
    if end < 0:
        end = joined.find(tail, start)
    if end < 0:
        return None
    chosen = [lines[i] for i in sorted(set(owner[start:end + len(tail)]))]
    chosen = [ln for ln in chosen if ln.page == chosen[0].page]  # the first page's part
    return (min(ln.bbox[0] for ln in chosen), min(ln.bbox[1] for ln in chosen),
            max(ln.bbox[2] for ln in chosen), max(ln.bbox[3] for ln in chosen))
