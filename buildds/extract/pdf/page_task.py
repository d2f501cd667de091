"""The process-pool task that OCRs one page where it lives (a PDF page or an image frame).

:func:`ocr_page_task` lets a caller with its own pool (the contracts batch reader) send a
small picklable task instead of a rendered image: the worker opens the file itself. Pools
running it should use :func:`~buildds.extract.ocr.worker_pool.worker_init` as initializer.
Part of :mod:`buildds.extract.pdf` (it renders PDF pages; the OCR package knows no PDF).
"""

from __future__ import annotations

from pathlib import Path

from buildds.extract.ocr.images import image_frame
from buildds.extract.ocr.job import OcrJob, OcrPage
from buildds.extract.ocr.one_image import ocr_one_image
from buildds.extract.pdf.document import open_pdf
from buildds.extract.pdf.ocr_pages import render_page

__all__ = ["ocr_page_task"]


def ocr_page_task(task: tuple[OcrJob, str, str, int, str | None]) -> OcrPage:
    """Worker: read one page where it lives — ``(job, kind, path, page, password)`` with
    ``kind`` ``"pdf"`` (the worker opens the PDF and renders the page at ``job.dpi``: pdfium
    stays out of threads, each process has its own) or ``"image"`` (frame ``page`` of an
    image file) — and OCR it exactly as :func:`~buildds.extract.pdf.ocr_pages.ocr_pdf_pages` /
    :func:`~buildds.extract.ocr.images.ocr_image_pages` do.
    Meant for a process pool whose initializer is
    :func:`~buildds.extract.ocr.worker_pool.worker_init`."""
    job, kind, path, page, password = task
    if kind == "pdf":
        doc, _ = open_pdf(Path(path), password=password, display_name=job.source)
        try:
            image = render_page(doc, page, job.dpi, job.source)
        finally:
            doc.close()
    else:
        image = image_frame(Path(path), page, job.source)
    return ocr_one_image((job, page, image))
