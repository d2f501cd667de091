"""PDF files → pages of lines with bounding boxes and font sizes, in reading order (pypdfium2);
pages without a text layer are rendered and read by OCR (:mod:`buildds.extract.ocr`).

This package imports the OCR package, never the reverse: OCR reads images and knows no PDF.

Modules:

- :mod:`.document` — :func:`open_pdf`: a regular file, a real PDF, errors naming the file;
- :mod:`.lines` — :func:`extract_pdf` (text layer → lines, furniture apart, OCR fallback),
  :func:`reading_order`, :func:`split_furniture`;
- :mod:`.ocr_pages` — :func:`ocr_pdf_pages`: render pages in greyscale and OCR them
  (:func:`plan_pages`, :func:`render_page`, :func:`page_dpi`);
- :mod:`.page_task` — :func:`ocr_page_task`: one page (of a PDF or an image file) OCR'd in a
  caller's own process pool.
"""

from __future__ import annotations

from buildds.extract.pdf.document import open_pdf
from buildds.extract.pdf.lines import OcrMode, extract_pdf, reading_order, split_furniture
from buildds.extract.pdf.ocr_pages import ocr_pdf_pages, page_dpi, plan_pages, render_page
from buildds.extract.pdf.page_task import ocr_page_task

__all__ = [
    "OcrMode",
    "extract_pdf",
    "ocr_page_task",
    "ocr_pdf_pages",
    "open_pdf",
    "page_dpi",
    "plan_pages",
    "reading_order",
    "render_page",
    "split_furniture",
]
