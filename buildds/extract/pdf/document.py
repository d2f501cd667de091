"""Opening a PDF: only a regular file, only a real PDF, every failure naming the file.

:func:`open_pdf` checks the bytes before pdfium parses them (empty, not a PDF, truncated),
turns pdfium's errors into :class:`~buildds.errors.PdfError` (corrupt, encrypted, wrong
password) and, given ``max_pages``, refuses a document of more pages
(:func:`~buildds.extract.page_limit.check_page_count`) before any page is read. Both the text
reader (:mod:`buildds.extract.pdf.lines`) and the OCR renderer
(:mod:`buildds.extract.pdf.ocr_pages`) open PDFs through it.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from buildds.errors import LimitExceeded, PdfError
from buildds.extract.page_limit import check_page_count
from buildds.safeio.sniff import describe, read_regular

__all__ = ["open_pdf"]


def open_pdf(
    path: Path, *, password: str | None = None, display_name: str | None = None,
    max_pages: int | None = None,
) -> tuple[pdfium.PdfDocument, bytes]:
    """Open a PDF after checking it is one (and, given ``max_pages``, that it has at most
    that many pages); every failure names the file."""
    name = display_name or str(path)
    data = read_regular(path, name, PdfError)
    if not data:
        raise PdfError("file is empty (0 bytes)", source=name)
    head = data[:1024]
    if b"%PDF-" not in head:
        kind = describe(data)
        raise PdfError(f"not a PDF (the file starts like {kind}); check the download", source=name)
    if b"%%EOF" not in data[-2048:]:
        raise PdfError(
            "file is truncated (no %%EOF marker at the end); download it again", source=name
        )
    try:
        doc = pdfium.PdfDocument(data, password=password)
    except pdfium.PdfiumError as exc:
        code = getattr(exc, "err_code", None)
        if code == pdfium_c.FPDF_ERR_PASSWORD:
            if password:
                raise PdfError("the password given does not open this PDF", source=name) from exc
            raise PdfError(
                "PDF is encrypted: a password is needed (pass --password)", source=name
            ) from exc
        if code == pdfium_c.FPDF_ERR_SECURITY:
            raise PdfError("PDF uses an unsupported security handler", source=name) from exc
        raise PdfError(f"corrupt PDF, pdfium cannot parse it ({exc})", source=name) from exc
    if len(doc) == 0:
        doc.close()
        raise PdfError("PDF has no pages", source=name)
    try:
        check_page_count(len(doc), max_pages, name)
    except LimitExceeded:
        doc.close()
        raise
    return doc, data
